"""Small builders shared by the pairing tests."""

from tournaments.pairing import PairingTeam


def team(team_id, score=0, rank=None, **fields):
    return PairingTeam(id=team_id, score=score, rank=team_id if rank is None else rank, **fields)


def met(*pairs):
    """Opponent sets from (a, b) pairs: {team id: frozenset of opponents}."""
    opponents = {}
    for a, b in pairs:
        opponents.setdefault(a, set()).add(b)
        opponents.setdefault(b, set()).add(a)
    return {team_id: frozenset(ids) for team_id, ids in opponents.items()}


def field(scores, pairs_met=(), units=None, **fields):
    """Teams 1..n with the given scores (ranked in that order) and earlier meetings."""
    opponents = met(*pairs_met)
    return [
        team(
            index + 1,
            score,
            rank=index,
            opponents=opponents.get(index + 1, frozenset()),
            unit=None if units is None else units[index],
            **fields,
        )
        for index, score in enumerate(scores)
    ]


def tables(result):
    """Pairings as a list of frozensets, in table order."""
    return [frozenset((p.home, p.away)) for p in result.pairings]
