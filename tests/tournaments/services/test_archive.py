"""The event archive: export → empty database → import → export gives the same JSON."""

from __future__ import annotations

import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from tests import factories
from tournaments.errors import ExportError
from tournaments.exporters.archive import ArchiveJson, dumps, export_archive
from tournaments.models import AuditLog, Event, RankingAdjustment, ResultVersion
from tournaments.services.archive import V1_EVENT, V1_MODELS, import_archive
from tournaments.services.audit import log_action

pytestmark = pytest.mark.django_db


@pytest.fixture
def full_event(chinese_event, make_user, grant):
    organiser = grant(make_user("organiser1", first_name="王"), chinese_event, "organiser")
    captain = make_user("captain1")
    grant(captain, chinese_event, "captain", team=chinese_event.teams_in_order[0])
    grant(make_user("ref1"), chinese_event, "table_referee", tables=(1, 2))
    RankingAdjustment.objects.create(
        event=chinese_event,
        team=chinese_event.teams_in_order[3],
        places=1,
        reason="场外提示",
        created_by=organiser,
    )
    version = ResultVersion.objects.filter(match__round__event=chinese_event).first()
    log_action(
        chinese_event, organiser, "result.correction", version, data={"why": "笔误"}, reason="笔误"
    )
    return chinese_event


def _empty_database():
    from django.db import connection

    if connection.vendor == "postgresql":  # fire deferred FK checks: TRUNCATE refuses them
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)


def test_archive_round_trip_gives_identical_json(full_event):
    before = dumps(export_archive(full_event))
    _empty_database()
    assert not Event.objects.exists()
    imported = import_archive(json.loads(before))
    assert imported.slug == "suzhou-open"
    assert dumps(export_archive(imported)) == before


def as_version_1(data: dict) -> dict:
    """The archive as version 1 wrote it, before the event's model was renamed (issue 29)."""
    models = {new: old for old, new in V1_MODELS.items()}
    old = V1_EVENT
    objects = [
        {
            **obj,
            "model": models.get(obj["model"], obj["model"]),
            "fields": {(old if k == "event" else k): v for k, v in obj["fields"].items()},
        }
        for obj in data["objects"]
    ]
    rest = {key: value for key, value in data.items() if key not in ("event", "objects")}
    return {**rest, "version": 1, old: data["event"], "objects": objects}


def test_an_archive_written_before_the_event_was_named_event_still_loads(full_event):
    data = export_archive(full_event)
    assert data["version"] == 2
    old = json.loads(dumps(as_version_1(data)))
    assert {"tournaments.eventrole", "tournaments.event"} & {o["model"] for o in data["objects"]}
    assert not {"tournaments.eventrole", "tournaments.event"} & {o["model"] for o in old["objects"]}
    _empty_database()
    imported = import_archive(old)
    assert dumps(export_archive(imported)) == dumps(data)


def test_archive_holds_every_part_of_the_event(full_event):
    data = export_archive(full_event)
    models = {obj["model"] for obj in data["objects"]}
    for label in (
        "tournaments.event",
        "tournaments.unit",
        "tournaments.team",
        "tournaments.player",
        "tournaments.round",
        "tournaments.match",
        "tournaments.roundslot",
        "tournaments.resultversion",
        "tournaments.auditlog",
        "tournaments.rankingadjustment",
        "tournaments.eventrole",
        "tournaments.tableassignment",
    ):
        assert label in models, label
    assert "tournaments.job" not in models
    made = {factories.organiser_of(full_event).username, factories.chief_of(full_event).username}
    assert {user["username"] for user in data["users"]} == {"organiser1", "captain1", "ref1"} | made
    assert all("password" not in user for user in data["users"])


def test_imported_users_cannot_log_in_until_given_a_password(full_event):
    text = dumps(export_archive(full_event))
    _empty_database()
    import_archive(json.loads(text))
    from django.contrib.auth import get_user_model

    user = get_user_model().objects.get(username="organiser1")
    assert not user.has_usable_password() and user.first_name == "王"
    assert AuditLog.objects.get(action="result.correction").actor == user


def test_import_refuses_an_event_already_in_the_database(full_event):
    data = export_archive(full_event)
    with pytest.raises(ExportError, match="suzhou-open"):
        import_archive(data)


def test_import_refuses_to_overwrite_records_with_the_same_ids(full_event, make_event):
    data = export_archive(full_event)
    data["event"] = "another-slug"
    with pytest.raises(ExportError) as caught:
        import_archive(data)
    assert caught.value.field == "objects"


@pytest.mark.parametrize(
    "data, field",
    [
        ([], "format"),
        ({"format": "paisai-archive", "version": 99}, "version"),
        ({"format": "paisai-archive", "version": 1, "objects": "x", "users": []}, "objects"),
    ],
)
def test_import_names_what_is_wrong_with_a_bad_archive(db, data, field):
    with pytest.raises(ExportError) as caught:
        import_archive(data)
    assert caught.value.field == field


def test_archive_exporter_renders_utf8_json(full_event):
    export = ArchiveJson(full_event).render()
    assert export.filename == "suzhou-open-archive.json"
    assert "龙城队" in export.data.decode("utf-8")


def test_archive_commands_round_trip(full_event, tmp_path):
    path = tmp_path / "event.json"
    call_command("export_archive", "suzhou-open", output=str(path))
    before = path.read_text(encoding="utf-8")
    _empty_database()
    call_command("import_archive", str(path))
    call_command("export_archive", "suzhou-open", output=str(path))
    assert path.read_text(encoding="utf-8") == before


def test_import_command_reports_bad_files_without_traceback(db, tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError, match="not JSON"):
        call_command("import_archive", str(bad))
    with pytest.raises(CommandError, match="cannot read"):
        call_command("import_archive", str(tmp_path / "missing.json"))
    with pytest.raises(CommandError, match="no event"):
        call_command("export_archive", "nope")


def test_archive_holds_no_table_keys_and_import_issues_new_ones(full_event):
    from django.contrib.auth import get_user_model

    from tournaments.models import TableKey
    from tournaments.services import table_keys

    organiser = get_user_model().objects.get(username="organiser1")
    issued = table_keys.issue(full_event, 1, organiser)
    text = dumps(export_archive(full_event))
    assert issued.key not in text
    tablekeys = [o for o in json.loads(text)["objects"] if o["model"] == "tournaments.tablekey"]
    assert tablekeys and all("key" not in o["fields"] for o in tablekeys)
    _empty_database()
    import_archive(json.loads(text))
    restored = TableKey.objects.get(table_number=1)
    assert restored.key and restored.key != issued.key and restored.is_live
    assert dumps(export_archive(Event.objects.get())) == text
