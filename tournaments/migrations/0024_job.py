"""ExportJob becomes Job: the same table's rows run imports as well as exports (issue 29)."""

import django.db.models.deletion
from django.db import migrations, models

# (old model name, its words) → (new model name, its words)
RENAMED = [(("exportjob", "export job"), ("job", "job"))]


def _rename(apps, pairs):
    """Keep what names the model in rows: its permissions (codename and name: a user's or
    group's grants stay theirs) and the audit log's target types."""
    Permission = apps.get_model("auth", "Permission")
    AuditLog = apps.get_model("tournaments", "AuditLog")
    for (old, _old_words), (new, new_words) in pairs:
        for action in ("add", "change", "delete", "view"):
            Permission.objects.filter(
                content_type__app_label="tournaments", codename=f"{action}_{old}"
            ).update(codename=f"{action}_{new}", name=f"Can {action} {new_words}")
        AuditLog.objects.filter(target_type=f"tournaments.{old}").update(
            target_type=f"tournaments.{new}"
        )


def forwards(apps, schema_editor):
    _rename(apps, RENAMED)


def backwards(apps, schema_editor):
    _rename(apps, [(new, old) for old, new in RENAMED])


class Migration(migrations.Migration):
    dependencies = [
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
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
        migrations.RunPython(forwards, backwards),
    ]
