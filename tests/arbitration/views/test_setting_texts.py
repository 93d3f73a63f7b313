"""Texts that quote an event setting read the setting (issue 29): the ruling page's time to
appeal (appeal_minutes), the table's seating card (late_limit_minutes), the new-event form's
round length (the presets' default_round_minutes)."""

from django.urls import reverse
from django.utils import translation

from arbitration.services.incidents import log_incident
from arbitration.services.rulings import rule
from tests.factories import enter_result


def test_the_ruling_page_quotes_the_events_appeal_minutes(arb, client):
    arb.event.settings = {"appeal_minutes": 45}
    arb.event.save(update_fields=["settings"])
    enter_result(arb)
    incident = log_incident(
        arb.event,
        arb.chief,
        category="other",
        description="x",
        match=arb.match,
        team=arb.teams[0],
    )
    [ruling] = rule(incident, arb.chief, step="warning", reason="x")
    client.force_login(arb.captain)
    url = reverse("arbitration:ruling", args=[arb.event.slug, ruling.pk])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "within 45 minutes of the end of the match" in english
    assert "30 minutes" not in english
    chinese = client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "须于赛后 45 分钟内以书面形式提出。" in chinese


def test_the_seating_card_quotes_the_events_late_limit(arb, client):
    arb.event.settings = {"late_limit_minutes": 12}
    arb.event.save(update_fields=["settings"])
    client.force_login(arb.referee)
    url = f"/t/{arb.event.slug}/table/1/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "late list at the start + 12 minutes" in page
    assert "比赛开始 12 分钟后" in client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()


def test_the_round_length_help_reads_the_presets():
    from tournaments.forms import EventForm

    with translation.override("en"):
        help_text = str(EventForm().fields["round_minutes"].help_text)
    assert "Idiom-chain poker 成语接龙 30 minutes" in help_text
    assert "Guandan 掼蛋 60 minutes" in help_text
