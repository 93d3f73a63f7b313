"""The prize list and the certificates: the final ranking with the event's awards (PDF).

Awards are the event's own list (``Event.awards``), one a line, a name and the places
it covers (“冠军 1”, “一等奖 2-4”); without one, the champion, runner-up and third place.
Places follow the final standings (for an event in stages, the stages' final ranking); teams sharing a place share its award.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.errors import ExportError
from tournaments.rules_line import rules_line
from tournaments.services import stage_standings
from tournaments.services.awards import default_awards, parse_awards

from .base import PDF, Exporter
from .pdf import template_to_pdf


@dataclass(frozen=True)
class Prize:
    award: str
    rank: int
    team: str
    unit: str
    players: str
    points: float
    stage: str = ""  # an event in stages: the stage whose ranking placed the team


def prize_list(event, waiting: list | None = None) -> list[Prize]:
    """Every team with an award, by final rank (active teams only). Refused while teams
    are tied across a prize band's line (services.lots: the chief draws lots first); with
    ``waiting`` (a list) the ties are put in it instead and their teams get no award yet
    (the provisional prize list names them as waiting for lots)."""
    from tournaments.services import lots

    ties = lots.prize_cut_ties(event)
    held = {team for tie in ties for team in tie.teams}
    if ties and waiting is not None:
        waiting.extend(ties)
    elif ties:
        raise ExportError(
            _(
                "The prize list waits for lots (SPEC §3): %(ties)s. The chief referee or the "
                "organiser draws them on the standings page."
            ),
            "lots",
            ties="; ".join(tie.text for tie in ties),
        )
    awards = parse_awards(event.awards) or default_awards()
    players = {
        team.pk: " · ".join(p.name for p in team.players.all())
        for team in event.teams.prefetch_related("players")
    }
    prizes = []
    for rank, row in final_places(event):
        if not row.active or row.absent or row.team in held:
            continue
        award = next((a for a in awards if a.first <= rank <= a.last), None)
        if award is not None:
            points = int(row.points) if float(row.points).is_integer() else row.points
            prizes.append(
                Prize(
                    award.name,
                    rank,
                    row.name,
                    row.unit,
                    players.get(row.team, ""),
                    points,
                    row.stage,
                )
            )
    return prizes


def is_final(event) -> bool:
    """The places are final once the organiser has finished the event (every round
    finalised, results frozen: services.events.finish)."""
    return event.status == event.Status.FINISHED


def final_places(event) -> list[tuple[int, object]]:
    """(final place, standings row) of every ranked team, in the event's official ranking
    (services.stage_standings.official_standings: for an event in stages the knockout's
    winner first, whatever the points)."""
    return [(row.rank, row) for row in stage_standings.official_standings(event) if not row.absent]


class PrizeListPdf(Exporter):
    identifier = "prizes-pdf"
    extension = "pdf"
    content_type = PDF

    def render_bytes(self) -> bytes:
        waiting: list = []
        context = {
            "event": self.event,
            "prizes": prize_list(self.event, waiting),
            "waiting": waiting,
            # an event in stages ranks by its stages, not by points: the column names the
            # stage that placed each team instead of event totals
            "staged": self.event.stages.exists(),
            "provisional": not is_final(self.event),
            "today": timezone.localdate(),
            "rules_line": rules_line(self.event),
        }
        return template_to_pdf("pdf/prizes.html", context, "prizes.css")


class CertificatesPdf(Exporter):
    identifier = "certificates-pdf"
    extension = "pdf"
    content_type = PDF

    def check(self) -> None:
        """Refused at once, where the organiser asked, until the event is finished."""
        if not is_final(self.event):
            self.render_bytes()  # raises the refusal

    def render_bytes(self) -> bytes:
        if not is_final(self.event):
            raise ExportError(
                _(
                    "Certificates are printed once the event is finished: until then the "
                    "places may still change (a knockout still in play ranks every team left "
                    "in it together). Finish the event on its status page first."
                )
            )
        prizes = prize_list(self.event)
        if not prizes:
            raise ExportError(_("No team has an award yet: the standings are empty."))
        context = {"event": self.event, "prizes": prizes, "today": timezone.localdate()}
        return template_to_pdf("pdf/certificates.html", context, "prizes.css")
