"""Rounds 2..n: Swiss pairing by score (SPEC section 2)."""

from __future__ import annotations

from .core import PairingError, PairingResult, PairingTeam, standing_order, validate_teams
from .matching import DEFAULT_WINDOW, match_teams
from .sides import assign_sides
from .tables import number_tables


def pair_round(teams, avoid_same_unit: bool = True, window: int = DEFAULT_WINDOW) -> PairingResult:
    """Pair one round after round 1.

    Teams are ordered by score, then standings rank. With an odd number of active
    teams, the lowest-placed team that has not had a bye gets it (passing over a
    team only when the others could then not be paired). The rest are paired by a
    minimum-cost matching (see matching.py): no rematch, the smallest score gaps,
    the fewest floats, same-unit meetings avoided where the scores allow, 1v2, 3v4.
    Raises PairingError with an explanation when no valid pairing exists.
    """
    ordered = standing_order(validate_teams(teams))
    if len(ordered) < 2:
        raise PairingError(
            f"{len(ordered)} active team(s): at least two are needed to pair a round",
            {"teams": [team.id for team in ordered]},
        )
    explanation: list[str] = []
    bye = None
    if len(ordered) % 2:
        bye, ordered, pairs, note = choose_bye(ordered, avoid_same_unit, window)
        explanation.append(note)
    else:
        pairs = match_teams(ordered, avoid_same_unit, window)
    place = {team.id: index for index, team in enumerate(ordered)}
    pairings, notes = number_tables(pairs, place, assign_sides)
    return PairingResult(pairings, bye=bye, explanation=explanation + notes)


def choose_bye(
    ordered: list[PairingTeam], avoid_same_unit: bool, window: int
) -> tuple[int, list[PairingTeam], list[tuple[PairingTeam, PairingTeam]], str]:
    """Pick the bye: the lowest-placed team without one that leaves a pairable field.

    Returns the bye's id, the other teams, their pairs and a note for the organiser.
    """
    candidates = [team for team in reversed(ordered) if not team.had_bye]
    if not candidates:
        raise PairingError(
            f"odd number of active teams ({len(ordered)}) and every one of them "
            "has already had a bye",
            {"teams": [team.id for team in ordered]},
        )
    skipped: list[int] = []
    last_error = None
    for candidate in candidates:
        rest = [team for team in ordered if team.id != candidate.id]
        try:
            pairs = match_teams(rest, avoid_same_unit, window)
        except PairingError as error:
            skipped.append(candidate.id)
            last_error = error
            continue
        note = f"team {candidate.id} has the bye: the lowest-placed team without a bye yet"
        if skipped:
            note += (
                f" whose absence leaves a pairable field (teams {skipped} could not"
                " sit out without forcing a rematch)"
            )
        return candidate.id, rest, pairs, note
    raise PairingError(
        "no team can take the bye without forcing a rematch among the others; "
        f"with the lowest-placed candidate out: {last_error.message}",
        {"teams": [team.id for team in candidates], "cause": last_error.details},
    )
