"""Unit standings from the database: the team standings, read by the pure unit core."""

from __future__ import annotations

from collections import defaultdict

from tournaments.models import RankingAdjustment, Tournament
from tournaments.standings.service import standings_for
from tournaments.standings.units import TeamPlace, UnitRow, summable, unit_standings


def unit_moves(tournament: Tournament) -> dict[str, int]:
    """Places down per unit name, from active unit-scope ranking adjustments."""
    totals: dict[str, int] = defaultdict(int)
    rows = RankingAdjustment.objects.filter(
        tournament=tournament, cancelled_at__isnull=True, unit__isnull=False
    ).values_list("unit__name", "places")
    for unit, places in rows:
        totals[unit] += places
    return {unit: places for unit, places in totals.items() if places > 0}


def unit_keys(tournament: Tournament) -> list[str]:
    """The tiebreaks that add up over a unit's teams, in the preset's order."""
    return summable(tournament.get_preset().standings_order)


def unit_standings_for(tournament: Tournament, after_round: int | None = None) -> list[UnitRow]:
    preset = tournament.get_preset()
    places = [
        TeamPlace(row.team, row.unit, row.rank, row.points, row.metrics, row.active)
        for row in standings_for(tournament, after_round)
    ]
    moves = unit_moves(tournament)
    known = {place.unit for place in places if place.unit and place.active}
    return unit_standings(
        places,
        preset.standings_order,
        preset.unit_best_teams,
        {unit: places for unit, places in moves.items() if unit in known},
    )


def team_names(tournament: Tournament) -> dict[int, str]:
    return dict(tournament.teams.values_list("pk", "name"))
