"""REST API of arbitration (thin: the services decide and check permissions)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import status
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from arbitration.models import Appeal, Incident, Ruling
from arbitration.models.incidents import category_choices
from arbitration.services import (
    appeals,
    dashboards,
    desk,
    incidents,
    rulings,
)
from tournaments import permissions
from tournaments.api.permissions import ActionPermission
from tournaments.errors import Forbidden
from tournaments.models import Event, Team
from tournaments.services.audit import client_address
from tournaments.sql import lookups

from .serializers import (
    AppealSerializer,
    CategorySerializer,
    DeskInput,
    EvidenceSerializer,
    GroundsInput,
    IncidentInput,
    IncidentSerializer,
    ReasonInput,
    RulingInput,
    RulingSerializer,
    VoteInput,
    VoteSerializer,
)


class ArbitrationAPIView(APIView):
    """Resolves the event from the URL; every method needs the view's ``access`` action (the
    event's officials and captains by default); the services check the action itself."""

    permission_classes = [IsAuthenticated, ActionPermission]
    access = "arbitration.view"

    @property
    def read_action(self) -> str:
        return self.access

    @property
    def write_action(self) -> str:
        return self.access

    def get_event(self) -> Event | None:
        if getattr(self, "swagger_fake_view", False):
            return None
        if not hasattr(self, "event"):
            self.event = lookups.event(self.kwargs["slug"])
        return self.event

    def valid(self, serializer_class, **context):
        serializer = serializer_class(
            data=self.request.data, context={"event": self.event, **context}
        )
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def source(self) -> str:
        return client_address(self.request)

    def get_object(self, model, pk):
        return get_object_or_404(model, pk=pk, event=self.event)

    def require_team_matters(self, team_ids) -> None:
        """The pages' rule (permissions.sees_team_matters): a captain reads their own team's
        records only; a 403 in the API's error shape otherwise."""
        if not permissions.sees_team_matters(self.request.user, self.event, team_ids):
            raise Forbidden(permissions.TEAM_MATTERS_REFUSAL)


class IncidentListView(ArbitrationAPIView):
    access = "incident.view"

    @extend_schema(responses=IncidentSerializer(many=True))
    def get(self, request, slug):
        rows = Incident.objects.filter(event=self.event).select_related("match__round")
        return Response(IncidentSerializer(rows, many=True).data)

    @extend_schema(request=IncidentInput, responses={201: IncidentSerializer})
    def post(self, request, slug):
        data = self.valid(IncidentInput)
        incident = incidents.log_incident(self.event, request.user, source=self.source(), **data)
        return Response(IncidentSerializer(incident).data, status=status.HTTP_201_CREATED)


class IncidentCategoryView(ArbitrationAPIView):
    """The incident categories this event offers (the national text's own ones only when
    its preset uses the national in-play ladder)."""

    access = "incident.view"

    @extend_schema(responses=CategorySerializer(many=True))
    def get(self, request, slug):
        rows = category_choices(self.event.get_preset())
        return Response([{"value": value, "label": str(label)} for value, label in rows])


class IncidentDetailView(ArbitrationAPIView):
    access = "incident.view"

    @extend_schema(responses=IncidentSerializer)
    def get(self, request, slug, pk):
        return Response(IncidentSerializer(self.get_object(Incident, pk)).data)


class IncidentRuleView(ArbitrationAPIView):
    @extend_schema(request=RulingInput, responses={201: RulingSerializer(many=True)})
    def post(self, request, slug, pk):
        incident = self.get_object(Incident, pk)
        data = self.valid(RulingInput)
        made = rulings.rule(incident, request.user, source=self.source(), **data)
        return Response(RulingSerializer(made, many=True).data, status=status.HTTP_201_CREATED)


# The engine's answer to one request (an object), or to a list of them (a list of answers).
DESK_ANSWER = {
    "oneOf": [
        {"type": "object", "additionalProperties": True},
        {"type": "array", "items": {"type": "object", "additionalProperties": True}},
    ]
}


class DeskView(ArbitrationAPIView):
    """Ask the rules engine (SPEC 4.5 request); with ``incident``, attach the answer."""

    access = "desk.use"

    @extend_schema(request=DeskInput, responses={200: DESK_ANSWER, 201: EvidenceSerializer})
    def post(self, request, slug):
        data = self.valid(DeskInput)
        answer = desk.ask(data["action"], data["request"])
        if data["incident"] is not None:
            incident = self.get_object(Incident, data["incident"])
            evidence = incidents.attach_evidence(
                incident, request.user, data["action"], data["request"], answer
            )
            return Response(EvidenceSerializer(evidence).data, status=status.HTTP_201_CREATED)
        return Response(answer)


