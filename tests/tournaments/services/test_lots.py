"""Drawing lots (抽签, SPEC 3): a real recorded draw among teams still tied, by the chief
referee or the organiser; the standings then rank the tied teams by the drawn order."""

import pytest

from tests import factories
from tournaments.errors import Forbidden
from tournaments.models import AuditLog, LotDraw, Team
from tournaments.services import lots
from tournaments.services.lots import LotsError
from tournaments.standings.core import draw_lots
from tournaments.standings.service import standings_for


@pytest.fixture
def tied_event(make_event):
    """Four teams after round 1: the two home teams won by three levels (tied first), the two
    away teams lost (tied third); head-to-head cannot separate teams that never met."""
    event = make_event(teams=4)
    a, b, c, d = Team.objects.filter(event=event).order_by("name")
    factories.played_round(event, 1, [(a, b), (c, d)])
    return event, (a, b, c, d)


def test_draw_lots_is_recorded_and_breaks_the_remaining_tie(tied_event):
    event, (a, _, c, _) = tied_event
    chief = factories.chief_of(event)
    before = standings_for(event)
    assert [(row.rank, row.shared) for row in before[:2]] == [(1, True), (1, True)]
    draw = lots.draw_tie(event, chief, rank=1, seed=2026)
    expected, _ = draw_lots([a.pk, c.pk], 2026)
    assert draw.teams == sorted([a.pk, c.pk]) and draw.seed == 2026
    assert draw.order == sorted(expected, key=expected.get)
    assert draw.drawn_by == chief and draw.drawn_by_name == chief.username
    assert draw.after_round == 1 and draw.drawn_at is not None
    after = standings_for(event)
    assert [(row.team, row.rank, row.shared) for row in after[:2]] == [
        (draw.order[0], 1, False),
        (draw.order[1], 2, False),
    ]
    assert after[2].shared  # the tie for third stays until it is drawn too
    entry = AuditLog.objects.get(event=event, action="standings.draw_lots")
    assert entry.actor_name == chief.username and entry.data["seed"] == 2026
    assert entry.data["order"] == draw.order and entry.data["names"] == draw.names


def test_draw_lots_without_a_seed_records_a_fresh_one(tied_event, make_user, grant):
    event, _ = tied_event
    organiser = make_user()
    grant(organiser, event, "organiser")
    draw = lots.draw_tie(event, organiser, rank=3)
    assert isinstance(draw.seed, int)
    assert LotDraw.objects.filter(event=event).count() == 1


def test_draw_lots_refused_when_the_teams_are_no_longer_tied(tied_event):
    event, _ = tied_event
    chief = factories.chief_of(event)
    lots.draw_tie(event, chief, rank=1, seed=1)
    with pytest.raises(LotsError, match="No teams are tied at rank 1"):
        lots.draw_tie(event, chief, rank=1, seed=2)
    assert LotDraw.objects.filter(event=event).count() == 1


def test_draw_lots_refused_when_the_standings_order_has_no_lots(make_event):
    event = make_event(teams=4, game="tractor")  # no round yet: all tied
    with pytest.raises(LotsError, match="does not end in drawing lots"):
        lots.draw_tie(event, factories.chief_of(event), rank=1, seed=1)


def test_draw_lots_only_by_the_chief_referee_or_the_organiser(tied_event, make_user, grant):
    event, _ = tied_event
    referee = make_user()
    grant(referee, event, "table_referee", tables=[1])
    with pytest.raises(Forbidden):
        lots.draw_tie(event, referee, rank=1, seed=1)
    assert not LotDraw.objects.exists()
