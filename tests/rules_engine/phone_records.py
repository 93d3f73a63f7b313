"""Generated match records for the parity test of the phone's engine (rules_engine.phone in
Pyodide) against the server's: the three games, every match format a game has (its own end,
pass A, N deals, time, time or deals, best of three, knockout), with deals that are right,
deals the rules refuse and deals after the end. Seeded: the same seed, the same records."""

from __future__ import annotations

import random

from rules_engine.guandan.seats import SEATS

PRESETS = {
    "guandan": ["guandan-suzhou-2016", "guandan-national-2017", "guandan-national"],
    "tractor": ["tractor"],
    "chengyu": ["chengyu"],
}


def _format(rng: random.Random) -> dict | None:
    end = rng.choice([None, "pass_a", "deals", "time", "time_or_deals"])
    if end is None:
        return None
    fmt = {"end": end, "minutes": 60, "deals": None, "games": 1, "knockout": rng.random() < 0.2}
    if end in ("deals", "time_or_deals"):
        fmt["deals"] = rng.randint(1, 8)
    if rng.random() < 0.25:
        fmt["games"] = 3
    return fmt


def _guandan_deal(rng: random.Random) -> dict:
    seats = list(SEATS)
    rng.shuffle(seats)
    if rng.random() < 0.02:  # a seat twice: refused
        seats[2] = seats[0]
    if rng.random() < 0.3:  # 双上: the first two are partners, and are enough
        partner = {"E": "W", "W": "E", "S": "N", "N": "S"}[seats[0]]
        return {"finish": [seats[0], partner]}
    return {"finish": seats[: rng.choice([3, 3, 4])]}


def _tractor_deal(rng: random.Random, first: bool) -> dict:
    deal = {"defender_points": rng.choice(range(0, 205, 5))}
    if rng.random() < 0.02:
        deal["defender_points"] = rng.choice([-5, 7, 305])  # not a multiple of 5 / out of range
    if first:
        deal["dealer"] = rng.choice(["EW", "NS"])
    if rng.random() < 0.2:
        deal["bottom_points"] = rng.choice(range(0, 45, 5))
        deal["bottom_multiplier"] = rng.choice([2, 4, 8])
    return deal


def _chengyu_deal(rng: random.Random) -> dict:
    ew = rng.randint(0, 13)
    ns = 13 - ew if rng.random() > 0.02 else rng.randint(0, 13)
    return {"tricks": {"EW": ew, "NS": ns}}


DEALS = {"guandan": _guandan_deal, "tractor": None, "chengyu": _chengyu_deal}


def _grow(rng: random.Random, base: dict, length: int) -> dict:
    """Deals added one by one as a table would: the next game of a best of three once the
    engine says a game is over; now and then one deal after the end (the engine refuses it)."""
    from rules_engine import phone

    fmt = base.get("format") or {}
    three = fmt.get("games") == 3
    games: list[list[dict]] = [[]]
    for _ in range(length):
        game = base["game"]
        first = not games[-1]  # each game's first deal names its dealer (tractor)
        deal = _tractor_deal(rng, first) if game == "tractor" else DEALS[game](rng)
        games[-1].append(deal)
        rec = {"games": [{"deals": g} for g in games]} if three else {"deals": games[0]}
        status, answer = phone.answer(rec, base, "en")
        if status == 400:
            return rec  # refused: kept as the refused case
        if answer.get("over") or answer.get("passed_a"):
            if rng.random() < 0.15:  # one more after the end: refused
                extra = _tractor_deal(rng, False) if game == "tractor" else DEALS[game](rng)
                games[-1].append(extra)
                rec = {"games": [{"deals": g} for g in games]} if three else {"deals": games[0]}
            return rec
        if three and answer.get("games") and answer["games"][-1].get("over"):
            games.append([])
    if three:
        return {"games": [{"deals": g} for g in games if g]}
    return {"deals": games[0]}


def record(rng: random.Random) -> tuple[dict, dict]:
    """One ``(record, base)``: what the phone sends and what the event adds."""
    game = rng.choice(["guandan", "guandan", "tractor", "chengyu"])
    base = {"game": game, "preset": rng.choice(PRESETS[game])}
    fmt = _format(rng) if game in ("guandan", "tractor") else None
    if fmt is not None:
        base["format"] = fmt
    length = rng.choice([1, 2, 3, 3, 3, 4, 5]) if game == "chengyu" else rng.randint(1, 14)
    rec = _grow(rng, base, length)
    if fmt is not None and fmt["end"] in ("time", "time_or_deals") and rng.random() < 0.5:
        where = rec["games"][-1] if "games" in rec else rec
        where["time_called_in_deal"] = rng.randint(1, max(1, len(where["deals"])))
    return rec, base


def records(seed: int, n: int) -> list[tuple[dict, dict]]:
    rng = random.Random(seed)
    return [record(rng) for _ in range(n)]
