# The event revision moves from one column of the event to REVISION_SHARDS counters whose sum
# is the revision (tournaments.models.events.EventRevision). Each event's revision so far
# becomes its shard 0, so the sum starts where the column stood: every answer cached under
# the old revision keeps its key, and the revision never moves backwards.

import django.db.models.deletion
from django.db import migrations, models


def counters_from_columns(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    EventRevision = apps.get_model("tournaments", "EventRevision")
    EventRevision.objects.bulk_create(
        EventRevision(tournament_id=pk, shard=0, bumps=revision, at=revised_at)
        for pk, revision, revised_at in Tournament.objects.values_list(
            "pk", "revision", "revised_at"
        )
    )


def columns_from_counters(apps, schema_editor):
    Tournament = apps.get_model("tournaments", "Tournament")
    EventRevision = apps.get_model("tournaments", "EventRevision")
    for tournament in Tournament.objects.all():
        found = EventRevision.objects.filter(tournament_id=tournament.pk).aggregate(
            total=models.Sum("bumps"), latest=models.Max("at")
        )
        tournament.revision = (found["total"] or 0) + 1  # never below what a cache holds
        tournament.revised_at = found["latest"]
        tournament.save(update_fields=["revision", "revised_at"])


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0019_referee_calls"),
    ]

    operations = [
        migrations.CreateModel(
            name="EventRevision",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("shard", models.PositiveSmallIntegerField()),
                ("bumps", models.PositiveBigIntegerField(default=0)),
                ("at", models.DateTimeField(null=True)),
                ("tournament", models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name="+", to="tournaments.tournament")),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("tournament", "shard"), name="event_revision_one_row_a_shard")],
            },
        ),
        migrations.RunPython(counters_from_columns, columns_from_counters),
        migrations.RemoveField(model_name="tournament", name="revised_at"),
        migrations.RemoveField(model_name="tournament", name="revision"),
    ]
