"""Each preset carries its own seed's rules (issue 28), each test naming its seed clause
(/work/shared/seeds: 掼蛋 苏州, 成语接龙, 拖拉机)."""

import pytest

from rules_engine import ladder
from rules_engine.api import check, score
from rules_engine.errors import RulesError
from rules_engine.ladder_national import (
    LADDER_CATEGORIES,
    ROUND_OF_PLAY_LOST,
    TEN_CARD_CALL,
    TRIBUTE_REDONE,
    WRONG_TRIBUTE,
    PlayTimes,
    offered_categories,
    times_of,
)
from rules_engine.presets import event_preset, get_preset

SUZHOU = get_preset("guandan-suzhou-2016")
CHENGYU = get_preset("chengyu")


def steps(penalties):
    return [p.step for p in penalties]


def suzhou(category, previous=0, **timing):
    return steps(
        ladder.proposed_penalties(
            "guandan", category, previous, SUZHOU.in_play_ladder, times=times_of(SUZHOU), **timing
        )
    )


# --- 掼蛋 苏州 --------------------------------------------------------------------------------


def test_suzhou_13_5_play_0_to_30_s_is_normal_and_the_return_within_40_s():
    """十三 第5条 "出牌：0—30秒属正常出牌时间；贡牌后，还牌人必须在40秒内还牌"."""
    assert (SUZHOU.play_seconds, SUZHOU.tribute_return_seconds) == (30, 40)
    assert times_of(SUZHOU) == PlayTimes(play_normal=30, tribute_return=40)
    assert suzhou(ladder.SLOW_PLAY, seconds=30) == []
    assert suzhou(ladder.SLOW_PLAY, seconds=40, timed="return") == []
    assert suzhou(ladder.SLOW_PLAY, seconds=99, timed="tribute") == []  # no limit in the seed


def test_suzhou_13_5_slow_play_proposes_a_verbal_warning_then_a_warning():
    """十三 第5条 with 十一 第3条 1–2 (口头警告 "轻微且初次", then 警告): the seed fixes the
    times, not the step (our reading)."""
    assert suzhou(ladder.SLOW_PLAY, seconds=31) == [ladder.VERBAL_WARNING]
    assert suzhou(ladder.SLOW_PLAY, 1, seconds=31) == [ladder.WARNING]
    assert suzhou(ladder.SLOW_PLAY, seconds=41, timed="return") == [ladder.VERBAL_WARNING]
    assert suzhou(ladder.SLOW_PLAY, seconds=None) == []


def test_suzhou_13_5_the_events_settings_move_the_limits():
    slower = event_preset("guandan", SUZHOU.name, {"play_seconds": 45})
    assert times_of(slower).play_normal == 45


@pytest.mark.parametrize("category", [ladder.WRONG_CARD, ladder.OUT_OF_TURN])
@pytest.mark.parametrize("previous", [0, 1, 4])
def test_suzhou_12_wrong_exposed_or_out_of_turn_card_stops_one_round_of_play(category, previous):
    """十二 1 错牌, 2 暴露张 (the wrong-or-exposed-card category), 3 越序出牌: "停止一轮出牌，
    由下家出牌", every time (十二 4: the referee weighs it)."""
    assert suzhou(category, previous) == [ROUND_OF_PLAY_LOST]


def test_suzhou_12_and_national_share_one_definition_of_the_lost_round_of_play():
    national = ladder.proposed_penalties("guandan", ladder.OUT_OF_TURN, 1, "national")
    assert ROUND_OF_PLAY_LOST in steps(national) and suzhou(ladder.OUT_OF_TURN) == [
        ROUND_OF_PLAY_LOST
    ]


def test_suzhou_10_3_ten_card_count_is_an_incident_judged_on_the_general_ladder():
    """十(三) "10张以下…必须主动报数…判罚犯规人": offered under Suzhou, no step fixed."""
    assert TEN_CARD_CALL in offered_categories("suzhou")
    assert suzhou(TEN_CARD_CALL, 2) == []


