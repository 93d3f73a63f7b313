"""paisai's rules engine: pure Python, no Django. Every rule of play and scoring lives here.

Entry points: :func:`rules_engine.api.score`, :func:`~rules_engine.api.check` and
:func:`~rules_engine.api.classify` (the same functions behind ``python -m rules_engine``).
"""

from rules_engine.errors import RulesError

__all__ = ["RulesError"]
