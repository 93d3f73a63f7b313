"""Plain-language reasons why a round cannot be paired."""

from __future__ import annotations

from .core import PairingError, PairingTeam


def team_list(ids) -> str:
    return ", ".join(f"team {team_id}" for team_id in ids)


def impossible_pairing_error(
    teams: list[PairingTeam], pairs: list[tuple[int, int]]
) -> PairingError:
    """Explain a field with no pairing free of rematches.

    `pairs` is a largest possible set of tables (indexes into `teams`); the teams it
    leaves out are the ones the organiser needs to hear about.
    """
    paired = {index for pair in pairs for index in pair}
    left = [teams[index] for index in range(len(teams)) if index not in paired]
    left_ids = sorted(team.id for team in left)
    details = {"teams": left_ids, "tables_possible": len(pairs)}
    if len(teams) == 2:
        message = (
            f"{team_list(left_ids)} have already met and there is no other team to pair them with"
        )
    elif all(b.id in a.opponents for a in left for b in left if a.id != b.id):
        message = (
            f"no pairing without a rematch exists: at most {len(pairs)} tables can be formed, "
            f"and the {len(left)} teams left have already met each other: {team_list(left_ids)}"
        )
    else:
        message = (
            f"no pairing without a rematch exists: at most {len(pairs)} tables can be formed, "
            f"and {len(left)} teams are left without an opponent they have not met: "
            f"{team_list(left_ids)}"
        )
    return PairingError(message, details, key="pairing.error.no_rematch_free")
