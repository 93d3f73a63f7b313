"""Refusals that come from the rules engine reach the chief referee in the page's language."""

from django.utils import translation

from arbitration.services import ArbitrationError
from rules_engine import ladder
from rules_engine.errors import RulesError
from rules_engine.i18n import localize


def refusal() -> RulesError:
    try:
        ladder.check_step("banishment", "guandan")
    except RulesError as err:
        return err
    raise AssertionError("check_step accepted an unknown step")


def test_an_engine_refusal_is_chinese_on_chinese_pages_and_english_on_english_ones():
    err = refusal()
    refused = ArbitrationError.from_rules(err)  # rendered when shown, in the active language
    with translation.override("zh-hans"):
        chinese = refused.message
    with translation.override("en"):
        english = refused.message
    # English pages read the engine's words, the game named in words (Guandan, not guandan)
    assert english == localize(err.message, "en", words=True) and "must be one of" in english
    assert "Guandan" in english
    assert chinese != err.message and any("\u4e00" <= c <= "\u9fff" for c in chinese)
    assert refused.field == "step"
