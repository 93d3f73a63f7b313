"""Serializers of the results API (input checks and the shapes of versions and matches)."""

from __future__ import annotations

import copy

from rest_framework import serializers

from tournaments import glossary
from tournaments.models import Match, ResultConfirmation, ResultVersion, TableKey
from tournaments.services import attribution, results
from tournaments.validation import MAX_TABLE

from .strict import ObjectField, StrictModelSerializer, StrictSerializer

RECORD_HELP = (
    "The match record JSON of SPEC 4.5: {game, deals: [...]}, or {game, forfeit: EW|NS|both}, "
    'or (when the preset allows final levels) {game, final_levels: {"EW": "9", "NS": "4"}, '
    "passed_a: EW|NS|null}. A best of three (match format games: 3) gives "
    "{game, games: [game, ...]}, up to three games, each {deals: [...], time_called_in_deal?} "
    'or by its final levels {final_levels: {"EW": "9", "NS": "4"}, passed_a: null}; '
    "e.g. a 2:1 match by final levels: "
    '{"game": "guandan", "games": [{"final_levels": {"EW": "9", "NS": "4"}}, '
    '{"final_levels": {"EW": "3", "NS": "8"}}, {"final_levels": {"EW": "K", "NS": "5"}}]}.'
)
BASE_HELP = "The number of the latest version you saw (0 for none); stored as base_version + 1."


class RecordField(ObjectField):
    not_object = "must be a match record object (SPEC 4.5)"


def _base_field():
    return serializers.IntegerField(min_value=0, max_value=1_000_000, help_text=BASE_HELP)


def _reason_field():
    return serializers.CharField(max_length=2000, help_text="Why (goes in the audit log).")


def _merge_base_field():
    return serializers.IntegerField(
        min_value=0,
        max_value=1_000_000,
        required=False,
        help_text="Mine over the newer version (after a 409 changed_meanwhile): the version "
        "this record was started from. The record is merged deal by deal onto base_version "
        "(the newer one): deals only one side changed are taken from it; a deal both changed "
        "needs a choice in overrides, else 409 merge_conflict naming the deals (conflicts).",
    )


def _overrides_field():
    return serializers.DictField(
        child=serializers.ChoiceField(choices=["mine", "theirs"]),
        required=False,
        help_text='For a merge: a deal number (or a member\'s name, "record" for a record '
        'without deals) → "mine" or "theirs". "mine" over another person\'s change needs a '
        "note (the reason); over a correction or a ruling, the chief referee.",
    )


class PreviewSerializer(StrictSerializer):
    record = RecordField(help_text=RECORD_HELP)


class SubmitSerializer(PreviewSerializer):
    base_version = _base_field()
    confirm = serializers.BooleanField(
        default=False, help_text="Chief referee only: the result counts at once."
    )
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    merge_base = _merge_base_field()
    overrides = _overrides_field()


class CorrectSerializer(PreviewSerializer):
    base_version = _base_field()
    reason = _reason_field()
    merge_base = _merge_base_field()
    overrides = _overrides_field()


class VoidSerializer(StrictSerializer):
    base_version = _base_field()
    reason = _reason_field()


class ForfeitSerializer(StrictSerializer):
    absent = serializers.ChoiceField(choices=["EW", "NS", "both"])
    base_version = _base_field()
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True)
    merge_base = _merge_base_field()
    overrides = _overrides_field()


class ConfirmSerializer(StrictSerializer):
    version = serializers.IntegerField(min_value=1, max_value=1_000_000)


class CaptainSignSerializer(ConfirmSerializer):
    username = serializers.CharField(max_length=150, help_text="The captain's own login.")
    password = serializers.CharField(max_length=200, style={"input_type": "password"})


class DisputeSerializer(ConfirmSerializer):
    reason = serializers.CharField(max_length=2000, help_text="What is wrong (the chief reads it).")


class DecideSerializer(StrictSerializer):
    decision = serializers.ChoiceField(choices=["stands", "dismissed"])
    note = serializers.CharField(max_length=2000, required=False, allow_blank=True)


class DisputeOutSerializer(StrictSerializer):
    id = serializers.IntegerField()
    version = serializers.IntegerField(source="version.number")
    team = serializers.CharField(source="team.name", default=None)
    raised_by = serializers.CharField(source="raised_by_name")
    reason = serializers.CharField()
    created_at = serializers.DateTimeField()
    decision = serializers.CharField()
    decided_by = serializers.CharField(source="decided_by_name")
    decided_at = serializers.DateTimeField(allow_null=True)


class RestoreSerializer(ConfirmSerializer):
    reason = _reason_field()


class ReasonSerializer(StrictSerializer):
    reason = _reason_field()


class RoundStatusSerializer(StrictSerializer):
    round = serializers.IntegerField()
    status = serializers.CharField()


class TableKeyCreateSerializer(StrictSerializer):
    table_number = serializers.IntegerField(min_value=1, max_value=MAX_TABLE)
    referee = serializers.CharField(
        max_length=150,
        required=False,
        allow_blank=True,
        help_text="Username of the table referee the key belongs to (default: the table's only "
        "assigned referee). That referee never confirms the key's entries.",
    )


class TableKeySerializer(StrictModelSerializer):
    referee = serializers.CharField(
        source="referee.username", default=None, allow_null=True, read_only=True
    )

    class Meta:
        model = TableKey
        fields = ["id", "table_number", "key", "referee", "created_at", "revoked_at"]


