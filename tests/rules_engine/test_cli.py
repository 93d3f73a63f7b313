"""``python -m rules_engine score|check|classify FILE`` and the api behind it (SPEC 4.5)."""

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules_engine import api
from rules_engine.cli import EXIT_BAD_INPUT, EXIT_INTERNAL, EXIT_OK, EXIT_SOME_BAD, run
from rules_engine.errors import RulesError

ROOT = Path(__file__).resolve().parents[2]
SPEC_SCORE = {
    "game": "guandan",
    "preset": "guandan-suzhou-2016",
    "deals": [{"finish": ["E", "W", "S", "N"]}, {"finish": ["S", "E", "N", "W"]}],
    "forfeit": None,
}
SPEC_CHECK = {"game": "guandan", "level": "7", "previous": ["S5", "H5"], "play": ["S6", "H7"]}


def cli(action, payload, tmp_path):
    path = tmp_path / "request.json"
    path.write_text(payload if isinstance(payload, str) else json.dumps(payload), "utf-8")
    out, err = io.StringIO(), io.StringIO()
    status = run(action, str(path), out, err)
    return status, out.getvalue(), err.getvalue()


def test_spec_score_example_answers_exactly(tmp_path):
    status, out, _ = cli("score", SPEC_SCORE, tmp_path)
    assert status == EXIT_OK
    answer = json.loads(out)
    assert {k: answer[k] for k in ("winner", "levels", "level_difference", "passed_a")} == {
        "winner": "EW",
        "levels": {"EW": "5", "NS": "4"},
        "level_difference": 1,
        "passed_a": None,
    }
    assert answer["match_points"] == {"EW": 11, "NS": 9}
    assert len(answer["trace"]) == 2


def test_spec_check_example_answers_exactly(tmp_path):
    status, out, _ = cli("check", SPEC_CHECK, tmp_path)
    assert status == EXIT_OK
    assert json.loads(out) == {
        "legal": True,
        "reason": "pair 6 beats pair 5",
        "kind": "pair",
        "rank": "6",
        "size": 2,
        "previous": {"kind": "pair", "rank": "5", "size": 2},
    }


def test_spec_classify_example_lists_every_reading(tmp_path):
    request = {"game": "guandan", "level": "7", "cards": ["S5", "C5", "S6", "C6", "H7", "H7"]}
    status, out, _ = cli("classify", request, tmp_path)
    assert status == EXIT_OK
    assert json.loads(out) == {
        "readings": [
            {"kind": "tube", "rank": "7", "size": 6},
            {"kind": "tube", "rank": "6", "size": 6},
            {"kind": "plate", "rank": "6", "size": 6},
        ]
    }


def test_check_with_empty_or_missing_previous_asks_for_any_valid_lead():
    assert api.check({"game": "guandan", "level": "2", "play": ["S3", "S3"]})["legal"]
    lead = api.check({"game": "guandan", "level": "2", "previous": [], "play": ["S3", "S4"]})
    assert not lead["legal"] and lead["reason"] == "the play is not a valid combination"


def test_check_reads_previous_at_its_strongest_reading_unless_declared():
    request = {
        "game": "guandan",
        "level": "7",
        "previous": ["S5", "C5", "S6", "C6", "H7", "H7"],
        "play": ["S7", "C7", "D7", "S8", "C8", "D8"],
    }
    assert not api.check(request)["legal"]  # strongest reading is a tube, not a plate
    declared = api.check(request | {"previous_kind": "plate", "previous_rank": "6"})
    assert declared["legal"] and declared["kind"] == "plate"


def test_check_counts_copies_across_previous_and_play():
    request = {"game": "guandan", "level": "2", "previous": ["S5", "S5"], "play": ["S5", "C6"]}
    with pytest.raises(RulesError, match="S5 appears 3 times"):
        api.check(request)


def test_check_illegal_play_says_why():
    answer = api.check({"game": "guandan", "level": "2", "previous": ["SA"], "play": ["SK"]})
    assert answer["legal"] is False
    assert answer["reason"] == "single K does not beat single A"


def test_list_input_answers_each_item_and_exits_1_when_one_is_bad(tmp_path):
    status, out, _ = cli("check", [SPEC_CHECK, {"game": "guandan", "play": ["S1"]}], tmp_path)
    assert status == EXIT_SOME_BAD
    answers = json.loads(out)
    assert answers[0]["legal"] is True
    assert answers[1] == {
        "error": 'item 1: the request has no "level" (the rank being played, 2..A)',
        "field": "level",
    }


def test_bad_input_prints_the_error_and_field_and_exits_2(tmp_path):
    status, out, err = cli(
        "classify", {"game": "guandan", "level": "7", "cards": ["S7"] * 3}, tmp_path
    )
    assert status == EXIT_BAD_INPUT and out == ""
    assert err.startswith("error: cards: S7 appears 3 times, more copies than 2 decks hold")
    assert "(field: cards)" in err


