"""The floor of the results write path: a bare Django + DRF write.

It does what any write endpoint must do and nothing paisai adds: session authentication
(the same 50 referee sessions), DRF parsing the same JSON body, one row inserted in a
transaction (an audit entry holding the record), a 201 with a small JSON answer. The
results bench drives it exactly as it drives a confirmed submission, in the same run, so
the ratio of their CPU per request says what paisai's own work costs."""

from __future__ import annotations

from django.db import transaction
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.models import AuditLog


class FloorView(APIView):
    permission_classes = [IsAuthenticated]

    def post(self, request, match_id: int):
        record = request.data.get("record")
        with transaction.atomic():
            row = AuditLog.objects.create(
                actor=request.user, action="bench.floor", target_type="match",
                target_id=str(match_id), data={"record": record},
            )  # fmt: skip
        return Response({"id": row.pk, "is_counting": True}, status=201)
