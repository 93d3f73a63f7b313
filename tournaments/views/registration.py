"""Organiser console: create an event, register teams by hand or from .xlsx, give roles."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db import IntegrityError
from django.db.models import Prefetch
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from tournaments import permissions
from tournaments.forms import ImportForm, RoleForm, TeamForm, TournamentForm
from tournaments.models import Player, Team, TournamentRole
from tournaments.services import registration
from tournaments.services.audit import log_action

from .mixins import RoleRequiredMixin


class TournamentCreateView(LoginRequiredMixin, FormView):
    template_name = "tournaments/tournament_form.html"
    form_class = TournamentForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not permissions.can_create_tournament(request.user):
            return render(request, "tournaments/creator_denied.html", status=403)
        return super().dispatch(request, *args, **kwargs)

    def form_valid(self, form):
        tournament = registration.create_tournament(self.request.user, **form.cleaned_data)
        messages.success(self.request, _("Event created. Register the teams next."))
        return redirect("tournaments:console", slug=tournament.slug)


class ConsoleView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/console.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        teams = (
            Team.objects.filter(tournament=self.tournament)
            .order_by("unit__name", "pk")  # registration order within each unit
            .select_related("unit")
            .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("seat_order")))
        )
        context.update(
            teams=teams,
            roles=TournamentRole.objects.filter(tournament=self.tournament).select_related(
                "user", "team"
            ),
            import_form=ImportForm(),
            role_form=RoleForm(tournament=self.tournament),
            units=self.tournament.units.count(),
        )
        return context


class TeamFormView(RoleRequiredMixin, FormView):
    template_name = "tournaments/team_form.html"
    form_class = TeamForm

    def get_team(self):
        pk = self.kwargs.get("pk")
        return get_object_or_404(Team, pk=pk, tournament=self.tournament) if pk else None

    def get_form_kwargs(self):
        kwargs = super().get_form_kwargs()
        self.team = self.get_team()
        kwargs.update(tournament=self.tournament, team=self.team)
        if self.team and self.request.method == "GET":
            players = {p.seat_order: p.name for p in self.team.players.all()}
            kwargs["initial"] = {
                "name": self.team.name,
                "unit": self.team.unit.name if self.team.unit else "",
                "player1": players.get(1, ""),
                "player2": players.get(2, ""),
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
        try:
            registration.save_team(
                self.tournament,
                self.request.user,
                name=data["name"],
                unit_name=data["unit"],
                players=[data["player1"], data["player2"]],
                seed=data["seed"],
                team=self.team,
                status=data["status"],
            )
        except IntegrityError:
            form.add_error(None, _("This team clashes with another registration (name or seed)."))
            return self.form_invalid(form)
        messages.success(self.request, _("Team saved."))
        return redirect("tournaments:console", slug=self.tournament.slug)


class TeamImportView(RoleRequiredMixin, FormView):
    template_name = "tournaments/team_import.html"
    form_class = ImportForm

    def form_valid(self, form):
        data = form.cleaned_data["file"].read()
        try:
            report = registration.import_teams(self.tournament, self.request.user, data)
        except registration.ImportFileError as exc:
            form.add_error("file", str(exc))
            return self.form_invalid(form)
        if not report.ok:
            return self.render_to_response(
                self.get_context_data(form=form, report=report), status=400
            )
        messages.success(self.request, _("%(count)d teams imported.") % {"count": report.created})
        return redirect("tournaments:console", slug=self.tournament.slug)


class TeamTemplateView(RoleRequiredMixin, View):
    def get(self, request, *args, **kwargs):
        response = HttpResponse(
            registration.template_workbook(),
            content_type="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        )
        response["Content-Disposition"] = 'attachment; filename="paisai-teams-template.xlsx"'
        return response


class RoleAddView(RoleRequiredMixin, FormView):
    template_name = "tournaments/role_form.html"
    form_class = RoleForm

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "tournament": self.tournament}

    def form_valid(self, form):
        data = form.cleaned_data
        role, created = TournamentRole.objects.get_or_create(
            user=data["username"],
            tournament=self.tournament,
            role=data["role"],
            defaults={"team": data["team"]},
        )
        if created:
            log_action(
                self.tournament,
                self.request.user,
                "role.grant",
                role,
                data={"user": role.user.username, "role": role.role},
            )
        messages.success(self.request, _("Role given."))
        return redirect("tournaments:console", slug=self.tournament.slug)


class RoleRemoveView(RoleRequiredMixin, View):
    def post(self, request, *args, **kwargs):
        role = get_object_or_404(TournamentRole, pk=kwargs["pk"], tournament=self.tournament)
        log_action(
            self.tournament,
            request.user,
            "role.revoke",
            role,
            data={"user": role.user.username, "role": role.role},
        )
        role.delete()
        messages.success(request, _("Role removed."))
        return redirect("tournaments:console", slug=self.tournament.slug)
