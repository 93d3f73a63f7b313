"""API shapes of the arbitration records and of the requests that create them."""

from __future__ import annotations

from datetime import datetime

from rest_framework import serializers

from arbitration.models import Appeal, Evidence, Incident, Ruling, Vote
from arbitration.models.appeals import Choice
from arbitration.models.incidents import MAX_SECONDS, Category, Timed
from arbitration.services import appeals
from arbitration.services.lateness import late_status
from rules_engine import ladder
from tournaments.api.strict import (
    AnyJSONField,
    EventTimeField,
    StrictModelSerializer,
    StrictSerializer,
)
from tournaments.glossary import SEATS
from tournaments.models import Match, Player, Team
from tournaments.validation import SMALLINT_MAX


class EvidenceSerializer(StrictModelSerializer):
    class Meta:
        model = Evidence
        fields = ["id", "action", "request", "answer", "created_at"]


class IncidentSerializer(StrictModelSerializer):
    table_number = serializers.IntegerField(read_only=True)
    logged_by = serializers.CharField(source="logged_by.username", default=None, read_only=True)
    evidence = EvidenceSerializer(many=True, read_only=True)
    late = serializers.SerializerMethodField()
    open = serializers.SerializerMethodField()

    class Meta:
        model = Incident
        fields = [
            "id",
            "match",
            "table_number",
            "team",
            "player",
            "category",
            "description",
            "reported_by",
            "arrived_at",
            "leave_approved",
            "seconds",
            "timed",
            "deal",
            "seat",
            "logged_by",
            "created_at",
            "late",
            "open",
            "evidence",
        ]

    def get_late(self, incident) -> dict | None:
        status = late_status(incident)
        return vars(status) if status else None

    def get_open(self, incident) -> bool:
        return not incident.rulings.exists()


