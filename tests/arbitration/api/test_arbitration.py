"""The arbitration API: the same flow and the same refusals as the pages, in JSON."""

import pytest

from arbitration.models import Evidence, Ruling
from tests.factories import enter_result, points

BASE = "/api/arbitration/tournaments/{slug}/"


def path(arb, tail):
    return BASE.format(slug=arb.event.slug) + tail


def log(api, arb, user=None, **extra):
    data = {
        "match": arb.match.pk,
        "team": arb.teams[0].pk,
        "category": "signalling",
        "description": "tapped the table",
    } | extra
    api.force_authenticate(user or arb.referee)
    return api.post(path(arb, "incidents/"), data, format="json")


def test_api_flow_incident_ruling_appeal_overturn(arb, api):
    enter_result(arb)
    response = log(api, arb)
    assert response.status_code == 201, response.json()
    incident = response.json()["id"]
    api.force_authenticate(arb.chief)
    response = api.post(
        path(arb, f"incidents/{incident}/rulings/"),
        {"step": "level_deduction", "levels": 1, "reason": "signal"},
        format="json",
    )
    assert response.status_code == 201
    [ruling] = response.json()
    assert ruling["effect"]["adjustment"]["type"] == "level_deduction"
    assert points(arb.event)["Team 001"] == 10
    api.force_authenticate(arb.captain)
    response = api.post(
        path(arb, f"rulings/{ruling['id']}/appeals/"), {"grounds": "a cough"}, format="json"
    )
    appeal = response.json()
    assert response.status_code == 201 and appeal["status"] == "open"
    assert appeal["deadline_state"] == "ok"
    for member in arb.committee[:2]:
        api.force_authenticate(member)
        response = api.post(
            path(arb, f"appeals/{appeal['id']}/votes/"),
            {"choice": "overturn", "reason": "a cough"},
            format="json",
        )
        assert response.status_code == 201
    api.force_authenticate(arb.chief)
    decided = api.get(path(arb, f"appeals/{appeal['id']}/")).json()
    assert decided["status"] == "decided" and decided["decision"]["choice"] == "overturn"
    assert api.get(path(arb, f"rulings/{ruling['id']}/")).json()["active"] is False
    assert points(arb.event)["Team 001"] == 11


def test_api_only_chief_rules_and_answers_json_403(arb, api):
    incident = log(api, arb).json()["id"]
    for user in (arb.referee, arb.committee[0], arb.captain):
        api.force_authenticate(user)
        response = api.post(
            path(arb, f"incidents/{incident}/rulings/"),
            {"step": "warning", "reason": "x"},
            format="json",
        )
        assert response.status_code == 403
        assert "chief referee" in response.json()["error"]
    assert not Ruling.objects.exists()


def test_api_member_cannot_vote_twice_and_others_cannot_vote(arb, api):
    enter_result(arb)
    incident = log(api, arb).json()["id"]
    api.force_authenticate(arb.chief)
    [ruling] = api.post(
        path(arb, f"incidents/{incident}/rulings/"),
        {"step": "warning", "reason": "x"},
        format="json",
    ).json()
    api.force_authenticate(arb.captain)
    appeal = api.post(
        path(arb, f"rulings/{ruling['id']}/appeals/"), {"grounds": "x"}, format="json"
    ).json()
    vote = path(arb, f"appeals/{appeal['id']}/votes/")
    api.force_authenticate(arb.chief)
    assert api.post(vote, {"choice": "uphold", "reason": "x"}, format="json").status_code == 403
    api.force_authenticate(arb.committee[0])
    assert api.post(vote, {"choice": "uphold", "reason": "x"}, format="json").status_code == 201
    again = api.post(vote, {"choice": "overturn", "reason": "y"}, format="json")
    assert again.status_code == 400
    assert again.json() == {
        "error": "You have already voted on this appeal.",
        "field": "appeal",
        "code": "invalid",
    }


@pytest.mark.parametrize("method", ["put", "patch", "delete"])
def test_api_has_no_way_to_edit_or_delete_a_ruling(arb, api, method):
    incident = log(api, arb).json()["id"]
    api.force_authenticate(arb.chief)
    [ruling] = api.post(
        path(arb, f"incidents/{incident}/rulings/"),
        {"step": "warning", "reason": "x"},
        format="json",
    ).json()
    response = getattr(api, method)(
        path(arb, f"rulings/{ruling['id']}/"), {"reason": "edit"}, format="json"
    )
    assert response.status_code == 405
    assert Ruling.objects.get().reason == "x"


