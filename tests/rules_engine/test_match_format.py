"""Match formats through the CLI (SPEC 2): the engine says when a match is over and scores it.

Deals used: EW_UP3 = E first, W second (EW go up 3); NS_UP1 = N first, S last (NS up 1).
"""

import io
import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules_engine import api
from rules_engine.cli import EXIT_BAD_INPUT, EXIT_OK, run
from rules_engine.i18n import localize_answer
from rules_engine.presets import get_preset

EW_UP3 = {"finish": ["E", "W", "S", "N"]}
EW_UP1 = {"finish": ["E", "N", "S", "W"]}
NS_UP3 = {"finish": ["N", "S", "E", "W"]}
NS_UP1 = {"finish": ["N", "E", "W", "S"]}


def cli(payload, tmp_path):
    path = tmp_path / "record.json"
    path.write_text(json.dumps(payload), "utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = run("score", str(path), out, err)
    return status, json.loads(out.getvalue()) if status == EXIT_OK else err.getvalue()


def record(fmt, deals=None, preset="guandan-suzhou-2016", **extra):
    body = {"game": "guandan", "preset": preset, "format": fmt, **extra}
    if deals is not None:
        body["deals"] = deals
    return body


def test_pass_a_format_is_over_only_when_a_side_passes_a(tmp_path):
    # EW: 2 -> 5 -> 8 -> J -> A (4 deals), then EW win their own A deal: passed A
    status, answer = cli(record({"end": "pass_a"}, [EW_UP3] * 4), tmp_path)
    assert status == EXIT_OK and answer["over"] is False and answer["end"] is None
    status, answer = cli(record({"end": "pass_a"}, [EW_UP3] * 5), tmp_path)
    assert answer["over"] is True and answer["end"] == "passed_a" and answer["winner"] == "EW"
    status, error = cli(record({"end": "pass_a"}, [EW_UP3] * 5 + [NS_UP1]), tmp_path)
    assert status == EXIT_BAD_INPUT
    assert "deals[5]: the match was over after deal 5 (a side passed A)" in error


def test_n_deals_format_ends_after_the_set_number_and_refuses_one_more(tmp_path):
    fmt = {"end": "deals", "deals": 3}
    status, answer = cli(record(fmt, [EW_UP3, NS_UP1, EW_UP1]), tmp_path)
    assert answer["over"] is True and answer["end"] == "deals"
    assert answer["levels"] == {"EW": "6", "NS": "3"} and answer["winner"] == "EW"
    assert answer["match_points"] == {"EW": 13, "NS": 7}
    status, error = cli(record(fmt, [EW_UP3, NS_UP1, EW_UP1, NS_UP3]), tmp_path)
    assert status == EXIT_BAD_INPUT and "the set number of deals was played" in error
    status, answer = cli(record(fmt, [EW_UP3]), tmp_path)
    assert answer["over"] is False


def test_time_format_ends_with_the_deal_in_play_when_time_was_called(tmp_path):
    fmt = {"end": "time", "minutes": 60}
    status, answer = cli(record(fmt, [EW_UP3, NS_UP1], time_called_in_deal=2), tmp_path)
    assert answer["over"] is True and answer["end"] == "time" and answer["format"]["minutes"] == 60
    status, error = cli(record(fmt, [EW_UP3, NS_UP1, EW_UP1], time_called_in_deal=2), tmp_path)
    assert status == EXIT_BAD_INPUT and "time was up" in error
    status, answer = cli(record(fmt, [EW_UP3, NS_UP1]), tmp_path)
    assert answer["over"] is False  # the clock has not been called yet


def test_time_up_one_more_deal_rule_allows_the_next_deal(tmp_path):
    body = record(
        {"end": "time"},
        [EW_UP3, NS_UP1, EW_UP1],
        time_called_in_deal=2,
        settings={"time_up": "one_more_deal"},
    )
    status, answer = cli(body, tmp_path)
    assert status == EXIT_OK and answer["over"] is True and answer["end"] == "time"


def test_time_or_deals_ends_at_whichever_comes_first(tmp_path):
    fmt = {"end": "time_or_deals", "deals": 4}
    status, answer = cli(record(fmt, [EW_UP3, NS_UP1], time_called_in_deal=2), tmp_path)
    assert answer["end"] == "time"
    status, answer = cli(record(fmt, [EW_UP3, NS_UP1, EW_UP1, NS_UP1]), tmp_path)
    assert answer["end"] == "deals" and answer["over"] is True


def test_knockout_tie_at_equal_levels_is_decided_by_the_extra_deal(tmp_path):
    fmt = {"end": "deals", "deals": 2, "knockout": True}
    equal = [EW_UP1, NS_UP1]  # 3 : 3 after the two deals
    status, answer = cli(record(fmt, equal), tmp_path)
    assert answer["over"] is False and answer["level_difference"] == 0
    status, answer = cli(record(fmt, [*equal, NS_UP1]), tmp_path)
    assert answer["over"] is True and answer["end"] == "extra_deal" and answer["winner"] == "NS"
    status, error = cli(record(fmt, [*equal, NS_UP1, EW_UP1]), tmp_path)
    assert status == EXIT_BAD_INPUT and "the extra deal decided it" in error


def test_knockout_extra_deal_can_be_switched_off_by_the_preset_setting(tmp_path):
    fmt = {"end": "deals", "deals": 2, "knockout": True}
    body = record(fmt, [EW_UP1, NS_UP1], settings={"knockout_extra_deal": False})
    status, answer = cli(body, tmp_path)
    assert answer["over"] is True and answer["winner"] is None


def test_best_of_three_goes_to_the_side_winning_two_games_level_differences_add_up(tmp_path):
    fmt = {"end": "deals", "deals": 2, "games": 3}
    games = [
        {"deals": [EW_UP3, EW_UP3]},  # EW win by 6 (8 : 2)
        {"deals": [NS_UP1, NS_UP1]},  # NS win by 2
        {"deals": [EW_UP1, EW_UP1]},  # EW win by 2
    ]
    status, answer = cli(record(fmt, games=games), tmp_path)
    assert status == EXIT_OK and answer["over"] is True
    assert answer["games_won"] == {"EW": 2, "NS": 1} and answer["winner"] == "EW"
    assert answer["level_difference"] == 6 - 2 + 2
    assert answer["match_points"] == {"EW": 16, "NS": 4}  # the 20-point row of 6 levels
    assert [game["winner"] for game in answer["games"]] == ["EW", "NS", "EW"]


def test_best_of_three_is_over_after_two_wins_and_refuses_a_third_game(tmp_path):
    fmt = {"end": "deals", "deals": 1, "games": 3}
    two = [{"deals": [NS_UP3]}, {"deals": [NS_UP1]}]
    status, answer = cli(record(fmt, games=two), tmp_path)
    assert answer["over"] is True and answer["winner"] == "NS"
    status, error = cli(record(fmt, games=[*two, {"deals": [EW_UP1]}]), tmp_path)
    assert status == EXIT_BAD_INPUT and "already won after game 2" in error
    status, answer = cli(record(fmt, games=two[:1]), tmp_path)
    assert answer["over"] is False and answer["winner"] is None


@pytest.mark.parametrize(
    ("fmt", "field"),
    [
        ({"end": "sometimes"}, "format.end"),
        ({"end": "deals"}, "format.deals"),
        ({"end": "deals", "deals": 0}, "format.deals"),
        ({"games": 2}, "format.games"),
        ({"knockout": "yes"}, "format.knockout"),
        ({"ends": "deals"}, "format.ends"),
    ],
)
def test_bad_formats_are_named(fmt, field):
    answer = api.score([record(fmt, [EW_UP3])])[0]
    assert answer["field"] == field


def test_format_messages_have_chinese():
    answer = api.score([record({"end": "deals", "deals": 1}, [EW_UP3, EW_UP3])])[0]
    assert "比赛在第 1 副后已结束（已打满规定副数）" in localize_answer(answer, "zh-hans")["error"]


def test_records_without_a_format_score_as_before():
    answer = api.score(record(None, [EW_UP3]) | {"format": None})
    assert "over" not in answer and answer["winner"] == "EW"


# --- the national preset: 场分 2/1/0 + 26-point 级差分 ---------------------------------------


def test_national_preset_scores_match_points_and_level_points():
    answer = api.score({"game": "guandan", "preset": "guandan-national", "deals": [EW_UP3]})
    assert answer["match_points"] == {"EW": 2, "NS": 0}
    assert answer["level_points"] == {"EW": 16, "NS": 10}  # 13 + 3 : 13 - 3
    draw = api.score({"game": "guandan", "preset": "guandan-national", "deals": []})
    assert draw["match_points"] == {"EW": 1, "NS": 1} and draw["level_points"] == {
        "EW": 13,
        "NS": 13,
    }


def test_national_preset_level_points_cap_at_13_and_passing_a_counts_13():
    five = [EW_UP3] * 5  # passes A: 13 levels to 0
    answer = api.score({"game": "guandan", "preset": "guandan-national", "deals": five})
    assert answer["passed_a"] == "EW" and answer["level_points"] == {"EW": 26, "NS": 0}


def test_national_preset_forfeit_is_2_0_and_20_6():
    answer = api.score({"game": "guandan", "preset": "guandan-national", "forfeit": "NS"})
    assert answer["match_points"] == {"EW": 2, "NS": 0}
    assert answer["level_points"] == {"EW": 20, "NS": 6}


def test_national_preset_standings_order():
    preset = get_preset("guandan-national")
    assert preset.standings_order == (
        "points",
        "level_points",
        "level_diff",
        "head_to_head",
        "draw_lots",
    )


def test_other_presets_have_no_level_points():
    answer = api.score({"game": "guandan", "preset": "guandan-suzhou-2016", "deals": [EW_UP3]})
    assert "level_points" not in answer


def test_tractor_n_deals_format_through_the_cli(tmp_path):
    deals = [{"dealer": "EW", "defender_points": 85}, {"defender_points": 0}]
    body = {"game": "tractor", "preset": "tractor", "format": {"end": "deals", "deals": 2}}
    status, answer = cli({**body, "deals": deals}, tmp_path)
    assert status == EXIT_OK and answer["over"] is True and answer["end"] == "deals"
    assert answer["levels"] == {"EW": "6", "NS": "2"} and answer["match_points"] == {
        "EW": 2,
        "NS": 0,
    }
    status, error = cli({**body, "deals": [*deals, {"defender_points": 20}]}, tmp_path)
    assert status == EXIT_BAD_INPUT and "deals[2]: the match was over after deal 2" in error


def test_best_of_three_national_adds_the_games_level_differences_for_level_points():
    fmt = {"end": "deals", "deals": 1, "games": 3}
    games = [{"deals": [EW_UP1]}, {"deals": [NS_UP3]}, {"deals": [EW_UP1]}]  # EW 2-1, sum -1
    answer = api.score(record(fmt, games=games, preset="guandan-national"))
    assert answer["winner"] == "EW" and answer["level_difference"] == -1
    assert answer["match_points"] == {"EW": 2, "NS": 0}
    assert answer["level_points"] == {"EW": 13, "NS": 13}  # no margin in the winner's favour
    assert [game["level_points"] for game in answer["games"]][1] == {"EW": 10, "NS": 16}


FINISHES = st.permutations(["E", "S", "W", "N"]).map(lambda seats: {"finish": list(seats)})


@settings(max_examples=60, deadline=None)
@given(deals=st.lists(FINISHES, min_size=1, max_size=14), limit=st.integers(1, 12))
def test_n_deals_format_is_over_exactly_at_the_limit_or_at_passing_a(deals, limit):
    plain = {"game": "guandan", "preset": "guandan-suzhou-2016"}
    fmt = {"end": "deals", "deals": limit}
    # the end is the limit or the first pass of A, whichever comes first
    end = limit
    for count in range(1, len(deals) + 1):
        if api.score({**plain, "deals": deals[:count]})["passed_a"]:
            end = min(end, count)
            break
    answers = api.score([{**plain, "format": fmt, "deals": deals}])
    (answer,) = answers
    if len(deals) > end:
        assert answer["field"] == f"deals[{end}]"
        return
    assert answer["over"] == (len(deals) == end)
    same = api.score({**plain, "deals": deals})  # the format changes nothing in the scoring
    assert {k: answer[k] for k in same} == same


# --- issue 16: what the tests above left out --------------------------------------------------


def test_time_or_deals_refuses_a_deal_after_the_set_number_through_the_cli(tmp_path):
    fmt = {"end": "time_or_deals", "deals": 2, "minutes": 45}
    status, error = cli(record(fmt, [EW_UP3, NS_UP1, EW_UP1]), tmp_path)
    assert status == EXIT_BAD_INPUT
    assert "deals[2]: the match was over after deal 2 (the set number of deals was played)" in (
        error
    )
    status, error = cli(record(fmt, [EW_UP3, NS_UP1], time_called_in_deal=1), tmp_path)
    assert status == EXIT_BAD_INPUT
    assert "deals[1]: the match was over after deal 1 (time was up)" in error


def test_best_of_three_a_drawn_game_counts_for_neither_and_one_win_each_is_a_draw(tmp_path):
    fmt = {"end": "deals", "deals": 2, "games": 3}
    games = [
        {"deals": [EW_UP1, NS_UP1]},  # 3 : 3, a drawn game
        {"deals": [EW_UP3, EW_UP1]},  # EW by 4
        {"deals": [NS_UP1, NS_UP1]},  # NS by 2
    ]
    status, answer = cli(record(fmt, games=games), tmp_path)
    assert status == EXIT_OK and answer["over"] is True and answer["end"] == "games"
    assert answer["games_won"] == {"EW": 1, "NS": 1} and answer["winner"] is None
    assert answer["match_points"] == {"EW": 10, "NS": 10}  # a draw on the 20-point scale


def test_best_of_three_the_next_game_waits_for_the_end_of_the_game_before(tmp_path):
    fmt = {"end": "deals", "deals": 2, "games": 3}
    status, error = cli(record(fmt, games=[{"deals": [EW_UP1]}, {"deals": [NS_UP1]}]), tmp_path)
    assert status == EXIT_BAD_INPUT
    assert "games[0]: the game is not over, so the next game cannot start" in error


def test_best_of_three_by_time_each_game_has_its_own_time_call(tmp_path):
    fmt = {"end": "time", "games": 3}
    games = [
        {"deals": [EW_UP3], "time_called_in_deal": 1},
        {"deals": [EW_UP1, EW_UP1], "time_called_in_deal": 2},
    ]
    status, answer = cli(record(fmt, games=games), tmp_path)
    assert status == EXIT_OK and answer["winner"] == "EW" and answer["games_won"]["EW"] == 2
    assert [game["end"] for game in answer["games"]] == ["time", "time"]
    late = [games[0], {"deals": [EW_UP1, EW_UP1, NS_UP1], "time_called_in_deal": 2}]
    status, error = cli(record(fmt, games=late), tmp_path)
    assert status == EXIT_BAD_INPUT and "games[1].deals[2]" in error and "time was up" in error


def test_end_reasons_and_formats_read_in_chinese_and_english():
    from rules_engine.i18n import localize
    from rules_engine.match_format import end_reason, format_text

    assert localize(end_reason({"over": True, "end": "deals"}), "zh-hans") == "已打满规定副数"
    assert end_reason({"passed_a": "EW"}) == "a side passed A"  # a record without a format
    assert localize(end_reason({"end": "games"}), "zh-hans") == "一方已胜两局"
    assert end_reason({"over": False, "end": None}) is None
    words = format_text({"end": "deals", "deals": 8, "games": 3, "knockout": True})
    assert words == "8 deals · best of three · a winner is needed"
    assert localize(words, "zh-hans") == "计副制 8 副 · 三局二胜 · 须分出胜负"
    assert localize(format_text({"end": "pass_a"}), "zh-hans") == "计局制（打过 A 为止）"
    assert format_text(None) is None


def test_an_events_match_format_setting_is_checked_by_the_one_schema():
    from rules_engine.errors import RulesError
    from rules_engine.presets import event_preset

    preset = event_preset("guandan", "guandan-national", {"match_format": {"end": "time"}})
    assert preset.match_format == {
        "end": "time",
        "deals": None,
        "minutes": 60,
        "games": 1,
        "knockout": False,
    }
    for bad, field in (
        ({"end": "deals"}, "settings.match_format.deals"),
        ({"end": "whenever"}, "settings.match_format.end"),
        ({"games": 2}, "settings.match_format.games"),
        ("deals", "settings.match_format"),
    ):
        with pytest.raises(RulesError) as err:
            event_preset("guandan", "guandan-suzhou-2016", {"match_format": bad})
        assert err.value.field == field
    with pytest.raises(RulesError) as err:  # idiom-chain matches are three deals, no format
        event_preset("chengyu", "chengyu", {"match_format": {"end": "pass_a"}})
    assert err.value.field == "settings.match_format"


# --- issue 24: best of three by final levels per game --------------------------------------


def levels_game(ew, ns, passed_a=None):
    return {"final_levels": {"EW": ew, "NS": ns}, "passed_a": passed_a}


def test_best_of_three_by_final_levels_per_game_goes_to_the_side_winning_two_games(tmp_path):
    fmt = {"end": "pass_a", "games": 3}
    games = [levels_game("9", "4"), levels_game("3", "8"), levels_game("K", "5")]
    status, answer = cli(record(fmt, games=games, preset="guandan-national"), tmp_path)
    assert status == EXIT_OK and answer["over"] is True and answer["end"] == "games"
    assert answer["games_won"] == {"EW": 2, "NS": 1} and answer["winner"] == "EW"
    assert [g["end"] for g in answer["games"]] == ["final_levels"] * 3
    assert answer["level_difference"] == 5 - 5 + 8
    assert answer["match_points"]["EW"] > answer["match_points"]["NS"]


def test_best_of_three_by_final_levels_a_game_is_over_as_entered_and_mixes_with_deals():
    fmt = {"end": "deals", "deals": 1, "games": 3}
    one = api.score(record(fmt, games=[levels_game("7", "5")], preset="guandan-national"))
    assert one["over"] is False and one["games"][0]["over"] is True
    assert one["games_won"] == {"EW": 1, "NS": 0}
    mixed = api.score(
        record(fmt, games=[levels_game("7", "5"), {"deals": [EW_UP1]}], preset="guandan-national")
    )
    assert mixed["over"] is True and mixed["winner"] == "EW"


def test_best_of_three_by_final_levels_refuses_a_bad_level_naming_the_game():
    fmt = {"end": "pass_a", "games": 3}
    answers = api.score(
        [
            record(
                fmt, games=[levels_game("9", "4"), levels_game("9", "Z")], preset="guandan-national"
            )
        ]
    )
    assert answers[0]["field"] == "games[1].final_levels.NS"


def test_best_of_three_by_final_levels_needs_a_preset_that_allows_final_levels():
    fmt = {"end": "pass_a", "games": 3}
    body = record(fmt, games=[levels_game("9", "4")], settings={"final_levels_entry": False})
    (answer,) = api.score([body])
    assert answer["field"] == "games[0].final_levels"


def test_one_game_by_final_levels_under_a_format_is_over_as_entered():
    answer = api.score(
        record(
            {"end": "deals", "deals": 8},
            preset="guandan-national",
            final_levels={"EW": "9", "NS": "4"},
        )
    )
    assert answer["over"] is True and answer["end"] == "final_levels" and answer["winner"] == "EW"


def test_best_of_threes_limits_are_the_engines():
    from rules_engine import format_fields

    assert (format_fields.BEST_OF, format_fields.GAMES_TO_WIN) == (3, 2)
    assert format_fields.games_of(None) == format_fields.games_of({"games": 1}) == 1
    assert format_fields.games_of({"games": 3}) == 3 and format_fields.is_best_of_three(
        {"games": 3}
    )
    assert format_fields.limits({"end": "deals", "deals": 2, "games": 3}) == {
        "best_of_three": True,
        "games": 3,
        "games_to_win": 2,
    }
    assert format_fields.best_of_three({"end": "pass_a"}) == {"end": "pass_a", "games": 3}


def test_best_of_three_at_one_game_each_asks_for_game_3_not_one_more_deal(tmp_path):
    # issue 35: 1:1 in games with equal summed levels was answered "one more deal"
    fmt = {"end": "deals", "deals": 2, "games": 3, "knockout": True}
    games = [{"deals": [EW_UP3, EW_UP1]}, {"deals": [NS_UP3, NS_UP1]}]  # EW by 4, NS by 4
    status, answer = cli(record(fmt, games=games), tmp_path)
    assert status == EXIT_OK and answer["over"] is False and answer["winner"] is None
    assert answer["games_won"] == {"EW": 1, "NS": 1} and answer["level_difference"] == 0
    assert answer["next"] == "game_3"
    status, one = cli(record(fmt, games=games[:1]), tmp_path)
    assert one["next"] == "game_2"
    status, in_play = cli(record(fmt, games=[games[0], {"deals": [NS_UP1]}]), tmp_path)
    assert in_play["over"] is False and in_play["next"] is None  # game 2 goes on
    from rules_engine.i18n import localize
    from rules_engine.match_format import NEXT_STEPS

    assert localize(NEXT_STEPS["game_3"], "zh-hans") == "比赛未结束：请打第 3 局"
