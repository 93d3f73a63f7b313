"""The rules desk: a referee asks the rules engine about a play and may attach the ruling to
an incident as evidence."""

from __future__ import annotations

import json

from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _
from django.views.generic import FormView

from arbitration.forms import DeskForm
from arbitration.models import Incident
from arbitration.services import desk, incidents
from tournaments.services import offline
from tournaments.validation import whole_number

from .base import ArbitrationView

OFFLINE_WORDS = {  # the words desk_offline.js draws a ruling with
    "legal": gettext_lazy("Legal"),
    "illegal": gettext_lazy("Illegal"),
    "bad_request": gettext_lazy("Bad request"),
    "legal_plays": gettext_lazy("Legal plays"),
    "answer": gettext_lazy("Answer"),
    "penalty": gettext_lazy("Failed throw penalty"),
    "forced": gettext_lazy("forced play"),
    "details": gettext_lazy("Details"),
    "small_joker": gettext_lazy("Small joker"),
    "big_joker": gettext_lazy("Big joker"),
    "n_legal_plays": gettext_lazy("Legal plays: %s"),
    "replay": gettext_lazy("%t tricks played; the defenders took %p points in tricks."),
    "offline_note": gettext_lazy(
        "No network: answered by this phone's rules engine (the same rules as the server's)."
    ),
    "engine_failed": gettext_lazy(
        "This phone's rules engine could not answer; try again with a network."
    ),
}


class DeskView(ArbitrationView, FormView):
    template_name = "arbitration/desk.html"
    form_class = DeskForm
    action = "desk.use"

    def get_initial(self):
        return {"game": self.event.game, "action": "check"}

    def incident(self) -> Incident | None:
        pk = self.request.POST.get("incident") or self.request.GET.get("incident")
        pk = whole_number(pk)
        if pk is None:
            return None
        return Incident.objects.filter(pk=pk, event=self.event).first()

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        context["incident"] = self.incident()
        context["picker"] = desk.picker()
        # with no network the phone's own rules engine answers (static/js/desk_offline.js)
        context["offline"] = offline.page_config({}, get_language())
        context["offline_words"] = {name: str(text) for name, text in OFFLINE_WORDS.items()}
        return context

    def form_valid(self, form):
        action, request = desk.build_request(form.cleaned_data)
        answer = desk.ask(action, request)
        incident = self.incident()
        if incident is not None and "attach" in self.request.POST:
            incidents.attach_evidence(incident, self.request.user, action, request, answer)
            messages.success(self.request, _("The ruling is attached to the incident."))
            return redirect(reverse("arbitration:incident", args=[self.event.slug, incident.pk]))
        return self.render_to_response(
            self.get_context_data(
                form=form,
                action=action,
                request_json=json.dumps(request, ensure_ascii=False),
                answer=answer,
                summary=desk.summary(
                    answer, request.get("game") if isinstance(request, dict) else None
                ),
                answer_json=json.dumps(answer, ensure_ascii=False, indent=2),
            )
        )