class IncidentInput(StrictSerializer):
    match = serializers.PrimaryKeyRelatedField(queryset=Match.objects.none())
    team = serializers.PrimaryKeyRelatedField(queryset=Team.objects.none())
    player = serializers.PrimaryKeyRelatedField(
        queryset=Player.objects.none(), required=False, allow_null=True
    )
    category = serializers.ChoiceField(choices=Category.choices)
    description = serializers.CharField()
    reported_by = serializers.CharField(required=False, allow_blank=True, default="")
    arrived_at = EventTimeField(required=False, allow_null=True, default=None)
    leave_approved = serializers.BooleanField(required=False, default=False)
    seconds = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=0, max_value=MAX_SECONDS
    )
    timed = serializers.ChoiceField(choices=Timed.choices, required=False, default=Timed.PLAY)
    deal = serializers.IntegerField(
        required=False,
        allow_null=True,
        default=None,
        min_value=1,
        max_value=SMALLINT_MAX,
        help_text="Wrong tribute: the deal it was found in (1 for the first).",
    )
    seat = serializers.ChoiceField(
        choices=list(SEATS),
        required=False,
        allow_blank=True,
        default="",
        help_text="Wrong tribute: the offender's seat (E, S, W, N; of the team concerned).",
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        event = self.context.get("event")  # None while the schema is generated
        self.fields["match"].queryset = Match.objects.filter(round__event=event)
        self.fields["team"].queryset = Team.objects.filter(event=event)
        self.fields["player"].queryset = Player.objects.filter(team__event=event)


class CategorySerializer(StrictSerializer):
    value = serializers.CharField()
    label = serializers.CharField(help_text="In the request's language.")


class RulingSerializer(StrictModelSerializer):
    step = serializers.CharField(read_only=True)  # one of rules_engine.ladder.STEPS
    active = serializers.BooleanField(source="is_active", read_only=True)
    decided_by = serializers.CharField(source="decided_by.username", default=None, read_only=True)
    step_name = serializers.CharField(
        source="get_step_display", read_only=True, help_text="In the request's language."
    )
    result_version = serializers.IntegerField(
        source="result_version.number", default=None, read_only=True, allow_null=True
    )
    in_play_steps = serializers.ListField(
        child=serializers.CharField(),
        read_only=True,
        help_text="The national in-play ladder's steps the ruling carries: round_of_play_lost "
        "(停止一圈出牌权), foul (犯规).",
    )
    in_play_names = serializers.ListField(
        source="in_play_labels",
        child=serializers.CharField(),
        read_only=True,
        help_text="In the request's language.",
    )

    class Meta:
        model = Ruling
        fields = [
            "id",
            "incident",
            "team",
            "match",
            "step",
            "step_name",
            "in_play_steps",
            "in_play_names",
            "levels",
            "opponent_up",
            "deal",
            "places",
            "reason",
            "automatic",
            "escalated_from",
            "amends",
            "effect",
            "result_version",
            "decided_by",
            "created_at",
            "active",
        ]


class RulingInput(StrictSerializer):
    step = serializers.ChoiceField(
        choices=list(ladder.STEPS),
        help_text="A step of the penalty ladder; the event's game "
        "and preset name those it may use (refused otherwise).",
    )
    reason = serializers.CharField()
    team = serializers.PrimaryKeyRelatedField(
        queryset=Team.objects.none(), required=False, allow_null=True
    )
    levels = serializers.IntegerField(required=False, default=1, min_value=1, max_value=12)
    opponent_up = serializers.BooleanField(required=False, default=False)
    deal = serializers.IntegerField(
        required=False, allow_null=True, default=None, min_value=1, max_value=SMALLINT_MAX
    )
    places = serializers.IntegerField(
        required=False, min_value=0, max_value=SMALLINT_MAX, default=0
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        event = self.context.get("event")
        self.fields["team"].queryset = Team.objects.filter(event=event)


class VoteSerializer(StrictModelSerializer):
    member = serializers.CharField(source="member.username", read_only=True)
    amended_step = serializers.CharField(read_only=True)

    class Meta:
        model = Vote
        fields = ["id", "member", "choice", "amended_step", "reason", "created_at"]


class VoteInput(StrictSerializer):
    choice = serializers.ChoiceField(choices=Choice.choices)
    reason = serializers.CharField()
    amended_step = serializers.ChoiceField(
        choices=list(ladder.STEPS),
        required=False,
        allow_blank=True,
        default="",
        help_text="With the choice amend: the new step (one the event's game may use).",
    )


class AppealSerializer(StrictModelSerializer):
    status = serializers.CharField(read_only=True)
    refusal = serializers.SerializerMethodField()
    filing_deadline = serializers.SerializerMethodField()
    answer_deadline = serializers.SerializerMethodField()
    deadline_state = serializers.SerializerMethodField()
    votes = VoteSerializer(many=True, read_only=True)
    decision = serializers.SerializerMethodField()

    class Meta:
        model = Appeal
        fields = [
            "id",
            "ruling",
            "team",
            "grounds",
            "filed_at",
            "match_ended_at",
            "late",
            "late_accepted_at",
            "late_accepted_reason",
            "status",
            "refusal",
            "filing_deadline",
            "answer_deadline",
            "deadline_state",
            "votes",
            "decision",
        ]

    def get_refusal(self, appeal) -> str:
        return appeals.refusal(appeal)

    def get_filing_deadline(self, appeal) -> datetime:
        return appeals.deadline(appeal)

    def get_answer_deadline(self, appeal) -> datetime:
        return appeals.answer_deadline(appeal)

    def get_deadline_state(self, appeal) -> str:
        return appeals.answer_state(appeal)

    def get_decision(self, appeal) -> dict | None:
        if appeal.status != "decided":
            return None
        decision = appeal.decision
        return {
            "choice": decision.choice,
            "amended_step": decision.amended_step,
            "votes": decision.votes,
            "members": decision.members,
            "new_ruling": decision.new_ruling_id,
            "decided_at": decision.decided_at,
        }


class ReasonInput(StrictSerializer):
    reason = serializers.CharField()


class GroundsInput(StrictSerializer):
    grounds = serializers.CharField()


class DeskInput(StrictSerializer):
    action = serializers.ChoiceField(choices=["check", "classify", "score"], default="check")
    request = AnyJSONField(
        help_text="A rules engine request (SPEC 4.5) or a list of them; "
        "a request the engine refuses is answered {error, field}."
    )
    incident = serializers.IntegerField(required=False, allow_null=True, default=None)
