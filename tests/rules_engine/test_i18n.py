"""The engine's messages in Chinese and English (rules_engine.i18n, rules_engine.locale_zh).

English output is the template filled in, exactly; Chinese comes from
the catalogue, template by template, with the same placeholders."""

import ast
import copy
import io
import json
import pickle
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import api
from rules_engine.chengyu.play import CHAIN, DISCARD, KILL, LEAD
from rules_engine.cli import EXIT_BAD_INPUT, run
from rules_engine.errors import RulesError
from rules_engine.guandan.combos import KINDS
from rules_engine.i18n import Text, joined, localize, localize_answer, placeholders, t
from rules_engine.locale_zh import TERMS, ZH

ENGINE = Path(__file__).resolve().parents[2] / "rules_engine"


def source_templates() -> dict[str, str]:
    """Every literal template of a ``t("...")`` call in rules_engine -> where it is."""
    found = {}
    for path in sorted(ENGINE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (
                isinstance(node, ast.Call)
                and getattr(node.func, "id", None) == "t"
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                found.setdefault(node.args[0].value, f"{path.name}:{node.lineno}")
    return found


def engine_sources() -> list[tuple[Path, ast.AST]]:
    return [(p, ast.parse(p.read_text("utf-8"))) for p in sorted(ENGINE.rglob("*.py"))]


def test_every_message_template_has_a_chinese_entry():
    missing = {k: where for k, where in source_templates().items() if k not in ZH}
    assert not missing, "no Chinese for:\n" + "\n".join(f"{w}: {k!r}" for k, w in missing.items())


def test_every_chinese_entry_is_used_by_the_engine():
    used = source_templates()
    stale = [k for k in ZH if k not in used and k not in TERMS]
    assert not stale, f"catalogue entries no code uses: {stale}"


def test_every_game_term_has_a_chinese_entry():
    terms = set(KINDS) | {LEAD, CHAIN, DISCARD, KILL, "tractor"}
    assert not terms - set(TERMS), f"terms without Chinese: {sorted(terms - set(TERMS))}"


@pytest.mark.parametrize("template", sorted(ZH))
def test_chinese_template_has_the_same_placeholders(template):
    assert placeholders(ZH[template]) == placeholders(template)


def test_every_rules_error_message_is_a_translatable_text():
    """A RulesError built from a bare string literal or f-string would stay English."""
    plain = []
    for path, tree in engine_sources():
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "RulesError":
                if node.args and isinstance(node.args[0], ast.Constant | ast.JoinedStr):
                    plain.append(f"{path.name}:{node.lineno}")
    assert not plain, f"RulesError with a plain message: {plain}"


def test_text_renders_the_english_template_exactly():
    text = t("{field}: seat {seat} appears twice", field="deals[2].finish", seat="E")
    assert text == "deals[2].finish: seat E appears twice"
    assert type(str(text)) is str and str(text) == text
    assert json.dumps({"reason": text}) == '{"reason": "deals[2].finish: seat E appears twice"}'
    assert localize(text, "en") == text and localize(text, None) == text


def test_text_survives_pickle_and_deepcopy_with_its_template():
    text = t("{payer} does not hold {card}", payer="W", card="SA")
    for again in (pickle.loads(pickle.dumps(text)), copy.deepcopy(text)):
        assert again == text and localize(again, "zh-hans") == "W 手中没有 SA"


def test_untranslated_or_plain_strings_stay_english():
    assert localize("plain words", "zh-hans") == "plain words"
    assert localize(t("not in the catalogue {x}", x=1), "zh-hans") == "not in the catalogue 1"


def test_joined_reads_like_str_join_in_english():
    assert joined(["E", "W", "N"]) == "E and W and N"
    assert joined(["S5", "S7"], "or") == "S5 or S7"
    assert localize(joined(["E", "W"]), "zh-hans") == "E和W"


@given(
    st.sampled_from(sorted(ZH)),
    st.text(st.characters(blacklist_categories=("Cs",)), max_size=8),
)
def test_any_template_renders_in_both_languages(template, value):
    params = {name: value for name in placeholders(template)}
    text = t(template, **params)
    assert text == template.format(**params)
    chinese = ZH[template]
    if value[:1].isdigit():  # the spacing rule: 须为 0 到 300, never 须为0 (issue 35)
        chinese = re.sub(r"须为(\{\w+\})", r"须为 \1", chinese)
    assert localize(text, "zh-hans") == chinese.format(**params)


def test_a_value_starting_with_a_digit_after_xuwei_is_spaced_in_every_template():
    spaced = [template for template in sorted(ZH) if re.search(r"须为\{\w+\}", ZH[template])]
    assert spaced  # the rule has templates to hold in
    for template in spaced:
        params = {name: "0" for name in placeholders(template)}
        assert "须为0" not in localize(t(template, **params), "zh-hans"), template


# English answers are unchanged: these are the strings pinned before the engine spoke Chinese.


def test_seat_twice_error_is_unchanged_in_english_and_chinese():
    record = {"game": "guandan", "deals": [{"finish": ["E", "W"]}, {"finish": ["E", "E", "S"]}]}
    with pytest.raises(RulesError) as caught:
        api.score(record)
    assert caught.value.message == "deals[1].finish: seat E appears twice"
    assert caught.value.field == "deals[1].finish"
    assert caught.value.localized("en") == caught.value.message
    assert caught.value.localized("zh-hans") == "deals[1].finish：座位 E 出现了两次"


def test_cli_answers_are_byte_identical(tmp_path):
    path = tmp_path / "request.json"
    path.write_text(
        json.dumps({"game": "guandan", "level": "2", "previous": ["SA"], "play": ["SK"]}), "utf-8"
    )
    out, err = io.StringIO(), io.StringIO()
    run("check", str(path), out, err)
    assert out.getvalue() == (
        '{\n  "legal": false,\n  "reason": "single K does not beat single A",\n'
        '  "kind": "single",\n  "rank": "K",\n  "size": 1,\n  "previous": {\n'
        '    "kind": "single",\n    "rank": "A",\n    "size": 1\n  }\n}\n'
    )
    path.write_text(json.dumps({"game": "guandan", "deals": [{"finish": ["E", "E"]}]}), "utf-8")
    assert run("score", str(path), out, err) == EXIT_BAD_INPUT
    assert err.getvalue() == (
        "error: deals[0].finish: seat E appears twice (field: deals[0].finish)\n"
    )


def test_list_answer_error_items_localize():
    answers = api.check([{"game": "guandan", "play": ["S1"]}])
    assert answers[0]["error"] == 'item 0: the request has no "level" (the rank being played, 2..A)'
    zh = localize_answer(answers, "zh-hans")
    assert zh[0] == {"error": '第 0 项：请求缺少 "level"（本副所打的级牌，2..A）', "field": "level"}
    assert localize_answer(answers, "en") == answers


# One Chinese ruling per game, as a referee reads it.


def test_guandan_ruling_in_chinese_names_the_combinations():
    answer = api.check({"game": "guandan", "level": "2", "previous": ["SA"], "play": ["SK"]})
    assert answer["reason"] == "single K does not beat single A"
    assert localize_answer(answer, "zh-hans")["reason"] == "单张K 压不过 单张A"
    assert localize_answer(answer, "zh-hans")["kind"] == "single"  # codes stay codes


def test_guandan_tribute_of_the_wild_card_is_refused_in_chinese():
    hands = {"E": ["S9", "C9"], "S": ["S4", "C4"], "W": ["H9", "D9"], "N": ["H5", "SA"]}
    answer = api.check(
        {
            "game": "guandan",
            "level": "5",
            "hands": hands,
            "finish": ["E", "S", "W", "N"],
            "tribute": [{"from": "N", "to": "E", "card": "H5"}],
            "return": [{"from": "E", "to": "N", "card": "C9"}],
        }
    )
    assert answer["reason"] == "N may not pay the heart level card H5 (逢人配)"
    assert localize(answer["reason"], "zh-hans") == "N 不能进贡红心级牌 H5（逢人配）"


def test_tractor_follow_ruling_in_chinese():
    answer = api.check(
        {
            "game": "tractor",
            "trump": "S",
            "level": "2",
            "hand": ["H3", "H4", "C5"],
            "lead": ["H9", "H10"],
            "play": ["H3", "C5"],
        }
    )
    assert answer["reason"] == "must follow suit: 2 card(s) of hearts are held, only 1 played"
    zh = localize_answer(answer, "zh-hans")
    assert zh["reason"] == "须跟同门：手中有 2 张红桃，只跟了 1 张"
    assert zh["lead_form"] == "甩牌（2 张单张）"


def test_tractor_failed_throw_in_chinese():
    answer = api.check(
        {
            "game": "tractor",
            "trump": "S",
            "level": "2",
            "throw": ["HA", "HQ"],
            "others": [["HK"], [], []],
        }
    )
    assert answer["legal"] is False
    assert localize(answer["reason"], "zh-hans").startswith("甩牌失败：")


def test_chengyu_missed_must_play_in_chinese():
    answer = api.check(
        {"game": "chengyu", "trump": "H", "hand": ["D5", "CA", "H2"], "trick": ["DK"], "play": "D5"}
    )
    assert answer["reason"] == "must chain to DK (必出) with CA"
    assert localize(answer["reason"], "zh-hans") == "须用 CA 接龙头 DK（必出）"


def test_chengyu_legal_play_names_its_kind_in_chinese():
    answer = api.check(
        {"game": "chengyu", "trump": "H", "hand": ["D5", "CA", "H2"], "trick": ["DK"], "play": "CA"}
    )
    assert answer["reason"] == "a chain"
    assert localize(answer["reason"], "zh-hans") == "接龙"


def test_nested_message_is_localized_inside_its_parent():
    inner = t("unknown standings metric {metric!r}", metric="luck")
    err = RulesError(t("settings: {message}", message=inner))
    assert err.localized("zh-hans") == "设置：未知的排名指标 'luck'"
    assert isinstance(err.message, Text) and err.as_dict() == {"error": str(err)}
