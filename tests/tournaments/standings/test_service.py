"""Standings from stored results: counting versions only, byes, forfeits, adjustments, cache."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.tournaments.round_helpers import add_result, make_round, play_round
from tournaments import freshness
from tournaments.models import Event, RankingAdjustment, ResultVersion, Round, Team
from tournaments.standings import service


def teams_of(event):
    return list(Team.objects.filter(event=event).order_by("pk"))


def by_team(rows):
    return {row.team: row for row in rows}


def test_only_the_counting_version_of_a_result_counts(make_event):
    event = make_event(teams=4)
    a, b, c, d = teams_of(event)
    rnd = make_round(event, 1, [(a, b), (c, d)])
    first, second = rnd.matches.order_by("table_number")
    add_result(first, counting=False)  # a submission not yet confirmed
    add_result(second)  # counting: c wins by 3 levels, 13:7
    add_result(second, deals=[{"finish": ["N", "S", "E", "W"]}])  # correction: d wins 13:7
    rows = by_team(service.standings_for(event))
    assert rows[a.pk].points == rows[b.pk].points == 0
    assert (rows[c.pk].points, rows[d.pk].points) == (7, 13)
    assert rows[d.pk].metrics["level_diff"] == 3


def test_match_points_and_level_difference_come_from_the_engine_answer(make_event):
    event = make_event(teams=2)
    a, b = teams_of(event)
    play_round(event, 1, [(a, b)])
    rows = service.standings_for(event)
    assert [(row.team, row.rank, row.points) for row in rows] == [(a.pk, 1, 13), (b.pk, 2, 7)]
    assert (rows[0].metrics["level_diff"], rows[1].metrics["level_diff"]) == (3, -3)


def test_bye_counts_as_the_presets_forfeit_win(make_event):
    event = make_event(teams=3)  # guandan-suzhou-2016: forfeit 17:0
    a, b, c = teams_of(event)
    play_round(event, 1, [(a, b)], byes=[c])
    rows = by_team(service.standings_for(event))
    assert rows[c.pk].points == 17
    assert rows[c.pk].rank == 1


def test_bye_of_a_draft_round_does_not_count(make_event):
    event = make_event(teams=3)
    a, b, c = teams_of(event)
    make_round(event, 1, [(a, b)], byes=[c], status=Round.Status.DRAFT)
    assert all(row.points == 0 for row in service.standings_for(event))


def test_forfeit_of_one_side_gives_the_opponent_the_forfeit_score(make_event):
    event = make_event(teams=2)
    a, b = teams_of(event)
    rnd = make_round(event, 1, [(a, b)])
    add_result(rnd.matches.get(), deals=[], forfeit="EW")  # home absent
    rows = by_team(service.standings_for(event))
    assert (rows[a.pk].points, rows[b.pk].points) == (0, 17)


def test_both_absent_both_get_zero(make_event):
    event = make_event(teams=4, preset="guandan-national-2017")
    a, b, c, d = teams_of(event)
    rnd = make_round(event, 1, [(a, b), (c, d)])
    first, second = rnd.matches.order_by("table_number")
    add_result(first, deals=[], forfeit="both")
    add_result(second)  # c wins: 3, d loses: 1
    rows = by_team(service.standings_for(event))
    assert (rows[a.pk].points, rows[b.pk].points) == (0, 0)
    assert (rows[c.pk].points, rows[d.pk].points) == (3, 1)


def test_accumulated_levels_count_own_level_plus_one_for_passing_a(make_event):
    event = make_event(teams=2, preset="guandan-national-2017")
    a, b = teams_of(event)
    rnd = make_round(event, 1, [(a, b)])
    add_result(rnd.matches.get())  # EW end on 5 (index 3), NS on 2 (index 0)
    rows = by_team(service.standings_for(event))
    assert rows[a.pk].metrics["accumulated_levels"] == 3
    assert rows[a.pk].metrics["net_levels"] == 3
    assert rows[b.pk].metrics["accumulated_levels"] == 0


def test_accumulated_levels_add_one_for_passing_a(make_event):
    event = make_event(teams=2, preset="guandan-national-2017")
    a, b = teams_of(event)
    version = add_result(make_round(event, 1, [(a, b)]).matches.get())
    version.outcome.update(levels={"EW": "A", "NS": "K"}, passed_a="EW")
    version.save()
    rows = by_team(service.standings_for(event))
    assert rows[a.pk].metrics["accumulated_levels"] == 13
    assert rows[b.pk].metrics["accumulated_levels"] == 11


def test_a_counting_version_without_match_points_does_not_count(make_event):
    event = make_event(teams=2)
    a, b = teams_of(event)
    version = add_result(make_round(event, 1, [(a, b)]).matches.get())
    version.outcome = {"void": True}
    version.save()
    assert service.outcomes_for(event) == []


def test_standings_after_a_given_round_ignore_later_rounds(make_event):
    event = make_event(teams=2)
    a, b = teams_of(event)
    play_round(event, 1, [(a, b)])
    play_round(event, 2, [(b, a)])
    after_one = by_team(service.standings_for(event, after_round=1))
    after_two = by_team(service.standings_for(event))
    assert (after_one[a.pk].points, after_one[b.pk].points) == (13, 7)
    assert (after_two[a.pk].points, after_two[b.pk].points) == (20, 20)


def test_active_ranking_adjustment_moves_a_team_down(make_event, make_user):
    event = make_event(teams=4)
    a, b, c, d = teams_of(event)
    play_round(event, 1, [(a, b), (c, d)])
    RankingAdjustment.objects.create(event=event, team=a, places=1, reason="hint")
    RankingAdjustment.objects.create(
        event=event, team=c, places=3, reason="x", cancelled_at=timezone.now()
    )
    rows = service.standings_for(event)
    first, second = rows[0], rows[1]
    assert first.team == c.pk and second.team == a.pk
    assert second.moved_down == 1
    assert by_team(rows)[c.pk].moved_down == 0


def test_withdrawn_team_stays_in_the_standings_flagged(make_event):
    event = make_event(teams=2)
    a, b = teams_of(event)
    play_round(event, 1, [(a, b)])
    Team.objects.filter(pk=b.pk).update(status=Team.Status.WITHDRAWN)
    rows = by_team(service.standings_for(event))
    assert rows[b.pk].status == "withdrawn" and not rows[b.pk].active
    assert rows[a.pk].active and rows[a.pk].name == a.name and rows[a.pk].unit == "Unit 1"


def test_a_counting_result_bumps_the_revision_in_the_database(make_event):
    event = make_event(teams=2)
    a, b = teams_of(event)
    rnd = make_round(event, 1, [(a, b)])
    assert by_team(service.standings_for(event))[a.pk].points == 0
    before = service.revision(event)
    add_result(rnd.matches.get(), counting=False)
    assert service.revision(event) == before  # a version that does not count: no bump
    add_result(rnd.matches.get())
    assert service.revision(event) == before + 1
    assert Event.objects.get(pk=event.pk).revision == before + 1
    assert by_team(service.standings_for(event))[a.pk].points == 13


def test_memoised_standings_answer_until_the_revision_moves(make_event):
    event = make_event(teams=2)
    a, b = teams_of(event)
    rnd = make_round(event, 1, [(a, b)])
    assert by_team(service.standings_for(event))[a.pk].points == 0
    version = add_result(rnd.matches.get(), counting=False)
    # a write past the public manager (the plain one) moves no revision: the memo answers
    ResultVersion._base_manager.filter(pk=version.pk).update(is_counting=True)
    assert by_team(service.standings_for(event))[a.pk].points == 0
    freshness.invalidate(event)
    assert by_team(service.standings_for(event))[a.pk].points == 13


def test_a_stale_copy_of_the_event_never_moves_its_revision_back(make_event):
    event = make_event()
    stale = Event.objects.get(pk=event.pk)
    freshness.invalidate(event)
    freshness.invalidate(event)
    now = service.revision(event)
    stale.name = "Renamed"
    stale.save()  # its in-memory revision is two behind: never written back
    assert service.revision(event) == now + 1  # the rename itself bumps it


def test_outcomes_are_loaded_in_a_fixed_number_of_queries(
    make_event, django_assert_max_num_queries
):
    event = make_event(teams=8)
    teams = teams_of(event)
    for number in (1, 2, 3):
        play_round(event, number, list(zip(teams[::2], teams[1::2], strict=True)))
    with django_assert_max_num_queries(2):
        outcomes = service.outcomes_for(event)
    assert len(outcomes) == 12


def test_rank_history_lists_each_teams_rank_per_round(make_event):
    event = make_event(teams=2)
    a, b = teams_of(event)
    play_round(event, 1, [(a, b)])
    play_round(event, 2, [(b, a)])
    rnd = play_round(event, 3, [(b, a)])
    assert rnd.number == 3
    history = service.rank_history(event)
    assert history[a.pk] == [1, 1, 2]
    assert history[b.pk] == [2, 1, 1]  # equal on every metric after round 2: both first


def test_metric_labels_follow_the_presets_order(make_event):
    event = make_event(preset="guandan-national-2017")
    keys = [key for key, _ in service.metric_labels(event)]
    assert keys == list(event.get_preset().standings_order)


def test_metric_labels_are_chinese_under_zh_hans(make_event):
    """Issue 29: a refreshed catalogue once dropped the labels (gettext(variable)); the
    standings headers then read "Match points" under zh-hans."""
    from django.utils import translation

    event = make_event(preset="guandan-national-2017")
    with translation.override("zh-hans"):
        labels = dict(service.metric_labels(event))
    assert labels["points"] == "场分" and labels["net_levels"] == "净积小分"
    assert all(not label.isascii() for label in labels.values()), labels


def test_changed_standings_order_setting_applies_at_once(make_event):
    event = make_event(teams=2)
    service.standings_for(event)
    event.settings = {"standings_order": ["points", "draw_lots"]}
    event.save()
    assert set(service.standings_for(event)[0].metrics) == {"points", "draw_lots"}


@pytest.mark.django_db(transaction=True)
def test_the_revision_is_the_sum_of_the_event_s_counters_and_grows_by_one_a_bump(
    make_event,
):
    """Issue 14: the revision is spread over REVISION_SHARDS counters (concurrent commits
    bump different rows); what every reader sees is their sum, one more a bump."""
    from tournaments.freshness import REVISION_SHARDS
    from tournaments.models import EventRevision

    event = make_event()
    other = make_event()
    start, other_start = service.revision(event), service.revision(other)
    for _ in range(60):  # each its own transaction: a transaction bumps one counter (issue 31)
        freshness.invalidate(event)
    assert service.revision(event) == start + 60
    assert Event.objects.get(pk=event.pk).revision == start + 60  # the loaded one
    assert service.revision(other) == other_start  # each event its own counters
    shards = set(EventRevision.objects.filter(event=event).values_list("shard", flat=True))
    assert len(shards) > 1 and shards <= set(range(REVISION_SHARDS))
    loaded = Event.objects.get(pk=event.pk)
    latest = EventRevision.objects.filter(event=event).order_by("-at").first()
    assert loaded.revised_at == latest.at  # Last-Modified: the last bump of any counter
    freshness.invalidate(event)
    assert loaded.revision == start + 60  # as loaded: an answer's key stays its own
    loaded.refresh_from_db()
    assert loaded.revision == start + 61


def test_a_new_event_is_at_revision_zero_until_its_first_bump():
    event = Event(name="x", slug="x", game="guandan", preset="guandan-suzhou")
    assert event.revision == 0 and event.revised_at is None
