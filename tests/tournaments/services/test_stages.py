"""Stages and sections through the database (SPEC §2 "stages and sections")."""

from __future__ import annotations

from itertools import combinations

import pytest

from tests import factories
from tournaments.models import AuditLog, Match, Round, SectionEntry, Stage
from tournaments.services import stage_rounds, stage_sections, stage_standings, stages
from tournaments.services.rounds import RoundError
from tournaments.services.stages import StageError, StageForbidden

pytestmark = pytest.mark.django_db


def organiser(event):
    return factories.organiser_of(event)


def pairs_of(rnd):
    return [
        (m.home_id, m.away_id)
        for m in Match.objects.filter(round=rnd).order_by("table_number", "pk")
    ]


# --- setting up -----------------------------------------------------------------------------


def test_a_stage_match_format_is_the_engines_and_a_bad_one_is_refused_naming_the_field():
    event = factories.event(teams=4)
    with pytest.raises(StageError) as refused:
        factories.stage(event, match_format={"end": "deals"})
    assert refused.value.field == "match_format.format.deals"
    stage = factories.stage(event, match_format={"end": "deals", "deals": 8})
    assert stage.engine_format()["deals"] == 8
    assert not stage.engine_format()["knockout"]
    knockout = factories.stage(event, kind="knockout", name="Final")
    assert knockout.engine_format()["knockout"] is True  # a knockout match needs a winner


def test_only_the_organiser_sets_up_stages():
    event = factories.event(teams=4)
    with pytest.raises(StageForbidden):
        stages.create_stage(event, factories.chief_of(event), name="Q", kind="swiss", num_rounds=3)
    assert not Stage.objects.filter(event=event).exists()


def test_qualifiers_come_from_earlier_stages_and_a_knockout_alone_has_a_third_place_match():
    event = factories.event(teams=4)
    with pytest.raises(StageError) as refused:
        factories.stage(event, kind="knockout", entrants="qualified", qualify_top=2)
    assert refused.value.field == "sources"
    with pytest.raises(StageError) as refused:
        factories.stage(event, third_place=True)
    assert refused.value.field == "third_place"
    first = factories.stage(event)
    final = factories.stage(
        event,
        kind="knockout",
        name="Final",
        entrants="qualified",
        qualify_top=2,
        sources=[first],
        third_place=True,
    )
    assert list(final.sources.all()) == [first]
    assert AuditLog.objects.filter(event=event, action="stage.create").count() == 2


def test_sections_split_snake_by_seed():
    event = factories.event(teams=0)
    teams = [factories.team(event, f"T{i}", seed=i) for i in range(1, 9)]
    stage = factories.stage(event)
    a, b = factories.sections(stage, "A组", "B组")
    stage_sections.split_teams(stage, organiser(event), "snake")
    seeds = {team.pk: team.seed for team in teams}
    assert [seeds[t] for t in stages.section_teams(a)] == [1, 4, 5, 8]
    assert [seeds[t] for t in stages.section_teams(b)] == [2, 3, 6, 7]
    stage_sections.split_teams(stage, organiser(event), "in_turn")
    assert [seeds[t] for t in stages.section_teams(a)] == [1, 3, 5, 7]


def test_a_team_assigned_by_hand_moves_out_of_its_other_section():
    event = factories.event(teams=4)
    stage = factories.stage(event)
    a, b = factories.sections(stage, "男双", "女双")
    ids = stage_sections.registered_entrants(event)
    stage_sections.assign_teams(a, organiser(event), ids[:3])
    stage_sections.assign_teams(b, organiser(event), [ids[2], ids[3]])
    assert stages.section_teams(a) == ids[:2]
    assert stages.section_teams(b) == [ids[2], ids[3]]
    assert SectionEntry.objects.filter(stage=stage).count() == 4


def test_sections_are_fixed_once_the_stage_has_a_round():
    event = factories.event(teams=4)
    stage = factories.stage(event)
    stage_rounds.draw_round(stage, organiser(event))
    with pytest.raises(StageError):
        factories.sections(stage, "B")
    with pytest.raises(StageError):
        stages.update_stage(stage, organiser(event), num_rounds=5)
    stages.update_stage(stage, organiser(event), name="预赛")  # the name may change


