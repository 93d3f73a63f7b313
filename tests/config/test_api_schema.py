"""schemathesis drives every operation of the OpenAPI schema in-process with every check it has
(the CLI's ``--checks all``): no 5xx, every answer's status, content type, headers and body
as the schema says, schema-valid requests accepted, schema-invalid ones refused, missing or
wrong credentials refused, undeclared methods answered 405 with Allow. Twice: anonymous, and
with an API token of a user holding every role of the event (issue 31). (Three of the 14
checks judge a stateful run's history or a second identity's objects — use_after_free,
ensure_resource_availability, object_level_authorization — and find none here.)

The event is real and the requests reach it: the path parameters are pinned to its objects
(slug, match, team, stage, incident…), and the ids a schema-valid body names (``match``,
``team``, ``teams``…) are made its own, so that the API's answer, not a 404, is checked.
Each request runs in a savepoint rolled back after it: every one meets the same event.

One check is narrowed, where the schema cannot say what the API requires:
``positive_data_acceptance`` (a schema-valid request must not be a 400) is waived for a 400
that names a field of :data:`RULES_BEYOND_THE_SCHEMA` — a rule between fields, or the rules
of the game, which JSON Schema does not express. Any other 400 to a schema-valid request
fails the test.

Bounded: the coverage phase (deterministic; anonymous, the schema-invalid bodies of writes
that need credentials are left to the token run) and ``MAX_EXAMPLES`` generated requests an
operation and identity, no shrinking, no example database.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
import schemathesis
from django.db import transaction
from hypothesis import HealthCheck, Phase, settings
from schemathesis.core.failures import FailureGroup
from schemathesis.openapi.checks import RejectedPositiveData

from config.wsgi import application
from tests import factories

MAX_EXAMPLES = 4
SLUG = "schema"
PIN = 1  # the value of every pinned id in a path; realised as the event's own object
TABLE_KEY = "schema-table-key-" + "0" * 30
OTHER = "schema-other"  # a user of no role: the username a role grant names

schema = schemathesis.openapi.from_wsgi("/api/schema/", application)
schema.config.update(
    parameters={
        "path.slug": SLUG,
        "path.id": PIN,
        "path.match_id": PIN,
        "path.number": 1,
        "path.section": PIN,
        "path.key": TABLE_KEY,
    }
)

# Fields whose rules JSON Schema cannot state, by operation: a 400 naming one of them answers
# a schema-valid request honestly. Why, for each:
RULES_BEYOND_THE_SCHEMA = {
    # a preset belongs to one game; the settings' keys are the preset's own
    "POST /api/tournaments/": {"preset", "settings"},
    "PUT /api/tournaments/{slug}/": {"preset", "settings"},
    "PATCH /api/tournaments/{slug}/": {"preset", "settings"},
    # a record is judged by the rules of the game (legal deals, levels, the match format)
    "POST /api/tournaments/{slug}/matches/{match_id}/result/": {"record"},
    "POST /api/tournaments/{slug}/matches/{match_id}/preview/": {"record"},
    "POST /api/tournaments/{slug}/matches/{match_id}/correct/": {"record"},
    # a stage's fields depend on its kind (rounds: Swiss only; qualifiers: a later stage;
    # a third-place match: knockouts) and its match format is the engine's
    "POST /api/tournaments/{slug}/stages/": {
        "num_rounds",
        "qualify_top",
        "third_place",
        "match_format",
        "sources",
        "entrants",
    },
    "PATCH /api/tournaments/{slug}/stages/{id}/": {
        "num_rounds",
        "qualify_top",
        "third_place",
        "match_format",
        "sources",
        "entrants",
    },
    # a ruling's step is one of the event's game's ladder, with the fields that step takes
    "POST /api/arbitration/tournaments/{slug}/incidents/{id}/rulings/": {
        "step",
        "team",
        "levels",
        "deal",
        "places",
        "opponent_up",
    },
    # an amended ruling names its new step (only with the choice "amend")
    "POST /api/arbitration/tournaments/{slug}/appeals/{id}/votes/": {"amended_step"},
    # an incident's team plays the match; its player, seat and deal are that team's; some
    # categories are the national rules' only
    "POST /api/arbitration/tournaments/{slug}/incidents/": {
        "team",
        "player",
        "seat",
        "deal",
        "category",
    },
    # the rules desk passes its request to the engine, which judges it
    "POST /api/arbitration/tournaments/{slug}/desk/": {"request"},
    # a table key's referee is one of that table's referees
    "POST /api/tournaments/{slug}/table-keys/": {"referee"},
    # a captain's role names a team, no other role does
    "POST /api/tournaments/{slug}/roles/": {"team"},
    # the file must be an .xlsx workbook with the team list's columns
    "POST /api/tournaments/{slug}/teams-import/": {"file"},
}

SENT: Counter = Counter()


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """One event for the whole module, in a transaction rolled back at its end: a round in
    play, a result awaiting confirmation and disputed, an incident, a ruling, an appeal, a
    stage with a section, a table key; one user holding every role, with an API token."""
    from django.core import signals
    from django.db import close_old_connections
    from django.test import override_settings

    from arbitration.services import appeals, incidents, rulings
    from tournaments.models import Match, Round, RoundSlot, TableKey, Team
    from tournaments.services import disputes, logins, result_entry, results

    # The WSGI handler closes the connection after each request (inside the transaction it
    # would kill it): do what Django's test client does.
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    fast = override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"])
    fast.enable()
    with django_db_blocker.unblock():
        outer = transaction.atomic()
        outer.__enter__()
        try:
            user = factories.event_creator(factories.user("schema-org"))
            factories.user(OTHER)
            event = factories.event(teams=4, slug=SLUG, creator=user)
            teams = list(Team.objects.filter(event=event).order_by("name"))
            stage = factories.stage(event, by=user)
            [section] = factories.sections(stage, "A", by=user)
            round_ = Round.objects.create(event=event, number=1, status="in_play")
            match = Match.objects.create(round=round_, table_number=1, home=teams[0], away=teams[1])
            RoundSlot.objects.create(round=round_, match=match, team=teams[0], side="EW")
            RoundSlot.objects.create(round=round_, match=match, team=teams[1], side="NS")
            for role in ("chief_referee", "committee"):
                factories.grant(user, event, role)
            factories.grant(user, event, "table_referee", tables=[1])
            factories.grant(user, event, "captain", team=teams[0])
            user = type(user).objects.get(pk=user.pk)  # its roles read afresh
            actor = results.Actor(user, None, "api", "")
            result_entry.submit(match, factories.guandan_record(), actor, 0)
            dispute = disputes.raise_dispute(match, 1, actor, "wrong deal")
            incident = incidents.log_incident(
                event, user, match=match, team=teams[0], category="other", description="late"
            )
            ruling = rulings.rule(incident, user, step="warning", reason="why")[0]
            appeal = appeals.file_appeal(ruling, user, "grounds")
            key = TableKey.objects.create(event=event, table_number=1, key=TABLE_KEY)
            role = event.roles.filter(user=user).order_by("pk").first()
            yield {
                "token": logins.issue_api_token(user),
                "path": {
                    "incidents": incident.pk,
                    "rulings": ruling.pk,
                    "appeals": appeal.pk,
                    "table-keys": key.pk,
                    "teams": teams[2].pk,
                    "roles": role.pk,
                    "stages": stage.pk,
                    "disputes": dispute.pk,
                    "section": section.pk,
                    "match_id": match.pk,
                },
                "body": {
                    "match": match.pk,
                    "team": teams[0].pk,
                    "team_a": teams[0].pk,
                    "team_b": teams[1].pk,
                    "player": teams[0].players.first().pk,
                    "incident": incident.pk,
                    "teams": [teams[2].pk],
                    "sources": [],
                    "username": OTHER,
                    "referee": user.username,
                },
            }
        finally:
            transaction.set_rollback(True)
            outer.__exit__(None, None, None)
            fast.disable()
            signals.request_started.connect(close_old_connections)
            signals.request_finished.connect(close_old_connections)
            print(f"\nschemathesis sweep: {dict(sorted(SENT.items()))}")


def realise(case, world) -> None:
    """The pinned path ids as the event's objects; a schema-valid body's ids as the event's."""
    path = dict(case.path_parameters or {})
    for name, value in path.items():
        if name == "id" and str(value) == str(PIN):
            owner = re.search(r"/([\w-]+)/\{id\}", case.operation.path).group(1)
            path[name] = world["path"][owner]
        elif name in world["path"] and str(value) == str(PIN):
            path[name] = world["path"][name]
    case.path_parameters = path
    positive = case.meta is not None and case.meta.generation.mode.is_positive
    if positive and isinstance(case.body, dict):
        for name, value in world["body"].items():
            if case.body.get(name) is not None:
                case.body[name] = value