def test_suzhou_5_5_a_tribute_violation_is_ruled_tribute_given_again():
    """五(五) "进贡和还牌时如出现违规…正常判为重新给牌"."""
    assert WRONG_TRIBUTE in offered_categories("suzhou")
    assert suzhou(WRONG_TRIBUTE) == [TRIBUTE_REDONE] == suzhou(WRONG_TRIBUTE, 3)


def test_suzhou_offers_its_own_categories_and_not_the_national_misplayed_combination():
    assert set(LADDER_CATEGORIES["suzhou"]) == {TEN_CARD_CALL, WRONG_TRIBUTE}
    assert offered_categories(None) == ()
    assert SUZHOU.in_play_ladder == "suzhou"


def test_suzhou_steps_are_not_the_national_scored_last():
    assert ladder.SCORED_LAST not in ladder.steps_for("guandan", "suzhou")


# --- 成语接龙 --------------------------------------------------------------------------------


@pytest.mark.parametrize("previous", [0, 1, 2])
def test_chengyu_5_no_valid_play_within_10_seconds_loses_one_trick(previous):
    """五 "出牌时限，限制 10 秒内，不能有效出牌，判输一墩"."""
    proposed = ladder.proposed_penalties("chengyu", ladder.SLOW_PLAY, previous)
    assert steps(proposed) == [ladder.TRICK_TO_OPPONENTS]
    assert proposed[0].target == "offender"


def test_chengyu_5_a_play_within_the_10_seconds_is_no_offence():
    times = times_of(CHENGYU)
    assert CHENGYU.play_seconds == 10 and times.play_normal == 10
    assert ladder.proposed_penalties("chengyu", "slow_play", 0, seconds=10, times=times) == []
    assert steps(ladder.proposed_penalties("chengyu", "slow_play", 0, seconds=11, times=times)) == [
        ladder.TRICK_TO_OPPONENTS
    ]


def test_chengyu_5_the_match_clock_is_30_minutes_by_default():
    """五 "30 分钟内完成比赛": a new event of the idiom-chain preset starts with 30 minutes."""
    assert CHENGYU.default_round_minutes == 30
    assert get_preset("tractor").default_round_minutes == 60
    assert SUZHOU.default_round_minutes == 60


def chengyu(*tricks, **record):
    deals = [{"tricks": {"EW": ew, "NS": 13 - ew}} for ew in tricks]
    return score({"game": "chengyu", "preset": "chengyu", "deals": deals} | record)


def test_chengyu_6_a_tied_record_is_not_over_one_more_deal():
    """六 "如出现平分情况，则加赛。加赛时以每一局（一副牌）为单位，直到分出胜负"; SPEC 4.4."""
    answer = chengyu(7, 6)  # 7:6, 6:7: deals 1:1, tricks 13:13
    assert answer["over"] is False and answer["next"] == "one_more_deal"
    assert answer["winner"] is None and answer["end"] is None


def test_chengyu_6_three_deals_make_a_match():
    answer = chengyu(8, 6, 7)
    assert answer["over"] is True and answer["end"] == "deals" and answer["next"] is None
    assert answer["winner"] == "EW"


def test_chengyu_6_a_two_deal_record_is_not_a_finished_match():
    answer = chengyu(8, 6)  # the SPEC's example: EW ahead on tricks 14:12 after two deals
    assert answer["over"] is False and answer["next"] == "one_more_deal"
    assert answer["winner"] == "EW"  # ahead so far (a match cut short by time is scored so)


def test_chengyu_6_extra_deals_while_tied():
    two = {"settings": {"deals_per_match": 2}}
    tied = chengyu(7, 6, **two)
    assert tied["over"] is False and tied["next"] == "one_more_deal"
    decided = chengyu(7, 6, 4, **two)
    assert decided["over"] is True and decided["end"] == "extra_deal" and decided["winner"] == "NS"
    with pytest.raises(RulesError):
        chengyu(8, 6, 4, **two)  # no extra deal once decided


