"""Lots at cut lines (issue 25, SPEC §3 draw lots): a tie across a qualification line, a
knockout seeding or a prize band holds the next stage's draw (or the prize list) until the
chief referee draws lots among exactly the tied teams; the draw is recorded and decides."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.errors import ExportError
from tournaments.exporters.prizes import prize_list
from tournaments.models import AuditLog, LotDraw
from tournaments.services import lots, prizes, stage_rounds, stage_standings, stages

pytestmark = pytest.mark.django_db


def event_after_one_round(qualify_top: int, kind: str = "knockout"):
    """Six teams, one Swiss round won 3 levels up at every table: the three winners are
    equal on every tiebreak, and so are the three losers."""
    event = factories.event(teams=6)
    swiss = factories.stage(event, name="Swiss", num_rounds=1)
    fields = {"third_place": False} if kind == "knockout" else {"num_rounds": 1}
    nxt = factories.stage(
        event,
        name="Next",
        kind=kind,
        entrants="qualified",
        qualify_top=qualify_top,
        sources=[swiss],
        **fields,
    )
    factories.play_stage_round(swiss)
    return event, swiss, nxt


def winners(swiss):
    return set(stage_standings.section_groups(swiss.sections.get())[0])


@pytest.mark.parametrize("kind", ["knockout", "swiss"])
def test_a_tie_across_the_qualification_line_holds_the_draw_until_lots(kind):
    event, swiss, nxt = event_after_one_round(2, kind)
    ties = lots.stage_cut_ties(nxt)
    assert [(t.kind, t.cut, set(t.teams)) for t in ties] == [
        (lots.QUALIFICATION, 2, winners(swiss))
    ]
    who = factories.organiser_of(event)
    with pytest.raises(lots.LotsError) as held:
        stage_rounds.draw_round(nxt, who)
    assert all(name in held.value.message for name in ties[0].names)
    assert not nxt.entries.exists()
    draw = lots.draw_cut(event, factories.chief_of(event), ties[0].teams, seed=11)
    assert lots.stage_cut_ties(nxt) == []
    stage_rounds.draw_round(nxt, who)
    assert set(stages.section_teams(nxt.sections.get())) == set(draw.order[:2])
    entry = AuditLog.objects.get(action="standings.draw_lots")
    assert entry.data["cut"] == lots.QUALIFICATION and entry.data["seed"] == 11


def test_a_tie_inside_the_qualifiers_holds_the_knockout_seeding():
    event, swiss, knockout = event_after_one_round(3)
    ties = lots.stage_cut_ties(knockout)
    assert [(t.kind, set(t.teams)) for t in ties] == [(lots.SEEDING, winners(swiss))]
    draw = lots.draw_cut(event, factories.chief_of(event), ties[0].teams, seed=5)
    stage_rounds.draw_round(knockout, factories.organiser_of(event))
    assert stages.section_teams(knockout.sections.get()) == draw.order  # seeded by the lots


def test_a_swiss_after_a_swiss_without_a_tie_at_its_line_does_not_wait():
    event, swiss, nxt = event_after_one_round(3, "swiss")
    assert lots.stage_cut_ties(nxt) == []  # the line falls between the winners and losers


def test_lots_are_drawn_only_among_exactly_a_tied_group():
    event, swiss, knockout = event_after_one_round(2)
    two = sorted(winners(swiss))[:2]
    with pytest.raises(lots.LotsError) as refused:
        lots.draw_cut(event, factories.chief_of(event), two)
    assert refused.value.field == "teams" and not LotDraw.objects.exists()


def test_a_prize_band_across_a_tie_holds_the_prize_list():
    event = factories.event(teams=6)
    factories.stage(event, name="Swiss", num_rounds=1)
    factories.play_stage_round(event.stages.get())
    prizes.set_awards(event, factories.organiser_of(event), "一等奖 1-2\n二等奖 3-4")
    with pytest.raises(ExportError) as held:
        prize_list(event)
    tie = lots.prize_cut_ties(event)
    assert [t.kind for t in tie] == [lots.PRIZE, lots.PRIZE]  # at places 2 and 4
    assert all(name in held.value.message for t in tie for name in t.names)
    for each in tie:
        lots.draw_cut(event, factories.chief_of(event), each.teams, seed=2)
    listed = prize_list(event)
    assert [p.award for p in listed] == ["一等奖", "一等奖", "二等奖", "二等奖"]


def test_the_standings_page_names_the_cut_tie_and_draws_its_lots(client):
    event, swiss, knockout = event_after_one_round(2)
    client.force_login(factories.chief_of(event))
    page = client.get(f"/t/{event.slug}/manage/standings/").content.decode()
    assert 'id="cut-ties"' in page and 'data-cut="qualification"' in page
    teams = lots.stage_cut_ties(knockout)[0].teams
    answer = client.post(
        f"/t/{event.slug}/manage/standings/draw-cut-lots/", {"team": [str(t) for t in teams]}
    )
    assert answer.status_code == 302 and LotDraw.objects.count() == 1
    assert 'id="cut-ties"' not in client.get(f"/t/{event.slug}/manage/standings/").content.decode()
