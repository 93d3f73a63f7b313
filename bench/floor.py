"""The floor of the results write path: a bare Django + DRF write.

It does what any write endpoint must do and nothing paisai adds: session authentication
with Django's own session store and user lookup (the same 50 referee sessions; paisai reads
both with SQL built once, config/sessions.py and config/auth.py, and that saving is paisai's
work, so the floor does not get it), DRF parsing the same JSON body, one row inserted in a
transaction (an audit entry holding the record), a 201 with a small JSON answer. The
results bench drives it exactly as it drives a confirmed submission, in the same run, so
the ratio of their CPU per request says what paisai's own work costs."""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth import HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.auth.backends import ModelBackend
from django.contrib.sessions.backends.db import SessionStore
from django.db import transaction
from django.utils.crypto import constant_time_compare
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import AuditLog


class DjangoSessionAuthentication(SessionAuthentication):
    """DRF's session authentication over Django's stock database sessions and ModelBackend
    (what ``django.contrib.auth.get_user`` does, without paisai's configured classes)."""

    def authenticate(self, request):
        session = SessionStore(request._request.COOKIES.get(settings.SESSION_COOKIE_NAME))
        try:
            user_id = get_user_model()._meta.pk.to_python(session[SESSION_KEY])
        except KeyError:
            return None
        user = ModelBackend().get_user(user_id)
        if user is None or not constant_time_compare(
            session.get(HASH_SESSION_KEY, ""), user.get_session_auth_hash()
        ):
            return None
        self.enforce_csrf(request)
        return user, None


class FloorView(APIView):
    authentication_classes = [DjangoSessionAuthentication]
    permission_classes = [IsAuthenticated]

    def post(self, request, match_id: int):
        record = request.data.get("record")
        with transaction.atomic():
            row = AuditLog.objects.create(
                actor=request.user,
                action="bench.floor",
                target_type="match",
                target_id=str(match_id),
                data={"record": record},
            )
        return Response({"id": row.pk, "is_counting": True}, status=201)
