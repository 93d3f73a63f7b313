"""The renames of issue 29 (Names) keep the data: the job, event and event role models and
every foreign key to the event got new names (migrations 0024, 0025). An event written before
the migrations is the same event after them, its rows still point at it, a user's right to
create events stays theirs and the audit log's target types follow the models."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BEFORE = [
    ("arbitration", "0004_suzhou_in_play_ladder"),
    ("tournaments", "0023_roundslot_side_words"),
]

OLD_NAMES = ("Tournament", "TournamentRole", "ExportJob")  # rename_event: keep


def migrate_to(targets) -> None:
    for app, name in targets:
        call_command("migrate", app, name, verbosity=0)


def state_apps(targets):
    return MigrationLoader(connection).project_state(targets).apps


def test_the_renames_keep_every_row_and_right(django_user_model):
    migrate_to(BEFORE)
    try:
        old = state_apps(BEFORE)
        Event = old.get_model("tournaments", OLD_NAMES[0])  # noqa: N806
        Role = old.get_model("tournaments", OLD_NAMES[1])  # noqa: N806
        Job = old.get_model("tournaments", OLD_NAMES[2])  # noqa: N806
        Team = old.get_model("tournaments", "Team")  # noqa: N806
        AuditLog = old.get_model("tournaments", "AuditLog")  # noqa: N806
        Incident = old.get_model("arbitration", "Incident")  # noqa: N806
        Permission = old.get_model("auth", "Permission")  # noqa: N806
        User = old.get_model("auth", "User")  # noqa: N806
        link = OLD_NAMES[0].lower()  # the foreign keys' old name
        creator = User.objects.create(username="creator")
        right = Permission.objects.get(
            content_type__app_label="tournaments", codename=f"add_{link}"
        )
        creator.user_permissions.add(right)
        event = Event.objects.create(
            name="苏州公开赛", slug="suzhou", game="guandan", preset="guandan-suzhou-2016"
        )
        team = Team.objects.create(**{link: event}, name="龙城队")
        Role.objects.create(**{link: event}, user=creator, role="organiser")
        Job.objects.create(**{link: event}, kind="scoresheets")
        AuditLog.objects.create(
            **{link: event}, action=f"{link}.create", target_type=f"tournaments.{link}"
        )
        Incident.objects.create(**{link: event}, team=team, category="slow_play")
    finally:
        call_command("migrate", verbosity=0)

    from tournaments.models import AuditLog as NewAuditLog
    from tournaments.models import Event as NewEvent
    from tournaments.models import EventRole, Job

    event = NewEvent.objects.get(slug="suzhou")
    assert event.name == "苏州公开赛" and event.teams.get().name == "龙城队"
    assert EventRole.objects.get(event=event).user.username == "creator"
    assert Job.objects.get(event=event).kind == "scoresheets"
    assert event.incidents.get().team.name == "龙城队"
    entry = NewAuditLog.objects.get(event=event)
    assert entry.target_type == "tournaments.event" and entry.action == f"{link}.create"
    creator = django_user_model.objects.get(username="creator")
    assert creator.has_perm("tournaments.add_event")
