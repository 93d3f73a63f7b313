"""The arbitration rows' ``tournament`` foreign key becomes ``event`` (issue 29, Names): a
rename, the rows stay (tournament_id → event_id)."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("arbitration", "0004_suzhou_in_play_ladder"),
        ("tournaments", "0025_event"),
    ]

    operations = [
        migrations.RenameField(model_name=model, old_name="tournament", new_name="event")
        for model in ("appeal", "incident", "ruling")
    ]
