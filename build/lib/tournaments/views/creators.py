"""The site administrator's page of event creators (no need for the Django admin)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import UserPassesTestMixin
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.services import creators as service
from tournaments.views.mixins import ServiceErrorMixin


class EventCreatorsView(UserPassesTestMixin, ServiceErrorMixin, TemplateView):
    template_name = "tournaments/creators/index.html"

    def test_func(self):
        return self.request.user.is_superuser

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["creators"] = service.creators()
        return context

    def post(self, request, *args, **kwargs):
        allowed = request.POST.get("action") != "revoke"
        user = service.set_creator(request.user, request.POST.get("username", ""), allowed)
        done = (
            _("%(name)s may create events.")
            if allowed
            else _("%(name)s may no longer create events.")
        )
        messages.success(request, done % {"name": user.username})
        return redirect(self.error_url())

    def error_url(self) -> str:
        return reverse("tournaments:creators")
