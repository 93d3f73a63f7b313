"""REST API for tournaments, teams, players and roles (thin: services do the work)."""

from __future__ import annotations

from rest_framework import generics, mixins, viewsets
from rest_framework.permissions import IsAuthenticatedOrReadOnly

from tournaments.models import Player, Team, Tournament, TournamentRole
from tournaments.services import event_settings, registration, roles
from tournaments.services.audit import client_address
from tournaments.sql import lookups

from .permissions import ActionPermission
from .serializers import (
    PlayerSerializer,
    RoleSerializer,
    TeamSerializer,
    TournamentSerializer,
    TournamentUpdateSerializer,
)


class TournamentScopedMixin:
    """Resolves ``slug`` from the URL; permissions are checked against that tournament only."""

    permission_classes = [IsAuthenticatedOrReadOnly, ActionPermission]
    read_action: str | None = None
    write_action: str | None = "event.manage"

    def get_tournament(self) -> Tournament | None:
        if getattr(self, "swagger_fake_view", False):  # schema generation: no URL arguments
            return None
        if not hasattr(self, "_tournament"):
            self._tournament = lookups.event(self.kwargs["slug"])
        return self._tournament

    def get_serializer_context(self):
        context = super().get_serializer_context()
        if "slug" in self.kwargs:
            context["tournament"] = self.get_tournament()
        return context


class TournamentViewSet(
    TournamentScopedMixin,
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = TournamentSerializer
    queryset = Tournament.objects.all()
    lookup_field = "slug"

    def get_serializer_class(self):
        if self.action in ("update", "partial_update"):
            return TournamentUpdateSerializer  # the slug (its address) and the game stay
        return TournamentSerializer

    def get_tournament(self):
        return self.get_object() if "slug" in self.kwargs else None

    def perform_create(self, serializer):
        data = dict(serializer.validated_data)
        serializer.instance = registration.create_tournament(self.request.user, **data)

    def perform_update(self, serializer):
        """Through the settings service, as the settings page: validated by the one schema,
        refused where it would break the running event, logged old → new."""
        tournament = serializer.instance
        changes = {
            key: value
            for key, value in serializer.validated_data.items()
            if value != getattr(tournament, key)
        }
        event_settings.update_settings(
            tournament, self.request.user, changes, client_address(self.request)
        )


class TeamViewSet(
    TournamentScopedMixin,
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
            Team.objects.filter(tournament=self.get_tournament())
            .select_related("unit")
            .prefetch_related("players")
            .order_by("name")
        )


class PlayerListView(TournamentScopedMixin, generics.ListAPIView):
    serializer_class = PlayerSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return Player.objects.none()
        return Player.objects.filter(team__tournament=self.get_tournament()).order_by(
            "team__name", "seat_order"
        )


class RoleViewSet(
    TournamentScopedMixin,
    mixins.ListModelMixin,
    mixins.CreateModelMixin,
    mixins.DestroyModelMixin,
    viewsets.GenericViewSet,
):
    serializer_class = RoleSerializer
    read_action = write_action = "role.grant"

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):
            return TournamentRole.objects.none()
        return TournamentRole.objects.filter(tournament=self.get_tournament()).select_related(
            "user"
        )

    def perform_create(self, serializer):
        data = serializer.validated_data
        serializer.instance, _created = roles.grant(
            self.get_tournament(),
            self.request.user,
            data["user"],
            data["role"],
            data.get("team"),
            client_address(self.request),
        )

    def perform_destroy(self, instance):
        roles.revoke(instance, self.request.user, client_address(self.request))
