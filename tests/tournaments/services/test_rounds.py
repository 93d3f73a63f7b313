"""The pairing service: draft, regenerate, swap, publish and start rounds from the database."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.tournaments.round_helpers import add_result
from tournaments.models import AuditLog, Match, Round, RoundSlot, Team
from tournaments.services import rounds
from tournaments.services.rounds import RoundError
from tournaments.standings.service import standings_for


@pytest.fixture
def organiser(make_user):
    return make_user()


@pytest.fixture
def make_event(make_event, organiser, grant):
    """Every event of these tests is organised by ``organiser`` (the service checks the role)."""

    def make(*args, **kwargs):
        event = make_event(*args, **kwargs)
        grant(organiser, event, "organiser")
        return event

    return make


def tables(rnd):
    return [
        (m.table_number, m.home_id, m.away_id)
        for m in Match.objects.filter(round=rnd).order_by("table_number", "pk")
    ]


def finish_round(rnd, winner_home=True):
    """Every table's home team wins by three levels; the round is finalised."""
    for match in rnd.matches.exclude(away=None):
        deals = [{"finish": ["E", "W", "S", "N"] if winner_home else ["N", "S", "E", "W"]}]
        add_result(match, deals=deals)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINALISED)
    rnd.refresh_from_db()
    from tournaments.freshness import invalidate

    invalidate(rnd.event)
    return rnd


def play_rounds(event, user, count):
    played = []
    for _ in range(count):
        rnd = rounds.generate_draft(event, user)
        rounds.publish(rnd, user)
        played.append(finish_round(rnd))
    return played


def test_round_one_draw_is_reproducible_with_the_stored_seed(make_event, organiser):
    event = make_event(teams=12, units=3)
    rnd = rounds.generate_draft(event, organiser, seed=20261130)
    assert rnd.number == 1 and rnd.draw_seed == 20261130
    first = tables(rnd)
    again = rounds.generate_draft(event, organiser, seed=rnd.draw_seed)
    assert again.pk == rnd.pk
    assert tables(again) == first
    assert len(first) == 6


def test_round_one_without_a_seed_records_a_fresh_random_one(make_event, organiser):
    event = make_event(teams=4)
    rnd = rounds.generate_draft(event, organiser)
    assert rnd.draw_seed is not None
    entry = AuditLog.objects.get(event=event, action="round.draft")
    assert entry.data["seed"] == rnd.draw_seed and entry.actor == organiser


def test_regenerating_a_draft_replaces_its_matches_and_is_logged(make_event, organiser):
    event = make_event(teams=8)
    rnd = rounds.generate_draft(event, organiser, seed=1)
    rounds.generate_draft(event, organiser, seed=2)
    assert Match.objects.filter(round=rnd).count() == 4
    assert RoundSlot.objects.filter(round=rnd).count() == 8
    assert Round.objects.filter(event=event).count() == 1
    redraft = AuditLog.objects.get(event=event, action="round.redraft")
    assert redraft.data["replaced_matches"] == 4 and redraft.data["seed"] == 2


def test_same_unit_teams_are_kept_apart_in_the_draw_when_possible(make_event, organiser):
    event = make_event(teams=8, units=2)  # four teams in each unit
    for seed in range(5):
        rnd = rounds.generate_draft(event, organiser, seed=seed)
        units = dict(Team.objects.filter(event=event).values_list("id", "unit_id"))
        assert all(units[home] != units[away] for _, home, away in tables(rnd))
        assert all(m.flags == [] for m in rnd.matches.all())


def test_an_event_may_switch_same_unit_avoidance_off(make_event, organiser):
    """SPEC 2: same-unit avoidance is configurable; off, the draw ignores units."""
    event = make_event(teams=8, units=2, settings={"avoid_same_unit": False})
    units = dict(Team.objects.filter(event=event).values_list("id", "unit_id"))
    same = 0
    for seed in range(8):
        rnd = rounds.generate_draft(event, organiser, seed=seed)
        same += sum(units[home] == units[away] for _, home, away in tables(rnd))
    assert same > 0  # with avoidance on, no seed ever pairs a unit with itself (test above)


