"""paisai_check: re-check a paisai event file (``.paisai.json``) without paisai's server.

``python -m paisai_check FILE`` re-scores every result from its deal record (the rules engine),
re-draws every lot and the round-1 draw from their seeds, re-pairs every Swiss round from the
standings before it, recomputes every ranking with its tie-breaks and every round's
pairing-quality report, and prints, round by round, ``same`` or what differs, with the rule.
Exit status: 0 everything agrees, 1 something differs, 2 the file cannot be read.

It depends on ``rules_engine`` and the pure pairing and standings cores only
(tournaments/pairing and tournaments/standings, their Django-free modules): no Django, no
database.
"""

from .check import BadFile, Difference, Report, check, load, main

__all__ = ["BadFile", "Difference", "Report", "check", "load", "main"]
