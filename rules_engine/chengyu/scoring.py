"""Scoring an idiom-chain poker match (SPEC 4.4, 4.5, 5; seed 六–七).

A deal gives ``{"tricks": {"EW": 8, "NS": 5}}`` (adding up to 13), or ``{"trump": "H",
"tricks": [{"leader": "E", "cards": [...]}, ...13 tricks]}`` resolved by the engine (its
first illegal play, if any, is reported in the trace; penalties are a referee's ruling).
The side with more tricks wins the deal. A match is ``deals_per_match`` deals (3): most
deals won, then most tricks; still tied, one extra deal at a time decides (seed 六 "如出现
平分情况，则加赛。加赛时以每一局（一副牌）为单位，直到分出胜负"; a record may hold more deals only
while the match is tied). The answer says whether the match is ``over``: after its 3 deals
with a winner (``end`` "deals"), after an extra deal that decided it ("extra_deal"), or lost
by penalty ("round_lost"). Otherwise ``over`` is false and ``next`` is "one_more_deal": a
record of fewer deals is not a finished match (its winner is the side ahead so far, as a
match cut short by time is scored on what it holds), and a tied record (deals won and
tricks level, e.g. two deals 7:6, 6:7) has no winner yet: one more deal (SPEC 4.4).

Penalties that change a result (SPEC 5), in ``"penalties"``:

* ``{"type": "trick_to_opponents", "side": "NS", "deal": 1}`` — one trick of deal 1 goes
  from NS to the opponents (speaking out of turn a second time, a missed 必出, changing
  a play);
* ``{"type": "round_lost", "side": "EW", "deal": 2}`` — that deal is set to 4:9 against
  EW; without ``deal`` the whole round is lost (seed 七 "判该轮次比赛 4：9 负"). Used for a
  third speaking offence, showing cards to a partner, a spectator's hint (the beneficiary
  loses).

What the tricks tiebreak sees of a round lost 4:9 (SPEC 4.4, the preset's
``chengyu_round_lost``): by default ("match") a match lost 4:9 by penalty counts as 4:9 in
each of the match's three deals — 0:3 in deals won and 12:27 in tricks — whenever the penalty
fell and however many deals were played (one, two, three or an extra deal): the same offence
costs the same in the standings. With "played", every deal played is set to 4:9 (one such
deal when none was played), so the tricks tiebreak sees 4:9 per deal played.

Round-lost penalties are applied after trick transfers.
"""

from __future__ import annotations

from rules_engine.cards import parse_cards
from rules_engine.chengyu.play import replay_deal, seat
from rules_engine.chengyu.ring import Ring, parse_suit, parse_suit_ring
from rules_engine.errors import RulesError, sub_field
from rules_engine.i18n import t
from rules_engine.presets import (
    SIDES,
    forfeit_answer,
    match_points,
    other_side,
    resolve_preset,
)

# why a chengyu match is over beyond the 3 deals or an extra deal (words: match_format.END_REASONS)
ROUND_LOST_END = "round_lost"
ONE_MORE_DEAL = "one_more_deal"  # the answer's ``next`` (words: match_format.NEXT_STEPS)

TRICKS_PER_DEAL = 13
LOST_ROUND = 4  # tricks left to a side that loses the round 4:9
PENALTY_TYPES = ("trick_to_opponents", "round_lost")


def transfer_trick(tricks: dict[str, int], side: str) -> dict[str, int]:
    """One trick of ``side`` goes to the opponents."""
    if tricks[side] < 1:
        raise RulesError(
            t("{side} has no trick left to give to the opponents", side=side), "penalties"
        )
    return {side: tricks[side] - 1, other_side(side): tricks[other_side(side)] + 1}


def round_lost(side: str) -> dict[str, int]:
    """A deal lost 4:9 by ``side``."""
    return {side: LOST_ROUND, other_side(side): TRICKS_PER_DEAL - LOST_ROUND}


