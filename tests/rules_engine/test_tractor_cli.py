"""The SPEC 4.5 examples of tractor and idiom-chain poker through ``python -m rules_engine``."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

TRACTOR_RECORD = {
    "game": "tractor",
    "preset": "tractor",
    "deals": [
        {
            "dealer": "EW",
            "defender_points": 85,
            "bottom_points": 15,
            "bottom_multiplier": 4,
            "failed_throws": [{"side": "NS", "cards": 2}],
        }
    ],
}
CHENGYU_RECORD = {
    "game": "chengyu",
    "preset": "chengyu",
    "deals": [{"tricks": {"EW": 8, "NS": 5}}, {"tricks": {"EW": 6, "NS": 7}}],
}
TRACTOR_FOLLOW = {
    "game": "tractor",
    "trump": "S",
    "level": "5",
    "hand": ["C3", "C8", "H2"],
    "lead": ["C9", "C9"],
    "play": ["C3", "C8"],
}
TRACTOR_THROW = {
    "game": "tractor",
    "trump": "S",
    "level": "5",
    "throw": ["CA", "CK"],
    "others": [["CQ"], ["CA"], []],
}
CHENGYU_CHECK = {
    "game": "chengyu",
    "trump": "H",
    "hand": ["S2", "S8"],
    "trick": ["S7"],
    "play": "S2",
}


def run(action, request):
    done = subprocess.run(
        [sys.executable, "-m", "rules_engine", action, "-"],
        input=json.dumps(request),
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def test_score_answers_the_spec_records_of_both_games():
    code, out, _ = run("score", [TRACTOR_RECORD, CHENGYU_RECORD])
    tractor, chengyu = json.loads(out)
    assert code == 0
    assert (
        tractor["levels"] == {"EW": "2", "NS": "2"} and tractor["trace"][0]["total_points"] == 125
    )
    assert chengyu["winner"] == "EW" and chengyu["deals_won"] == {"EW": 1, "NS": 1}


def test_check_answers_follows_throws_and_chains_and_flags_bad_items():
    bad = TRACTOR_FOLLOW | {"play": ["C3", "CX"]}
    code, out, err = run("check", [TRACTOR_FOLLOW, TRACTOR_THROW, CHENGYU_CHECK, bad])
    follow, throw, chain, error = json.loads(out)
    assert code != 0 and "Traceback" not in err
    assert follow["legal"] is True
    assert throw["penalty_points"] == 10 and throw["forced_play"] == ["CK"]
    assert chain["legal"] is False and "S8" in chain["reason"]
    assert "CX" in error["error"]


def test_bad_points_give_an_error_naming_the_deal_and_field_not_a_traceback():
    record = TRACTOR_RECORD | {"deals": [{"dealer": "EW", "defender_points": 87}]}
    code, out, err = run("score", record)
    assert code != 0 and "Traceback" not in out + err
    assert "deals[0].defender_points" in out + err


def test_cli_refuses_a_record_breaking_the_300_point_rule_with_exit_2():
    record = {
        "game": "tractor",
        "preset": "tractor",
        "deals": [
            {"dealer": "EW", "defender_points": 290, "bottom_points": 40, "bottom_multiplier": 2}
        ],
    }
    code, out, err = run("score", record)
    assert code == 2 and out == "" and "Traceback" not in err
    assert "300 points" in err and "deals[0].bottom_points" in err
