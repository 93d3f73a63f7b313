"""Export pages: downloads (public ones without login), background jobs with progress."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views import View
from django.views.generic import TemplateView

from tournaments import tasks
from tournaments.models import ExportJob
from tournaments.services import exports, jobs

from .mixins import RoleRequiredMixin, TournamentMixin

DOWNLOAD_PARAMS = ("round", "after_round", "stage")


class ExportsPage(RoleRequiredMixin, TemplateView):
    action = "export.run"
    template_name = "tournaments/exports/index.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["rounds"] = self.tournament.rounds.order_by("number")
        context["jobs"] = self.tournament.export_jobs.all()[:20]
        return context


class DownloadView(TournamentMixin, View):
    """GET an export rendered at once; public ones (standings, published pairings) for all."""

    def get(self, request, slug, identifier):
        params = {key: request.GET[key] for key in DOWNLOAD_PARAMS if key in request.GET}
        exporter = exports.make_exporter(self.tournament, identifier, params)
        if not exporter.is_public() and not self.may("export.run"):
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            raise PermissionDenied
        export = exporter.render()
        response = HttpResponse(export.data, content_type=export.content_type)
        response["Content-Disposition"] = f'attachment; filename="{export.filename}"'
        return response


class JobStartView(RoleRequiredMixin, View):
    action = "export.run"

    def error_url(self) -> str:
        return reverse("tournaments:exports", args=[self.tournament.slug])

    def post(self, request, slug):
        params = {key: request.POST[key] for key in DOWNLOAD_PARAMS if request.POST.get(key)}
        job = exports.create_job(
            self.tournament, request.POST.get("kind", ""), params, request.user
        )
        tasks.start(job)
        return redirect("tournaments:export-job", slug, job.pk)


class JobMixin(RoleRequiredMixin):
    action = "export.run"

    def get_job(self) -> ExportJob:
        return get_object_or_404(ExportJob, pk=self.kwargs["pk"], tournament=self.tournament)


class JobPage(JobMixin, TemplateView):
    template_name = "tournaments/exports/job.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        job = self.get_job()
        context.update(job=job, status=jobs.job_status(job))
        return context


class JobStatusView(JobMixin, View):
    def get(self, request, slug, pk):
        return JsonResponse(jobs.job_status(self.get_job()))


class JobRetryView(JobMixin, View):
    """POST: run a failed job again (the work it had done is kept)."""

    def post(self, request, slug, pk):
        if not tasks.restart(self.get_job()):
            messages.error(request, _("Only a failed job can be retried."))
        return redirect("tournaments:export-job", slug, pk)


class JobFileView(JobMixin, View):
    def get(self, request, slug, pk):
        job = self.get_job()
        if job.status != ExportJob.Status.DONE or not job.file:
            return HttpResponse(status=404)
        name = job.file.name.rsplit("/", 1)[-1].split("-", 2)[-1]
        return FileResponse(job.file.open("rb"), as_attachment=True, filename=name)