def test_same_unit_meeting_is_flagged_when_unavoidable(make_event, organiser):
    event = make_event(teams=4, units=1)
    rnd = rounds.generate_draft(event, organiser, seed=3)
    assert all(m.flags == ["same_unit"] for m in rnd.matches.all())


def test_no_rematch_across_rounds(make_event, organiser):
    event = make_event(teams=8, num_rounds=5)
    seen = set()
    for rnd in play_rounds(event, organiser, 5):
        for _, home, away in tables(rnd):
            pair = frozenset((home, away))
            assert pair not in seen
            seen.add(pair)


def test_later_round_pairs_top_teams_at_table_one(make_event, organiser):
    event = make_event(teams=8, units=8)
    (first,) = play_rounds(event, organiser, 1)
    winners = {home for _, home, _ in tables(first)}
    second = rounds.generate_draft(event, organiser)
    top = tables(second)[0]
    assert {top[1], top[2]} <= winners
    assert second.draw_seed is None


def test_withdrawn_and_suspended_teams_are_left_out(make_event, organiser):
    event = make_event(teams=6)
    withdrawn, suspended = Team.objects.filter(event=event).order_by("pk")[:2]
    Team.objects.filter(pk=withdrawn.pk).update(status=Team.Status.WITHDRAWN)
    Team.objects.filter(pk=suspended.pk).update(status=Team.Status.SUSPENDED)
    rnd = rounds.generate_draft(event, organiser)
    playing = set(RoundSlot.objects.filter(round=rnd).values_list("team_id", flat=True))
    assert len(playing) == 4
    assert withdrawn.pk not in playing and suspended.pk not in playing


def test_bye_goes_to_the_lowest_ranked_team_without_a_bye_and_counts_as_forfeit_win(
    make_event, organiser
):
    event = make_event(teams=5, units=5, num_rounds=3)
    (first,) = play_rounds(event, organiser, 1)
    first_bye = Match.objects.get(round=first, away=None).home_id
    assert standings_for(event)[0].points == 17  # the bye's forfeit win ties the winners
    second = rounds.generate_draft(event, organiser)
    rows = standings_for(event, after_round=1)
    without_bye = [row.team for row in rows if row.team != first_bye]
    assert Match.objects.get(round=second, away=None).home_id == without_bye[-1]
    assert Match.objects.get(round=second, away=None).table_number is None


def test_next_round_is_refused_until_the_previous_one_is_finalised(make_event, organiser):
    event = make_event(teams=4)
    rnd = rounds.generate_draft(event, organiser)
    rounds.publish(rnd, organiser)
    for status in (Round.Status.PUBLISHED, Round.Status.IN_PLAY, Round.Status.COMPLETE):
        Round.objects.filter(pk=rnd.pk).update(status=status)
        with pytest.raises(RoundError, match="Round 1 is not finalised"):
            rounds.generate_draft(event, organiser)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINALISED)
    assert rounds.generate_draft(event, organiser).number == 2


def test_no_round_past_the_events_last(make_event, organiser):
    event = make_event(teams=4, num_rounds=1)
    play_rounds(event, organiser, 1)
    with pytest.raises(RoundError, match="All 1 rounds"):
        rounds.generate_draft(event, organiser)


def test_seed_is_for_round_one_only_and_must_be_a_whole_number(make_event, organiser):
    event = make_event(teams=4)
    with pytest.raises(RoundError) as bad:
        rounds.generate_draft(event, organiser, seed="abc")
    assert bad.value.field == "seed"
    with pytest.raises(RoundError):
        rounds.generate_draft(event, organiser, seed=-1)
    play_rounds(event, organiser, 1)
    with pytest.raises(RoundError, match="round-1 draw only") as later:
        rounds.generate_draft(event, organiser, seed=5)
    assert later.value.field == "seed"