# --- the acceptance events ------------------------------------------------------------------


def test_a_48_team_qualifier_in_two_sections_sends_its_top_8_each_into_a_16_team_knockout():
    event = factories.event(teams=48, units=6)
    qualifier = factories.stage(event, name="预赛", num_rounds=3)
    a, b = factories.sections(qualifier, "A组", "B组")
    stage_sections.split_teams(qualifier, organiser(event), "snake")
    assert [len(stages.section_teams(s)) for s in (a, b)] == [24, 24]
    final = factories.stage(
        event,
        name="决赛",
        kind="knockout",
        entrants="qualified",
        qualify_top=8,
        sources=[qualifier],
        third_place=True,
        match_format={"end": "deals", "deals": 1},
    )
    for _ in range(3):
        rnd = factories.play_stage_round(qualifier)
        # each section is paired apart: no table mixes A and B
        for match in rnd.matches.all():
            section = {
                e.team_id: e.section_id for e in SectionEntry.objects.filter(stage=qualifier)
            }
            assert match.section_id == section[match.home_id] == section[match.away_id]
        assert rnd.matches.exclude(away=None).count() == 24
    assert stage_standings.is_complete(qualifier)
    assert factories.settle_cut_lots(final) >= 1  # ties at the line and the seeding: lots first
    tops = {s.pk: stage_standings.section_ranking(s)[:8] for s in (a, b)}

    # the knockout: 16 qualifiers seeded A1 B1 A2 B2 …, 1 v 16 = A1 v B8
    first = stage_rounds.draw_round(final, organiser(event))
    seeded = stages.section_teams(final.sections.get())
    assert seeded[:4] == [tops[a.pk][0], tops[b.pk][0], tops[a.pk][1], tops[b.pk][1]]
    assert sorted(seeded) == sorted(tops[a.pk] + tops[b.pk])
    top_table = first.matches.get(bracket_slot="R1-1")
    assert (top_table.home_id, top_table.away_id) == (tops[a.pk][0], tops[b.pk][7])
    assert first.matches.count() == 8
    # the better seed always wins at home; the next rounds are drafted from the winners
    from tournaments.services import round_close, rounds

    def play(rnd):
        rnd = rounds.publish(rnd, organiser(event))
        for match in rnd.matches.exclude(away=None):
            factories.result(match, deals=factories.WIN_BY_3)
        return round_close.finalise(rnd, factories.chief_of(event))

    play(first)
    for size in (4, 2, 2):  # quarter-finals, semi-finals, the final and the third-place match
        nxt = Round.objects.get(stage=final, status=Round.Status.DRAFT)  # drafted on finalise
        assert nxt.matches.count() == size
        play(nxt)
    last = Round.objects.filter(stage=final).order_by("-number").first()
    assert sorted(last.matches.values_list("bracket_slot", flat=True)) == ["3P", "R4-1"]
    semi = Round.objects.filter(stage=final).order_by("-number")[1]
    semi_losers = {m.away_id for m in semi.matches.all()}
    third = last.matches.get(bracket_slot="3P")
    assert {third.home_id, third.away_id} == semi_losers
    assert stage_standings.is_complete(final)
    assert not Round.objects.filter(stage=final, status=Round.Status.DRAFT).exists()

    ranking = stage_standings.event_ranking(event)
    assert len(ranking) == 48
    # the final's winner and loser, then the third-place match's (home won every match)
    assert [row.team for row in ranking[:4]] == [seeded[0], seeded[1], third.home_id, third.away_id]
    assert {third.home_id, third.away_id} == {seeded[2], seeded[3]}
    assert [row.rank for row in ranking[:4]] == [1, 2, 3, 4]
    assert ranking[0].stage == "决赛"
    # places 5-8: the quarter-final losers, ranked by the qualifier (knockout_places
    # "earlier_stage", the default): the 3rd of each section share 5th, the 4th share 7th;
    # then the round-of-16 losers
    assert [row.rank for row in ranking[4:8]] == [5, 5, 7, 7]
    assert [row.team for row in ranking[4:8]] == seeded[4:8]
    assert [row.team for row in ranking[8:16]] == seeded[8:16]
    # then the qualifier's 9th of each section, 10th …
    assert {row.team for row in ranking[16:18]} == {
        stage_standings.section_ranking(a)[8],
        stage_standings.section_ranking(b)[8],
    }
    assert {row.stage for row in ranking[16:]} == {"预赛"}


