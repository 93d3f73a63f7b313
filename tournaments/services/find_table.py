"""Find my table: a player types their name, its pinyin initials (``zwj`` for 张卫军), the
full pinyin, the team's name or the team's number, or opens the link on their team's QR
badge (``?team=<id>``), and gets the table, the seats, the opponents and the round clock of
the current round. Read-only, no login.

The index of the current round (one entry per team, with the pinyin of every name) is built
once per event revision in each process (names' pinyin once per process), and each answer is
cached per revision like every public answer (tournaments.services.public_cache).
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, field
from functools import lru_cache

from pypinyin import Style, lazy_pinyin

from rules_engine import seating
from tournaments.models import Event, Player, RoundSlot, Team

from .public import current_round, whole

MAX_QUERY = 50
MAX_ANSWERS = 20
WORD = re.compile(r"[0-9a-z]+")


@lru_cache(maxsize=65536)
def spellings(name: str) -> tuple[str, str]:
    """(initials, full pinyin) of a name, lower case without spaces: 张卫军 → (zwj,
    zhangweijun); letters and digits outside Chinese count word by word (Team 7 → t7)."""
    initials, full = [], []
    for chunk in lazy_pinyin(name, style=Style.NORMAL):  # a syllable per Chinese character
        words = WORD.findall(chunk.lower())
        initials += [word[0] for word in words]
        full += words
    return "".join(initials), "".join(full)


@dataclass
class Entry:
    """A team of the current round and what a search may match."""

    team: int
    name: str
    number: int | None
    match: int
    table: int | None
    side: str
    players: list[tuple[int, str]] = field(default_factory=list)
    texts: list[str] = field(default_factory=list)  # lower-cased names
    spelled: list[tuple[str, str]] = field(default_factory=list)  # (initials, full pinyin)


@dataclass
class Index:
    round: int | None
    status: str | None
    ends_at: str | None
    entries: list[Entry]
    by_team: dict[int, Entry]
    by_match: dict[int, list[Entry]]


_indexes: dict[int, tuple[tuple, Index]] = {}
_lock = threading.Lock()


def index(event: Event) -> Index:
    """The current round's index at the event's revision (built once per process)."""
    stamp = (event.revision, event.created_at)
    with _lock:
        known = _indexes.get(event.pk)
    if known is not None and known[0] == stamp:
        return known[1]
    built = _build(event)
    with _lock:
        _indexes[event.pk] = (stamp, built)
    return built


def _build(event: Event) -> Index:
    rnd = current_round(event)
    if rnd is None:
        return Index(None, None, None, [], {}, {})
    teams = dict(Team.objects.filter(event=event).values_list("pk", "name").iterator())
    numbers = dict(Team.objects.filter(event=event, seed__isnull=False).values_list("pk", "seed"))
    players: dict[int, list[tuple[int, str]]] = {}
    rows = Player.objects.filter(team__event=event).order_by("team_id", "seat_order")
    for team_id, order, name in rows.values_list("team_id", "seat_order", "name").iterator():
        players.setdefault(team_id, []).append((order, name))
    entries, by_team, by_match = [], {}, {}
    slots = RoundSlot.objects.filter(round=rnd).values_list(
        "team_id", "match_id", "side", "match__table_number"
    )
    for team_id, match_id, side, table in slots.iterator():
        name = teams.get(team_id, "")
        members = players.get(team_id, [])
        names = [name] + [player for _order, player in members]
        entry = Entry(
            team=team_id,
            name=name,
            number=numbers.get(team_id),
            match=match_id,
            table=table,
            side=side,
            players=members,
            texts=[text.lower() for text in names],
            spelled=[spellings(text) for text in names],
        )
        entries.append(entry)
        by_team[team_id] = entry
        by_match.setdefault(match_id, []).append(entry)
    entries.sort(key=lambda e: (e.table is None, e.table or 0, e.side))
    ends_at = rnd.ends_at.isoformat() if rnd.ends_at else None
    return Index(rnd.number, rnd.status, ends_at, entries, by_team, by_match)


def normalise(query: str) -> str:
    return " ".join(str(query or "").split()).lower()[:MAX_QUERY]


def params(query) -> dict:
    """The search from a URL's query: ``q`` (normalised) and ``team`` (an id, or None)."""
    team = str(query.get("team", "")).strip()
    return {
        "q": normalise(query.get("q", "")),
        "team": int(team) if whole(team) and len(team) < 12 else None,
    }


def matches(entry: Entry, query: str) -> bool:
    if whole(query):
        return entry.number == int(query)
    squeezed = query.replace(" ", "")
    if squeezed.isascii() and squeezed.isalnum():
        for initials, full in entry.spelled:
            if initials.startswith(squeezed) or full.startswith(squeezed):
                return True
    return any(query in text for text in entry.texts)


def search(event: Event, query: str = "", team: int | None = None) -> dict:
    """The answer: the round and its clock, and up to MAX_ANSWERS teams with their table."""
    idx = index(event)
    query = normalise(query)
    if team is not None:
        found = [idx.by_team[team]] if team in idx.by_team else []
    elif query:
        found = [entry for entry in idx.entries if matches(entry, query)]
    else:
        found = []
    return {
        "round": idx.round,
        "clock": {"round": idx.round, "status": idx.status, "ends_at": idx.ends_at},
        "query": query,
        "count": len(found),
        "results": [_answer(idx, entry) for entry in found[:MAX_ANSWERS]],
    }


def _seats(entry: Entry) -> list[dict]:
    return [
        {"seat": seating.seat_of(entry.side, order), "player": name}
        for order, name in entry.players
        if entry.side in ("EW", "NS") and order in (1, 2)
    ]


def _answer(idx: Index, entry: Entry) -> dict:
    others = [other for other in idx.by_match.get(entry.match, []) if other.team != entry.team]
    opponent = others[0] if others else None
    return {
        "team": {"id": entry.team, "name": entry.name, "number": entry.number},
        "table": entry.table,
        "side": entry.side,
        "bye": opponent is None,
        "seats": sorted(_seats(entry), key=lambda seat: seating.SEAT_ORDER.index(seat["seat"])),
        "opponent": None
        if opponent is None
        else {
            "id": opponent.team,
            "name": opponent.name,
            "number": opponent.number,
            "seats": sorted(
                _seats(opponent), key=lambda seat: seating.SEAT_ORDER.index(seat["seat"])
            ),
        },
    }