def test_api_bad_input_names_the_field(arb, api):
    response = log(api, arb, category="cheating")
    assert response.status_code == 400 and response.json()["field"] == "category"
    response = log(api, arb, team=arb.teams[2].pk)
    assert response.status_code == 400 and response.json()["field"] == "team"
    incident = log(api, arb).json()["id"]
    api.force_authenticate(arb.chief)
    response = api.post(
        path(arb, f"incidents/{incident}/rulings/"),
        {"step": "round_lost", "reason": "x"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "step"


def test_api_desk_answers_and_attaches(arb, api):
    api.force_authenticate(arb.referee)
    request = {"game": "guandan", "level": "7", "previous": ["S5", "H5"], "play": ["S6", "H7"]}
    answer = api.post(path(arb, "desk/"), {"request": request}, format="json").json()
    assert answer["legal"] is True and answer["kind"] == "pair"
    incident = log(api, arb).json()["id"]
    response = api.post(
        path(arb, "desk/"), {"request": request, "incident": incident}, format="json"
    )
    assert response.status_code == 201
    assert Evidence.objects.get().answer == answer


def test_api_dashboards_and_team_record(arb, api):
    log(api, arb)
    api.force_authenticate(arb.chief)
    board = api.get(path(arb, "dashboard/chief/")).json()
    assert len(board["open_incidents"]) == 1
    assert {m["table_number"] for m in board["unconfirmed_matches"]} == {1, 2}
    api.force_authenticate(arb.committee[0])
    assert api.get(path(arb, "dashboard/committee/")).json()["open"] == []
    assert api.get(path(arb, "dashboard/chief/")).status_code == 403
    record = api.get(path(arb, f"teams/{arb.teams[0].pk}/record/")).json()
    assert record["status"] == "active" and len(record["incidents"]) == 1


def test_api_refuses_strangers(arb, api, make_user):
    api.force_authenticate(make_user())
    assert api.get(path(arb, "rulings/")).status_code == 403
    api.force_authenticate(None)
    assert api.get(path(arb, "rulings/")).status_code == 403  # no credentials: session auth


def test_a_rulings_step_name_is_in_the_requests_language(arb, api):
    enter_result(arb)
    incident = log(api, arb).json()["id"]
    api.force_authenticate(arb.chief)
    [ruling] = api.post(
        path(arb, f"incidents/{incident}/rulings/"),
        {"step": "level_deduction", "levels": 1, "reason": "signal"},
        format="json",
    ).json()
    assert ruling["step_name"] == "Level deduction (降级)" and "step_zh" not in ruling
    chinese = api.get(path(arb, f"rulings/{ruling['id']}/"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert chinese.json()["step_name"] == "降级"


def test_a_level_ruling_past_twelve_levels_is_refused_naming_levels(arb, api):
    enter_result(arb)
    incident = log(api, arb).json()["id"]
    api.force_authenticate(arb.chief)
    response = api.post(
        path(arb, f"incidents/{incident}/rulings/"),
        {"step": "level_deduction", "levels": 13, "reason": "signal"},
        format="json",
    )
    assert response.status_code == 400 and response.json()["field"] == "levels"
    assert not Ruling.objects.exists()


def test_api_desk_refuses_a_tractor_record_over_300_points_as_the_cli(arb, api):
    api.force_authenticate(arb.referee)
    record = {
        "game": "tractor",
        "preset": "tractor",
        "deals": [
            {"dealer": "EW", "defender_points": 290, "bottom_points": 40, "bottom_multiplier": 2}
        ],
    }
    answer = api.post(
        path(arb, "desk/"), {"action": "score", "request": record}, format="json"
    ).json()
    assert answer["field"] == "deals[0].bottom_points" and "300 points" in answer["error"]


def test_api_desk_lists_legal_plays_and_replays_a_tractor_deal_as_the_cli(arb, api):
    import json
    import subprocess
    import sys

    from tests.rules_engine.tractor_deal import request as tractor_deal

    api.force_authenticate(arb.referee)
    requests = [
        tractor_deal(),
        {
            "game": "guandan",
            "level": "7",
            "hand": ["S9", "C9", "D9", "S9", "H7", "SK"],
            "previous": ["S5", "H5"],
            "list": True,
        },
        {
            "game": "tractor",
            "trump": "S",
            "level": "5",
            "hand": ["S2", "S2", "D4"],
            "lead": ["CJ", "CJ"],
            "list": True,
        },
        {
            "game": "chengyu",
            "trump": "H",
            "hand": ["DQ", "CA", "D3"],
            "trick": ["DK"],
            "list": True,
        },
    ]
    for request in requests:
        answer = api.post(path(arb, "desk/"), {"request": request}, format="json").json()
        done = subprocess.run(
            [sys.executable, "-m", "rules_engine", "check", "-"],
            input=json.dumps(request),
            capture_output=True,
            text=True,
            check=True,
        )
        assert answer == json.loads(done.stdout)


def test_api_desk_follows_a_tractor_throw_unit_by_unit_as_the_cli(arb, api):
    """Issue 28's examples (seed 拖拉机 三.2(4); SPEC §4.3) through the API desk."""
    import json
    import subprocess
    import sys

    from tests.rules_engine.test_tractor_throw_units import ISSUE_EXAMPLES, request

    api.force_authenticate(arb.referee)
    for hand, lead, play, legal, kill, extra in ISSUE_EXAMPLES.values():
        asked = request(hand, lead, play, **extra)
        answer = api.post(path(arb, "desk/"), {"request": asked}, format="json").json()
        assert (answer["legal"], answer["kill"]) == (legal, kill), answer
        done = subprocess.run(
            [sys.executable, "-m", "rules_engine", "check", "-"],
            input=json.dumps(asked),
            capture_output=True,
            text=True,
            check=True,
        )
        assert answer == json.loads(done.stdout)
