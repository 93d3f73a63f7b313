"""Locked logins of an event's people: the chief referee or the organiser lifts a lock."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.mixins import LoginRequiredMixin
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.generic import TemplateView

from tournaments.services import logins
from tournaments.services.audit import client_address

from .mixins import RoleRequiredMixin


class LockoutsPage(RoleRequiredMixin, TemplateView):
    action = "login.unlock"
    template_name = "tournaments/logins/lockouts.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            rows=logins.failed_logins(self.event),
            account_limit=logins.account_limit(),
            known_limit=logins.known_limit(),
            ceiling=logins.account_ceiling(),
            minutes=logins.lock_minutes(),
        )
        return context

    def post(self, request, slug):
        username = request.POST.get("username", "")[:150]
        try:
            logins.unlock(self.event, request.user, username, client_address(request))
        except logins.UnlockRefused as err:
            messages.error(request, err.message)
        else:
            messages.success(request, _("The lock of %(name)s is lifted.") % {"name": username})
        return redirect("tournaments:lockouts", slug)


class ApiTokenPage(LoginRequiredMixin, TemplateView):
    """The signed-in user's API token: made (shown once), replaced or revoked here. API
    clients send ``Authorization: Token <key>`` instead of a password."""

    template_name = "tournaments/logins/api_token.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["token"] = logins.api_token(self.request.user)
        return context

    def post(self, request):
        source = client_address(request)
        if request.POST.get("action") == "revoke":
            logins.revoke_api_token(request.user, source)
            messages.success(request, _("Your API token is revoked."))
            return redirect("api-token")
        key = logins.issue_api_token(request.user, source)
        return self.render_to_response(self.get_context_data(new_key=key))
