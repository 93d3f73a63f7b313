"""Drawing lots (抽签): a recorded draw among teams still tied on every other tiebreak
(SPEC 3). The order is drawn from a recorded seed, so anyone can reproduce it."""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.freshness import PublicManager

from .events import Event


class LotDraw(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="lot_draws")
    # the counted round the tie was drawn after (None: before any round counted)
    after_round = models.PositiveSmallIntegerField(_("after round"), null=True, blank=True)
    teams = models.JSONField(_("teams"), help_text=_("The tied teams' ids, ascending."))
    order = models.JSONField(
        _("order"), help_text=_("The drawn order of the team ids, first first.")
    )
    names = models.JSONField(
        _("team names"), default=list, help_text=_("The drawn order, by name.")
    )
    seed = models.BigIntegerField(_("seed"))
    method = models.CharField(_("method"), max_length=200)
    drawn_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    drawn_by_name = models.CharField(_("drawn by"), max_length=150, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"), auto_now_add=True)

    # public answers read its rows: every write moves the event's revision (freshness)
    objects = PublicManager()
    event_path = "event"

    class Meta:
        ordering = ["event", "drawn_at", "pk"]
        verbose_name = _("draw of lots")
        verbose_name_plural = _("draws of lots")

    def __str__(self) -> str:
        return f"{self.event} · {' > '.join(self.names)}"
