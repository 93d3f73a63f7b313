"""Plain data in and out of the pairing functions (no ORM, no Django).

A service loads a round's teams into `PairingTeam` values, calls `draw_first_round`
or `pair_round`, and stores the `Pairing` values it gets back.
"""

from __future__ import annotations

from dataclasses import dataclass, field

HOME = "H"
AWAY = "A"

FLAG_FLOATED = "floated"
FLAG_HOME_TWICE = "home_twice"
FLAG_SAME_UNIT = "same_unit"
FLAG_REMATCH = "rematch"

# A flag's explanation, as a message key the shell translates (pairing/messages.py).
FLAG_LABELS = {
    FLAG_FLOATED: "pairing.flag.floated",
    FLAG_HOME_TWICE: "pairing.flag.home_twice",
    FLAG_SAME_UNIT: "pairing.flag.same_unit",
    FLAG_REMATCH: "pairing.flag.rematch",
}


@dataclass(frozen=True)
class Note:
    """One line of a pairing's explanation: a message key and its parameters.

    The pure core writes no prose: the shell (pairing/messages.py) translates the key
    with Django's catalogues and puts team names in place of the ids found in the
    parameters `team`, `home`, `away`, `upper`, `lower` and `teams`.
    """

    key: str
    params: dict = field(default_factory=dict, hash=False)

    def as_dict(self) -> dict:
        return {"key": self.key, "params": dict(self.params)}


@dataclass(frozen=True)
class PairingTeam:
    """One team as the pairing sees it before a round.

    `rank` is the team's place in the current standings, 0 = top. `recent_sides`
    lists the sides it sat in earlier rounds, oldest first ("H" = home, East-West;
    "A" = away, North-South). `active` is False for withdrawn or suspended teams,
    which are never paired.
    """

    id: int
    score: float = 0
    rank: int = 0
    unit: str | None = None
    opponents: frozenset[int] = frozenset()
    home_count: int = 0
    away_count: int = 0
    recent_sides: tuple[str, ...] = ()
    had_bye: bool = False
    active: bool = True
    seed: int | None = None  # the team's seed number (round 1 by seed), lower is stronger


@dataclass(frozen=True)
class Pairing:
    """One table: `home` sits East-West, `away` North-South; table 1 is the top."""

    table: int
    home: int
    away: int
    flags: frozenset[str] = frozenset()


@dataclass
class PairingResult:
    """A round's tables, its bye and how they were chosen.

    `rematches` counts the tables (and a second bye) that repeat an earlier meeting:
    only when no pairing without one exists, and such a round is published only once
    the organiser confirms it with a reason (`needs_confirmation`).
    """

    pairings: list[Pairing]
    bye: int | None = None
    seed: int | None = None
    explanation: list[Note] = field(default_factory=list)
    rematches: int = 0
    repeated_bye: bool = False

    @property
    def needs_confirmation(self) -> bool:
        return self.rematches > 0


class PairingError(Exception):
    """The input cannot be paired. `message` is for developers (plain English);
    `key` (a message key, see pairing/messages.py) and `details` (machine-readable
    facts, e.g. {"teams": [3, 7, 9]}) let a service translate it and name the teams.
    """

    def __init__(self, message: str, details: dict | None = None, key: str = "pairing.bad_input"):
        super().__init__(message)
        self.message = message
        self.details = details or {}
        self.key = key


def validate_teams(teams) -> list[PairingTeam]:
    """Check the input and return the active teams; raise PairingError on bad input."""
    seen: set[int] = set()
    active: list[PairingTeam] = []
    for team in teams:
        if not isinstance(team, PairingTeam):
            raise PairingError(
                f"expected PairingTeam values, got {type(team).__name__}",
                {"value": repr(team)},
            )
        for name in ("id", "score", "rank", "home_count", "away_count"):
            value = getattr(team, name)
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise PairingError(
                    f"team {team.id}: {name} must be a number, got {value!r}", {"teams": [team.id]}
                )
        if team.id in seen:
            raise PairingError(f"team {team.id} is listed twice", {"teams": [team.id]})
        seen.add(team.id)
        bad_sides = [side for side in team.recent_sides if side not in (HOME, AWAY)]
        if bad_sides:
            raise PairingError(
                f"team {team.id} has recent side {bad_sides[0]!r}; use 'H' or 'A'",
                {"teams": [team.id]},
            )
        if team.id in team.opponents:
            raise PairingError(f"team {team.id} lists itself as an opponent", {"teams": [team.id]})
        if team.active:
            active.append(team)
    return active


def standing_order(teams: list[PairingTeam]) -> list[PairingTeam]:
    """Teams from the top: most points first, then standings rank, then id."""
    return sorted(teams, key=lambda team: (-team.score, team.rank, team.id))
