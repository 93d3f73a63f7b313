"""Result pages: the round's results (pending confirmations for the chief referee), a match's
version history with confirm / correct / void / restore / forfeit, finalise and reopen.

Thin views: every decision is in tournaments.services (results, result_entry, result_confirm,
result_effects, disputes and round_close); refusals come back as messages in the reader's
language.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.db.models import Prefetch
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from rules_engine.presets import bye_points
from tournaments import glossary
from tournaments.models import Match, ResultDispute, ResultVersion, Round
from tournaments.services import (
    attribution,
    disputes,
    match_formats,
    result_confirm,
    result_effects,
    result_entry,
    results,
    round_close,
)
from tournaments.services.results import Actor, ResultError
from tournaments.validation import SMALLINT_MAX, BadInput, parse_json, whole_number

from .mixins import EventMixin


def _state(match: Match, versions: list[ResultVersion]) -> str:
    if match.is_bye:
        return "bye"
    if not versions:
        return "missing"
    if any(v.is_counting for v in versions):
        return "counting" if versions[-1].is_counting else "newer"
    return "pending"


class RoundResultsView(EventMixin, TemplateView):
    """Every match of a round (``?round=N``, default the current one) with its result state."""

    template_name = "tournaments/results/round.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rounds = Round.objects.filter(event=self.event).exclude(status=Round.Status.DRAFT)
        number = self.request.GET.get("round")
        number = whole_number(number, SMALLINT_MAX)
        round_ = rounds.filter(number=number).first() if number is not None else None
        round_ = round_ or results.current_round(self.event)
        rows = []
        if round_ is not None:
            matches = (
                round_.matches.select_related("home", "away")
                .prefetch_related(
                    Prefetch("versions", queryset=ResultVersion.objects.order_by("number"))
                )
                .order_by("table_number")
            )
            for match in matches:
                versions = list(match.versions.all())
                counting = next((v for v in versions if v.is_counting), None)
                rows.append(
                    {
                        "match": match,
                        "state": _state(match, versions),
                        "latest": versions[-1] if versions else None,
                        "counting": counting,
                    }
                )
        context.update(
            round=round_,
            rounds=rounds.order_by("number"),
            rows=rows,
            pending=[r for r in rows if r["state"] in ("missing", "pending", "newer")],
            can_close=self.may("round.finalise"),
            is_chief=self.may("result.correct"),
            bye_points=bye_points(self.event.get_preset()),
        )
        return context


class MatchResultPage(EventMixin, TemplateView):
    """One match: seats, the counting result, every version with who/when/from where."""

    template_name = "tournaments/results/match.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        match = get_object_or_404(
            Match.objects.select_related("round__event", "home", "away"),
            pk=self.kwargs["pk"],
            round__event=self.event,
        )
        versions = results.history(match)
        user = self.request.user
        actor = Actor(user if user.is_authenticated else None)
        latest = versions[-1] if versions else None
        open_disputes = disputes.open_disputes(match)
        team = disputes.captain_team(actor, match)
        show_identities = attribution.sees_identities(user, self.event)
        if not show_identities:  # the public sees a role, never a username or an address
            labels = attribution.public_labels(self.event)
            for version in versions:
                version.public_by = attribution.public_name(
                    version.created_by_name, labels, version.via
                )
        context.update(
            show_identities=show_identities,
            match=match,
            seats=results.seats(match),
            versions=list(reversed(versions)),
            latest=latest,
            latest_deals=deal_rows(latest),
            counting=next((v for v in versions if v.is_counting), None),
            is_chief=self.may("result.correct"),
            can_confirm=result_confirm.may_confirm(actor, match, latest),
            # not a whole match yet (e.g. 2 deals of 3): why it cannot be confirmed (issue 35)
            incomplete=match_formats.not_whole(latest.record, latest.outcome)
            if latest is not None and not latest.is_counting
            else "",
            can_dispute=bool(
                team
                and latest
                and not latest.is_counting
                and not any(d.team_id == team and d.version_id == latest.pk for d in open_disputes)
            ),
            open_disputes=open_disputes,
            can_enter=not match.is_bye and results.can_enter(actor, match),
        )
        if context["is_chief"] and not match.is_bye:
            context.update(correction_context(match, user, context["counting"] or latest, latest))
        return context


def correction_context(match: Match, user, reference, latest) -> dict:
    """The chief's correction uses the table page's deal editor, starting from the counting
    version (else the latest) and showing what changes against it."""
    from .table import table_context

    context = table_context(match, user=user)
    record = reference.record if reference and isinstance(reference.record, dict) else {}
    deals, games = record.get("deals"), None
    if isinstance(record.get("games"), list):  # best of three: its deals in order, each's game
        pairs = game_deals(record)
        games, deals = [g for g, _deal in pairs], [deal for _g, deal in pairs]
    context["config"] |= {
        "mode": "correct",
        "storage": f"paisai:correct:{match.round.event.slug}:{match.pk}",
        "latest_number": latest.number if latest else 0,
        "reference": {
            "number": reference.number if reference else 0,
            "deals": deals or [],
            "games": games,
            "outcome": reference.outcome if reference and deals else None,
            # a result entered by its final levels is corrected as final levels
            "final": final_part(record) if reference else None,
            # a result without deals (final levels, a forfeit): the scoreboard shows it
            "final_outcome": reference.outcome if reference and not deals else None,
            "whole": {k: v for k, v in record.items() if k != "settings"} if not deals else None,
        },
    }
    return {"editor": context, "config": context["config"], "strings": context["strings"]}


def final_part(record: dict) -> dict | None:
    """The final levels of a record (one game's, or a best of three's games), or None."""
    if record.get("final_levels") is not None:
        return {"final_levels": record["final_levels"], "passed_a": record.get("passed_a")}
    games = record.get("games")
    if isinstance(games, list) and any(
        isinstance(g, dict) and g.get("final_levels") is not None for g in games
    ):
        return {"games": games}
    return None


def game_deals(record: dict) -> list[tuple[int | None, object]]:
    """(game index, deal) of every deal of ``record`` in order: a best of three's games in
    turn, else one game (index None)."""
    games = record.get("games")
    if not isinstance(games, list):
        return [(None, deal) for deal in record.get("deals") or []]
    return [
        (g, deal)
        for g, game in enumerate(games)
        if isinstance(game, dict)
        for deal in game.get("deals") or []
    ]


def deal_rows(version: ResultVersion | None) -> list[dict]:
    """The deals of a version as the engine answered them, for reading before confirming:
    what was entered and the levels (or tricks) after each deal."""
    if version is None or not isinstance(version.record, dict):
        return []
    deals = game_deals(version.record)  # a best of three: one trace for all its games
    trace = (version.outcome or {}).get("trace") or []
    rows = []
    for i, (g, deal) in enumerate(deals):
        entry = trace[i] if i < len(trace) and isinstance(trace[i], dict) else {}
        first = g is not None and (i == 0 or deals[i - 1][0] != g)
        rows.append(
            {
                "n": i + 1,
                "text": _deal_text(deal, entry),
                "after": _after(entry),
                "game": glossary.game_label(g + 1) if first else "",
                "at": g,
            }
        )
    games = version.record.get("games")
    if isinstance(games, list):  # a game entered by its final levels: one line, in its place
        for g, game in enumerate(games):
            if isinstance(game, dict) and isinstance(game.get("final_levels"), dict):
                at = next((k for k, row in enumerate(rows) if row["at"] > g), len(rows))
                rows.insert(
                    at,
                    {
                        "n": None,
                        "text": _final_text(game),
                        "after": "",
                        "game": glossary.game_label(g + 1),
                        "at": g,
                    },
                )
    return rows


def _final_text(game: dict) -> str:
    """A game's final levels in words: 最终级数 东西 9 : 南北 4 (东西 过A)."""
    levels = game["final_levels"]
    text = (
        f"{_('final levels')} {glossary.side('EW')} {levels.get('EW')} : "
        f"{glossary.side('NS')} {levels.get('NS')}"
    )
    if game.get("passed_a") in ("EW", "NS"):
        text += f" ({glossary.side(game['passed_a'])} {_('passed A')})"
    return text


