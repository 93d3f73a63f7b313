"""A staged event (Swiss into knockout) for the one-ranking tests (issue 35): 12 teams
checked in (and one registered that never checks in), 3 Swiss rounds, the top 8 into a
one-game knockout with a third-place match. The quarter-finals are won by the better seed
by fewer levels the lower the loser's seed, so that the losers' summed points run against
their places (the knockout ranks them by the Swiss, knockout_places "earlier_stage")."""

from __future__ import annotations

from types import SimpleNamespace

from tests import factories
from tournaments.models import Round, Team
from tournaments.services import (
    checkin,
    event_settings,
    round_close,
    rounds,
    stage_rounds,
    stages,
)

UP = {
    1: {"finish": ["E", "N", "W", "S"]},  # EW (home) up 1 level
    2: {"finish": ["E", "S", "W", "N"]},  # up 2
    3: {"finish": ["E", "W", "S", "N"]},  # up 3
}
NS_UP1 = {"finish": ["S", "E", "W", "N"]}  # NS (away) up 1 level
NAMES = [f"T{i:02d}" for i in range(1, 13)]
ABSENT = "T13"  # registered, never checked in, never played


def play(rnd, deals_of):
    who = factories.organiser_of(rnd.event)
    rnd = rounds.publish(rnd, who, confirm_reason="accepted by the test")
    for match in rnd.matches.exclude(away=None).order_by("table_number"):
        factories.result(match, deals=[deals_of(match)])
    return round_close.finalise(rnd, factories.chief_of(rnd.event))


def staged_event(knockout_places: str = "earlier_stage", absent: bool = True) -> SimpleNamespace:
    """The event with its knockout played; ``knockout_places`` the event setting ("shared":
    the quarter-final losers share 5th)."""
    event = factories.event(teams=0, name="Staged Open", slug="staged-open-35")
    for index, name in enumerate(NAMES + ([ABSENT] if absent else []), start=1):
        factories.team(event, name, unit=f"U{index}", seed=index)
    teams = {t.name: t for t in Team.objects.filter(event=event)}
    who = factories.organiser_of(event)
    event_settings.update_settings(event, who, {"settings": {"knockout_places": knockout_places}})
    swiss = factories.stage(event, name="Swiss", num_rounds=3)
    knockout = factories.stage(
        event,
        name="KO",
        kind="knockout",
        entrants="qualified",
        qualify_top=8,
        sources=[swiss],
        third_place=True,
        match_format={"end": "deals", "deals": 1},
    )
    checkin.check_in([teams[name] for name in NAMES], who)
    for _ in range(3):
        factories.play_stage_round(swiss)
    factories.settle_cut_lots(knockout, seed=3)
    quarter = stage_rounds.draw_round(knockout, who)
    seeded = stages.section_teams(knockout.sections.get())

    def quarter_deal(match):  # seed 5 loses by 3 levels, 6 by 2, 7 and 8 by 1
        loser_seed = seeded.index(match.away_id) + 1
        return UP[{5: 3, 6: 2}.get(loser_seed, 1)]

    play(quarter, quarter_deal)
    semi = Round.objects.get(stage=knockout, status=Round.Status.DRAFT)
    play(semi, lambda m: UP[3])
    last = Round.objects.get(stage=knockout, status=Round.Status.DRAFT)
    last = play(last, lambda m: NS_UP1)
    return SimpleNamespace(
        event=event,
        swiss=swiss,
        knockout=knockout,
        teams=teams,
        seeded=seeded,
        quarter=quarter,
        last=last,
        organiser=who,
        chief=factories.chief_of(event),
    )
