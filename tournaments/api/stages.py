"""REST API of stages and sections: list and set up an event's stages, their sections and
teams, draw a stage's round, read section standings and the event's final ranking.

Thin: ``tournaments.services.stages`` (set-up), ``stage_sections`` (sections and their
teams), ``stage_rounds`` (drawing) and ``stage_standings`` (rankings) do the work. Reading is public (what the bracket and the
standings show); writes need ``stage.manage`` (drawing: ``round.draft``), checked by
:class:`~tournaments.api.permissions.ActionPermission` and again by the services.
"""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response

from tournaments.models import Section, Stage
from tournaments.services import stage_rounds, stage_sections, stage_standings, stages
from tournaments.services.audit import client_address

from .rounds import RoundDetailSerializer, StandingRowSerializer
from .strict import ObjectField, StrictModelSerializer, StrictSerializer
from .views import EventScopedMixin

ID_MAX = 2**31 - 1
SMALL_MAX = stages.STAGE_NUMBER_MAX  # the service's


class SectionSerializer(StrictModelSerializer):
    teams = serializers.SerializerMethodField(help_text="Team ids in seed order (1 = top).")

    class Meta:
        model = Section
        fields = ["id", "name", "order", "teams"]
        read_only_fields = fields

    def get_teams(self, section) -> list[int]:
        return stages.section_teams(section)


class StageSerializer(StrictModelSerializer):
    sources = serializers.SerializerMethodField(help_text="Ids of the qualifying stages.")
    sections = SectionSerializer(many=True, read_only=True)
    planned_rounds = serializers.SerializerMethodField()
    complete = serializers.SerializerMethodField()

    class Meta:
        model = Stage
        fields = [
            "id",
            "order",
            "name",
            "kind",
            "num_rounds",
            "match_format",
            "entrants",
            "qualify_top",
            "sources",
            "carry_points",
            "third_place",
            "sections",
            "planned_rounds",
            "complete",
        ]
        read_only_fields = fields

    def get_sources(self, stage) -> list[int]:
        return list(stage.sources.order_by("order").values_list("pk", flat=True))

    def get_planned_rounds(self, stage) -> int:
        return stage_standings.planned_rounds(stage)

    def get_complete(self, stage) -> bool:
        return stage_standings.is_complete(stage)


class StageWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=100)
    kind = serializers.ChoiceField(choices=Stage.Kind.choices)
    num_rounds = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=SMALL_MAX
    )
    match_format = ObjectField(
        required=False,
        help_text="The engine's match format: {end: pass_a|deals|time|"
        "time_or_deals, deals, minutes, games: 1|3}; {} = the event's usual scoring.",
    )
    entrants = serializers.ChoiceField(choices=Stage.Entrants.choices, required=False)
    qualify_top = serializers.IntegerField(
        required=False, allow_null=True, min_value=1, max_value=SMALL_MAX
    )
    sources = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        required=False,
        max_length=50,
    )
    carry_points = serializers.BooleanField(required=False)
    third_place = serializers.BooleanField(required=False)


class SectionWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=100)


class TeamsSerializer(StrictSerializer):
    teams = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=ID_MAX),
        max_length=5000,
        help_text="Team ids, in seed order; a team in another section of the stage moves.",
    )


class SplitSerializer(StrictSerializer):
    method = serializers.ChoiceField(choices=stage_sections.SPLITS, default="snake")


class DrawSerializer(StrictSerializer):
    seed = serializers.IntegerField(
        required=False,
        allow_null=True,
        min_value=0,
        max_value=2**53 - 1,
        help_text="The first round of a Swiss stage only; omitted = a fresh seed, recorded.",
    )


class SectionStandingsSerializer(StrictSerializer):
    section = serializers.IntegerField()
    name = serializers.CharField()
    ranking = serializers.ListField(
        child=serializers.IntegerField(), help_text="Team ids, best first."
    )
    rows = StandingRowSerializer(many=True, help_text="Swiss and round robin only.")


class RankedSerializer(StrictSerializer):
    rank = serializers.IntegerField(
        allow_null=True, help_text="Null for a team that did not take part (未参赛): no place."
    )
    shared = serializers.BooleanField()
    team = serializers.IntegerField()
    name = serializers.CharField()
    stage = serializers.CharField(help_text="The furthest stage the team played.")
    section = serializers.CharField()
    absent = serializers.BooleanField(
        help_text="未参赛: never checked in and played no match; listed last, without a place."
    )


# --- views --------------------------------------------------------------------------------


class StagesAPIMixin(EventScopedMixin):
    read_action = None  # public: what the bracket and the standings show
    write_action = "stage.manage"

    def get_stage(self) -> Stage:
        return get_object_or_404(Stage, event=self.get_event(), pk=self.kwargs["pk"])

    def stage_answer(self, stage: Stage, code=status.HTTP_200_OK) -> Response:
        stage = Stage.objects.prefetch_related("sections").get(pk=stage.pk)
        return Response(StageSerializer(stage).data, status=code)


