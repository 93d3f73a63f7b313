"""The penalty ladders, escalation, lateness and the appeal procedure (SPEC 5)."""

from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules_engine import ladder
from rules_engine.errors import RulesError
from rules_engine.ladder import (
    LADDER,
    LadderSettings,
    Penalty,
    escalate,
    ladder_settings,
    late_forfeit,
    majority_decision,
)

T0 = datetime(2026, 5, 1, 9, 0)


def test_ladder_order_is_verbal_warning_to_suspension():
    assert LADDER == (
        "verbal_warning",
        "warning",
        "violation",
        "level_deduction",
        "match_loss",
        "suspension",
    )


def test_verbal_warning_never_escalates():
    assert escalate(["verbal_warning"] * 9, "verbal_warning") == []


def test_first_warning_does_not_escalate():
    assert escalate([], "warning") == []


def test_two_warnings_make_a_violation():
    assert escalate(["warning"], "warning") == ["violation"]


def test_third_warning_does_not_escalate_fourth_does():
    record = ["warning", "warning", "violation"]
    assert escalate(record, "warning") == []
    assert escalate([*record, "warning"], "warning") == ["violation"]


def test_three_violations_make_a_match_loss():
    assert escalate(["violation"], "violation") == []
    assert escalate(["violation"] * 2, "violation") == ["match_loss"]


def test_two_match_losses_make_a_suspension():
    assert escalate([], "match_loss") == []
    assert escalate(["match_loss"], "match_loss") == ["suspension"]


def test_escalation_chains_warning_to_violation_to_match_loss_to_suspension():
    record = ["match_loss", "violation", "violation", "warning"]
    assert escalate(record, "warning") == ["violation", "match_loss", "suspension"]


def test_level_deduction_and_suspension_do_not_escalate():
    assert escalate(["level_deduction"] * 5, "level_deduction") == []
    assert escalate(["suspension"], "suspension") == []


def test_escalation_is_configurable_per_event():
    settings = ladder_settings("guandan", {"escalation": {"warning": [3, "violation"]}})
    assert escalate(["warning"], "warning", settings) == []
    assert escalate(["warning"] * 2, "warning", settings) == ["violation"]
    # only the steps named are escalated: violations no longer make a match loss
    assert escalate(["violation"] * 2, "violation", settings) == []


@pytest.mark.parametrize(
    "escalation, message",
    [
        ("x", "must map a step"),
        ({"warning": [0, "violation"]}, "count must be 1 or more"),
        ({"warning": [2, "verbal_warning"]}, "higher step"),
        ({"nap": [2, "violation"]}, "ladder step"),
    ],
)
def test_bad_escalation_setting_names_the_setting(escalation, message):
    with pytest.raises(RulesError, match=message) as err:
        ladder_settings("guandan", {"escalation": escalation})
    assert err.value.field == "settings.escalation"


def test_ladder_settings_ignore_other_areas_settings_and_check_minutes():
    assert ladder_settings("tractor", {"fail_a_limit": 3}).late_limit_minutes == 10
    with pytest.raises(RulesError) as err:
        ladder_settings("tractor", {"late_limit_minutes": -1})
    assert err.value.field == "settings.late_limit_minutes"


@given(st.lists(st.sampled_from(LADDER), max_size=30), st.sampled_from(LADDER))
def test_escalation_only_climbs_the_ladder(record, step):
    added = escalate(record, step)
    order = [step, *added]
    assert all(LADDER.index(a) < LADDER.index(b) for a, b in zip(order, order[1:], strict=False))


@given(st.integers(min_value=0, max_value=40))
def test_escalation_count_matches_thresholds(n):
    """Warnings one at a time: one violation per 2 warnings, in total."""
    record: list[str] = []
    for _ in range(n):
        record += ["warning", *escalate(record, "warning")]
    assert record.count("violation") == n // 2
    assert record.count("match_loss") == n // 6


# --- idiom-chain ladder -------------------------------------------------------------------


def test_chengyu_talking_first_is_a_warning():
    assert ladder.chengyu_penalties("signalling", 0) == [Penalty("warning")]


def test_chengyu_talking_second_costs_one_trick():
    assert ladder.chengyu_penalties("signalling", 1) == [Penalty("trick_to_opponents")]


def test_chengyu_talking_third_loses_the_round_4_9():
    assert ladder.chengyu_penalties("signalling", 2) == [Penalty("round_lost")]
    assert ladder.chengyu_penalties("signalling", 5) == [Penalty("round_lost")]


def test_chengyu_missed_compulsory_play_costs_one_trick_each_time():
    for previous in range(3):
        assert ladder.chengyu_penalties("missed_compulsory", previous) == [
            Penalty("trick_to_opponents")
        ]


def test_chengyu_changed_play_costs_one_trick():
    assert ladder.chengyu_penalties("changed_play") == [Penalty("trick_to_opponents")]


def test_chengyu_showing_cards_loses_the_round_4_9():
    assert ladder.chengyu_penalties("card_showing") == [Penalty("round_lost")]