class BuiltOnceModelSerializer(StrictModelSerializer):
    # Introspects its model once per class instead of once per instance (on every result
    # submission the model introspection cost more CPU than the rest of the answer); each
    # instance gets fresh copies of the fields, as declared fields always do. (A comment,
    # not a docstring: subclasses would show it as their description in the API schema.)

    def get_fields(self):
        built = type(self).__dict__.get("_built_fields")
        if built is None:
            built = super().get_fields()
            type(self)._built_fields = built
        return copy.deepcopy(built)


class ConfirmationSerializer(BuiltOnceModelSerializer):
    user = serializers.CharField(source="user.username", default=None)
    team = serializers.CharField(source="team.name", default=None)

    class Meta:
        model = ResultConfirmation
        fields = ["user", "capacity", "team", "source", "created_at"]


_DATETIME = serializers.DateTimeField()  # DRF's rendering of a time (ISO 8601, event's zone)


class VersionSerializer(BuiltOnceModelSerializer):
    # The usernames kept as text: they outlive a deactivated or removed account.
    created_by = serializers.CharField(source="created_by_name", default=None)
    confirmed_by = serializers.CharField(source="confirmed_by_name", default=None)

    class Meta:
        model = ResultVersion
        fields = [
            "number",
            "kind",
            "record",
            "outcome",
            "note",
            "created_by",
            "via",
            "source",
            "created_at",
            "is_counting",
            "confirmed_at",
            "confirmed_by",
        ]

    def to_representation(self, instance):
        # Every result submission answers one version: the fields' generic rendering (copies
        # of twelve fields, then one call per field) cost more CPU than the insert. The same
        # values, written out; a test holds it equal to the generic rendering.
        return {
            "number": instance.number,
            "kind": instance.kind,
            "record": instance.record,
            "outcome": instance.outcome,
            "note": instance.note,
            "created_by": _text(instance.created_by_name),
            "via": instance.via,
            "source": instance.source,
            "created_at": _time(instance.created_at),
            "is_counting": instance.is_counting,
            "confirmed_at": _time(instance.confirmed_at),
            "confirmed_by": _text(instance.confirmed_by_name),
        }


def _text(value):
    return None if value is None else str(value)


def _time(value):
    return None if value is None else _DATETIME.to_representation(value)


class CaptainSignedSerializer(VersionSerializer):
    """A captain's signature on the table phone: the version, and the teams in words."""

    signed_for = serializers.CharField(help_text="The team the captain confirmed for.")
    waiting_for = serializers.CharField(
        allow_null=True, help_text="The team whose captain has still to confirm (null: counts)."
    )

    class Meta(VersionSerializer.Meta):
        fields = [*VersionSerializer.Meta.fields, "signed_for", "waiting_for"]


class HistoryVersionSerializer(VersionSerializer):
    confirmations = ConfirmationSerializer(many=True)

    class Meta(VersionSerializer.Meta):
        fields = [*VersionSerializer.Meta.fields, "confirmations"]

    def to_representation(self, instance):  # the generic rendering (it nests confirmations)
        return serializers.ModelSerializer.to_representation(self, instance)


class SeatSerializer(StrictSerializer):
    seat = serializers.CharField()
    side = serializers.CharField()
    team = serializers.CharField()
    player = serializers.CharField()


class MatchResultSerializer(StrictSerializer):
    id = serializers.IntegerField()
    round = serializers.IntegerField()
    round_status = serializers.CharField()
    table_number = serializers.IntegerField(allow_null=True)
    game = serializers.CharField()
    home = serializers.CharField(help_text="East–West")
    away = serializers.CharField(allow_null=True, help_text="North–South")
    seats = SeatSerializer(many=True)
    latest = VersionSerializer(allow_null=True)
    counting = VersionSerializer(allow_null=True)
    versions = HistoryVersionSerializer(many=True)
    names = serializers.DictField(
        child=serializers.CharField(),
        help_text="username → display name of everyone the versions name (pages show people "
        "by name); empty for readers who see roles instead of usernames",
    )


def match_result_data(match: Match, viewer=None, unconfirmed: bool = True) -> dict:
    """The match and its versions; who and from where only for the event's officials
    (``viewer``), a role and no address for everyone else. Without ``unconfirmed`` (a reader
    who is neither an official, nor at the table, nor a captain of the two teams) only the
    counting version: deals not yet confirmed are the table's and the officials' (issue 31)."""
    versions = results.history(match)
    counting = next((v for v in versions if v.is_counting), None)
    if not unconfirmed:
        versions = [counting] if counting else []
    latest = versions[-1] if versions else None
    data = {
        "id": match.pk,
        "round": match.round.number,
        "round_status": match.round.status,
        "table_number": match.table_number,
        "game": match.round.event.game,
        "home": match.home.name,
        "away": match.away.name if match.away else None,
        "seats": results.seats(match),
        "latest": VersionSerializer(latest).data if latest else None,
        "counting": VersionSerializer(counting).data if counting else None,
        "versions": HistoryVersionSerializer(versions, many=True).data,
        "names": {},
    }
    event = match.round.event
    if attribution.sees_identities(viewer, event):
        data["names"] = display_names(versions)
    else:
        labels = attribution.public_labels(event)
        for version in (data["latest"], data["counting"], *data["versions"]):
            if version:
                attribution.anonymise_version(version, labels)
    return data


def display_names(versions) -> dict[str, str]:
    """username → display name (``glossary.person``) of who entered, confirmed and signed each
    version: the usernames the API keeps, as a page shows them."""
    names: dict[str, str] = {}
    for version in versions:
        for user, username in (
            (version.created_by, version.created_by_name),
            (version.confirmed_by, version.confirmed_by_name),
        ):
            if username:
                names[username] = glossary.person(user, username)
        for confirmation in version.confirmations.all():
            if confirmation.user is not None:
                names[confirmation.user.get_username()] = glossary.person(confirmation.user)
    return names
