"""The national text's in-play incidents (SPEC 5): a ten-card call not announced (10张报牌),
out-of-turn play and a misplayed combination escalate per team in the match — verbal warning,
then a violation and the loss of a round of play (停止一圈出牌权), then a foul (犯规); a wrong
tribute found after play began scores the offender last (下游) in its deal. The national-only
categories are refused under other presets."""

import pytest

from arbitration.models import Ruling
from arbitration.models.incidents import Category, category_choices
from arbitration.services import ArbitrationError
from arbitration.services.incidents import log_incident
from arbitration.services.rulings import proposal, revoke, rule
from rules_engine.ladder_national import FOUL, ROUND_OF_PLAY_LOST
from tests.factories import counting_outcome, enter_result, points
from tournaments.models import AuditLog, ResultVersion

pytestmark = pytest.mark.django_db

IN_PLAY = ["ten_card_call", "out_of_turn", "misplayed_combination"]


def national(arb):
    arb.event.preset, arb.event.settings = "guandan-national", {}
    arb.event.save()
    return arb


def offence(arb, category="ten_card_call", team=None, **extra):
    return log_incident(
        arb.event,
        arb.chief,
        category=category,
        description="at the table",
        match=arb.match,
        team=team or arb.teams[0],
        **extra,
    )


def steps(case):
    return [p.step for p in proposal(case)]


def ruled(arb, case, step, **extra):
    return rule(case, arb.chief, step=step, reason="seen by the table referee", **extra)


@pytest.mark.parametrize("category", IN_PLAY)
def test_national_first_offence_is_a_verbal_warning(arb, category):
    national(arb)
    case = offence(arb, category)
    assert steps(case) == ["verbal_warning"]
    [ruling] = ruled(arb, case, "verbal_warning")
    assert ruling.in_play_steps == []


def test_national_ten_card_call_second_offence_is_violation_and_loss_of_a_round_of_play(arb):
    national(arb)
    ruled(arb, offence(arb), "verbal_warning")
    second = offence(arb)
    assert steps(second) == ["violation", ROUND_OF_PLAY_LOST]
    [ruling] = ruled(arb, second, "violation")
    ruling.refresh_from_db()
    assert ruling.step == "violation" and ruling.in_play_steps == [ROUND_OF_PLAY_LOST]
    assert [str(label) for label in ruling.in_play_labels] == [
        "Loses a round of play (停止一圈出牌权)"
    ]
    log = AuditLog.objects.get(action="ruling.make", target_id=str(ruling.pk))
    assert log.data["step"] == "violation" and log.data["in_play_steps"] == [ROUND_OF_PLAY_LOST]


@pytest.mark.parametrize("category", IN_PLAY)
def test_national_third_and_later_offences_are_a_foul(arb, category):
    national(arb)
    ruled(arb, offence(arb, category), "verbal_warning")
    ruled(arb, offence(arb, category), "violation")
    third = offence(arb, category)
    assert steps(third) == [FOUL]
    [ruling] = ruled(arb, third, "warning")  # the chief rules the foul on the general ladder
    assert ruling.in_play_steps == [FOUL]
    assert steps(offence(arb, category)) == [FOUL]


def test_national_offences_count_per_team_and_per_category_in_the_match(arb):
    national(arb)
    ruled(arb, offence(arb, team=arb.teams[0]), "verbal_warning")
    ruled(arb, offence(arb, team=arb.teams[0]), "violation")
    assert steps(offence(arb, team=arb.teams[1])) == ["verbal_warning"]  # the other team
    assert steps(offence(arb, "misplayed_combination")) == ["verbal_warning"]  # own escalation


def test_national_dismissed_or_revoked_offence_does_not_count(arb):
    national(arb)
    ruled(arb, offence(arb), "no_penalty")
    [warning] = ruled(arb, offence(arb), "verbal_warning")
    revoke(warning, arb.chief, "it was the partner who spoke")
    assert steps(offence(arb)) == ["verbal_warning"]


def test_dismissing_a_second_offence_carries_no_loss_of_a_round_of_play(arb):
    national(arb)
    ruled(arb, offence(arb), "verbal_warning")
    [ruling] = ruled(arb, offence(arb), "no_penalty")
    assert ruling.in_play_steps == []


def no_ladder(arb):
    """A Guandan event without an in-play ladder (the Suzhou preset has its own since issue 28)."""
    arb.event.settings = {"in_play_ladder": None}
    arb.event.save()


@pytest.mark.parametrize("category", ["ten_card_call", "misplayed_combination", "wrong_tribute"])
def test_ladder_categories_are_refused_without_an_in_play_ladder(arb, category):
    no_ladder(arb)
    with pytest.raises(ArbitrationError) as err:
        offence(arb, category, deal=1, seat="E")
    assert err.value.field == "category" and "national" in err.value.message


def test_misplayed_combination_is_refused_under_the_suzhou_ladder(arb):
    with pytest.raises(ArbitrationError) as err:
        offence(arb, "misplayed_combination")
    assert err.value.field == "category" and "national rules only" in err.value.message


def test_each_ladder_offers_its_own_categories(arb):
    no_ladder(arb)
    plain = [value for value, _ in category_choices(arb.event.get_preset())]
    assert plain == [
        c
        for c in Category.values
        if c not in ("ten_card_call", "misplayed_combination", "wrong_tribute")
    ]
    arb.event.settings = {}
    arb.event.save()  # Suzhou 十(三) 报数 and 五(五) 违规进贡, not the national 出错牌型
    suzhou = [value for value, _ in category_choices(arb.event.get_preset())]
    assert suzhou == [c for c in Category.values if c != "misplayed_combination"]
    national(arb)
    assert [v for v, _ in category_choices(arb.event.get_preset())] == Category.values


