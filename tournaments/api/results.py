"""REST API of results: enter, preview, confirm, correct, void, forfeit, restore; table keys;
finalise and reopen rounds. Thin: ``tournaments.services`` (``results``, ``result_entry``,
``result_confirm``, ``result_effects``) decides everything.

Authentication: a session or basic auth (users), or a table device sending its private key in
the ``X-Table-Key`` header (writes only its table's current match).
"""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.authentication import (
    BaseAuthentication,
    SessionAuthentication,
    TokenAuthentication,
)
from rest_framework.exceptions import AuthenticationFailed
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import permissions
from tournaments.errors import Code
from tournaments.models import Event, Match, ResultDispute, Round, TableKey
from tournaments.services import (
    disputes,
    idempotency,
    logins,
    result_confirm,
    result_effects,
    result_entry,
    results,
    round_close,
    table_keys,
)
from tournaments.services.results import Actor, ResultError
from tournaments.sql import lookups

from .authentication import ThrottledBasicAuthentication
from .permissions import ActionPermission
from .result_serializers import (
    CaptainSignedSerializer,
    CaptainSignSerializer,
    ConfirmSerializer,
    CorrectSerializer,
    DecideSerializer,
    DisputeOutSerializer,
    DisputeSerializer,
    ForfeitSerializer,
    MatchResultSerializer,
    PreviewSerializer,
    ReasonSerializer,
    RestoreSerializer,
    RoundStatusSerializer,
    SubmitSerializer,
    TableKeyCreateSerializer,
    TableKeySerializer,
    VersionSerializer,
    VoidSerializer,
    match_result_data,
)

KEY_HEADER = "HTTP_X_TABLE_KEY"


class TableKeyAuthentication(BaseAuthentication):
    """``X-Table-Key: <key>``: a table device; ``request.auth`` is the TableKey."""

    def authenticate(self, request):
        key = request.META.get(KEY_HEADER)
        if not key:
            return None
        table_key = TableKey.objects.select_related("event").filter(key=key[:64]).first()
        if table_key is None:
            raise AuthenticationFailed(_("This table link is unknown or was revoked."))
        if not table_key.is_live:
            raise AuthenticationFailed(
                _("This table link was revoked; ask the chief referee for a new one.")
            )
        return AnonymousUser(), table_key

    def authenticate_header(self, request):
        return "X-Table-Key"


class TableKeyScheme(OpenApiAuthenticationExtension):
    target_class = TableKeyAuthentication
    name = "tableKey"

    def get_security_definition(self, auto_schema):
        return {"type": "apiKey", "in": "header", "name": "X-Table-Key"}


