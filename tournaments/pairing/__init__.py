"""Pure pairing of event rounds: plain data in, pairings out (no Django)."""

from .core import (
    AWAY,
    FLAG_FLOATED,
    FLAG_HOME_TWICE,
    FLAG_LABELS,
    FLAG_REMATCH,
    FLAG_SAME_UNIT,
    HOME,
    Note,
    Pairing,
    PairingError,
    PairingResult,
    PairingTeam,
)
from .draw import draw_first_round
from .swiss import pair_round

__all__ = [
    "AWAY",
    "FLAG_FLOATED",
    "FLAG_HOME_TWICE",
    "FLAG_LABELS",
    "FLAG_REMATCH",
    "FLAG_SAME_UNIT",
    "HOME",
    "Note",
    "Pairing",
    "PairingError",
    "PairingResult",
    "PairingTeam",
    "draw_first_round",
    "pair_round",
]
