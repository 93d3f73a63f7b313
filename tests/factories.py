"""The one place tests build events: users, events, teams, roles, rounds and results.

Everything that has a service goes through it, so a test event is an event the product could
have made: events by ``registration.create_event``, teams by ``registration.save_team``,
results by the results service (``submit``/``mark_absent`` as the event's chief referee).
Rounds are laid out by hand (tests choose who meets whom; the pairing service is tested on its
own), with their slots, exactly as the round service writes them.
"""

from __future__ import annotations

import itertools
from types import SimpleNamespace

from django.contrib.auth import get_user_model

_counter = itertools.count(1)

PRESET_OF_GAME = {"guandan": "guandan-suzhou-2016", "tractor": "tractor", "chengyu": "chengyu"}
WIN_BY_3 = [{"finish": ["E", "W", "S", "N"]}]  # EW go up 3 levels (double up)
OPEN_STATUSES = ("published", "in_play", "complete")


def user(username: str | None = None, **extra):
    """A user whose password is ``pw-<username>``."""
    username = username or f"user{next(_counter)}"
    return get_user_model().objects.create_user(
        username=username, password="pw-" + username, **extra
    )


def event_creator(who):
    """``who`` with the event-creator right (the registration service checks it)."""
    from tournaments.permissions import can_create_event
    from tournaments.services.creators import creator_permission

    if not can_create_event(who):
        who.user_permissions.add(creator_permission())
        for cache in ("_perm_cache", "_user_perm_cache"):
            who.__dict__.pop(cache, None)
    return who


def organiser_of(event):
    """The event's first organiser (its creator)."""
    from tournaments.models import Role

    return event.roles.filter(role=Role.ORGANISER).order_by("pk").first().user


def event(
    teams: int = 0,
    units: int = 2,
    game: str = "guandan",
    preset: str | None = None,
    creator=None,
    **fields,
):
    """An event created by ``creator`` (a new organiser by default) with ``teams`` teams
    named Team 001 … spread over ``units`` units (Unit 1 …), players P<i>-1 and P<i>-2."""
    from tournaments.services import registration

    n = next(_counter)
    creator = event_creator(creator or user(f"event-creator-{n}"))
    event = registration.create_event(
        creator,
        name=fields.pop("name", f"Event {n}"),
        slug=fields.pop("slug", f"event-{n}"),
        game=game,
        preset=preset or PRESET_OF_GAME[game],
        **fields,
    )
    unit_names = [f"Unit {i + 1}" for i in range(units)]
    for i in range(teams):
        team(
            event,
            f"Team {i + 1:03d}",
            unit=unit_names[i % len(unit_names)] if unit_names else "",
            players=(f"P{i + 1}-1", f"P{i + 1}-2"),
            by=creator,
        )
    return event


def team(event, name: str, unit: str = "", players=None, seed=None, by=None, **fields):
    """One team through the registration service; extra model ``fields`` (e.g. draw_lot) are
    set afterwards as the back office would."""
    from tournaments.services import registration

    players = list(players or (f"{name}-1", f"{name}-2"))
    created = registration.save_team(
        event,
        by or organiser_of(event),
        name=name,
        unit_name=unit,
        players=players,
        seed=seed,
    )
    if fields:
        type(created).objects.filter(pk=created.pk).update(**fields)
        created.refresh_from_db()
    return created


def grant(who, event, role: str, team=None, tables=()):
    """Give ``who`` a role in the event (and table assignments for a table referee)."""
    from tournaments.models import EventRole, TableAssignment

    EventRole.objects.create(user=who, event=event, role=role, team=team)
    for table in tables:
        TableAssignment.objects.create(event=event, user=who, table_number=table)
    return who


def chief_of(event):
    """The event's chief referee, made on first use."""
    from tournaments.models import Role

    role = event.roles.filter(role=Role.CHIEF_REFEREE).order_by("pk").first()
    if role is not None:
        return role.user
    return grant(user(f"event-chief-{event.pk}"), event, Role.CHIEF_REFEREE)


