"""REST API of rounds and standings: list rounds, draft, read pairings, swap, publish, start the
clock; standings after any round. Thin: `tournaments.services.rounds` and the standings service
do the work. Writes are for the event's organisers; a draft is visible to them only.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.response import Response

from rules_engine.points import answer_number
from tournaments import permissions
from tournaments.models import Match, Round
from tournaments.rules_line import rules_line
from tournaments.services import rounds as service
from tournaments.services.audit import client_address
from tournaments.services.stage_standings import official_standings
from tournaments.standings.service import metric_labels, shown_metrics

from .query import QueryInt
from .strict import StrictModelSerializer, StrictSerializer
from .views import EventScopedMixin

AFTER_ROUND = QueryInt(
    "after_round", minimum=1, description="Standings after this round (default: latest)."
)

# --- serializers --------------------------------------------------------------------------


class RoundSerializer(StrictModelSerializer):
    status = serializers.CharField(
        read_only=True, help_text="draft, published, in_play, complete or finalised."
    )

    class Meta:
        model = Round
        fields = [
            "number",
            "status",
            "draw_seed",
            "published_at",
            "started_at",
            "ends_at",
            "finalised_at",
        ]
        read_only_fields = fields


class PairingSerializer(StrictModelSerializer):
    table = serializers.IntegerField(source="table_number", allow_null=True)
    home = serializers.IntegerField(source="home_id", help_text="Home team id (East–West).")
    home_name = serializers.CharField(source="home.name")
    away = serializers.IntegerField(
        source="away_id", allow_null=True, help_text="Away team id (North–South); null for a bye."
    )
    away_name = serializers.CharField(source="away.name", default=None, allow_null=True)
    bye = serializers.BooleanField(source="is_bye")
    flags = serializers.ListField(
        child=serializers.CharField(),
        help_text="floated (a team left its score group), home_twice, same_unit, rematch "
        "(an earlier meeting repeated: only when no pairing without one exists).",
    )

    class Meta:
        model = Match
        fields = ["id", "table", "home", "home_name", "away", "away_name", "bye", "flags"]
        read_only_fields = fields


class RoundDetailSerializer(RoundSerializer):
    pairings = serializers.SerializerMethodField()

    class Meta(RoundSerializer.Meta):
        fields = [*RoundSerializer.Meta.fields, "pairings"]
        read_only_fields = fields

    @extend_schema(responses=PairingSerializer(many=True))
    def get_pairings(self, rnd) -> list[dict]:
        matches = (
            Match.objects.filter(round=rnd).select_related("home", "away").order_by("table_number")
        )
        ordered = sorted(matches, key=lambda m: (m.is_bye, m.table_number or 0))
        return PairingSerializer(ordered, many=True).data


class DraftSerializer(StrictSerializer):
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=service.MAX_SEED,
        help_text="Round 1 only: the draw seed; omitted = a fresh random seed, recorded.",
    )


class SwapSerializer(StrictSerializer):
    team_a = serializers.IntegerField(help_text="Id of a team playing in the round.")
    team_b = serializers.IntegerField(help_text="Id of the team it changes places with.")
    reason = serializers.CharField(max_length=500, help_text="Why (goes in the audit log).")


class PointsField(serializers.Field):
    """Exact match points as a JSON number: ``1``, ``0.5``, ``-1`` (never ``1.0``)."""

    def to_representation(self, value):
        return answer_number(value)


extend_schema_field({"type": "number"})(PointsField)


class StandingRowSerializer(StrictSerializer):
    rank = serializers.IntegerField(
        allow_null=True, help_text="Null for a team that did not take part (未参赛): no place."
    )
    shared = serializers.BooleanField(help_text="Tied on every metric with another team.")
    team = serializers.IntegerField()
    name = serializers.CharField()
    unit = serializers.CharField()
    status = serializers.CharField(help_text="active, withdrawn or suspended.")
    points = PointsField(read_only=True, help_text="Exact: 1, 0.5 or -1 (never 1.0).")
    metrics = serializers.SerializerMethodField(
        help_text="Each tiebreak of the preset by key; null where a team has none (no lot)."
    )
    moved_down = serializers.IntegerField(help_text="Places moved down by a ruling.")
    stage = serializers.CharField(
        help_text="An event in stages: the stage whose ranking placed the team (else empty)."
    )
    knockout = serializers.BooleanField(
        help_text="The place is a knockout bracket's: points and tiebreaks do not decide it."
    )
    absent = serializers.BooleanField(
        help_text="未参赛: never checked in and played no match; listed last, without a place."
    )

    def get_metrics(self, row) -> dict[str, float | None]:
        return shown_metrics(row)


class MetricSerializer(StrictSerializer):
    key = serializers.CharField()
    label = serializers.CharField(help_text="In the request's language (Accept-Language).")


class StandingsSerializer(StrictSerializer):
    after_round = serializers.IntegerField(allow_null=True)
    rules = serializers.CharField(
        help_text="The rules line: the edition, its points and tie-breaks (tournaments.rules_line)"
    )
    order = MetricSerializer(many=True)
    rows = StandingRowSerializer(many=True)


# --- views --------------------------------------------------------------------------------


class RoundsAPIMixin(EventScopedMixin):
    def sees_drafts(self) -> bool:
        return permissions.may(self.request.user, self.get_event(), "round.draft")

    def get_round(self) -> Round:
        rnd = get_object_or_404(Round, event=self.get_event(), number=self.kwargs["number"])
        if rnd.status == Round.Status.DRAFT and not self.sees_drafts():
            raise Http404
        return rnd

    def round_answer(self, rnd: Round, code=status.HTTP_200_OK) -> Response:
        return Response(RoundDetailSerializer(rnd).data, status=code)


class RoundListView(RoundsAPIMixin, generics.ListAPIView):
    """The event's rounds with their status (drafts only for the organisers)."""

    serializer_class = RoundSerializer
    pagination_class = None

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Round.objects.none()
        rounds = Round.objects.filter(event=self.get_event()).order_by("number")
        return rounds if self.sees_drafts() else rounds.exclude(status=Round.Status.DRAFT)


