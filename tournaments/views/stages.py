"""Organiser pages for stages and sections: create stages, add sections, put teams in them
(by hand or split by seed), draw a stage's round, read each section's standings.

Thin: the forms only read the input; ``tournaments.services.stages`` (set-up),
``stage_sections`` (sections and their teams) and ``stage_rounds`` (drawing) do the work and
refuse with a message (shown by ``ServiceErrorMixin``).
"""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext_lazy
from django.views.generic import TemplateView, View

from rules_engine import format_fields
from tournaments.models import Stage, Team
from tournaments.services import (
    match_formats,
    stage_rounds,
    stage_sections,
    stage_standings,
    stages,
)
from tournaments.services.audit import client_address
from tournaments.services.stages import STAGE_NUMBER_MAX

from .mixins import RoleRequiredMixin

ENDS = [
    ("", gettext_lazy("The event's usual scoring")),
    ("pass_a", gettext_lazy("Pass A (计局制)")),
    ("deals", gettext_lazy("A number of deals (计副制)")),
    ("time", gettext_lazy("Time (计时制)")),
    ("time_or_deals", gettext_lazy("Time or deals (计时计副制)")),
]


class StageForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    kind = forms.ChoiceField(label=gettext_lazy("Kind"), choices=Stage.Kind.choices)
    num_rounds = forms.IntegerField(
        label=gettext_lazy("Number of rounds"),
        required=False,
        min_value=1,
        max_value=STAGE_NUMBER_MAX,
        help_text=gettext_lazy("Swiss only."),
    )
    end = forms.ChoiceField(label=gettext_lazy("A match ends by"), choices=ENDS, required=False)
    deals = forms.IntegerField(
        label=pgettext_lazy("number of deals", "Deals"),
        required=False,
        min_value=1,
        max_value=STAGE_NUMBER_MAX,
    )
    minutes = forms.IntegerField(
        label=gettext_lazy("Minutes"), required=False, min_value=1, max_value=STAGE_NUMBER_MAX
    )
    best_of_three = forms.BooleanField(
        label=gettext_lazy("Best of three (三局二胜)"), required=False
    )
    entrants = forms.ChoiceField(label=gettext_lazy("Entrants"), choices=Stage.Entrants.choices)
    qualify_top = forms.IntegerField(
        label=gettext_lazy("Qualifiers per section"),
        required=False,
        min_value=1,
        max_value=STAGE_NUMBER_MAX,
    )
    sources = forms.MultipleChoiceField(label=gettext_lazy("Qualifying stages"), required=False)
    carry_points = forms.BooleanField(label=gettext_lazy("Carry the points"), required=False)
    third_place = forms.BooleanField(label=gettext_lazy("Third-place match"), required=False)

    def __init__(self, *args, event=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        found = event.stages.order_by("order") if event is not None else []
        self.fields["sources"].choices = [(str(stage.pk), stage.name) for stage in found]

    @classmethod
    def initial_of(cls, stage: Stage) -> dict:
        """The form's fields for a stored stage (the edit page; what was stored, shown)."""
        fmt = stage.match_format or {}
        return {
            "name": stage.name,
            "kind": stage.kind,
            "num_rounds": stage.num_rounds,
            "end": fmt.get("end", ""),
            "deals": fmt.get("deals"),
            "minutes": fmt.get("minutes"),
            "best_of_three": format_fields.is_best_of_three(fmt),
            "entrants": stage.entrants,
            "qualify_top": stage.qualify_top,
            "sources": [str(pk) for pk in stage.sources.values_list("pk", flat=True)],
            "carry_points": stage.carry_points,
            "third_place": stage.third_place,
        }

    def clean(self):
        """Every choice is stored as shown or refused naming its field: a value that the
        other choices make meaningless is refused, never dropped."""
        data = super().clean()
        end, kind = data.get("end") or "", data.get("kind")
        deals, minutes = data.get("deals"), data.get("minutes")
        uses = {
            "": (),
            "pass_a": (),
            "deals": ("deals",),
            "time": ("minutes",),
            "time_or_deals": ("deals", "minutes"),
        }.get(end, ())
        for key, value in (("deals", deals), ("minutes", minutes)):
            if value and key not in uses:
                self.add_error(
                    key,
                    _(
                        "Not used when a match ends as chosen under “A match "
                        "ends by”: choose an end that uses it, or leave it "
                        "empty."
                    ),
                )
            elif not value and key in uses:
                self.add_error(key, _("Needed for the end chosen under “A match ends by”."))
        if data.get("num_rounds") and kind != Stage.Kind.SWISS:
            self.add_error(
                "num_rounds",
                _(
                    "Only a Swiss stage has a number of rounds (a "
                    "round robin's or a knockout's field decides)."
                ),
            )
        if data.get("entrants") == Stage.Entrants.ALL:
            if data.get("qualify_top"):
                self.add_error(
                    "qualify_top",
                    _("Only a stage of qualifiers takes the top teams of each section."),
                )
            if data.get("sources"):
                self.add_error("sources", _("A stage of all teams has no qualifying stages."))
        if data.get("third_place") and kind != Stage.Kind.KNOCKOUT:
            self.add_error("third_place", _("Only a knockout has a third-place match."))
        if data.get("carry_points") and kind == Stage.Kind.KNOCKOUT:
            self.add_error("carry_points", _("A knockout does not carry points."))
        return data

    def service_fields(self) -> dict:
        data = self.cleaned_data
        fmt = {}
        if data.get("end"):
            fmt = {"end": data["end"]}
            for key in ("deals", "minutes"):
                if data.get(key):
                    fmt[key] = data[key]
        if data.get("best_of_three"):
            fmt = format_fields.best_of_three(fmt)  # with the event's usual end when none is chosen
        return {
            "name": data["name"],
            "kind": data["kind"],
            "num_rounds": data.get("num_rounds"),
            "match_format": fmt,
            "entrants": data["entrants"],
            "qualify_top": data.get("qualify_top"),
            "sources": [int(pk) for pk in data.get("sources") or ()],
            "carry_points": data.get("carry_points", False),
            "third_place": data.get("third_place", False),
        }


class SectionForm(forms.Form):
    name = forms.CharField(
        label=gettext_lazy("Section name"),
        max_length=100,
        help_text=gettext_lazy("e.g. 男双, 女双, A组"),
    )


class SplitForm(forms.Form):
    method = forms.ChoiceField(
        label=gettext_lazy("Split by seed"),
        choices=[
            ("snake", gettext_lazy("Snake (1→A, 2→B, 3→B, 4→A …)")),
            ("in_turn", gettext_lazy("In turn (1→A, 2→B, 3→A …)")),
        ],
    )


def form_refusal(form) -> stages.StageError:
    """The first error of a form that does not validate, as the service's error."""
    field, errors = next(iter(form.errors.items()))
    label = form.fields[field].label if field in form.fields else ""
    return stages.StageError(f"{label}: {' '.join(errors)}", field)


class StageListView(RoleRequiredMixin, TemplateView):
    template_name = "tournaments/stages/stage_list.html"
    action = "stage.view"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        found = stages.stages_of(self.event)
        for stage in found:
            stage.planned = stage_standings.planned_rounds(stage)
            stage.done = stage_standings.stage_rounds(stage).count()
            stage.complete = stage_standings.is_complete(stage)
        context.update(
            stages=found,
            form=StageForm(event=self.event),
            ranking=stage_standings.event_ranking(self.event) if found else [],
        )
        return context


class StageMixin(RoleRequiredMixin):
    action = "stage.view"

    def load(self, **kwargs) -> None:
        self.stage = get_object_or_404(Stage, event=self.event, pk=kwargs["pk"])

    def stage_url(self) -> str:
        return reverse("tournaments:stage", args=[self.event.slug, self.stage.pk])


class StageDetailView(StageMixin, TemplateView):
    template_name = "tournaments/stages/stage_detail.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        stage = self.stage
        names = dict(Team.objects.filter(event=self.event).values_list("pk", "name"))
        sections = []
        for section in stage.sections.order_by("order"):
            section.teams = [(team, names.get(team, "")) for team in stages.section_teams(section)]
            section.rows = [] if stage.is_knockout else stage_standings.section_rows(section)
            if stage.is_knockout:
                section.groups = [
                    [names.get(team, "") for team in group]
                    for group in stage_standings.section_groups(section)
                ]
            sections.append(section)
        placed = set(stage.entries.values_list("team_id", flat=True))
        waiting = [
            (t, names.get(t, "")) for t in stage_sections.stage_entrants(stage) if t not in placed
        ]
        context.update(
            stage=stage,
            sections=sections,
            waiting=waiting,
            rounds=stage_standings.stage_rounds(stage),
            planned=stage_standings.planned_rounds(stage),
            complete=stage_standings.is_complete(stage),
            locked=stages.has_rounds(stage),
            section_form=SectionForm(),
            split_form=SplitForm(),
            fmt=stage.engine_format(),
            fmt_text=match_formats.text(stage.engine_format()),
        )
        return context


class StageActionView(StageMixin, View):
    """POST only: one service step, reported as a message, back to the stage page."""

    action = "stage.manage"

    def post(self, request, *args, **kwargs):
        messages.success(request, self.act(request))
        return redirect(self.success_url())

    def error_url(self) -> str:
        return self.stage_url()

    def success_url(self) -> str:
        return self.stage_url()

    def act(self, request) -> str:
        raise NotImplementedError


class StageEditView(StageMixin, TemplateView):
    """GET: the stage's form filled from what is stored; POST: every field changed through
    the service (refused, naming the field, once the stage's first round is drawn)."""

    template_name = "tournaments/stages/stage_edit.html"
    action = "stage.manage"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        form = StageForm(initial=StageForm.initial_of(self.stage), event=self.event)
        form.fields["sources"].choices = [
            choice for choice in form.fields["sources"].choices if choice[0] != str(self.stage.pk)
        ]
        context.update(stage=self.stage, form=form, locked=stages.has_rounds(self.stage))
        return context

    def post(self, request, *args, **kwargs):
        form = StageForm(request.POST, event=self.event)
        if not form.is_valid():
            raise form_refusal(form)
        fields = form.service_fields()
        if stages.has_rounds(self.stage):  # only the name may change: send only what changed
            fields = {k: v for k, v in fields.items() if k == "name" or v != _stored(self.stage, k)}
        stages.update_stage(self.stage, request.user, source=client_address(request), **fields)
        messages.success(request, _("Stage %(name)s saved.") % {"name": fields["name"]})
        return redirect(self.stage_url())

    def error_url(self) -> str:
        return reverse("tournaments:stage-edit", args=[self.event.slug, self.stage.pk])


def _stored(stage: Stage, key: str):
    if key == "sources":
        return list(stage.sources.order_by("order").values_list("pk", flat=True))
    return getattr(stage, key)


class StageDeleteView(StageMixin, View):
    """POST: remove a stage that has no round drawn (and feeds no later stage)."""

    action = "stage.manage"

    def post(self, request, *args, **kwargs):
        name = self.stage.name
        stages.delete_stage(self.stage, request.user, source=client_address(request))
        messages.success(request, _("Stage %(name)s removed.") % {"name": name})
        return redirect(reverse("tournaments:stages", args=[self.event.slug]))

    def error_url(self) -> str:
        return self.stage_url()


class StageCreateView(RoleRequiredMixin, View):
    action = "stage.manage"

    def post(self, request, *args, **kwargs):
        form = StageForm(request.POST, event=self.event)
        if not form.is_valid():
            raise form_refusal(form)
        stage = stages.create_stage(
            self.event, request.user, source=client_address(request), **form.service_fields()
        )
        messages.success(request, _("Stage %(name)s added.") % {"name": stage.name})
        return redirect(reverse("tournaments:stage", args=[self.event.slug, stage.pk]))

    def error_url(self) -> str:
        return reverse("tournaments:stages", args=[self.event.slug])


class SectionCreateView(StageActionView):
    def act(self, request) -> str:
        form = SectionForm(request.POST)
        if not form.is_valid():
            raise form_refusal(form)
        section = stage_sections.create_section(
            self.stage, request.user, form.cleaned_data["name"], source=client_address(request)
        )
        return _("Section %(name)s added.") % {"name": section.name}


class AssignView(StageActionView):
    def act(self, request) -> str:
        section = stages.get_section(self.stage, request.POST.get("section"))
        try:
            teams = [int(team) for team in request.POST.getlist("teams")]
        except ValueError:
            raise stages.StageError(_("Choose teams from the list."), "teams") from None
        if not teams:
            raise stages.StageError(_("Choose teams from the list."), "teams")
        stage_sections.assign_teams(section, request.user, teams, source=client_address(request))
        return _("%(count)s team(s) put in %(section)s.") % {
            "count": len(teams),
            "section": section.name,
        }


class SplitView(StageActionView):
    def act(self, request) -> str:
        form = SplitForm(request.POST)
        if not form.is_valid():
            raise form_refusal(form)
        stage_sections.split_teams(
            self.stage, request.user, form.cleaned_data["method"], source=client_address(request)
        )
        return _("The entrants are split into the sections by seed.")


class DrawView(StageActionView):
    action = "round.draft"

    def act(self, request) -> str:
        self.drawn = stage_rounds.draw_round(
            self.stage, request.user, source=client_address(request)
        )
        return _("Draft pairing for round %(number)s ready: check the flags, then publish.") % {
            "number": self.drawn.number
        }

    def success_url(self) -> str:
        return reverse("tournaments:round", args=[self.event.slug, self.drawn.number])
