"""Public pages, no login: pairings (searchable), live standings, team history, projector.

Each page is rendered once per event revision and served from the cache with HTTP
validators (tournaments.services.public_cache): it is the same for everybody (no user name,
no CSRF token, no messages), so a reverse proxy may store it too. Long lists are paged and
the first page is small.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponseRedirect
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme, urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import check_for_language, get_language
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from rules_engine.presets import bye_points
from tournaments import mirror, public_exports
from tournaments.errors import ServiceError
from tournaments.exporters.qr import qr_svg
from tournaments.exporters.tables import clean_number
from tournaments.models import Team
from tournaments.rules_line import rules_line
from tournaments.services import event_file, find_table, public, public_cache
from tournaments.services.audit import client_address
from tournaments.standings.service import metric_labels

from .mixins import EventMixin

REFRESH_SECONDS = 60
PAIRINGS_PAGE = 100  # tables per page (a phone's first screen stays small)
STANDINGS_PAGE = 100  # rows per page
PROJECTOR_COLUMNS, PROJECTOR_ROWS = 3, 14  # tables per projector screen at 1920x1080
PROJECTOR_PAGE = PROJECTOR_COLUMNS * PROJECTOR_ROWS
PROJECTOR_DWELL_SECONDS = 8  # how long each screen of tables shows
PROJECTOR_SYNC_SECONDS = 15  # how often the projector reads the clock (status, end, time)
PROJECTOR_STALE_SECONDS = 60  # data older than this (a mirror cut off, no server) is flagged


class PublicMixin(EventMixin):
    """A public page: cached per revision, identical for every visitor.

    Its downloadable files (``downloads``: (export, label) pairs) are made once a revision by
    a job: the page links a file only once the file of the current revision exists, and
    otherwise says it is being generated (and a job is asked to make it). Which files exist is
    part of the page's identity in the cache (``files``), so a page cached before a file was
    made is not served after."""

    cache_kind = ""
    downloads: tuple[tuple[str, str], ...] = ()
    visitor_roles = False  # the visitor's roles must not shape a page cached for all

    def cache_params(self) -> dict:
        return {}

    def download_params(self) -> dict | None:
        """The parameters the page's download links send (part of each file's identity), or
        None when the page offers no file now (e.g. no round published yet)."""
        return {}

    def files_ready(self) -> dict[str, bool]:
        """Which downloads of the current revision exist (one cache read each)."""
        if not hasattr(self, "_files_ready"):
            params = self.download_params() if self.downloads else None
            language = get_language()
            self._files_ready = {}
            for kind, _label in self.downloads if params is not None else ():
                try:
                    self._files_ready[kind] = public_exports.public_ready(
                        self.event, kind, params, language, client_address(self.request)
                    )
                except ServiceError:  # no such file (e.g. the stage of a bracket URL): none
                    continue
        return self._files_ready

    def page_identity(self) -> dict:
        """The page's cache parameters and, when it offers files, which of them exist."""
        ready = self.files_ready()
        files = {"files": "".join("1" if r else "0" for r in ready.values())} if ready else {}
        return self.cache_params() | files

    def dispatch(self, request, *args, **kwargs):
        dispatch = super().dispatch  # a mirror: what this process just served, if any
        return public_cache.served_held(request, lambda: dispatch(request, *args, **kwargs))

    def get(self, request, *args, **kwargs):
        get = super().get
        return public_cache.serve(
            request,
            self.event,
            self.cache_kind,
            self.page_identity(),
            lambda: get(request, *args, **kwargs),
        )

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["refresh_seconds"] = REFRESH_SECONDS
        # how fresh the page is, from the data (cached with the page: it names the revision)
        context["revised_at"] = self.event.revised_at or self.event.created_at
        context["mirror_of"] = mirror.venue()
        context["downloads"] = self.download_links()
        return context

    def download_links(self) -> list[dict]:
        """Each file the page offers: its export, label, link and whether it exists yet
        (tournaments/public/_downloads.html shows the link or "being generated")."""
        ready = self.files_ready()
        params = self.download_params() if ready else None
        query = f"?{urlencode(params)}" if params else ""
        return [
            {
                "kind": kind,
                "label": label,
                "ready": ready[kind],
                "url": reverse("tournaments:export", args=[self.event.slug, kind]) + query,
            }
            for kind, label in self.downloads
            if kind in ready
        ]


