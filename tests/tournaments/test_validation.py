"""Finding 6 of issue 13: every input boundary validates; bad input is a 4xx naming the field,
never a 5xx, and nothing refused reaches the database or the audit log."""

from __future__ import annotations

import io
import json

import pytest
from openpyxl import Workbook

from tests.factories import guandan_record
from tournaments.models import AuditLog, Event, ResultVersion

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(client):
    client.defaults["HTTP_ACCEPT_LANGUAGE"] = "en"


@pytest.fixture
def world(make_event, make_user, grant):
    from tournaments.models import Match, Round, RoundSlot, Team

    event = make_event(teams=4, slug="valid")
    teams = list(Team.objects.filter(event=event).order_by("name"))
    round_ = Round.objects.create(event=event, number=1, status="in_play")
    match = Match.objects.create(round=round_, table_number=1, home=teams[0], away=teams[1])
    RoundSlot.objects.create(round=round_, match=match, team=teams[0], side="EW")
    RoundSlot.objects.create(round=round_, match=match, team=teams[1], side="NS")
    user = make_user("boss")
    for role in ("organiser", "chief_referee"):
        grant(user, event, role)
    return event, match, user, teams


def post_json(client, url, body: str, method: str = "post"):
    return getattr(client, method)(url, data=body, content_type="application/json")


def result_url(match) -> str:
    return f"/api/tournaments/{match.round.event.slug}/matches/{match.pk}/result/"


def test_nested_json_is_400(client, world):
    _, match, user, _ = world
    client.force_login(user)
    client.raise_request_exception = False
    for body in ("[" * 50_000 + "]" * 50_000, '{"record": ' + '{"a":' * 40 + "1" + "}" * 41):
        response = post_json(client, result_url(match), body)
        assert response.status_code == 400, response.content[:200]
        assert "nested too deeply" in response.json()["error"]
    assert not ResultVersion.objects.filter(match=match).exists()


def test_nested_json_is_refused_on_the_desk_page_form(client, world):
    """The pages' own JSON fields (the record editor, the rules desk) go through the same
    check: a deep value is a message, not a RecursionError."""
    from arbitration.services import desk
    from arbitration.services.common import ArbitrationError

    with pytest.raises(ArbitrationError) as caught:
        desk._json("[" * 100_000 + "]" * 100_000, "request")
    assert caught.value.field == "request"


def test_large_body_is_413(client, world, settings):
    event, match, user, _ = world
    client.force_login(user)
    body = json.dumps({"record": guandan_record(), "base_version": 0, "note": "x" * 3_000_000})
    response = post_json(client, result_url(match), body)
    assert response.status_code == 413
    assert response.json()["field"] is None and "too large" in response.json()["error"]
    # A form body past the limit is refused the same way, on a page too.
    response = client.post(
        f"/t/{event.slug}/",
        data="a=" + "x" * 3_000_000,
        content_type="application/x-www-form-urlencoded",
    )
    assert response.status_code == 413
    assert not ResultVersion.objects.filter(match=match).exists()


def test_large_body_without_content_length_is_413(world, rf):
    """A chunked body (no Content-Length) is cut at the limit by the API's parser."""
    from tournaments.api.parsers import CheckedJSONParser
    from tournaments.validation import BadInput

    stream = io.BytesIO(b'{"a": "' + b"x" * 3_000_000 + b'"}')
    with pytest.raises(BadInput) as caught:
        CheckedJSONParser().parse(stream, "application/json")
    assert caught.value.status == 413 and caught.value.code == "too_large"


def test_nul_character_refused(client, world):
    event, match, user, _ = world
    client.force_login(user)
    before = AuditLog.objects.count()
    record = guandan_record(deals=[{"finish": ["E\u0000", "W", "S", "N"]}])
    response = post_json(
        client, result_url(match), json.dumps({"record": record, "base_version": 0})
    )
    assert response.status_code == 400
    assert response.json()["field"] == "record.deals.0.finish.0"
    assert "NUL" in response.json()["error"]
    # The rules desk's request, and a text field.
    desk = f"/api/arbitration/tournaments/{event.slug}/desk/"
    response = post_json(
        client, desk, json.dumps({"action": "check", "request": {"game": "guandan\u0000"}})
    )
    assert response.status_code == 400 and response.json()["field"] == "request.game"
    void = f"/api/tournaments/{event.slug}/matches/{match.pk}/void/"
    response = post_json(client, void, json.dumps({"base_version": 0, "reason": "a\u0000b"}))
    assert response.status_code == 400 and response.json()["field"] == "reason"
    # Pages: a form field or a query parameter with a NUL is refused before any view.
    response = client.post(f"/t/{event.slug}/results/", {"reason": "a\x00b"})
    assert response.status_code == 400
    assert client.get(f"/t/{event.slug}/standings/?round=1%00").status_code == 400
    # Nothing stored, and nothing logged with the NUL (a refused record is logged without it).
    assert not ResultVersion.objects.filter(match=match).exists()
    assert AuditLog.objects.count() == before


