"""REST API of seating at a table (已入座): the table page marks each team seated.

Thin: ``tournaments.services.checkin.set_seated`` decides. The phone sends the whole wanted
state ({"EW": true, "NS": true}), so a retry after a lost answer (same Idempotency-Key or
not) changes nothing twice.
"""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from tournaments.services import checkin

from .results import IDEMPOTENCY_PARAMETER, MatchAPIView
from .strict import StrictSerializer


class SeatingSerializer(StrictSerializer):
    EW = serializers.BooleanField(required=False, help_text="East–West (home) team seated")
    NS = serializers.BooleanField(required=False, help_text="North–South (away) team seated")

    def validate(self, attrs):
        if not attrs:
            raise serializers.ValidationError(
                _("Say which side is seated: EW or NS, each true or false.")
            )
        return attrs


# The body as the schema says it: EW, NS or both (the serializer's fields, and that one of
# them must be there, which a serializer cannot tell drf-spectacular).
SEATING_REQUEST = {
    "type": "object",
    "properties": {
        "EW": {"type": "boolean", "description": "East–West (home) team seated"},
        "NS": {"type": "boolean", "description": "North–South (away) team seated"},
    },
    "anyOf": [{"required": ["EW"]}, {"required": ["NS"]}],
}


class SeatedView(MatchAPIView):
    """GET: which of the table's teams are marked seated this round. POST: mark them."""

    @extend_schema(responses=SeatingSerializer)
    def get(self, request, slug, match_id):
        return Response(checkin.seating_of(self.get_match(teams=True)))

    @extend_schema(
        request={"application/json": SEATING_REQUEST},
        responses=SeatingSerializer,
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    def post(self, request, slug, match_id):
        self.idempotency_key()  # checked when sent; the state itself makes a repeat harmless
        data = self.valid(SeatingSerializer)
        return Response(checkin.set_seated(self.get_match(teams=True), data, self.actor()))
