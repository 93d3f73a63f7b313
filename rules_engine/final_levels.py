"""A match entered by its final levels only, for games with levels (guandan, tractor).

Record: ``{"game": ..., "final_levels": {"EW": "9", "NS": "7"}, "passed_a": "EW" | null}``
with no deals. Allowed when the preset's ``final_levels_entry`` is on (an event setting).
The answer is the SPEC 4.5 answer with an empty trace and ``"entry": "final_levels"``: the
higher level wins, equal levels draw, a side that passed A wins and counts 13 levels
(it must stand on A).
"""

from __future__ import annotations

from rules_engine.cards import PASSED_A, level_text, parse_level
from rules_engine.errors import RulesError, sub_field
from rules_engine.i18n import t
from rules_engine.presets import SIDES, Preset, match_points

A_LEVEL = PASSED_A - 1


def is_final_levels(record: dict) -> bool:
    return record.get("final_levels") is not None


def final_levels_answer(record: dict, preset: Preset, deals: list, **zero_fields) -> dict:
    if not preset.final_levels_entry:
        raise RulesError(
            t(
                "preset {name!r} does not allow entering only the final levels: enter every deal",
                name=preset.name,
            ),
            "final_levels",
        )
    if deals:
        raise RulesError(t("give either deals or final_levels, not both"), "final_levels")
    given = record["final_levels"]
    if not isinstance(given, dict) or set(given) != set(SIDES):
        raise RulesError(t('final_levels must be {{"EW": level, "NS": level}}'), "final_levels")
    levels = {side: parse_level(given[side], sub_field("final_levels", side)) for side in SIDES}
    passed_a = record.get("passed_a")
    if passed_a is not None:
        if passed_a not in SIDES:
            raise RulesError(t("passed_a must be EW, NS or null"), "passed_a")
        if levels[passed_a] != A_LEVEL:
            raise RulesError(
                t("{passed_a} passed A, so its final level must be A", passed_a=passed_a),
                "passed_a",
            )
    steps = {side: PASSED_A if side == passed_a else levels[side] for side in SIDES}
    difference = steps["EW"] - steps["NS"]
    winner = passed_a or ("EW" if difference > 0 else "NS" if difference < 0 else None)
    return {
        "winner": winner,
        "levels": {side: level_text(levels[side]) for side in SIDES},
        "level_difference": difference,
        "passed_a": passed_a,
        **zero_fields,
        "match_points": match_points(preset, winner, difference, passed_a=bool(passed_a)),
        "forfeit": None,
        "preset": preset.name,
        "entry": "final_levels",
        "trace": [],
    }
