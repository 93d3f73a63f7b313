"""The API of the national text's incidents: the categories an event offers, the refusal of
a national one elsewhere as {error, field}, the in-play steps of a ruling and a wrong
tribute's re-scored result."""

import pytest

from arbitration.models import Ruling
from tests.factories import counting_outcome, enter_result

pytestmark = pytest.mark.django_db

BASE = "/api/arbitration/tournaments/{slug}/"


def path(arb, tail):
    return BASE.format(slug=arb.event.slug) + tail


def national(arb):
    arb.event.preset = "guandan-national"
    arb.event.save()


def log(api, arb, **extra):
    data = {
        "match": arb.match.pk,
        "team": arb.teams[0].pk,
        "category": "ten_card_call",
        "description": "did not announce 10 cards",
    } | extra
    api.force_authenticate(arb.chief)
    return api.post(path(arb, "incidents/"), data, format="json")


def rule(api, arb, incident, step, **headers):
    api.force_authenticate(arb.chief)
    return api.post(
        path(arb, f"incidents/{incident}/rulings/"),
        {"step": step, "reason": "seen"},
        format="json",
        **headers,
    )


def categories(api, arb):
    api.force_authenticate(arb.chief)
    response = api.get(path(arb, "incidents/categories/"), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 200
    return {row["value"]: row["label"] for row in response.json()}


def test_api_offers_the_national_categories_only_under_the_national_ladder(arb, api):
    offered = categories(api, arb)  # Suzhou: 十(三) 报数 and 五(五) 违规进贡, not 出错牌型
    assert "misplayed_combination" not in offered
    assert {"ten_card_call", "wrong_tribute"} <= set(offered)
    assert offered["out_of_turn"] == "越序出牌"
    national(arb)
    offered = categories(api, arb)
    assert offered["ten_card_call"] == "未报牌（10张报牌）"
    assert {"misplayed_combination", "wrong_tribute", "slow_play"} <= set(offered)


def test_api_refuses_a_national_category_under_the_suzhou_preset_as_error_and_field(arb, api):
    response = log(api, arb, category="misplayed_combination")
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "category" and "national rules only" in body["error"]


def test_api_national_ten_card_call_second_offence_is_violation_and_loss_of_a_round_of_play(
    arb, api
):
    national(arb)
    first = log(api, arb).json()["id"]
    assert rule(api, arb, first, "verbal_warning").status_code == 201
    second = log(api, arb).json()["id"]
    response = rule(api, arb, second, "violation", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert response.status_code == 201
    [ruling] = response.json()
    assert ruling["step"] == "violation" and ruling["in_play_steps"] == ["round_of_play_lost"]
    assert ruling["step_name"] == "记违例" and ruling["in_play_names"] == ["停止一圈出牌权"]


def test_api_wrong_tribute_incident_names_the_deal_and_its_ruling_rescores(arb, api):
    national(arb)
    enter_result(arb)
    response = log(api, arb, category="wrong_tribute", deal=1, seat="W")
    assert response.status_code == 201, response.json()
    incident = response.json()
    assert (incident["deal"], incident["seat"]) == (1, "W")
    response = rule(api, arb, incident["id"], "scored_last")
    assert response.status_code == 201
    [ruling] = response.json()
    assert ruling["effect"]["adjustment"]["type"] == "wrong_tribute"
    assert counting_outcome(arb.match)["winner"] == "NS"


def test_api_wrong_tribute_of_a_deal_not_played_is_refused_with_its_field(arb, api):
    national(arb)
    enter_result(arb)
    incident = log(api, arb, category="wrong_tribute", deal=7, seat="E").json()["id"]
    response = rule(api, arb, incident, "scored_last")
    assert response.status_code == 400
    assert response.json()["field"] == "deal" and "no deal 7" in response.json()["error"]
    assert not Ruling.objects.exists()


def test_api_wrong_tribute_seat_of_the_other_side_is_refused(arb, api):
    national(arb)
    response = log(api, arb, category="wrong_tribute", deal=1, seat="S")
    assert response.status_code == 400 and response.json()["field"] == "seat"
    response = log(api, arb, category="wrong_tribute", deal=1, seat="X")
    assert response.status_code == 400 and response.json()["field"] == "seat"
