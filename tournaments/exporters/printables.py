"""What the organiser prints before a round: table cards (桌签), team badges with their QR,
and the QR sheet of every table's private link (officials only)."""

from __future__ import annotations

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from tournaments.models import Round, TableKey

from .base import PDF, Exporter, ExportError, round_number
from .pdf import template_to_pdf
from .qr import public_url, qr_svg


class TableCardsPdf(Exporter):
    """One card a table of a round: the table number, large, and the two teams."""

    identifier = "table-cards-pdf"
    extension = "pdf"
    content_type = PDF

    def clean(self, round=None) -> dict:  # noqa: A002 - the URL parameter's name
        return {"round": round_number(round)}

    def name_parts(self) -> list[str]:
        return ["table-cards", f"r{self.params['round']}"]

    def render_bytes(self) -> bytes:
        rnd = Round.objects.filter(tournament=self.tournament, number=self.params["round"]).first()
        if rnd is None:
            raise ExportError(
                _("Round %(number)s does not exist.") % {"number": self.params["round"]}, "round"
            )
        matches = rnd.matches.exclude(away=None).select_related("home", "away")
        context = {"tournament": self.tournament, "round": rnd,
                   "matches": matches.order_by("table_number")}  # fmt: skip
        return template_to_pdf("pdf/table_cards.html", context, "printables.css")


class TeamBadgesPdf(Exporter):
    """A badge per active team: name, unit, players, a QR that opens its check-in and, once
    made, the captain's one-time login QR (services/accounts.captain_links)."""

    identifier = "team-badges-pdf"
    extension = "pdf"
    content_type = PDF

    def render_bytes(self) -> bytes:
        from tournaments.services.accounts import captain_links, link_path

        slug = self.tournament.slug
        teams = self.tournament.teams.filter(status="active").prefetch_related("players")
        logins = captain_links(self.tournament)  # the captain's one-time login, when ready
        badges = []
        for team in teams.select_related("unit").order_by("unit__name", "pk"):
            url = public_url(f"/t/{slug}/manage/checkin/team/{team.pk}/")
            badge = {"team": team, "url": url, "qr": mark_safe(qr_svg(url, box_size=4))}
            if team.pk in logins:
                login = public_url(link_path(logins[team.pk]))
                badge |= {"login_url": login, "login_qr": mark_safe(qr_svg(login, box_size=3))}
            badges.append(badge)
        context = {"tournament": self.tournament, "badges": badges}
        return template_to_pdf("pdf/team_badges.html", context, "printables.css")


class TableLinksPdf(Exporter):
    """The QR sheet: every table's live private link, to cut out and lay on the tables."""

    identifier = "table-links-pdf"
    extension = "pdf"
    content_type = PDF

    def render_bytes(self) -> bytes:
        keys = TableKey.objects.filter(tournament=self.tournament, revoked_at__isnull=True)
        links = []
        for key in keys.order_by("table_number"):
            url = public_url(f"/table/{key.key}/")
            links.append({"table": key.table_number, "url": url,
                          "qr": mark_safe(qr_svg(url, box_size=4))})  # fmt: skip
        if not links:
            raise ExportError(_("No table has a live link yet: issue the links first."))
        return template_to_pdf("pdf/table_links.html", {"tournament": self.tournament,
                                                        "links": links}, "printables.css")  # fmt: skip
