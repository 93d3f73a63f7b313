"""The event file over the API (issue 38): POST starts the export job (or joins the same
export's running one), GET ``?job=<id>`` answers its status; the file itself is the job's
download (``download`` in the status, the same file the console offers)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import tasks
from tournaments.exporters import exports
from tournaments.models import Job
from tournaments.services import jobs

from .views import EventScopedMixin

KIND = "event-file"
JOB_STATUS = {
    "type": "object",
    "required": ["id", "kind", "status", "progress", "total", "download"],
    "properties": {
        "id": {"type": "integer", "description": "The export job's id."},
        "kind": {"type": "string", "enum": [KIND]},
        "status": {"type": "string"},
        "status_label": {"type": "string"},
        "progress": {"type": "integer"},
        "total": {"type": "integer"},
        "percent": {"type": "integer"},
        "error": {"type": "string"},
        "download": {
            "type": ["string", "null"],
            "description": "Where the .paisai.json file is, once the job is done.",
        },
        "retry": {"type": ["string", "null"]},
    },
}


class EventFileView(EventScopedMixin, APIView):
    read_action = write_action = "export.run"

    @extend_schema(
        request=None,
        responses={202: JOB_STATUS},
        description="Start the event file's export job (a running one of the same export is "
        "joined): the answer is the job's status; poll it with GET ?job=<id>.",
    )
    def post(self, request, *args, **kwargs):
        job, created = exports.request_job(self.get_event(), KIND, {}, request.user, get_language())
        if created:
            tasks.start(job)
        return Response(jobs.job_status(job), status=status.HTTP_202_ACCEPTED)

    @extend_schema(
        parameters=[OpenApiParameter("job", OpenApiTypes.INT, required=True)],
        responses={200: JOB_STATUS},
        description="The status of an event-file export job of this event.",
    )
    def get(self, request, *args, **kwargs):
        try:
            number = int(request.query_params.get("job", ""))
        except ValueError:
            number = 0
        job = get_object_or_404(Job, pk=number, event=self.get_event(), kind=KIND)
        return Response(jobs.job_status(job))
