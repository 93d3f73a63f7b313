"""`make run`'s database: every migration applies to a new SQLite file, and unapplies.

CI runs the suite on PostgreSQL, where a renamed column keeps its indexes; SQLite makes the
table again from the migration state, and the rename of Tournament to Event once stopped
there ("NewAuditLog has no field named 'tournament'") while every PostgreSQL test passed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def migrate(tmp_path, *args: str) -> subprocess.CompletedProcess:
    env = {
        **os.environ,
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite3'}",
        "MEDIA_ROOT": str(tmp_path / "media"),
    }
    return subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v0", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_every_migration_applies_and_unapplies_on_sqlite(tmp_path):
    forwards = migrate(tmp_path)
    assert forwards.returncode == 0, forwards.stderr[-3000:]
    back = migrate(tmp_path, "tournaments", "0023")  # before the Job and Event renames
    assert back.returncode == 0, back.stderr[-3000:]
    again = migrate(tmp_path)
    assert again.returncode == 0, again.stderr[-3000:]
