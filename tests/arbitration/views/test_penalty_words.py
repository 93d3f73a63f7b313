"""One vocabulary (SPEC §5): a penalty match loss is 判负, a forfeit 弃权, a bye 轮空, each
distinct on the results list, the match page and the public team page."""

from __future__ import annotations

from arbitration.services.incidents import log_incident
from arbitration.services.rulings import rule
from tests.factories import result


def penalise(arb):
    case = log_incident(
        arb.event,
        arb.chief,
        category="signalling",
        description="seen",
        match=arb.match,
        team=arb.teams[1],
    )
    rule(case, arb.chief, step="match_loss", reason="signalling")


def zh(client, url) -> str:
    return client.get(url, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()


def test_a_penalty_match_loss_reads_判负_never_弃权(arb, client):
    penalise(arb)  # table 1: Team 002 loses by ruling (no result entered yet)
    result(arb.match2, deals=None, forfeit="EW")  # table 2: Team 003 did not come
    client.force_login(arb.chief)
    slug = arb.event.slug
    listing = zh(client, f"/t/{slug}/results/?round=1")
    assert f"判负：{arb.teams[1].name}" in listing and f"弃权：{arb.teams[1].name}" not in listing
    assert f"弃权：{arb.teams[2].name}" in listing
    team_page = zh(client, f"/t/{slug}/teams/{arb.teams[1].pk}/")
    history = team_page.split("<table")[-1]
    assert 'data-mark="penalty_loss"' in history and "判负" in history
    assert 'data-mark="forfeit"' not in history
    opponent = zh(client, f"/t/{slug}/teams/{arb.teams[0].pk}/").split("<table")[-1]
    assert "对方判负" in opponent and "对方弃权" not in opponent
    forfeiter = zh(client, f"/t/{slug}/teams/{arb.teams[2].pk}/").split("<table")[-1]
    assert 'data-mark="forfeit"' in forfeiter and "判负" not in forfeiter
    match_page = zh(client, f"/t/{slug}/results/match/{arb.match.pk}/")
    assert "判负" in match_page
