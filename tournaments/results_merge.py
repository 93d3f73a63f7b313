"""A three-way merge of match records, deal by deal: plain data in, plain data out (no Django).

A phone that started from version ``base`` submits ``mine`` while someone else (the chief's
correction, a second referee) stored ``theirs`` in between. Deal *n* (1-based, counted over
the whole record in order, games one after another) is compared in the three:

- the same in ``mine`` and ``theirs``: kept;
- changed on one side only (against ``base``): that side's deal (``theirs`` or ``mine``);
- changed on both sides, differently: a **conflict**; only an explicit choice for that deal
  (``overrides[n]`` = ``"mine"`` or ``"theirs"``) settles it, never a default.

A deal missing on a side (fewer deals) is the value "no deal": a deal removed by one side and
left alone by the other is removed. A merged list with a hole (deal *n* gone, a later one
kept) is a conflict on the missing deals. The record's other members (a time call, a best of
three's per-game time calls) are merged the same way, each by its name. A record without deals
(final levels, a forfeit, a void) is merged as one item named ``record``. The event's members
(``game``, ``preset``, ``settings``, ``format``) are not merged: the server adds its own.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

MINE = "mine"
THEIRS = "theirs"
CHOICES = (MINE, THEIRS)
WHOLE = "record"  # the name of a record without deals, merged as one item
EVENT_KEYS = ("game", "preset", "settings", "format")
_ABSENT = object()  # "no such deal / member" on a side


@dataclass
class Merge:
    """What a merge found. ``record`` is the merged record (None while conflicts remain);
    ``theirs``/``mine``: the deal numbers taken from that side because only it changed them;
    ``conflicts``: the deal numbers both changed differently and no choice settles;
    ``fields``: the same for other members (their names); ``chosen``: the choices applied."""

    record: dict | None
    theirs: list[int] = field(default_factory=list)
    mine: list[int] = field(default_factory=list)
    conflicts: list[int] = field(default_factory=list)
    fields: list[str] = field(default_factory=list)
    theirs_fields: list[str] = field(default_factory=list)
    mine_fields: list[str] = field(default_factory=list)
    chosen: dict[str, str] = field(default_factory=dict)

    @property
    def clean(self) -> bool:
        return not self.conflicts and not self.fields

    def summary(self) -> dict:
        """The plain answer (the API's ``merge`` member)."""
        return {
            "theirs": self.theirs,
            "mine": self.mine,
            "conflicts": self.conflicts,
            "fields": self.fields,
            "theirs_fields": self.theirs_fields,
            "mine_fields": self.mine_fields,
            "chosen": self.chosen,
        }


WHOLE_MARKS = ("forfeit", "void", "final_levels")  # a record of these is one item, deals or not


def has_deals(record: Any) -> bool:
    """A record merged deal by deal: it has deals (or games) and is no forfeit, void or final
    levels (a forfeit's empty ``deals`` replaces the whole record, not each deal)."""
    return (
        isinstance(record, dict)
        and (isinstance(record.get("deals"), list) or isinstance(record.get("games"), list))
        and not any(record.get(mark) for mark in WHOLE_MARKS)
    )


def flat(record: dict | None) -> list[tuple[int, Any]]:
    """The deals of ``record`` in order, each as (game index, deal)."""
    if not record:
        return []
    games = record.get("games")
    if isinstance(games, list):
        return [
            (g, deal)
            for g, game in enumerate(games)
            if isinstance(game, dict)
            for deal in game.get("deals") or []
        ]
    return [(0, deal) for deal in record.get("deals") or []]


def extras(record: dict | None) -> dict[str, Any]:
    """The record's members other than its deals and the event's, by name (a best of three's
    per-game members as ``games[g].name``)."""
    found: dict[str, Any] = {}
    for key, value in (record or {}).items():
        if key in EVENT_KEYS or key == "deals":
            continue
        if key == "games" and isinstance(value, list):
            for g, game in enumerate(value):
                for name, member in (game or {}).items() if isinstance(game, dict) else ():
                    if name != "deals":
                        found[f"games[{g}].{name}"] = member
            continue
        found[key] = value
    return found


def _pick(base: Any, theirs: Any, mine: Any, key=None) -> tuple[str, Any]:
    """("same" | "theirs" | "mine" | "conflict", value) for one item; ``key`` says what is
    compared (the item itself by default)."""
    b, t, m = (
        side if key is None or side is _ABSENT else key(side) for side in (base, theirs, mine)
    )
    if t == m:
        return "same", theirs
    if m == b:
        return THEIRS, theirs
    if t == b:
        return MINE, mine
    return "conflict", None


def _item_key(same):
    """The key of a (game, deal) item: the game and the deal as ``same`` reads it."""
    if same is None:
        return None
    return lambda item: (item[0], json.dumps(same(item[1]), sort_keys=True, default=str))


def _choice(overrides: dict, name: str | int) -> str | None:
    chosen = (overrides or {}).get(str(name))
    return chosen if chosen in CHOICES else None


def merge(
    base: dict | None,
    theirs: dict | None,
    mine: dict,
    overrides: dict | None = None,
    same=None,
) -> Merge:
    """Merge ``mine`` (started from ``base``) onto ``theirs``; ``overrides`` maps a deal number
    (as text, "3") or a member's name to ``"mine"`` or ``"theirs"`` for a conflict. ``same``
    (deal → what is compared; the deal itself by default) says when two entries are one deal
    (the rules engine's ``phone.deal_key``: three seats of a finish imply the fourth)."""
    key = _item_key(same)
    overrides = {str(k): v for k, v in (overrides or {}).items()}
    base = base or {"deals": []}
    theirs = theirs or {"deals": []}
    if not (has_deals(base) and has_deals(theirs) and has_deals(mine)):
        return _merge_whole(base, theirs, mine, overrides)
    result = Merge(record=None)
    b, t, m = flat(base), flat(theirs), flat(mine)
    merged: list[Any] = []
    every: list[list[Any]] = []
    for i in range(max(len(b), len(t), len(m))):
        number = i + 1
        sides = [side[i] if i < len(side) else _ABSENT for side in (b, t, m)]
        every.append(sides)
        how, value = _pick(*sides, key=key)
        if how == "conflict":
            chosen = _choice(overrides, number)
            if chosen is None:
                result.conflicts.append(number)
                merged.append(None)
                continue
            result.chosen[str(number)] = chosen
            value = sides[2] if chosen == MINE else sides[1]
        elif how == THEIRS:
            result.theirs.append(number)
        elif how == MINE:
            result.mine.append(number)
        merged.append(value)
    # a hole: a deal gone before a deal kept. The missing deal is a conflict unless a choice
    # for it fills it (the deal as that side has it).
    last = max((i for i, v in enumerate(merged) if v is not _ABSENT and v is not None), default=-1)
    for i in range(last):
        if merged[i] is not _ABSENT:
            continue
        number, sides = i + 1, every[i]
        chosen = _choice(overrides, number)
        filled = sides[2] if chosen == MINE else sides[1] if chosen == THEIRS else _ABSENT
        if filled is _ABSENT:
            result.conflicts.append(number)
            merged[i] = None
        else:
            result.chosen[str(number)] = chosen
            merged[i] = filled
        for taken in (result.theirs, result.mine):
            if number in taken:
                taken.remove(number)
    result.conflicts.sort()
    members = _merge_members(extras(base), extras(theirs), extras(mine), overrides, result)
    if result.clean:
        deals = [v for v in merged if v is not _ABSENT]
        result.record = _rebuild(mine, theirs, deals, members)
    return result


def _merge_members(base: dict, theirs: dict, mine: dict, overrides: dict, result: Merge) -> dict:
    out: dict[str, Any] = {}
    for name in sorted(set(base) | set(theirs) | set(mine)):
        sides = [side.get(name, _ABSENT) for side in (base, theirs, mine)]
        how, value = _pick(*sides)
        if how == "conflict":
            chosen = _choice(overrides, name)
            if chosen is None:
                result.fields.append(name)
                continue
            result.chosen[name] = chosen
            value = sides[2] if chosen == MINE else sides[1]
        elif how == THEIRS:
            result.theirs_fields.append(name)
        elif how == MINE:
            result.mine_fields.append(name)
        if value is not _ABSENT:
            out[name] = value
    return out


def _rebuild(mine: dict, theirs: dict, deals: list[tuple[int, Any]], members: dict) -> dict:
    """The merged record: games when either side plays games, else a list of deals."""
    record = {key: mine[key] for key in EVENT_KEYS if key in mine}
    top = {k: v for k, v in members.items() if not k.startswith("games[")}
    if "games" in mine or "games" in theirs:
        count = max([g for g, _ in deals] + [-1]) + 1
        for name in members:
            if name.startswith("games["):
                count = max(count, int(name[6 : name.index("]")]) + 1)
        games: list[dict] = [{"deals": []} for _ in range(max(count, 1))]
        for g, deal in deals:
            games[g]["deals"].append(deal)
        for name, value in members.items():
            if name.startswith("games["):
                g, member = int(name[6 : name.index("]")]), name[name.index("]") + 2 :]
                games[g][member] = value
        return record | top | {"games": games}
    return record | top | {"deals": [deal for _, deal in deals]}


def _merge_whole(base: dict, theirs: dict, mine: dict, overrides: dict) -> Merge:
    def bare(record):
        return {k: v for k, v in (record or {}).items() if k not in EVENT_KEYS}

    result = Merge(record=None)
    how, value = _pick(bare(base), bare(theirs), bare(mine))
    if how == "conflict":
        chosen = _choice(overrides, WHOLE)
        if chosen is None:
            result.fields.append(WHOLE)
            return result
        result.chosen[WHOLE] = chosen
        value = bare(mine) if chosen == MINE else bare(theirs)
    elif how == THEIRS:
        result.theirs_fields.append(WHOLE)
    elif how == MINE:
        result.mine_fields.append(WHOLE)
    result.record = {key: mine[key] for key in EVENT_KEYS if key in mine} | value
    return result


def changed_deals(before: dict | None, after: dict | None, same=None) -> list[int]:
    """The deal numbers whose deal differs between two records (one missing on a side too);
    ``[0]`` when either record has no deals and they differ (a whole record)."""
    before, after = before or {"deals": []}, after or {"deals": []}
    if not (has_deals(before) and has_deals(after)):
        bare = [{k: v for k, v in r.items() if k not in EVENT_KEYS} for r in (before, after)]
        return [0] if bare[0] != bare[1] else []
    key = _item_key(same) or (lambda item: item)
    b, a = flat(before), flat(after)
    return [
        i + 1
        for i in range(max(len(b), len(a)))
        if (key(b[i]) if i < len(b) else None) != (key(a[i]) if i < len(a) else None)
    ]