def round_(event, number: int, pairs=(), byes=(), status: str = "finalised"):
    """A round with matches: ``pairs`` of (home, away) at tables 1, 2 …, and ``byes``."""
    from tournaments.models import Match, Round, RoundSlot

    rnd = Round.objects.create(event=event, number=number, status=status)
    for table, (home, away) in enumerate(pairs, start=1):
        match = Match.objects.create(round=rnd, table_number=table, home=home, away=away)
        RoundSlot.objects.bulk_create(
            [
                RoundSlot(round=rnd, match=match, team=home, side="EW"),
                RoundSlot(round=rnd, match=match, team=away, side="NS"),
            ]
        )
    for bye in byes:
        match = Match.objects.create(round=rnd, home=bye, away=None)
        RoundSlot.objects.create(round=rnd, match=match, team=bye, side="EW")
    return rnd


def result(match, deals=WIN_BY_3, forfeit=None, counting: bool = True, by=None, **record):
    """Enter a result through the results service as the chief referee (``by``): confirmed
    at once when ``counting``; a forfeit (no deals) by ``mark_absent``, which the chief's
    entry makes count at once. A test may score a round it
    built as finished: the round is opened for the entry and its status put back, which is
    what a chief's reopen + correction amounts to."""
    from tournaments.models import Round
    from tournaments.services import result_entry, results

    rnd = match.round
    event = rnd.event
    actor = results.Actor(by or chief_of(event), None, "web", "")
    status = rnd.status
    # the round opened and put back around the entry is the test's shortcut, no public change:
    # the plain manager's update() moves no revision (Round.objects' would: freshness)
    rounds = Round._base_manager.filter(pk=rnd.pk)
    if status not in OPEN_STATUSES:
        rounds.update(status=Round.Status.IN_PLAY)
        rnd.status = Round.Status.IN_PLAY
    try:
        latest = results.latest_version(match)
        base = latest.number if latest else 0
        if forfeit is not None and not deals:
            version = result_entry.mark_absent(match, forfeit, actor, base)
        else:
            data = {"game": event.game, "preset": event.preset, "deals": deals}
            data |= {"forfeit": forfeit} if forfeit is not None else {}
            version = result_entry.submit(match, data | record, actor, base, confirm=counting)
    finally:
        if status not in OPEN_STATUSES:
            rounds.update(status=status)
            rnd.status = status
    version.refresh_from_db()
    return version


def submitted_results(matches, by, deals=WIN_BY_3) -> None:
    """A submitted result (not confirmed, entered by ``by``) at each of ``matches``, as at a
    venue at volume: the first through the results service, the others bulk copies of its
    version (its record and the engine's answer, which name no team), in one INSERT."""
    from tournaments.models import ResultVersion

    first, *rest = matches
    entered = result(first, deals=deals, counting=False, by=by)
    copied = {f.attname: getattr(entered, f.attname) for f in ResultVersion._meta.concrete_fields}
    copied.pop("id")
    ResultVersion.objects.bulk_create(
        [ResultVersion(**{**copied, "match_id": match.pk}) for match in rest]
    )


def played_round(event, number: int, pairs, byes=(), status: str = "finalised", deals=None):
    """A round whose every played match has a counting result (home wins by three levels)."""
    rnd = round_(event, number, pairs, byes, status)
    for match in rnd.matches.exclude(away=None).order_by("table_number"):
        result(match, deals=WIN_BY_3 if deals is None else deals)
    return rnd


CHINESE_NAMES = ["龙城队", "姑苏队", "金陵队", "钱塘队", "锡山队", "古运河队", "太湖队", "虎丘队"]


def chinese_event():
    """8 teams with Chinese names (units 苏州/无锡, draw lots 1..8), rounds 1 and 2 complete
    (every home team won by three levels), round 3 published. ``teams_in_order`` lists the
    teams as registered."""
    suzhou_open = event(name="苏州掼蛋公开赛", slug="suzhou-open", venue="苏州体育中心", units=0)
    teams = [
        team(
            suzhou_open,
            name,
            unit=("苏州", "无锡")[i % 2],
            players=[f"{name[0]}选手{seat}" for seat in (1, 2)],
            draw_lot=i + 1,
        )
        for i, name in enumerate(CHINESE_NAMES)
    ]
    t = teams
    played_round(
        suzhou_open, 1, [(t[0], t[1]), (t[2], t[3]), (t[4], t[5]), (t[6], t[7])], status="complete"
    )
    played_round(
        suzhou_open, 2, [(t[0], t[2]), (t[1], t[3]), (t[4], t[6]), (t[5], t[7])], status="complete"
    )
    round_(
        suzhou_open, 3, [(t[0], t[4]), (t[2], t[6]), (t[1], t[5]), (t[3], t[7])], status="published"
    )
    suzhou_open.teams_in_order = teams
    return suzhou_open


