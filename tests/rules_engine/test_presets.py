import dataclasses

import pytest

from rules_engine.errors import RulesError
from rules_engine.presets import (
    PRESETS,
    STANDINGS_METRICS,
    Preset,
    forfeit_match_points,
    get_preset,
    match_points,
    presets_for_game,
    resolve_preset,
)

SUZHOU = get_preset("guandan-suzhou-2016")
NATIONAL = get_preset("guandan-national-2017")


@pytest.mark.parametrize(
    "difference, points",
    [
        (0, (10, 10)),
        (1, (11, 9)),
        (2, (12, 8)),
        (7, (17, 3)),
        (9, (19, 1)),
        (10, (20, 0)),
        (12, (20, 0)),
    ],
)
def test_suzhou_20_point_table_from_level_difference(difference, points):
    winner = "EW" if difference else None
    assert match_points(SUZHOU, winner, difference) == {"EW": points[0], "NS": points[1]}


def test_suzhou_passing_a_scores_20_to_0_whatever_the_difference():
    assert match_points(SUZHOU, "NS", -2, passed_a=True) == {"EW": 0, "NS": 20}


def test_suzhou_forfeit_is_17_to_0_like_a_seven_level_win():
    assert forfeit_match_points(SUZHOU, "NS") == {"EW": 17, "NS": 0}
    assert match_points(SUZHOU, "EW", 7)["EW"] == 17


def test_national_win_3_draw_2_loss_1_no_show_0():
    assert match_points(NATIONAL, "NS", -5) == {"EW": 1, "NS": 3}
    assert match_points(NATIONAL, None, 0) == {"EW": 2, "NS": 2}
    assert forfeit_match_points(NATIONAL, "EW") == {"EW": 0, "NS": 3}
    assert forfeit_match_points(NATIONAL, "both") == {"EW": 0, "NS": 0}


def test_tractor_and_chengyu_win_2_draw_1_loss_0_forfeit_2_to_0():
    for name in ("tractor", "chengyu"):
        preset = get_preset(name)
        assert match_points(preset, "EW", 3) == {"EW": 2, "NS": 0}
        assert match_points(preset, None) == {"EW": 1, "NS": 1}
        assert forfeit_match_points(preset, "EW") == {"EW": 0, "NS": 2}


def test_standings_orders_follow_spec_section_3():
    assert SUZHOU.standings_order == ("points", "level_diff", "head_to_head", "draw_lots")
    assert NATIONAL.standings_order == (
        "points",
        "head_to_head_two",
        "net_levels",
        "accumulated_levels",
        "draw_lots",
    )
    assert get_preset("tractor").standings_order == ("points", "level_diff", "latest_round_score")
    assert get_preset("chengyu").standings_order == ("points", "deals_won_diff", "tricks_diff")
    for preset in PRESETS.values():
        assert set(preset.standings_order) <= set(STANDINGS_METRICS)


def test_fail_a_limit_suzhou_never_national_three():
    assert SUZHOU.fail_a_limit is None
    assert NATIONAL.fail_a_limit == 3


def test_tractor_deal_table_default_60_point_steps_and_chengyu_suit_ring():
    table = get_preset("tractor").tractor_deal_table
    assert [row[0] for row in table] == [0, 5, 60, 120, 180, 240, 300]
    assert get_preset("chengyu").chengyu_suit_ring == ("D", "C", "H", "S")


def test_presets_for_game_lists_only_that_game():
    assert {p.name for p in presets_for_game("guandan")} == {
        "guandan-suzhou-2016",
        "guandan-national-2017",
        "guandan-national",
        "guandan-nanshan-2026",
    }


def test_unknown_preset_is_a_clear_error():
    with pytest.raises(RulesError, match="unknown preset 'nope'") as err:
        get_preset("nope")
    assert err.value.field == "preset"


def test_with_overrides_sets_a_event_setting_without_changing_the_preset():
    changed = SUZHOU.with_overrides(fail_a_limit=3, forfeit_points=[20, 0])
    assert changed.fail_a_limit == 3 and changed.forfeit_points == (20, 0)
    assert SUZHOU.fail_a_limit is None


def test_with_overrides_rejects_unknown_or_bad_settings():
    with pytest.raises(RulesError, match="unknown preset setting 'colour'"):
        SUZHOU.with_overrides(colour="red")
    with pytest.raises(RulesError, match="fail_a_limit"):
        SUZHOU.with_overrides(fail_a_limit=0)
    with pytest.raises(RulesError, match="unknown standings metric"):
        SUZHOU.with_overrides(standings_order=["points", "luck"])


def test_match_points_rejects_an_unknown_side():
    with pytest.raises(RulesError, match="winner must be EW, NS or null"):
        match_points(SUZHOU, "EN", 1)


def test_record_settings_with_an_unknown_key_name_the_settings_field():
    with pytest.raises(RulesError, match="settings: unknown preset setting 'foo'") as err:
        resolve_preset({"settings": {"foo": 1}}, "guandan")
    assert err.value.field == "settings.foo"


