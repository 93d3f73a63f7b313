from .accounts import LoginLink, RoleInvitation
from .audit import AuditLog
from .calls import RefereeCall
from .checkin import CheckIn, RoundLeave, Seating
from .disputes import ResultDispute
from .events import PLAYER_NAME_MAX, TEAM_NAME_MAX, Event, EventRevision, Game, Player, Team, Unit
from .jobs import Job
from .lots import LotDraw
from .results import RankingAdjustment, ResultVersion
from .roles import EventRole, Role, TableAssignment
from .rounds import Match, Round, RoundSlot
from .stages import Section, SectionEntry, Stage
from .tables import ResultConfirmation, TableKey

__all__ = [
    "PLAYER_NAME_MAX",
    "TEAM_NAME_MAX",
    "AuditLog",
    "CheckIn",
    "EventRevision",
    "Game",
    "Job",
    "LoginLink",
    "RoleInvitation",
    "LotDraw",
    "Match",
    "Player",
    "RankingAdjustment",
    "RefereeCall",
    "ResultConfirmation",
    "ResultDispute",
    "ResultVersion",
    "Role",
    "Round",
    "RoundLeave",
    "RoundSlot",
    "Seating",
    "Section",
    "SectionEntry",
    "Stage",
    "TableAssignment",
    "TableKey",
    "Team",
    "Event",
    "EventRole",
    "Unit",
]
