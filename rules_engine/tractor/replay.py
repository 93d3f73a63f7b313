"""Replay of a whole tractor deal from its play log (SPEC 4.3, 4.5).

Request: ``{"trump", "level", "dealer": "EW" | "NS", "hands": {"E": [...], ...},
"bottom"?: [...], "leader"?: "E", "play_log": [{"seat": "E", "cards": [...]}, ...]}``.
``hands`` are the four hands as play begins (the dealer's after the bottom is buried); the
first trick is led by ``leader`` (default: the seat of the first entry), a seat of the
dealer side; every later trick by the winner of the one before. Play goes E -> N -> W -> S.

Every lead is checked (one suit; one normal form, or a throw checked against the three
other hands as they stand); a failed throw (甩牌失败) takes its penalty and the trick goes
on with its forced card alone (the entry lists the cards as thrown; the other thrown cards
stay in the hand). Every follow and kill is checked against the follower's hand. Each
trick's winner, the defenders' points in tricks, and, when the defenders win the last
trick, the bottom's points and multiplier (2 ** the cards of the winning play's biggest
unit: 2 a single, 4 a pair, 8 a triple, 2 ** n a tractor of n cards) give the deal record
as ``score`` takes it. The first illegal entry is named by its index and seat.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rules_engine.cards import Card, cards_text, count_copies, parse_cards, parse_hand
from rules_engine.errors import RulesError, sub_field
from rules_engine.guandan.seats import SIDE_OF, next_seat, parse_seat
from rules_engine.i18n import t
from rules_engine.presets import SIDES
from rules_engine.tractor.follow import check_follow
from rules_engine.tractor.forms import form_of, shape_of, suit_of_cards
from rules_engine.tractor.order import DECKS, HAND_SIZE, Ordering
from rules_engine.tractor.throw import check_throw
from rules_engine.tractor.trick import trick_winner

POINTS = {"5": 5, "T": 10, "K": 10}


def card_points(cards) -> int:
    """Points of cards: a 5 is 5, a 10 and a K are 10."""
    return sum(POINTS.get(card.rank, 0) for card in cards)


def bottom_multiplier(play: list[Card], ordering: Ordering) -> int:
    """2 ** the number of cards in the biggest unit of the last trick's winning play."""
    shape = shape_of(play, ordering)
    biggest = max([3 * n for n in shape.triples] + [2 * n for n in shape.pairs] + [1])
    return 2**biggest


@dataclass
class _Trick:
    leader: str
    plays: list[list[Card]] = field(default_factory=list)
    seats: list[str] = field(default_factory=list)

    def next_seat(self) -> str:
        return next_seat(self.seats[-1]) if self.seats else self.leader