def test_no_rematch_free_pairing_is_drafted_flagged_and_published_only_when_confirmed(
    make_event, organiser
):
    event = make_event(teams=2, num_rounds=3)
    play_rounds(event, organiser, 1)
    draft = rounds.generate_draft(event, organiser)
    (match,) = draft.matches.all()
    assert "rematch" in match.flags
    entry = AuditLog.objects.get(action="round.draft", target_id=str(draft.pk))
    assert entry.data["rematches"] == 1
    assert entry.data["explanation"][0]["key"] == "pairing.note.least_bad"
    with pytest.raises(RoundError, match="confirm with a reason") as refused:
        rounds.publish(draft, organiser)
    assert refused.value.field == "confirm_reason"
    draft.refresh_from_db()
    assert draft.status == Round.Status.DRAFT
    assert not AuditLog.objects.filter(action="round.confirm_rematches").exists()
    rounds.publish(draft, organiser, confirm_reason="  only two teams left  ")
    draft.refresh_from_db()
    assert draft.status == Round.Status.PUBLISHED
    confirmed = AuditLog.objects.get(action="round.confirm_rematches")
    assert confirmed.reason == "only two teams left"
    assert confirmed.data["tables"] == [{"table": 1, "home": match.home_id, "away": match.away_id}]


def test_a_rematch_free_round_publishes_without_confirmation(make_event, organiser):
    event = make_event(teams=4, num_rounds=3)
    play_rounds(event, organiser, 1)
    draft = rounds.generate_draft(event, organiser)
    assert not any("rematch" in m.flags for m in draft.matches.all())
    rounds.publish(draft, organiser)
    assert not AuditLog.objects.filter(action="round.confirm_rematches").exists()


def test_the_round_service_looks_ahead_to_the_event_s_last_round(make_event, organiser):
    """6 teams, 5 rounds (a round robin's worth): every round rematch-free."""
    event = make_event(teams=6, num_rounds=5)
    play_rounds(event, organiser, 5)
    pairs = [frozenset((m.home_id, m.away_id)) for m in Match.objects.filter(round__event=event)]
    assert len(pairs) == 15 and len(set(pairs)) == 15  # every pair met once


def test_too_few_teams_for_a_draw_is_explained(make_event, organiser):
    event = make_event(teams=1)
    with pytest.raises(RoundError, match="at least two"):
        rounds.generate_draft(event, organiser)


def swap_pair(rnd):
    """Two teams at different tables: the home teams of tables 1 and 2."""
    one, two = Match.objects.filter(round=rnd, away__isnull=False).order_by("table_number")[:2]
    return one, two


def test_swap_exchanges_two_teams_recomputes_flags_and_is_logged(make_event, organiser):
    event = make_event(teams=4, units=2)
    rnd = rounds.generate_draft(event, organiser, seed=7)
    one, two = swap_pair(rnd)
    assert not one.flags and not two.flags  # units kept apart by the draw
    units = dict(Team.objects.filter(event=event).values_list("id", "unit_id"))
    mate = next(t for t in (two.home_id, two.away_id) if units[t] == units[one.home_id])
    other = two.away_id if mate == two.home_id else two.home_id
    rounds.swap_teams(rnd, one.away_id, mate, organiser, "players asked to swap")
    one_after, two_after = swap_pair(rnd)
    assert (one_after.home_id, one_after.away_id) == (one.home_id, mate)
    assert {two_after.home_id, two_after.away_id} == {one.away_id, other}
    assert one_after.flags == ["same_unit"] and two_after.flags == ["same_unit"]
    slots = dict(RoundSlot.objects.filter(match=one_after).values_list("side", "team_id"))
    assert slots == {"EW": one.home_id, "NS": mate}
    entry = AuditLog.objects.get(event=event, action="round.swap")
    assert entry.actor == organiser and entry.reason == "players asked to swap"
    assert entry.data["before"][0]["away"] == one.away_id


