"""Finding 6 of issue 13: malformed bodies of every kind, posted to every write endpoint of the
OpenAPI schema, never answer 5xx.

Bodies: invalid JSON, non-object JSON, deep nesting, an oversized body, NUL characters in
every field, integers past every column's range, wrong types, over-long strings, form and
multipart bodies. The caller holds every role of the event, so the bodies reach the services.
"""

from __future__ import annotations

import json
import re

import pytest
from django.db import transaction
from drf_spectacular.generators import SchemaGenerator

from tests.factories import guandan_record

WRITE_METHODS = ("post", "put", "patch", "delete")


def write_operations() -> list[tuple[str, str, dict]]:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    components = schema.get("components", {}).get("schemas", {})
    operations = []
    for path, item in schema["paths"].items():
        for method in WRITE_METHODS:
            if method not in item:
                continue
            body = (
                item[method].get("requestBody", {}).get("content", {}).get("application/json", {})
            )
            ref = body.get("schema", {}).get("$ref", "")
            properties = components.get(ref.rsplit("/", 1)[-1], {}).get("properties", {})
            operations.append((path, method, properties))
    return operations


# A body each endpoint accepts: the sweep also spoils one field of it at a time, so that the
# spoiled value reaches the service and the database instead of an earlier refusal.
VALID = {
    "/result/": {"record": guandan_record(), "base_version": 1, "note": "n"},
    "/preview/": {"record": guandan_record()},
    "/correct/": {"record": guandan_record(), "base_version": 1, "reason": "r"},
    "/void/": {"base_version": 1, "reason": "r"},
    "/forfeit/": {"absent": "EW", "base_version": 1, "note": "n"},
    "/confirm/": {"version": 1},
    "/restore/": {"version": 1, "reason": "r"},
    "/reopen/": {"reason": "r"},
    "/table-keys/": {"table_number": 3},
    "/rulings/": {"step": "level_deduction", "reason": "r", "levels": 1, "deal": 1, "places": 1},
    "/incidents/": {"match": "$match", "team": "$team", "category": "other", "description": "d"},
    "/desk/": {"action": "check", "request": {"game": "guandan"}},
    "/votes/": {"choice": "uphold", "reason": "r"},
    "/appeals/": {"grounds": "g"},
    "/revoke/": {"reason": "r"},
    "/accept-late/": {"reason": "r"},
    "/teams/": {"name": "T", "unit": "U", "seed": 9, "players": ["a", "b"]},
    "/roles/": {"username": "sweeper", "role": "committee"},
    "/tournaments/": {
        "name": "E",
        "slug": "e-sweep",
        "game": "guandan",
        "preset": "guandan-suzhou-2016",
        "num_rounds": 3,
        "round_minutes": 60,
    },
    "/swap/": {"team_a": "$team", "team_b": "$team2", "reason": "r"},
}


def valid_body(path: str, world: dict) -> dict:
    for suffix, body in VALID.items():
        if path.endswith(suffix) or path.endswith(suffix.rstrip("/") + "/{id}/"):
            return {
                key: world[value[1:]] if isinstance(value, str) and value[:1] == "$" else value
                for key, value in body.items()
            }
    return {}


