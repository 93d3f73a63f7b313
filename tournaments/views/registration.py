"""Organiser console: create an event, register teams by hand or from .xlsx, give roles."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from tournaments import permissions, tasks
from tournaments.exporters import registration_template
from tournaments.forms import EventForm, ImportForm, RoleForm, TeamForm
from tournaments.models import EventRole, Player, Team
from tournaments.services import registration, registration_import, roles
from tournaments.services.audit import client_address

from .mixins import RoleRequiredMixin


class EventCreateView(LoginRequiredMixin, FormView):
    template_name = "tournaments/event_form.html"
    form_class = EventForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not permissions.can_create_event(request.user):
            return render(request, "tournaments/creator_denied.html", status=403)
        return super().dispatch(request, *args, **kwargs)

    def form_invalid(self, form):
        """The form again with its errors, answered 400 (refused input, in words)."""
        response = super().form_invalid(form)
        response.status_code = 400
        return response

    def form_valid(self, form):
        event = registration.create_event(self.request.user, **form.cleaned_data)
        messages.success(self.request, _("Event created. Register the teams next."))
        return redirect("tournaments:console", slug=event.slug)


class ConsoleView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/console.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        teams = (
            Team.objects.filter(event=self.event)
            .order_by("unit__name", "pk")  # registration order within each unit
            .select_related("unit")
            .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("seat_order")))
        )
        context.update(
            teams=teams,
            roles=EventRole.objects.filter(event=self.event).select_related("user", "team"),
            import_form=ImportForm(),
            units=self.event.units.count(),
        )
        return context


class TeamFormView(RoleRequiredMixin, FormView):
    action = "team.register"
    template_name = "tournaments/team_form.html"
    form_class = TeamForm

    def get_team(self):
        pk = self.kwargs.get("pk")
        return get_object_or_404(Team, pk=pk, event=self.event) if pk else None

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        self.team = self.get_team()
        kwargs.update(event=self.event, team=self.team)
        if self.team and self.request.method == "GET":
            players = {p.seat_order: p.name for p in self.team.players.all()}
            idents = {p.seat_order: p.ident for p in self.team.players.all()}
            kwargs["initial"] = {
                "name": self.team.name,
                "unit": self.team.unit.name if self.team.unit else "",
                "player1": players.get(1, ""),
                "player2": players.get(2, ""),
                "ident1": idents.get(1, ""),
                "ident2": idents.get(2, ""),
                "seed": self.team.seed,
                "status": self.team.status,
            }
        return kwargs

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["team"] = self.team
        return context

    def form_valid(self, form):
        data = form.cleaned_data
        registration.save_team(
            self.event,
            self.request.user,
            name=data["name"],
            unit_name=data["unit"],
            players=[data["player1"], data["player2"]],
            seed=data["seed"],
            team=self.team,
            status=data["status"],
            idents=[data["ident1"], data["ident2"]],
        )
        messages.success(self.request, _("Team saved."))
        return redirect("tournaments:console", slug=self.event.slug)


class TeamImportView(RoleRequiredMixin, FormView):
    action = "team.import"
    template_name = "tournaments/team_import.html"
    form_class = ImportForm

    def form_valid(self, form):
        data = form.cleaned_data["file"].read()
        mode = form.cleaned_data["mode"]
        size = registration_import.check_import_file(data)
        if registration_import.in_background(size):
            job = registration_import.create_import_job(self.event, self.request.user, data, mode)
            tasks.start(job)
            return redirect("tournaments:job", self.event.slug, job.pk)
        report = registration_import.import_teams(self.event, self.request.user, data, mode)
        status = 200 if report.ok else 400
        if report.ok and mode == "add" and not report.warnings:
            messages.success(
                self.request, _("%(count)d teams imported.") % {"count": report.created}
            )
            return redirect("tournaments:console", slug=self.event.slug)
        return self.render_to_response(
            self.get_context_data(form=ImportForm(), report=report), status=status
        )


class TeamTemplateView(RoleRequiredMixin, View):
    def get(self, request, *args, **kwargs):
        response = HttpResponse(
            registration_template.template_workbook(),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
        response["Content-Disposition"] = 'attachment; filename="paisai-teams-template.xlsx"'
        return response


class RoleAddView(RoleRequiredMixin, FormView):
    action = "role.grant"
    template_name = "tournaments/role_form.html"
    form_class = RoleForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "event": self.event}

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        form.fields["team"].widget.attrs["data-url"] = reverse(
            "tournaments:team-search", args=[self.event.slug]
        )
        return form

    def form_valid(self, form):
        data = form.cleaned_data
        roles.grant(
            self.event,
            self.request.user,
            data["person"],
            data["role"],
            data["team"],
            client_address(self.request),
        )
        messages.success(self.request, _("Role given."))
        return redirect("tournaments:console", slug=self.event.slug)


class RoleRemoveView(RoleRequiredMixin, View):
    action = "role.grant"

    def post(self, request, *args, **kwargs):
        role = get_object_or_404(EventRole, pk=kwargs["pk"], event=self.event)
        roles.revoke(role, request.user, client_address(request))
        messages.success(request, _("Role removed."))
        return redirect("tournaments:console", slug=self.event.slug)