LOST = {"penalties": [{"type": "round_lost", "side": "EW"}]}


@pytest.mark.parametrize("tricks", [(12,), (12, 12), (12, 12, 12)])
def test_chengyu_7_round_lost_4_9_counts_the_same_however_many_deals_were_played(tricks):
    """七 "直接判该轮次比赛 4：9 负": the match's three deals 4:9, 0:3 in deals and 12:27 in
    tricks, after one, two or three deals (SPEC 4.4)."""
    answer = chengyu(*tricks, **LOST)
    assert answer["winner"] == "NS" and answer["over"] is True and answer["end"] == "round_lost"
    assert answer["deals_won"] == {"EW": 0, "NS": 3}
    assert answer["tricks"] == {"EW": 12, "NS": 27}
    assert [d["tricks"] for d in answer["trace"]] == [{"EW": 4, "NS": 9}] * 3


def test_chengyu_7_round_lost_after_an_extra_deal_still_counts_three_deals():
    two = {"settings": {"deals_per_match": 2}}
    answer = chengyu(7, 6, 4, **two, **LOST)
    assert answer["tricks"] == {"EW": 8, "NS": 18} and answer["deals_won"] == {"EW": 0, "NS": 2}


def test_chengyu_7_round_lost_reading_the_deals_played_only():
    played = {"settings": {"chengyu_round_lost": "played"}}
    assert chengyu(12, **played, **LOST)["tricks"] == {"EW": 4, "NS": 9}
    assert chengyu(12, 12, **played, **LOST)["tricks"] == {"EW": 8, "NS": 18}
    with pytest.raises(RulesError) as err:
        chengyu(12, settings={"chengyu_round_lost": "sometimes"})
    assert err.value.field == "settings.chengyu_round_lost"


def test_chengyu_7_round_lost_in_one_named_deal_sets_that_deal_only():
    answer = chengyu(12, 12, 12, penalties=[{"type": "round_lost", "side": "EW", "deal": 2}])
    assert [d["tricks"]["EW"] for d in answer["trace"]] == [12, 4, 12]
    assert answer["end"] == "deals"


# --- 拖拉机 三.1 ------------------------------------------------------------------------------

DECLARATIONS = [{"seat": "E", "cards": ["S5"]}, {"seat": "N", "cards": ["H5", "H5"]}]


def test_tractor_3_1_first_deal_the_last_declarer_becomes_the_dealer():
    """三.1 "一盘比赛的首局由对阵双方抢夺先发权…最后确立者为有局方并成为庄家"."""
    answer = check({"game": "tractor", "level": "5", "declarations": DECLARATIONS})
    assert answer["first_deal"] is True and answer["dealer"] == "N" == answer["declarer"]
    assert answer["dealer_stays"] is False


def test_tractor_3_1_after_the_first_deal_the_suit_changes_and_the_dealer_stays():
    """三.1 "非首局时，则仅可以变更主牌花色，但不能借此夺得先发权"."""
    answer = check(
        {
            "game": "tractor",
            "level": "5",
            "declarations": DECLARATIONS,
            "first_deal": False,
            "dealer": "E",
        }
    )
    assert answer["legal"] and answer["trump"] == "H" and answer["declarer"] == "N"
    assert answer["dealer"] == "E" and answer["dealer_stays"] is True
    assert "the dealer stays" in answer["reason"]


def test_tractor_3_1_first_deal_flag_and_dealer_are_checked():
    bad = {"game": "tractor", "level": "5", "declarations": DECLARATIONS}
    with pytest.raises(RulesError) as err:
        check(bad | {"first_deal": "no"})
    assert err.value.field == "first_deal"
    with pytest.raises(RulesError) as err:
        check(bad | {"first_deal": False, "dealer": "X"})
    assert err.value.field == "dealer"
