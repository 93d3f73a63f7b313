"""One-time login links: how an invited official or a team captain logs in the first time
(services/accounts.py). A link is used once and expires; the key is kept like a table key's
(random, 192 bits) so that a captain's link can be printed again on the team badge until used."""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from .events import Event, Team


def new_login_key() -> str:
    return secrets.token_urlsafe(24)


class LoginLink(models.Model):
    class Purpose(models.TextChoices):
        OFFICIAL = "official", _("Invited official")
        CAPTAIN = "captain", _("Team captain")

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="login_links")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="login_links"
    )
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="login_links"
    )
    purpose = models.CharField(max_length=20, choices=Purpose.choices)
    key = models.CharField(max_length=64, unique=True, default=new_login_key, editable=False)
    created_by_name = models.CharField(max_length=150, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "-created_at"]
        verbose_name = _("one-time login link")
        verbose_name_plural = _("one-time login links")
        indexes = [models.Index(fields=["event", "team"], name="login_link_team")]

    def __str__(self) -> str:
        return f"{self.event_id}:{self.user_id}:{self.purpose}"


class RoleInvitation(models.Model):
    """A role offered to an account outside the event (issue 39): it is given only when the
    account accepts (``accepted``), never by the organiser alone."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="role_invitations")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="role_invitations"
    )
    role = models.CharField(max_length=20)
    team = models.ForeignKey(
        Team, null=True, blank=True, on_delete=models.CASCADE, related_name="role_invitations"
    )
    invited_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
    answered_at = models.DateTimeField(null=True, blank=True)
    accepted = models.BooleanField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        verbose_name = _("role invitation")
        verbose_name_plural = _("role invitations")
        indexes = [models.Index(fields=["user", "answered_at"], name="role_invitation_open")]

    def __str__(self) -> str:
        return f"{self.event_id}:{self.user_id}:{self.role}"
