"""REST API for events, teams, players and roles (thin: services do the work)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework import generics, mixins, status, viewsets
from rest_framework.permissions import IsAuthenticatedOrReadOnly
from rest_framework.response import Response

from tournaments.models import Event, EventRole, Player, Team
from tournaments.services import accounts, event_settings, registration, roles
from tournaments.services.audit import client_address
from tournaments.sql import lookups

from .permissions import ActionPermission
from .serializers import (
    EventSerializer,
    EventUpdateSerializer,
    PlayerSerializer,
    RoleOfferedSerializer,
    RoleSerializer,
    TeamSerializer,
)


class EventScopedMixin:
    """Resolves ``slug`` from the URL; permissions are checked against that event only."""

    permission_classes = [IsAuthenticatedOrReadOnly, ActionPermission]
    read_action: str | None = None
    write_action: str | None = "event.manage"

    def get_event(self) -> Event | None:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no URL arguments
            return None
        if not hasattr(self, "_event"):
            self._event = lookups.event(self.kwargs["slug"])
        return self._event

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "slug" in self.kwargs:
            context["event"] = self.get_event()
        return context


class EventViewSet(
    EventScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = EventSerializer
    queryset = Event.objects.all()
    lookup_field = "slug"

    def get_serializer_class(self):
        if self.action in ("update", "partial_update"):
            return EventUpdateSerializer  # the slug (its address) and the game stay
        return EventSerializer

    def get_event(self):
        return self.get_object() if "slug" in self.kwargs else None

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        serializer.instance = registration.create_event(self.request.user, **data)

    def perform_update(self, serializer):
        """Through the settings service, as the settings page: validated by the one schema,
        refused where it would break the running event, logged old → new."""
        event = serializer.instance
        changes = {
            key: value
            for key, value in serializer.validated_data.items()
            if value != getattr(event, key)
        }
        event_settings.update_settings(
            event, self.request.user, changes, client_address(self.request)
        )


class TeamViewSet(
    EventScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = TeamSerializer
    write_action = "team.register"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Team.objects.none()
        return (
            Team.objects.filter(event=self.get_event())
            .select_related("unit")
            .prefetch_related("players")
            .order_by("name")
        )


class PlayerListView(EventScopedMixin, generics.ListAPIView):
    serializer_class = PlayerSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Player.objects.none()
        return Player.objects.filter(team__event=self.get_event()).order_by(
            "team__name", "seat_order"
        )


class RoleViewSet(
    EventScopedMixin,
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = RoleSerializer
    read_action = write_action = "role.grant"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return EventRole.objects.none()
        return EventRole.objects.filter(event=self.get_event()).select_related("user")

    @extend_schema(responses={201: RoleSerializer, 202: RoleOfferedSerializer})
    def create(self, request, *args, **kwargs):
        """A person of the event gets the role at once (201); any other username is offered
        it, to accept on their invitations page (202, the same answer whether the username
        exists: the API never says which do, issue 39)."""
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        held = accounts.offer_role(
            self.get_event(),
            request.user,
            data["user"]["username"],
            data["role"],
            data.get("team"),
            client_address(request),
        )
        if held is None:
            answer = {"invited": True, "detail": str(accounts.OFFERED)}
            return Response(RoleOfferedSerializer(answer).data, status=status.HTTP_202_ACCEPTED)
        return Response(RoleSerializer(held).data, status=status.HTTP_201_CREATED)

    def perform_destroy(self, instance):
        roles.revoke(instance, self.request.user, client_address(self.request))
