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
from tournaments.services import checkin as service
from tournaments.services.audit import client_address
from tournaments.services.rounds import RoundError
from tournaments.validation import whole_number

from .mixins import RoleRequiredMixin


class LeaveForm(forms.Form):
    team = forms.TypedChoiceField(label=gettext_lazy("Team"), coerce=int)
    round = forms.IntegerField(label=gettext_lazy("Round"), min_value=1, max_value=999)
    kind = forms.ChoiceField(label=gettext_lazy("Leave"), choices=RoundLeave.Kind.choices)
    reason = forms.CharField(label=gettext_lazy("Reason"), max_length=500, strip=True)

    def __init__(self, *args, event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = list(event.teams.order_by("name").values_list("pk", "name"))


class ActionPage(RoleRequiredMixin, TemplateView):
    """GET shows the page; POST runs ``act`` and reports its message, then back to GET."""

    def post(self, request, *args, **kwargs):
        messages.success(request, self.act(request))
        return redirect(request.path)


def late_sections(event) -> list:
    """The sections a late check-in may join (the current stage's, when it has several and
    has been drawn): the organiser picks one."""
    from tournaments.services import stage_rounds

    if not event.stages.exists():
        return []
    stage = stage_rounds.current_stage(event)
    if stage is None or not stage.entries.exists():
        return []
    sections = list(stage.sections.order_by("order"))
    return sections if len(sections) > 1 else []


class CheckInView(ActionPage):
    template_name = "tournaments/checkin/list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        present = {c.team_id: c for c in CheckIn.objects.filter(team__event=self.event)}
        teams = list(self.event.teams.select_related("unit").order_by("unit__name", "pk"))
        for team in teams:
            team.checked_in = present.get(team.pk)
        context.update(
            teams=teams,
            present=len(present),
            late_sections=late_sections(self.event),
            closed=self.event.rounds.exclude(status=Round.Status.DRAFT).exists(),
        )
        return context

    def act(self, request) -> str:
        if request.POST.get("undo"):
            team = get_object_or_404(Team, event=self.event, pk=whole_number(request.POST["undo"]))
            service.undo_check_in(team, request.user, request.POST.get("reason", ""))
            return _("%(team)s is no longer checked in.") % {"team": team.name}
        ids = [n for n in map(whole_number, request.POST.getlist("team")) if n is not None]
        if request.POST.get("all"):
            teams = self.event.teams.filter(status=Team.Status.ACTIVE)
        else:
            teams = self.event.teams.filter(pk__in=ids)
        done = service.check_in(teams, request.user, section=request.POST.get("section") or None)
        return _("%(count)s teams checked in.") % {"count": done}


class BadgeCheckInView(ActionPage):
    """What a team's badge QR opens on the organiser's phone: the team and one button."""

    template_name = "tournaments/checkin/badge.html"

    def get_team(self) -> Team:
        return get_object_or_404(Team, event=self.event, pk=self.kwargs["pk"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        team = self.get_team()
        context.update(team=team, checked_in=CheckIn.objects.filter(team=team).first())
        return context

    def act(self, request) -> str:
        team = self.get_team()
        service.check_in(
            [team], request.user, via=CheckIn.Via.BADGE, section=request.POST.get("section") or None
        )
        return _("%(team)s is checked in.") % {"team": team.name}


class AttendanceView(ActionPage):
    """The chief referee's view of a round: late teams (confirm their forfeits at once),
    leaves, and how many teams are seated."""

    template_name = "tournaments/checkin/attendance.html"
    action = "team.leave"

    def get_round(self) -> Round:
        return get_object_or_404(Round, event=self.event, number=self.kwargs["number"])

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rnd = self.get_round()
        context.update(attendance_context(rnd))
        context.update(
            round=rnd,
            leaves=RoundLeave.objects.filter(team__event=self.event)
            .select_related("team")
            .order_by("round_number", "team__name"),
            leave_form=LeaveForm(event=self.event, initial={"round": rnd.number}),
            can_rule=self.may("forfeit.confirm"),
        )
        return context

    def act(self, request) -> str:
        rnd = self.get_round()
        if request.POST.get("action") == "leave":
            form = LeaveForm(request.POST, event=self.event)
            if not form.is_valid():
                field, errors = next(iter(form.errors.items()))
                raise RoundError(" ".join(errors), field)
            data = form.cleaned_data
            team = get_object_or_404(Team, event=self.event, pk=data["team"])
            service.grant_leave(team, data["round"], data["kind"], request.user, data["reason"])
            return _("Leave recorded for %(team)s.") % {"team": team.name}
        return forfeit_message(request, rnd, request.POST.getlist("team"))


def attendance_context(rnd: Round) -> dict:
    """The late list, the seat marks of the tables where nothing was entered yet, counts."""
    seated = service.seated_ids(rnd)
    matches = list(
        rnd.matches.exclude(away=None).select_related("home", "away").order_by("table_number")
    )
    waiting = set(
        rnd.matches.exclude(away=None).filter(versions__isnull=True).values_list("pk", flat=True)
    )
    tables = [
        {"match": m, "home_seated": m.home_id in seated, "away_seated": m.away_id in seated}
        for m in matches
        if m.pk in waiting and not (m.home_id in seated and m.away_id in seated)
    ]
    return {
        "late": service.late_teams(rnd),
        "seated": len(seated),
        "playing": len(matches) * 2,
        "unseated_tables": tables,
    }


def forfeit_message(request, rnd: Round, team_ids) -> str:
    """Confirm the late forfeits of the teams ticked (never every team: none ticked, none
    ruled) and say what was done, naming each team; the skipped ones as errors."""
    ids = [n for n in map(whole_number, team_ids) if n is not None]
    if not ids:
        raise RoundError(_("Tick the late teams whose forfeits you confirm."), "team")
    done = service.confirm_late_forfeits(rnd, request.user, ids, source=client_address(request))
    for reason in done.skipped:
        messages.error(request, reason)
    names = "、".join(late.team.name for late in done.teams)
    if not done.teams:
        return _("No forfeit ruled.")
    return _("Forfeits confirmed (弃权) at %(count)s tables: %(teams)s.") % {
        "count": done.tables,
        "teams": names,
    }


class SeatedView(ActionPage):
    """POST from a table page: the table referee marks a team seated."""

    template_name = "tournaments/checkin/badge.html"
    action = "result.enter"

    def post(self, request, *args, **kwargs):
        match = get_object_or_404(
            Match,
            round__event=self.event,
            round__number=self.kwargs["number"],
            table_number=self.kwargs["table"],
        )
        team = get_object_or_404(Team, event=self.event, pk=whole_number(request.POST.get("team")))
        service.mark_seated(match, team, request.user)
        messages.success(request, _("%(team)s is seated.") % {"team": team.name})
        return redirect(self.error_url())

    def error_url(self) -> str:
        table = self.kwargs["table"]
        fallback = reverse("tournaments:table-entry", args=[self.event.slug, table])
        return self.request.POST.get("next") or fallback

    def get(self, request, *args, **kwargs):
        """Marks are POSTed (the table page sends them through the API): a GET (a link
        followed, a reload) goes to the table page, where the marks are."""
        return redirect("tournaments:table-entry", self.event.slug, self.kwargs["table"])
