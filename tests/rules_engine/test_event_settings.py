"""The one event-settings schema: preset and penalty-ladder settings checked together, by
the types and ranges their dataclasses declare (rules_engine.schema, presets.event_preset)."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import ladder
from rules_engine.errors import RulesError
from rules_engine.i18n import localize
from rules_engine.presets import PRESET_SETTINGS, Preset, event_preset, get_preset, settable
from rules_engine.schema import check_value, describe, fields_of


def refused(settings, game="guandan", preset="guandan-suzhou-2016") -> RulesError:
    with pytest.raises(RulesError) as err:
        event_preset(game, preset, settings)
    return err.value


def test_a_negative_appeal_time_is_refused_naming_the_setting():
    err = refused({"appeal_minutes": -5})
    assert err.field == "settings.appeal_minutes"
    assert "appeal_minutes must be a whole number of 0 or more" in err.message
    assert "appeal_minutes 须为不小于 0 的整数" in localize(err.message, "zh-hans")


@pytest.mark.parametrize(
    "settings, field",
    [
        ({"late_limit_minutes": "ten"}, "settings.late_limit_minutes"),
        ({"answer_minutes": True}, "settings.answer_minutes"),
        ({"answer_near_minutes": 2.5}, "settings.answer_near_minutes"),
        ({"escalation": {"warning": 3}}, "settings.escalation"),
        # issue 36: negatives are allowed (absent -1), more than two decimals are not
        ({"win_points": "0.125"}, "settings.win_points"),
        ({"win_points": "one"}, "settings.win_points"),
        ({"win_points": True}, "settings.win_points"),
        (
            {"stage_standings_orders": {"groups": ["points"]}},
            "settings.stage_standings_orders.groups",
        ),
        (
            {"stage_standings_orders": {"swiss": ["wins", "h2h"]}},
            "settings.stage_standings_orders.swiss",
        ),
        ({"avoid_same_unit": "no"}, "settings.avoid_same_unit"),
        ({"forfeit_points": [17]}, "settings.forfeit_points"),
        ({"forfeit_points": [17, "x"]}, "settings.forfeit_points"),
        ({"level_difference_table": [[10, 10], [20]]}, "settings.level_difference_table"),
        ({"standings_order": "points"}, "settings.standings_order"),
        ({"time_up": "never"}, "settings.time_up"),
        ({"decks": 0}, "settings.decks"),
        ({"fail_a_limit": 0}, "settings.fail_a_limit"),
        ({"unit_best_teams": 0}, "settings.unit_best_teams"),  # added by another branch
    ],
)
def test_bad_values_of_either_schema_are_refused_with_the_field_named(settings, field):
    assert refused(settings).field == field


def test_unknown_keys_are_refused():
    err = refused({"appeal_minute": 30})
    assert err.field == "settings.appeal_minute"
    assert "unknown preset setting 'appeal_minute'" in err.message


def test_settings_must_be_an_object_and_the_preset_must_fit_the_game():
    assert refused([["appeal_minutes", 5]]).field == "settings"
    assert refused({}, game="tractor").field == "preset"
    assert refused({}, preset="nope").field == "preset"


def test_valid_overrides_of_both_schemas_are_accepted_together():
    preset = event_preset(
        "guandan",
        "guandan-national-2017",
        {"appeal_minutes": 45, "fail_a_limit": 2, "escalation": {"warning": [3, "violation"]}},
    )
    assert preset.fail_a_limit == 2
    assert ladder.ladder_settings("guandan", {"appeal_minutes": 45}).appeal_minutes == 45
    assert event_preset("guandan", "guandan-suzhou-2016", {}) is get_preset("guandan-suzhou-2016")


def test_lists_are_stored_as_tuples():
    preset = event_preset("guandan", "guandan-suzhou-2016", {"level_difference_table": [[3, 1]]})
    assert preset.level_difference_table == ((3, 1),)


def test_every_preset_field_and_ladder_setting_is_in_the_schema():
    # the round length a new event starts with is the event's own column, not a setting
    fixed = {"name", "game", "default_round_minutes"}
    preset_fields = {f.name for f in dataclasses.fields(Preset)} - fixed
    assert set(PRESET_SETTINGS) == preset_fields
    assert settable() == preset_fields | {f.name for f in dataclasses.fields(ladder.LadderSettings)}


def test_a_field_added_to_a_settings_dataclass_is_checked_without_more_code():
    @dataclasses.dataclass(frozen=True)
    class Extra:
        rounds: int = dataclasses.field(default=3, metadata={"min": 1, "max": 9})
        name: str | None = None
        offset: int = dataclasses.field(default=0, metadata={"min": None})

    from rules_engine.schema import check_values

    assert check_values(Extra, {"rounds": 9, "name": None, "other": 1}) == {
        "rounds": 9,
        "name": None,
    }
    with pytest.raises(RulesError, match="rounds must be a whole number from 1 to 9"):
        check_values(Extra, {"rounds": 10})
    with pytest.raises(RulesError, match="name must be a text, or null"):
        check_values(Extra, {"name": 5})
    assert check_values(Extra, {"offset": -3}) == {"offset": -3}
    with pytest.raises(RulesError, match="offset must be a whole number$"):
        check_values(Extra, {"offset": "x"})


@given(st.integers(min_value=-1000, max_value=1000))
def test_ladder_minutes_are_whole_numbers_of_zero_or_more(minutes):
    for key in ladder.SETTING_KEYS[1:]:
        if minutes >= 0:
            assert getattr(ladder.ladder_settings("tractor", {key: minutes}), key) == minutes
        else:
            with pytest.raises(RulesError):
                event_preset("tractor", "tractor", {key: minutes})


def test_every_settable_type_has_words_in_english_and_chinese():
    for cls in (Preset, ladder.LadderSettings):
        for field, hint in fields_of(cls).values():
            words = describe(hint, field.metadata)
            assert localize(words, "zh-hans") != str(words), (field.name, words)


def test_check_value_names_the_position_it_was_given():
    with pytest.raises(RulesError) as err:
        check_value(int, -1, "settings.x")
    assert err.value.field == "settings.x"


def test_round_one_method_is_a_preset_setting_random_by_default_or_by_seed():
    from rules_engine.errors import RulesError
    from rules_engine.presets import event_preset

    assert event_preset("guandan", "guandan-suzhou-2016").round_one_method == "random"
    chosen = event_preset("guandan", "guandan-suzhou-2016", {"round_one_method": "seed"})
    assert chosen.round_one_method == "seed"
    with pytest.raises(RulesError) as err:
        event_preset("guandan", "guandan-suzhou-2016", {"round_one_method": "strongest"})
    assert err.value.field == "settings.round_one_method"
