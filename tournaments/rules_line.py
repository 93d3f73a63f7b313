"""The rules line every standings output carries (issue 36): under which edition of the rules
the standings were made, built once from the event's edition (its preset with its settings):

    规则：南山杯 2026 规则（1/0.5/0，缺席 −1）· 同分依次比：对手分、胜场、贡献分 · 改动 2 处

The public and organiser's standings pages, the standings xlsx and PDF, the prize list PDF and
the API's standings (``rules``) all show :func:`rules_line`."""

from __future__ import annotations

from django.utils.translation import gettext, ngettext

from rules_engine.points import points_text
from rules_engine.presets import scoring_terms
from tournaments import glossary


def _number(value) -> str:
    return points_text(value).replace("-", "−")  # the minus sign, as a rule book prints it


def points_words(preset) -> str:
    """The match points: "1/0.5/0" (win/draw/loss), "20-point scale", and the absent side's
    points when they differ from a loss ("absent −1")."""
    terms = scoring_terms(preset)
    if terms.scale is not None:
        words = gettext("%(points)s-point scale") % {"points": terms.scale}
    else:
        words = "/".join(_number(v) for v in (terms.win, terms.draw, terms.loss))
    if terms.level_points is not None:
        words = gettext("%(points)s + level-difference points") % {"points": words}
    absent = preset.forfeit_points[1]
    if terms.scale is None and absent != preset.loss_points:
        words = gettext("%(points)s, absent %(absent)s") % {
            "points": words,
            "absent": _number(absent),
        }
    return words


def tiebreak_words(order) -> str:
    """The tie-breaks after the match points, in words: "对手分、胜场、贡献分"."""
    names = [str(glossary.word(glossary.METRICS, key, key)) for key in order if key != "points"]
    return gettext(", ").join(names) if names else "—"


def rules_line(event, stage_kind: str | None = None) -> str:
    """The event's rules in one line: its edition's name, its points, its tie-breaks (of the
    stage kind asked for; else by kind of stage when the event's stages differ) and how many
    settings it changed."""
    preset = event.get_preset()
    name = glossary.word(glossary.PRESETS, preset.name, preset.title)
    kinds = (
        [stage_kind]
        if stage_kind
        else list(
            dict.fromkeys(event.stages.order_by("order", "pk").values_list("kind", flat=True))
        )
    )
    orders = {kind: preset.standings_order_for(kind) for kind in kinds} or {
        None: preset.standings_order
    }
    if len(set(orders.values())) == 1:
        ties = tiebreak_words(next(iter(orders.values())))
    else:
        from tournaments.models import Stage

        kind_words = dict(Stage.Kind.choices)
        ties = gettext("; ").join(
            f"{kind_words.get(kind, kind)}: {tiebreak_words(order)}"
            for kind, order in orders.items()
        )
    line = gettext("Rules: %(edition)s (%(points)s) · ties broken by: %(tiebreaks)s") % {
        "edition": name,
        "points": points_words(preset),
        "tiebreaks": ties,
    }
    changed = len(event.settings or {})
    if changed:
        line += " · " + ngettext(
            "%(count)s change from the edition", "%(count)s changes from the edition", changed
        ) % {"count": changed}
    return line
