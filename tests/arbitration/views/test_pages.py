"""The arbitration pages: the whole flow through forms, permissions, dashboards."""

import re
from datetime import UTC, datetime, timedelta

import time_machine
from django.urls import reverse
from django.utils import timezone

from arbitration.models import Appeal, Incident, Ruling
from arbitration.services import appeals
from arbitration.services.incidents import log_incident
from arbitration.services.rulings import rule
from tests.factories import enter_result, points

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def url(name, arb, *args):
    return reverse(f"arbitration:{name}", args=[arb.event.slug, *args])


def as_user(client, user):
    client.force_login(user)
    return client


def post(client, user, path, data):
    return as_user(client, user).post(path, data, **EN)


def ruled(arb, step, reason, category="other", description="x", **more):
    """The chief's ruling on an incident at the first match against its home team."""
    incident = log_incident(
        arb.event,
        arb.chief,
        category=category,
        description=description,
        match=arb.match,
        team=arb.teams[0],
    )
    [ruling] = rule(incident, arb.chief, step=step, reason=reason, **more)
    return ruling


def test_flow_through_the_pages_incident_ruling_appeal_overturn(arb, client):
    enter_result(arb)
    response = post(
        client,
        arb.referee,
        url("incident-add", arb),
        {
            "match": arb.match.pk,
            "team": arb.teams[0].pk,
            "category": "signalling",
            "description": "tapped the table",
            "reported_by": "North player",
        },
    )
    incident = Incident.objects.get()
    assert response.status_code == 302 and response.url == url("incident", arb, incident.pk)
    page = as_user(client, arb.chief).get(url("incident", arb, incident.pk), **EN)
    assert b"tapped the table" in page.content and b"ruling-form" in page.content
    response = post(
        client,
        arb.chief,
        url("incident", arb, incident.pk),
        {
            "step": "level_deduction",
            "team": arb.teams[0].pk,
            "levels": 1,
            "reason": "signal",
        },
    )
    ruling = Ruling.objects.get()
    assert response.url == url("ruling", arb, ruling.pk)
    assert points(arb.event)["Team 001"] == 10
    page = as_user(client, arb.captain).get(url("ruling", arb, ruling.pk), **EN)
    assert b"appeal-form" in page.content and b"revoke-form" not in page.content
    response = post(
        client, arb.captain, url("appeal-add", arb, ruling.pk), {"grounds": "it was a cough"}
    )
    appeal = Appeal.objects.get()
    assert response.url == url("appeal", arb, appeal.pk)
    for member in arb.committee[:2]:
        page = as_user(client, member).get(url("appeal", arb, appeal.pk), **EN)
        assert b"vote-form" in page.content
        post(
            client,
            member,
            url("appeal", arb, appeal.pk),
            {"choice": "overturn", "reason": "a cough"},
        )
    assert appeal.status == "decided"
    assert points(arb.event)["Team 001"] == 11
    page = as_user(client, arb.captain).get(url("appeal", arb, appeal.pk), **EN)
    assert b"Overturn the ruling" in page.content


def test_only_the_chief_referee_may_post_a_ruling(arb, client):
    incident = log_incident(
        arb.event,
        arb.referee,
        category="slow_play",
        description="slow",
        match=arb.match,
        team=arb.teams[0],
    )
    data = {"step": "warning", "team": arb.teams[0].pk, "levels": 1, "reason": "x"}
    for user in (arb.referee, arb.committee[0], arb.captain, arb.organiser):
        assert post(client, user, url("incident", arb, incident.pk), data).status_code == 403
    assert not Ruling.objects.exists()


def test_nobody_edits_or_deletes_a_ruling(arb, client):
    """No page or API edits a ruling; the admin is read-only for change and delete."""
    from django.contrib import admin

    from arbitration.models import Appeal, Revocation, Vote

    ruling = ruled(arb, "warning", "x")
    request = type("R", (), {"user": arb.chief})()
    for model in (Ruling, Revocation, Appeal, Vote, Incident):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_change_permission(request, ruling)
        assert not model_admin.has_delete_permission(request, ruling)
    for method in ("put", "patch", "delete"):
        response = getattr(as_user(client, arb.chief), method)(url("ruling", arb, ruling.pk))
        assert response.status_code == 405


