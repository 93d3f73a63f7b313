from .appeals import Appeal, AppealDecision, Vote
from .incidents import Evidence, Incident
from .rulings import Revocation, Ruling

__all__ = ["Appeal", "AppealDecision", "Evidence", "Incident", "Revocation", "Ruling", "Vote"]
