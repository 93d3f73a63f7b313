"""Shared view plumbing: load the event from the URL, enforce per-event roles, and
turn a service's refusal into the page's answer."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render

from rules_engine.errors import RulesError
from tournaments import permissions
from tournaments.errors import NotFound, ServiceError
from tournaments.models import Event
from tournaments.sql import lookups


class ServiceErrorMixin:
    """The pages' one mapping of a :class:`ServiceError` to an answer, in the page's language.

    - 403 → the forbidden page; 404 → the not-found page;
    - a form being submitted → the form again, the message on the field at fault, with the
      error's status;
    - any other POST → the message, and back to :meth:`error_url` (default: the same page);
    - a GET → a page saying what was refused, with the error's status.
    """

    def dispatch(self, request, *args, **kwargs):
        try:
            return super().dispatch(request, *args, **kwargs)
        except RulesError as err:
            return self.service_error(ServiceError.from_rules(err))
        except ServiceError as err:
            return self.service_error(err)

    def get_form(self, form_class=None):
        form = super().get_form(form_class)
        self.submitted_form = form
        return form

    def error_url(self) -> str:
        return self.request.get_full_path()

    def service_error(self, err: ServiceError):
        if err.status == 403:
            raise PermissionDenied(err.message)
        if err.status == 404:
            not_found = Http404(err.message)
            not_found.words = err.message  # the 404 page says what was not found
            raise not_found
        form = getattr(self, "submitted_form", None)
        if form is not None and form.is_bound:
            form.add_error(err.field if err.field in form.fields else None, err.message)
            response = self.form_invalid(form)
            response.status_code = err.status
            return response
        if self.request.method == "POST":
            messages.error(self.request, err.message)
            return redirect(self.error_url())
        return render(
            self.request,
            "errors/refused.html",
            {"message": err.message, "status": err.status},
            status=err.status,
        )


class EventMixin(ServiceErrorMixin):
    """Sets ``self.event`` from the ``slug`` URL argument (404 when unknown).

    A page that sets ``action`` (a key of ``tournaments.permissions.ACTIONS``) is for logged-in
    users who may do it in *this* event: the login page otherwise, or 403. A page may
    load its object first (:meth:`load`) and widen or narrow the check (:meth:`permitted`).
    """

    event: Event
    action: str | None = None
    # the visitor's roles in the context; off for a page cached for every visitor (PublicMixin)
    visitor_roles = True

    def dispatch(self, request, *args, **kwargs):
        try:
            self.event = lookups.event(kwargs["slug"])
        except NotFound as err:
            raise Http404(err.message) from None
        if self.action is not None:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            self.load(**kwargs)
            if not self.permitted():
                raise PermissionDenied(permissions.ACTIONS[self.action].refusal)
        return super().dispatch(request, *args, **kwargs)

    def load(self, **kwargs) -> None:
        """Load the object of the page before the permission check (404 when not in this event)."""

    def permitted(self) -> bool:
        return self.may(self.action)

    def may(self, action: str) -> bool:
        return permissions.may(self.request.user, self.event, action)

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["event"] = self.event
        if self.visitor_roles:
            context["my_roles"] = permissions.user_roles(self.request.user, self.event)
            context["allowed"] = permissions.allowed_actions(self.request.user, self.event)
            context["can_manage"] = permissions.can_manage(self.request.user, self.event)
        return context


class RoleRequiredMixin(EventMixin):
    """The organiser's pages: ``action`` defaults to managing the event."""

    action = "event.manage"