def refused_unread(case) -> bool:
    """A schema-invalid body sent anonymously to a write that needs credentials: refused (401
    or 403) before the body is read, as the same write's schema-valid bodies show; the body's
    faults are the token run's to check. (Bounds the anonymous run: most coverage cases.)"""
    security = case.operation.definition.raw.get("security", [{}])
    return (
        case.method != "GET"
        and {} not in security
        and case.meta is not None
        and case.meta.generation.mode.is_negative
        and case.meta.phase.name.value == "coverage"
    )


def waived(failure, operation: str, response) -> bool:
    """A schema-valid request refused for a rule the schema cannot state (see above)."""
    if not isinstance(failure, RejectedPositiveData) or response.status_code != 400:
        return False
    field = (response.json().get("field") or "").split(".")[0]
    return field in RULES_BEYOND_THE_SCHEMA.get(operation, ())


@pytest.mark.django_db
@pytest.mark.parametrize("who", ["anonymous", "token"])
@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    phases=[Phase.explicit, Phase.generate],
    database=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_answers_as_its_schema_says(case, world, who):
    if who == "anonymous" and refused_unread(case):
        return
    headers = {}
    if who == "token":  # the token is the credential: no generated session cookie or key
        headers = {"Authorization": f"Token {world['token']}"}
        case.cookies = {k: v for k, v in (case.cookies or {}).items() if k != "sessionid"}
        case.headers = {
            k: v
            for k, v in (case.headers or {}).items()
            if k.lower() not in ("x-table-key", "authorization")
        }
    realise(case, world)
    operation = f"{case.method} {case.operation.path}"
    with transaction.atomic():
        try:
            response = case.call(headers=headers)
            SENT[f"{who} requests"] += 1
            SENT[f"{who} {response.status_code // 100}xx"] += 1
            try:
                case.validate_response(
                    response,
                    headers=headers,
                    transport_kwargs={"headers": headers, "app": application},
                )
            except FailureGroup as group:
                left = [f for f in group.exceptions if not waived(f, operation, response)]
                if left:
                    raise FailureGroup(left, str(group)) from None
        finally:
            transaction.set_rollback(True)
