"""Round robin (Berger tables) and knockout bracket generators: plain data in and out."""

import itertools
import random
from collections import Counter

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tournaments.pairing import draw_first_round, pair_round
from tournaments.pairing.knockout import (
    BracketError,
    knockout_bracket,
    seed_from_sections,
    seed_positions,
)
from tournaments.pairing.roundrobin import RoundRobinError, berger_numbers, berger_rounds
from tournaments.pairing.simulation import SimulatedEvent


def test_seven_team_round_robin_every_pair_once_one_bye_a_round():
    teams = list("ABCDEFG")
    rounds = berger_rounds(teams)
    assert len(rounds) == 7
    pairs = [frozenset(table) for rnd in rounds for table in rnd.tables]
    assert sorted(pairs, key=sorted) == sorted(
        (frozenset(p) for p in itertools.combinations(teams, 2)), key=sorted
    )
    assert all(len(rnd.tables) == 3 and rnd.bye is not None for rnd in rounds)
    assert sorted(rnd.bye for rnd in rounds) == teams  # each team sits out exactly once
    for rnd in rounds:  # nobody twice in a round
        seated = [team for table in rnd.tables for team in table] + [rnd.bye]
        assert sorted(seated) == teams


def test_berger_table_for_six_is_fide_s():
    assert berger_numbers(6) == [
        [(1, 6), (2, 5), (3, 4)],
        [(6, 4), (5, 3), (1, 2)],
        [(2, 6), (3, 1), (4, 5)],
        [(6, 5), (1, 4), (2, 3)],
        [(3, 6), (4, 2), (5, 1)],
    ]


@given(st.integers(min_value=2, max_value=40))
def test_any_round_robin_meets_every_pair_once_with_balanced_sides(size):
    teams = list(range(100, 100 + size))
    rounds = berger_rounds(teams)
    assert len(rounds) == size - 1 + size % 2
    pairs = Counter(frozenset(table) for rnd in rounds for table in rnd.tables)
    assert len(pairs) == size * (size - 1) // 2 and set(pairs.values()) == {1}
    home = Counter(table[0] for rnd in rounds for table in rnd.tables)
    away = Counter(table[1] for rnd in rounds for table in rnd.tables)
    assert all(abs(home[team] - away[team]) <= 1 for team in teams)
    assert all((rnd.bye is None) == (size % 2 == 0) for rnd in rounds)


def test_double_round_robin_swaps_sides_in_the_second_cycle():
    rounds = berger_rounds(["A", "B", "C", "D"], cycles=2)
    assert len(rounds) == 6
    assert rounds[3].tables == [(b, a) for a, b in rounds[0].tables]


@pytest.mark.parametrize(
    ("entrants", "cycles", "message"),
    [(["A"], 1, "at least two"), (["A", "A"], 1, "listed twice"), (["A", "B"], 3, "cycles")],
)
def test_round_robin_bad_input_is_named(entrants, cycles, message):
    with pytest.raises(RoundRobinError, match=message):
        berger_rounds(entrants, cycles)


def test_seeds_meet_one_v_n_and_the_top_two_only_in_the_final():
    assert seed_positions(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    bracket = knockout_bracket([f"S{i}" for i in range(1, 17)])
    first = [(m.home[1], m.away[1]) for m in bracket.rounds[0].matches]
    assert first[0] == (1, 16) and set(first) >= {(8, 9), (2, 15)}
    assert [r.name for r in bracket.rounds] == [
        "knockout.round_of",
        "knockout.quarter_final",
        "knockout.semi_final",
        "knockout.final",
    ]
    # seeds 1 and 2 in different halves, 1-4 in different quarters
    half = len(first) // 2
    assert 1 in {m[0] for m in first[:half]} and 2 in {m[0] for m in first[half:]}


def test_byes_go_to_the_top_seeds_when_the_field_is_not_a_power_of_two():
    bracket = knockout_bracket(list("ABCDEF"))  # 8 places, 2 byes
    byes = [m for m in bracket.rounds[0].matches if m.is_bye]
    assert sorted(m.home[1] for m in byes) == [1, 2]
    sides = bracket.sides({})
    assert sides["R2-1"][0] == "A"  # seed 1 is through to the semi-final without playing


def test_winners_and_the_third_place_match_follow_the_results():
    bracket = knockout_bracket(list("ABCD"), third_place=True)
    assert bracket.third_place.home == ("loser", "R1-1")
    sides = bracket.sides({"R1-1": "A", "R1-2": "C"})
    assert sides["R1-1"] == ("A", "D") and sides["R1-2"] == ("B", "C")
    assert sides["R2-1"] == ("A", "C")
    assert sides["3P"] == ("D", "B")
    with pytest.raises(BracketError, match="does not play"):
        bracket.sides({"R1-1": "B"})


@given(st.integers(min_value=2, max_value=70), st.booleans())
def test_every_bracket_has_one_champion_path_per_entrant(size, third_place):
    entrants = list(range(1, size + 1))
    bracket = knockout_bracket(entrants, third_place)
    first = bracket.rounds[0].matches
    seeded = [m.home[1] for m in first] + [m.away[1] for m in first if m.away]
    assert sorted(seeded) == entrants
    byes = [m.home[1] for m in first if m.is_bye]
    assert sorted(byes) == list(range(1, len(byes) + 1))  # the top seeds
    assert len(bracket.rounds[-1].matches) == 1
    # play every match with the better seed winning: the final is 1 v 2
    winners = {}
    for rnd in bracket.rounds:
        sides = bracket.sides(winners)
        for match in rnd.matches:
            home, away = sides[match.id]
            if away is not None:
                winners[match.id] = min(home, away)
    final = bracket.rounds[-1].matches[0]
    assert bracket.sides(winners)[final.id] == (1, 2)


def test_a_48_team_qualifier_in_two_sections_feeds_a_16_team_knockout_with_third_place():
    """Two Swiss sections of 24 (paired and ranked apart), top 8 of each into the final."""
    rankings = []
    for section in range(2):
        event = SimulatedEvent(24, random.Random(section))
        event.play(draw_first_round(event.teams(), section))
        for number in range(2, 6):
            result = pair_round(event.teams(), rounds_after=5 - number)
            assert result.rematches == 0
            event.play(result)
        # team ids per section: 1..24 and 101..124
        rankings.append([team.id + 100 * section for team in event.teams()])
    seeds = seed_from_sections(rankings, 8)
    assert len(seeds) == 16 and len(set(seeds)) == 16
    assert seeds[:2] == [rankings[0][0], rankings[1][0]]
    bracket = knockout_bracket(seeds, third_place=True)
    assert not any(m.is_bye for m in bracket.rounds[0].matches)
    first = bracket.sides({})["R1-1"]
    assert first == (rankings[0][0], rankings[1][7])  # A1 v B8
    assert [len(r.matches) for r in bracket.rounds] == [8, 4, 2, 1]
    assert bracket.third_place.home == ("loser", "R3-1")
    with pytest.raises(BracketError, match="fewer than 8"):
        seed_from_sections([rankings[0], rankings[1][:5]], 8)
