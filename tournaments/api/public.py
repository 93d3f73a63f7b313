"""Public read-only API: pairings, live standings, find-my-table and the round clock.

Every answer but the clock is rendered once per event revision and served from the cache
with ``ETag``/``Last-Modified`` (tournaments.services.public_cache): a client or a proxy
revalidates with a 304. Long lists are paged: ``?page=N&page_size=M`` (at most 1,000).
"""

from __future__ import annotations

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import mirror
from tournaments.exporters.tables import clean_number
from tournaments.services import find_table, public, public_cache

from .query import QueryInt
from .views import EventScopedMixin

PAGE_SIZE, MAX_PAGE_SIZE = 200, 1000
PAGE = QueryInt("page", minimum=1, cap=999_999, description="page number, from 1")
SIZE = QueryInt(
    "page_size",
    minimum=1,
    cap=MAX_PAGE_SIZE,
    description=f"rows a page (at most {MAX_PAGE_SIZE} are given)",
)
STAGE = QueryInt("stage", minimum=1, description="a stage's standings (its id)")
SECTION = QueryInt("section", minimum=1, description="one section (its id)")
ROUND = QueryInt(
    "round", minimum=1, description="a published round's number (default: the current one)"
)
HALL = QueryInt(
    "hall",
    minimum=1,
    description="one hall's tables: the n-th line of the event's halls, from 1 "
    "(a hall with a range of tables, e.g. “A厅 1-60”)",
)
TEAM = QueryInt("team", minimum=1, description="a team's id (the link on its QR badge)")
PAGING = [PAGE.parameter(), SIZE.parameter()]
STAGE_FILTER = [STAGE.parameter(), SECTION.parameter()]


def text(value) -> str:
    """An optional number read by QueryInt, as the services take it from a URL."""
    return "" if value is None else str(value)


def paged(page: public.Page, rows: list, key: str = "results") -> dict:
    return {
        "count": page.count,
        "page": page.number,
        "pages": page.pages,
        "page_size": page.size,
        "next": page.number + 1 if page.number < page.pages else None,
        "previous": page.number - 1 if page.number > 1 else None,
        key: rows,
    }


def revised_at(event) -> str | None:
    """When the event's public data last changed (the revision's time, replicated with it)."""
    moment = event.revised_at or event.created_at
    return moment.isoformat() if moment else None


class PublicView(EventScopedMixin, APIView):
    permission_classes = [AllowAny]
    authentication_classes: list = []  # the same answer for everybody; no session read

    def dispatch(self, request, *args, **kwargs):
        dispatch = super().dispatch  # a mirror: what this process just served, if any
        return public_cache.served_held(request, lambda: dispatch(request, *args, **kwargs))


class PublicStandingsView(PublicView):
    @extend_schema(
        summary="Live standings (public), paged; of a stage or one of its sections",
        parameters=[*PAGING, *STAGE_FILTER],
        responses=dict,
    )
    def get(self, request, slug):
        event = self.get_event()
        query = request.query_params
        params = {
            "page": PAGE.read(query, 1),
            "size": SIZE.read(query, PAGE_SIZE),
            "stage": text(STAGE.read(query)),
            "section": text(SECTION.read(query)),
        }

        def build() -> dict:
            rows, stage, section = public.standings_view(event, params["stage"], params["section"])
            page = public.paginate(len(rows), params["page"], params["size"])
            rnd = public.current_round(event)
            return (
                {
                    "revision": event.revision,
                    "revised_at": revised_at(event),
                    "round": rnd.number if rnd else None,
                    "stage": stage.pk if stage else None,
                    "section": section.pk if section else None,
                }
                | paged(
                    page,
                    [
                        {
                            "rank": row.rank,
                            "shared": row.shared,
                            "team": row.team,
                            "name": row.name,
                            "unit": row.unit,
                            "status": row.status,
                            "absent": row.absent,  # 未参赛: rank null, listed last
                            "points": clean_number(row.points),
                            "metrics": {k: clean_number(v) for k, v in row.metrics.items()},
                        }
                        for row in rows[page.start : page.stop]
                    ],
                )
            )

        return public_cache.serve_json(request, event, "api-standings", params, build)


class PublicPairingsView(PublicView):
    @extend_schema(
        summary="Pairings of a published round (public); ?round=N, ?q=team, ?section=, "
        "?hall=, paged",
        parameters=[
            ROUND.parameter(),
            OpenApiParameter("q", OpenApiTypes.STR, description="part of a team name"),
            SECTION.parameter(),
            HALL.parameter(),
            *PAGING,
        ],
        responses=dict,
    )
    def get(self, request, slug):
        event = self.get_event()
        query = request.query_params
        params = {
            "round": text(ROUND.read(query)),
            "q": query.get("q", "")[:100].strip(),
            "section": text(SECTION.read(query)),
            "hall": text(HALL.read(query)),
            "page": PAGE.read(query, 1),
            "size": SIZE.read(query, PAGE_SIZE),
        }

        def build() -> dict:
            rnd = public.public_round(event, params["round"])
            section = public.round_section(rnd, params["section"])
            screen = public.event_hall(event, params["hall"])
            hall = screen.hall if screen else None
            if rnd is None:
                return {"round": None, "status": None} | paged(
                    public.paginate(0, 1, 1), [], "tables"
                )
            page = public.paginate(
                public.pairing_count(rnd, params["q"], section, hall),
                params["page"],
                params["size"],
            )
            rows = public.pairing_rows(rnd, params["q"], page.start, page.stop, section, hall)
            tables = [
                {
                    "table": row["table"],
                    "label": row["label"],  # 决赛 / 三四名决赛 of a knockout ("" otherwise)
                    "home": row["home"].name,
                    "away": row["away"].name if row["away"] else None,
                    "home_id": row["home"].pk,
                    "away_id": row["away"].pk if row["away"] else None,
                }
                for row in rows
            ]
            where = {
                "section": section.name if section else None,
                "hall": hall.name if hall else None,
            }
            return (
                {"round": rnd.number, "status": rnd.status, "revised_at": revised_at(event)}
                | where
                | paged(page, tables, "tables")
            )

        return public_cache.serve_json(request, event, "api-pairings", params, build)


class PublicFindTableView(PublicView):
    @extend_schema(
        summary="Find my table (public): ?q=name, pinyin initials, team name or number; "
        "or ?team=<id> (the link on a team's QR badge)",
        parameters=[OpenApiParameter("q", OpenApiTypes.STR), TEAM.parameter()],
        responses=dict,
    )
    def get(self, request, slug):
        event = self.get_event()
        TEAM.read(request.query_params)  # a team that is no whole number is refused
        params = find_table.params(request.query_params)
        return public_cache.serve_json(
            request,
            event,
            "api-find-table",
            params,
            lambda: find_table.search(event, params["q"], params["team"]),
        )


class PublicClockView(PublicView):
    @extend_schema(summary="The current round's clock (public)", responses=dict)
    def get(self, request, slug):
        event = self.get_event()
        answer = public.clock(public.current_round(event))
        # how fresh this site's data is (a mirror: up to when replication brought it)
        revised_at = event.revised_at
        answer |= mirror.freshness(mirror.data_as_of()) | {
            "revised_at": revised_at.isoformat() if revised_at else None
        }
        response = Response(answer)
        response["Cache-Control"] = "public, max-age=2"
        return response
