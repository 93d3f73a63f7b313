"""Issue 39: migration 0028_h2 narrows team names to 60 characters and player names to 40;
names already longer are shortened first (PostgreSQL refuses to narrow a column holding
them), a team name staying unique in its event."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.loader import MigrationLoader

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True)]

BEFORE = [("tournaments", "0026_role_invitation")]


def test_longer_names_are_shortened_and_stay_unique():
    call_command("migrate", "tournaments", BEFORE[0][1], verbosity=0)
    try:
        old = MigrationLoader(connection).project_state(BEFORE).apps
        Event = old.get_model("tournaments", "Event")  # noqa: N806
        Team = old.get_model("tournaments", "Team")  # noqa: N806
        Player = old.get_model("tournaments", "Player")  # noqa: N806
        event = Event.objects.create(
            name="杯", slug="cup", game="guandan", preset="guandan-suzhou-2016"
        )
        long_a = Team.objects.create(event=event, name="队" * 60 + "甲" * 100)
        long_b = Team.objects.create(event=event, name="队" * 60 + "乙" * 100)
        short = Team.objects.create(event=event, name="短队")
        Player.objects.create(team=long_a, name="名" * 80, seat_order=1)
    finally:
        call_command("migrate", verbosity=0)

    from tournaments.models import Player as NewPlayer
    from tournaments.models import Team as NewTeam

    names = {team.pk: team.name for team in NewTeam.objects.all()}
    assert names[short.pk] == "短队"
    assert names[long_a.pk] == "队" * 60
    assert len(names[long_b.pk]) == 60 and names[long_b.pk].endswith(f" #{long_b.pk}")
    assert NewPlayer.objects.get().name == "名" * 40
