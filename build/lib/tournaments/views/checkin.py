"""Check-in before round 1 (by list or a team's badge QR), leaves, and late forfeits."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import TemplateView

from tournaments.models import CheckIn, Match, Round, RoundLeave, Team
from tournaments.pairing.service import left_out
from tournaments.services import checkin as service
from tournaments.services.rounds import RoundError

from .mixins import RoleRequiredMixin


class LeaveForm(forms.Form):
    team = forms.TypedChoiceField(label=gettext_lazy("Team"), coerce=int)
    round = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=999)
    kind = forms.ChoiceField(label=gettext_lazy("Leave"), choices=RoundLeave.Kind.choices)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500, strip=True)

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = list(
            tournament.teams.order_by("name").values_list("pk", "name")
        )


class ActionPage(RoleRequiredMixin, TemplateView):
    """GET shows the page; POST runs ``act`` and reports its message, then back to GET."""

    def post(self, request, *args, **kwargs):
        messages.success(request, self.act(request))
        return redirect(request.path)


class CheckInView(ActionPage):
    template_name = "tournaments/checkin/list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        present = {c.team_id: c for c in CheckIn.objects.filter(team__tournament=self.tournament)}
        teams = list(self.tournament.teams.select_related("unit").order_by("unit__name", "pk"))
        for team in teams:
            team.checked_in = present.get(team.pk)
        context.update(
            teams=teams,
            present=len(present),
            closed=self.tournament.rounds.exclude(status=Round.Status.DRAFT).exists(),
        )
        return context

    def act(self, request) -> str:
        if request.POST.get("undo"):
            team = get_object_or_404(Team, tournament=self.tournament, pk=request.POST["undo"])
            service.undo_check_in(team, request.user, request.POST.get("reason", ""))
            return _("%(team)s is no longer checked in.") % {"team": team.name}
        ids = [value for value in request.POST.getlist("team") if value.isdigit()]
        if request.POST.get("all"):
            teams = self.tournament.teams.filter(status=Team.Status.ACTIVE)
        else:
            teams = self.tournament.teams.filter(pk__in=ids)
        done = service.check_in(teams, request.user)
        return _("%(count)s teams checked in.") % {"count": done}


class BadgeCheckInView(ActionPage):
    """What a team's badge QR opens on the organiser's phone: the team and one button."""

    template_name = "tournaments/checkin/badge.html"

    def get_team(self) -> Team:
        return get_object_or_404(Team, tournament=self.tournament, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        team = self.get_team()
        context.update(team=team, checked_in=CheckIn.objects.filter(team=team).first())
        return context

    def act(self, request) -> str:
        team = self.get_team()
        service.check_in([team], request.user, via=CheckIn.Via.BADGE)
        return _("%(team)s is checked in.") % {"team": team.name}


class AttendanceView(ActionPage):
    """The chief referee's view of a round: late teams (confirm their forfeits at once),
    leaves, and how many teams are seated."""

    template_name = "tournaments/checkin/attendance.html"
    action = "team.leave"

    def get_round(self) -> Round:
        return get_object_or_404(Round, tournament=self.tournament, number=self.kwargs["number"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rnd = self.get_round()
        playing = rnd.matches.exclude(away=None).count() * 2
        context.update(
            round=rnd,
            late=service.late_teams(rnd),
            seated=rnd.seatings.count(),
            playing=playing,
            leaves=RoundLeave.objects.filter(team__tournament=self.tournament)
            .select_related("team")
            .order_by("round_number", "team__name"),
            leave_form=LeaveForm(tournament=self.tournament, initial={"round": rnd.number}),
            can_rule=self.may("forfeit.confirm"),
        )
        return context

    def act(self, request) -> str:
        rnd = self.get_round()
        if request.POST.get("action") == "leave":
            form = LeaveForm(request.POST, tournament=self.tournament)
            if not form.is_valid():
                field, errors = next(iter(form.errors.items()))
                raise RoundError(" ".join(errors), field)
            data = form.cleaned_data
            team = get_object_or_404(Team, tournament=self.tournament, pk=data["team"])
            service.grant_leave(team, data["round"], data["kind"], request.user, data["reason"])
            return _("Leave recorded for %(team)s.") % {"team": team.name}
        ids = [value for value in request.POST.getlist("match") if value.isdigit()]
        done = service.confirm_late_forfeits(rnd, request.user, ids or None)
        return _("Forfeits confirmed at %(count)s tables.") % {"count": done}


class SeatedView(ActionPage):
    """POST from a table page: the table referee marks a team seated."""

    template_name = "tournaments/checkin/badge.html"
    action = "result.enter"

    def post(self, request, *args, **kwargs):
        match = get_object_or_404(
            Match,
            round__tournament=self.tournament,
            round__number=self.kwargs["number"],
            table_number=self.kwargs["table"],
        )
        team = get_object_or_404(Team, tournament=self.tournament, pk=request.POST.get("team"))
        service.mark_seated(match, team, request.user)
        messages.success(request, _("%(team)s is seated.") % {"team": team.name})
        return redirect(self.error_url())

    def error_url(self) -> str:
        table = self.kwargs["table"]
        fallback = reverse("tournaments:table-entry", args=[self.tournament.slug, table])
        return self.request.POST.get("next") or fallback

    def get(self, request, *args, **kwargs):
        return redirect("tournaments:attendance", slug=self.tournament.slug, **self.kwargs)


def draft_left_out(tournament, number: int):
    """Teams the draw of round ``number`` leaves out, for the round page."""
    return tournament.teams.filter(pk__in=left_out(tournament, number)).order_by("name")