class _Deal:
    def __init__(self, ordering: Ordering, dealer: str, hands: dict, leader: str, kill_reading):
        self.ordering = ordering
        self.dealer = dealer
        self.hands = {seat: Counter(cards) for seat, cards in hands.items()}
        self.kill_reading = kill_reading
        self.trick = _Trick(leader)
        self.tricks: list[dict] = []
        self.defender_points = 0
        self.failed_throws: list[dict] = []
        self.last_winning_play: list[Card] | None = None

    def over(self) -> bool:
        return not self.trick.plays and all(not sum(h.values()) for h in self.hands.values())

    def hand(self, seat: str) -> list[Card]:
        return list(self.hands[seat].elements())

    def apply(self, index: int, seat: str, cards: list[Card]) -> str | None:
        """Apply one entry; the reason it is illegal, or None."""
        if self.over():
            return t("the deal is already over: every hand is empty")
        turn = self.trick.next_seat()
        if seat != turn:
            return t("it is {turn}'s turn, not {seat}'s", turn=turn, seat=seat)
        hand = self.hand(seat)
        missing = Counter(cards) - Counter(hand)
        if missing:
            return t(
                "{seat} does not hold {cards}",
                seat=seat,
                cards=" ".join(cards_text(missing.elements())),
            )
        if not cards:
            return t("{seat} played no cards", seat=seat)
        if not self.trick.plays:
            reason, cards = self._lead(index, seat, cards)
            if reason:
                return reason
        else:
            ruling = check_follow(
                self.ordering, hand, self.trick.plays[0], cards, self.kill_reading
            )
            if not ruling["legal"]:
                return ruling["reason"]
        self.hands[seat].subtract(cards)
        self.trick.plays.append(cards)
        self.trick.seats.append(seat)
        if len(self.trick.plays) == 4:
            self._close()
        return None

    def _lead(self, index: int, seat: str, cards: list[Card]) -> tuple[str | None, list[Card]]:
        if suit_of_cards(cards, self.ordering) is None:
            return t("a lead is all of one suit (trump is one suit)"), cards
        if form_of(cards, self.ordering) is not None:
            return None, cards
        others = [self.hand(s) for s in self.hands if s != seat]
        ruling = check_throw(self.ordering, cards, others)
        if ruling["legal"]:
            return None, cards
        forced = min(cards, key=self.ordering.position)
        self.failed_throws.append(
            {
                "index": index,
                "seat": seat,
                "side": SIDE_OF[seat],
                "cards": len(ruling["failing_cards"]),
                "penalty_points": ruling["penalty_points"],
                "forced_play": ruling["forced_play"],
                "reason": ruling["reason"],
            }
        )
        return None, [forced]

    def _close(self) -> None:
        trick = self.trick
        won = trick_winner(self.ordering, trick.plays, self.kill_reading)
        winner = trick.seats[won]
        points = card_points(card for play in trick.plays for card in play)
        if SIDE_OF[winner] != self.dealer:
            self.defender_points += points
        self.tricks.append({"leader": trick.leader, "winner": winner, "points": points})
        self.last_winning_play = trick.plays[won]
        self.trick = _Trick(winner)

    def deal_record(self, bottom: list[Card] | None) -> dict:
        record: dict = {"dealer": self.dealer, "defender_points": self.defender_points}
        last_winner = self.tricks[-1]["winner"]
        if bottom is not None and SIDE_OF[last_winner] != self.dealer:
            record["bottom_points"] = card_points(bottom)
            record["bottom_multiplier"] = bottom_multiplier(self.last_winning_play, self.ordering)
        if self.failed_throws:
            record["failed_throws"] = [
                {"side": f["side"], "cards": f["cards"]} for f in self.failed_throws
            ]
        return record


def _side(value: object) -> str:
    if value not in SIDES:
        raise RulesError(
            t("dealer must be the dealer side EW or NS, not {value!r}", value=value), "dealer"
        )
    return value


def _hands(value: object) -> dict[str, list[Card]]:
    if not isinstance(value, dict):
        raise RulesError(t("hands must be an object with the hands of E, S, W and N"), "hands")
    hands = {}
    for key, cards in value.items():
        seat = parse_seat(key, "hands")
        hands[seat] = parse_hand(cards, DECKS, HAND_SIZE, sub_field("hands", seat))
    missing = [seat for seat in ("E", "S", "W", "N") if seat not in hands]
    if missing:
        raise RulesError(
            t("hands: the hand of {missing} is missing", missing=", ".join(missing)), "hands"
        )
    if len({len(cards) for cards in hands.values()}) != 1:
        sizes = ", ".join(f"{seat} {len(cards)}" for seat, cards in hands.items())
        raise RulesError(
            t("hands: the four hands must hold as many cards each, not {sizes}", sizes=sizes),
            "hands",
        )
    return hands


def _log(value: object, name: str = "play_log") -> list[tuple[str, list[Card]]]:
    if not isinstance(value, list):
        raise RulesError(
            t('play_log must be a list of plays such as {{"seat": "E", "cards": ["S3"]}}'),
            "play_log",
        )
    entries = []
    for i, entry in enumerate(value):
        where = sub_field(name, i)
        if not isinstance(entry, dict) or "seat" not in entry:
            raise RulesError(
                t("{where} must be an object with a seat and its cards", where=where), where
            )
        seat = parse_seat(entry["seat"], sub_field(where, "seat"))
        entries.append(
            (seat, parse_cards(entry.get("cards") or [], DECKS, sub_field(where, "cards")))
        )
    return entries


