"""The table page (a referee's phone or the table's device) and the table links page.

The page is a shell: static/js/table*.js (table_store.js lists the files) talk to the results
API (preview scores each deal with the rules engine on the server; submit stores a version), so
no page reload per deal.
"""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, pgettext_lazy
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView, View

from rules_engine import format_fields, seating
from rules_engine.cards import LEVEL_NAMES
from rules_engine.guandan import seats as guandan_seats
from tournaments import glossary, permissions, tasks
from tournaments.exporters.qr import qr_svg
from tournaments.models import TableKey
from tournaments.services import (
    calls,
    checkin,
    match_formats,
    offline,
    results,
    stage_standings,
    table_keys,
)
from tournaments.services.audit import client_address

from .mixins import RoleRequiredMixin, ServiceErrorMixin

STRINGS = {
    "network": _("No answer from the server; check the connection and try again."),
    "no_deals": _("No deal entered yet."),
    "loading_saved": _("Reading the saved result…"),
    "not_checked": _("not checked by the server yet"),
    "draw": _("Level"),
    "leads": _("%s leads"),
    "wins": _("%s wins"),
    "points": _("match points"),
    "level_points": _("Level points"),  # 级差分, beside the match points (national preset)
    "passed_a": _("passed A"),
    "dealer": _("dealer"),
    "defenders": _("defenders"),
    "bottom": _("bottom"),
    "throw_penalty": _("failed throw"),
    "total": _("total"),
    "result_dealer_keeps": _("dealers keep the deal"),
    "result_defenders_take_over": _("defenders take over"),
    "refused": _("Refused:"),
    "remove": _("Remove"),
    "tap_first": _("tap who went out first"),
    "submit": _("Submit the result"),
    "retry_submit": _("Send again (same submission)"),
    "saving": _("Saving…"),
    "saved": _("Saved as version %s; it counts once confirmed."),
    "own_save": _("These deals are already saved as version %s (your earlier save)."),
    "conflict": _(
        "Changed meanwhile: version %n was saved by %w. Nothing of yours is lost: "
        "compare the deals and choose."
    ),
    "conflict_own": _(
        "Version %n is your own earlier save (%w, another tab or phone); the "
        "deals here differ from it: compare and choose."
    ),
    "version_n": _("Version %s"),
    # changed meanwhile: what a merge of this phone's deals onto the newer version does
    "deal_n": _("deal %s"),
    "list_sep": pgettext_lazy("list separator", ", "),
    "merge_whole": _("the whole result"),
    "merge_theirs": _("%d changed in version %n only: kept."),
    "merge_mine": _("%d changed here only: goes on top."),
    "merge_conflicts": _("%d changed on both sides: choose for each."),
    "merge_nothing": _("No deal differs."),
    "merge_choose": _("Choose first for %d: the saved one or yours."),
    "merge_reason": _(
        "Yours over another person's change needs a reason: write it in the note above."
    ),
    "merged_saved": _(
        "Saved as version %s, with the other changes kept; it counts once confirmed."
    ),
    "choose_theirs": _("Keep version %s's"),
    "choose_mine": _("Use mine"),
    "kept_theirs": _("Nothing of yours to add: version %s is kept as it is."),
    "chief_only": _("corrected by the chief referee: only the chief referee may change it"),
    "diff_theirs": _("changed there"),
    "diff_mine": _("changed here"),
    "diff_both": _("changed on both: choose"),
    "conn_conflict": _(
        "Connected: not saved. Version %n is newer: compare the deals below and choose."
    ),
    "deal_saved": _("saved in version %s"),
    "deal_local": _("kept on this phone, not sent yet"),
    "deal_sending": _("sending…"),
    "deal_refused": _("refused:"),
    "conn_ok": _("Connected: everything entered is saved."),
    "conn_unsaved": _("Connected: %u deal(s) kept on this phone, not submitted yet."),
    "conn_sending": _("Connected: sending…"),
    "conn_checking": _("Checking the connection…"),
    "conn_offline": _(
        "Network down: the %s deal(s) entered are kept on this phone and will "
        "be checked automatically when it is back."
    ),
    "conn_server": _(
        "The server does not answer: the %s deal(s) entered are kept on this "
        "phone; trying again automatically."
    ),
    "conn_login": _(
        "Your login has expired: the %s deal(s) entered are kept on this phone. "
        "Log in again to continue."
    ),
    "conn_revoked": _(
        "This table link was revoked: the %s deal(s) entered are kept on this "
        "phone. Ask the chief referee for a new link."
    ),
    "confirm_absent": _("Record this team as absent (forfeit)?"),
    "void": _("void"),
    "counts": _("counts"),
    "final_levels": _("final levels"),
    "confirmed_by": _("confirmed by"),
    "nobody_confirmed": _("no captain has confirmed yet"),
    "counts_now": _("Version %s counts now."),
    "confirmation_kept": _("Your confirmation is recorded; waiting for the other captain."),
    # a captain's signature, said under its button: what happened and what comes next
    "sign_counts": _(
        "Signed for %t: version %s counts now, both captains have confirmed. Nothing more to "
        "do for this result."
    ),
    "sign_waiting": _(
        "Signed for %t. Now the captain of %o signs here with their own username and password."
    ),
    "sign_failed": _(
        "Not signed: the server did not answer. Once the connection line says the server "
        "answers again, the captain signs again (username and password)."
    ),
    "save_correction": _("Save the correction (it counts at once)"),
    "reason_needed": _("Give a reason: it goes in the audit log."),
    "diff_same": _("unchanged"),
    "diff_changed": _("changed"),
    "diff_new": _("added"),
    "diff_nothing": _("Nothing changes against version %s yet."),
    "diff_summary": _("Against version %s: %c deal(s) changed, %a added, %r removed."),
    **{f"kind_{code}": word for code, word in glossary.VERSION_KINDS.items()},
    "match_over": _("The match is over: %s"),
    "over_no_more": _("No further deal: the match is over (%s)."),
    "time_called": _("Time was called during deal %s."),
    "time_call": _("Time is up (called during the deal in play)"),
    "time_uncall": _("Undo the time call"),
    # best of three (三局二胜): "game_n" is the vocabulary's 第 %s 局 (glossary.game_label)
    "games_won": _("games won"),
    "game_in_play": _("in play"),
    "game_drawn": _("drawn (counts for neither side)"),
    "next_game": _("the next deal goes into %s"),
    # the rules engine on the phone, with no network (static/js/table_engine.js)
    "engine_provisional": _(
        "Provisional: worked out on this phone with no network. The result counts once the "
        "server has it."
    ),
    "engine_provisional_login": _(
        "Provisional: worked out on this phone while your login has expired. The result "
        "counts once you log in again and the server has it."
    ),
    "engine_differed": _(
        "The server's rules engine answered differently from this phone's: the page shows "
        "the server's answer, which is the one that counts."
    ),
    # offline in the first seconds: a deal waits for the phone's engine (issue 35)
    "engine_starting": _("Starting the scoring engine…"),
    "engine_failed": _(
        "The scoring engine could not start on this phone: the levels show once the network "
        "is back. The deals entered are kept on this phone; open this page once online so "
        "the phone keeps the engine for next time."
    ),
    # the save status beside the submit button (issue 24): what happened, and what to do
    "not_saved": _("Not saved: %s"),
    "fix_and_resubmit": _("Correct it and submit again; the deals stay on this phone."),
    "fix_the_deal": _("Change or remove the deal marked below, then submit again."),
    "ask_chief": _("Nothing was saved. Ask the chief referee (Call the chief referee below)."),
    "no_answer": _(
        "No answer from the server within %s seconds. Nothing is lost: the same submission is "
        "sent again automatically in %t s (it cannot be saved twice)."
    ),
    "no_network": _(
        "Network down: the submission is kept on this phone and sent automatically when the "
        "network is back."
    ),
    "server_failed": _(
        "The server failed (error %s). Nothing is lost: the same submission is sent again "
        "automatically in %t s."
    ),
    "retrying": _("Sending again (attempt %s), the same submission…"),
    "correction_saved": _("Correction saved as version %s; it counts now."),
    "final_saved": _("Final levels saved as version %s; it counts once confirmed."),
    "stored_version": _("Version %s saved"),
    "stored_final": _("final levels"),
    "stored_forfeit": _("forfeit"),
    "games_won_short": _("games"),
    "edit": _("Change"),
    "editing": _("Changing deal %s (was: %w): enter it again; the deals after it stay."),
    "was": _("was"),
    "levels_changed": _("levels change"),
    "diff_later": _("%s later deal(s) reach other levels."),
    "diff_final": _("Version %s: %o → %n"),
    "diff_final_same": _("The final levels are the same as version %s: change them first."),
    "need_levels": _("Choose both sides' levels of game 1 first."),
}