def _trick_counts(value: dict, field: str) -> dict[str, int]:
    counts = {}
    for side in SIDES:
        count = value.get(side)
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise RulesError(
                t(
                    "{field}.{side} must be a number of tricks, not {count!r}",
                    field=field,
                    side=side,
                    count=count,
                ),
                field,
            )
        counts[side] = count
    if sum(counts.values()) != TRICKS_PER_DEAL:
        raise RulesError(
            t(
                "{field}: tricks add up to {total}, not {tricks}",
                field=field,
                total=sum(counts.values()),
                tricks=TRICKS_PER_DEAL,
            ),
            field,
        )
    return counts


def parse_tricks(value: object, field: str) -> list[tuple[str, list]]:
    """13 tricks ``{"leader", "cards"}`` -> (leader, cards); the 52 cards each once."""
    if not isinstance(value, list) or len(value) != TRICKS_PER_DEAL:
        raise RulesError(
            t(
                "{field} must list the {tricks} tricks of the deal",
                field=field,
                tricks=TRICKS_PER_DEAL,
            ),
            field,
        )
    tricks = []
    for i, trick in enumerate(value):
        where = sub_field(field, i)
        if not isinstance(trick, dict):
            raise RulesError(
                t('{where} must be an object with "leader" and "cards"', where=where), where
            )
        cards = parse_cards(trick.get("cards"), 1, sub_field(where, "cards"))
        if len(cards) != 4:
            raise RulesError(
                t("{where}.cards must hold the 4 cards of the trick", where=where), where
            )
        tricks.append((seat(trick.get("leader"), sub_field(where, "leader")), cards))
    parse_cards([c for _, cards in tricks for c in cards], 1, field)
    return tricks


def deal_tricks(deal: object, where: str, suit_ring: tuple[str, ...]) -> dict:
    """The trace entry of one deal before penalties: tricks per side (and a replay)."""
    if not isinstance(deal, dict) or "tricks" not in deal:
        raise RulesError(t('{where} must be an object with "tricks"', where=where), where)
    field = sub_field(where, "tricks")
    if isinstance(deal["tricks"], dict):
        return {"tricks": _trick_counts(deal["tricks"], field)}
    trump = parse_suit(deal.get("trump"), sub_field(where, "trump"))
    replay = replay_deal(Ring(trump, suit_ring), parse_tricks(deal["tricks"], field))
    return replay.as_dict() | {"trump": trump}


def apply_penalties(entries: list[dict], penalties: object, match_deals: int | None = None) -> bool:
    """Apply the record's penalties to the deals' trick counts (in place). A round lost
    without a deal makes the record ``match_deals`` deals of 4:9 (the "match" reading), or
    sets every deal played to 4:9 when ``match_deals`` is None ("played"). True when the
    whole round was lost."""
    if not isinstance(penalties, list):
        raise RulesError(t("penalties must be a list"), "penalties")
    rounds_lost = []
    for i, penalty in enumerate(penalties):
        field = sub_field("penalties", i)
        if not isinstance(penalty, dict) or penalty.get("type") not in PENALTY_TYPES:
            raise RulesError(
                t(
                    "{field}.type must be one of {types}",
                    field=field,
                    types=", ".join(PENALTY_TYPES),
                ),
                field,
            )
        side = penalty.get("side")
        if side not in SIDES:
            raise RulesError(
                t("{field}.side must be EW or NS (the offending side)", field=field), field
            )
        deal = penalty.get("deal")
        if deal is not None and (
            isinstance(deal, bool) or not isinstance(deal, int) or not 1 <= deal <= len(entries)
        ):
            raise RulesError(
                t("{field}.deal must be a deal number 1..{count}", field=field, count=len(entries)),
                field,
            )
        if penalty["type"] == "round_lost":
            rounds_lost.append((side, deal, penalty))
            continue
        if deal is None:
            raise RulesError(t("{field}.deal: say which deal loses the trick", field=field), field)
        entry = entries[deal - 1]
        try:
            entry["tricks"] = transfer_trick(entry["tricks"], side)
        except RulesError as err:
            raise RulesError(
                t("{field}: {message} in deal {deal}", field=field, message=err.message, deal=deal),
                field,
            ) from None
        entry.setdefault("penalties", []).append(penalty)
    whole = False
    for side, deal, penalty in rounds_lost:
        if deal is None:
            whole = True
            if match_deals is not None:  # the match's deals, whatever was played
                del entries[match_deals:]
                entries.extend(
                    {"tricks": {}, "not_played": True} for _ in range(match_deals - len(entries))
                )
        if not entries:
            entries.append({"tricks": round_lost(side)})
        for entry in entries if deal is None else [entries[deal - 1]]:
            entry["tricks"] = round_lost(side)
            entry.setdefault("penalties", []).append(penalty)
    return whole


