"""Profile of the results write path: a confirmed submission, a preview and the bare floor,
in one process through Django's full request stack (middleware, DRF, the service), on
PostgreSQL with the bench's settings.

Prints the CPU milliseconds per request of each (process time, so other load on the machine
matters less than for wall time) and cProfile's top entries for the confirmed submission and
the preview. Run: ``.venv/bin/python -m bench.results_profile`` (BENCH_DATABASE_URL as
results_load; the database ``<name>_profile`` is recreated).
"""

from __future__ import annotations

import cProfile
import io
import json
import os
import pstats
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import results_load as rl  # noqa: E402

DB_URL = rl.DB_URL + "_profile"
TABLES, N, BLOCKS = 2400, 600, 12


def env() -> dict:
    return rl.server_env() | {"DATABASE_URL": DB_URL, "ALLOWED_HOSTS": "testserver"}


def main() -> None:
    name, admin = DB_URL.rsplit("/", 1)[1], DB_URL.rsplit("/", 1)[0] + "/postgres"
    for sql in (f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", admin, "-q", "-c", sql], check=True)
    subprocess.run(
        [rl.PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=env(), check=True
    )
    subprocess.run([rl.PY, __file__, "run"], cwd=ROOT, env=env(), check=True)


def run() -> None:
    rl.django_setup()
    from django.contrib.auth import get_user_model
    from django.test import Client

    from tournaments.models import Event, EventRole, Match, Round, Team

    event = Event.objects.create(
        name="p", slug="profile", game="guandan", preset="guandan-suzhou-2016"
    )
    teams = Team.objects.bulk_create(Team(event=event, name=f"T{i}") for i in range(2 * TABLES))
    rnd = Round.objects.create(event=event, number=1, status="in_play")
    matches = Match.objects.bulk_create(
        Match(round=rnd, table_number=t + 1, home=teams[2 * t], away=teams[2 * t + 1])
        for t in range(TABLES)
    )
    chief = get_user_model().objects.create_user("chief", password="x")
    EventRole.objects.create(user=chief, event=event, role="chief_referee")
    client = Client()
    client.force_login(chief)
    rng = random.Random(6)
    bodies = [
        json.dumps({"record": rl.legal_record(rng), "base_version": 0, "confirm": True})
        for _ in range(TABLES)
    ]
    ids = iter(range(TABLES))

    def submit():
        i = next(ids)
        path = f"/api/tournaments/profile/matches/{matches[i].pk}/result/"
        response = client.post(path, bodies[i], content_type="application/json")
        assert response.status_code == 201, response.content[:200]

    def preview():
        i = rng.randrange(TABLES)
        path = f"/api/tournaments/profile/matches/{matches[i].pk}/preview/"
        response = client.post(path, bodies[i], content_type="application/json")
        assert response.status_code == 200, response.content[:200]

    floor_ids = iter(range(TABLES))

    def floor():
        i = next(floor_ids)
        response = client.post(
            f"/bench/floor/{matches[i].pk}/", bodies[i], content_type="application/json"
        )
        assert response.status_code == 201, response.content[:200]

    for _ in range(50):  # warm every lazy path
        submit(), preview(), floor()
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for label, call in (
        ("confirmed submission", submit),
        ("preview", preview),
        ("floor (bare DRF write)", floor),
    ):
        with CaptureQueriesContext(connection) as queries:
            call()
        print(f"--- {label}: {len(queries)} queries")
        for query in queries:
            print("   ", query["sql"][:160])
    # Interleaved blocks, the median block per kind: the machine is shared, and a burst of
    # other work then skews one block of each kind rather than one kind's whole figure.
    calls = {"confirmed submission": submit, "preview": preview, "floor (bare DRF write)": floor}
    blocks: dict[str, list[float]] = {label: [] for label in calls}
    for _ in range(BLOCKS):
        for label, call in calls.items():
            t0 = time.process_time()
            for _ in range(N // BLOCKS):
                call()
            blocks[label].append((time.process_time() - t0) / (N // BLOCKS) * 1000)
    cpu = {label: statistics.median(values) for label, values in blocks.items()}
    print(
        f"CPU per request in one process ({N} each in {BLOCKS} interleaved blocks, the median "
        f"block; load average {os.getloadavg()[0]:.2f}):"
    )
    for label, ms in cpu.items():
        low, high = min(blocks[label]), max(blocks[label])
        print(f"  {label:<24} {ms:6.2f} ms   (blocks {low:.2f}–{high:.2f})")
    print(
        f"  ratio confirmed/floor {cpu['confirmed submission'] / cpu['floor (bare DRF write)']:.2f}"
    )
    for label, call in (("confirmed submission", submit), ("preview", preview)):
        profile = cProfile.Profile(time.process_time)  # CPU, not time waiting on PostgreSQL
        profile.enable()
        for _ in range(N // 2):
            call()
        profile.disable()
        for order in ("tottime", "cumulative", "ours"):
            out = io.StringIO()
            stats = pstats.Stats(profile, stream=out)
            if order == "ours":  # paisai's own functions, by cumulative time
                stats.sort_stats("cumulative").print_stats(
                    r"/(tournaments|rules_engine|config)/", 25
                )
            else:
                stats.strip_dirs().sort_stats(order).print_stats(18)
            text = out.getvalue()
            print(f"--- {label}: top by {order} ({N // 2} requests)")
            print(text[text.index("ncalls") :].rstrip())


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "run":
        run()
    else:
        main()