# --- builders of the results, arbitration and exports tests ------------------------------


SIX_DEALS = [
    {"finish": ["E", "W", "S", "N"]},  # EW double up: EW 5
    {"finish": ["S", "E", "N", "W"]},  # NS +2: NS 4
    {"finish": ["E", "S", "W", "N"]},  # EW +2: EW 7
    {"finish": ["N", "S", "E", "W"]},  # NS double up: NS 7
    {"finish": ["W", "N", "E", "S"]},  # EW +2: EW 9
    {"finish": ["E", "N", "S", "W"]},  # EW +1: EW 10
]


def guandan_record(deals=None, **extra) -> dict:
    return {"game": "guandan", "deals": SIX_DEALS if deals is None else deals} | extra


def build_event(make_event, make_user, grant):
    """A guandan event with 5 teams: round 1 published, tables 1-2 and a bye; a chief
    referee, a table referee of table 1, a second referee of table 1, the captains of
    table 1's teams, an organiser."""
    from tournaments.models import Round, Team

    event = make_event(teams=5)
    teams = list(Team.objects.filter(event=event).order_by("name"))
    first = round_(
        event,
        1,
        [(teams[0], teams[1]), (teams[2], teams[3])],
        byes=[teams[4]],
        status=Round.Status.IN_PLAY,
    )
    matches = list(first.matches.exclude(away=None).order_by("table_number"))
    bye = first.matches.get(away=None)
    people = SimpleNamespace(
        chief=grant(make_user("chief"), event, "chief_referee"),
        referee=grant(make_user("ref1"), event, "table_referee", tables=[1]),
        referee2=grant(make_user("ref1b"), event, "table_referee", tables=[1]),
        other_referee=grant(make_user("ref2"), event, "table_referee", tables=[2]),
        home_captain=grant(make_user("cap_home"), event, "captain", team=teams[0]),
        away_captain=grant(make_user("cap_away"), event, "captain", team=teams[1]),
        organiser=grant(make_user("org"), event, "organiser"),
    )
    return SimpleNamespace(
        event=event,
        round=first,
        match=matches[0],
        match2=matches[1],
        bye=bye,
        teams=teams,
        **vars(people),
    )


def actor(user=None, key=None, source="10.0.0.1"):
    from tournaments.services.results import Actor

    return Actor(user, key, "table-key" if key else "api", source)


# EW 5, NS 4 after two deals: EW wins 11:9 on the Suzhou 20-point scale.
TWO_DEALS = [{"finish": ["E", "W", "S", "N"]}, {"finish": ["S", "E", "N", "W"]}]


def enter_result(arb, match=None, deals=None, record=None):
    """The chief referee enters and confirms a result; returns the counting version."""
    from tournaments.services import result_entry, results

    match = match or arb.match
    record = record or {"game": arb.event.game, "deals": TWO_DEALS if deals is None else deals}
    actor = results.Actor(arb.chief, None, "web", "")
    base = results.latest_version(match)
    return result_entry.submit(match, record, actor, base.number if base else 0, confirm=True)


def points(event) -> dict[str, float]:
    from tournaments.standings.service import standings_for

    return {row.name: row.points for row in standings_for(event)}


def ranks(event) -> list[str]:
    from tournaments.standings.service import standings_for

    return [row.name for row in standings_for(event)]


def counting_outcome(match) -> dict:
    from tournaments.models import ResultVersion

    return ResultVersion.objects.get(match=match, is_counting=True).outcome


# EW goes out first with the partner second (双上): EW +3 levels, 13:7 on the 20-point scale
EW_WINS = {
    "game": "guandan",
    "preset": "guandan-suzhou-2016",
    "deals": [{"finish": ["E", "W", "S", "N"]}],
}


def add_round(event, number, pairs, status="complete", bye=None, record=EW_WINS):
    """A round with matches for (home, away) pairs (tables 1..n), each won by home."""
    rnd = round_(event, number, pairs, byes=[bye] if bye else (), status=status)
    if status in ("complete", "finalised") and record is not None:
        for match in rnd.matches.exclude(away=None).order_by("table_number"):
            result(match, deals=record["deals"])
    return rnd


# --- stages and sections ------------------------------------------------------------------

NS_WINS_BY_3 = [{"finish": ["S", "N", "E", "W"]}]  # NS go up 3 levels


