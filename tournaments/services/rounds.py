"""The round workflow: draft a pairing, swap teams by hand, publish, start the clock.

Each step checks the round's status, does its database work in one transaction and
writes an audit entry (who, when, why). Problems raise `RoundError` with a message
for the organiser (translated) and the name of the field at fault, never a traceback.
The results area adds complete / finalise / reopen.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.errors import Code
from tournaments.models import Event, Match, Round, RoundSlot, Team
from tournaments.pairing import PairingError, draw_first_round, pair_round
from tournaments.pairing.service import (
    draw_field,
    flags_for,
    load_pairing_teams,
    rematch_tables,
    slots_for,
    write_pairing,
)
from tournaments.services import events, match_formats
from tournaments.services.audit import log_action
from tournaments.services.round_basics import (  # what the round services share
    MAX_SEED,
    RoundError,
    RoundForbidden,
    check_seed,
    pairing_failed,
    team_names,
)

SWAPPABLE = (Round.Status.DRAFT, Round.Status.PUBLISHED)


# --- drafting -----------------------------------------------------------------------------


def next_round_number(event: Event) -> tuple[int, Round | None]:
    """The number of the round to draft, and the existing draft of it (if any).

    Refuses while the latest round is published, in play or not finalised.
    """
    latest = event.rounds.order_by("-number").first()
    if latest is None:
        return 1, None
    if latest.status == Round.Status.DRAFT:
        previous = event.rounds.filter(number=latest.number - 1).first()
        if previous is not None and previous.status != Round.Status.FINALISED:
            raise RoundError(
                _("Round %(number)s is not finalised yet: finalise its results first."),
                None,
                Code.CONFLICT,
                number=previous.number,
            )
        return latest.number, latest
    if latest.status != Round.Status.FINALISED:
        raise RoundError(
            _(
                "Round %(number)s is not finalised yet: the next round can be drafted "
                "once its results are finalised."
            ),
            None,
            Code.CONFLICT,
            number=latest.number,
        )
    if latest.number >= event.num_rounds:
        raise RoundError(
            _("All %(count)s rounds of this event have been played."), count=event.num_rounds
        )
    return latest.number + 1, None


def pair(event: Event, number: int, seed: int | None):
    """The pairing of round ``number`` and the field it was drawn from."""
    teams = load_pairing_teams(event, number)
    preset = event.get_preset()
    avoid_same_unit = preset.avoid_same_unit
    try:
        if number == 1:
            method = preset.round_one_method
            drawn = draw_first_round(teams, seed, avoid_same_unit, method=method)
            return drawn, draw_field(teams)
        # never stuck: keep the rounds still scheduled after this one pairable
        rounds_after = max(0, event.num_rounds - number)
        return pair_round(teams, avoid_same_unit, rounds_after=rounds_after), draw_field(teams)
    except PairingError as error:
        raise pairing_failed(event, number, error) from None


def stale_reason(rnd: Round) -> str | None:
    """Why a draft no longer matches the field (a team withdrawn, added, checked in or out,
    suspended, on leave since it was drawn), or None while it still does."""
    if rnd.status != Round.Status.DRAFT or not rnd.drawn_from:
        return None
    if rnd.stage_id is not None:
        from tournaments.services import stage_rounds  # it builds on this module

        now = set(stage_rounds.stale_field(rnd))
    else:
        now = set(draw_field(load_pairing_teams(rnd.event, rnd.number)))
    drawn = set(rnd.drawn_from)
    if now == drawn:
        return None
    parts = []
    if now - drawn:
        parts.append(
            gettext("not in the draft: %(teams)s")
            % {"teams": team_names(rnd.event, sorted(now - drawn))}
        )
    if drawn - now:
        parts.append(
            gettext("no longer in the field: %(teams)s")
            % {"teams": team_names(rnd.event, sorted(drawn - now))}
        )
    return "; ".join(parts)


def generate_draft(event: Event, user, seed=None, source: str = "") -> Round:
    """Draft the next round's pairing (or draft the current draft again, replacing it).

    Round 1 is a draw with a recorded seed (a fresh random one when none is given);
    later rounds are Swiss-paired from the standings and the history of the event.
    """
    permissions.require(user, event, "round.draft", RoundForbidden)
    if event.stages.exists():  # an event in stages draws its current stage's round
        from tournaments.services import stage_rounds  # it builds on this module

        stage = stage_rounds.current_stage(event)
        if stage is None:
            raise RoundError(_("Every stage of this event has been played."))
        return stage_rounds.draw_round(stage, user, seed, source)
    seed = check_seed(seed)
    with transaction.atomic():
        Event.objects.select_for_update(no_key=True).filter(pk=event.pk).first()
        number, draft = next_round_number(event)
        if seed is not None and number != 1:
            raise RoundError(_("A draw seed applies to the round-1 draw only."), "seed")
        if number == 1 and seed is None:
            seed = secrets.randbelow(MAX_SEED + 1)
        result, field = pair(event, number, seed)
        replaced = 0
        if draft is None:
            draft = Round.objects.create(event=event, number=number)
        else:
            replaced = draft.matches.count()
            draft.matches.all().delete()
        draft.draw_seed = seed if number == 1 else None
        draft.drawn_from = field
        draft.save(update_fields=["draw_seed", "drawn_from"])
        write_pairing(draft, result)
        log_action(
            event,
            user,
            "round.redraft" if replaced else "round.draft",
            draft,
            data={
                "round": number,
                "seed": draft.draw_seed,
                "tables": len(result.pairings),
                "bye": result.bye,
                "replaced_matches": replaced,
                "rematches": result.rematches,
                "explanation": [note.as_dict() for note in result.explanation[:200]],
            },
            source=source,
        )
    return draft


# --- swapping -----------------------------------------------------------------------------


def match_of(rnd: Round, team: Team | int) -> Match:
    team_id = getattr(team, "pk", team)
    # the caller holds the round's row lock, so no other swap changes these matches
    match = Match.objects.filter(round=rnd, slots__team_id=team_id).first()
    if match is None:
        raise RoundError(
            _("%(team)s does not play in round %(number)s."),
            "team",
            team=team_names(rnd.event, [team_id]),
            number=rnd.number,
        )
    return match


def exchange(match: Match, old: int, new: int) -> None:
    if match.home_id == old:
        match.home_id = new
    else:
        match.away_id = new


def swap_teams(rnd: Round, team_a, team_b, user, reason: str, source: str = "") -> list[Match]:
    """Exchange the places of two teams in a draft or published (not started) round.

    Refused when it would make a rematch or give a second bye; the reason is required
    and goes in the audit log with the tables before and after.
    """
    permissions.require(user, rnd.event, "round.draft", RoundForbidden)
    reason = (reason or "").strip()
    if not reason:
        raise RoundError(_("Give a reason for the swap: it goes in the audit log."), "reason")
    with transaction.atomic():
        rnd = Round.objects.select_for_update(no_key=True).get(pk=rnd.pk)
        if rnd.status not in SWAPPABLE:
            raise RoundError(
                _("Round %(number)s has started: its pairing can no longer be changed."),
                None,
                Code.CONFLICT,
                number=rnd.number,
            )
        id_a, id_b = getattr(team_a, "pk", team_a), getattr(team_b, "pk", team_b)
        if id_a == id_b:
            raise RoundError(_("Choose two different teams to swap."), "team_b")
        first, second = match_of(rnd, id_a), match_of(rnd, id_b)
        before = [describe(first), describe(second)]
        if first.pk == second.pk:
            first.home_id, first.away_id = first.away_id, first.home_id
            changed = [first]
        else:
            exchange(first, id_a, id_b)
            exchange(second, id_b, id_a)
            changed = [first, second]
        check_swap(rnd, changed)
        field = load_pairing_teams(rnd.event, rnd.number)
        teams = {team.id: team for team in field}
        for match in changed:
            match.flags = (
                [] if match.is_bye else flags_for(teams[match.home_id], teams[match.away_id], field)
            )
        RoundSlot.objects.filter(match__in=changed).delete()
        Match.objects.bulk_update(changed, ["home", "away", "flags"])
        RoundSlot.objects.bulk_create(slots_for(rnd, changed))
        log_action(
            rnd.event,
            user,
            "round.swap",
            rnd,
            data={
                "round": rnd.number,
                "teams": [id_a, id_b],
                "before": before,
                "after": [describe(match) for match in changed],
            },
            reason=reason,
            source=source,
        )
    return changed


def check_swap(rnd: Round, matches: list[Match]) -> None:
    """No rematch of an earlier round; the bye only to a team that has not had one."""
    earlier = Match.objects.filter(round__event=rnd.event, round__number__lt=rnd.number)
    for match in matches:
        if match.is_bye and earlier.filter(home_id=match.home_id, away__isnull=True).exists():
            raise RoundError(
                _("%(team)s has already had a bye."),
                "team",
                team=team_names(rnd.event, [match.home_id]),
            )
    for match in matches:
        pair = (match.home_id, match.away_id)
        met = None if match.is_bye else earlier.filter(home_id__in=pair, away_id__in=pair).first()
        if met is not None:
            raise RoundError(
                _("%(teams)s already met in round %(number)s: no rematch."),
                "team",
                teams=team_names(rnd.event, pair),
                number=met.round.number,
            )


def describe(match: Match) -> dict:
    return {"table": match.table_number, "home": match.home_id, "away": match.away_id}


# --- publishing and the clock -------------------------------------------------------------


def change_status(rnd: Round, user, expected, status, action: str, message: str, **fields):
    with transaction.atomic():
        rnd = Round.objects.select_for_update(no_key=True).get(pk=rnd.pk)
        if rnd.status != expected:
            raise RoundError(  # the round's state refuses it (409), the request is well formed
                message, None, Code.CONFLICT, number=rnd.number, status=rnd.get_status_display()
            )
        rnd.status = status
        for name, value in fields.items():
            setattr(rnd, name, value)
        rnd.save(update_fields=["status", *fields])
        log_action(
            rnd.event,
            user,
            action,
            rnd,
            data={"round": rnd.number, **{k: str(v) for k, v in fields.items()}},
        )
    return rnd


def publish(rnd: Round, user, confirm_reason: str = "") -> Round:
    """Make a draft pairing public; its byes count in the standings from now on.

    A least-bad pairing (tables flagged "rematch": no pairing without one existed) is
    published only when the organiser confirms it with a reason, which is logged.
    """
    permissions.require(user, rnd.event, "round.publish", RoundForbidden)
    if not rnd.matches.exists():
        raise RoundError(_("Round %(number)s has no pairing to publish."), number=rnd.number)
    stale = stale_reason(rnd)
    if stale:
        raise RoundError(
            _("The draft of round %(number)s is stale (%(why)s): draw it again before publishing."),
            number=rnd.number,
            why=stale,
        )
    rematches = rematch_tables(rnd)
    confirm_reason = (confirm_reason or "").strip()
    if rematches and not confirm_reason:
        raise RoundError(
            _(
                "Round %(number)s repeats %(count)s earlier meeting(s) because no pairing "
                "without a rematch exists: confirm with a reason to publish it."
            ),
            "confirm_reason",
            number=rnd.number,
            count=len(rematches),
        )
    with transaction.atomic():  # the confirmation is logged only if the round is published
        if rematches:
            log_action(
                rnd.event,
                user,
                "round.confirm_rematches",
                rnd,
                data={"round": rnd.number, "tables": [describe(match) for match in rematches]},
                reason=confirm_reason,
            )
        rnd = change_status(
            rnd,
            user,
            Round.Status.DRAFT,
            Round.Status.PUBLISHED,
            "round.publish",
            _("Only a draft can be published; round %(number)s is %(status)s."),
            published_at=timezone.now(),
        )  # the round's save bumps the event revision (tournaments.freshness)
    events.advance(rnd.event, Event.Status.IN_PLAY)
    return rnd


def start_clock(rnd: Round, user) -> Round:
    """Start play: the round ends after the round clock from now (the event's round length,
    or the minutes of a match format that ends by time)."""
    permissions.require(user, rnd.event, "round.start", RoundForbidden)
    now = timezone.now()
    return change_status(
        rnd,
        user,
        Round.Status.PUBLISHED,
        Round.Status.IN_PLAY,
        "round.start",
        _("Only a published round can start; round %(number)s is %(status)s."),
        started_at=now,
        ends_at=now + timedelta(minutes=match_formats.clock_minutes(rnd.event, rnd.stage)),
    )
