from .audit import AuditLog
from .events import Game, Player, Team, Tournament, Unit
from .exports import ExportJob
from .results import RankingAdjustment, ResultVersion
from .roles import Role, TableAssignment, TournamentRole
from .rounds import Match, Round, RoundSlot

__all__ = [
    "AuditLog",
    "ExportJob",
    "Game",
    "Match",
    "Player",
    "RankingAdjustment",
    "ResultVersion",
    "Role",
    "Round",
    "RoundSlot",
    "TableAssignment",
    "Team",
    "Tournament",
    "TournamentRole",
    "Unit",
]
