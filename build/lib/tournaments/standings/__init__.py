"""Pure standings: tiebreak metrics and rankings from stored match outcomes (no Django)."""

from .core import (
    MatchOutcome,
    StandingRow,
    StandingsError,
    compute_standings,
    round_ranks,
)
from .metrics import METRICS, Metric

__all__ = [
    "METRICS",
    "MatchOutcome",
    "Metric",
    "StandingRow",
    "StandingsError",
    "compute_standings",
    "round_ranks",
]
