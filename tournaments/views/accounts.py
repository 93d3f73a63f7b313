"""Accounts without the admin (services/accounts.py): the organiser's accounts page (invite an
official by name, captain logins in bulk from the team list, a new link for a lost one), the
printable sheet of captain links with their QR, the team search of the roles page, and the
one-time link's own pages (log in, choose a password)."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.forms import SetPasswordForm
from django.contrib.auth.mixins import LoginRequiredMixin
from django.db.models import Prefetch
from django.http import JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.generic import FormView, TemplateView, View

from tournaments import glossary, tasks
from tournaments.exporters.qr import qr_svg
from tournaments.forms import InviteForm
from tournaments.models import EventRole, Player, Role, Team
from tournaments.services import accounts
from tournaments.services.audit import client_address
from tournaments.validation import whole_number

from .mixins import RoleRequiredMixin, ServiceErrorMixin

BACKEND = "config.auth.ModelBackend"
LINK_SESSION = "paisai_link_login"


class AccountsView(RoleRequiredMixin, FormView):
    """Invite an official; make captain logins for the selected teams; every live link."""

    template_name = "tournaments/accounts/index.html"
    action = "role.grant"
    form_class = InviteForm

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        teams = (
            Team.objects.filter(event=self.event)
            .order_by("seed", "name")
            .prefetch_related(Prefetch("players", queryset=Player.objects.order_by("seat_order")))
        )
        held = EventRole.objects.filter(event=self.event).select_related("user")
        captains = {r.team_id: r for r in held if r.role == Role.CAPTAIN}
        links = accounts.live_links(self.event)
        absolute = self.request.build_absolute_uri
        officials = []
        for role in held:
            if role.role == Role.CAPTAIN:
                continue
            link = links.get(role.user_id)
            officials.append(
                {
                    "role": role,
                    "url": absolute(accounts.link_path(link)) if link else "",
                    "link": link,
                }
            )
        rows = []
        for team in teams:
            role = captains.get(team.pk)
            link = links.get(role.user_id) if role else None
            rows.append(
                {
                    "team": team,
                    "captain": role,
                    "link": link,
                    "url": absolute(accounts.link_path(link)) if link else "",
                }
            )
        context.update(
            officials=officials,
            rows=rows,
            without=sum(1 for row in rows if row["captain"] is None),
            days=accounts.link_days(),
        )
        return context

    def form_valid(self, form):
        data = form.cleaned_data
        invitation = accounts.invite_official(
            self.event,
            self.request.user,
            data["name"],
            data["role"],
            client_address(self.request),
        )
        messages.success(
            self.request,
            _("%(name)s is invited. Give them the one-time link shown below (or its QR).")
            % {"name": invitation.user.get_full_name()},
        )
        return redirect(self.error_url() + f"#person-{invitation.user.pk}")

    def post(self, request, *args, **kwargs):
        action = request.POST.get("action", "invite")
        if action == "captains":
            job = accounts.create_captain_job(
                self.event, request.user, request.POST.getlist("team"), client_address(request)
            )
            tasks.start(job)
            return redirect("tournaments:job", self.event.slug, job.pk)
        if action == "reissue":
            role = get_object_or_404(EventRole, event=self.event, pk=_int(request.POST.get("role")))
            accounts.reissue(self.event, request.user, role, client_address(request))
            messages.success(
                request, _("A new one-time link is ready; the earlier one no longer works.")
            )
            return redirect(self.error_url() + f"#person-{role.user_id}")
        return super().post(request, *args, **kwargs)

    def error_url(self) -> str:
        return reverse("tournaments:accounts", args=[self.event.slug])


class CaptainLinksView(RoleRequiredMixin, TemplateView):
    """Every live captain link with its QR, a card per team, to print and hand out."""

    template_name = "tournaments/accounts/captains.html"
    action = "role.grant"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        links = accounts.captain_links(self.event)
        teams = Team.objects.filter(pk__in=links).order_by("seed", "name")
        cards = []
        for team in teams:
            url = self.request.build_absolute_uri(accounts.link_path(links[team.pk]))
            cards.append(
                {
                    "team": team,
                    "url": url,
                    "link": links[team.pk],
                    "qr": mark_safe(qr_svg(url, box_size=4)),
                }
            )
        context["cards"] = cards
        return context


class TeamSearchView(RoleRequiredMixin, View):
    """``?q=`` → the teams it names (the roles page's suggestions):
    ``{"teams": [{"id", "name", "number", "label"}]}``."""

    action = "role.grant"

    def get(self, request, *args, **kwargs):
        found = accounts.search_teams(self.event, request.GET.get("q", ""))
        return JsonResponse(
            {
                "teams": [
                    {
                        "id": t.pk,
                        "name": t.name,
                        "number": t.seed,
                        "label": f"{t.name} · {t.seed}" if t.seed else t.name,
                    }
                    for t in found
                ]
            }
        )


class LoginLinkView(ServiceErrorMixin, TemplateView):
    """A one-time login link: GET shows whose it is and asks for a tap (a link previewer or a
    scanner that opens it does not spend it); POST logs in (or, for someone logged in
    already, takes the role into their account) and goes on to choose a password."""

    template_name = "tournaments/accounts/link.html"

    def get(self, request, *args, **kwargs):
        link = accounts.find_link(kwargs["key"])
        if link is None:
            return render(
                request,
                "errors/refused.html",
                {"message": accounts.REFUSED, "status": 410},
                status=410,
            )
        other = request.user.is_authenticated and request.user.pk != link.user_id
        return self.render_to_response({"link": link, "event": link.event, "other": other})

    def post(self, request, *args, **kwargs):
        keep = request.POST.get("keep") == "1" and request.user.is_authenticated
        link = accounts.use_link(
            kwargs["key"], request.user if keep else None, client_address(request)
        )
        if not keep:
            login(request, link.user, backend=BACKEND)
            request.session[LINK_SESSION] = True
        if not link.user.has_usable_password():
            return redirect("tournaments:set-password")
        messages.success(request, _("Welcome. Your homes are listed below."))
        return redirect("tournaments:home")


class SetPasswordView(LoginRequiredMixin, FormView):
    """Choose a password after a one-time link (no old password asked: the link was it)."""

    template_name = "tournaments/accounts/set_password.html"
    form_class = SetPasswordForm

    def dispatch(self, request, *args, **kwargs):
        if request.user.is_authenticated and not (
            request.session.get(LINK_SESSION) or not request.user.has_usable_password()
        ):
            return redirect(
                "password_change" if _has_url("password_change") else "tournaments:home"
            )
        return super().dispatch(request, *args, **kwargs)

    def get_form_kwargs(self):
        return {**super().get_form_kwargs(), "user": self.request.user}

    def form_valid(self, form):
        user = form.save()
        update_session_auth_hash(self.request, user)
        self.request.session.pop(LINK_SESSION, None)
        messages.success(
            self.request,
            _("Password saved. Your login is %(username)s.") % {"username": user.get_username()},
        )
        return redirect("tournaments:home")


def _has_url(name: str) -> bool:
    from django.urls import NoReverseMatch

    try:
        reverse(name)
    except NoReverseMatch:
        return False
    return True


def _int(value) -> int:
    return whole_number(value) or 0


class InvitationsView(LoginRequiredMixin, TemplateView):
    """The roles organisers offer the logged-in account (issue 39: never given without its
    consent): accept or decline each."""

    template_name = "tournaments/accounts/invitations.html"

    def get_context_data(self, **kwargs):
        context = super().get_context_data(**kwargs)
        invitations = list(accounts.open_invitations(self.request.user))
        for invitation in invitations:
            invitation.role_label = glossary.word(glossary.ROLES, invitation.role)
            by = invitation.invited_by
            invitation.by_name = (by.get_full_name() or by.get_username()) if by else "–"
        context["invitations"] = invitations
        return context


class InvitationAnswerView(LoginRequiredMixin, ServiceErrorMixin, View):
    """POST ``answer=accept`` or ``decline``: the account's own answer (another's invitation:
    404)."""

    def error_url(self) -> str:
        return reverse("tournaments:invitations")

    def post(self, request, pk):
        accept = request.POST.get("answer") == "accept"
        invitation = accounts.answer_invitation(request.user, pk, accept, client_address(request))
        if accept:
            messages.success(
                request,
                _("You now hold the role in %(event)s.") % {"event": invitation.event.name},
            )
        else:
            messages.info(request, _("Invitation declined."))
        return redirect("tournaments:invitations")
