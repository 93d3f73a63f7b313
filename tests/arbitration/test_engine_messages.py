"""Refusals that come from the rules engine reach the chief referee in the page's language."""

from django.utils import translation

from arbitration.services import ArbitrationError
from rules_engine import ladder
from rules_engine.errors import RulesError


def refusal() -> RulesError:
    try:
        ladder.check_step("banishment", "guandan")
    except RulesError as err:
        return err
    raise AssertionError("check_step accepted an unknown step")


def test_an_engine_refusal_is_chinese_on_chinese_pages_and_english_on_english_ones():
    err = refusal()
    with translation.override("zh-hans"):
        chinese = ArbitrationError.from_rules(err)
    with translation.override("en"):
        english = ArbitrationError.from_rules(err)
    assert english.message == err.message and "must be one of" in english.message
    assert chinese.message != err.message and any(
        "\u4e00" <= c <= "\u9fff" for c in chinese.message
    )
    assert chinese.field == english.field == "step"
