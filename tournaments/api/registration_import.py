"""The team import over the API: POST an .xlsx (multipart ``file``, ``mode`` add|update);
the answer is the import's report, or ``{error, field, errors}`` when nothing was imported."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework import generics, parsers, serializers, status
from rest_framework.response import Response

from tournaments import tasks, upload_limit
from tournaments.errors import Code
from tournaments.services import registration_import

from .strict import StrictSerializer
from .views import EventScopedMixin


class ImportRequestSerializer(StrictSerializer):
    file = serializers.FileField()
    mode = serializers.ChoiceField(choices=registration_import.MODES, default="add")

    def validate_file(self, upload):
        if message := upload_limit.refusal(upload):
            raise serializers.ValidationError(message)
        return upload


IMPORT_JOB = {
    "type": "object",
    "required": ["job"],
    "properties": {"job": {"type": "integer", "description": "The import job's id."}},
}


class TeamImportView(EventScopedMixin, generics.GenericAPIView):
    serializer_class = ImportRequestSerializer
    parser_classes = [parsers.MultiPartParser]
    read_action = write_action = "team.import"

    @extend_schema(
        request={"multipart/form-data": ImportRequestSerializer},
        responses={200: dict, 202: IMPORT_JOB},
        description="A short list is imported at once (200, the report); a long or wide one "
        "(more rows or cells than the import's thresholds) by a background job (202, its id).",
    )
    def post(self, request, *args, **kwargs):
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data["file"].read()
        mode = serializer.validated_data["mode"]
        event = self.get_event()
        size = registration_import.check_import_file(data)
        if registration_import.in_background(size):
            job = registration_import.create_import_job(event, request.user, data, mode)
            tasks.start(job)
            return Response({"job": job.pk}, status=status.HTTP_202_ACCEPTED)
        report = registration_import.import_teams(event, request.user, data, mode)
        if not report.ok:
            message = _("%(count)s rows have problems; nothing was imported.") % {
                "count": len(report.errors)
            }
            body = {
                "error": message,
                "field": "file",
                "code": Code.ROWS_REFUSED,
                **report.as_dict(),
            }
            return Response(body, status=status.HTTP_400_BAD_REQUEST)
        return Response(report.as_dict())