def test_event_settings_of_the_penalty_ladder_pass_through_preset_overrides():
    from rules_engine.presets import get_preset

    preset = get_preset("guandan-suzhou-2016").with_overrides(
        escalation={"warning": [3, "violation"]}, fail_a_limit=3
    )
    assert preset.fail_a_limit == 3


def test_round_timing_defaults_tractor_plays_one_more_deal_guandan_finishes_the_deal():
    from rules_engine.presets import get_preset

    assert get_preset("tractor").time_up == "one_more_deal"
    assert get_preset("guandan-suzhou-2016").time_up == "finish_deal"
    assert {get_preset(n).warning_minutes for n in ("tractor", "guandan-national-2017")} == {10}


def test_round_timing_settings_are_checked():
    import pytest

    from rules_engine.errors import RulesError
    from rules_engine.presets import get_preset

    with pytest.raises(RulesError) as err:
        get_preset("tractor").with_overrides(time_up="never")
    assert err.value.field == "time_up"
    with pytest.raises(RulesError):
        get_preset("tractor").with_overrides(warning_minutes=-1)


# --- issue 16: the national preset's time and procedure settings (SPEC 5, SPEC 3) -------------

NEW_FIELDS = (
    "match_format",
    "play_seconds",
    "play_warning_seconds",
    "tribute_seconds",
    "tribute_return_seconds",
)


def test_national_preset_time_and_procedure_follow_the_national_text():
    preset = get_preset("guandan-national")
    assert (preset.play_seconds, preset.play_warning_seconds) == (20, 30)  # 0-20 s, 20-30 s
    assert (preset.tribute_seconds, preset.tribute_return_seconds) == (15, 30)
    assert preset.in_play_ladder == "national" and preset.partner_return_limit == "10"
    assert preset.match_format is None  # the event (or stage) chooses the match format


# issue 28: each preset carries its own seed's rules (掼蛋 苏州 十二, 十三 第5条; 成语接龙 五)
ISSUE_28_CHANGES = {
    "guandan-suzhou-2016": {
        "in_play_ladder": "suzhou",
        "play_seconds": 30,
        "tribute_return_seconds": 40,
    },
    "chengyu": {"play_seconds": 10, "default_round_minutes": 30},
    # issue 36: SPEC 3.1 "2017: a bye carries no small points" (no level table: no effect)
    "guandan-national-2017": {"bye_small_points": False},
}
# issue 36: editions shipped since the snapshot (SPEC 3.1)
ADDED_PRESETS = {"guandan-nanshan-2026"}


def test_existing_presets_are_unchanged_by_the_new_settings():
    import json
    from pathlib import Path

    before = json.loads((Path(__file__).parent / "presets_before_issue16.json").read_text("utf-8"))
    assert set(before) == set(PRESETS) - ADDED_PRESETS
    defaults = {f.name: f.default for f in dataclasses.fields(Preset)}
    defaults["no_show_points"] = 0  # a Decimal, shown in JSON as 0 (rules_engine.points)
    for name, preset in PRESETS.items():
        if name in ADDED_PRESETS:
            continue
        now = json.loads(json.dumps(preset.as_dict()))  # tuples as lists, like the snapshot
        # issue 29: a title quotes no scoring number (names build them: scoring_terms)
        assert now.pop("title") in before[name].pop("title"), name
        changed = ISSUE_28_CHANGES.get(name, {})
        assert {k: now[k] for k in before[name]} == before[name] | {
            k: v for k, v in changed.items() if k in before[name]
        }, name
        # a setting added since keeps the old behaviour at its default (e.g. round_one_method)
        added = set(now) - set(before[name]) - set(NEW_FIELDS) - set(changed)
        assert all(now[key] == defaults[key] for key in added), (name, added)
        if name != "guandan-national":
            assert all(getattr(preset, key) is None for key in NEW_FIELDS if key not in changed)
        assert all(now[key] == value for key, value in changed.items()), name


def test_time_and_procedure_settings_are_checked_by_the_one_schema():
    from rules_engine.presets import event_preset

    preset = event_preset("guandan", "guandan-national", {"play_warning_seconds": 40})
    assert preset.play_warning_seconds == 40 and preset.play_seconds == 20
    for bad, field in (
        ({"play_seconds": 0}, "settings.play_seconds"),
        ({"tribute_seconds": "15"}, "settings.tribute_seconds"),
        ({"play_seconds": 30, "play_warning_seconds": 25}, "settings.play_warning_seconds"),
    ):
        with pytest.raises(RulesError) as err:
            event_preset("guandan", "guandan-national", bad)
        assert err.value.field == field


def test_a_presets_scoring_terms_are_its_own_values_with_the_events_overrides():
    from rules_engine.presets import ScoringTerms, event_preset, scoring_terms

    assert scoring_terms(get_preset("guandan-national-2017")) == ScoringTerms(3, 2, 1, None, None)
    assert scoring_terms(get_preset("guandan-suzhou-2016")).scale == 20
    assert scoring_terms(get_preset("guandan-national")).level_points == 26
    changed = event_preset("guandan", "guandan-national-2017", {"win_points": 4})
    assert scoring_terms(changed).win == 4
    assert not any(ch.isdigit() for ch in get_preset("tractor").title)
