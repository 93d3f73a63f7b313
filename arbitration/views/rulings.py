"""A ruling's printable page, its revocation (chief referee) and appeals against it."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _
from django.views.generic import TemplateView

from arbitration.forms import AppealForm, ReasonForm
from arbitration.models import Appeal, Ruling
from arbitration.services import appeals, rulings
from arbitration.services.dashboards import appeal_rows
from tournaments.services.audit import client_address

from .base import ActionView, ArbitrationView


class RulingMixin:
    def load(self, pk, **kwargs):
        self.ruling = get_object_or_404(
            Ruling.objects.select_related(
                "team",
                "match__round",
                "match__home",
                "match__away",
                "incident",
                "decided_by",
                "result_version",
            ),
            pk=pk,
            event=self.event,
        )

    def permitted(self) -> bool:
        return self.sees_team_matters(appeals.involved_teams(self.ruling))


class RulingView(RulingMixin, ArbitrationView, TemplateView):
    template_name = "arbitration/ruling.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        ruling = self.ruling
        can_appeal = self.captain_of(appeals.involved_teams(ruling)) and ruling.is_active
        context.update(
            ruling=ruling,
            active=ruling.is_active,
            escalations=Ruling.objects.filter(escalated_from=ruling),
            revocation=getattr(ruling, "revocation", None) if not ruling.is_active else None,
            appeals=appeal_rows(Appeal.objects.filter(ruling=ruling).select_related("team")),
            can_appeal=can_appeal,
            filing_deadline=appeals.filing_deadline(ruling) if can_appeal else None,
            appeal_minutes=appeals.appeal_minutes(self.event),  # the event's setting
            appeal_form=AppealForm(),
            is_chief=self.may("ruling.revoke"),
            revoke_form=ReasonForm(),
        )
        return context


class RevokeView(RulingMixin, ActionView):
    template_name = "arbitration/reason_form.html"
    form_class = ReasonForm
    success_message = _("Ruling revoked; its effects are undone.")

    def permitted(self) -> bool:
        return self.may("ruling.revoke")

    def perform(self, data):
        rulings.revoke(
            self.ruling, self.request.user, data["reason"], source=client_address(self.request)
        )
        return reverse("arbitration:ruling", args=[self.event.slug, self.ruling.pk])


class AppealCreateView(RulingMixin, ActionView):
    """The appeal's own page (from the captain's "my team's rulings"): the ruling appealed
    against and the filing deadline above the grounds."""

    template_name = "arbitration/reason_form.html"
    form_class = AppealForm

    def permitted(self) -> bool:
        return self.captain_of(appeals.involved_teams(self.ruling))

    def get_context_data(self, **kwargs):
        return super().get_context_data(**kwargs) | {
            "heading": _("Appeal against this ruling"),
            "ruling": self.ruling,
            "filing_deadline": appeals.filing_deadline(self.ruling),
            "appeal_minutes": appeals.appeal_minutes(self.event),  # the event's setting
            "send": _("File the appeal"),
        }

    def perform(self, data):
        appeal = appeals.file_appeal(
            self.ruling, self.request.user, data["grounds"], source=client_address(self.request)
        )
        if appeal.refused:
            messages.warning(self.request, appeals.refusal(appeal))
        else:
            messages.success(self.request, _("Appeal filed with the arbitration committee."))
        return reverse("arbitration:appeal", args=[self.event.slug, appeal.pk])