def test_swap_requires_a_reason(make_event, organiser):
    event = make_event(teams=4)
    rnd = rounds.generate_draft(event, organiser)
    one, two = swap_pair(rnd)
    with pytest.raises(RoundError) as error:
        rounds.swap_teams(rnd, one.home_id, two.home_id, organiser, "  ")
    assert error.value.field == "reason"
    assert not AuditLog.objects.filter(action="round.swap").exists()


def test_swap_refused_when_it_makes_a_rematch(make_event, organiser):
    event = make_event(teams=4, units=4, num_rounds=3)
    (first,) = play_rounds(event, organiser, 1)
    met = {frozenset((home, away)) for _, home, away in tables(first)}
    second = rounds.generate_draft(event, organiser)
    one, two = swap_pair(second)
    # put one.home with whichever of two's teams it met in round 1
    partner = next(t for t in (two.home_id, two.away_id) if frozenset((one.home_id, t)) in met)
    moving = one.away_id
    with pytest.raises(RoundError, match="already met in round 1"):
        rounds.swap_teams(second, moving, partner, organiser, "test")
    assert tables(second) == [(1, one.home_id, one.away_id), (2, two.home_id, two.away_id)]


def test_swap_into_the_bye_refused_for_a_team_that_had_one(make_event, organiser):
    event = make_event(teams=3, units=3, num_rounds=3)
    (first,) = play_rounds(event, organiser, 1)
    had_bye = Match.objects.get(round=first, away=None).home_id
    second = rounds.generate_draft(event, organiser)
    bye_now = Match.objects.get(round=second, away=None).home_id
    with pytest.raises(RoundError, match="already had a bye"):
        rounds.swap_teams(second, had_bye, bye_now, organiser, "test")


def test_swap_refused_once_the_round_has_started(make_event, organiser):
    event = make_event(teams=4)
    rnd = rounds.generate_draft(event, organiser)
    rounds.publish(rnd, organiser)
    one, two = swap_pair(rnd)
    rounds.swap_teams(rnd, one.home_id, two.home_id, organiser, "before the start")
    rounds.start_clock(rnd, organiser)
    with pytest.raises(RoundError, match="has started"):
        rounds.swap_teams(rnd, one.home_id, two.home_id, organiser, "too late")


def test_swap_of_a_team_not_in_the_round_is_refused(make_event, organiser):
    event = make_event(teams=5)
    out = Team.objects.filter(event=event).order_by("pk").first()
    Team.objects.filter(pk=out.pk).update(status=Team.Status.WITHDRAWN)
    rnd = rounds.generate_draft(event, organiser)
    playing = RoundSlot.objects.filter(round=rnd).first().team_id
    with pytest.raises(RoundError, match="does not play in round 1"):
        rounds.swap_teams(rnd, out.pk, playing, organiser, "x")


def test_publish_and_start_clock_set_status_and_times_and_are_logged(make_event, organiser):
    event = make_event(teams=4, round_minutes=90)
    rnd = rounds.generate_draft(event, organiser)
    rnd = rounds.publish(rnd, organiser)
    assert rnd.status == Round.Status.PUBLISHED and rnd.published_at is not None
    with pytest.raises(RoundError, match="Only a draft can be published"):
        rounds.publish(rnd, organiser)
    rnd = rounds.start_clock(rnd, organiser)
    assert rnd.status == Round.Status.IN_PLAY
    assert (rnd.ends_at - rnd.started_at).total_seconds() == 90 * 60
    with pytest.raises(RoundError, match="Only a published round can start"):
        rounds.start_clock(rnd, organiser)
    actions = set(AuditLog.objects.filter(event=event).values_list("action", flat=True))
    assert {"round.draft", "round.publish", "round.start"} <= actions


