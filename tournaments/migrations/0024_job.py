"""ExportJob becomes Job: the same table's rows run imports as well as exports (issue 29)."""

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0023_roundslot_side_words"),
    ]

    operations = [
        migrations.RenameModel(old_name="ExportJob", new_name="Job"),
        migrations.AlterModelOptions(
            name="job",
            options={
                "ordering": ["-created_at"],
                "verbose_name": "job",
                "verbose_name_plural": "jobs",
            },
        ),
        migrations.AlterField(
            model_name="job",
            name="tournament",
            field=models.ForeignKey(
                on_delete=django.db.models.deletion.CASCADE,
                related_name="jobs",
                to="tournaments.tournament",
            ),
        ),
    ]
