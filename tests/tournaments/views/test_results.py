"""Result pages: table page (login and key), round results, match history and actions."""

from __future__ import annotations

import pytest

from tests.factories import actor, guandan_record
from tournaments.models import AuditLog, Round, TableKey
from tournaments.services import result_entry

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def test_table_page_for_the_assigned_referee_shows_seats_and_players(event, client):
    client.force_login(event.referee)
    page = client.get(f"/t/{event.event.slug}/table/1/", **EN)
    assert page.status_code == 200
    html = page.content.decode()
    assert 'data-seat="E"' in html and "P1-1" in html and "js/table.js" in html
    assert client.get(f"/t/{event.event.slug}/table/2/", **EN).status_code == 403


def test_table_page_by_key_needs_no_login_and_after_revocation_writes_nothing(event, client):
    key = TableKey.objects.create(event=event.event, table_number=1)
    page = client.get(f"/table/{key.key}/", **EN)
    assert page.status_code == 200 and page.context["config"]["revoked"] is False
    key.revoked_at = key.created_at
    key.save()
    # the page still opens, so the deals kept on the phone stay on screen with the reason ...
    page = client.get(f"/table/{key.key}/", **EN)
    assert page.status_code == 200 and page.context["config"]["revoked"] is True
    assert "This table link was revoked" in page.content.decode()
    # ... but the key writes nothing any more
    api_url = f"/api/tournaments/{event.event.slug}/matches/{event.match.pk}/result/"
    refused = client.post(
        api_url,
        {"record": guandan_record(), "base_version": 0},
        content_type="application/json",
        HTTP_X_TABLE_KEY=key.key,
        **EN,
    )
    assert refused.status_code == 401 and "revoked" in refused.json()["error"]
    assert client.get("/table/unknown-key/", **EN).status_code == 404


def test_round_results_page_lists_pending_and_confirmed(event, client):
    result_entry.submit(event.match, guandan_record(), actor(event.chief), 0, confirm=True)
    result_entry.submit(event.match2, guandan_record(), actor(event.other_referee), 0)
    client.force_login(event.chief)
    html = client.get(f"/t/{event.event.slug}/results/", **EN).content.decode()
    assert 'data-state="counting"' in html and 'data-state="pending"' in html
    assert "13 : 7" in html and "1 match awaits a confirmed result" in html


def test_captain_confirms_on_the_match_page(event, client):
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    client.force_login(event.home_captain)
    page_url = f"/t/{event.event.slug}/results/match/{event.match.pk}/"
    assert 'id="confirm-latest"' in client.get(page_url, **EN).content.decode()
    response = client.post(
        page_url + "action/", {"action": "confirm", "base_version": 1}, follow=True, **EN
    )
    assert "waiting for the other captain" in response.content.decode()


def test_chief_correction_with_bad_json_is_a_clear_message(event, client):
    client.force_login(event.chief)
    url = f"/t/{event.event.slug}/results/match/{event.match.pk}/action/"
    response = client.post(
        url,
        {"action": "correct", "base_version": 0, "record": "{oops", "reason": "typo"},
        follow=True,
        **EN,
    )
    assert "not valid JSON" in response.content.decode()


def test_finalise_refused_message_names_the_tables_and_reopen_is_logged(event, client):
    client.force_login(event.chief)
    close = f"/t/{event.event.slug}/results/round/1/close/"
    html = client.post(close, {"action": "finalise"}, follow=True, **EN).content.decode()
    assert "table(s) 1, 2" in html
    for match in (event.match, event.match2):
        result_entry.submit(match, guandan_record(), actor(event.chief), 0, confirm=True)
    client.post(close, {"action": "finalise"})
    assert Round.objects.get(pk=event.round.pk).status == "finalised"
    client.post(close, {"action": "reopen", "reason": "appeal"})
    assert Round.objects.get(pk=event.round.pk).status == "complete"
    assert AuditLog.objects.filter(action="round.reopen", reason="appeal").exists()


def test_table_links_page_shows_qr_and_revokes(event, client):
    client.force_login(event.organiser)
    keys = f"/t/{event.event.slug}/manage/tables/"
    client.post(keys + "keys/", {"table": 1})
    key = TableKey.objects.get(table_number=1, revoked_at__isnull=True)
    html = client.get(keys, **EN).content.decode()
    assert f"/table/{key.key}/" in html and "<svg" in html
    client.post(keys + "keys/", {"revoke": key.pk})
    key.refresh_from_db()
    assert key.revoked_at is not None
    client.force_login(event.referee)
    assert client.get(keys, **EN).status_code == 403


