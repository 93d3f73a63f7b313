"""Assign tables to table referees in bulk: one form, a range list per referee."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.generic import FormView

from tournaments.services import assignments as service

from .mixins import RoleRequiredMixin


class AssignForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("Referee (username)"), max_length=150)
    tables = forms.CharField(
        label=gettext_lazy("Tables"),
        max_length=2000,
        help_text=gettext_lazy("Tables and ranges, e.g. 1-50, 60, 70-72."),
    )
    replace = forms.BooleanField(
        label=gettext_lazy("Replace this referee's other tables"), required=False
    )
    remove = forms.BooleanField(label=gettext_lazy("Remove these tables instead"), required=False)


class AssignmentsView(RoleRequiredMixin, FormView):
    template_name = "tournaments/assignments/index.html"
    form_class = AssignForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context.update(
            referees=service.overview(self.event),
            unassigned=service.ranges(service.unassigned_tables(self.event)),
        )
        return context

    def form_valid(self, form):
        data = form.cleaned_data
        referee = service.find_referee(data["username"])
        if data["remove"]:
            count = service.unassign_tables(self.event, self.request.user, referee, data["tables"])
            messages.success(
                self.request,
                _("%(count)s tables taken from %(name)s.")
                % {"count": count, "name": referee.username},
            )
        else:
            count = service.assign_tables(
                self.event, self.request.user, referee, data["tables"], data["replace"]
            )
            messages.success(
                self.request,
                _("%(count)s tables given to %(name)s.")
                % {"count": count, "name": referee.username},
            )
        return redirect("tournaments:assignments", slug=self.event.slug)