class ResultsAPIView(APIView):
    """The services check permissions; their refusals answer through the API's handler."""

    authentication_classes = [
        TableKeyAuthentication,
        SessionAuthentication,
        TokenAuthentication,
        ThrottledBasicAuthentication,
    ]
    permission_classes = [ActionPermission]

    def actor(self) -> Actor:
        key = self.request.auth if isinstance(self.request.auth, TableKey) else None
        return Actor.from_request(self.request, results.page_via(self.request), key)

    def idempotency_key(self):
        """The submission's ``Idempotency-Key`` header (a UUID), or None when absent."""
        return idempotency.parse_key(self.request.META.get("HTTP_IDEMPOTENCY_KEY"))

    def valid(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class MatchAPIView(ResultsAPIView):
    def get_match(self, teams: bool = False) -> Match:
        """The match of the URL with its round and event (writes need no team rows: one
        query built once per process, tournaments/sql/lookups.py)."""
        if not teams:
            user = self.request.user
            return lookups.match_in_event(self.kwargs["slug"], self.kwargs["match_id"], user)
        return get_object_or_404(
            Match.objects.select_related("round__event", "home", "away"),
            pk=self.kwargs["match_id"],
            round__event__slug=self.kwargs["slug"],
        )


def _created(version) -> Response:
    """201 for a new version; 200 for the version first stored under a repeated
    Idempotency-Key."""
    status = 200 if getattr(version, "replayed", False) else 201
    return Response(VersionSerializer(version).data, status=status)


IDEMPOTENCY_PARAMETER = OpenApiParameter(
    idempotency.HEADER,
    OpenApiTypes.UUID,
    OpenApiParameter.HEADER,
    description="A UUID made on the phone for this submission: a repeat with the same key and "
    "body answers the version first stored (200); the same key with another body is a 422.",
)


class MatchResultView(MatchAPIView):
    """GET: the match, its seats, latest and counting versions and full history.
    POST: enter a result (a new version numbered base_version + 1)."""

    @extend_schema(
        responses=MatchResultSerializer,
        auth=[{"tableKey": []}, {"cookieAuth": []}, {"tokenAuth": []}, {"basicAuth": []}, {}],
        description="Anyone may read a match of a published round; the versions not (yet) "
        "counting — unconfirmed deals — only the event's organiser and chief referee, the "
        "table's referee or table key, and the captains of the two teams see. Everybody else "
        "gets the counting version alone (`latest` is then the counting version).",
    )
    def get(self, request, slug, match_id):
        match = self.get_match(teams=True)
        actor = self.actor()
        full = (
            permissions.may(request.user, match.round.event, "result.board")
            or results.can_enter(actor, match)
            or disputes.captain_team(actor, match) is not None
        )
        return Response(match_result_data(match, request.user, unconfirmed=full))

    @extend_schema(
        request=SubmitSerializer,
        responses={201: VersionSerializer, 200: VersionSerializer},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    def post(self, request, slug, match_id):
        key = self.idempotency_key()
        data = self.valid(SubmitSerializer)
        version = result_entry.submit(
            self.get_match(),
            data["record"],
            self.actor(),
            data["base_version"],
            confirm=data["confirm"],
            note=data.get("note", ""),
            idempotency_key=key,
            merge_base=data.get("merge_base"),
            overrides=data.get("overrides"),
        )
        return _created(version)


class PreviewView(MatchAPIView):
    """The rules engine's answer for a record, stored nowhere (running levels)."""

    @extend_schema(request=PreviewSerializer, responses={200: OpenApiTypes.OBJECT})
    def post(self, request, slug, match_id):
        data = self.valid(PreviewSerializer)
        return Response(results.preview(self.get_match(), data["record"], self.actor()))


class ConfirmView(MatchAPIView):
    @extend_schema(request=ConfirmSerializer, responses=VersionSerializer)
    def post(self, request, slug, match_id):
        data = self.valid(ConfirmSerializer)
        version = result_confirm.confirm(self.get_match(), data["version"], self.actor())
        return Response(VersionSerializer(version).data)


class CaptainSignView(MatchAPIView):
    """A captain confirms on the table's phone (the referee's login or the table key), signing
    with their own login; the phone's session is left as it is."""

    @extend_schema(request=CaptainSignSerializer, responses=CaptainSignedSerializer)
    def post(self, request, slug, match_id):
        data = self.valid(CaptainSignSerializer)
        match = self.get_match()
        if not results.can_enter(self.actor(), match):
            raise results.ResultForbidden(_("Captains sign on the phone of this table only."))
        captain = logins.check_captain(request, data["username"], data["password"])
        signer = Actor(captain, None, "table-phone", self.actor().source)
        team = disputes.captain_team(signer, match) if captain is not None else None
        if team is None:
            raise logins.captain_sign_refusal(request, data["username"])
        version = result_confirm.confirm(match, data["version"], signer)
        # the phone says whose confirmation it recorded and whose it waits for
        signed = set(version.confirmations.exclude(team=None).values_list("team_id", flat=True))
        teams = {match.home_id: match.home, match.away_id: match.away}
        waiting = [t.name for pk, t in teams.items() if pk not in signed and t is not None]
        answer = VersionSerializer(version).data
        answer |= {
            "signed_for": teams[team].name,
            "waiting_for": None if version.is_counting else (waiting or [None])[0],
        }
        return Response(answer)


class DisputeView(MatchAPIView):
    """A captain disputes the latest version with a reason; it cannot count until the chief
    referee decides (shown on the chief's dashboard as a call to the table)."""

    @extend_schema(request=DisputeSerializer, responses={201: DisputeOutSerializer})
    def post(self, request, slug, match_id):
        data = self.valid(DisputeSerializer)
        dispute = disputes.raise_dispute(
            self.get_match(), data["version"], self.actor(), data["reason"]
        )
        return Response(DisputeOutSerializer(dispute).data, status=201)


class DecideView(MatchAPIView):
    """The chief referee decides a dispute: the version stands (counts) or it is dismissed."""

    @extend_schema(request=DecideSerializer, responses=DisputeOutSerializer)
    def post(self, request, slug, match_id, pk):
        data = self.valid(DecideSerializer)
        match = self.get_match()
        dispute = get_object_or_404(ResultDispute, pk=pk, match=match)
        dispute = disputes.decide(dispute, self.actor(), data["decision"], data.get("note", ""))
        return Response(DisputeOutSerializer(dispute).data)


class CorrectView(MatchAPIView):
    @extend_schema(
        request=CorrectSerializer,
        responses={201: VersionSerializer, 200: VersionSerializer},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    def post(self, request, slug, match_id):
        key = self.idempotency_key()
        data = self.valid(CorrectSerializer)
        version = result_entry.correct(
            self.get_match(),
            data["record"],
            self.actor(),
            data["base_version"],
            data["reason"],
            key,
            merge_base=data.get("merge_base"),
            overrides=data.get("overrides"),
        )
        return _created(version)


class VoidView(MatchAPIView):
    @extend_schema(request=VoidSerializer, responses={201: VersionSerializer})
    def post(self, request, slug, match_id):
        data = self.valid(VoidSerializer)
        version = result_entry.void(
            self.get_match(), self.actor(), data["base_version"], data["reason"]
        )
        return _created(version)


class ForfeitView(MatchAPIView):
    @extend_schema(
        request=ForfeitSerializer,
        responses={201: VersionSerializer, 200: VersionSerializer},
        parameters=[IDEMPOTENCY_PARAMETER],
    )
    def post(self, request, slug, match_id):
        key = self.idempotency_key()
        data = self.valid(ForfeitSerializer)
        version = result_entry.mark_absent(
            self.get_match(),
            data["absent"],
            self.actor(),
            data["base_version"],
            data.get("note", ""),
            key,
            merge_base=data.get("merge_base"),
            overrides=data.get("overrides"),
        )
        return _created(version)


class RestoreView(MatchAPIView):
    @extend_schema(request=RestoreSerializer, responses={201: VersionSerializer})
    def post(self, request, slug, match_id):
        data = self.valid(RestoreSerializer)
        version = result_effects.chief_restore(
            self.get_match(), data["version"], self.actor(), data["reason"]
        )
        return _created(version)


class RoundActionView(ResultsAPIView):
    def get_round(self) -> Round:
        return get_object_or_404(
            Round.objects.select_related("event"),
            event__slug=self.kwargs["slug"],
            number=self.kwargs["number"],
        )


class FinaliseView(RoundActionView):
    @extend_schema(request=None, responses=RoundStatusSerializer)
    def post(self, request, slug, number):
        actor = self.actor()
        round_ = round_close.finalise(self.get_round(), actor.user, actor.source)
        return Response({"round": round_.number, "status": round_.status})


class ReopenView(RoundActionView):
    @extend_schema(request=ReasonSerializer, responses=RoundStatusSerializer)
    def post(self, request, slug, number):
        data = self.valid(ReasonSerializer)
        actor = self.actor()
        round_ = round_close.reopen(self.get_round(), actor.user, data["reason"], actor.source)
        return Response({"round": round_.number, "status": round_.status})


class TableKeyManagerView(ResultsAPIView):
    """Table keys are managed by the organiser or the chief referee of the event."""

    read_action = write_action = "table_key.manage"

    def get_event(self) -> Event | None:
        if getattr(self, "swagger_fake_view", False):
            return None
        if not hasattr(self, "_event"):
            self._event = lookups.event(self.kwargs["slug"])
        return self._event


class TableKeyListView(TableKeyManagerView):
    """Live table keys of the event; POST makes a new key for a table, revoking its previous
    one."""

    @extend_schema(responses=TableKeySerializer(many=True))
    def get(self, request, slug):
        keys = table_keys.live_keys(self.get_event())
        return Response(TableKeySerializer(keys, many=True).data)

    @extend_schema(request=TableKeyCreateSerializer, responses={201: TableKeySerializer})
    def post(self, request, slug):
        event = self.get_event()
        data = self.valid(TableKeyCreateSerializer)
        actor = self.actor()
        referee = None
        if data.get("referee"):
            referee = get_user_model().objects.filter(username=data["referee"]).first()
            if referee is None:
                raise ResultError(_("No user “%(name)s”."), "referee", name=data["referee"])
        key = table_keys.issue(
            event, data["table_number"], actor.user, actor.source, referee=referee
        )
        return Response(TableKeySerializer(key).data, status=201)


class TableKeyRevokeView(TableKeyManagerView):
    @extend_schema(request=None, responses=TableKeySerializer)
    def post(self, request, slug, pk):
        event = self.get_event()
        key = get_object_or_404(TableKey, pk=pk, event=event)
        actor = self.actor()
        return Response(TableKeySerializer(table_keys.revoke(key, actor.user, actor.source)).data)


class TableMatchView(ResultsAPIView):
    """The current match at the table of the key in the URL (a table device's entry point)."""

    authentication_classes: list = []

    @extend_schema(responses=MatchResultSerializer)
    def get(self, request, key):
        table_key = table_keys.live_key(key)
        match = results.table_match(table_key.event, table_key.table_number)
        if match is None:
            raise ResultError(
                _("No match at this table in the current round."), "table", Code.NOT_FOUND
            )
        return Response(match_result_data(match))
