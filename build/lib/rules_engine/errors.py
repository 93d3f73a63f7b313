"""The one error type of the rules engine.

Every rule violation or malformed input raises :class:`RulesError` with a clear English
message and, when it concerns one field of a request, the path of that field
(for example ``"deals[1].finish"`` or ``"play"``). The message is a
:class:`~rules_engine.i18n.Text` when built with ``t(...)``, so it can also be shown in
Chinese: :meth:`RulesError.localized`.
"""

from __future__ import annotations

from rules_engine.i18n import localize


class RulesError(ValueError):
    """Bad input or a broken rule, said in words a referee can act on."""

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.field = field

    def __str__(self) -> str:
        return self.message

    def localized(self, lang: str | None) -> str:
        """The message in language ``lang`` (e.g. ``"zh-hans"``); English when untranslated."""
        return localize(self.message, lang)

    def as_dict(self) -> dict:
        """The JSON form used in list answers: ``{"error": ..., "field": ...}``."""
        answer = {"error": self.message}
        if self.field is not None:
            answer["field"] = self.field
        return answer


def sub_field(parent: str | None, child: str | int) -> str:
    """Join a field path: ``sub_field("deals", 1) == "deals[1]"``, ``sub_field("a", "b") == "a.b"``."""
    if isinstance(child, int):
        return f"{parent or ''}[{child}]"
    return f"{parent}.{child}" if parent else child
