"""Export pages: downloads (public ones without login), background jobs with progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from tournaments import public_exports, tasks
from tournaments.exporters import exports
from tournaments.exporters.base import NoSuchRound
from tournaments.models import Job
from tournaments.services import jobs, public_cache
from tournaments.services.audit import client_address

from .mixins import EventMixin, RoleRequiredMixin

DOWNLOAD_PARAMS = ("round", "after_round", "stage", "archive")  # archive: the event file
GENERATING_RETRY = 5  # seconds: the "being made" page reloads itself


class ExportsPage(RoleRequiredMixin, TemplateView):
    action = "export.run"
    template_name = "tournaments/exports/index.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["rounds"] = self.event.rounds.order_by("number")
        context["jobs"] = [(job, exports.label(job.kind)) for job in self.event.jobs.all()[:20]]
        return context


class DownloadView(EventMixin, View):
    """GET an export; nothing is rendered here (every export is a job).

    A public export (published standings, pairings, unit standings, a bracket) is served from
    its file of the event's current revision through the public cache (ETag, 304,
    Cache-Control), or answers "being made" while a job makes it. Any other export is for
    officials: it starts a job (or joins the same export's running one) and opens its page.
    """

    def get(self, request, slug, identifier):
        params = {key: request.GET[key] for key in DOWNLOAD_PARAMS if request.GET.get(key)}
        exporter = exports.make_exporter(self.event, identifier, params)
        if exporter.is_public():
            return public_download(request, self.event, identifier, params)
        if not self.may("export.run"):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied
        if not exporter.job:  # answers at once: nothing to render
            export = exporter.render()
            response = HttpResponse(export.data, content_type=export.content_type)
            response["Content-Disposition"] = content_disposition_header(True, export.filename)
            return response
        job, created = exports.request_job(
            self.event, identifier, params, request.user, get_language()
        )
        if created:
            tasks.start(job)
        return redirect("tournaments:job", slug, job.pk)


def file_response(job: Job, response_class=HttpResponse):
    name = jobs.download_name(job)
    if response_class is FileResponse:
        return FileResponse(job.file.open("rb"), as_attachment=True, filename=name)
    with job.file.open("rb") as handle:
        response = HttpResponse(handle.read(), content_type=exports.content_type(job.kind))
    response["Content-Disposition"] = content_disposition_header(True, name)
    return response


def public_download(request, event, identifier: str, params: dict):
    """The public export's file of the current revision, through the public cache: a
    revalidation is a 304, a repeat a cache hit; neither renders nor reads the file."""
    language = get_language()
    client = client_address(request)

    def render():
        try:  # the file, or a job asked to make it
            job = public_exports.public_file(event, identifier, params, language, client)
        except public_exports.PublicJobsBusy as busy:
            response = TemplateResponse(
                request,
                "tournaments/exports/generating.html",
                {"event": event, "retry_seconds": busy.retry_seconds, "busy": busy.message},
                status=429,
            )
            response["Retry-After"] = str(busy.retry_seconds)
            response["Cache-Control"] = "no-store"
            return response
        if job is None:
            response = TemplateResponse(
                request,
                "tournaments/exports/generating.html",
                {"event": event, "retry_seconds": GENERATING_RETRY},
                status=202,
            )
            response["Retry-After"] = str(GENERATING_RETRY)
            response["Cache-Control"] = "no-store"
            return response
        return file_response(job)

    return public_cache.serve(request, event, f"export:{identifier}", params, render)


class JobStartView(RoleRequiredMixin, View):
    action = "export.run"

    def error_url(self) -> str:
        return reverse("tournaments:exports", args=[self.event.slug])

    def post(self, request, slug):
        params = {key: request.POST[key] for key in DOWNLOAD_PARAMS if request.POST.get(key)}
        try:
            job = exports.create_job(self.event, request.POST.get("kind", ""), params, request.user)
        except NoSuchRound as err:  # a 404 elsewhere; here the form's own page says so
            messages.error(request, err.message)
            return redirect(self.error_url())
        tasks.start(job)
        return redirect("tournaments:job", slug, job.pk)


class JobMixin(RoleRequiredMixin):
    action = "export.run"

    def get_job(self) -> Job:
        return get_object_or_404(Job, pk=self.kwargs["pk"], event=self.event)


class JobPage(JobMixin, TemplateView):
    template_name = "tournaments/exports/job.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        job = self.get_job()
        context.update(job=job, status=jobs.job_status(job), label=exports.label(job.kind))
        return context


class JobStatusView(JobMixin, View):
    def get(self, request, slug, pk):
        return JsonResponse(jobs.job_status(self.get_job()))


class JobRetryView(JobMixin, View):
    """POST: run a failed job again (the work it had done is kept)."""

    def post(self, request, slug, pk):
        if not tasks.restart(self.get_job()):
            messages.error(request, _("Only a failed job can be retried."))
        return redirect("tournaments:job", slug, pk)


class JobFileView(JobMixin, View):
    def get(self, request, slug, pk):
        job = self.get_job()
        if job.status != Job.Status.DONE or not job.file:
            return HttpResponse(status=404)
        return file_response(job, FileResponse)
