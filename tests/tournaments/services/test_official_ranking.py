"""One official ranking for an event in stages (issue 25): Swiss → best-of-three knockout
with a third-place match, a tie at the seeding cut decided by lots, a late check-in. The
public page, the xlsx sheet 最终, the standings PDF, the API, the prize list and the
certificates read the same list, and its top four are the knockout's places."""

from __future__ import annotations

import re

import pytest
from django.utils import translation

from tests import factories
from tests.readers import pdf_pages, pdf_text, workbook
from tournaments.exporters import exports
from tournaments.exporters.prizes import prize_list
from tournaments.models import Round, Team
from tournaments.services import (
    checkin,
    events,
    lots,
    prizes,
    result_entry,
    results,
    round_close,
    rounds,
    stage_rounds,
    stage_standings,
)
from tournaments.services.lots import LotsError

pytestmark = pytest.mark.django_db

UP3 = {"finish": ["E", "W", "S", "N"]}  # EW (home) up 3 levels
NS_UP1 = {"finish": ["S", "E", "W", "N"]}  # NS (away) up 1 level
NAMES = [f"T{i:02d}" for i in range(1, 10)]


def names_in(text: str) -> list[str]:
    """The team names in the order a text shows them (a name repeated at once, e.g. in the
    players' column, counts once)."""
    found = []
    for name in re.findall(r"\bT0\d\b", text):
        if not found or found[-1] != name:
            found.append(name)
    return found


def best_of_three(match, games):
    chief = factories.chief_of(match.round.event)
    actor = results.Actor(chief, None, "web", "")
    record = {"game": "guandan", "games": [{"deals": [deal]} for deal in games]}
    return result_entry.submit(match, record, actor, 0, confirm=True)


def play_knockout_round(stage, games_of):
    who = factories.organiser_of(stage.event)
    rnd = Round.objects.get(stage=stage, status=Round.Status.DRAFT)
    rnd = rounds.publish(rnd, who, confirm_reason="test")
    for match in rnd.matches.exclude(away=None):
        best_of_three(match, games_of(match))
    return round_close.finalise(rnd, factories.chief_of(stage.event))


@pytest.fixture
def staged():
    event = factories.event(teams=0, name="Staged Open", slug="staged-open")
    for index, name in enumerate(NAMES, start=1):
        factories.team(event, name, unit=f"U{index}", seed=index)
    teams = {t.name: t for t in Team.objects.filter(event=event)}
    who = factories.organiser_of(event)
    swiss = factories.stage(event, name="Swiss", num_rounds=3)
    knockout = factories.stage(
        event,
        name="KO",
        kind="knockout",
        entrants="qualified",
        qualify_top=4,
        sources=[swiss],
        third_place=True,
        match_format={"end": "deals", "deals": 1, "games": 3},
    )
    checkin.check_in([teams[name] for name in NAMES[:8]], who)
    factories.play_stage_round(swiss)
    checkin.check_in([teams["T09"]], who)  # late: joins the Swiss from round 2
    r2 = factories.play_stage_round(swiss)
    r3 = factories.play_stage_round(swiss)
    return event, swiss, knockout, teams, (r2, r3)


def test_a_late_check_in_joins_the_current_stage_from_the_next_round(staged):
    event, swiss, _knockout, teams, played = staged
    late = teams["T09"]
    for rnd in played:
        assert rnd.matches.filter(home=late).exists() or rnd.matches.filter(away=late).exists()
    assert swiss.entries.filter(team=late).exists()


def test_the_final_ranking_is_one_list_everywhere(staged, client, api):
    event, swiss, knockout, teams, _ = staged
    who = factories.organiser_of(event)
    # the seeding cut waits for lots when qualifiers share a place
    ties = lots.stage_cut_ties(knockout)
    assert ties, "the scenario has a tie at the seeding cut"
    while ties:
        with pytest.raises(LotsError) as refused:
            stage_rounds.draw_round(knockout, who)
        assert all(name in refused.value.message for name in ties[0].names)
        lots.draw_cut(event, factories.chief_of(event), ties[0].teams, seed=7)
        ties = lots.stage_cut_ties(knockout)
    stage_rounds.draw_round(knockout, who)
    # semi-finals: the home side (better seed) wins 2:1
    play_knockout_round(knockout, lambda m: [UP3, NS_UP1, UP3])
    # final and third-place match: the away side wins 2:0
    play_knockout_round(knockout, lambda m: [NS_UP1, NS_UP1])
    events.finish(event, who)
    event.refresh_from_db()

    official = [row.name for row in stage_standings.event_ranking(event)]
    assert len(official) == 9

    # the knockout's places are the top four
    ko_groups = stage_standings.stage_groups(knockout)
    ko_names = {t.pk: t.name for t in teams.values()}
    assert official[:4] == [ko_names[g[0]] for g in ko_groups[:4]]

    page = client.get(f"/t/{event.slug}/standings/").content.decode()
    shown = [ko_names[int(pk)] for pk in re.findall(r'<tr data-team="(\d+)"', page)]
    assert shown == official

    client.force_login(who)
    # the files as their jobs make them (services/exports.render_now: the job's own code)
    with translation.override("zh-hans"):
        sheet = workbook(exports.render_now(event, "standings-xlsx").data)
    final_sheet = sheet.worksheets[-1]
    assert final_sheet.title == "最终"
    names_in_sheet = [
        row[1] for row in final_sheet.iter_rows(values_only=True) if row[1] in ko_names.values()
    ]
    assert names_in_sheet == official

    text = pdf_text(exports.render_now(event, "standings-pdf").data)
    assert names_in(text) == official

    body = api.get(f"/api/tournaments/{event.slug}/ranking/").json()
    assert [row["name"] for row in body] == official

    prizes.set_awards(event, who, "冠军 1\n亚军 2\n季军 3\n第四名 4")
    listed = [p.team for p in prize_list(event)]
    assert listed == official[:4]
    prize_text = pdf_text(exports.render_now(event, "prizes-pdf").data)
    assert names_in(prize_text) == official[:4]
    pages = pdf_pages(exports.render_now(event, "certificates-pdf").data)
    assert [names_in(page)[0] for page in pages] == official[:4]