def test_chengyu_spectator_hint_beneficiary_loses_and_hinting_unit_drops_one_place():
    assert ladder.chengyu_penalties("spectator_hint") == [
        Penalty("round_lost"),
        Penalty("ranking_drop", target="hinting_unit", places=1),
    ]


def test_chengyu_other_offences_are_left_to_the_chief_referee():
    assert ladder.chengyu_penalties("wrong_card") == []
    assert ladder.proposed_penalties("guandan", "signalling", 2) == []


def test_unknown_category_is_named():
    with pytest.raises(RulesError, match="category must be one of") as err:
        ladder.chengyu_penalties("cheating")
    assert err.value.field == "category"


def test_steps_depend_on_the_game():
    assert "level_deduction" not in ladder.steps_for("chengyu")
    assert "trick_to_opponents" in ladder.steps_for("chengyu")
    assert "trick_to_opponents" not in ladder.steps_for("guandan")
    assert "ranking_drop" in ladder.steps_for("tractor")
    with pytest.raises(RulesError, match="step must be one of"):
        ladder.check_step("level_deduction", "chengyu")


# --- late arrival -----------------------------------------------------------------------------


def test_late_arrival_rule_迟到10分钟视为弃权_ten_minutes_is_late_9_59_is_not():
    assert not late_forfeit(9 + 59 / 60)
    assert late_forfeit(10)
    assert late_forfeit(10.5)


def test_late_arrival_with_approved_leave_gives_fifteen_minutes():
    assert not late_forfeit(14, leave_approved=True)
    assert not late_forfeit(14 + 59 / 60, leave_approved=True)
    assert late_forfeit(15, leave_approved=True)


def test_team_that_never_came_forfeits():
    assert late_forfeit(None)
    assert ladder.is_late(T0, None)


@pytest.mark.parametrize(
    ("elapsed", "leave_approved", "forfeits"),
    [
        (timedelta(0), False, False),
        (timedelta(minutes=9, seconds=59), False, False),
        (timedelta(minutes=10), False, True),
        (timedelta(minutes=10, seconds=30), False, True),
        (timedelta(minutes=14, seconds=59), True, False),
        (timedelta(minutes=15), True, True),
        (-timedelta(minutes=3), False, False),
    ],
)
def test_is_late_from_ten_minutes_on_fifteen_with_approved_leave(elapsed, leave_approved, forfeits):
    assert ladder.is_late(T0, T0 + elapsed, leave_approved) is forfeits


def test_late_limit_is_configurable():
    settings = ladder_settings("tractor", {"late_limit_minutes": 5})
    assert late_forfeit(5, settings=settings)
    assert not late_forfeit(4.99, settings=settings)


def test_minutes_late_counts_from_the_round_start():
    assert ladder.minutes_late(T0, T0 + timedelta(minutes=12, seconds=30)) == 12.5
    assert ladder.minutes_late(T0, T0 - timedelta(minutes=3)) == 0


# --- appeals ---------------------------------------------------------------------------------


def test_appeal_deadline_is_thirty_minutes_after_the_match():
    assert ladder.appeal_deadline(T0) == T0 + timedelta(minutes=30)
    assert ladder.appeal_in_time(T0 + timedelta(minutes=30), T0)
    assert not ladder.appeal_in_time(T0 + timedelta(minutes=30, seconds=1), T0)


def test_committee_answer_deadline_is_two_hours_and_flags_near_and_past():
    deadline = ladder.answer_deadline(T0)
    assert deadline == T0 + timedelta(hours=2)
    assert ladder.deadline_state(deadline, T0 + timedelta(minutes=89)) == "ok"
    assert ladder.deadline_state(deadline, T0 + timedelta(minutes=91)) == "near"
    assert ladder.deadline_state(deadline, T0 + timedelta(minutes=121)) == "past"


def test_simple_majority_of_three_needs_two_votes():
    assert majority_decision([("overturn", None)], 3) is None
    decision = majority_decision([("overturn", None), ("overturn", None)], 3)
    assert (decision.choice, decision.votes) == ("overturn", 2)


def test_split_committee_has_no_decision():
    votes = [("overturn", None), ("uphold", None), ("amend", "warning")]
    assert majority_decision(votes, 3) is None


def test_amendments_count_together_only_for_the_same_step():
    assert majority_decision([("amend", "warning"), ("amend", "violation")], 3) is None
    decision = majority_decision([("amend", "warning"), ("amend", "warning")], 3)
    assert (decision.choice, decision.amended_step) == ("amend", "warning")


def test_majority_is_of_the_whole_committee_not_of_votes_cast():
    assert majority_decision([("uphold", None), ("uphold", None)], 4) is None
    assert majority_decision([("uphold", None)] * 3, 4).choice == "uphold"


def test_more_votes_than_members_is_an_error():
    with pytest.raises(RulesError, match="votes for 1"):
        majority_decision([("uphold", None)] * 2, 1)


def test_default_settings_match_the_seed():
    settings = LadderSettings()
    assert (settings.late_limit_minutes, settings.late_leave_limit_minutes) == (10, 15)
    assert (settings.appeal_minutes, settings.answer_minutes) == (30, 120)