def stage(event, by=None, **fields):
    """A stage through the stages service (as the organiser)."""
    from tournaments.services import stages

    fields.setdefault("name", f"Stage {event.stages.count() + 1}")
    fields.setdefault("kind", "swiss")
    if fields["kind"] == "swiss":
        fields.setdefault("num_rounds", 3)
    return stages.create_stage(event, by or organiser_of(event), **fields)


def sections(stage_, *names, by=None):
    from tournaments.services import stage_sections

    who = by or organiser_of(stage_.event)
    return [stage_sections.create_section(stage_, who, name) for name in names]


def play_stage_round(stage_, winner=None, by=None, deals=None):
    """Draw the stage's next round, publish it, enter every table's result and finalise it.
    ``winner(match)`` says "home" (default) or "away"; ``deals(match)`` gives the record's
    deals instead. Returns the round."""
    from tournaments.services import round_close, rounds, stage_rounds

    who = by or organiser_of(stage_.event)
    rnd = stage_rounds.draw_round(stage_, who)
    rnd = rounds.publish(rnd, who, confirm_reason="accepted by the test")
    for match in rnd.matches.exclude(away=None).order_by("table_number"):
        if deals is not None:
            chosen = deals(match)
        else:
            side = winner(match) if winner else "home"
            chosen = WIN_BY_3 if side == "home" else NS_WINS_BY_3
        result(match, deals=chosen)
    return round_close.finalise(rnd, chief_of(stage_.event))


def settle_cut_lots(stage_, seed: int = 1) -> int:
    """Draw lots (as the chief referee) for every tie at the stage's qualification line or
    knockout seeding, until none is left; the number of draws."""
    from tournaments.services import lots

    drawn = 0
    while ties := lots.stage_cut_ties(stage_):
        lots.draw_cut(stage_.event, chief_of(stage_.event), ties[0].teams, seed=seed)
        drawn += 1
    return drawn


def board_round(status: str = "in_play"):
    """The operations board's round 1: 5 tables and a bye; table referee ``a`` (ref-a) holds
    tables 1-3, ``b`` (ref-b) tables 4-5; the event's chief and organiser."""
    board_event = event(teams=11)
    teams = list(board_event.teams.order_by("name"))
    pairs = [(teams[i], teams[i + 1]) for i in range(0, 10, 2)]
    rnd = round_(board_event, 1, pairs, byes=[teams[10]], status=status)
    a = grant(user("ref-a"), board_event, "table_referee", tables=[1, 2, 3])
    b = grant(user("ref-b"), board_event, "table_referee", tables=[4, 5])
    return SimpleNamespace(
        event=board_event,
        round=rnd,
        a=a,
        b=b,
        chief=chief_of(board_event),
        organiser=organiser_of(board_event),
    )


# --- a whole Swiss event through the services (the event file and its checker) -----------

# one-deal guandan records: EW +3, NS +3, EW +2, NS +2, EW +1, NS +1
ONE_DEAL_FINISHES = [
    ["E", "W", "S", "N"],
    ["S", "N", "E", "W"],
    ["E", "N", "W", "S"],
    ["S", "E", "N", "W"],
    ["E", "N", "S", "W"],
    ["N", "E", "S", "W"],
]