def test_published_round_counts_its_bye_in_the_standings_at_once(
    make_event, organiser, django_capture_on_commit_callbacks
):
    event = make_event(teams=3)
    rnd = rounds.generate_draft(event, organiser)
    assert max(row.points for row in standings_for(event)) == 0
    with django_capture_on_commit_callbacks(execute=True):  # invalidated once committed
        rounds.publish(rnd, organiser)
    assert max(row.points for row in standings_for(event)) == 17


def test_demo_event_has_round_one_drawn_started_and_half_scored(db):
    from tournaments.models import Event
    from tournaments.services.demo import DEMO_DRAW_SEED, DEMO_SLUG, load_demo

    load_demo()
    load_demo()  # idempotent: the round is drawn once
    event = Event.objects.get(slug=DEMO_SLUG)
    (rnd,) = event.rounds.all()
    assert rnd.status == Round.Status.IN_PLAY and rnd.draw_seed == DEMO_DRAW_SEED
    assert rnd.ends_at is not None  # the projector's clock runs
    assert rnd.matches.exclude(away=None).count() == 12
    scored = rnd.matches.filter(versions__is_counting=True).values_list("table_number", flat=True)
    assert sorted(scored) == list(range(7, 13))  # tables 1-6 wait for referee1
    assert all(m.flags == [] for m in rnd.matches.all())  # six units: kept apart


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(size=st.integers(2, 13), withdrawn=st.integers(0, 2), played=st.integers(1, 3))
def test_every_active_team_plays_once_per_round_and_never_meets_an_opponent_twice(
    make_event, organiser, size, withdrawn, played
):
    event = make_event(teams=size, units=3, num_rounds=played)
    out = list(Team.objects.filter(event=event).order_by("pk")[:withdrawn])
    Team.objects.filter(pk__in=[team.pk for team in out]).update(status=Team.Status.WITHDRAWN)
    active = set(Team.objects.filter(event=event, status="active").values_list("pk", flat=True))
    met, byes = set(), set()
    for _ in range(played):
        try:
            rnd = rounds.generate_draft(event, organiser)
        except RoundError as error:  # a small field can run out of new opponents
            assert "cannot be paired" in error.message or "at least two" in error.message
            return
        slots = list(RoundSlot.objects.filter(round=rnd).values_list("team_id", flat=True))
        assert sorted(slots) == sorted(active)
        numbers = [t for t, _, away in tables(rnd) if away is not None]
        assert numbers == list(range(1, len(active) // 2 + 1))
        flagged = {m.pk for m in rnd.matches.all() if "rematch" in m.flags}
        for match in rnd.matches.all():
            home, away = match.home_id, match.away_id
            # a repeat only on a table flagged "rematch" (no pairing without one existed)
            if away is None:
                assert (home in byes) == (match.pk in flagged)
                byes.add(home)
            else:
                assert (frozenset((home, away)) in met) == (match.pk in flagged)
                met.add(frozenset((home, away)))
        rounds.publish(rnd, organiser, confirm_reason="no other pairing" if flagged else "")
        finish_round(rnd)


def test_round_one_by_seed_setting_is_used_by_the_draw(make_event, organiser):
    event = make_event(teams=8, settings={"round_one_method": "seed"})
    for index, team in enumerate(Team.objects.filter(event=event).order_by("pk")[:4]):
        Team.objects.filter(pk=team.pk).update(seed=index + 1)
    seeded = set(Team.objects.filter(event=event, seed__isnull=False).values_list("pk", flat=True))
    rnd = rounds.generate_draft(event, organiser, seed=99)
    by_seed = dict(Team.objects.filter(event=event).values_list("pk", "seed"))
    drawn = tables(rnd)
    assert all(len({home, away} & seeded) == 1 for _, home, away in drawn)
    assert 1 in (by_seed[drawn[0][1]], by_seed[drawn[0][2]])  # seed 1 at table 1