class RoundDetailView(RoundsAPIMixin, generics.GenericAPIView):
    serializer_class = RoundDetailSerializer

    def get(self, request, *args, **kwargs):
        """A round and its pairings: table (1 = top), home (EW), away (NS), bye, flags."""
        return self.round_answer(self.get_round())


class DraftView(RoundsAPIMixin, generics.GenericAPIView):
    serializer_class = DraftSerializer

    @extend_schema(request=DraftSerializer, responses={201: RoundDetailSerializer})
    def post(self, request, *args, **kwargs):
        """Draft the next round's pairing, or draft the current draft again (replacing it)."""
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = service.generate_draft(
            self.get_event(),
            request.user,
            seed=data.validated_data.get("seed"),
            source=client_address(request),
        )
        return self.round_answer(rnd, status.HTTP_201_CREATED)


class SwapView(RoundsAPIMixin, generics.GenericAPIView):
    serializer_class = SwapSerializer

    @extend_schema(request=SwapSerializer, responses=RoundDetailSerializer)
    def post(self, request, *args, **kwargs):
        """Exchange two teams' places (draft or published, not started; no rematch; logged)."""
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = self.get_round()
        service.swap_teams(
            rnd,
            data.validated_data["team_a"],
            data.validated_data["team_b"],
            request.user,
            data.validated_data["reason"],
            source=client_address(request),
        )
        return self.round_answer(rnd)


class StepView(RoundsAPIMixin, generics.GenericAPIView):
    """POST with no body: one step of the round's life."""

    serializer_class = RoundDetailSerializer
    step = staticmethod(service.publish)

    @extend_schema(request=None, responses=RoundDetailSerializer)
    def post(self, request, *args, **kwargs):
        rnd = type(self).step(self.get_round(), request.user)
        return self.round_answer(rnd)


class PublishSerializer(StrictSerializer):
    confirm_reason = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=500,
        help_text="Required when the pairing repeats an earlier meeting (tables flagged "
        "rematch: no pairing without one existed); goes in the audit log.",
    )


class PublishView(RoundsAPIMixin, generics.GenericAPIView):
    """Publish a draft pairing (a least-bad one only with confirm_reason)."""

    serializer_class = PublishSerializer

    @extend_schema(request=PublishSerializer, responses=RoundDetailSerializer)
    def post(self, request, *args, **kwargs):
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = service.publish(
            self.get_round(), request.user, data.validated_data.get("confirm_reason", "")
        )
        return self.round_answer(rnd)


class StartClockView(StepView):
    """Start play: status in_play, ends_at = now + the event's round minutes."""

    step = staticmethod(service.start_clock)


class StandingsView(EventScopedMixin, generics.GenericAPIView):
    serializer_class = StandingsSerializer

    @extend_schema(parameters=[AFTER_ROUND.parameter()])
    def get(self, request, *args, **kwargs):
        """Standings (public): the event's official ranking (the public page's, the exports'
        and the prize list's; after round N, as it stood then): rank, team, points and each
        tiebreak of the preset, in order."""
        event = self.get_event()
        after = AFTER_ROUND.read(request.query_params)
        rows = official_standings(event, after_round=after)
        order = [{"key": key, "label": label} for key, label in metric_labels(event)]
        return Response(
            StandingsSerializer(
                {"after_round": after, "rules": rules_line(event), "order": order, "rows": rows}
            ).data
        )
