"""The organiser's event settings page: details, preset and every setting of the one
event-settings schema as form fields; saved through the service (validated, logged)."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.generic import FormView

from tournaments.forms_settings import EventSettingsForm
from tournaments.models import AuditLog
from tournaments.services import event_settings as service
from tournaments.services.audit import client_address

from .mixins import RoleRequiredMixin


class EventSettingsView(RoleRequiredMixin, FormView):
    template_name = "tournaments/events/settings.html"
    form_class = EventSettingsForm
    action = "event.settings"

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "instance": self.event}

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["started"] = service.started(self.event)
        context["history"] = AuditLog.objects.filter(event=self.event, action="event.settings")[:20]
        return context

    def form_valid(self, form):
        made = service.update_settings(
            self.event, self.request.user, form.changes(), client_address(self.request)
        )
        if made:
            messages.success(self.request, _("Settings saved."))
        else:
            messages.info(self.request, _("Nothing changed."))
        return redirect(reverse("tournaments:event-settings", args=[self.event.slug]))

    def service_error(self, err):
        """A refusal of ``settings.<key>`` is shown on the field of that setting."""
        if err.field and err.field.startswith("settings."):
            err.field = err.field.removeprefix("settings.")
        return super().service_error(err)
