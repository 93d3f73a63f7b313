"""Organiser pages for rounds: draft a pairing, read its flags, swap teams, publish, start."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.db.models import Count
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.generic import TemplateView, View

from tournaments import glossary
from tournaments.models import AuditLog, Match, Round, Team
from tournaments.pairing import FLAG_REMATCH
from tournaments.pairing.messages import flag_badge, render_explanation, team_ids_in
from tournaments.services import checkin as checkin_service
from tournaments.services import event_file, match_formats, stage_standings
from tournaments.services import rounds as service
from tournaments.services.audit import client_address
from tournaments.validation import whole_number

from .mixins import RoleRequiredMixin


def in_chinese() -> bool:
    return (get_language() or "").startswith("zh")


def pick(english: str, chinese: str) -> str:
    """The label in the page's language (for labels the pure cores carry in both)."""
    return chinese if in_chinese() else english


def flag_badges(flags) -> list[tuple[str, str]]:
    """(short badge text, longer explanation) for each flag of a table."""
    return [flag_badge(flag) for flag in flags]


class SeedForm(forms.Form):
    seed = forms.IntegerField(
        label=gettext_lazy("Draw seed"),
        required=False,
        min_value=0,
        max_value=service.MAX_SEED,
        help_text=gettext_lazy("Round 1 only. Leave empty for a fresh random seed (recorded)."),
    )


class SwapForm(forms.Form):
    team_a = forms.TypedChoiceField(label=gettext_lazy("Team"), coerce=int)
    team_b = forms.TypedChoiceField(label=gettext_lazy("Swap with"), coerce=int)
    reason = forms.CharField(
        label=gettext_lazy("Reason (goes in the audit log)"), max_length=500, strip=True
    )

    def __init__(self, *args, teams=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [(team.pk, team.name) for team in teams]
        self.fields["team_a"].choices = self.fields["team_b"].choices = choices


class RoundListView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/rounds/round_list.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["rounds"] = self.event.rounds.annotate(tables=Count("matches")).order_by("number")
        context["seed_form"] = SeedForm()
        return context


class RoundMixin(RoleRequiredMixin):
    def get_round(self) -> Round:
        return get_object_or_404(Round, event=self.event, number=self.kwargs["number"])


class RoundDetailView(RoundMixin, TemplateView):
    template_name = "tournaments/rounds/round_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        rnd = self.get_round()
        matches = list(
            Match.objects.filter(round=rnd)
            .select_related("home__unit", "away__unit")
            .order_by("table_number")
        )
        tables = [m for m in matches if not m.is_bye]
        before = (
            {
                row.team: row
                for row in stage_standings.official_standings(
                    self.event, after_round=rnd.number - 1
                )
            }
            if rnd.number > 1
            else {}
        )
        codes = stage_standings.knockout_codes(rnd) if rnd.stage_id else {}
        for match in tables:
            match.badges = flag_badges(match.flags)
            match.knockout_label = glossary.knockout_match(codes.get(match.pk, ""))
            match.home_place, match.away_place = (
                before.get(match.home_id),
                before.get(match.away_id),
            )
        playing = [m.home for m in matches] + [m.away for m in tables]
        entry = (
            AuditLog.objects.filter(
                event=self.event,
                action__in=("round.draft", "round.redraft"),
                target_id=str(rnd.pk),
            )
            .order_by("-created_at", "-id")
            .first()
        )
        context.update(
            round=rnd,
            clock_minutes=match_formats.clock_minutes(self.event, rnd.stage),
            tables=tables,
            byes=[m for m in matches if m.is_bye],
            swappable=rnd.status in service.SWAPPABLE,
            swap_form=SwapForm(teams=sorted(playing, key=lambda team: team.name)),
            seed_form=SeedForm(initial={"seed": rnd.draw_seed}),
            explanation=self.explanation(entry),
            rematches=[m for m in matches if FLAG_REMATCH in (m.flags or [])],
            left_out=Team.objects.filter(event=self.event)
            .exclude(status=Team.Status.ACTIVE)
            .order_by("name"),
            not_drawn=checkin_service.not_drawn(rnd),
            stale=service.stale_reason(rnd),
            quality=event_file.quality_for(rnd) if tables else None,
        )
        return context

    def explanation(self, entry) -> list[str]:
        """The draft's explanation in the reader's language, with team and unit names."""
        lines = (entry.data.get("explanation") or []) if entry else []
        names = dict(
            Team.objects.filter(event=self.event, pk__in=team_ids_in(lines)).values_list(
                "id", "name"
            )
        )
        units = dict(self.event.units.values_list("id", "name"))

        def unit_name(unit) -> str:
            return units.get(whole_number(unit), str(unit))

        return render_explanation(
            lines, lambda team_id: names.get(team_id, f"#{team_id}"), unit_name
        )


class RoundActionView(RoundMixin, View):
    """POST only: run one service step, report it as a message, go back to the round."""

    def post(self, request, *args, **kwargs):
        messages.success(request, self.act(request))
        return redirect(self.success_url())

    def error_url(self) -> str:
        return self.failure_url()

    def act(self, request) -> str:
        raise NotImplementedError

    def failure_url(self):
        return self.round_url(self.kwargs["number"])

    def success_url(self):
        return self.failure_url()

    def round_url(self, number):
        return reverse("tournaments:round", args=[self.event.slug, number])


class DraftView(RoundActionView):
    def act(self, request) -> str:
        form = SeedForm(request.POST)
        if not form.is_valid():
            raise service.RoundError(" ".join(form.errors.get("seed", [])), "seed")
        self.drafted = service.generate_draft(
            self.event,
            request.user,
            seed=form.cleaned_data.get("seed"),
            source=client_address(request),
        )
        return _("Draft pairing for round %(number)s ready: check the flags, then publish.") % {
            "number": self.drafted.number
        }

    def failure_url(self):
        return reverse("tournaments:rounds", args=[self.event.slug])

    def success_url(self):
        return self.round_url(self.drafted.number)


class SwapView(RoundActionView):
    def act(self, request) -> str:
        rnd = self.get_round()
        teams = Team.objects.filter(event=self.event)
        form = SwapForm(request.POST, teams=teams)
        if not form.is_valid():
            field, errors = next(iter(form.errors.items()))
            label = form.fields[field].label if field in form.fields else ""
            raise service.RoundError(
                _("%(label)s: %(errors)s"), field, label=label, errors=" ".join(errors)
            )
        data = form.cleaned_data
        service.swap_teams(
            rnd,
            data["team_a"],
            data["team_b"],
            request.user,
            data["reason"],
            source=client_address(request),
        )
        return _("Teams swapped; the change is in the audit log.")


class PublishView(RoundActionView):
    def act(self, request) -> str:
        rnd = service.publish(
            self.get_round(), request.user, request.POST.get("confirm_reason", "")
        )
        return _("Round %(number)s is published.") % {"number": rnd.number}


class StartClockView(RoundActionView):
    def act(self, request) -> str:
        rnd = service.start_clock(self.get_round(), request.user)
        return _("Round %(number)s has started; it ends at %(time)s.") % {
            "number": rnd.number,
            "time": timezone.localtime(rnd.ends_at).strftime("%H:%M"),
        }
