"""Team import from .xlsx: all-or-nothing, every bad row reported with its number and reason."""

import io

import pytest
from openpyxl import Workbook, load_workbook

from tournaments.models import Player, Team, Unit
from tournaments.services.registration import ImportFileError, import_teams, template_workbook

HEADER = ["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2", "种子 Seed"]


def xlsx(rows, header=HEADER) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.append(header)
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.fixture
def organiser_client(client, make_tournament, make_user, grant):
    tournament = make_tournament(units=0)
    user = grant(make_user(), tournament, "organiser")
    client.force_login(user)
    return client, tournament, user


@pytest.fixture
def organiser_of(make_user, grant):
    return lambda tournament: grant(make_user(), tournament, "organiser")


def test_good_file_imports_every_team_with_two_players_and_units(make_tournament, organiser_of):
    tournament = make_tournament(units=0)
    data = xlsx(
        [
            ["苏州一队", "苏州协会", "张三", "李四", 1],
            ["南京一队", "南京俱乐部", "王五", "赵六", None],
            ["苏州二队", "苏州协会", "孙七", "周八", 2],
        ]
    )
    report = import_teams(tournament, organiser_of(tournament), data)
    assert report.ok and report.created == 3
    assert Team.objects.filter(tournament=tournament).count() == 3
    assert set(Unit.objects.filter(tournament=tournament).values_list("name", flat=True)) == {
        "苏州协会",
        "南京俱乐部",
    }
    team = Team.objects.get(tournament=tournament, name="苏州一队")
    assert [p.name for p in team.players.order_by("seat_order")] == ["张三", "李四"]
    assert team.seed == 1
    assert Team.objects.get(name="南京一队").seed is None


def test_three_bad_rows_import_nothing_and_report_all_three(make_tournament, organiser_of):
    tournament = make_tournament(units=0)
    data = xlsx(
        [
            ["好队", "A", "甲", "乙", 1],
            ["", "A", "丙", "丁", None],  # row 3: missing team name
            ["好队", "B", "戊", "己", None],  # row 4: duplicate team
            ["三人队", "C", "庚", "辛", None, "壬"],  # row 5: three players
        ]
    )
    report = import_teams(tournament, organiser_of(tournament), data)
    assert not report.ok
    assert report.created == 0
    rows = [row for row, _ in report.errors]
    assert rows == [3, 4, 5]
    reasons = dict(report.errors)
    assert "team name" in reasons[3] or "队名" in reasons[3]
    assert "duplicate" in reasons[4] or "重复" in reasons[4]
    assert "two players" in reasons[5] or "两名" in reasons[5]
    assert Team.objects.filter(tournament=tournament).count() == 0
    assert Player.objects.filter(team__tournament=tournament).count() == 0
    assert Unit.objects.filter(tournament=tournament).count() == 0


def test_duplicate_of_an_already_registered_team_is_reported(make_tournament, organiser_of):
    tournament = make_tournament(teams=1, units=1)
    data = xlsx([["Team 001", "X", "a", "b", None]])
    report = import_teams(tournament, organiser_of(tournament), data)
    assert report.errors and report.errors[0][0] == 2


def test_file_that_is_not_xlsx_gives_a_clear_error(make_tournament, organiser_of):
    tournament = make_tournament(units=0)
    with pytest.raises(ImportFileError, match="xlsx"):
        import_teams(tournament, organiser_of(tournament), b"team,unit\nA,B\n")


def test_import_page_shows_every_bad_row_and_imports_nothing(organiser_client):
    client, tournament, _ = organiser_client
    data = xlsx([["", "A", "x", "y"], ["T", "A", "", "y"], ["T2", "A", "x", "y", "seed?"]])
    upload = io.BytesIO(data)
    upload.name = "teams.xlsx"
    response = client.post(
        f"/t/{tournament.slug}/manage/teams/import/", {"file": upload}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    body = response.content.decode()
    for row in ('<td class="num">2</td>', '<td class="num">3</td>', '<td class="num">4</td>'):
        assert row in body
    assert Team.objects.filter(tournament=tournament).count() == 0


def test_import_page_rejects_a_non_xlsx_upload_with_a_message(organiser_client):
    client, tournament, _ = organiser_client
    upload = io.BytesIO(b"%PDF-1.4 not a spreadsheet")
    upload.name = "teams.xlsx"
    response = client.post(f"/t/{tournament.slug}/manage/teams/import/", {"file": upload})
    assert response.status_code == 400
    assert ".xlsx" in response.content.decode()
    assert Team.objects.filter(tournament=tournament).count() == 0


def test_template_download_is_an_xlsx_with_the_import_header(organiser_client):
    client, tournament, organiser = organiser_client
    response = client.get(f"/t/{tournament.slug}/manage/teams/template.xlsx")
    assert response.status_code == 200
    ws = load_workbook(io.BytesIO(response.content)).active
    assert [c.value for c in ws[1]] == HEADER
    # The template itself imports cleanly.
    assert import_teams(tournament, organiser, template_workbook()).created == 1
