"""Tournament becomes Event, TournamentRole EventRole, and every ``tournament`` foreign key
``event`` (issue 29, Names): renames only, the rows stay (tournaments_tournament →
tournaments_event, tournament_id → event_id). Permissions keep their grants and the audit
log its target types; audit action codes (tournament.create …) are stored words and stay."""

from django.db import migrations, models

# (old model name, its words) → (new model name, its words)
RENAMED = [
    (("tournament", "tournament"), ("event", "event")),
    (("tournamentrole", "tournament role"), ("eventrole", "event role")),
]

WITH_EVENT = [
    "auditlog",
    "eventrevision",
    "eventrole",
    "job",
    "loginlink",
    "lotdraw",
    "rankingadjustment",
    "refereecall",
    "round",
    "stage",
    "tableassignment",
    "tablekey",
    "team",
    "unit",
]


def _rename(apps, pairs):
    """Keep what names the models in rows: their permissions (codename and name: a user's or
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


# The constraints and indexes that name a renamed field. PostgreSQL renames a column in
# place and they follow it by themselves: only the migration state names their fields again.
# SQLite renames a column by making the table again from the migration state, and Django
# does not carry a field's new name into the state's indexes and constraints (it stopped
# `make run` on SQLite: "NewAuditLog has no field named 'tournament'"); there they are
# dropped before the renames and made again after.
NAMING_THE_FIELD = [
    migrations.RemoveConstraint(
        model_name="eventrevision",
        name="event_revision_one_row_a_shard",
    ),
    migrations.RemoveConstraint(
        model_name="eventrole",
        name="role_unique",
    ),
    migrations.RemoveConstraint(
        model_name="round",
        name="round_unique_number",
    ),
    migrations.RemoveConstraint(
        model_name="stage",
        name="stage_unique_order",
    ),
    migrations.RemoveConstraint(
        model_name="stage",
        name="stage_unique_name",
    ),
    migrations.RemoveConstraint(
        model_name="tableassignment",
        name="table_assignment_unique",
    ),
    migrations.RemoveConstraint(
        model_name="tablekey",
        name="table_key_one_live_per_table",
    ),
    migrations.RemoveConstraint(
        model_name="team",
        name="team_unique_name",
    ),
    migrations.RemoveConstraint(
        model_name="team",
        name="team_unique_seed",
    ),
    migrations.RemoveConstraint(
        model_name="unit",
        name="unit_unique_name",
    ),
    migrations.AddConstraint(
        model_name="eventrevision",
        constraint=models.UniqueConstraint(
            fields=("event", "shard"), name="event_revision_one_row_a_shard"
        ),
    ),
    migrations.AddConstraint(
        model_name="eventrole",
        constraint=models.UniqueConstraint(fields=("user", "event", "role"), name="role_unique"),
    ),
    migrations.AddConstraint(
        model_name="round",
        constraint=models.UniqueConstraint(fields=("event", "number"), name="round_unique_number"),
    ),
    migrations.AddConstraint(
        model_name="stage",
        constraint=models.UniqueConstraint(fields=("event", "order"), name="stage_unique_order"),
    ),
    migrations.AddConstraint(
        model_name="stage",
        constraint=models.UniqueConstraint(fields=("event", "name"), name="stage_unique_name"),
    ),
    migrations.AddConstraint(
        model_name="tableassignment",
        constraint=models.UniqueConstraint(
            fields=("event", "user", "table_number"), name="table_assignment_unique"
        ),
    ),
    migrations.AddConstraint(
        model_name="tablekey",
        constraint=models.UniqueConstraint(
            condition=models.Q(("revoked_at__isnull", True)),
            fields=("event", "table_number"),
            name="table_key_one_live_per_table",
        ),
    ),
    migrations.AddConstraint(
        model_name="team",
        constraint=models.UniqueConstraint(fields=("event", "name"), name="team_unique_name"),
    ),
    migrations.AddConstraint(
        model_name="team",
        constraint=models.UniqueConstraint(
            condition=models.Q(("seed__isnull", False)),
            fields=("event", "seed"),
            name="team_unique_seed",
        ),
    ),
    migrations.AddConstraint(
        model_name="unit",
        constraint=models.UniqueConstraint(fields=("event", "name"), name="unit_unique_name"),
    ),
    migrations.RemoveIndex(
        model_name="loginlink",
        name="login_link_team",
    ),
    migrations.AddIndex(
        model_name="loginlink",
        index=models.Index(fields=["event", "team"], name="login_link_team"),
    ),
    migrations.RemoveIndex(model_name="auditlog", name="tournaments_tournam_34ae88_idx"),
    migrations.AddIndex(
        model_name="auditlog",
        index=models.Index(fields=["event", "action"], name="tournaments_tournam_34ae88_idx"),
    ),
    migrations.RemoveIndex(model_name="auditlog", name="tournaments_tournam_1fc776_idx"),
    migrations.AddIndex(
        model_name="auditlog",
        index=models.Index(fields=["event", "team"], name="tournaments_tournam_1fc776_idx"),
    ),
    migrations.RemoveIndex(model_name="auditlog", name="tournaments_tournam_8d4649_idx"),
    migrations.AddIndex(
        model_name="auditlog",
        index=models.Index(fields=["event", "other_team"], name="tournaments_tournam_8d4649_idx"),
    ),
    migrations.RemoveIndex(model_name="auditlog", name="tournaments_tournam_db141f_idx"),
    migrations.AddIndex(
        model_name="auditlog",
        index=models.Index(fields=["event", "table_number"], name="tournaments_tournam_db141f_idx"),
    ),
]


class SqliteRemakes(migrations.SeparateDatabaseAndState):
    """These operations on the migration state everywhere, and on the database on SQLite."""

    def __init__(self, operations):
        super().__init__(database_operations=operations, state_operations=operations)

    def database_forwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "sqlite":
            super().database_forwards(app_label, schema_editor, from_state, to_state)

    def database_backwards(self, app_label, schema_editor, from_state, to_state):
        if schema_editor.connection.vendor == "sqlite":
            super().database_backwards(app_label, schema_editor, from_state, to_state)


class Migration(migrations.Migration):
    # arbitration's rows point at Tournament: its migrations come first, so that the renames
    # below reach their foreign keys too
    dependencies = [
        ("arbitration", "0004_suzhou_in_play_ladder"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
        ("tournaments", "0024_job"),
    ]

    operations = [
        migrations.RenameModel(old_name="Tournament", new_name="Event"),
        migrations.RenameModel(old_name="TournamentRole", new_name="EventRole"),
        migrations.AlterModelOptions(
            name="event",
            options={
                "ordering": ["-created_at", "name"],
                "verbose_name": "event",
                "verbose_name_plural": "events",
            },
        ),
        migrations.AlterModelOptions(
            name="eventrole",
            options={"verbose_name": "event role", "verbose_name_plural": "event roles"},
        ),
        migrations.AlterModelOptions(
            name="loginlink",
            options={
                "ordering": ["event", "-created_at"],
                "verbose_name": "one-time login link",
                "verbose_name_plural": "one-time login links",
            },
        ),
        migrations.AlterModelOptions(
            name="lotdraw",
            options={
                "ordering": ["event", "drawn_at", "pk"],
                "verbose_name": "draw of lots",
                "verbose_name_plural": "draws of lots",
            },
        ),
        migrations.AlterModelOptions(
            name="round",
            options={
                "ordering": ["event", "number"],
                "verbose_name": "round",
                "verbose_name_plural": "rounds",
            },
        ),
        migrations.AlterModelOptions(
            name="stage",
            options={
                "ordering": ["event", "order"],
                "verbose_name": "stage",
                "verbose_name_plural": "stages",
            },
        ),
        migrations.AlterModelOptions(
            name="tablekey",
            options={
                "ordering": ["event", "table_number", "-created_at"],
                "verbose_name": "table key",
                "verbose_name_plural": "table keys",
            },
        ),
        # Named after their fields, the constraints and indexes leave the state before the
        # renames and come back naming ``event`` after them (on SQLite in the database too).
        SqliteRemakes(
            [op for op in NAMING_THE_FIELD if op.__class__.__name__.startswith("Remove")]
        ),
        *(
            migrations.RenameField(model_name=model, old_name="tournament", new_name="event")
            for model in WITH_EVENT
        ),
        SqliteRemakes([op for op in NAMING_THE_FIELD if op.__class__.__name__.startswith("Add")]),
        # The audit log's indexes were named after their fields: renamed, not rebuilt.
        migrations.RenameIndex(
            model_name="auditlog",
            new_name="tournaments_event_i_a85b77_idx",
            old_name="tournaments_tournam_34ae88_idx",
        ),
        migrations.RenameIndex(
            model_name="auditlog",
            new_name="tournaments_event_i_90154a_idx",
            old_name="tournaments_tournam_1fc776_idx",
        ),
        migrations.RenameIndex(
            model_name="auditlog",
            new_name="tournaments_event_i_c963dc_idx",
            old_name="tournaments_tournam_8d4649_idx",
        ),
        migrations.RenameIndex(
            model_name="auditlog",
            new_name="tournaments_event_i_57b637_idx",
            old_name="tournaments_tournam_db141f_idx",
        ),
        migrations.RunPython(forwards, backwards),
    ]