def test_a_7_team_round_robin_meets_every_pair_once_with_one_bye_a_round():
    event = factories.event(teams=7)
    stage = factories.stage(event, name="循环赛", kind="round_robin")
    played, byes = [], []
    for _ in range(7):
        rnd = factories.play_stage_round(stage)
        played += [frozenset(p) for p in pairs_of(rnd) if p[1] is not None]
        round_byes = [h for h, a in pairs_of(rnd) if a is None]
        assert len(round_byes) == 1
        byes += round_byes
    teams = stage_sections.registered_entrants(event)
    assert sorted(played, key=sorted) == sorted(
        (frozenset(p) for p in combinations(teams, 2)), key=sorted
    )
    assert sorted(byes) == sorted(teams)  # everyone sits out once
    assert stage_standings.planned_rounds(stage) == 7
    assert stage_standings.is_complete(stage)
    with pytest.raises(RoundError):
        stage_rounds.draw_round(stage, organiser(event))


def test_a_knockout_tie_at_equal_levels_is_decided_by_the_extra_deal():
    from tournaments.services import results, rounds

    event = factories.event(teams=2)
    final = factories.stage(
        event, name="Final", kind="knockout", match_format={"end": "deals", "deals": 2}
    )
    rnd = stage_rounds.draw_round(final, organiser(event))
    rnd = rounds.publish(rnd, organiser(event))
    match = rnd.matches.get()
    level = [{"finish": ["E", "W", "S", "N"]}, {"finish": ["S", "N", "E", "W"]}]  # 5 : 5
    with pytest.raises(stage_rounds.NoWinner) as refused:
        factories.result(match, deals=level)
    assert "extra deal" in refused.value.message
    assert not match.versions.exists()
    assert AuditLog.objects.filter(action="result.refused", target_id=str(match.pk)).exists()
    version = factories.result(match, deals=[*level, {"finish": ["E", "N", "S", "W"]}])
    assert version.outcome["end"] == "extra_deal"
    assert version.outcome["winner"] == "EW"
    assert version.record["format"]["knockout"] is True
    assert stage_standings.knockout_winners(final.sections.get()) == {"R1-1": match.home_id}
    assert results.latest_version(match).is_counting


def test_a_knockout_gives_the_byes_to_the_top_seeds():
    event = factories.event(teams=0)
    for i in range(1, 7):
        factories.team(event, f"S{i}", seed=i)
    final = factories.stage(
        event, name="KO", kind="knockout", match_format={"end": "deals", "deals": 1}
    )
    rnd = stage_rounds.draw_round(final, organiser(event))
    seeds = dict(event.teams.values_list("pk", "seed"))
    byes = sorted(seeds[m.home_id] for m in rnd.matches.filter(away=None))
    played = sorted(
        sorted((seeds[m.home_id], seeds[m.away_id])) for m in rnd.matches.exclude(away=None)
    )
    assert byes == [1, 2]
    assert played == [[3, 6], [4, 5]]


def test_an_event_without_stages_drafts_its_rounds_as_before():
    from tournaments.services import rounds

    event = factories.event(teams=6)
    rnd = rounds.generate_draft(event, organiser(event), seed=7)
    assert rnd.stage is None
    assert rnd.matches.count() == 3
    with pytest.raises(StageError):
        factories.stage(event)  # its rounds were drawn without stages


def test_a_staged_event_drafts_the_current_stage_from_the_rounds_page():
    from tournaments.services import rounds

    event = factories.event(teams=6)
    stage = factories.stage(event, num_rounds=2)
    rnd = rounds.generate_draft(event, organiser(event))
    assert rnd.stage == stage
    rounds.publish(rnd, organiser(event))
    assert rnd.matches.filter(section__isnull=True).count() == 0