def test_seat_twice_is_bad_input(tmp_path):
    record = SPEC_SCORE | {"deals": [{"finish": ["E", "E", "S"]}]}
    status, _, err = cli("score", record, tmp_path)
    assert status == EXIT_BAD_INPUT and "seat E appears twice" in err


def test_unknown_game_names_the_field(tmp_path):
    status, _, err = cli("score", {"game": "poker"}, tmp_path)
    assert status == EXIT_BAD_INPUT
    assert "unknown game 'poker'" in err and "(field: game)" in err


@pytest.mark.parametrize(
    "payload, message",
    [
        ('{"game": ', "is not valid JSON"),
        ("", "is empty"),
        ("42", "a request must be a JSON object"),
        ('{"level": "7"}', 'no "game" field'),
    ],
)
def test_malformed_input_gives_a_message_and_non_zero_exit(tmp_path, payload, message):
    status, _, err = cli("classify", payload, tmp_path)
    assert status == EXIT_BAD_INPUT
    assert message in err and "Traceback" not in err


def test_missing_file_is_a_clear_error(tmp_path):
    err = io.StringIO()
    assert run("score", str(tmp_path / "nope.json"), io.StringIO(), err) == EXIT_BAD_INPUT
    assert "cannot read" in err.getvalue()


def test_unexpected_failure_is_an_internal_error_without_traceback(tmp_path, monkeypatch):
    def boom(action, obj):
        raise ZeroDivisionError("boom")

    monkeypatch.setattr(api, "answer", boom)
    status, _, err = cli("score", SPEC_SCORE, tmp_path)
    assert status == EXIT_INTERNAL
    assert err.strip() == "internal error: ZeroDivisionError: boom"


def test_python_m_rules_engine_reads_stdin_and_prints_chinese_unescaped():
    request = {"game": "guandan", "level": "7", "cards": ["大王", "大王", "小王", "小王"]}
    done = subprocess.run(
        [sys.executable, "-m", "rules_engine", "classify", "-"],
        input=json.dumps(request, ensure_ascii=False),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "readings": [{"kind": "joker_bomb", "rank": "BJ", "size": 4}]
    }


def test_python_m_rules_engine_malformed_json_file_exits_non_zero(tmp_path):
    path = tmp_path / "bad.json"
    path.write_text('[{"game": "guandan",]', "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "rules_engine", "score", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == EXIT_BAD_INPUT
    assert done.stderr.startswith("error: ") and "not valid JSON" in done.stderr
    assert "Traceback" not in done.stderr


def test_tribute_request_through_check():
    hands = {"E": ["S9", "D3"], "S": ["S4"], "W": ["H9"], "N": ["BJ", "C3"]}
    answer = api.check(
        {
            "game": "guandan",
            "level": "5",
            "hands": hands,
            "finish": ["E", "S", "W", "N"],
            "tribute": [{"from": "N", "to": "E", "card": "大王"}],
            "return": [{"from": "E", "to": "N", "card": "D3"}],
        }
    )
    assert answer == {
        "legal": True,
        "reason": "tribute and return are legal",
        "resisted": False,
        "payers": ["N"],
        "leader": "N",
    }


@pytest.mark.parametrize(
    "payload, message, field",
    [
        ("[" * 100_000 + "]" * 100_000, "is nested too deeply (at most 32 levels)", "file"),
        ('{"game": "guandan", "deals": [' + "9" * 20_000 + "]}", "number at deals[0]", "deals[0]"),
        ('{"game": "guandan", "level": 1' + "0" * 20_000 + ".5}", "number at level", "level"),
        ('{"game": "guandan", "level": 1e999999}', "number at level", "level"),
        ('{"game": "guandan", "level": NaN}', "number at level", "level"),
    ],
    ids=["deep", "long-int", "long-float", "infinite", "nan"],
)
def test_deep_json_and_huge_numbers_are_bad_input_not_internal_error(
    tmp_path, payload, message, field
):
    """Issue 39: a 100,000-deep array (RecursionError) and a 20,000-digit number (Python's
    int limit) answered "internal error", exit 3."""
    status, out, err = cli("score", payload, tmp_path)
    assert status == EXIT_BAD_INPUT, err
    assert message in err and f"(field: {field})" in err and "internal error" not in err
    assert out == ""


def test_python_m_rules_engine_exits_2_on_a_20000_digit_number(tmp_path):
    path = tmp_path / "huge.json"
    path.write_text('{"game": "guandan", "deals": [' + "9" * 20_000 + "]}", "utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "rules_engine", "score", str(path)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == EXIT_BAD_INPUT, done.stderr
    assert "too long or not finite (at most 20 digits)" in done.stderr