def malformed_bodies(
    path: str, properties: dict, world: dict
) -> list[tuple[str, bytes | str, str]]:
    """(label, body, content type) triples."""
    as_json = "application/json"
    deep_list = "[" * 20_000 + "]" * 20_000
    deep_object = '{"a":' * 5_000 + "1" + "}" * 5_000
    bodies: list[tuple[str, bytes | str, str]] = [
        ("truncated", "{", as_json),
        ("not-json", "nul", as_json),
        ("bad-utf8", b'{"name": "\xff\xfe"}', as_json),
        ("empty", "", as_json),
        ("list", "[]", as_json),
        ("string", '"text"', as_json),
        ("number", "12", as_json),
        ("null", "null", as_json),
        ("nan", '{"x": NaN}', as_json),
        ("huge-number", '{"x": 1e999999}', as_json),
        ("long-int", '{"x": ' + "9" * 5000 + "}", as_json),
        ("deep-list", deep_list, as_json),
        ("deep-object", deep_object, as_json),
        (
            "nested-record",
            json.dumps({"record": {"game": "guandan", "deals": [[[[[[[]]]]]]]}}),
            as_json,
        ),
        ("too-large", json.dumps({"note": "x" * 3_000_000}), as_json),
        ("nul-key", json.dumps({"a\u0000": 1}), as_json),
        ("form", "name=%00&record=x&reason=%00", "application/x-www-form-urlencoded"),
        ("form-large", "a=" + "x" * 3_000_000, "application/x-www-form-urlencoded"),
        ("multipart-junk", b"--x\r\nContent-Disposition: form-data\r\n\r\n", "multipart/form-data"),
        ("unknown-type", "<xml/>", "application/xml"),
        (
            "nul-in-valid-record",
            json.dumps(
                {"record": guandan_record(comment="a\u0000"), "base_version": 1, "reason": "r"}
            ),
            as_json,
        ),
        (
            "nul-record",
            json.dumps(
                {
                    "record": guandan_record(deals=[{"finish": ["E\u0000"]}]),
                    "base_version": 0,
                    "reason": "r",
                }
            ),
            as_json,
        ),
    ]
    wrong_values = {
        "nul": "a\u0000b",
        "long": "x" * 100_000,
        "int32": 2**31,
        "int64": 2**63,
        "big": 10**30,
        "minus": -1,
        "zero": 0,
        "float": 1e308,
        "list": [1, [2]],
        "object": {"a": {"b": None}},
        "null": None,
        "bool": True,
        "string": "x",
        "surrogate": "\ud800",  # issue 31: a lone surrogate in a choice field was a 500
    }
    valid = valid_body(path, world)
    for name in properties or {"name": {}}:  # issue 31: JSON 1e999 (infinity) in id fields
        rest = json.dumps({k: v for k, v in valid.items() if k != name})[:-1]
        infinite = rest + (", " if len(rest) > 1 else "") + json.dumps(name) + ": 1e999}"
        bodies.append((f"valid+{name}=1e999", infinite, as_json))
    for label, value in wrong_values.items():
        for name in properties or {"name": {}}:
            bodies.append((f"valid+{name}={label}", json.dumps({**valid, name: value}), as_json))
        bodies.append((f"all={label}", json.dumps(dict.fromkeys(properties, value)), as_json))
    return bodies


@pytest.fixture
def everything(make_event, make_user, grant):
    """An event with a round in play, an incident, a ruling, an appeal, a table key and a team;
    one user holding every role."""
    from arbitration.services import appeals, incidents, rulings
    from tournaments.models import Match, Round, RoundSlot, TableKey, Team
    from tournaments.services import result_entry, results

    event = make_event(teams=4, slug="sweep")
    teams = list(Team.objects.filter(event=event).order_by("name"))
    round_ = Round.objects.create(event=event, number=1, status="in_play")
    match = Match.objects.create(round=round_, table_number=1, home=teams[0], away=teams[1])
    RoundSlot.objects.create(round=round_, match=match, team=teams[0], side="EW")
    RoundSlot.objects.create(round=round_, match=match, team=teams[1], side="NS")
    user = make_user("sweeper")
    for role in ("organiser", "chief_referee", "table_referee", "committee"):
        grant(user, event, role)
    grant(user, event, "captain", team=teams[0])
    result_entry.submit(match, guandan_record(), results.Actor(user, None, "api", ""), 0)
    incident = incidents.log_incident(
        event, user, match=match, team=teams[0], category="other", description="late"
    )
    ruling = rulings.rule(incident, user, step="warning", reason="why")[0]
    appeal = appeals.file_appeal(ruling, user, "grounds")
    key = TableKey.objects.create(event=event, table_number=1)
    return {
        "user": user,
        "slug": event.slug,
        "match_id": match.pk,
        "number": 1,
        "ids": {
            "incidents": incident.pk,
            "rulings": ruling.pk,
            "appeals": appeal.pk,
            "table-keys": key.pk,
            "teams": teams[0].pk,
            "roles": 1,
        },
        "key": key.key,
        "match": match.pk,
        "team": teams[0].pk,
        "team2": teams[2].pk,
    }


def concrete(path: str, world: dict) -> str:
    def fill(match: re.Match) -> str:
        name = match.group(1)
        if name in ("id", "pk"):
            owner = path[: match.start()].rstrip("/").rsplit("/", 1)[-1]
            return str(world["ids"].get(owner, 1))
        return str(world.get(name, 1))

    return re.sub(r"\{(\w+)\}", fill, path)


@pytest.mark.django_db
def test_malformed_bodies_to_every_write_endpoint_never_answer_5xx(client, everything):
    client.raise_request_exception = False
    client.force_login(everything["user"])
    operations = write_operations()
    assert len(operations) >= 20, operations  # the whole write surface is swept
    failures, sent = [], 0
    for path, method, properties in operations:
        url = concrete(path, everything)
        for label, body, content_type in malformed_bodies(path, properties, everything):
            with transaction.atomic():  # each request starts from the same database
                response = getattr(client, method)(url, data=body, content_type=content_type)
                transaction.set_rollback(True)
            sent += 1
            if response.status_code >= 500:
                failures.append(
                    (method.upper(), url, label, response.status_code, response.content[:200])
                )
    assert sent > 1000
    assert failures == [], f"{len(failures)} of {sent} answered 5xx: {failures[:20]}"
