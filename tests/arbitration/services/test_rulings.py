"""Rulings: each step of the ladder, the escalation, and each effect on results and standings."""

import pytest

from arbitration.models import Ruling
from arbitration.services import ArbitrationError, ArbitrationForbidden
from arbitration.services.incidents import log_incident
from arbitration.services.rulings import revoke, rule
from tests.factories import counting_outcome, enter_result, points
from tournaments.models import AuditLog, RankingAdjustment, ResultVersion, Team


def incident(arb, team=None, match=None, category="signalling", user=None, **extra):
    return log_incident(
        arb.event,
        user or arb.chief,
        category=category,
        description="spoke during play",
        match=match or arb.match,
        team=team or arb.teams[0],
        **extra,
    )


def ruled(arb, step, team=None, **fields):
    return rule(incident(arb, team=team), arb.chief, step=step, reason="seen by referee", **fields)


@pytest.mark.parametrize("step", ["verbal_warning", "warning", "violation", "no_penalty"])
def test_record_only_steps_leave_the_result_alone(arb, step):
    enter_result(arb)
    before = counting_outcome(arb.match)
    [ruling] = ruled(arb, step)
    assert ruling.step == step and ruling.effect == {}
    assert counting_outcome(arb.match) == before
    assert AuditLog.objects.filter(action="ruling.make", target_id=str(ruling.pk)).exists()


def test_two_warnings_make_a_violation_automatically(arb):
    ruled(arb, "warning")
    made = ruled(arb, "warning")
    assert [r.step for r in made] == ["warning", "violation"]
    assert made[1].automatic and made[1].escalated_from == made[0]


def test_escalation_is_per_team(arb):
    ruled(arb, "warning", team=arb.teams[0])
    assert [r.step for r in ruled(arb, "warning", team=arb.teams[1])] == ["warning"]


def test_three_violations_make_a_match_loss_scored_as_forfeit(arb):
    enter_result(arb)
    ruled(arb, "violation")
    ruled(arb, "violation")
    made = ruled(arb, "violation")
    assert [r.step for r in made] == ["violation", "match_loss"]
    outcome = counting_outcome(arb.match)
    assert outcome["forfeit"] == "EW" and outcome["winner"] == "NS"
    assert points(arb.event)["Team 002"] == 17


def test_two_match_losses_make_a_suspension(arb):
    enter_result(arb)
    ruled(arb, "match_loss")
    made = ruled(arb, "match_loss")
    assert [r.step for r in made] == ["match_loss", "suspension"]
    assert Team.objects.get(pk=arb.teams[0].pk).status == "suspended"


def test_suspension_removes_the_team_from_later_pairings(arb):
    ruled(arb, "suspension")
    team = Team.objects.get(pk=arb.teams[0].pk)
    assert team.status == "suspended" and not team.is_active
    assert AuditLog.objects.filter(action="team.status", target_id=str(team.pk)).exists()


def test_escalation_threshold_comes_from_the_event_settings(arb):
    arb.event.settings = {"escalation": {"warning": [3, "violation"]}}
    arb.event.save()
    ruled(arb, "warning")
    assert [r.step for r in ruled(arb, "warning")] == ["warning"]
    assert [r.step for r in ruled(arb, "warning")] == ["warning", "violation"]


def test_level_deduction_changes_the_result_and_standings(arb):
    enter_result(arb)
    assert points(arb.event)["Team 001"] == 11
    [ruling] = ruled(arb, "level_deduction", levels=1)
    outcome = counting_outcome(arb.match)
    assert outcome["levels"] == {"EW": "4", "NS": "4"}
    assert outcome["match_points"] == {"EW": 10, "NS": 10}
    assert ruling.result_version.kind == "ruling" and ruling.result_version.is_counting
    assert ruling.result_version.record["adjustments"][0]["ruling"] == ruling.pk
    assert points(arb.event) == {"Team 001": 10, "Team 002": 10, "Team 003": 0, "Team 004": 0}


def test_opponent_level_up_changes_the_result(arb):
    enter_result(arb)
    ruled(arb, "level_deduction", levels=2, opponent_up=True)
    outcome = counting_outcome(arb.match)
    assert outcome["levels"] == {"EW": "5", "NS": "6"}
    assert points(arb.event)["Team 002"] == 11


def test_level_deduction_needs_a_counting_result(arb):
    with pytest.raises(ArbitrationError, match="no counting result"):
        ruled(arb, "level_deduction")
    assert not Ruling.objects.exists()  # refused whole: nothing half-stored


def test_match_loss_without_a_result_is_scored_as_a_forfeit_but_named_判负(arb):
    ruled(arb, "match_loss", team=arb.teams[1])
    outcome = counting_outcome(arb.match)
    assert outcome["forfeit"] == "NS" and outcome["match_loss"] == "NS"  # 判负, not 弃权
    assert points(arb.event)["Team 001"] == 17


def test_a_match_loss_keeps_for_the_side_not_penalised_the_better_of_its_earned_score_and_the_forfeit_score(
    arb,
):
    # SPEC §5 (issue 35): EW earned 20 : 0 (passed A); a 判负 against NS left it 17 : 0
    enter_result(arb, deals=[{"finish": ["E", "W"]}] * 5)
    earned = counting_outcome(arb.match)
    assert earned["match_points"] == {"EW": 20, "NS": 0}
    [ruling] = ruled(arb, "match_loss", team=arb.teams[1])
    outcome = counting_outcome(arb.match)
    assert outcome["match_points"] == {"EW": 20, "NS": 0}
    assert outcome["winner"] == "EW" and outcome["match_loss"] == "NS"  # 判负, not 弃权
    assert not outcome.get("forfeit") and outcome["levels"] == earned["levels"]
    assert ruling.result_version.is_counting
    assert points(arb.event)["Team 001"] == 20
    # a smaller win at the table: the forfeit score is the better one
    enter_result(arb, match=arb.match2)  # Team 003 (EW) earned 11 : 9
    ruled_match2 = rule(
        incident(arb, team=arb.teams[3], match=arb.match2),
        arb.chief,
        step="match_loss",
        reason="seen by referee",
    )
    assert ruled_match2[0].step == "match_loss"
    assert counting_outcome(arb.match2)["match_points"] == {"EW": 17, "NS": 0}
    assert points(arb.event)["Team 003"] == 17


