"""An appeal's page: the committee votes; the chief referee may accept a late appeal."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from arbitration.forms import ReasonForm, VoteForm
from arbitration.models import Appeal
from arbitration.services import appeals
from arbitration.services.dashboards import appeal_rows
from tournaments.services.audit import client_address

from .base import ActionView


class AppealMixin:
    def load(self, pk, **kwargs):
        self.appeal = get_object_or_404(
            Appeal.objects.select_related("ruling__team", "team", "filed_by"),
            pk=pk,
            event=self.event,
        )

    def permitted(self) -> bool:
        return self.sees_team_matters([self.appeal.team_id])

    def is_member(self) -> bool:
        return self.may("appeal.vote")


class AppealView(AppealMixin, ActionView):
    """GET: the appeal, its deadline and votes; POST (committee member): vote."""

    template_name = "arbitration/appeal.html"
    form_class = VoteForm
    form_needs_event = True
    success_message = _("Vote recorded.")

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        appeal = self.appeal
        [row] = appeal_rows([appeal])
        voted = appeal.votes.filter(member=self.request.user).exists()
        context.update(
            appeal=appeal,
            row=row,
            votes=appeal.votes.select_related("member"),
            decision=getattr(appeal, "decision", None) if appeal.status == "decided" else None,
            can_vote=self.is_member() and not voted and appeal.status == "open",
            voted=voted,
            can_accept=self.may("appeal.accept_late") and appeal.refused,
            accept_form=ReasonForm(),
            deadline=appeals.deadline(appeal),
        )
        return context

    def perform(self, data):
        appeals.vote(
            self.appeal,
            self.request.user,
            data["choice"],
            data["reason"],
            data.get("amended_step") or "",
            source=client_address(self.request),
        )
        return reverse("arbitration:appeal", args=[self.event.slug, self.appeal.pk])


class AcceptLateView(AppealMixin, ActionView):
    template_name = "arbitration/reason_form.html"
    form_class = ReasonForm
    success_message = _("Late appeal accepted; the committee may vote.")

    def permitted(self) -> bool:
        return self.may("appeal.accept_late")

    def perform(self, data):
        appeals.accept_late(
            self.appeal, self.request.user, data["reason"], source=client_address(self.request)
        )
        return reverse("arbitration:appeal", args=[self.event.slug, self.appeal.pk])