def _deal_text(deal: dict, entry: dict) -> str:
    if not isinstance(deal, dict):
        return ""
    if deal.get("finish"):
        return glossary.seats(deal["finish"])
    if deal.get("tricks"):
        tricks = deal["tricks"]
        return (
            f"{glossary.side('EW')} {tricks.get('EW')} : {glossary.side('NS')} {tricks.get('NS')}"
        )
    parts = [
        f"{_('dealer')} {glossary.side(deal.get('dealer') or entry.get('dealer', ''))}",
        f"{_('defenders')} {deal.get('defender_points')}",
    ]
    if "bottom_points" in deal:
        parts.append(f"{_('bottom')} {deal['bottom_points']} × {deal.get('bottom_multiplier')}")
    for throw in deal.get("failed_throws") or []:
        parts.append(f"{_('failed throw')} {glossary.side(throw.get('side'))} {throw.get('cards')}")
    if "total_points" in entry:
        parts.append(f"{_('total')} {entry['total_points']}")
    result = {
        "dealer_keeps": _("dealers keep the deal"),
        "defenders_take_over": _("defenders take over"),
    }.get(entry.get("result"))
    if result:
        parts.append(str(result))
    return " · ".join(parts)


def _after(entry: dict) -> str:
    levels = entry.get("levels_after") or entry.get("levels")
    if not isinstance(levels, dict):
        levels = entry.get("tricks")
    if isinstance(levels, dict):
        return (
            f"{glossary.side('EW')} {levels.get('EW')} · {glossary.side('NS')} {levels.get('NS')}"
        )
    return ""


