"""Check-in, leaves, seating and late forfeits; drafts that cannot go stale (SPEC §2)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests import factories
from tournaments.models import AuditLog, ResultVersion, Round, RoundLeave, Team
from tournaments.services import checkin, registration, rounds
from tournaments.services.rounds import RoundError

START = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


def drawn_teams(rnd) -> set[int]:
    return set(rnd.slots.values_list("team_id", flat=True))


@pytest.fixture
def world(db):
    event = factories.event(teams=6)
    organiser = factories.organiser_of(event)
    chief = factories.chief_of(event)
    teams = list(event.teams.order_by("name"))
    return event, organiser, chief, teams


def test_teams_not_checked_in_are_left_out_of_round_1(world):
    event, organiser, _chief, teams = world
    assert checkin.check_in(teams[:5], organiser) == 5
    rnd = rounds.generate_draft(event, organiser, seed=7)
    assert drawn_teams(rnd) == {team.pk for team in teams[:5]}
    assert rnd.matches.filter(away=None).count() == 1  # five teams: one bye


def test_an_event_without_check_in_draws_every_active_team(world):
    event, organiser, _chief, teams = world
    rnd = rounds.generate_draft(event, organiser, seed=7)
    assert drawn_teams(rnd) == {team.pk for team in teams}


def test_check_in_is_idempotent_and_logged(world):
    event, organiser, _chief, teams = world
    assert checkin.check_in([teams[0]], organiser, via="badge") == 1
    assert checkin.check_in([teams[0]], organiser) == 0
    assert AuditLog.objects.filter(action="team.check_in").count() == 1


def test_a_team_not_checked_in_stays_out_until_it_checks_in_as_a_late_entry(world):
    event, organiser, _chief, teams = world
    checkin.check_in(teams[:5], organiser)
    first = rounds.publish(rounds.generate_draft(event, organiser, seed=1), organiser)
    for match in first.matches.exclude(away=None):
        factories.result(match)
    Round.objects.filter(pk=first.pk).update(status=Round.Status.FINALISED)
    second = rounds.generate_draft(event, organiser)
    assert teams[5].pk not in drawn_teams(second)
    checkin.check_in([teams[5]], organiser)  # arrives late: joins from the next draw
    with pytest.raises(RoundError, match="stale"):
        rounds.publish(second, organiser)
    assert teams[5].pk in drawn_teams(rounds.generate_draft(event, organiser))


def test_only_an_organiser_checks_teams_in(world):
    event, _organiser, chief, teams = world
    with pytest.raises(RoundError):
        checkin.check_in([teams[0]], chief)


def test_a_team_on_leave_is_not_paired_that_round(world):
    event, organiser, chief, teams = world
    checkin.grant_leave(teams[0], 1, RoundLeave.Kind.MISS_ROUND, chief, "wedding")
    rnd = rounds.generate_draft(event, organiser, seed=3)
    assert teams[0].pk not in drawn_teams(rnd)
    assert rnd.matches.filter(away=None).exclude(home=teams[0]).count() == 1  # not a bye


def test_a_leave_needs_a_reason_and_a_round_of_the_event(world):
    _event, _organiser, chief, teams = world
    with pytest.raises(RoundError) as err:
        checkin.grant_leave(teams[0], 1, RoundLeave.Kind.MISS_ROUND, chief, " ")
    assert err.value.field == "reason"
    with pytest.raises(RoundError) as err:
        checkin.grant_leave(teams[0], 99, RoundLeave.Kind.MISS_ROUND, chief, "ill")
    assert err.value.field == "round"


def test_stale_draft_refused_after_a_withdrawal(world):
    event, organiser, _chief, teams = world
    rnd = rounds.generate_draft(event, organiser, seed=5)
    registration.set_team_status(teams[2], Team.Status.WITHDRAWN, organiser, "went home")
    with pytest.raises(RoundError, match="stale") as err:
        rounds.publish(rnd, organiser)
    assert teams[2].name in err.value.message
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    again = rounds.generate_draft(event, organiser, seed=5)
    assert rounds.publish(again, organiser).status == Round.Status.PUBLISHED
    assert teams[2].pk not in drawn_teams(again)


def test_stale_draft_refused_after_a_late_entry(world):
    event, organiser, _chief, _teams = world
    rnd = rounds.generate_draft(event, organiser, seed=5)
    late = factories.team(event, "迟到队")
    with pytest.raises(RoundError, match="迟到队|stale"):
        rounds.publish(rnd, organiser)
    rnd = rounds.generate_draft(event, organiser, seed=5)
    assert late.pk in drawn_teams(rounds.publish(rnd, organiser))


@pytest.fixture
def started(world, time_machine):
    event, organiser, chief, teams = world
    time_machine.move_to(START, tick=False)
    rnd = rounds.generate_draft(event, organiser, seed=11)
    rounds.publish(rnd, organiser)
    rnd = rounds.start_clock(rnd, organiser)
    return event, organiser, chief, rnd


def seat_all_but(rnd, chief, *absent):
    for match in rnd.matches.exclude(away=None):
        for team in (match.home, match.away):
            if team not in absent:
                checkin.mark_seated(match, team, chief)


@pytest.mark.parametrize(
    ("elapsed", "late"),
    [
        (timedelta(minutes=9, seconds=59), False),
        (timedelta(minutes=10), True),
        (timedelta(minutes=10, seconds=30), True),
    ],
)
def test_rule_比赛宣布开始10分钟后仍未就位作弃权论处_late_list_boundary(
    started, time_machine, elapsed, late
):
    """Seeds: "比赛宣布开始10分钟后…仍未…就位…作弃权论处"; "迟到10分钟视为弃权": the elapsed
    time reaching 10:00 is late (9:59 is not; 10:30 is), whole minutes never floored first."""
    event, _organiser, chief, rnd = started
    first = rnd.matches.get(table_number=1)
    seat_all_but(rnd, chief, first.away)
    time_machine.move_to(START + elapsed, tick=False)
    listed = [(entry.match.pk, entry.team.pk, entry.side) for entry in checkin.late_teams(rnd)]
    assert listed == ([(first.pk, first.away_id, "NS")] if late else [])


def test_late_limit_minutes_is_the_events_setting(started, time_machine):
    event, _organiser, chief, rnd = started
    event.settings = {**(event.settings or {}), "late_limit_minutes": 5}
    event.save(update_fields=["settings"])
    rnd = Round.objects.get(pk=rnd.pk)
    first = rnd.matches.get(table_number=1)
    seat_all_but(rnd, chief, first.away)
    time_machine.move_to(START + timedelta(minutes=4, seconds=59), tick=False)
    assert checkin.late_teams(rnd) == []
    time_machine.move_to(START + timedelta(minutes=5), tick=False)
    assert [entry.team.pk for entry in checkin.late_teams(rnd)] == [first.away_id]


def test_late_list_holds_only_unseated_teams_at_tables_where_nothing_was_entered(
    started, time_machine
):
    event, _organiser, chief, rnd = started
    first, second, third = (rnd.matches.get(table_number=n) for n in (1, 2, 3))
    checkin.mark_seated(first, first.home, chief)  # table 1: only 甲 seated
    factories.result(second)  # table 2: nothing seated but a result entered
    time_machine.move_to(START + timedelta(minutes=10), tick=False)
    late = {(entry.match.table_number, entry.team.pk) for entry in checkin.late_teams(rnd)}
    assert late == {(1, first.away_id), (3, third.home_id), (3, third.away_id)}


def test_late_forfeit_is_per_team_the_opponent_gets_the_presets_forfeit_win(started, time_machine):
    event, _organiser, chief, rnd = started
    first = rnd.matches.get(table_number=1)
    time_machine.move_to(START + timedelta(minutes=10), tick=False)
    # both teams of table 1 are late; the chief ticks only the away team (乙队)
    done = checkin.confirm_late_forfeits(rnd, chief, [first.away_id])
    assert [late.team.pk for late in done.teams] == [first.away_id] and done.tables == 1
    version = ResultVersion.objects.get(match=first)
    win, loss = event.get_preset().forfeit_points
    assert version.is_counting and version.record["forfeit"] == "NS"
    assert version.outcome["match_points"] == {"EW": win, "NS": loss}
    assert win > loss  # a forfeit win, never a 0:0 double forfeit
    assert not ResultVersion.objects.exclude(match=first).exists()  # no other table touched
    entry = AuditLog.objects.get(action="team.late_forfeit")
    assert entry.target_id == str(first.away_id) and entry.data["absent"] == "NS"
    assert entry.data["table"] == 1 and entry.actor_name == chief.username
    assert checkin.late_teams(rnd)[0].match.table_number != 1  # the table has its result


def test_both_teams_ticked_is_the_presets_double_no_show(started, time_machine):
    event, _organiser, chief, rnd = started
    first = rnd.matches.get(table_number=1)
    time_machine.move_to(START + timedelta(minutes=20), tick=False)
    done = checkin.confirm_late_forfeits(rnd, chief, [first.home_id, first.away_id])
    assert done.tables == 1 and len(done.teams) == 2
    version = ResultVersion.objects.get(match=first)
    no_show = event.get_preset().no_show_points
    assert version.record["forfeit"] == "both"
    assert version.outcome["match_points"] == {"EW": no_show, "NS": no_show}
    assert AuditLog.objects.filter(action="team.late_forfeit").count() == 2
    assert not ResultVersion.objects.exclude(match=first).exists()


def test_a_team_seated_meanwhile_is_skipped_and_said(started, time_machine):
    event, _organiser, chief, rnd = started
    first = rnd.matches.get(table_number=1)
    time_machine.move_to(START + timedelta(minutes=11), tick=False)
    checkin.mark_seated(first, first.away, chief)  # arrived while the chief was ticking
    done = checkin.confirm_late_forfeits(rnd, chief, [first.away_id])
    assert done.teams == [] and first.away.name in done.skipped[0]
    assert not ResultVersion.objects.exists()


def test_a_late_arrival_leave_gives_15_minutes(started, time_machine):
    event, _organiser, chief, rnd = started
    first = rnd.matches.get(table_number=1)
    checkin.grant_leave(first.home, rnd.number, RoundLeave.Kind.LATE_ARRIVAL, chief, "train")
    checkin.mark_seated(first, first.away, chief)
    time_machine.move_to(START + timedelta(minutes=12), tick=False)
    assert first.home_id not in {entry.team.pk for entry in checkin.late_teams(rnd)}
    time_machine.move_to(START + timedelta(minutes=16), tick=False)
    assert first.home_id in {entry.team.pk for entry in checkin.late_teams(rnd)}


def test_only_the_chief_confirms_late_forfeits(started, time_machine):
    _event, organiser, _chief, rnd = started
    time_machine.move_to(START + timedelta(minutes=20), tick=False)
    with pytest.raises(RoundError):
        checkin.confirm_late_forfeits(rnd, organiser)
    assert not ResultVersion.objects.exists()


def test_the_seated_address_answers_a_get_with_the_table_page_not_an_error(started, client):
    event, _organiser, chief, rnd = started
    client.force_login(chief)
    response = client.get(f"/t/{event.slug}/manage/rounds/{rnd.number}/tables/1/seated/")
    assert response.status_code == 302
    assert response["Location"] == f"/t/{event.slug}/table/1/"


def test_a_table_referee_marks_only_their_own_tables_seated(started):
    event, _organiser, _chief, rnd = started
    referee = factories.grant(factories.user(), event, "table_referee", tables=[2])
    first = rnd.matches.get(table_number=1)
    with pytest.raises(RoundError):
        checkin.mark_seated(first, first.home, referee)
    second = rnd.matches.get(table_number=2)
    assert checkin.mark_seated(second, second.home, referee).by_name == referee.username


# --- pages ------------------------------------------------------------------------------


def test_checkin_page_checks_in_selected_teams_and_draft_leaves_the_others_out(world, client):
    event, organiser, _chief, teams = world
    client.force_login(organiser)
    url = f"/t/{event.slug}/manage/checkin/"
    page = client.get(url)
    assert page.status_code == 200 and "checkin-teams" in page.content.decode()
    response = client.post(url, {"team": [teams[0].pk, teams[1].pk, teams[2].pk, teams[3].pk]})
    assert response.status_code == 302
    assert checkin.checked_in_ids(event) == {team.pk for team in teams[:4]}
    rnd = rounds.generate_draft(event, organiser, seed=2)
    detail = client.get(f"/t/{event.slug}/manage/rounds/1/").content.decode()
    assert 'id="not-drawn"' in detail and teams[5].name in detail
    assert drawn_teams(rnd) == {team.pk for team in teams[:4]}


def test_badge_qr_checks_one_team_in(world, client):
    event, organiser, _chief, teams = world
    client.force_login(organiser)
    url = f"/t/{event.slug}/manage/checkin/team/{teams[3].pk}/"
    assert teams[3].name in client.get(url).content.decode()
    client.post(url)
    assert event.teams.get(checkin__via="badge") == teams[3]


def test_checkin_page_refuses_a_table_referee(world, client):
    event, _organiser, _chief, teams = world
    referee = factories.grant(factories.user(), event, "table_referee", tables=[1])
    client.force_login(referee)
    assert client.post(f"/t/{event.slug}/manage/checkin/", {"all": "1"}).status_code == 403
    assert not checkin.checked_in_ids(event)


def test_round_page_shows_a_stale_draft(world, client):
    event, organiser, _chief, teams = world
    rounds.generate_draft(event, organiser, seed=5)
    registration.set_team_status(teams[1], Team.Status.WITHDRAWN, organiser, "ill")
    client.force_login(organiser)
    page = client.get(f"/t/{event.slug}/manage/rounds/1/", HTTP_ACCEPT_LANGUAGE="en")
    assert 'id="stale"' in page.content.decode() and teams[1].name in page.content.decode()
    response = client.post(f"/t/{event.slug}/manage/rounds/1/publish/")
    assert response.status_code == 302
    assert Round.objects.get(event=event, number=1).status == Round.Status.DRAFT


def test_attendance_page_names_each_late_team_unticked_and_forfeits_only_the_ticked(
    started, client, time_machine
):
    event, _organiser, chief, rnd = started
    first = rnd.matches.get(table_number=1)
    seat_all_but(rnd, chief, first.away)
    time_machine.move_to(START + timedelta(minutes=10, seconds=30), tick=False)
    client.force_login(chief)
    url = f"/t/{event.slug}/manage/rounds/{rnd.number}/attendance/"
    page = client.get(url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "late-teams" in page and "10 min (limit 10)" in page
    assert page.count('name="team" value=') == 1 and f'value="{first.away_id}"' in page
    assert " checked" not in page.split('id="late-teams"')[1].split("</table>")[0]
    assert 'data-select-all="team"' in page and first.away.name in page
    # nothing ticked: nothing ruled, and said
    response = client.post(url, {}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert "Tick the late teams" in response.content.decode()
    assert not ResultVersion.objects.exists()
    response = client.post(url, {"team": [first.away_id]}, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert first.away.name in response.content.decode()
    version = ResultVersion.objects.get(match=first)
    assert version.is_counting and version.record["forfeit"] == "NS"
    assert ResultVersion.objects.count() == 1


def test_attendance_page_shows_each_teams_seat_mark(started, client):
    event, _organiser, chief, rnd = started
    first = rnd.matches.get(table_number=1)
    checkin.mark_seated(first, first.home, chief)
    client.force_login(chief)
    page = client.get(
        f"/t/{event.slug}/manage/rounds/{rnd.number}/attendance/", HTTP_ACCEPT_LANGUAGE="en"
    ).content.decode()
    marks = page.split('id="seat-marks"')[1].split("</table>")[0]
    row = marks.split("</tr>")[1]  # table 1 (after the header row)
    assert first.home.name in row and 'data-seated="1"' in row and 'data-seated="0"' in row


def test_table_referee_marks_a_team_seated_from_the_table(started, client):
    event, _organiser, _chief, rnd = started
    referee = factories.grant(factories.user(), event, "table_referee", tables=[1])
    first = rnd.matches.get(table_number=1)
    client.force_login(referee)
    url = f"/t/{event.slug}/manage/rounds/{rnd.number}/tables/1/seated/"
    assert client.post(url, {"team": first.home_id}).status_code == 302
    assert list(rnd.seatings.values_list("team_id", flat=True)) == [first.home_id]


def test_draft_page_shows_each_teams_rank_and_points_before_the_round(world, client):
    event, organiser, chief, teams = world
    rnd = rounds.publish(rounds.generate_draft(event, organiser, seed=3), organiser)
    for match in rnd.matches.exclude(away=None):
        factories.result(match)
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.FINALISED)
    rounds.generate_draft(event, organiser)
    client.force_login(organiser)
    page = client.get(f"/t/{event.slug}/manage/rounds/2/", HTTP_ACCEPT_LANGUAGE="en")
    assert "rank 1, 13 points" in page.content.decode()
