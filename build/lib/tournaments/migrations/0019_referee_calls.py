# Calls to the chief referee raised from a table page (issue 15: the operations board's queue).

import django.db.models.deletion
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0018_player_ident"),
    ]

    operations = [
        migrations.CreateModel(
            name="RefereeCall",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("table_number", models.PositiveIntegerField(verbose_name="table")),
                ("note", models.CharField(blank=True, max_length=300, verbose_name="note")),
                (
                    "raised_by_name",
                    models.CharField(blank=True, max_length=150, verbose_name="called by"),
                ),
                (
                    "raised_via",
                    models.CharField(
                        choices=[
                            ("referee", "by the table referee"),
                            ("table_key", "by the table's device"),
                        ],
                        max_length=10,
                        verbose_name="called",
                    ),
                ),
                ("created_at", models.DateTimeField(auto_now_add=True, verbose_name="called at")),
                (
                    "answered_at",
                    models.DateTimeField(blank=True, null=True, verbose_name="answered at"),
                ),
                (
                    "answered_by_name",
                    models.CharField(blank=True, max_length=150, verbose_name="answered by"),
                ),
                (
                    "round",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="calls",
                        to="tournaments.round",
                    ),
                ),
                (
                    "tournament",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="calls",
                        to="tournaments.tournament",
                    ),
                ),
            ],
            options={
                "verbose_name": "call to the chief referee",
                "verbose_name_plural": "calls to the chief referee",
                "ordering": ["created_at", "pk"],
                "constraints": [
                    models.UniqueConstraint(
                        condition=models.Q(("answered_at__isnull", True)),
                        fields=("round", "table_number"),
                        name="call_one_open_per_table_and_round",
                    )
                ],
            },
        ),
    ]
