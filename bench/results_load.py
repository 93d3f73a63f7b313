"""Load bench of the results API on a real server: gunicorn + PostgreSQL, loopback only.

What it does
  1. (Re)creates the PostgreSQL database ``paisai_bench`` (env BENCH_DATABASE_URL, default
     postgres://postgres@127.0.0.1:5432/paisai_bench) and migrates it.
  2. Builds one Guandan event: 400 teams, 10 rounds in play, 2,000 matches (tables), and 50
     referee accounts holding the chief referee role, each with a ready session.
  3. Starts gunicorn (config.wsgi, gthread workers) on 127.0.0.1 with DEBUG off, a SECRET_KEY,
     persistent DB connections and the Redis cache (so standings invalidation is shared).
  4. Drives the API with 50 client threads (httpx keep-alive sessions): 1,000 match results
     at 50 submissions per second, then 1,000 more at full speed.
  5. Checks the database: one version per match, exactly one counting version per match,
     no lost or duplicated version, one audit entry per version.

A "confirmed submission" is one POST of a match record (6 deals) with ``"confirm": true`` by
a chief referee: the server scores it with the rules engine, stores version 1, makes it the
counting version (match row locked), checks whether the round is complete, writes the audit
entry and bumps the standings revision, all in one request. Latency is measured from each
request's scheduled start (so queueing at 50/s is not hidden). Bounded: 2,000 requests,
each with a 10 s timeout.

Run: ``.venv/bin/python bench/results_load.py`` (needs PostgreSQL and Redis on loopback).
"""

from __future__ import annotations

import json
import os
import queue
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/paisai_bench")
REDIS = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rsplit("/", 1)[0] + "/7"
TEAMS, ROUNDS, CLIENTS, PER_PHASE, RATE = 400, 10, 50, 1000, 50
WORKERS, THREADS = (
    int(os.environ.get("BENCH_WORKERS", "4")),
    int(os.environ.get("BENCH_THREADS", "4")),
)
SLUG = "bench"


def server_env() -> dict:
    return os.environ | {
        "DATABASE_URL": DB_URL, "SECRET_KEY": "bench-" + "k" * 50, "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1", "SECURE_SSL_REDIRECT": "0", "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0", "SECURE_HSTS_SECONDS": "0", "DB_CONN_MAX_AGE": "600",
        "CACHE_URL": REDIS, "LOG_LEVEL": "ERROR", "DJANGO_SETTINGS_MODULE": "config.settings",
    }  # fmt: skip


