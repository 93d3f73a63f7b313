"""The event archive carries the arbitration record too: incidents, rulings, appeals and votes
survive export → empty database → import → export unchanged."""

import json

import pytest
from django.core.management import call_command

from arbitration.models import Appeal, Incident, Ruling, Vote
from arbitration.services import appeals
from arbitration.services.incidents import log_incident
from arbitration.services.rulings import rule
from tests.factories import enter_result
from tournaments.exporters.archive import dumps, export_archive
from tournaments.services.archive import import_archive


@pytest.mark.django_db
def test_archive_round_trip_keeps_incidents_rulings_appeals_and_votes(arb):
    enter_result(arb)
    case = log_incident(
        arb.event,
        arb.referee,
        category="signalling",
        description="暗号",
        match=arb.match,
        team=arb.teams[0],
    )
    ruling = rule(case, arb.chief, step="level_deduction", reason="看到暗号")[0]
    appeal = appeals.file_appeal(ruling, arb.captain, "只是咳嗽")
    appeals.vote(appeal, arb.committee[0], "overturn", "证据不足")
    before = dumps(export_archive(arb.event))
    labels = {obj["model"] for obj in json.loads(before)["objects"]}
    assert {
        "arbitration.incident",
        "arbitration.ruling",
        "arbitration.appeal",
        "arbitration.vote",
    } <= labels

    from django.db import connection

    if connection.vendor == "postgresql":  # fire deferred FK checks: TRUNCATE refuses them
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)
    assert not Incident.objects.exists()
    imported = import_archive(json.loads(before))
    assert dumps(export_archive(imported)) == before
    assert Ruling.objects.get().reason == "看到暗号"
    assert Appeal.objects.get().grounds == "只是咳嗽" and Vote.objects.count() == 1