def test_a_table_link_is_made_for_the_referee_chosen_on_the_links_page(event, client):
    client.force_login(event.organiser)
    keys = f"/t/{event.event.slug}/manage/tables/"
    html = client.get(keys, **EN).content.decode()
    assert 'name="referee"' in html and "ref1b" in html  # table 1 has two referees
    client.post(keys + "keys/", {"table": 1, "referee": event.referee2.pk})
    key = TableKey.objects.get(table_number=1, revoked_at__isnull=True)
    assert key.referee == event.referee2
    assert "Belongs to referee ref1b" in client.get(keys, **EN).content.decode()


def test_round_results_page_marks_the_bye_and_a_forfeit_with_their_points(event, client):
    from tests import factories

    factories.result(event.match2, deals=[], forfeit="NS")  # table 2: North–South absent
    client.force_login(event.chief)
    html = client.get(f"/t/{event.event.slug}/results/", **EN).content.decode()
    bye_row = html[html.index('data-state="bye"') :].split("</tr>")[0]
    assert 'data-mark="bye"' in bye_row and "bye (轮空)" in bye_row and " 17" in bye_row
    assert "bye: 17 points, as a forfeit win" in bye_row
    forfeit_row = html[html.rindex("<tr", 0, html.index('data-mark="forfeit"')) :]
    forfeit_row = forfeit_row.split("</tr>")[0]
    assert f"forfeit (弃权): {event.match2.away.name}" in html and "17 : 0" in forfeit_row
    zh = client.get(f"/t/{event.event.slug}/results/").content.decode()
    assert "轮空" in zh and "弃权" in zh


def test_a_dispute_on_the_match_page_names_the_captain_not_the_login(event, client):
    from tournaments.services import disputes

    get_user = type(event.away_captain)
    get_user.objects.filter(pk=event.away_captain.pk).update(first_name="乙队队长")
    result_entry.submit(event.match, guandan_record(), actor(event.referee), 0)
    disputes.raise_dispute(event.match, 1, actor(event.away_captain), "第 6 副是北家先出完")
    client.force_login(event.chief)
    html = client.get(
        f"/t/{event.event.slug}/results/match/{event.match.pk}/",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    ).content.decode()
    line = html.split('class="messages-line error dispute">')[1].split("</p>")[0]
    assert "（乙队队长）" in line and event.away_captain.username not in line


def test_a_best_of_three_by_final_levels_reads_game_by_game_on_the_match_page(event, client):
    event.event.settings = {"match_format": {"end": "deals", "deals": 2, "games": 3}}
    event.event.save(update_fields=["settings"])
    games = [{"final_levels": {"EW": "9", "NS": "2"}}, {"final_levels": {"EW": "8", "NS": "6"}}]
    result_entry.submit(event.match, {"game": "guandan", "games": games}, actor(event.referee), 0)
    client.force_login(event.home_captain)
    page = client.get(
        f"/t/{event.event.slug}/results/match/{event.match.pk}/",
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    )
    deals = page.content.decode().split('id="latest-deals"')[1].split("</ol>")[0]
    assert "尚未录入任何一副牌" not in deals  # it was "no deal entered yet"
    rows = [(row["game"], row["text"]) for row in page.context["latest_deals"]]
    assert rows == [
        ("第 1 局", "最终级数 东西 9 : 南北 2"),
        ("第 2 局", "最终级数 东西 8 : 南北 6"),
    ]


def test_rule_a_finalised_rounds_table_page_says_so_and_takes_no_entry(event, client):
    """Issue 35: the table page of a finalised (locked) round took entry and refused only
    on submit; it now says so and its entry is disabled, by login and by table link."""
    client.force_login(event.referee)
    open_page = client.get(f"/t/{event.event.slug}/table/1/", **EN)
    assert open_page.context["config"]["closed"] == ""
    assert 'id="round-closed"' not in open_page.content.decode()
    assert '<fieldset id="entry-controls" class="entry-controls">' in open_page.content.decode()
    for match in (event.match, event.match2):
        result_entry.submit(match, guandan_record(), actor(event.chief), 0, confirm=True)
    client.force_login(event.chief)
    client.post(f"/t/{event.event.slug}/results/round/1/close/", {"action": "finalise"})
    assert Round.objects.get(pk=event.round.pk).status == "finalised"
    key = TableKey.objects.create(event=event.event, table_number=1)
    client.force_login(event.referee)
    for url in (f"/t/{event.event.slug}/table/1/", f"/table/{key.key}/"):
        page = client.get(url, **EN)
        html = page.content.decode()
        assert "Round 1 is finalised" in page.context["config"]["closed"]
        assert 'id="round-closed"' in html and "Round 1 is finalised" in html
        assert "Nothing can be entered at this table." in html
        assert '<fieldset id="entry-controls" class="entry-controls" disabled>' in html
    zh = client.get(f"/t/{event.event.slug}/table/1/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "第 1 轮已定稿；须由裁判长先重新开启。" in zh.content.decode()
    assert "此桌不能再录入任何结果。" in zh.content.decode()