class MatchActionView(EventMixin, View):
    """POST ``action`` = confirm | correct | void | restore | forfeit on a match."""

    def post(self, request, slug, pk):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        match = get_object_or_404(
            Match.objects.select_related("round__event", "home", "away"),
            pk=pk,
            round__event=self.event,
        )
        messages.success(request, self.act(match, Actor.from_request(request, "web"), request.POST))
        return redirect(self.error_url())

    def error_url(self) -> str:
        return reverse("tournaments:match-result", args=[self.event.slug, self.kwargs["pk"]])

    @staticmethod
    def act(match: Match, actor: Actor, data) -> str:
        action = data.get("action")
        base = _number(data.get("base_version"))
        reason = data.get("reason", "")
        if action == "confirm":
            version = result_confirm.confirm(match, base, actor)
            return (
                _("Version %(n)s counts now.") % {"n": version.number}
                if version.is_counting
                else _("Your confirmation is recorded; waiting for the other captain.")
            )
        if action == "correct":
            record = _json(data.get("record"))
            version = result_entry.correct(match, record, actor, base, reason)
        elif action == "void":
            version = result_entry.void(match, actor, base, reason)
        elif action == "restore":
            version = result_effects.chief_restore(
                match, _number(data.get("version")), actor, reason
            )
        elif action == "forfeit":
            version = result_entry.mark_absent(match, data.get("absent"), actor, base, reason)
        elif action == "dispute":
            disputes.raise_dispute(match, base, actor, reason)
            return _("Your dispute is recorded; the chief referee has been called to the table.")
        elif action == "decide":
            dispute = ResultDispute.objects.filter(
                pk=_number(data.get("dispute")), match=match
            ).first()
            if dispute is None:
                raise ResultError(_("Unknown dispute."), "dispute")
            disputes.decide(dispute, actor, data.get("decision"), reason)
            return _("Decision recorded.")
        else:
            raise ResultError(_("Unknown action."), "action")
        return _("Version %(n)s saved.") % {"n": version.number}


def _number(value) -> int | None:
    try:
        return int(value)
    except (TypeError, ValueError):
        return None


def _json(text) -> object:
    try:
        return parse_json(text or "", "record")
    except BadInput as err:
        raise ResultError(
            _("The record is not valid JSON: %(error)s"), "record", error=err
        ) from None


class RoundCloseView(EventMixin, View):
    """POST ``action`` = finalise | reopen (with ``reason``) for round ``number``."""

    def post(self, request, slug, number):
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        round_ = get_object_or_404(Round, event=self.event, number=number)
        round_.event = self.event
        source = Actor.from_request(request).source
        if request.POST.get("action") == "reopen":
            round_close.reopen(round_, request.user, request.POST.get("reason", ""), source)
            messages.success(request, _("Round %(n)s reopened.") % {"n": number})
        else:
            round_close.finalise(round_, request.user, source)
            messages.success(request, _("Round %(n)s finalised.") % {"n": number})
        return redirect(self.error_url())

    def error_url(self) -> str:
        url = reverse("tournaments:results", args=[self.event.slug])
        return f"{url}?round={self.kwargs['number']}"