class RulingListView(ArbitrationAPIView):
    @extend_schema(responses=RulingSerializer(many=True))
    def get(self, request, slug):
        rows = dashboards.rulings_seen(self.event, request.user)
        return Response(RulingSerializer(rows, many=True).data)


class RulingDetailView(ArbitrationAPIView):
    @extend_schema(responses=RulingSerializer)
    def get(self, request, slug, pk):
        ruling = self.get_object(Ruling, pk)
        self.require_team_matters(appeals.involved_teams(ruling))
        return Response(RulingSerializer(ruling).data)


class RevokeView(ArbitrationAPIView):
    @extend_schema(request=ReasonInput, responses={201: RulingSerializer})
    def post(self, request, slug, pk):
        ruling = self.get_object(Ruling, pk)
        rulings.revoke(
            ruling, request.user, self.valid(ReasonInput)["reason"], source=self.source()
        )
        return Response(RulingSerializer(ruling).data, status=status.HTTP_201_CREATED)


class AppealFileView(ArbitrationAPIView):
    """File an appeal; a late one is stored with status "refused" and the reason."""

    @extend_schema(request=GroundsInput, responses={201: AppealSerializer})
    def post(self, request, slug, pk):
        ruling = self.get_object(Ruling, pk)
        appeal = appeals.file_appeal(
            ruling, request.user, self.valid(GroundsInput)["grounds"], source=self.source()
        )
        return Response(AppealSerializer(appeal).data, status=status.HTTP_201_CREATED)


class AppealListView(ArbitrationAPIView):
    @extend_schema(responses=AppealSerializer(many=True))
    def get(self, request, slug):
        rows = dashboards.appeals_seen(self.event, request.user)
        return Response(AppealSerializer(rows, many=True).data)


class AppealDetailView(ArbitrationAPIView):
    @extend_schema(responses=AppealSerializer)
    def get(self, request, slug, pk):
        appeal = self.get_object(Appeal, pk)
        self.require_team_matters([appeal.team_id])
        return Response(AppealSerializer(appeal).data)


class VoteView(ArbitrationAPIView):
    @extend_schema(request=VoteInput, responses={201: VoteSerializer})
    def post(self, request, slug, pk):
        appeal = self.get_object(Appeal, pk)
        data = self.valid(VoteInput)
        vote = appeals.vote(
            appeal,
            request.user,
            data["choice"],
            data["reason"],
            data["amended_step"],
            source=self.source(),
        )
        return Response(VoteSerializer(vote).data, status=status.HTTP_201_CREATED)


class AcceptLateView(ArbitrationAPIView):
    @extend_schema(request=ReasonInput, responses=AppealSerializer)
    def post(self, request, slug, pk):
        appeal = self.get_object(Appeal, pk)
        appeals.accept_late(
            appeal, request.user, self.valid(ReasonInput)["reason"], source=self.source()
        )
        return Response(AppealSerializer(appeal).data)


class ChiefDashboardView(ArbitrationAPIView):
    access = "dashboard.chief"

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, slug):
        board = dashboards.chief_dashboard(self.event)
        return Response(
            {
                "open_incidents": IncidentSerializer(board["open_incidents"], many=True).data,
                "pending_forfeits": [
                    {"incident": incident.pk, "team": incident.team_id, **vars(late)}
                    for incident, late in board["pending_forfeits"]
                ],
                "unconfirmed_matches": [
                    {"match": m.pk, "table_number": m.table_number} for m in board["unconfirmed"]
                ],
                "appeals": AppealSerializer(
                    [row["appeal"] for row in board["appeals"]], many=True
                ).data,
            }
        )


class CommitteeDashboardView(ArbitrationAPIView):
    access = "dashboard.committee"

    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, slug):
        board = dashboards.committee_dashboard(self.event, request.user)
        return Response(
            {
                key: AppealSerializer([row["appeal"] for row in rows], many=True).data
                for key, rows in board.items()
            }
        )


class TeamRecordView(ArbitrationAPIView):
    @extend_schema(responses=OpenApiTypes.OBJECT)
    def get(self, request, slug, pk):
        team = get_object_or_404(Team, pk=pk, event=self.event)
        self.require_team_matters([team.pk])
        record = dashboards.team_record(team)
        return Response(
            {
                "team": team.pk,
                "status": team.status,
                "rulings": RulingSerializer(record["rulings"], many=True).data,
                "incidents": IncidentSerializer(record["incidents"], many=True).data,
                "appeals": AppealSerializer(
                    [row["appeal"] for row in record["appeals"]], many=True
                ).data,
            }
        )
