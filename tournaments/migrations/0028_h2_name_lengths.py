# Team names at most 60 characters, player names at most 40 (issue 39: a 160-character team
# name was accepted). A name already longer is shortened first, so that PostgreSQL can narrow
# the column: a team keeps its name unique in its event (a clash gets its number appended).

from django.db import migrations, models
from django.db.models.functions import Length

TEAM_MAX, PLAYER_MAX = 60, 40


def shorten(apps, schema_editor):
    Team = apps.get_model("tournaments", "Team")
    Player = apps.get_model("tournaments", "Player")
    for team in (
        Team.objects.annotate(n=Length("name")).filter(n__gt=TEAM_MAX).order_by("pk").iterator()
    ):
        name = team.name[:TEAM_MAX]
        taken = Team.objects.filter(event_id=team.event_id, name=name).exclude(pk=team.pk)
        if taken.exists():
            suffix = f" #{team.pk}"
            name = team.name[: TEAM_MAX - len(suffix)] + suffix
        Team.objects.filter(pk=team.pk).update(name=name)
    for player in Player.objects.annotate(n=Length("name")).filter(n__gt=PLAYER_MAX).iterator():
        Player.objects.filter(pk=player.pk).update(name=player.name[:PLAYER_MAX])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0026_role_invitation"),
    ]

    operations = [
        migrations.RunPython(shorten, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="player",
            name="name",
            field=models.CharField(max_length=PLAYER_MAX, verbose_name="name"),
        ),
        migrations.AlterField(
            model_name="team",
            name="name",
            field=models.CharField(max_length=TEAM_MAX, verbose_name="name"),
        ),
    ]
