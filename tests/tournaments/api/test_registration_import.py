"""The team import over the API: the same service as the import page, update mode included."""

import io

from openpyxl import Workbook

from tournaments.models import AuditLog, Team

HEADER = ["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2", "种子 Seed"]


def upload(rows):
    wb = Workbook()
    ws = wb.active
    ws.append(HEADER)
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    out.seek(0)
    out.name = "teams.xlsx"
    return out


def test_api_import_then_update_reimport(api_as, make_event, make_user, grant):
    event = make_event(units=0)
    api = api_as(grant(make_user(), event, "organiser"))
    url = f"/api/tournaments/{event.slug}/teams-import/"
    first = api.post(url, {"file": upload([["红队", "苏州", "甲", "乙"]])}, format="multipart")
    assert first.status_code == 200 and first.json()["added"] == ["红队"]
    again = api.post(
        url,
        {
            "file": upload([["红队", "苏州", "甲", "丙"], ["蓝队", "", "丁", "戊"]]),
            "mode": "update",
        },
        format="multipart",
    )
    body = again.json()
    assert again.status_code == 200, body
    assert (body["added"], body["updated"], body["unchanged"]) == (["蓝队"], ["红队"], [])
    assert body["warnings"][0][0] == 3 and "蓝队" in body["warnings"][0][1]
    assert list(Team.objects.get(name="红队").players.values_list("name", flat=True)) == [
        "甲",
        "丙",
    ]
    assert AuditLog.objects.filter(event=event, action="team.reimport").exists()


def test_api_import_with_bad_rows_answers_error_field_and_every_row(
    api_as, make_event, make_user, grant
):
    event = make_event(units=0)
    api = api_as(grant(make_user(), event, "organiser"))
    url = f"/api/tournaments/{event.slug}/teams-import/"
    answer = api.post(url, {"file": upload([["红队", "苏州", "", "乙"]])}, format="multipart")
    assert answer.status_code == 400
    body = answer.json()
    assert body["field"] == "file" and "nothing was imported" in body["error"]
    assert body["errors"][0][0] == 2 and "红队" in body["errors"][0][1]
    assert not event.teams.exists()


def test_api_import_is_for_the_organiser(api_as, make_event, make_user, grant):
    event = make_event(units=0)
    api = api_as(grant(make_user(), event, "chief_referee"))
    url = f"/api/tournaments/{event.slug}/teams-import/"
    answer = api.post(url, {"file": upload([["红队", "苏州", "甲", "乙"]])}, format="multipart")
    assert answer.status_code == 403
    assert not event.teams.exists()
