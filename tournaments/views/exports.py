"""Export pages: downloads (public ones without login), background jobs with progress."""

from __future__ import annotations

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import FileResponse, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.views import View
from django.views.generic import TemplateView

from tournaments.models import ExportJob
from tournaments.services import exports

from .mixins import RoleRequiredMixin, TournamentMixin

DOWNLOAD_PARAMS = ("round", "after_round")


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
        job = exports.start_job(self.tournament, request.POST.get("kind", ""), params, request.user)
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
        context.update(job=job, status=exports.job_status(job))
        return context


class JobStatusView(JobMixin, View):
    def get(self, request, slug, pk):
        return JsonResponse(exports.job_status(self.get_job()))


class JobFileView(JobMixin, View):
    def get(self, request, slug, pk):
        job = self.get_job()
        if job.status != ExportJob.Status.DONE or not job.file:
            return HttpResponse(status=404)
        name = job.file.name.rsplit("/", 1)[-1].split("-", 2)[-1]
        return FileResponse(job.file.open("rb"), as_attachment=True, filename=name)
