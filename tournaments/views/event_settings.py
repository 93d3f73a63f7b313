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
        """Three steps (issue 36): the form; its changes previewed in words ("name: old →
        new") with a reason asked for once results exist; then stored and logged."""
        post = self.request.POST
        if post.get("edit"):  # back from the preview to the form, the edits kept
            return self.render_to_response(self.get_context_data(form=form))
        changes = form.changes()
        if not post.get("confirmed"):
            made = service.planned(self.event, changes)
            if not made:
                messages.info(self.request, _("Nothing changed."))
                return redirect(reverse("tournaments:event-settings", args=[self.event.slug]))
            return self.preview(form, made)
        reason = post.get("reason", "")
        try:
            made = service.update_settings(
                self.event, self.request.user, changes, client_address(self.request), reason
            )
        except service.SettingsError as err:
            if err.field != "reason":
                raise
            return self.preview(form, service.planned(self.event, changes), err.message)
        if made:
            messages.success(self.request, _("Settings saved."))
        else:
            messages.info(self.request, _("Nothing changed."))
        return redirect(reverse("tournaments:event-settings", args=[self.event.slug]))

    def preview(self, form, made: dict, reason_error: str = ""):
        """The changes in words and the form's data again, to confirm (or go back)."""
        replay = [
            (name, value)
            for name, values in self.request.POST.lists()
            if name not in ("csrfmiddlewaretoken", "confirmed", "reason", "edit")
            for value in values
        ]
        context = self.get_context_data(
            form=form,
            preview=form.describe(made),
            replay=replay,
            reason=self.request.POST.get("reason", ""),
            reason_error=reason_error,
        )
        return self.render_to_response(context)

    def service_error(self, err):
        """A refusal of ``settings.<key>`` (or of a part of it) is shown on the field of that
        setting."""
        if err.field and err.field.startswith("settings."):
            # a part of a setting (match_format.deals, stage_standings_orders.swiss) is shown
            # on the setting's own field
            err.field = err.field.removeprefix("settings.").split(".")[0]
        return super().service_error(err)