class Tally:
    """Deals won and tricks per side, deal by deal."""

    def __init__(self) -> None:
        self.deals_won = {"EW": 0, "NS": 0}
        self.tricks = {"EW": 0, "NS": 0}

    def add(self, tricks: dict[str, int]) -> str:
        winner = "EW" if tricks["EW"] > tricks["NS"] else "NS"
        self.deals_won[winner] += 1
        for side in SIDES:
            self.tricks[side] += tricks[side]
        return winner

    def leader(self) -> str | None:
        """The side ahead on deals won, then on tricks; None when level on both."""
        for totals in (self.deals_won, self.tricks):
            if totals["EW"] != totals["NS"]:
                return max(SIDES, key=totals.get)
        return None


def deals_of_match(preset) -> int:
    """The deals a match needs (``deals_per_match``, 3 by default); more only while tied."""
    return preset.deals_per_match or 3


def score(record: dict) -> dict:
    """Score an idiom-chain poker match record (SPEC 4.5)."""
    preset = resolve_preset(record, "chengyu")
    deals = record.get("deals") or []
    if not isinstance(deals, list):
        raise RulesError(t("deals must be a list of deal records"), "deals")
    if record.get("forfeit") is not None:
        zero = {"EW": 0, "NS": 0}
        return forfeit_answer(preset, record["forfeit"], deals, deals_won=zero, tricks=dict(zero))
    ring = parse_suit_ring(preset.chengyu_suit_ring)
    entries = [deal_tricks(d, sub_field("deals", i), ring) for i, d in enumerate(deals)]
    per_match = deals_of_match(preset)
    match_deals = per_match if preset.chengyu_round_lost == "match" else None
    whole_round_lost = apply_penalties(entries, record.get("penalties") or [], match_deals)
    if not entries:
        raise RulesError(t("deals is empty: give at least one deal, or a forfeit"), "deals")
    tally = Tally()
    for i, entry in enumerate(entries):
        if i >= per_match and tally.leader() is not None and not whole_round_lost:
            where = sub_field("deals", i)
            raise RulesError(
                t(
                    "{where}: the match was decided after {i} deals; extra deals are played only while the match is tied",
                    where=where,
                    i=i,
                ),
                where,
            )
        entry["winner"] = tally.add(entry["tricks"])
        entry["deal"] = i + 1
    winner = tally.leader()
    if whole_round_lost:
        end = ROUND_LOST_END
    elif winner is None or len(entries) < per_match:
        end = None  # tied, or deals still to play: one more deal
    else:
        end = "deals" if len(entries) == per_match else "extra_deal"
    return {
        "winner": winner,
        "deals_won": tally.deals_won,
        "tricks": tally.tricks,
        "match_points": match_points(preset, winner),
        "forfeit": None,
        "preset": preset.name,
        "over": end is not None,
        "end": end,
        "next": None if end is not None else ONE_MORE_DEAL,
        "trace": entries,
    }
