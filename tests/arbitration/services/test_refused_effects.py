"""A ruling whose result effect the results service refuses answers 400 with the results
service's reason, in the reader's language (it used to crash: a ResultError was handed to
ArbitrationError.from_rules, which only knows RulesError)."""

import html

import pytest
from django.urls import reverse

from arbitration.models import Incident, Ruling
from arbitration.services.incidents import log_incident
from arbitration.services.rulings import rule
from tournaments.models import ResultVersion, Round
from tournaments.services.results import ResultError

MATCH_LOSS = {"step": "match_loss", "reason": "did not play"}
ENGLISH = "Round 1 is not published yet."
CHINESE = "第 1 轮尚未公布。"


@pytest.fixture
def refused(arb):
    """An incident at a match whose round went back to draft: the results service refuses
    every result version there, so a match-loss ruling cannot take effect."""
    incident = log_incident(
        arb.event,
        arb.chief,
        category="other",
        description="absent",
        match=arb.match,
        team=arb.teams[0],
    )
    Round.objects.filter(pk=arb.round.pk).update(status=Round.Status.DRAFT)
    return Incident.objects.get(pk=incident.pk)


def nothing_stored(arb):
    return (
        not Ruling.objects.exists() and not ResultVersion.objects.filter(match=arb.match).exists()
    )


def test_the_service_refusal_is_the_results_services_own(arb, refused):
    with pytest.raises(ResultError) as caught:
        rule(refused, arb.chief, **MATCH_LOSS)
    assert caught.value.status == 400 and caught.value.field == "round"
    assert nothing_stored(arb)


@pytest.mark.parametrize(("language", "reason"), [("en", ENGLISH), ("zh-hans", CHINESE)])
def test_api_answers_400_with_the_reason_in_the_request_language(
    arb, refused, api, language, reason
):
    api.force_authenticate(arb.chief)
    url = f"/api/arbitration/tournaments/{arb.event.slug}/incidents/{refused.pk}/rulings/"
    response = api.post(url, MATCH_LOSS, format="json", HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert response.json() == {"error": reason, "field": "round", "code": "invalid"}
    assert nothing_stored(arb)


@pytest.mark.parametrize(("language", "reason"), [("en", ENGLISH), ("zh-hans", CHINESE)])
def test_page_answers_400_with_the_reason_in_the_page_language(
    arb, refused, client, language, reason
):
    client.force_login(arb.chief)
    url = reverse("arbitration:incident", args=[arb.event.slug, refused.pk])
    data = {**MATCH_LOSS, "team": arb.teams[0].pk, "levels": 1}
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE=language)
    assert response.status_code == 400
    assert reason in html.unescape(response.content.decode())
    assert nothing_stored(arb)