def test_refused_ruling_shows_the_reason_on_the_form(arb, client):
    incident = log_incident(
        arb.event,
        arb.chief,
        category="other",
        description="x",
        match=arb.match,
        team=arb.teams[0],
    )
    response = post(
        client,
        arb.chief,
        url("incident", arb, incident.pk),
        {
            "step": "level_deduction",
            "team": arb.teams[0].pk,
            "levels": 1,
            "reason": "x",
        },
    )
    assert response.status_code == 409  # the match's present state refuses it (issue 31)
    assert b"no counting result yet" in response.content


def test_table_referee_of_another_table_may_not_log_there(arb, client):
    data = {"match": arb.match.pk, "team": arb.teams[0].pk, "category": "other", "description": "x"}
    assert post(client, arb.referee2, url("incident-add", arb), data).status_code == 403
    assert post(client, arb.captain, url("incident-add", arb), data).status_code == 403


def test_late_appeal_page_shows_the_refusal_and_the_chief_accepts(arb, client):
    t0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    with time_machine.travel(t0, tick=False) as clock:
        enter_result(arb)
        ruling = ruled(arb, "warning", "x")
        clock.shift(timedelta(minutes=40))
        response = post(client, arb.captain, url("appeal-add", arb, ruling.pk), {"grounds": "late"})
        page = client.get(response.url, **EN)
        assert b"within 30 minutes" in page.content
        response = post(
            client,
            arb.chief,
            url("accept-late", arb, Appeal.objects.get().pk),
            {"reason": "the result was posted late"},
        )
        assert Appeal.objects.get().status == "open"


def test_chief_dashboard_lists_open_incidents_pending_forfeits_and_appeal_deadlines(arb, client):
    t0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    with time_machine.travel(t0, tick=False) as clock:
        arb.round.started_at = t0
        arb.round.save()
        enter_result(arb)
        log_incident(
            arb.event,
            arb.referee,
            category="slow_play",
            description="slow",
            match=arb.match,
            team=arb.teams[0],
        )
        log_incident(
            arb.event,
            arb.referee2,
            category="late_arrival",
            description="late",
            match=arb.match2,
            team=arb.teams[3],
            arrived_at=t0 + timedelta(minutes=12),
        )
        ruling = ruled(arb, "warning", "x")
        appeals.file_appeal(ruling, arb.captain, "x")
        clock.shift(timedelta(minutes=100))
        page = as_user(client, arb.chief).get(url("chief", arb), **EN).content.decode()
    assert page.count("Slow play") >= 1 and "Team 004" in page
    assert "12 minutes late (limit 10)" in page  # whole minutes, never 12.0
    assert "next penalty step" in page  # the open slow-play incident shows what comes next
    assert "Table 2 · Team 003 – Team 004" in page  # no counting result at table 2
    assert "Deadline near" in page and "19:00" in page  # 09:00 UTC + 2 h, in Asia/Shanghai
    assert as_user(client, arb.referee).get(url("chief", arb)).status_code == 403


def test_committee_dashboard_and_team_record(arb, client):
    enter_result(arb)
    ruling = ruled(arb, "warning", "spoke")
    appeals.file_appeal(ruling, arb.captain, "x")
    page = as_user(client, arb.committee[0]).get(url("committee", arb), **EN).content.decode()
    assert "Warning" in page and "Team 001" in page
    record = as_user(client, arb.captain).get(url("team-record", arb, arb.teams[0].pk), **EN)
    assert b"spoke" in record.content
    other = url("team-record", arb, arb.teams[1].pk)
    assert as_user(client, arb.captain3).get(other).status_code == 403


def test_printable_ruling_page(arb, client):
    enter_result(arb)
    ruling = ruled(arb, "level_deduction", "signal")
    page = as_user(client, arb.chief).get(url("ruling", arb, ruling.pk), **EN).content.decode()
    assert "@media print" in page and "signature" in page
    assert re.search(r"10 : 10", page)