class StageListView(StagesAPIMixin, generics.GenericAPIView):
    serializer_class = StageSerializer
    pagination_class = None  # a handful of stages: the answer is the list (as the schema says)

    @extend_schema(operation_id="tournaments_stages_list", responses=StageSerializer(many=True))
    def get(self, request, *args, **kwargs):
        """The event's stages in order, with their sections and teams."""
        found = stages.stages_of(self.get_event())
        return Response(StageSerializer(found, many=True).data)

    @extend_schema(request=StageWriteSerializer, responses={201: StageSerializer})
    def post(self, request, *args, **kwargs):
        """Add a stage after the last one (the engine checks its match format)."""
        data = StageWriteSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        stage = stages.create_stage(
            self.get_event(),
            request.user,
            source=client_address(request),
            **data.validated_data,
        )
        return self.stage_answer(stage, status.HTTP_201_CREATED)


class StageDetailView(StagesAPIMixin, generics.GenericAPIView):
    serializer_class = StageSerializer

    def get(self, request, *args, **kwargs):
        return self.stage_answer(self.get_stage())

    @extend_schema(request=StageWriteSerializer, responses=StageSerializer)
    def patch(self, request, *args, **kwargs):
        """Change a stage (only its name once it has a round)."""
        data = StageWriteSerializer(data=request.data, partial=True)
        data.is_valid(raise_exception=True)
        stage = stages.update_stage(
            self.get_stage(), request.user, source=client_address(request), **data.validated_data
        )
        return self.stage_answer(stage)

    @extend_schema(request=None, responses={204: None})
    def delete(self, request, *args, **kwargs):
        """Remove a stage without rounds that feeds no later stage."""
        stages.delete_stage(self.get_stage(), request.user, source=client_address(request))
        return Response(status=status.HTTP_204_NO_CONTENT)


class SectionCreateView(StagesAPIMixin, generics.GenericAPIView):
    serializer_class = SectionWriteSerializer

    @extend_schema(request=SectionWriteSerializer, responses={201: StageSerializer})
    def post(self, request, *args, **kwargs):
        """Add a section (group) to the stage."""
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        stage = self.get_stage()
        stage_sections.create_section(
            stage, request.user, data.validated_data["name"], source=client_address(request)
        )
        return self.stage_answer(stage, status.HTTP_201_CREATED)


class SectionTeamsView(StagesAPIMixin, generics.GenericAPIView):
    serializer_class = TeamsSerializer
    delete_body = True  # DELETE names the teams in its body (tournaments/api/schema.py)

    def get_section(self) -> Section:
        return stages.get_section(self.get_stage(), self.kwargs["section"])

    @extend_schema(request=TeamsSerializer, responses=StageSerializer)
    def post(self, request, *args, **kwargs):
        """Put teams into the section, at its end, in the order given."""
        return self.change_teams(request, stage_sections.assign_teams)

    @extend_schema(request=TeamsSerializer, responses={200: StageSerializer})
    def delete(self, request, *args, **kwargs):
        """Take teams out of the section."""
        return self.change_teams(request, stage_sections.remove_teams)

    def change_teams(self, request, change) -> Response:
        """The one path of POST and DELETE: read the team ids, let ``change`` (the service's
        assign or remove) apply them to the section, answer with the stage."""
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        section = self.get_section()
        change(section, request.user, data.validated_data["teams"], source=client_address(request))
        return self.stage_answer(section.stage)


class SplitView(StagesAPIMixin, generics.GenericAPIView):
    serializer_class = SplitSerializer

    @extend_schema(request=SplitSerializer, responses=StageSerializer)
    def post(self, request, *args, **kwargs):
        """Deal every entrant of the stage into its sections by seed (in turn or snake)."""
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        stage = self.get_stage()
        stage_sections.split_teams(
            stage, request.user, data.validated_data["method"], source=client_address(request)
        )
        return self.stage_answer(stage)


class DrawView(StagesAPIMixin, generics.GenericAPIView):
    serializer_class = DrawSerializer
    write_action = "round.draft"

    @extend_schema(request=DrawSerializer, responses={201: RoundDetailSerializer})
    def post(self, request, *args, **kwargs):
        """Draft the stage's next round, every section (or draft its current draft again)."""
        data = self.get_serializer(data=request.data)
        data.is_valid(raise_exception=True)
        rnd = stage_rounds.draw_round(
            self.get_stage(),
            request.user,
            seed=data.validated_data.get("seed"),
            source=client_address(request),
        )
        return Response(RoundDetailSerializer(rnd).data, status=status.HTTP_201_CREATED)


class StageStandingsView(StagesAPIMixin, generics.GenericAPIView):
    serializer_class = SectionStandingsSerializer
    pagination_class = None  # one entry a section: the answer is the list (as the schema says)

    @extend_schema(responses=SectionStandingsSerializer(many=True))
    def get(self, request, *args, **kwargs):
        """Each section's ranking (a knockout by its bracket) and standings rows."""
        stage = self.get_stage()
        answer = []
        for section in stage.sections.order_by("order"):
            rows = [] if stage.is_knockout else stage_standings.section_rows(section)
            answer.append(
                {
                    "section": section.pk,
                    "name": section.name,
                    "ranking": stage_standings.section_ranking(section),
                    "rows": rows,
                }
            )
        return Response(SectionStandingsSerializer(answer, many=True).data)


class RankingView(StagesAPIMixin, generics.GenericAPIView):
    serializer_class = RankedSerializer
    pagination_class = None  # the whole ranking, a list (as the schema says)

    @extend_schema(responses=RankedSerializer(many=True))
    def get(self, request, *args, **kwargs):
        """The event's final ranking, following its stages (public)."""
        rows = stage_standings.event_ranking(self.get_event())
        return Response(RankedSerializer([vars(row) for row in rows], many=True).data)