def table_context(match, key: TableKey | None = None, user=None, revoked: bool = False) -> dict:
    event = match.round.event
    fmt = match_formats.format_of(match)
    result_url = reverse("match-result", args=[event.slug, match.pk])
    page_url = (
        reverse("tournaments:table-key-entry", args=[key.key])
        if key
        else reverse("tournaments:table-entry", args=[event.slug, match.table_number])
    )
    if key:
        call_url = reverse("tournaments:table-key-call", args=[key.key])
    elif match.table_number is not None:
        call_url = reverse("tournaments:table-call", args=[event.slug, match.table_number])
    else:
        call_url = ""
    # the referee's way to the incident form for this match (its four players offered there)
    closed = results.entry_closed(match)
    has_versions = results.has_versions(match)
    incident_url = (
        f"{reverse('arbitration:incident-add', args=[event.slug])}?match={match.pk}"
        if key is None and permissions.may(user, event, "incident.log")
        else ""
    )
    return {
        "event": event,
        "match": match,
        "incident_url": incident_url,
        "seats": results.seats(match),
        "side_teams": seating.by_side(match.home, match.away),  # the home team's side first
        "late_minutes": checkin.late_minutes(event),  # the seating card quotes the setting
        # 呼叫裁判: the chief referee's call button, and the call still waiting (if any)
        "call_url": call_url if match.round.status in calls.OPEN_ROUND else "",
        "open_call": calls.open_call(match.round, match.table_number),
        "format_text": match_formats.text(fmt),
        # a knockout's final or third-place match says so (决赛 / 三四名决赛)
        "knockout_label": glossary.knockout_match(
            stage_standings.knockout_codes(match.round).get(match.pk, "")
        ),
        "revoked": revoked,
        # a version is stored: until the phone has read it, the page says so (not "nothing yet")
        "has_versions": has_versions,
        # a finalised (locked) round takes no entry: said on the page, every control disabled
        "closed": closed,
        "config": {
            "game": event.game,
            "match": match.pk,
            "api": result_url.removesuffix("result/"),
            "key": key.key if key else "",
            "revoked": revoked,
            "has_versions": has_versions,
            "closed": closed,
            "user": user.username if user is not None and user.is_authenticated else "",
            # the chief referee may put a deal over a correction (a merge after a 409)
            "chief": bool(key is None and permissions.may(user, event, "result.correct")),
            "login_url": f"{reverse('login')}?next={page_url}",
            "table": match.table_number,
            # times read in the event's time zone (as on every other page), not the phone's
            "time_zone": timezone.get_current_timezone_name(),
            # the phone keeps the deals per event, round and table
            "storage": f"paisai:table:{event.slug}:{match.round.number}:{match.table_number}",
            # the team on each side: the engine's seating says which side the home team plays
            "side_teams": seating.by_side(match.home.name, match.away.name if match.away else ""),
            "final_levels": bool(event.get_preset().final_levels_entry),
            # from the engine: a finish names every seat but the last; who partners whom
            "finish_taps": len(guandan_seats.SEATS) - 1,
            "partners": dict(guandan_seats.PARTNER),
            # the vocabulary's words for the codes the API answers with (tournaments.glossary)
            "seat_names": {code: str(name) for code, name in glossary.SEATS.items()},
            "side_names": {code: str(name) for code, name in glossary.SIDES.items()},
            "via_names": {code: str(name) for code, name in glossary.VIA.items()},
            # the match format (SPEC 2): the engine's answer says when the match is over
            "format": fmt,
            # best of three's limits, the engine's (rules_engine.format_fields.limits)
            **format_fields.limits(fmt),
            "timed": bool(fmt and fmt["end"] in ("time", "time_or_deals")),
            "end_reasons": match_formats.end_reasons(),
            # the rules engine on the phone with no network (None without Pyodide installed)
            "offline": offline.page_config(results.engine_base(match), get_language()),
            # what the engine's answer says while the match is not over (one more deal)
            "next_steps": match_formats.next_steps(),
        },
        "strings": {name: str(text) for name, text in STRINGS.items()}
        | {"game_n": glossary.game_label("%s")},
        "levels": LEVEL_NAMES,
        # only the final levels: one row per game (a best of three: 第 1 局 … 第 3 局)
        "final_games": [glossary.game_label(n) for n in range(1, format_fields.games_of(fmt) + 1)]
        if format_fields.is_best_of_three(fmt)
        else [""],
    }


