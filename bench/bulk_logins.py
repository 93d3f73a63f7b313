"""Captain logins and table links for a large event, made by their jobs (issue 35).

    .venv/bin/python -m bench.bulk_logins [--teams 5000]

(Re)creates the PostgreSQL database ``paisai_bench_logins`` (env BENCH_DATABASE_URL, default
postgres://postgres@127.0.0.1:5432/paisai_bench_logins), migrates it, builds one Guandan event
of ``--teams`` teams of two players and a published round of ``--teams / 2`` tables, then runs,
the way a worker does (tasks.make_captain_logins and tasks.issue_table_links, each job in one
process): a captain login (account, role, one-time link) for every team, then a table link for
every table. Prints each job's wall time, the time per item, the progress the job reported on
the way, and the load average before and after (the machine is shared: run twice). Checks the
database afterwards: one captain and one live link per team, one live key per table, one audit
entry per role granted.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DB_URL = os.environ.get(
    "BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/paisai_bench_logins"
)


def recreate_database() -> None:
    name = DB_URL.rsplit("/", 1)[1]
    admin = DB_URL.rsplit("/", 1)[0] + "/postgres"
    for sql in (f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", admin, "-q", "-c", sql], check=True)


def setup_django() -> None:
    os.environ["DATABASE_URL"] = DB_URL
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("PAISAI_DEV", "1")
    os.environ.setdefault("LOG_LEVEL", "ERROR")
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0, interactive=False)


def build(teams: int):
    from django.contrib.auth import get_user_model

    from tournaments.models import Event, EventRole, Match, Player, Role, Round, Team

    event = Event.objects.create(
        name="2026 苏州掼蛋公开赛",
        slug="bulk",
        game="guandan",
        preset="guandan-suzhou-2016",
        num_rounds=7,
    )
    organiser = get_user_model().objects.create_user("organiser", password="x")
    EventRole.objects.create(user=organiser, event=event, role=Role.ORGANISER)
    made = Team.objects.bulk_create(
        Team(event=event, name=f"龙城掼蛋第{n}队", seed=n) for n in range(1, teams + 1)
    )
    Player.objects.bulk_create(
        Player(team=team, name=f"{surname}{team.seed}", seat_order=order)
        for team in made
        for order, surname in enumerate(("张", "王"), start=1)
    )
    round_ = Round.objects.create(event=event, number=1, status=Round.Status.IN_PLAY)
    Match.objects.bulk_create(
        Match(round=round_, table_number=t + 1, home=made[2 * t], away=made[2 * t + 1])
        for t in range(teams // 2)
    )
    return event, organiser, [t.pk for t in made]


def watch(job_id: int, seen: list) -> threading.Event:
    """Reads the job's progress every 0.5 s from another connection (what its page shows)."""
    stop = threading.Event()

    def run():
        from django.db import connection

        from tournaments.models import Job

        while not stop.wait(0.5):
            row = Job.objects.filter(pk=job_id).values_list("progress", "total").first()
            if row and (not seen or seen[-1] != row):
                seen.append(row)
        connection.close()

    threading.Thread(target=run, daemon=True).start()
    return stop


def run_job(job) -> tuple[float, list]:
    from tournaments import tasks
    from tournaments.models import Job

    seen: list = []
    stop = watch(job.pk, seen)
    started = time.perf_counter()
    tasks.first_task(job).run(Job.objects.get(pk=job.pk))
    wall = time.perf_counter() - started
    stop.set()
    job.refresh_from_db()
    assert job.status == Job.Status.DONE, (job.status, job.error)
    return wall, seen


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--teams", type=int, default=5000)
    args = parser.parse_args()
    recreate_database()
    setup_django()
    from tournaments.models import AuditLog, EventRole, LoginLink, Role, TableKey
    from tournaments.services import accounts, table_keys

    print(f"bulk_logins: {args.teams} teams, {args.teams // 2} tables, {os.cpu_count()} CPUs")
    started = time.perf_counter()
    event, organiser, team_ids = build(args.teams)
    print(f"event built in {time.perf_counter() - started:.1f} s")

    load = os.getloadavg()[0]
    job = accounts.create_captain_job(event, organiser, team_ids, "bench")
    wall, seen = run_job(job)
    print(
        f"captain logins job: {args.teams} teams in {wall:.1f} s = {1000 * wall / args.teams:.2f}"
        f" ms a team; progress seen {len(seen)} times (last {seen[-1] if seen else None}); "
        f"load average before {load:.2f}, after {os.getloadavg()[0]:.2f}"
    )
    load = os.getloadavg()[0]
    job = table_keys.create_links_job(event, organiser, "bench")
    tables = args.teams // 2
    wall, seen = run_job(job)
    print(
        f"table links job: {tables} tables in {wall:.1f} s = {1000 * wall / tables:.2f} ms a "
        f"table; progress seen {len(seen)} times (last {seen[-1] if seen else None}); "
        f"load average before {load:.2f}, after {os.getloadavg()[0]:.2f}"
    )
    captains = EventRole.objects.filter(event=event, role=Role.CAPTAIN).count()
    links = LoginLink.objects.filter(event=event, used_at__isnull=True).count()
    keys = TableKey.objects.filter(event=event, revoked_at__isnull=True).count()
    grants = AuditLog.objects.filter(event=event, action="role.grant").count()
    print(
        f"database: captains {captains}, live links {links}, live table keys {keys}, "
        f"role grants logged {grants}"
    )
    assert captains == links == grants == args.teams and keys == tables


if __name__ == "__main__":
    main()
