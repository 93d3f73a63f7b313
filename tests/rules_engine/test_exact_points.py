"""Match points as exact decimals (issue 36, SPEC 3.1): the 南山杯 2026 edition scores a win 1,
a draw 0.5, a loss 0, an absent side −1 (its opponent 1) and a bye 1; an edition's values are
Decimals, written "0.5" in its JSON, and the engine's answer keeps them JSON numbers."""

from __future__ import annotations

import json
from decimal import Decimal

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import api
from rules_engine.errors import RulesError
from rules_engine.points import PointsError, answer_number, points_json, points_text, to_points
from rules_engine.presets import (
    bye_level_difference,
    bye_points,
    event_preset,
    forfeit_level_difference,
    get_preset,
)

NANSHAN = "guandan-nanshan-2026"


def score(preset: str, **record) -> dict:
    return api.score({"game": "guandan", "preset": preset, **record})


def test_nanshan_appendix_one_points_win_1_draw_half_loss_0():
    """附录一 一.4 / 二.3: 胜方得 1 分，打平各得 0.5 分，负方得 0 分."""
    won = score(NANSHAN, final_levels={"EW": "K", "NS": "8"})
    assert won["match_points"] == {"EW": 1, "NS": 0}
    drawn = score(NANSHAN, final_levels={"EW": "9", "NS": "9"})
    assert drawn["match_points"] == {"EW": 0.5, "NS": 0.5}
    assert json.loads(json.dumps(drawn))["match_points"]["EW"] == 0.5  # a JSON number


def test_nanshan_absent_side_scores_minus_one_and_its_opponent_one():
    """附录一 一.4: 缺席队伍得 -1 分，对手自动获胜（记 1 分）."""
    answer = score(NANSHAN, deals=[], forfeit="NS")
    assert answer["match_points"] == {"EW": 1, "NS": -1}
    assert answer["winner"] == "EW"
    both = score(NANSHAN, deals=[], forfeit="both")
    assert both["match_points"] == {"EW": -1, "NS": -1}  # unverified: each side is absent


def test_bye_points_stand_apart_from_the_forfeit_points():
    """附录一 一.4: 轮空队伍自动获胜，记 1 分 — the bye is its own value, not the forfeit's."""
    nanshan = get_preset(NANSHAN)
    assert bye_points(nanshan) == Decimal(1)
    edited = event_preset("guandan", NANSHAN, {"bye_match_points": "0.5"})
    assert bye_points(edited) == Decimal("0.5")
    assert edited.forfeit_points == (Decimal(1), Decimal(-1))  # the forfeit is unchanged
    # an edition without its own bye value scores the forfeit win (SPEC 2), as before
    assert bye_points(get_preset("guandan-suzhou-2016")) == 17
    assert bye_points(
        event_preset("guandan", "guandan-suzhou-2016", {"forfeit_points": [15, 0]})
    ) == Decimal(15)


def test_a_bye_carries_small_points_only_when_the_edition_says_so():
    """SPEC 3.1: the small points of a bye are the level difference its points stand for
    (default), or none (2017: a bye carries no small points)."""
    suzhou = get_preset("guandan-suzhou-2016")
    assert forfeit_level_difference(suzhou) == 7  # 17 ↔ 7 levels
    assert bye_level_difference(suzhou) == 7
    none = event_preset("guandan", "guandan-suzhou-2016", {"bye_small_points": False})
    assert bye_level_difference(none) == 0
    assert forfeit_level_difference(none) == 7  # a forfeit keeps its level difference
    assert get_preset("guandan-national-2017").bye_small_points is False


def test_an_edition_reads_points_as_text_numbers_or_decimals_and_writes_them_back():
    edited = event_preset(
        "guandan", "guandan-national-2017", {"win_points": "1", "draw_points": 0.5}
    )
    assert (edited.win_points, edited.draw_points) == (Decimal(1), Decimal("0.5"))
    assert edited.as_dict()["draw_points"] == "0.5"  # SPEC 3.1: "0.5" in the edition's JSON
    assert edited.as_dict()["win_points"] == 1
    assert get_preset(NANSHAN).as_dict()["forfeit_points"] == [1, -1]


@pytest.mark.parametrize("bad", ["0.125", "half", True, None, "NaN", "1e9", [1]])
def test_points_that_are_not_exact_two_decimal_numbers_are_refused_naming_the_field(bad):
    with pytest.raises(RulesError) as err:
        event_preset("guandan", NANSHAN, {"draw_points": bad})
    assert err.value.field == "settings.draw_points"


def test_points_are_shown_without_trailing_zeros():
    assert [points_text(v) for v in ("0.50", "1.0", Decimal("10"), -1, 2.5, "0")] == [
        "0.5",
        "1",
        "10",
        "-1",
        "2.5",
        "0",
    ]
    assert points_json(Decimal("3.00")) == 3 and points_json("0.50") == "0.5"
    assert answer_number("0.5") == 0.5 and isinstance(answer_number("2.0"), int)
    with pytest.raises(PointsError):
        to_points(float("inf"))


@given(st.lists(st.sampled_from(["1", "0.5", "0", "-1"]), max_size=300))
def test_points_read_back_from_json_sum_exactly(values):
    """No float drift: the answer's JSON numbers read back as the decimals written, and their
    sum is the exact decimal sum (a hundred 0.1s would drift as floats)."""
    stored = json.loads(json.dumps([answer_number(v) for v in values]))
    exact = sum((Decimal(v) for v in values), Decimal(0))
    assert sum((to_points(v) for v in stored), Decimal(0)) == exact


def test_tenths_sum_exactly_where_floats_drift():
    assert sum([0.1] * 10) != 1  # the float drift this module exists to avoid
    assert sum((to_points(0.1) for _ in range(10)), Decimal(0)) == 1


def test_the_cli_scores_a_nanshan_draw_as_half_a_point_each(tmp_path):
    """``python -m rules_engine score`` under the 南山杯 edition by name: "EW": 0.5, and an
    edited copy (a draw of 1, as text) scores exactly that."""
    import io

    from rules_engine.cli import EXIT_OK, run

    path = tmp_path / "record.json"
    record = {"game": "guandan", "preset": NANSHAN, "final_levels": {"EW": "9", "NS": "9"}}
    path.write_text(json.dumps(record), "utf-8")
    out = io.StringIO()
    assert run("score", str(path), out, io.StringIO()) == EXIT_OK
    assert '"EW": 0.5' in out.getvalue() and '"0.5"' not in out.getvalue()
    path.write_text(json.dumps({**record, "settings": {"draw_points": "1"}}), "utf-8")
    out = io.StringIO()
    assert run("score", str(path), out, io.StringIO()) == EXIT_OK
    assert json.loads(out.getvalue())["match_points"] == {"EW": 1, "NS": 1}
