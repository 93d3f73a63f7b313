"""Drawing lots (抽签) among teams still tied on every other tiebreak (SPEC 3).

The chief referee (or the organiser) asks for a draw from the standings page; the system
draws the order from a recorded random seed (:func:`tournaments.standings.core.draw_lots`),
stores who drew, when, which teams, the order and the seed (:class:`LotDraw`), logs it, and
the standings then rank those teams by the drawn order.
"""

from __future__ import annotations

import secrets

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from tournaments.errors import ServiceError
from tournaments.models import LotDraw, Round, Team, Tournament
from tournaments.permissions import require
from tournaments.standings.core import draw_lots
from tournaments.standings.service import invalidate, standings_for

from .audit import log_action
from .events import require_not_finished


class LotsError(ServiceError):
    """A draw of lots refused (no tie, lots not in the standings order)."""


def latest_counted_round(tournament: Tournament) -> int | None:
    return (
        tournament.rounds.exclude(status=Round.Status.DRAFT)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )


def tied_groups(tournament: Tournament, after_round: int | None = None) -> list[list]:
    """The groups of active teams still sharing a rank (the rows of each), best first."""
    groups: dict[int, list] = {}
    for row in standings_for(tournament, after_round=after_round):
        if row.shared and row.active:
            groups.setdefault(row.rank, []).append(row)
    return [rows for rows in groups.values() if len(rows) > 1]


def may_draw(tournament: Tournament) -> bool:
    return "draw_lots" in tournament.get_preset().standings_order


def draw_tie(
    tournament: Tournament, user, rank: int, seed: int | None = None, source: str = ""
) -> LotDraw:
    """Draw lots among the active teams sharing ``rank`` in the latest standings: their order
    from ``seed`` (a fresh random one by default), recorded and logged."""
    require(user, tournament, "standings.draw_lots")
    if not may_draw(tournament):
        raise LotsError(
            _("This event's standings order does not end in drawing lots (%(preset)s)."),
            "rank",
            preset=tournament.preset,
        )
    require_not_finished(tournament)
    after = latest_counted_round(tournament)
    with transaction.atomic():
        Tournament.objects.select_for_update().filter(pk=tournament.pk).first()
        group = next((rows for rows in tied_groups(tournament, after) if rows[0].rank == rank),
                     None)  # fmt: skip
        if group is None:
            raise LotsError(
                _("No teams are tied at rank %(rank)s any more: there is nothing to draw."),
                "rank",
                rank=rank,
            )
        if seed is None:
            seed = secrets.randbelow(2**31)
        lots, record = draw_lots([row.team for row in group], seed)
        names = dict(Team.objects.filter(pk__in=lots).values_list("pk", "name"))
        draw = LotDraw.objects.create(
            tournament=tournament,
            after_round=after,
            teams=sorted(lots),
            order=record["order"],
            names=[names[team] for team in record["order"]],
            seed=seed,
            method=record["method"],
            drawn_by=user if user.is_authenticated else None,
            drawn_by_name=user.get_username() if user.is_authenticated else "",
        )
        log_action(
            tournament,
            user,
            "standings.draw_lots",
            draw,
            {
                "rank": rank,
                "after_round": after,
                "teams": sorted(lots),
                "order": record["order"],
                "names": draw.names,
                "seed": seed,
                "method": record["method"],
            },
            source=source,
        )
        invalidate(tournament)
    return draw