def test_revoking_a_match_loss_restores_the_original_result(arb):
    enter_result(arb)
    original = counting_outcome(arb.match)
    [ruling] = ruled(arb, "match_loss")
    [revocation] = revoke(ruling, arb.chief, "wrong team")
    assert counting_outcome(arb.match) == original
    assert revocation.result_version.is_counting
    assert ResultVersion.objects.filter(match=arb.match).count() == 3  # nothing deleted
    assert points(arb.event)["Team 001"] == 11


def test_revoking_an_escalated_step_revokes_its_escalations(arb):
    enter_result(arb)
    first = ruled(arb, "match_loss")[0]
    second, suspension = ruled(arb, "match_loss")
    revoke(second, arb.chief, "the second offence was the opponents'")
    assert not suspension.is_active and not second.is_active and first.is_active
    assert Team.objects.get(pk=arb.teams[0].pk).status == "active"
    assert counting_outcome(arb.match)["forfeit"] == "EW"  # the first match loss stands


def test_revoked_ruling_no_longer_counts_for_escalation(arb):
    [warning] = ruled(arb, "warning")
    revoke(warning, arb.chief, "mistaken identity")
    assert [r.step for r in ruled(arb, "warning")] == ["warning"]


def test_a_ruling_is_revoked_once(arb):
    [warning] = ruled(arb, "warning")
    revoke(warning, arb.chief, "mistake")
    with pytest.raises(ArbitrationError, match="already revoked"):
        revoke(warning, arb.chief, "again")


def test_ranking_drop_moves_the_team_down_and_revocation_cancels_it(arb):
    enter_result(arb)
    enter_result(arb, match=arb.match2)
    [ruling] = ruled(arb, "ranking_drop", places=1)
    adjustment = RankingAdjustment.objects.get()
    assert (adjustment.team_id, adjustment.places) == (arb.teams[0].pk, 1)
    from tournaments.standings.service import standings_for

    order = [row.name for row in standings_for(arb.event)]
    assert order.index("Team 001") == 1  # was first with Team 003 (both 11 points)
    revoke(ruling, arb.chief, "overturned")
    adjustment.refresh_from_db()
    assert adjustment.cancelled_at is not None
    assert [row.name for row in standings_for(arb.event)][0] == "Team 001"


def test_only_the_chief_referee_rules(arb):
    case = incident(arb, user=arb.referee)
    for user in (arb.referee, arb.committee[0], arb.captain, arb.organiser):
        with pytest.raises(ArbitrationForbidden):
            rule(case, user, step="warning", reason="x")
    with pytest.raises(ArbitrationForbidden):
        revoke(rule(case, arb.chief, step="warning", reason="x")[0], arb.referee, "no")


def test_a_ruling_needs_a_reason_and_a_known_step(arb):
    case = incident(arb)
    with pytest.raises(ArbitrationError) as err:
        rule(case, arb.chief, step="warning", reason=" ")
    assert err.value.field == "reason"
    with pytest.raises(ArbitrationError) as err:
        rule(case, arb.chief, step="trick_to_opponents", reason="x")  # chengyu only
    assert err.value.field == "step"


def test_table_referee_logs_incidents_only_at_their_tables(arb):
    assert incident(arb, user=arb.referee).logged_by == arb.referee
    with pytest.raises(ArbitrationForbidden):
        incident(arb, user=arb.referee2)
    with pytest.raises(ArbitrationForbidden):
        incident(arb, user=arb.captain)


def test_incident_team_must_play_in_the_match(arb):
    with pytest.raises(ArbitrationError) as err:
        incident(arb, team=arb.teams[2])
    assert err.value.field == "team"


def test_the_ladder_steps_have_the_seeds_chinese_names():
    from django.utils import translation

    from arbitration.models.rulings import Step
    from rules_engine.ladder import LADDER

    with translation.override("zh-hans"):
        names = [str(Step(step).label) for step in LADDER]
    assert names == ["口头警告", "警告", "记违例", "降级", "判负", "停赛"]


def test_an_escalation_gives_its_reason_in_the_pages_language(arb):
    from django.utils import translation

    ruled(arb, "warning")
    with translation.override("zh-hans"):
        made = ruled(arb, "warning")
    assert made[1].reason == f"累进处罚：判罚 #{made[0].pk} 之后自动记违例。"
    ruled(arb, "warning", team=arb.teams[1])
    with translation.override("en"):
        made = ruled(arb, "warning", team=arb.teams[1])
    assert made[1].reason == f"Escalation: Violation (记违例) after ruling #{made[0].pk}."


@pytest.mark.parametrize("levels", [0, 13, True])
def test_a_level_deduction_moves_one_to_twelve_levels(arb, levels):
    enter_result(arb)
    with pytest.raises(ArbitrationError) as err:
        ruled(arb, "level_deduction", levels=levels)
    assert err.value.field == "levels"
    assert not Ruling.objects.exists()
