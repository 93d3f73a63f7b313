"""Issue 24, the result path says what happened: every refusal of the results API carries a
stable ``code`` the table page reads (never a regex over the field path); a best of three is
entered by its final levels per game; a knockout's "not over" refuses the match, not a deal."""

from __future__ import annotations

import uuid

import pytest

from tests import factories
from tests.factories import guandan_record
from tournaments.models import ResultVersion

pytestmark = pytest.mark.django_db

EW_UP3 = {"finish": ["E", "W", "S", "N"]}
NS_UP1 = {"finish": ["N", "E", "W", "S"]}


def url(event, what, match=None):
    match = match or event.match
    return f"/api/tournaments/{event.event.slug}/matches/{match.pk}/{what}/"


def play_as(event, fmt, preset=None):
    event.event.settings = {"match_format": fmt}
    if preset:
        event.event.preset = preset
    event.event.save()


def post(client, event, what, body, **headers):
    return client.post(url(event, what), body, format="json", **headers)


def levels(ew, ns, passed_a=None):
    return {"final_levels": {"EW": ew, "NS": ns}, "passed_a": passed_a}


def test_rule_a_changed_meanwhile_answers_409_with_its_code(event, api_as):
    client = api_as(event.referee)
    assert (
        post(client, event, "result", {"record": guandan_record(), "base_version": 0}).status_code
        == 201
    )
    again = post(
        client,
        event,
        "result",
        {"record": {"game": "guandan", "final_levels": {"EW": "9", "NS": "4"}}, "base_version": 0},
    )
    assert again.status_code == 409
    body = again.json()
    assert body["code"] == "changed_meanwhile" and body["latest"]["number"] == 1
    assert ResultVersion.objects.filter(match=event.match).count() == 1


def test_rule_a_refused_deal_names_its_index_with_the_code_deal_refused(event, api_as):
    play_as(event, {"end": "deals", "deals": 2})
    client = api_as(event.referee)
    body = post(
        client, event, "preview", {"record": guandan_record([EW_UP3, NS_UP1, EW_UP3])}
    ).json()
    assert body["code"] == "deal_refused" and body["deal"] == 2


def test_rule_a_refused_deal_of_a_best_of_three_names_its_place_among_all_deals(event, api_as):
    play_as(event, {"end": "deals", "deals": 1, "games": 3})
    client = api_as(event.referee)
    record = {"game": "guandan", "games": [{"deals": [EW_UP3]}, {"deals": [NS_UP1, EW_UP3]}]}
    body = post(client, event, "preview", {"record": record}).json()
    assert body["code"] == "deal_refused"
    assert (body["deal"], body["game"], body["game_deal"]) == (2, 1, 1)


def test_rule_a_bad_input_a_forbidden_and_a_login_have_their_codes(event, api_as, api):
    referee = api_as(event.referee)
    bad = post(referee, event, "result", {"record": guandan_record(), "base_version": "x"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    other = api_as(event.other_referee)
    forbidden = post(other, event, "result", {"record": guandan_record(), "base_version": 0})
    assert forbidden.status_code == 403 and forbidden.json()["code"] == "forbidden"
    nobody = post(api, event, "preview", {"record": guandan_record()})
    assert nobody.status_code in (401, 403) and nobody.json()["code"]


def test_rule_best_of_three_by_final_levels_per_game_is_stored_and_scored(event, api_as):
    play_as(event, {"end": "pass_a", "games": 3}, preset="guandan-national")
    client = api_as(event.referee)
    record = {"game": "guandan", "games": [levels("9", "4"), levels("3", "8"), levels("K", "5")]}
    preview = post(
        client, event, "preview", {"record": {"game": "guandan", "games": record["games"][:2]}}
    )
    assert preview.status_code == 200 and preview.json()["over"] is False
    assert preview.json()["games_won"] == {"EW": 1, "NS": 1}
    response = post(
        client,
        event,
        "result",
        {"record": record, "base_version": 0},
        HTTP_IDEMPOTENCY_KEY=str(uuid.uuid4()),
    )
    assert response.status_code == 201, response.json()
    version = ResultVersion.objects.get(match=event.match)
    assert version.outcome["games_won"] == {"EW": 2, "NS": 1} and version.outcome["winner"] == "EW"
    assert version.outcome["match_points"] == {"EW": 2, "NS": 0}
    assert [g["final_levels"] for g in version.record["games"]][2] == {"EW": "K", "NS": "5"}


def test_rule_best_of_three_by_one_final_levels_for_the_match_is_refused_naming_games(
    event, api_as
):
    play_as(event, {"end": "pass_a", "games": 3}, preset="guandan-national")
    client = api_as(event.referee)
    body = post(
        client,
        event,
        "result",
        {"record": {"game": "guandan", "final_levels": {"EW": "9", "NS": "4"}}, "base_version": 0},
    ).json()
    assert body["field"] == "record.games" and body["code"] == "record_refused"


def test_rule_a_knockout_not_over_refuses_the_match_not_a_deal(api_as):
    event = factories.event(teams=2)
    final = factories.stage(
        event, name="Final", kind="knockout", match_format={"end": "deals", "deals": 3}
    )
    from tournaments.services import rounds, stage_rounds

    organiser = factories.organiser_of

    rnd = rounds.publish(stage_rounds.draw_round(final, organiser(event)), organiser(event))
    match = rnd.matches.get()
    chief = factories.user("chief24")
    factories.grant(chief, event, "chief_referee")
    response = api_as(chief).post(
        f"/api/tournaments/{event.slug}/matches/{match.pk}/result/",
        {"record": guandan_record([EW_UP3]), "base_version": 0},
        format="json",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "match_not_over" and body["field"] == "record" and "deal" not in body
    assert not match.versions.exists()


def test_rule_a_knockout_best_of_three_at_one_game_each_asks_for_game_3(api_as):
    # issue 35: 1:1 in games (levels summed: equal) was refused "one more deal decides"
    event = factories.event(teams=2)
    final = factories.stage(
        event,
        name="Final",
        kind="knockout",
        match_format={"end": "deals", "deals": 2, "games": 3, "knockout": True},
    )
    from tournaments.services import rounds, stage_rounds

    organiser = factories.organiser_of
    rnd = rounds.publish(stage_rounds.draw_round(final, organiser(event)), organiser(event))
    match = rnd.matches.get()
    chief = factories.user("chief35")
    factories.grant(chief, event, "chief_referee")
    ew_up1 = {"finish": ["E", "N", "S", "W"]}
    ns_up3 = {"finish": ["N", "S", "E", "W"]}
    games = [{"deals": [EW_UP3, ew_up1]}, {"deals": [ns_up3, NS_UP1]}]  # EW by 4, NS by 4
    response = api_as(chief).post(
        f"/api/tournaments/{event.slug}/matches/{match.pk}/result/",
        {"record": {"game": "guandan", "games": games}, "base_version": 0},
        format="json",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "match_not_over" and body["field"] == "record"
    assert "局分 1 : 1" in body["error"] and "第 3 局" in body["error"], body
    assert "加赛一副" not in body["error"]
    assert not match.versions.exists()
