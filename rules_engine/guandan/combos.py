"""Guandan combinations (SPEC 4.2): classify a set of cards into every reading, and decide
whether one play beats another.

The heart card of the level rank is wild (逢人配): it stands for any card but a joker.
Ranks are handled as indexes 0..12 (2..A), 13 (LJ) and 14 (BJ). For singles, pairs,
triples, full houses and bombs the level rank ranks above A; in runs (straight, tube,
plate, straight flush) every rank takes its natural place and A may sit low or high, never
in the middle. Run positions: 0 = A low, 1 = 2, …, 12 = K, 13 = A high.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rules_engine.cards import DECK, RANKS, Card, parse_level, rank_text
from rules_engine.errors import RulesError
from rules_engine.i18n import t, term

KINDS = (
    "single",
    "pair",
    "triple",
    "full_house",
    "straight",
    "tube",
    "plate",
    "bomb",
    "straight_flush",
    "joker_bomb",
)
BOMB_KINDS = frozenset({"bomb", "straight_flush", "joker_bomb"})
LJ, BJ = 13, 14
ACE = 12
HIGH_ACE = 13  # run position of A above K

_RANK_OF: dict[Card, int] = {
    card: (RANKS.index(card.rank) if card.suit else (LJ if card.rank == "LJ" else BJ))
    for card in DECK
}
_RANK_NAMES = tuple(rank_text(r) for r in RANKS) + ("LJ", "BJ")


@dataclass(frozen=True, slots=True)
class Reading:
    """One way to read a set of cards: its kind, the rank used for comparison (card
    notation, ``10`` for ten), its size in cards, and an internal comparison value."""

    kind: str
    rank: str
    size: int
    value: int

    @property
    def is_bomb(self) -> bool:
        return self.kind in BOMB_KINDS

    @property
    def power(self) -> tuple[int, int]:
        """(tier, value): non-bombs tier 0; bombs 4 < 5 < straight flush < 6 < … < 10 cards
        < four jokers (SPEC 4.2)."""
        if self.kind == "bomb":
            return (2 * self.size, self.value)
        if self.kind == "straight_flush":
            return (11, self.value)
        if self.kind == "joker_bomb":
            return (100, 0)
        return (0, self.value)

    def as_dict(self) -> dict:
        return {"kind": self.kind, "rank": self.rank, "size": self.size}


def rank_of(card: Card) -> int:
    """The rank index of a card: 0..12 for 2..A, 13 for LJ, 14 for BJ."""
    return _RANK_OF[card]


def same_rank_reading(kind: str, rank: int, size: int, level: int) -> Reading:
    """The reading of a single, pair, triple, full house (by its triple) or bomb of ``rank``."""
    return _same_rank(kind, rank, size, level)


def run_reading(kind: str, top: int, size: int) -> Reading:
    """The reading of a straight, tube, plate or straight flush by its top run position."""
    return _run(kind, top, size)


def run_rank(pos: int) -> int:
    """The rank at run position ``pos`` (0 = A low, 1 = 2, …, 12 = K, 13 = A high)."""
    return _run_rank(pos)


def strength(reading: Reading) -> tuple[int, int, int]:
    """The order of readings, strongest last (bomb tier, value, kind)."""
    return _strength(reading)


def level_index(level: object) -> int:
    """A level given as an index 0..12 or as text ("7", "10", "A")."""
    if isinstance(level, int) and not isinstance(level, bool) and 0 <= level <= ACE:
        return level
    return parse_level(level)


def single_value(rank: int, level: int) -> int:
    """Order of single ranks: 2 < … < A < level card < LJ < BJ."""
    if rank >= LJ:
        return rank + 1
    return 13 if rank == level else rank


def card_value(card: Card, level: int) -> int:
    """The rank order of one card as a single (used by tribute)."""
    return single_value(_RANK_OF[card], level)


def is_wild(card: Card, level: int) -> bool:
    return card.suit == "H" and _RANK_OF[card] == level


def _same_rank(kind: str, rank: int, size: int, level: int) -> Reading:
    return Reading(kind, _RANK_NAMES[rank], size, single_value(rank, level))


def _run_rank(pos: int) -> int:
    return ACE if pos in (0, HIGH_ACE) else pos - 1


def _run(kind: str, top: int, size: int) -> Reading:
    return Reading(kind, _RANK_NAMES[_run_rank(top)], size, top)


class _Tally:
    """Counts of the non-wild cards per rank, the wild count and the non-wild suits."""

    __slots__ = ("counts", "wilds", "suits", "plain", "ranks")

    def __init__(self, cards: Sequence[Card], level: int) -> None:
        counts = [0] * 15
        suits = set()
        wilds = 0
        for card in cards:
            rank = _RANK_OF[card]
            if rank == level and card.suit == "H":
                wilds += 1
            else:
                counts[rank] += 1
                suits.add(card.suit)
        self.counts = counts
        self.wilds = wilds
        self.suits = suits
        self.plain = len(cards) - wilds
        self.ranks = [r for r in range(15) if counts[r]]

    def one_rank(self, level: int) -> int | None:
        """The single rank all cards can share (wilds joining it), or None."""
        if not self.ranks:
            return level  # only wild cards: they are level cards
        if len(self.ranks) == 1 and (self.ranks[0] < LJ or not self.wilds):
            return self.ranks[0]
        return None

    def run_tops(self, length: int, width: int) -> list[int]:
        """Top positions of every run of ``length`` consecutive ranks, ``width`` cards each,
        that the cards (wilds filling gaps) make exactly."""
        counts = self.counts
        if counts[LJ] or counts[BJ]:
            return []
        tops = []
        for start in range(0, HIGH_ACE - length + 2):
            used = 0
            for pos in range(start, start + length):
                held = counts[_run_rank(pos)]
                if held > width:
                    break
                used += held
            else:
                if used == self.plain:
                    tops.append(start + length - 1)
        return tops


def _same_rank_readings(tally: _Tally, n: int, level: int) -> list[Reading]:
    rank = tally.one_rank(level)
    if rank is None:
        return []
    if n == 1:
        return [_same_rank("single", rank, 1, level)]
    if n == 2:
        return [_same_rank("pair", rank, 2, level)]
    if rank >= LJ:
        return []
    if n == 3:
        return [_same_rank("triple", rank, 3, level)]
    return [_same_rank("bomb", rank, n, level)]


def _full_houses(tally: _Tally, level: int) -> list[Reading]:
    counts, wilds = tally.counts, tally.wilds
    if len(tally.ranks) > 2:
        return []
    candidates = set(tally.ranks) | {level}
    found = []
    for triple in candidates:
        if triple >= LJ or counts[triple] > 3:
            continue
        for pair in candidates:
            if pair == triple or counts[pair] > 2:
                continue
            if pair >= LJ and counts[pair] != 2:
                continue  # jokers pair only with each other, never with a wild
            if not set(tally.ranks) <= {triple, pair}:
                continue
            if (3 - counts[triple]) + (2 - counts[pair]) == wilds:
                found.append(_same_rank("full_house", triple, 5, level))
    return found


def classify(cards: Iterable[Card], level: object) -> list[Reading]:
    """Every reading of ``cards`` at ``level``, strongest first, without duplicates.
    An empty list means the cards form no valid combination."""
    cards = list(cards)
    level = level_index(level)
    n = len(cards)
    if n == 0:
        return []
    tally = _Tally(cards, level)
    readings = _same_rank_readings(tally, n, level) if n <= 10 else []
    if n == 4 and tally.counts[LJ] == 2 and tally.counts[BJ] == 2:
        readings.append(Reading("joker_bomb", "BJ", 4, 0))
    elif n == 5:
        readings += _full_houses(tally, level)
        tops = tally.run_tops(5, 1)
        readings += [_run("straight", top, 5) for top in tops]
        if len(tally.suits) <= 1:
            readings += [_run("straight_flush", top, 5) for top in tops]
    elif n == 6:
        readings += [_run("tube", top, 6) for top in tally.run_tops(3, 2)]
        readings += [_run("plate", top, 6) for top in tally.run_tops(2, 3)]
    unique = {(r.kind, r.rank, r.size): r for r in readings}
    return sorted(unique.values(), key=_strength, reverse=True)


def _strength(reading: Reading) -> tuple[int, int, int]:
    return (*reading.power, -KINDS.index(reading.kind))


def strongest(readings: Sequence[Reading]) -> Reading:
    return max(readings, key=_strength)


def reading_beats(play: Reading, previous: Reading) -> bool:
    """True when ``play`` beats ``previous``: bombs beat every non-bomb and go by the bomb
    order; otherwise the same kind and size with a higher rank."""
    if play.is_bomb or previous.is_bomb:
        return play.power > previous.power
    return play.kind == previous.kind and play.size == previous.size and play.value > previous.value


def choose_reading(
    readings: Sequence[Reading], kind: object = None, rank: object = None, field: str = "previous"
) -> Reading:
    """The declared reading (``kind``, optional ``rank``) or the strongest one."""
    if not readings:
        raise RulesError(t("{field} is not a valid combination", field=field), field)
    if kind is None and rank is None:
        return readings[0]
    if kind is not None and kind not in KINDS:
        raise RulesError(
            t("unknown kind {kind!r} (known: {known})", kind=kind, known=", ".join(KINDS)),
            f"{field}_kind",
        )
    wanted_rank = None if rank is None else rank_text(str(rank).upper())
    for reading in readings:
        if (kind is None or reading.kind == kind) and (
            wanted_rank is None or reading.rank == wanted_rank
        ):
            return reading
    said = " ".join(str(x) for x in (kind, rank) if x is not None)
    options = ", ".join(f"{r.kind} {r.rank}" for r in readings)
    raise RulesError(
        t(
            "{field} cannot be read as {said} (it reads as: {options})",
            field=field,
            said=said,
            options=options,
        ),
        f"{field}_kind",
    )


def beating_readings(
    play: Sequence[Card], previous: Reading | None, level: object
) -> list[Reading]:
    """The readings of ``play`` that beat ``previous`` (every reading for a lead)."""
    readings = classify(play, level)
    if previous is None:
        return readings
    return [r for r in readings if reading_beats(r, previous)]


def beats(play: Sequence[Card], previous: Sequence[Card] | Reading, level: object) -> bool:
    """True when some reading of ``play`` beats ``previous`` (cards read at their
    strongest reading, or a declared Reading)."""
    if not isinstance(previous, Reading):
        readings = classify(previous, level)
        if not readings:
            raise RulesError(t("previous is not a valid combination"), "previous")
        previous = readings[0]
    return bool(beating_readings(play, previous, level))


def stand_ins(cards: Sequence[Card], reading: Reading, level: object) -> list[int]:
    """The rank (0..14) each card stands for in ``reading``, in input order: every card is
    itself, except the wild cards, which fill what the reading lacks."""
    level = level_index(level)
    tally = _Tally(cards, level)
    needed = _needed_ranks(reading, tally, level)
    for rank in tally.ranks:
        needed[rank] -= tally.counts[rank]
    fill = [rank for rank, n in enumerate(needed) for _ in range(n)]
    if any(n < 0 for n in needed) or len(fill) != tally.wilds:
        raise RulesError(
            t(
                "the cards cannot be read as {kind} {rank}",
                kind=term(reading.kind),
                rank=reading.rank,
            )
        )
    fill.reverse()
    return [fill.pop() if is_wild(c, level) else _RANK_OF[c] for c in cards]


def _needed_ranks(reading: Reading, tally: _Tally, level: int) -> list[int]:
    needed = [0] * 15
    rank = _RANK_NAMES.index(reading.rank)
    if reading.kind in ("straight", "straight_flush", "tube", "plate"):
        length, width = {"tube": (3, 2), "plate": (2, 3)}.get(reading.kind, (5, 1))
        for pos in range(reading.value - length + 1, reading.value + 1):
            needed[_run_rank(pos)] += width
    elif reading.kind == "full_house":
        pair = next((r for r in tally.ranks if r != rank), level)
        needed[rank], needed[pair] = 3, 2
    elif reading.kind == "joker_bomb":
        needed[LJ] = needed[BJ] = 2
    else:
        needed[rank] = reading.size
    return needed