# --- entrants, points and the round workflow --------------------------------------------------


def test_a_final_starts_from_0_points_unless_it_carries_them():
    event = factories.event(teams=4)
    qualifier = factories.stage(event, name="Q", num_rounds=1)
    fresh = factories.stage(
        event, name="F0", entrants="qualified", qualify_top=4, sources=[qualifier], num_rounds=1
    )
    carried = factories.stage(
        event,
        name="F1",
        entrants="qualified",
        qualify_top=4,
        sources=[qualifier],
        num_rounds=1,
        carry_points=True,
    )
    factories.play_stage_round(qualifier)
    for stage in (fresh, carried):
        stage_sections.seed_stage(stage, organiser(event))
    assert {row.points for row in stage_standings.section_standings(fresh.sections.get())} == {0}
    carried_points = sorted(
        row.points for row in stage_standings.section_standings(carried.sections.get())
    )
    assert carried_points == [7, 7, 13, 13]  # the qualifier's 13 : 7 wins count


def test_qualifiers_are_not_known_before_their_stage_is_finished():
    event = factories.event(teams=4)
    qualifier = factories.stage(event, name="Q", num_rounds=2)
    final = factories.stage(
        event, name="F", kind="knockout", entrants="qualified", qualify_top=2, sources=[qualifier]
    )
    factories.play_stage_round(qualifier)
    with pytest.raises(StageError) as refused:
        stage_sections.seed_stage(final, organiser(event))
    assert refused.value.field == "sources"
    with pytest.raises(RoundError):
        stage_rounds.draw_round(final, organiser(event))
    assert not final.entries.exists()


def test_a_swiss_section_never_pairs_a_rematch_and_keeps_to_its_teams():
    event = factories.event(teams=12)
    stage = factories.stage(event, num_rounds=5)
    a, b = factories.sections(stage, "A", "B")
    stage_sections.split_teams(stage, organiser(event), "snake")
    met = set()
    for _ in range(5):
        rnd = factories.play_stage_round(stage)
        for home, away in pairs_of(rnd):
            pair = frozenset((home, away))
            assert pair not in met
            met.add(pair)
    for section in (a, b):
        inside = set(stages.section_teams(section))
        assert all(pair <= inside or not pair & inside for pair in met)
    assert len(met) == 2 * 5 * 3  # every team of both sections played five rounds


def test_a_stage_draft_is_stale_once_a_team_withdraws():
    from tournaments.models import Team
    from tournaments.services import rounds

    event = factories.event(teams=6)
    stage = factories.stage(event, num_rounds=3)
    rnd = stage_rounds.draw_round(stage, organiser(event))
    Team.objects.filter(pk=rnd.drawn_from[0]).update(status=Team.Status.WITHDRAWN)
    assert rounds.stale_reason(rnd)
    with pytest.raises(RoundError):
        rounds.publish(rnd, organiser(event))
    redrawn = stage_rounds.draw_round(stage, organiser(event))
    assert redrawn.pk == rnd.pk and len(redrawn.drawn_from) == 5


def test_a_void_knockout_match_holds_the_next_round_until_corrected():
    from tournaments.services import result_entry, results, round_close, rounds

    event = factories.event(teams=4)
    final = factories.stage(
        event, name="KO", kind="knockout", match_format={"end": "deals", "deals": 1}
    )
    rnd = rounds.publish(stage_rounds.draw_round(final, organiser(event)), organiser(event))
    first, second = rnd.matches.order_by("table_number")
    factories.result(first, deals=factories.WIN_BY_3)
    version = factories.result(second, deals=factories.WIN_BY_3)
    chief = factories.chief_of(event)
    result_entry.void(second, results.Actor(chief, None, "web", ""), version.number, "cards marked")
    round_close.finalise(rnd, chief)
    assert Round.objects.filter(stage=final).count() == 1  # no final drawn from a void
    with pytest.raises(RoundError) as refused:
        stage_rounds.draw_round(final, organiser(event))
    assert "R2-1" in refused.value.message