class TableEntryView(RoleRequiredMixin, TemplateView):
    """/t/<slug>/table/<n>/: for a table referee assigned to table n, or the chief referee."""

    template_name = "tournaments/table/entry.html"
    action = "result.enter"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        table = self.kwargs["table"]
        if not permissions.can_write_table(self.request.user, self.event, table):
            raise PermissionDenied
        match = results.table_match(self.event, table)
        if match is None:
            raise Http404(_("No match at this table in the current round."))
        return context | table_context(match, user=self.request.user)


class TableKeyEntryView(ServiceErrorMixin, TemplateView):
    """/table/<key>/: the table's device, no login; the key writes this table only."""

    template_name = "tournaments/table/entry.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # A revoked key still opens the page (read-only), so the deals kept on the phone stay
        # on screen with the reason; the API refuses every write with it.
        key = table_keys.any_key(self.kwargs["key"])
        if key is None:
            raise Http404(_("This table link is unknown."))
        self.table_key = key
        match = results.table_match(key.event, key.table_number)
        if match is None:
            raise Http404(_("No match at this table in the current round."))
        return context | table_context(match, key, revoked=not key.is_live)


class TableLinksView(RoleRequiredMixin, TemplateView):
    """Organiser / chief referee: each table's private link with its QR code; issue, revoke."""

    template_name = "tournaments/table/links.html"
    action = "table_key.manage"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        keys = {k.table_number: k for k in table_keys.live_keys(self.event)}
        round_ = results.current_round(self.event)
        tables = set(keys)
        if round_ is not None:
            tables |= set(
                round_.matches.filter(table_number__isnull=False).values_list(
                    "table_number", flat=True
                )
            )
        rows = []
        for table in sorted(tables):
            key = keys.get(table)
            url = self.request.build_absolute_uri(f"/table/{key.key}/") if key else ""
            rows.append(
                {
                    "table": table,
                    "key": key,
                    "url": url,
                    "qr": mark_safe(qr_svg(url)) if key else "",
                    "referees": [] if key else table_keys.table_referees(self.event, table),
                }
            )
        context["rows"] = rows
        context["current_round"] = round_
        return context


class TableKeyActionView(RoleRequiredMixin, View):
    """POST: issue a new key for a table (``table``) or revoke one (``revoke`` = key id)."""

    action = "table_key.manage"

    def post(self, request, slug):
        source = client_address(request)
        if request.POST.get("revoke"):
            key = get_object_or_404(TableKey, pk=_int(request.POST["revoke"]), event=self.event)
            table_keys.revoke(key, request.user, source, request.POST.get("reason", ""))
        elif request.POST.get("all"):
            job = table_keys.create_links_job(self.event, request.user, source)
            tasks.start(job)
            return redirect("tournaments:job", self.event.slug, job.pk)
        else:
            table = _int(request.POST.get("table"))
            chosen = _int(request.POST.get("referee"))
            referee = next(
                (u for u in table_keys.table_referees(self.event, table) if u.pk == chosen),
                None,
            )
            table_keys.issue(self.event, table, request.user, source, referee=referee)
        return redirect(self.error_url())

    def error_url(self) -> str:
        return reverse("tournaments:table-links", args=[self.event.slug])


def _int(value) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0
