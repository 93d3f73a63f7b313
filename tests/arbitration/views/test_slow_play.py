"""The incident page of a slow play under the national preset: the time taken and the
national text's own steps, in Chinese."""

import pytest

from arbitration.services.incidents import log_incident

pytestmark = pytest.mark.django_db


def test_incident_page_shows_the_time_and_the_national_steps_in_chinese(arb, client):
    arb.event.preset = "guandan-national"
    arb.event.save()
    case = log_incident(
        arb.event,
        arb.referee,
        category="slow_play",
        description="slow",
        match=arb.match,
        team=arb.teams[0],
        seconds=31,
    )
    client.force_login(arb.chief)
    page = client.get(
        f"/arbitration/t/{arb.event.slug}/incidents/{case.pk}/", HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    text = page.content.decode()
    assert page.status_code == 200
    assert "计时：出牌 用时 31 秒" in text and "停止一圈出牌权" in text
