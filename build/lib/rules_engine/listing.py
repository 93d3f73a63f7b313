"""Listing legal plays (SPEC 4.5 ``"list": true``): shared shape of the answer.

A game lists its legal plays strongest first; the answer keeps the first
:data:`MAX_LISTED` and counts the rest in ``"more"``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from itertools import islice

MAX_LISTED = 200


def wants_list(request: dict) -> bool:
    return request.get("list") is True


def listing(plays: Iterable[dict], total: int | None = None) -> dict:
    """``{"legal_plays": the first 200, "more": how many are left off}``.

    ``plays`` may be a lazy iterator (strongest first) when ``total`` counts them all;
    otherwise it is read to its end."""
    if total is None:
        plays = list(plays)
        total = len(plays)
        shown = plays[:MAX_LISTED]
    else:
        shown = list(islice(plays, MAX_LISTED))
    return {"legal_plays": shown, "count": total, "more": max(0, total - len(shown))}


def multiset_combinations(items: list[tuple[object, int]], size: int) -> Iterator[tuple]:
    """Every multiset of ``size`` elements from ``items`` ((element, copies) pairs), in
    lexicographic order of ``items`` (so, with items strongest first, strongest first)."""
    chosen: list = []

    def walk(start: int, left: int) -> Iterator[tuple]:
        if left == 0:
            yield tuple(chosen)
            return
        for i in range(start, len(items)):
            element, copies = items[i]
            for n in range(min(copies, left), 0, -1):
                chosen.extend([element] * n)
                yield from walk(i + 1, left - n)
                del chosen[-n:]

    if size <= sum(copies for _, copies in items):
        yield from walk(0, size)


def count_multisets(copies: Iterable[int], size: int) -> int:
    """How many multisets of ``size`` elements the given copy counts allow."""
    ways = [1] + [0] * size
    for limit in copies:
        new = [0] * (size + 1)
        for total, n in enumerate(ways):
            if n:
                for take in range(0, min(limit, size - total) + 1):
                    new[total + take] += n
        ways = new
    return ways[size]
