"""Public read-only API: pairings of the current round, live standings and the round clock."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.exporters.tables import clean_number
from tournaments.services import public
from tournaments.standings.service import standings_for

from .views import TournamentScopedMixin


class PublicView(TournamentScopedMixin, APIView):
    permission_classes = [AllowAny]


class PublicStandingsView(PublicView):
    @extend_schema(summary="Live standings (public)", responses=dict)
    def get(self, request, slug):
        rows = standings_for(self.get_tournament())
        return Response(
            [
                {
                    "rank": row.rank,
                    "shared": row.shared,
                    "team": row.team,
                    "name": row.name,
                    "unit": row.unit,
                    "status": row.status,
                    "points": clean_number(row.points),
                    "metrics": {key: clean_number(value) for key, value in row.metrics.items()},
                }
                for row in rows
            ]
        )


class PublicPairingsView(PublicView):
    @extend_schema(
        summary="Pairings of a published round (public); ?round=N, ?q=team", responses=dict
    )
    def get(self, request, slug):
        rnd = public.public_round(self.get_tournament(), request.query_params.get("round"))
        if rnd is None:
            return Response({"round": None, "tables": []})
        rows = public.pairing_rows(rnd, request.query_params.get("q", "")[:100])
        return Response(
            {
                "round": rnd.number,
                "status": rnd.status,
                "tables": [
                    {
                        "table": row["table"],
                        "home": row["home"].name,
                        "away": row["away"].name if row["away"] else None,
                    }
                    for row in rows
                ],
            }
        )


class PublicClockView(PublicView):
    @extend_schema(summary="The current round's clock (public)", responses=dict)
    def get(self, request, slug):
        return Response(public.clock(public.current_round(self.get_tournament())))
