from __future__ import annotations

from django.utils.translation import get_language, gettext_lazy
from rest_framework import serializers

from rules_engine.errors import RulesError
from rules_engine.presets import PRESETS
from tournaments.models import Event, EventRole, Player, Role, Team, Unit
from tournaments.services import registration
from tournaments.validation import SMALLINT_MAX

from .strict import ObjectField, StrictModelSerializer


class EventSerializer(StrictModelSerializer):
    preset = serializers.ChoiceField(
        choices=list(PRESETS),
        help_text="The scoring preset; each belongs to one game "
        "(guandan-…, tractor…, chengyu…), and a preset of another game is refused.",
    )
    settings = ObjectField(
        required=False,
        help_text="Changes to the preset's default scoring "
        "settings (the rules engine's event-settings keys).",
    )

    class Meta:
        model = Event
        fields = [
            "id",
            "name",
            "slug",
            "game",
            "preset",
            "settings",
            "num_rounds",
            "round_minutes",
            "status",
            "venue",
            "starts_on",
            "ends_on",
            "halls",
            "created_at",
        ]
        read_only_fields = ["id", "status", "created_at"]
        # The columns' own ranges, and the database's check (at least one round).
        extra_kwargs = {
            "num_rounds": {"min_value": 1, "max_value": SMALLINT_MAX},
            "round_minutes": {"min_value": 1, "max_value": SMALLINT_MAX},
        }

    # what a request may not set, and why (StrictTypesMixin refuses it with these words)
    refusals = {
        "status": gettext_lazy("The status follows the rounds; finish an event on its status page.")
    }

    def validate(self, attrs):
        # The preset and the settings through the rules engine's event-settings schema;
        # a refusal names the field (``preset`` or ``settings.<key>``).
        values = {
            name: attrs.get(name, getattr(self.instance, name, None))
            for name in ("game", "preset", "settings")
        }
        try:
            Event(**values).get_preset()
        except RulesError as err:
            message = err.localized(get_language())
            field, _dot, key = (err.field or "settings").partition(".")
            raise serializers.ValidationError(
                {field: {key: [message]} if key else [message]}
            ) from None
        return attrs


class EventUpdateSerializer(EventSerializer):
    """A change of an event: its slug (its address) and its game stay."""

    class Meta(EventSerializer.Meta):
        read_only_fields = [*EventSerializer.Meta.read_only_fields, "slug", "game"]


class PlayerSerializer(StrictModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "seat_order", "team"]
        read_only_fields = fields


class TeamSerializer(StrictModelSerializer):
    # the columns' limits (the form's and the database's the same)
    unit = serializers.CharField(
        allow_blank=True, required=False, max_length=Unit._meta.get_field("name").max_length
    )
    players = serializers.ListField(
        child=serializers.CharField(max_length=Player._meta.get_field("name").max_length),
        min_length=2,
        max_length=2,
        write_only=True,
        help_text="Exactly two player names (partners, 对门).",
    )
    player_names = serializers.SerializerMethodField()

    class Meta:
        model = Team
        fields = ["id", "name", "unit", "seed", "status", "players", "player_names"]

    def to_representation(self, instance):
        data = super().to_representation(instance)
        data["unit"] = instance.unit.name if instance.unit_id else ""
        return data

    def get_player_names(self, team) -> list[str]:
        return [p.name for p in sorted(team.players.all(), key=lambda p: p.seat_order)]

    def _save(self, validated, team=None):
        players = validated.get("players") or (self.get_player_names(team) if team else [])
        return registration.save_team(
            self.context["event"],
            self.context["request"].user,
            name=validated.get("name", team.name if team else ""),
            unit_name=validated.get("unit", team.unit.name if team and team.unit else ""),
            players=players,
            seed=validated.get("seed", team.seed if team else None),
            team=team,
            status=validated.get("status"),
        )

    def create(self, validated_data):
        if "players" not in validated_data:
            raise serializers.ValidationError({"players": "Exactly two player names are required."})
        return self._save(validated_data)

    def update(self, instance, validated_data):
        return self._save(validated_data, team=instance)


class RoleSerializer(StrictModelSerializer):
    """A role; given (POST) by username: at once to a person of the event, else offered to
    the account, which accepts it (202, the same answer whether the username exists)."""

    username = serializers.CharField(source="user.username", max_length=150)

    class Meta:
        model = EventRole
        fields = ["id", "username", "role", "team"]

    def validate(self, attrs):
        event = self.context["event"]
        team = attrs.get("team")
        if attrs.get("role") == Role.CAPTAIN and team is None:
            raise serializers.ValidationError({"team": "A captain speaks for a team: give its id."})
        if attrs.get("role") != Role.CAPTAIN and team is not None:
            raise serializers.ValidationError({"team": "Only captains have a team."})
        if team is not None and team.event_id != event.pk:
            raise serializers.ValidationError({"team": "This team is not in this event."})
        return attrs


class RoleOfferedSerializer(serializers.Serializer):
    """The answer to a role offered to an account outside the event (or to no account)."""

    invited = serializers.BooleanField()
    detail = serializers.CharField()