def test_nul_in_a_record_reaching_the_service_is_refused_and_not_logged(world):
    from tournaments.services import result_entry, results

    _, match, user, _ = world
    actor = results.Actor(user, None, "web", "")
    with pytest.raises(results.ResultError) as caught:
        result_entry.submit(match, guandan_record(comment="a\x00"), actor, 0)
    assert caught.value.field == "record.comment"
    assert not AuditLog.objects.filter(action="result.refused").exists()


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("deal", 40_000),
        ("deal", -1),
        ("deal", 0),
        ("places", 32_768),
        ("places", -3),
        ("levels", 99),
    ],
)
def test_ruling_integers_are_range_checked(client, world, field, value):
    from arbitration.services import incidents

    event, match, user, teams = world
    incident = incidents.log_incident(
        event, user, match=match, team=teams[0], category="other", description="d"
    )
    client.force_login(user)
    url = f"/api/arbitration/tournaments/{event.slug}/incidents/{incident.pk}/rulings/"
    body = {"step": "warning", "reason": "r", field: value}
    response = post_json(client, url, json.dumps(body))
    assert response.status_code == 400, response.content
    assert response.json()["field"] == field
    assert not incident.rulings.exists()


def test_ruling_service_refuses_a_deal_past_its_column(world):
    from arbitration.services import ArbitrationError, incidents, rulings

    event, match, user, teams = world
    incident = incidents.log_incident(
        event, user, match=match, team=teams[0], category="other", description="d"
    )
    for field, value in (("deal", 32_768), ("deal", -1), ("places", 10**9)):
        with pytest.raises(ArbitrationError) as caught:
            rulings.rule(incident, user, step="warning", reason="r", **{field: value})
        assert caught.value.field == field


@pytest.mark.parametrize("value", [0, -1, 40_000])
def test_num_rounds_must_be_at_least_one(client, world, value):
    event, _, user, _ = world
    client.force_login(user)
    response = post_json(
        client,
        f"/api/tournaments/{event.slug}/",
        json.dumps({"num_rounds": value}),
        method="patch",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "num_rounds"
    event.refresh_from_db()
    assert event.num_rounds == 7


def test_export_parameters_validated(client, world):
    """Anonymous GET /export/standings-pdf/?round=1 crashed: clean() got 'round'."""
    event, _, _, _ = world
    base = f"/t/{event.slug}/export/"
    response = client.get(base + "standings-pdf/?round=1")
    assert response.status_code == 400
    assert "round" in response.content.decode()
    for query in (
        "pairings-xlsx/?round=99999999999999999999",
        "pairings-xlsx/?round=abc",
        "pairings-xlsx/?round=-1",
        "standings-pdf/?after_round=70000",
        "standings-xlsx/?after_round=x",
    ):
        assert client.get(base + query).status_code == 400, query


def test_import_text_lengths_checked_before_the_database(world):
    from tournaments.services import registration_import as registration
    from tournaments.services.registration_sheet import TEMPLATE_HEADERS

    event, _, user, _ = world
    workbook = Workbook()
    sheet = workbook.active
    sheet.append(TEMPLATE_HEADERS)
    sheet.append(["T" * 201, "U", "A", "B", 1])
    sheet.append(["Fine", "U" * 201, "A" * 101, "B", 2])
    sheet.append(["Seeded", "U", "A", "B", 10**12])
    out = io.BytesIO()
    workbook.save(out)
    report = registration.import_teams(event, user, out.getvalue())
    assert report.created == 0
    reasons = dict(report.errors)
    assert "longer than 60" in reasons[2]  # the team name's column (issue 39)
    assert "longer than 200" in reasons[3] and "longer than 40" in reasons[3]
    assert "seed" in reasons[4]
    assert not event.teams.filter(name__in=["Fine", "Seeded"]).exists()


def test_event_create_refuses_out_of_range_minutes(client, world):
    _, _, user, _ = world
    user.is_staff = True
    user.save()
    client.force_login(user)
    body = {
        "name": "E",
        "slug": "e-x",
        "game": "guandan",
        "preset": "guandan-suzhou-2016",
        "num_rounds": 3,
        "round_minutes": 10**6,
    }
    response = post_json(client, "/api/tournaments/", json.dumps(body))
    assert response.status_code in (400, 403)
    assert not Event.objects.filter(slug="e-x").exists()


@pytest.mark.parametrize(
    "number", ["9" * 20_000, "1" + "0" * 20_000 + ".5", "1e999999"], ids=["int", "float", "inf"]
)
def test_a_huge_number_in_the_api_is_400_naming_its_field(client, world, number):
    """Issue 39: a 20,000-digit number reached Python's int limit (a ValueError's words)."""
    _, match, user, _ = world
    client.force_login(user)
    client.raise_request_exception = False
    body = '{"base_version": 0, "record": {"game": "guandan", "deals": [' + number + "]}}"
    response = post_json(client, result_url(match), body)
    assert response.status_code == 400, response.content[:200]
    answer = response.json()
    assert answer["code"] == "invalid" and answer["field"] == "record.deals.0", answer
    assert answer["error"].startswith("record.deals.0 is ") and "finite" in answer["error"]
    assert not ResultVersion.objects.filter(match=match).exists()
