"""Pure standings: tiebreak metrics and rankings from stored match outcomes (no Django)."""

from .core import (
    MatchOutcome,
    StandingRow,
    StandingsError,
    absent_side,
    bye_outcome,
    compute_standings,
    forfeit_outcome,
    round_ranks,
)
from .metrics import METRICS, Metric

__all__ = [
    "METRICS",
    "MatchOutcome",
    "Metric",
    "StandingRow",
    "StandingsError",
    "absent_side",
    "bye_outcome",
    "compute_standings",
    "forfeit_outcome",
    "round_ranks",
]
