"""Counts and labels of a staged event (issue 25): rounds counted per stage (done / planned,
also before a stage is drawn); the final and the third-place match named on the pairings,
the projector, the round page, the table page and the scoresheet; a best-of-three sheet
with a grid per game; the find page names the round (or the event) once it is over."""

from __future__ import annotations

import pytest

from tests import factories
from tests.readers import download, pdf_text
from tournaments.models import Round
from tournaments.services import result_entry, results, round_close, rounds, stage_rounds

pytestmark = pytest.mark.django_db

UP3 = {"finish": ["E", "W", "S", "N"]}
NS_UP1 = {"finish": ["S", "E", "W", "N"]}


def bo3(match, games):
    actor = results.Actor(factories.chief_of(match.round.event), None, "web", "")
    record = {"game": "guandan", "games": [{"deals": [deal]} for deal in games]}
    return result_entry.submit(match, record, actor, 0, confirm=True)


@pytest.fixture
def final_round():
    event = factories.event(teams=0)
    for i in range(1, 7):
        factories.team(event, f"T{i}", seed=i)
    swiss = factories.stage(event, name="Swiss", num_rounds=1)
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
    who = factories.organiser_of(event)
    factories.play_stage_round(swiss)
    factories.settle_cut_lots(knockout)
    semis = rounds.publish(stage_rounds.draw_round(knockout, who), who, confirm_reason="test")
    for match in semis.matches.exclude(away=None):
        bo3(match, [UP3, NS_UP1, UP3])
    round_close.finalise(semis, factories.chief_of(event))
    last = rounds.publish(Round.objects.get(stage=knockout, status=Round.Status.DRAFT), who)
    return event, swiss, knockout, last


def test_rounds_are_counted_per_stage_before_and_after_the_draw(client):
    event = factories.event(teams=0)
    for i in range(1, 7):
        factories.team(event, f"T{i}", seed=i)
    swiss = factories.stage(event, name="Swiss", num_rounds=2)
    knockout = factories.stage(
        event, name="KO", kind="knockout", entrants="qualified", qualify_top=4, sources=[swiss]
    )
    client.force_login(factories.organiser_of(event))
    detail = client.get(f"/t/{event.slug}/manage/stages/{knockout.pk}/").content.decode()
    assert "0 / 2" in detail and "0 / 0" not in detail  # 4 qualifiers: two knockout rounds
    factories.play_stage_round(swiss)
    status = client.get(f"/t/{event.slug}/manage/status/", HTTP_ACCEPT_LANGUAGE="en")
    text = status.content.decode()
    assert "Swiss: 1 of 2 rounds drawn." in text and "KO: 0 of 2 rounds drawn." in text


def test_the_final_and_the_third_place_match_are_named_everywhere(final_round, client):
    event, _swiss, _knockout, last = final_round
    pairings = client.get(f"/t/{event.slug}/pairings/").content.decode()
    assert "决赛" in pairings and "三四名决赛" in pairings
    projector = client.get(f"/t/{event.slug}/projector/").content.decode()
    assert "三四名决赛" in projector
    api = client.get(f"/api/tournaments/{event.slug}/public/pairings/").json()
    assert sorted(t["label"] for t in api["tables"]) == ["三四名决赛", "决赛"]
    client.force_login(factories.organiser_of(event))
    detail = client.get(f"/t/{event.slug}/manage/rounds/{last.number}/").content.decode()
    assert detail.count("data-knockout") == 2
    client.force_login(factories.chief_of(event))
    final = last.matches.get(bracket_slot__startswith="R")
    table = client.get(f"/t/{event.slug}/table/{final.table_number}/").content.decode()
    assert 'id="knockout-label">决赛<' in table
    sheet = download(
        client,
        f"/t/{event.slug}/export/scoresheets/?round={last.number}",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = pdf_text(sheet.content)
    assert "Final" in text and "Third-place match" in text
    flat = " ".join(text.split())
    assert all(f"Game {n}" in flat for n in (1, 2, 3)), flat  # a grid per game


def test_the_find_page_names_the_round_that_is_over(final_round, client):
    event, *_ = final_round
    text = client.get(f"/t/{event.slug}/find/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "第  轮" not in text and "第 轮" not in text


def test_a_best_of_three_shows_its_games_beside_the_match_points(final_round, client):
    event, _swiss, knockout, _last = final_round
    semis = Round.objects.filter(stage=knockout).order_by("number").first()
    match = semis.matches.exclude(away=None).first()
    pairings = client.get(
        f"/t/{event.slug}/pairings/?round={semis.number}", HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    assert "局分 2 : 1" in pairings
    team = client.get(f"/t/{event.slug}/teams/{match.home_id}/").content.decode()
    assert "局分 2 : 1" in team
    client.force_login(factories.chief_of(event))
    results_page = client.get(f"/t/{event.slug}/results/?round={semis.number}").content.decode()
    assert "局分 2 : 1" in results_page


def test_national_preset_results_show_level_points_beside_match_points(client):
    event = factories.event(teams=2, preset="guandan-national")
    home, away = list(event.teams.order_by("name"))
    factories.played_round(event, 1, [(home, away)])
    pairings = client.get(f"/t/{event.slug}/pairings/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "级差分" in pairings.content.decode()
    team = client.get(f"/t/{event.slug}/teams/{home.pk}/").content.decode()
    assert "级差分" in team
