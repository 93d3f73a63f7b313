"""Issue 31: a bounded fuzz of the pages' paths and query strings, anonymous and logged in
with every role of the event: no answer is a 5xx.

Every URL pattern of the site is filled with the event's real values, then each parameter
in turn with hostile ones (a superscript digit, NUL, a huge number, a long string); every
GET also goes with hostile query strings on the parameters pages read. Bounded: the
patterns × a dozen values, no randomness.
"""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver

from tests.factories import grant

pytestmark = pytest.mark.django_db

HOSTILE_PARTS = ["²", "a%00b", "9" * 30, "x" * 300]
HOSTILE_QUERY = {
    "round": ["²", "9" * 30],
    "page": ["²", "9" * 30],
    "page_size": ["-5"],
    "table": ["²"],
    "from": ["²"],
    "team": ["9" * 30],
    "stage": ["²"],
}


def patterns(resolver=None, prefix="") -> list[str]:
    """Every route of the site as a path with <name> placeholders."""
    resolver = resolver or get_resolver()
    found = []
    for entry in resolver.url_patterns:
        route = str(entry.pattern)
        if isinstance(entry, URLResolver):
            found += patterns(entry, prefix + route)
        elif isinstance(entry, URLPattern):
            found.append(prefix + route)
    return [p for p in found if not p.startswith(("admin", "^", "static", "media", "__"))]


def fill(route: str, values: dict[str, str]) -> str | None:
    def value(match):
        name = match.group(2)
        return values.get(name, "1")

    path = "/" + re.sub(r"<(?:(\w+):)?(\w+)>", value, route)
    return None if "(" in path or "$" in path else path


@pytest.fixture
def world(event):
    from tournaments.models import TableKey

    user = event.organiser
    for role in ("chief_referee", "table_referee", "committee"):
        grant(user, event.event, role)
    key = TableKey.objects.create(event=event.event, table_number=1)
    return {
        "user": user,
        "values": {
            "slug": event.event.slug,
            "number": "1",
            "table": "1",
            "key": key.key,
            "pk": str(event.teams[0].pk),
            "match_id": str(event.match.pk),
            "team_id": str(event.teams[0].pk),
            "identifier": "standings-pdf",
            "code": "en",
        },
    }


def sweep(client: Client, world: dict) -> tuple[int, list]:
    sent, failures = 0, []
    refused = 0
    for route in patterns():
        base = fill(route, world["values"])
        if base is None:
            continue
        urls = [base]
        for name in re.findall(r"<(?:\w+:)?(\w+)>", route):
            for hostile in HOSTILE_PARTS:
                urls.append(fill(route, {**world["values"], name: hostile}))
        for url in urls:
            response = client.get(url)
            sent += 1
            refused += 400 <= response.status_code < 500
            if response.status_code >= 500:
                failures.append((url, response.status_code))
        for name, values in HOSTILE_QUERY.items():
            for value in values:
                response = client.get(base, {name: value})
                sent += 1
                refused += 400 <= response.status_code < 500
                if response.status_code >= 500:
                    failures.append((base, name, value, response.status_code))
    print(f"query/path sweep: {sent} requests, {refused} × 4xx, {len(failures)} × 5xx")
    return sent, failures


@pytest.mark.parametrize("who", ["anonymous", "every-role"])
def test_hostile_paths_and_query_strings_never_answer_5xx(world, who):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.raise_request_exception = False
    if who == "every-role":
        client.force_login(world["user"])
    sent, failures = sweep(client, world)
    assert sent > 1000
    assert failures == [], f"{len(failures)} of {sent} answered 5xx: {failures[:20]}"