def replay(request: dict, ordering: Ordering, kill_reading: str = "strict") -> dict:
    """Replay a tractor play log (the request of SPEC 4.5); see the module's docstring."""
    dealer = _side(request.get("dealer"))
    hands = _hands(request.get("hands"))
    bottom = None
    if request.get("bottom") is not None:
        bottom = parse_cards(request["bottom"], DECKS, "bottom")
    count_copies([*hands.values(), bottom or []], DECKS, "hands and bottom")
    log = _log(request["play_log"])
    leader = request.get("leader")
    leader = parse_seat(leader, "leader") if leader is not None else (log[0][0] if log else None)
    answer = {"legal": True, "tricks": [], "defender_points": 0, "bottom_multiplier": None}
    if leader is None:
        return answer | {
            "reason": t("the log is empty"),
            "complete": False,
            "plays": 0,
            "deal": None,
        }
    deal = _Deal(ordering, dealer, hands, leader, kill_reading)
    if SIDE_OF[leader] != dealer:
        return _illegal(
            deal,
            0,
            leader,
            t(
                "the first trick is led by the dealer side {dealer}, not {seat}",
                dealer=dealer,
                seat=leader,
            ),
        )
    for index, (seat, cards) in enumerate(log):
        reason = deal.apply(index, seat, cards)
        if reason:
            return _illegal(deal, index, seat, reason)
    complete = deal.over()
    record = deal.deal_record(bottom) if complete else None
    return {
        "legal": True,
        "reason": t("every play is legal")
        if complete
        else t("every play is legal; the deal is not finished"),
        "complete": complete,
        "plays": len(log),
        **_summary(deal),
        "deal": record,
    }


def _summary(deal: _Deal) -> dict:
    multiplier = None
    if deal.over() and deal.tricks and SIDE_OF[deal.tricks[-1]["winner"]] != deal.dealer:
        multiplier = bottom_multiplier(deal.last_winning_play, deal.ordering)
    return {
        "tricks": deal.tricks,
        "defender_points": deal.defender_points,
        "bottom_multiplier": multiplier,
        "failed_throws": deal.failed_throws,
    }


def _illegal(deal: _Deal, index: int, seat: str, reason: str) -> dict:
    return {
        "legal": False,
        "reason": t(
            "play_log[{index}] ({seat}, trick {trick}): {reason}",
            index=index,
            seat=seat,
            trick=len(deal.tricks) + 1,
            reason=reason,
        ),
        "index": index,
        "seat": seat,
        "complete": False,
        "plays": index,
        **_summary(deal),
        "deal": None,
    }


def trick_answer(value: object, ordering: Ordering, kill_reading: str = "strict") -> dict:
    """Who wins one trick given as ``[{"seat", "cards"}, ...]``, the lead first."""
    if not isinstance(value, list) or not 2 <= len(value) <= 4:
        raise RulesError(
            t(
                'trick must list the plays of one trick, the lead first: [{{"seat": "E", "cards": [...]}}, ...]'
            ),
            "trick",
        )
    entries = _log(value, "trick")
    count_copies([cards for _, cards in entries], DECKS, "trick")
    seats = [seat for seat, _ in entries]
    for i, seat in enumerate(seats[1:], start=1):
        if seat != next_seat(seats[i - 1]):
            raise RulesError(
                t(
                    "trick[{i}]: {seat} does not play after {before} (play goes E, N, W, S)",
                    i=i,
                    seat=seat,
                    before=seats[i - 1],
                ),
                sub_field("trick", i),
            )
    plays = [cards for _, cards in entries]
    if suit_of_cards(plays[0], ordering) is None:
        raise RulesError(t("a lead is all of one suit (trump is one suit)"), "trick[0]")
    won = trick_winner(ordering, plays, kill_reading)
    lead = plays[0]
    return {
        "winner": seats[won],
        "index": won,
        "points": card_points(card for play in plays for card in play),
        "kill": won > 0 and ordering.suit_of(plays[won][0]) != ordering.suit_of(lead[0]),
        "reason": t("{seat} wins the trick", seat=seats[won]),
    }
