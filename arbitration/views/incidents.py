"""Incident pages: log one (table referee, chief referee), see it and rule on it (chief)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from arbitration.forms import IncidentForm, RulingForm
from arbitration.models import Incident
from arbitration.models.rulings import Step, step_label
from arbitration.services import incidents, rulings
from arbitration.services.lateness import late_status
from tournaments import permissions
from tournaments.services.audit import client_address

from .base import ActionView


class IncidentCreateView(ActionView):
    template_name = "arbitration/incident_form.html"
    form_class = IncidentForm
    form_needs_event = True
    action = "incident.log"
    success_message = _("Incident logged.")

    def get_initial(self):
        return {"match": self.request.GET.get("match"), "team": self.request.GET.get("team")}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        # the page rebuilds the team and player lists when the match changes (incident_form.js)
        context["choices_by_match"] = context["form"].choices_by_match
        return context

    def perform(self, data):
        incident = incidents.log_incident(
            self.event, self.request.user, source=client_address(self.request), **data
        )
        return reverse("arbitration:incident", args=[self.event.slug, incident.pk])


class IncidentView(ActionView):
    """GET: the incident, its evidence and rulings; POST (chief referee): rule on it."""

    template_name = "arbitration/incident_detail.html"
    form_class = RulingForm
    form_needs_event = True
    success_message = _("Ruling recorded.")

    def load(self, pk, **kwargs):
        self.incident = get_object_or_404(
            Incident.objects.select_related(
                "match__round", "match__home", "match__away", "team", "player", "logged_by"
            ),
            pk=pk,
            event=self.event,
        )

    def post(self, request, *args, **kwargs):
        permissions.require(request.user, self.event, "incident.rule")
        return super().post(request, *args, **kwargs)

    def get_form_kwargs(self):
        return super().get_form_kwargs() | {"match": self.incident.match}

    def get_initial(self):
        proposed = [p.step for p in rulings.proposal(self.incident) if p.step in Step.values]
        initial = {"team": self.incident.team_id, "deal": self.incident.deal}
        if proposed:  # the general step of the proposal (犯规 alone: the chief chooses one)
            initial["step"] = proposed[0]
        return initial

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            incident=self.incident,
            proposal=[(p, step_label(p.step)) for p in rulings.proposal(self.incident)],
            late=late_status(self.incident),
            rulings=self.incident.rulings.select_related("team", "decided_by").order_by("pk"),
            evidence=self.incident.evidence.all(),
            is_chief=self.may("incident.rule"),
        )
        return context

    def perform(self, data):
        made = rulings.rule(
            self.incident,
            self.request.user,
            step=data["step"],
            reason=data["reason"],
            team=data["team"],
            levels=data["levels"],
            opponent_up=data["opponent_up"],
            deal=data.get("deal"),
            places=data.get("places") or 0,
            source=client_address(self.request),
        )
        return reverse("arbitration:ruling", args=[self.event.slug, made[0].pk])