def test_the_appeal_page_shows_the_ruling_and_the_filing_deadline(arb, client):
    """From "my team's rulings" the captain's appeal page says which ruling it answers and by
    when (it was a bare "give a reason" box)."""
    enter_result(arb)
    ruling = ruled(arb, "warning", "敲桌示意同伴", category="signalling", description="敲桌")
    page = as_user(client, arb.captain).get(
        url("appeal-add", arb, ruling.pk), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    html = page.content.decode()
    assert "<h1>对本判罚提出申诉</h1>" in html
    card = html.split('id="appealed-ruling"')[1].split("</div>")[0]
    assert f"判罚 #{ruling.pk}" in card and "敲桌示意同伴" in card and arb.teams[0].name in card
    deadline = timezone.localtime(appeals.filing_deadline(ruling)).strftime("%H:%M")
    assert 'id="filing-deadline"' in card and f">{deadline}</time>" in card
    assert "提交申诉" in html


def test_an_overturned_appeal_reads_with_the_votes_word(arb, client):
    """The committee votes 撤销判罚 (overturn); the decision then reads 撤销, not 改判 (which
    reads as either overturned or amended)."""
    enter_result(arb)
    ruling = ruled(
        arb, "level_deduction", "敲桌", category="signalling", description="敲桌", levels=1
    )
    appeal = appeals.file_appeal(ruling, arb.captain, "咳嗽")
    for member in arb.committee[:2]:
        appeals.vote(appeal, member, "overturn", "录像为证")
    page = as_user(client, arb.captain).get(
        url("appeal", arb, appeal.pk), HTTP_ACCEPT_LANGUAGE="zh-hans"
    )
    decision = page.content.decode().split('id="decision"')[1].split("</p>")[0]
    assert "撤销" in decision and "改判" not in decision


def test_rule_decided_and_refused_appeals_show_their_decision_not_a_countdown(arb, client):
    """Issue 35: a refused or decided appeal still counted down to its answer (and its
    filing deadline) on the committee's dashboard, the chief's desk and its own page."""
    t0 = datetime(2026, 5, 1, 9, 0, tzinfo=UTC)
    with time_machine.travel(t0, tick=False) as clock:
        enter_result(arb)
        decided = appeals.file_appeal(ruled(arb, "warning", "spoke"), arb.captain, "x")
        for member in arb.committee[:2]:
            appeals.vote(decided, member, "overturn", "录像为证")
        second = ruled(arb, "warning", "again")
        clock.shift(timedelta(minutes=40))
        refused = appeals.file_appeal(second, arb.captain, "late")
        assert (decided.status, refused.status) == ("decided", "refused")
        dashboard = as_user(client, arb.committee[0]).get(url("committee", arb), **EN)
        html = dashboard.content.decode()
        for part in ("decided-appeals", "refused-appeals"):
            section = html.split(f'id="{part}"')[1].split("</table>")[0]
            assert "countdown" not in section, (part, section)
        section = html.split('id="decided-appeals"')[1].split("</table>")[0]
        assert "Overturned" in section and "(2/3)" in section
        assert "Refused (late)" in html.split('id="refused-appeals"')[1].split("</table>")[0]
        for appeal in (decided, refused):
            page = as_user(client, arb.captain).get(url("appeal", arb, appeal.pk), **EN)
            card = page.content.decode().split('id="appeal"')[1].split('id="appealed-ruling"')[0]
            assert "countdown" not in card, card
        desk = as_user(client, arb.chief).get(url("chief", arb), **EN).content.decode()
        row = desk.split('id="appeals"')[1].split("</table>")[0]
        assert f"#{refused.pk}" in row and "countdown" not in row
        home = as_user(client, arb.chief).get("/", **EN).content.decode()
        if 'id="desk-appeals"' in home:
            panel = home.split('id="desk-appeals"')[1].split("</section>")[0]
            assert "countdown" not in panel, panel