def recreate_database() -> None:
    name = DB_URL.rsplit("/", 1)[1]
    admin = DB_URL.rsplit("/", 1)[0] + "/postgres"
    for sql in (f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", admin, "-q", "-c", sql], check=True)
    subprocess.run([PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT,
                   env=server_env(), check=True)  # fmt: skip


# --- inside Django (run as a subprocess: ``results_load.py setup|check``) ----------------


def django_setup() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def build_event() -> dict:
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.backends.db import SessionStore

    from tournaments.models import Match, Round, Team, Tournament, TournamentRole

    tournament = Tournament.objects.create(name="Bench", slug=SLUG, game="guandan",
                                           preset="guandan-suzhou-2016", num_rounds=ROUNDS)  # fmt: skip
    teams = Team.objects.bulk_create(
        Team(tournament=tournament, name=f"T{i:04d}") for i in range(TEAMS)
    )
    matches = []
    for number in range(1, ROUNDS + 1):
        round_ = Round.objects.create(tournament=tournament, number=number, status="in_play")
        order = random.Random(number).sample(teams, len(teams))
        matches += [
            Match(round=round_, table_number=t + 1, home=order[2 * t], away=order[2 * t + 1])
            for t in range(TEAMS // 2)
        ]
    match_ids = [m.pk for m in Match.objects.bulk_create(matches)]
    password = make_password(secrets.token_hex(8))
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"referee{i:02d}", password=password) for i in range(CLIENTS)
    )
    TournamentRole.objects.bulk_create(
        TournamentRole(user=u, tournament=tournament, role="chief_referee") for u in users
    )
    sessions = []
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions.append(store.session_key)
    return {"matches": match_ids, "sessions": sessions}


def check_database() -> dict:
    from django.db.models import Count, Q

    from tournaments.models import AuditLog, Match, ResultVersion

    per_match = Match.objects.filter(round__tournament__slug=SLUG).annotate(
        n=Count("versions"), counting=Count("versions", filter=Q(versions__is_counting=True))
    )
    stats = {
        "versions": ResultVersion.objects.filter(match__round__tournament__slug=SLUG).count(),
        "matches_with_result": per_match.filter(n__gte=1).count(),
        "matches_with_duplicates": per_match.filter(n__gt=1).count(),
        "matches_counting_not_one": per_match.filter(n__gte=1).exclude(counting=1).count(),
        "audit_entries": AuditLog.objects.filter(action="result.submission").count(),
    }
    return stats


# --- the driver ---------------------------------------------------------------------------


def legal_record(rng: random.Random) -> dict:
    from rules_engine.api import score
    from rules_engine.errors import RulesError

    seats = ["E", "S", "W", "N"]
    while True:
        deals = [{"finish": rng.sample(seats, 4)} for _ in range(6)]
        record = {"game": "guandan", "deals": deals}
        try:
            score(record)
            return record
        except RulesError:
            continue


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    server = subprocess.Popen(
        [PY, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", str(WORKERS),
         "-k", "gthread", "--threads", str(THREADS), "--keep-alive", "30", "--log-level", "error"],
        cwd=ROOT, env=server_env(), start_new_session=True,
    )  # fmt: skip
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not start within 30 s")


def run_phase(base: str, sessions: list[str], jobs: list[tuple[int, dict]], rate: float | None):
    import httpx

    work: queue.Queue = queue.Queue()
    start = time.perf_counter() + 0.5
    for i, job in enumerate(jobs):
        work.put((start + i / rate if rate else None, job))
    latencies: list[float] = []
    errors: list[str] = []
    lock = threading.Lock()

    def client(session_key: str):
        csrf = secrets.token_hex(16)
        cookies = {"sessionid": session_key, "csrftoken": csrf}
        headers = {"X-CSRFToken": csrf, "Referer": base}
        with httpx.Client(base_url=base, cookies=cookies, headers=headers, timeout=10) as http:
            while True:
                try:
                    scheduled, (match_id, record) = work.get_nowait()
                except queue.Empty:
                    return
                if scheduled is not None:
                    time.sleep(max(0.0, scheduled - time.perf_counter()))
                began = scheduled or time.perf_counter()
                try:
                    response = http.post(
                        f"/api/tournaments/{SLUG}/matches/{match_id}/result/",
                        json={"record": record, "base_version": 0, "confirm": True},
                    )
                    ok = response.status_code == 201 and response.json()["is_counting"]
                    problem = None if ok else f"{response.status_code} {response.text[:200]}"
                except httpx.HTTPError as err:
                    problem = f"{type(err).__name__}: {err}"
                elapsed = time.perf_counter() - max(began, 0)
                with lock:
                    latencies.append(elapsed)
                    if problem:
                        errors.append(problem)

    threads = [threading.Thread(target=client, args=(s,)) for s in sessions]
    t0 = time.perf_counter()
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    duration = time.perf_counter() - max(t0, start)
    return latencies, errors, duration


def warm_up(base: str) -> None:
    """Load every worker's code (imports, URL resolver, engine) before measuring."""
    import httpx

    with httpx.Client(base_url=base, timeout=10) as http:
        for _ in range(4 * WORKERS * THREADS):
            http.get(f"/api/tournaments/{SLUG}/")


def report(name: str, latencies: list[float], errors: list[str], duration: float) -> None:
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [0] * 99
    print(f"{name}: {len(ms)} requests in {duration:.1f} s = {len(ms) / duration:.0f}/s; "
          f"p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms, "
          f"max {ms[-1]:.1f} ms; errors {len(errors)}")  # fmt: skip
    for error in errors[:5]:
        print("   error:", error)


def in_django(command: str) -> dict:
    out = subprocess.run([PY, __file__, command], cwd=ROOT, env=server_env(), check=True,
                         capture_output=True, text=True)  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    print(f"results_load: {CLIENTS} clients, gunicorn {WORKERS} workers x {THREADS} threads, "
          f"{os.cpu_count()} CPUs")  # fmt: skip
    recreate_database()
    event = in_django("setup")
    rng = random.Random(6)
    sys.path.insert(0, str(ROOT))
    records = [legal_record(rng) for _ in range(2 * PER_PHASE)]
    jobs = list(zip(event["matches"][: 2 * PER_PHASE], records, strict=True))
    port = free_port()
    server = start_server(port)
    base = f"http://127.0.0.1:{port}"
    try:
        warm_up(base)
        paced = run_phase(base, event["sessions"], jobs[:PER_PHASE], RATE)
        report(f"at {RATE}/s", *paced)
        full = run_phase(base, event["sessions"], jobs[PER_PHASE:], None)
        report("full speed", *full)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
    stats = in_django("check")
    print("database:", ", ".join(f"{k} {v}" for k, v in stats.items()))
    sent = 2 * PER_PHASE - len(paced[1]) - len(full[1])
    good = (
        stats["versions"] == sent == stats["matches_with_result"] == stats["audit_entries"]
        and stats["matches_with_duplicates"] == 0
        and stats["matches_counting_not_one"] == 0
    )
    p95 = sorted(paced[0])[int(0.95 * len(paced[0])) - 1] * 1000
    rate = len(full[0]) / full[2]
    print(f"targets: p95 at {RATE}/s {p95:.1f} ms (<= 30), full speed {rate:.0f}/s (>= 150), "
          f"errors {len(paced[1]) + len(full[1])} (0), database {'consistent' if good else 'INCONSISTENT'}")  # fmt: skip
    return 0 if good else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("setup", "check"):
        django_setup()
        result = build_event() if sys.argv[1] == "setup" else check_database()
        print(json.dumps(result))
    else:
        sys.exit(main())
