"""Finding 6 of issue 13, pages: every page URL answers bad form input with a 4xx or the
page again, never a 5xx. Numbers past every column, negative and garbage numbers, NUL
characters, deep and huge JSON records and over-long text, for every action a page knows."""

from __future__ import annotations

import re

import pytest
from django.db import transaction
from django.urls import URLPattern, URLResolver, get_resolver

from tests.config.test_malformed_sweep import everything  # noqa: F401 - the shared event fixture

HUGE = "9" * 30
ACTIONS = ["confirm", "correct", "void", "restore", "forfeit", "reopen"]
NUMBER_FIELDS = [
    "base_version",
    "version",
    "table",
    "number",
    "round",
    "after_round",
    "seed",
    "deal",
    "places",
    "levels",
    "team",
    "team_a",
    "team_b",
    "match",
    "player",
    "incident",
    "revoke",
    "pk",
]
TEXT_FIELDS = [
    "reason",
    "note",
    "grounds",
    "description",
    "name",
    "unit",
    "player1",
    "player2",
    "username",
    "kind",
    "record",
    "request",
    "hands",
    "play_log",
]


def page_patterns(resolver=None, prefix="") -> list[str]:
    resolver = resolver or get_resolver()
    found = []
    for entry in resolver.url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            if route.startswith(("api/", "admin/", "i18n/")):
                continue
            found += page_patterns(entry, route)
        elif isinstance(entry, URLPattern):
            found.append(route)
    return found


def fill(route: str, world: dict) -> str:
    ids = {
        "slug": world["slug"],
        "number": 1,
        "table": 1,
        "key": world["key"],
        "identifier": "standings-xlsx",
        "match_id": world["match_id"],
    }

    def value(match: re.Match) -> str:
        name = match.group(2)
        if name == "pk":
            before = route[: match.start()].rstrip("/").rsplit("/", 1)[-1]
            return str(world["ids"].get(before, world["match_id"]))
        return str(ids.get(name, 1))

    return "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route)


def bodies(route: str, world: dict) -> list[dict]:
    """A body each form accepts with every number past its column, or negative, then every
    text field too long, holding a NUL, or deep JSON; every action for the pages that
    dispatch on ``action``. (Bounded: one spoiled field at a time is the API sweep's job.)"""
    valid = {
        **dict.fromkeys(NUMBER_FIELDS, "1"),
        **dict.fromkeys(TEXT_FIELDS, "r"),
        "team": world["team"],
        "team_a": world["team"],
        "team_b": world["team2"],
        "match": world["match"],
        "step": "level_deduction",
        "category": "other",
        "choice": "uphold",
        "absent": "EW",
        "game": "guandan",
        "role": "committee",
    }
    out = []
    actions = ACTIONS if route.endswith(("action/", "close/")) else [""]
    for action in actions:
        base = {**valid, "action": action}
        out.append({**base, **dict.fromkeys(NUMBER_FIELDS, HUGE)})
        out.append({**base, **dict.fromkeys(NUMBER_FIELDS, "-1")})
        out.append({**base, **dict.fromkeys(TEXT_FIELDS, "x" * 20_000)})
        out.append({**base, **dict.fromkeys(TEXT_FIELDS, "a\x00b")})
        out.append({**base, "record": "[" * 50_000, "request": '{"a":' * 5_000})
    return out


@pytest.mark.django_db
def test_bad_form_input_to_every_page_never_answers_5xx(client, everything):  # noqa: F811
    client.raise_request_exception = False
    client.force_login(everything["user"])
    routes = [r for r in page_patterns() if "<" in r or r]
    assert len(routes) > 30
    failures, sent = [], 0
    for route in routes:
        url = fill(route, everything)
        for body in bodies(route, everything):
            with transaction.atomic():
                response = client.post(url, body)
                transaction.set_rollback(True)
            sent += 1
            if response.status_code >= 500:
                failures.append((url, body.get("action"), body.get("base_version")))
        for query in (f"?round={HUGE}", "?round=-1", f"?after_round={HUGE}", "?q=" + "x" * 5000):
            response = client.get(url + query)
            sent += 1
            if response.status_code >= 500:
                failures.append((url, query[:40]))
    assert failures == [], f"{len(failures)} of {sent} answered 5xx: {failures[:20]}"
