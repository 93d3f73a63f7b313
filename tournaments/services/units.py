"""Unit standings from the database: the team standings, read by the pure unit core."""

from __future__ import annotations

from collections import defaultdict

from tournaments.models import Event, RankingAdjustment
from tournaments.standings.service import standings_for
from tournaments.standings.units import TeamPlace, UnitRow, summable, unit_standings


def unit_moves(event: Event) -> dict[str, int]:
    """Places down per unit name, from active unit-scope ranking adjustments."""
    totals: dict[str, int] = defaultdict(int)
    rows = RankingAdjustment.objects.filter(
        event=event, cancelled_at__isnull=True, unit__isnull=False
    ).values_list("unit__name", "places")
    for unit, places in rows:
        totals[unit] += places
    return {unit: places for unit, places in totals.items() if places > 0}


def unit_keys(event: Event) -> list[str]:
    """The tiebreaks that add up over a unit's teams, in the preset's order."""
    return summable(event.get_preset().standings_order)


def unit_standings_for(event: Event, after_round: int | None = None) -> list[UnitRow]:
    preset = event.get_preset()
    places = [
        TeamPlace(row.team, row.unit, row.rank, row.points, row.metrics, row.active)
        for row in standings_for(event, after_round)
    ]
    moves = unit_moves(event)
    known = {place.unit for place in places if place.unit and place.active}
    return unit_standings(
        places,
        preset.standings_order,
        preset.unit_best_teams,
        {unit: places for unit, places in moves.items() if unit in known},
    )


def team_names(event: Event) -> dict[int, str]:
    return dict(event.teams.values_list("pk", "name"))