class PairingsPage(PublicMixin, TemplateView):
    template_name = "tournaments/public/pairings.html"
    cache_kind = "pairings"
    downloads = (("pairings-pdf", "PDF"), ("pairings-xlsx", "Excel"))

    def download_params(self) -> dict | None:
        # the shown round's number without a query (remembered for the revision)
        number = public.public_round_number(self.event, self.cache_params()["round"])
        return None if number is None else {"round": str(number)}

    def cache_params(self) -> dict:
        get = self.request.GET
        return {
            "round": get.get("round", "")[:6],
            "q": get.get("q", "")[:100].strip(),
            "page": public.page_number(get.get("page")),
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        params = self.cache_params()
        rnd = public.public_round(self.event, params["round"])
        rows, page = [], None
        if rnd is not None:
            page = public.paginate(
                public.pairing_count(rnd, params["q"]), params["page"], PAIRINGS_PAGE
            )
            rows = public.pairing_rows(rnd, params["q"], page.start, page.stop)
        context.update(
            round=rnd,
            query=params["q"],
            rows=rows,
            page=page,
            bye_points=bye_points(self.event.get_preset()),
            rounds=self.event.rounds.exclude(status="draft").values_list("number", flat=True),
            # the round's pairing-quality report, collapsed (issue 38): the figures the event
            # file carries; rendered once per revision (the page is cached)
            quality=event_file.quality_for(rnd) if rnd is not None and rows else None,
        )
        return context


class StandingsPage(PublicMixin, TemplateView):
    template_name = "tournaments/public/standings.html"
    cache_kind = "standings"

    @property
    def downloads(self) -> tuple:
        files = (("standings-xlsx", "Excel"), ("standings-pdf", "PDF"))
        event = self.event
        if event.status == event.Status.FINISHED and event.event_file_public:
            files += (("event-file", _("Event file for checking (JSON)")),)
        return files

    def cache_params(self) -> dict:
        get = self.request.GET
        return {
            "page": public.page_number(get.get("page")),
            "stage": get.get("stage", "")[:12],
            "section": get.get("section", "")[:12],
        }

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        params = self.cache_params()
        rows, stage, section = public.standings_view(self.event, params["stage"], params["section"])
        # a stage's columns are its kind's tiebreaks (the edition's order per stage, SPEC 3.1)
        kind = stage.kind if stage is not None else None
        labels = [(k, label) for k, label in metric_labels(self.event, kind) if k != "points"]
        context.update(
            stages=list(self.event.stages.prefetch_related("sections")),
            stage=stage,
            section=section,
            rules_line=rules_line(self.event, kind),
        )
        page = public.paginate(len(rows), params["page"], STANDINGS_PAGE)
        context.update(
            rows=[
                {
                    "row": row,
                    "metrics": metrics,
                    # a phone shows the tiebreaks in one line under the name (the columns
                    # are hidden there), so that "14=, 14=, 16" on the same points reads
                    "tiebreaks": [
                        (label, value) for (_key, label), value in zip(labels, metrics, strict=True)
                    ],
                }
                for row in rows[page.start : page.stop]
                # a knockout's place is its bracket's: no summed figures beside it
                for metrics in [
                    [
                        None if row.knockout or row.absent else clean_number(row.metrics.get(key))
                        for key, _label in labels
                    ]
                ]
            ],
            page=page,
            labels=labels,
            round=public.current_round(self.event),
        )
        return context


class TeamPage(PublicMixin, TemplateView):
    template_name = "tournaments/public/team.html"
    cache_kind = "team"

    def cache_params(self) -> dict:
        return {"team": self.kwargs["pk"]}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        team = get_object_or_404(
            Team.objects.select_related("unit").prefetch_related("players"),
            pk=self.kwargs["pk"],
            event=self.event,
        )
        history = public.team_history(team)
        ranks = [(row["round"], row["rank"]) for row in history if row["rank"] is not None]
        find_url = reverse("tournaments:find-table", args=[self.event.slug])
        find_url += f"?team={team.pk}"
        context.update(
            find_url=find_url,
            # the team's QR badge: players scan it to see their table of the current round
            badge_qr=mark_safe(qr_svg(self.request.build_absolute_uri(find_url))),  # noqa: S308
            team=team,
            history=history,
            chart=public.rank_chart(ranks, self.event.teams.count()),
        )
        return context


class ProjectorPage(PublicMixin, TemplateView):
    """The hall's screen: the clock, then every table of the round, one screen after the
    other (projector.js fetches the next screen from the cached pairings API). A staged
    event's section (``?section=<id>``) and a hall with a range of tables (``?hall=<n>``,
    the event settings' n-th hall) each have their own screen; both given, both apply."""

    template_name = "tournaments/public/projector.html"
    cache_kind = "projector"

    def cache_params(self) -> dict:
        get = self.request.GET
        return {"section": get.get("section", "")[:12], "hall": get.get("hall", "")[:6]}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        params = self.cache_params()
        rnd = public.current_round(self.event)
        # a staged event's sections (groups, halls): each hall's screen shows its own tables
        sections = public.round_sections(rnd)
        section = public.round_section(rnd, params["section"])
        # the event's halls with their ranges of tables ("A厅 1-60"): one screen each
        halls = public.event_halls(self.event)
        hall = public.event_hall(self.event, params["hall"])
        where = {"section": section, "hall": hall.hall if hall else None}
        count = public.pairing_count(rnd, "", **where) if rnd else 0
        page = public.paginate(count, 1, PROJECTOR_PAGE) if rnd else None
        rows = public.pairing_rows(rnd, "", 0, PROJECTOR_PAGE, **where) if rnd else []
        screen = _("Tables %(first)s–%(last)s of %(count)s · screen %(page)s of %(pages)s")
        shown = {
            "first": min(1, len(rows)),
            "last": len(rows),
            "page": 1,
            "count": page.count if page else 0,
            "pages": page.pages if page else 0,
        }
        context.update(
            round=rnd,
            sections=sections,
            section=section,
            halls=halls,
            hall=hall,
            clock=public.clock(rnd),
            rows=rows,
            page=page,
            page_size=PROJECTOR_PAGE,
            rows_per_column=PROJECTOR_ROWS,
            screen_format=screen,
            screen_text=screen % shown if page else "",
            dwell_seconds=PROJECTOR_DWELL_SECONDS,
            sync_seconds=PROJECTOR_SYNC_SECONDS,
            stale_seconds=PROJECTOR_STALE_SECONDS,
            # projector.js puts the time in (%(time)s)
            msg_stale=_(
                "The data on this screen is more than a minute old (complete up to %(time)s): "
                "pairings and results may have changed since."
            ),
            warning_minutes=self.event.get_preset().warning_minutes,
            **clock_messages(self.event, rnd),
        )
        return context


class FindTablePage(PublicMixin, TemplateView):
    """Find my table: one small page (a search box and the answer), also the target of the
    QR badge of a team (``?team=<id>``)."""

    template_name = "tournaments/public/find_table.html"
    cache_kind = "find-table"

    def cache_params(self) -> dict:
        return find_table.params(self.request.GET)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        params = self.cache_params()
        answer = find_table.search(self.event, params["q"], params["team"])
        context.update(
            answer=answer, query=params["q"], team=params["team"], **clock_messages(self.event)
        )
        return context


def clock_messages(event, rnd=None) -> dict:
    """What the projector says in the last minutes, at the end and once the round is
    finalised (SPEC section 2; the minutes and what happens at time are preset settings)."""
    preset = event.get_preset()
    minutes = preset.warning_minutes
    if preset.time_up == "one_more_deal":
        warning = _("Last %(n)s minutes: referees warn the tables; then one more deal.")
        over = _("Time is up: play one more deal.")
    else:
        warning = _("Last %(n)s minutes.")
        over = _("Time is up: finish the deal in play.")
    rnd = rnd or public.current_round(event)
    if event.status == event.Status.FINISHED:
        finalised = _("The event is finished: its results are final.")
    elif rnd is None:
        finalised = _("The round is finalised: its results are final.")
    else:  # the round named, never "Round  is finalised"
        finalised = _("Round %(n)s is finalised: its results are final.") % {"n": rnd.number}
    return {"msg_warning": warning % {"n": minutes}, "msg_over": over, "msg_finalised": finalised}


def switch_language(request, code: str):
    """Public pages carry no CSRF token (they are cached for everybody): their language
    links come here, which sets the language cookie and goes back."""
    target = request.GET.get("next", "")
    if not url_has_allowed_host_and_scheme(target, {request.get_host()}, request.is_secure()):
        target = reverse("tournaments:home")
    response = HttpResponseRedirect(target)
    if check_for_language(code):
        response.set_cookie(
            settings.LANGUAGE_COOKIE_NAME,
            code,
            max_age=settings.LANGUAGE_COOKIE_AGE,
            path=settings.LANGUAGE_COOKIE_PATH,
            samesite=settings.LANGUAGE_COOKIE_SAMESITE or "Lax",
        )
    response["Cache-Control"] = "private, no-store"
    return response