def test_out_of_turn_without_an_in_play_ladder_proposes_nothing_as_before(arb):
    no_ladder(arb)
    assert steps(offence(arb, "out_of_turn")) == []


# --- wrong tribute -----------------------------------------------------------------------------

# TWO_DEALS (tests.factories): deal 1 E W S N (EW double up, EW 5), deal 2 S E N W (NS +2,
# NS 4): EW wins. West's wrong tribute in deal 1 makes it E S N W: EW +1 only (EW 3), so NS
# wins 4 to 3.


def wrong_tribute(arb, deal=1, seat="W", team=None):
    return offence(arb, "wrong_tribute", team=team, deal=deal, seat=seat)


def test_wrong_tribute_ruling_scores_the_offender_last_in_that_deal_and_standings_follow(arb):
    national(arb)
    enter_result(arb)
    before = counting_outcome(arb.match)
    assert before["winner"] == "EW"
    points_before = points(arb.event)
    case = wrong_tribute(arb)
    assert steps(case) == ["scored_last"]
    [ruling] = ruled(arb, case, "scored_last")
    assert ruling.deal == 1 and ruling.effect["adjustment"] == {
        "type": "wrong_tribute",
        "side": "EW",
        "seat": "W",
        "deal": 1,
        "ruling": ruling.pk,
    }
    outcome = counting_outcome(arb.match)
    assert outcome["winner"] == "NS" and outcome["levels"] == {"EW": "3", "NS": "4"}
    assert outcome["unadjusted"]["winner"] == "EW"
    after = points(arb.event)
    assert after["Team 002"] > points_before["Team 002"]
    assert after["Team 001"] < points_before["Team 001"]
    assert ruling.result_version.kind == "ruling" and ruling.result_version.is_counting
    assert AuditLog.objects.filter(action="ruling.make", target_id=str(ruling.pk)).exists()
    assert AuditLog.objects.filter(action="result.ruling").exists()
    revoke(ruling, arb.chief, "the tribute was right after all")
    assert counting_outcome(arb.match)["winner"] == "EW"
    assert points(arb.event) == points_before


def test_wrong_tribute_of_a_deal_that_was_not_played_is_refused(arb):
    national(arb)
    enter_result(arb)
    versions = ResultVersion.objects.count()
    case = wrong_tribute(arb, deal=9)
    with pytest.raises(ArbitrationError) as err:
        ruled(arb, case, "scored_last")
    assert err.value.field == "deal" and "no deal 9" in err.value.message
    assert not Ruling.objects.exists() and ResultVersion.objects.count() == versions


def test_wrong_tribute_needs_a_counting_result(arb):
    national(arb)
    with pytest.raises(ArbitrationError, match="no counting result"):
        ruled(arb, wrong_tribute(arb), "scored_last")
    assert not Ruling.objects.exists()


def test_wrong_tribute_incident_names_the_deal_and_a_seat_of_the_team(arb):
    national(arb)
    with pytest.raises(ArbitrationError) as err:
        offence(arb, "wrong_tribute", seat="W")
    assert err.value.field == "deal"
    with pytest.raises(ArbitrationError) as err:
        offence(arb, "wrong_tribute", deal=1)
    assert err.value.field == "seat"
    with pytest.raises(ArbitrationError) as err:
        wrong_tribute(arb, seat="N")  # Team 001 sits East-West
    assert err.value.field == "seat"
    with pytest.raises(ArbitrationError) as err:
        wrong_tribute(arb, deal=0)
    assert err.value.field == "deal"
    assert wrong_tribute(arb, seat="S", team=arb.teams[1]).seat == "S"


def test_scored_last_is_the_ruling_of_a_wrong_tribute_under_the_national_ladder_only(arb):
    with pytest.raises(ArbitrationError) as err:  # Suzhou preset: not a step
        ruled(arb, offence(arb, "signalling"), "scored_last")
    assert err.value.field == "step"
    national(arb)
    enter_result(arb)
    with pytest.raises(ArbitrationError) as err:
        ruled(arb, offence(arb), "scored_last")
    assert err.value.field == "step"
    with pytest.raises(ArbitrationError) as err:
        ruled(arb, wrong_tribute(arb), "scored_last", team=arb.teams[1])
    assert err.value.field == "team"
    assert not Ruling.objects.exists()


def test_appeal_amending_a_wrong_tribute_warning_to_scored_last_rescores_the_deal(arb):
    from arbitration.services import appeals

    national(arb)
    enter_result(arb)
    [warning] = ruled(arb, wrong_tribute(arb), "warning")
    appeal = appeals.file_appeal(warning, arb.captain_away, "the tribute changed the deal")
    for member in arb.committee[:2]:
        appeals.vote(appeal, member, "amend", "the text scores it last", "scored_last")
    new = appeal.decision.new_ruling
    assert new.step == "scored_last" and new.deal == 1 and new.amends == warning
    assert counting_outcome(arb.match)["winner"] == "NS"


def test_appeal_cannot_amend_another_incident_to_scored_last(arb):
    from arbitration.services import appeals

    national(arb)
    enter_result(arb)
    [warning] = ruled(arb, offence(arb), "verbal_warning")
    appeal = appeals.file_appeal(warning, arb.captain_away, "too mild")
    with pytest.raises(ArbitrationError) as err:
        appeals.vote(appeal, arb.committee[0], "amend", "x", "scored_last")
    assert err.value.field == "amended_step"