def swiss_event(
    teams: int = 24,
    rounds: int = 5,
    seed: int = 7,
    withdraw_after: int | None = 2,
    leave_round: int | None = 3,
    ruling_round: int | None = 2,
    lot: bool = True,
    swap_round: int | None = None,
    drop_in: int | None = None,
    **fields,
):
    """A Swiss event played through the services: every round drawn by the round service
    (round 1 from ``seed``), published, its results entered by the chief referee (random
    one-deal records from ``seed``) and finalised. After round ``withdraw_after`` a team is
    withdrawn; a team is on leave for round ``leave_round``; in round ``ruling_round`` a
    level-deduction ruling changes a result; after the last round lots are drawn among the
    first tied teams (``lot``). In round ``swap_round`` the organiser swaps two away teams
    by hand before publishing (the first two tables that can, with a reason). While round
    ``drop_in`` is played the leader is moved 3 places down (a ranking adjustment). Returns the
    event (``.facts``: what was done to whom)."""
    import random

    from arbitration.services import incidents, rulings
    from tournaments.models import Round, Team
    from tournaments.services import checkin, lots, registration, round_close
    from tournaments.services import rounds as round_service

    played = event(teams=teams, units=max(2, teams // 8), num_rounds=rounds, **fields)
    who, chief = organiser_of(played), chief_of(played)
    rng = random.Random(seed)
    ids = list(played.teams.order_by("pk").values_list("pk", flat=True))
    facts = SimpleNamespace(withdrawn=None, on_leave=None, ruling=None, lot=None, swapped=None)
    for number in range(1, rounds + 1):
        if number == leave_round:
            facts.on_leave = Team.objects.get(pk=ids[1])
            checkin.grant_leave(facts.on_leave, number, "miss_round", who, "a wedding")
        rnd = round_service.generate_draft(played, who, seed=seed if number == 1 else None)
        if number == swap_round:
            facts.swapped = _swap_two_tables(rnd, who)
        rnd = round_service.publish(rnd, who, confirm_reason="accepted by the test")
        matches = list(rnd.matches.exclude(away=None).order_by("table_number"))
        if number == drop_in:
            from tournaments.services.ranking_adjustments import add_ranking_adjustment
            from tournaments.standings.service import standings_for

            leader = Team.objects.get(pk=standings_for(played)[0].team)
            add_ranking_adjustment(leader, 3, who, "场外指导", source="test")
        for match in matches:
            result(match, deals=[{"finish": rng.choice(ONE_DEAL_FINISHES)}], by=chief)
        if number == ruling_round:
            match = matches[0]
            incident = incidents.log_incident(
                played, chief, match=match, team=match.home, category="other", description="暗号"
            )
            facts.ruling = rulings.rule(
                incident, chief, step="level_deduction", reason="看到暗号", levels=2
            )[0]
        round_close.finalise(Round.objects.get(pk=rnd.pk), chief)
        if number == withdraw_after:
            facts.withdrawn = Team.objects.get(pk=ids[0])
            registration.set_team_status(facts.withdrawn, "withdrawn", who, "went home ill")
    if lot:
        tied = next((group for group in lots.tied_groups(played) if len(group) > 1), None)
        if tied is not None:
            facts.lot = lots.draw_tie(played, chief, tied[0].rank, seed=seed)
    played.refresh_from_db()
    played.facts = facts
    return played


def _swap_two_tables(rnd, who):
    """Swap the away teams of the first two tables of ``rnd`` that allow it (no rematch);
    returns their table numbers."""
    from tournaments.services import rounds as round_service
    from tournaments.services.round_basics import RoundError

    tables = list(rnd.matches.exclude(away=None).order_by("table_number"))
    for first, second in itertools.combinations(tables, 2):
        try:
            round_service.swap_teams(rnd, first.away_id, second.away_id, who, "两队同单位要求分开")
        except RoundError:
            continue
        return first.table_number, second.table_number
    raise AssertionError("no two tables could be swapped")


def staged_event(teams: int = 16, swiss_rounds: int = 3, top: int = 4, seed: int = 5):
    """A Swiss qualifier (its first round a draw from a recorded seed) feeding a knockout
    final of its top ``top`` with a third-place match, played through the services with
    random winners from ``seed``; ties at the qualification line decided by lots."""
    import random

    from tournaments.models import Round
    from tournaments.services import round_close, rounds, stage_rounds

    played = event(teams=teams, units=max(2, teams // 8))
    who, chief = organiser_of(played), chief_of(played)
    rng = random.Random(seed)
    qualifier = stage(played, name="Qualifier", num_rounds=swiss_rounds)
    final = stage(
        played,
        name="Final",
        kind="knockout",
        entrants="qualified",
        qualify_top=top,
        sources=[qualifier],
        third_place=True,
        match_format={"end": "deals", "deals": 1},
    )
    for _ in range(swiss_rounds):
        play_stage_round(qualifier, deals=lambda m: [{"finish": rng.choice(ONE_DEAL_FINISHES)}])
    settle_cut_lots(final, seed=seed)
    rnd = stage_rounds.draw_round(final, who)
    while rnd is not None:
        rnd = rounds.publish(rnd, who)
        for match in rnd.matches.exclude(away=None).order_by("table_number"):
            result(match, deals=rng.choice([WIN_BY_3, NS_WINS_BY_3]), by=chief)
        round_close.finalise(rnd, chief)
        rnd = Round.objects.filter(stage=final, status=Round.Status.DRAFT).first()
    played.refresh_from_db()
    return played
