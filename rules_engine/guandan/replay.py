"""Replay of a whole deal's play log (SPEC 4.2): every play is checked in turn and the
finishing order derived.

Play goes E -> N -> W -> S. A trick ends when every other player still in the deal has
passed after the last play; its player leads again, or, when they went out with that play,
their partner leads (借风), or the next player still in if the partner is out too. The deal
ends when both players of a side are out, or three players are.

Log entries: ``{"seat": "E", "cards": ["S3", "H3"]}``; a pass is ``{"seat": "N"}``,
``{"seat": "N", "cards": []}`` or ``{"seat": "N", "pass": true}``. An entry may declare
how wild cards are read with ``"kind"`` (and ``"rank"``); otherwise its strongest reading
that beats the trick is taken.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from rules_engine.cards import Card, cards_text, parse_cards
from rules_engine.errors import RulesError, sub_field
from rules_engine.guandan.combos import Reading, beating_readings, choose_reading, level_index
from rules_engine.guandan.hands import DECKS, take
from rules_engine.guandan.seats import PARTNER, PLAY_ORDER, SEATS, next_seat, parse_seat
from rules_engine.i18n import t, term


@dataclass(frozen=True)
class Play:
    seat: str
    cards: tuple[Card, ...]  # empty: a pass
    kind: str | None = None
    rank: str | None = None


@dataclass
class ReplayResult:
    legal: bool
    reason: str
    finish: list[str]
    complete: bool
    plays: int
    index: int | None = None  # the first illegal entry
    seat: str | None = None
    readings: list[Reading] = field(default_factory=list)

    def as_dict(self) -> dict:
        answer = {
            "legal": self.legal,
            "reason": self.reason,
            "finish": self.finish,
            "complete": self.complete,
            "plays": self.plays,
        }
        if not self.legal:
            answer |= {"index": self.index, "seat": self.seat}
        return answer


class DealState:
    """The running state of a deal while its log is replayed."""

    def __init__(self, hands: dict[str, list[Card]], level: int, leader: str) -> None:
        self.hands = {seat: Counter(cards) for seat, cards in hands.items()}
        self.left = {seat: len(cards) for seat, cards in hands.items()}
        self.level = level
        self.turn = leader
        self.top: Reading | None = None
        self.top_seat: str | None = None
        self.passes = 0
        self.finish: list[str] = []

    def over(self) -> bool:
        out = self.finish
        return len(out) >= 3 or (len(out) == 2 and PARTNER[out[0]] == out[1])

    def active(self, seat: str) -> bool:
        return seat not in self.finish

    def next_active(self, seat: str) -> str:
        seat = next_seat(seat)
        while not self.active(seat):
            seat = next_seat(seat)
        return seat

    def apply(self, play: Play, where: str) -> Reading | None:
        if self.over():
            raise RulesError(t("the deal is already over"), where)
        if play.seat != self.turn:
            raise RulesError(
                t("it is {turn}'s turn, not {seat}'s", turn=self.turn, seat=play.seat), where
            )
        if not play.cards:
            return self._pass(where)
        take(self.hands[play.seat], list(play.cards), play.seat, where)
        readings = beating_readings(play.cards, self.top, self.level)
        if not readings:
            shown = " ".join(cards_text(play.cards))
            if self.top is None:
                raise RulesError(t("{shown} is not a valid combination", shown=shown), where)
            raise RulesError(
                t(
                    "{shown} does not beat {kind} {rank}",
                    shown=shown,
                    kind=term(self.top.kind),
                    rank=self.top.rank,
                ),
                where,
            )
        reading = choose_reading(readings, play.kind, play.rank, "play")
        self.top, self.top_seat, self.passes = reading, play.seat, 0
        self.left[play.seat] -= len(play.cards)
        if self.left[play.seat] == 0:
            self.finish.append(play.seat)
        if not self.over():
            self.turn = self.next_active(play.seat)
        return reading

    def _pass(self, where: str) -> None:
        if self.top is None:
            raise RulesError(t("{turn} leads and may not pass", turn=self.turn), where)
        self.passes += 1
        still_in = sum(self.active(s) for s in SEATS if s != self.top_seat)
        if self.passes < still_in:
            self.turn = self.next_active(self.turn)
            return None
        winner = self.top_seat
        self.top, self.top_seat, self.passes = None, None, 0
        if self.active(winner):
            self.turn = winner
        elif self.active(PARTNER[winner]):
            self.turn = PARTNER[winner]  # 借风: the partner leads after the last play
        else:
            self.turn = self.next_active(winner)
        return None

    def full_finish(self) -> list[str]:
        if len(self.finish) == 3:
            return self.finish + [s for s in PLAY_ORDER if s not in self.finish]
        return list(self.finish)


def replay_deal(
    log: list[Play], hands: dict[str, list[Card]], level: object, leader: str | None = None
) -> ReplayResult:
    """Replay ``log`` from the dealt ``hands``; stop at the first illegal play with its reason."""
    level = level_index(level)
    if not log:
        return ReplayResult(True, t("the log is empty"), [], False, 0)
    deal = DealState(hands, level, leader or log[0].seat)
    readings = []
    for i, play in enumerate(log):
        try:
            readings.append(deal.apply(play, sub_field("play_log", i)))
        except RulesError as err:
            return ReplayResult(False, err.message, deal.full_finish(), False, i, i, play.seat)
    complete = deal.over()
    reason = (
        t("every play is legal") if complete else t("every play is legal; the deal is not finished")
    )
    return ReplayResult(True, reason, deal.full_finish(), complete, len(log), readings=readings)


def parse_log(value: object, field: str = "play_log") -> list[Play]:
    """The JSON play log -> Plays (cards parsed; copies are checked against the hands)."""
    if not isinstance(value, list):
        raise RulesError(
            t(
                '{field} must be a list of plays such as {{"seat": "E", "cards": ["S3"]}}',
                field=field,
            ),
            field,
        )
    plays = []
    for i, entry in enumerate(value):
        where = sub_field(field, i)
        if not isinstance(entry, dict) or "seat" not in entry:
            raise RulesError(
                t("{where} must be an object with a seat and its cards", where=where), where
            )
        seat = parse_seat(entry["seat"], sub_field(where, "seat"))
        cards = [] if entry.get("pass") else entry.get("cards") or []
        cards = tuple(parse_cards(cards, DECKS, sub_field(where, "cards")))
        plays.append(Play(seat, cards, entry.get("kind"), entry.get("rank")))
    return plays
