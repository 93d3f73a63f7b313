"""Load bench of the results API on a real server: gunicorn + PostgreSQL, loopback only.

What it does
  1. (Re)creates the PostgreSQL database ``paisai_bench`` (env BENCH_DATABASE_URL, default
     postgres://postgres@127.0.0.1:5432/paisai_bench) and migrates it.
  2. Builds one Guandan event: 400 teams, 10 rounds in play, 2,000 matches (tables), a
     separate warm-up event (one round, 200 tables), and 50 referee accounts holding the
     chief referee role in both, each with a ready session.
  3. Starts gunicorn (config.wsgi; BENCH_WORKERS gthread workers x BENCH_THREADS threads,
     default 4 x 4; BENCH_THREADS=0 for sync workers) on 127.0.0.1 with DEBUG off, a
     SECRET_KEY, persistent DB connections and the Redis cache (standings revision and
     sessions shared by the workers); bench/gunicorn_warm.py makes each worker import the
     URLconf and translations as it starts rather than on its first requests.
  4. Warms the server up with one result per table of the warm-up event, then drives the
     API with 50 concurrent referee sessions (keep-alive HTTP/1.1 connections, all in one
     asyncio loop so the client costs the 2 CPUs little): 1,000 match results at 50
     submissions per second, then 1,000 more at full speed.
  5. Drives the floor the same way with the same bodies and sessions: a bare Django + DRF
     write (bench/floor.py, mounted only by the bench's URLconf bench/urls.py) that parses
     the JSON and inserts one row in a transaction; prints gunicorn CPU per request of the
     confirmed submission and of the floor and their ratio (target <= 2).
  6. Prints, per phase, throughput and latency percentiles, the CPU milliseconds per request
     of gunicorn, of the PostgreSQL backends and of the bench client, and the load average
     (other work on the machine skews every figure: compare runs at similar load).
     With BENCH_PYSPY=<file>, py-spy samples the gunicorn workers (the thread holding the
     GIL) through the full-speed phase and the frames that held the CPU are printed (the
     sampling slows that phase: compare its throughput only between runs without it).
  7. Checks the database: one version per match, exactly one counting version per match,
     no lost or duplicated version, one audit entry per version.

A "confirmed submission" is one POST of a match record (6 deals) with ``"confirm": true`` by
a chief referee: the server scores it with the rules engine, stores version 1 as the counting
version (the unique constraints decide between concurrent writers; only a later version's
counting switch locks the match row), checks whether the round is complete, writes the audit
entry and bumps the event revision as the transaction's last statement, all in one request. Latency is
measured from each request's scheduled start (so queueing at 50/s is not hidden). Bounded:
2,000 requests, each with a 10 s timeout.

Run: ``.venv/bin/python bench/results_load.py`` (needs PostgreSQL and Redis on loopback;
BENCH_DATABASE_URL, BENCH_REDIS_URL and BENCH_PORT choose the database, Redis and port).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import time
from importlib import import_module
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
DB_URL = os.environ.get("BENCH_DATABASE_URL", "postgres://postgres@127.0.0.1:5432/paisai_bench")
REDIS = os.environ.get(
    "BENCH_REDIS_URL",
    os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rsplit("/", 1)[0] + "/7",
)
PORT = int(os.environ.get("BENCH_PORT", "0"))  # 0: any free port
TEAMS, ROUNDS, CLIENTS, PER_PHASE, RATE = 400, 10, 50, 1000, 50
WORKERS, THREADS = (
    int(os.environ.get("BENCH_WORKERS", "4")),
    int(os.environ.get("BENCH_THREADS", "4")),
)
SLUG, WARM_SLUG = "bench", "bench-warm-up"


def server_env() -> dict:
    return os.environ | {
        "DATABASE_URL": DB_URL,
        "SECRET_KEY": "bench-" + "k" * 50,
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1",
        "SECURE_SSL_REDIRECT": "0",
        "SESSION_COOKIE_SECURE": "0",
        "CSRF_COOKIE_SECURE": "0",
        "SECURE_HSTS_SECONDS": "0",
        "DB_CONN_MAX_AGE": "600",
        "CACHE_URL": REDIS,
        "LOG_LEVEL": "ERROR",
        "DJANGO_SETTINGS_MODULE": "bench.settings",
    }


def recreate_database() -> None:
    name = DB_URL.rsplit("/", 1)[1]
    admin = DB_URL.rsplit("/", 1)[0] + "/postgres"
    for sql in (f'DROP DATABASE IF EXISTS "{name}"', f'CREATE DATABASE "{name}"'):
        subprocess.run(["psql", admin, "-q", "-c", sql], check=True)
    subprocess.run(
        [PY, "manage.py", "migrate", "--noinput", "-v", "0"], cwd=ROOT, env=server_env(), check=True
    )


# --- inside Django (run as a subprocess: ``results_load.py setup|check``) ----------------


def django_setup() -> None:
    sys.path.insert(0, str(ROOT))
    import django

    django.setup()


def build_event() -> dict:
    from django.conf import settings
    from django.contrib.auth import (
        BACKEND_SESSION_KEY,
        HASH_SESSION_KEY,
        SESSION_KEY,
        get_user_model,
    )
    from django.contrib.auth.hashers import make_password

    from tournaments.models import Event, EventRole, Match, Round, Team

    SessionStore = import_module(settings.SESSION_ENGINE).SessionStore  # noqa: N806

    def new_event(slug: str, rounds: int) -> tuple[Event, list[int]]:
        event = Event.objects.create(
            name=slug, slug=slug, game="guandan", preset="guandan-suzhou-2016", num_rounds=rounds
        )
        teams = Team.objects.bulk_create(Team(event=event, name=f"T{i:04d}") for i in range(TEAMS))
        matches = []
        for number in range(1, rounds + 1):
            round_ = Round.objects.create(event=event, number=number, status="in_play")
            order = random.Random(number).sample(teams, len(teams))
            matches += [
                Match(round=round_, table_number=t + 1, home=order[2 * t], away=order[2 * t + 1])
                for t in range(TEAMS // 2)
            ]
        return event, [m.pk for m in Match.objects.bulk_create(matches)]

    (event, match_ids), (warm, warm_ids) = new_event(SLUG, ROUNDS), new_event(WARM_SLUG, 1)
    password = make_password(secrets.token_hex(8))
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"referee{i:02d}", password=password) for i in range(CLIENTS)
    )
    EventRole.objects.bulk_create(
        EventRole(user=u, event=t, role="chief_referee") for u in users for t in (event, warm)
    )
    sessions = []
    for user in users:
        store = SessionStore()
        store[SESSION_KEY] = str(user.pk)
        store[BACKEND_SESSION_KEY] = settings.AUTHENTICATION_BACKENDS[-1]
        store[HASH_SESSION_KEY] = user.get_session_auth_hash()
        store.create()
        sessions.append(store.session_key)
    return {"matches": match_ids, "warm_matches": warm_ids, "sessions": sessions}


def check_database() -> dict:
    from django.db.models import Count, Q

    from tournaments.models import AuditLog, Match, ResultVersion

    per_match = Match.objects.filter(round__event__slug=SLUG).annotate(
        n=Count("versions"), counting=Count("versions", filter=Q(versions__is_counting=True))
    )
    stats = {
        "versions": ResultVersion.objects.filter(match__round__event__slug=SLUG).count(),
        "matches_with_result": per_match.filter(n__gte=1).count(),
        "matches_with_duplicates": per_match.filter(n__gt=1).count(),
        "matches_counting_not_one": per_match.filter(n__gte=1).exclude(counting=1).count(),
        "audit_entries": AuditLog.objects.filter(
            event__slug=SLUG, action="result.submission"
        ).count(),
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
    if PORT:
        return PORT
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_server(port: int) -> subprocess.Popen:
    threads = ["-k", "gthread", "--threads", str(THREADS)] if THREADS else ["-k", "sync"]
    server = subprocess.Popen(
        [
            PY,
            "-m",
            "gunicorn",
            "config.wsgi",
            "-b",
            f"127.0.0.1:{port}",
            "-w",
            str(WORKERS),
            *threads,
            "--keep-alive",
            "30",
            "--backlog",
            "256",
            "--log-level",
            "error",
            "-c",
            str(ROOT / "bench" / "gunicorn_warm.py"),
        ],
        cwd=ROOT,
        env=server_env(),
        start_new_session=True,
    )
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.5).close()
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("gunicorn did not start within 30 s")


class Connection:
    """One referee's keep-alive HTTP/1.1 connection (raw asyncio streams: the 50 sessions
    must cost the 2 CPUs next to nothing, so the bench measures the server, not itself)."""

    def __init__(self, port: int, session_key: str):
        self.port, self.reader, self.writer = port, None, None
        csrf = secrets.token_hex(16)
        self.head = (
            f"Host: 127.0.0.1:{port}\r\nCookie: sessionid={session_key}; csrftoken={csrf}\r\n"
            f"X-CSRFToken: {csrf}\r\nReferer: http://127.0.0.1:{port}/\r\n"
        ).encode()

    async def request(self, method: str, path: str, body: bytes = b"") -> tuple[int, bytes]:
        request = (
            f"{method} {path} HTTP/1.1\r\n".encode()
            + self.head
            + b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
            + body
        )
        for attempt in (1, 2):  # a kept-alive connection the server closed: reconnect once
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                attempt = 2
            try:
                self.writer.write(request)
                return await self._response()
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    async def _response(self) -> tuple[int, bytes]:
        head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        headers = dict(line.lower().split(": ", 1) for line in head[1:] if ": " in line)
        body = await self.reader.readexactly(int(headers.get("content-length", "0")))
        if headers.get("connection") == "close":  # e.g. gunicorn sync workers
            self.close()
        return int(head[0].split()[1]), body

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


RESULT_PATH = "/api/tournaments/{slug}/matches/{match}/result/"
FLOOR_PATH = "/bench/floor/{match}/"


async def drive(
    port: int,
    sessions: list[str],
    jobs: list[tuple[int, bytes]],
    rate,
    slug=SLUG,
    template=RESULT_PATH,
):
    """50 concurrent referee sessions in one event loop; latency from each scheduled start."""
    start = time.perf_counter() + 0.2
    pending = iter(enumerate(jobs))
    latencies: list[float] = []
    errors: list[str] = []

    async def referee(session_key: str) -> None:
        conn = Connection(port, session_key)
        try:
            for i, (match_id, body) in pending:
                scheduled = start + i / rate if rate else None
                if scheduled is not None:
                    await asyncio.sleep(max(0.0, scheduled - time.perf_counter()))
                began = scheduled or time.perf_counter()
                path = template.format(slug=slug, match=match_id)
                try:
                    status, answer = await asyncio.wait_for(conn.request("POST", path, body), 10)
                    ok = status == 201 and json.loads(answer)["is_counting"] is True
                    problem = None if ok else f"{status} {answer[:200]!r}"
                except (TimeoutError, OSError, asyncio.IncompleteReadError) as err:
                    conn.close()
                    problem = f"{type(err).__name__}: {err}"
                latencies.append(time.perf_counter() - began)
                if problem:
                    errors.append(problem)
        finally:
            conn.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(referee(s) for s in sessions))
    return latencies, errors, time.perf_counter() - max(t0, start)


def stolen() -> tuple[int, int]:
    """(steal, total) CPU ticks of the machine so far (/proc/stat): time the host gave to
    other guests, which no process here is charged for but every figure feels."""
    ticks = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    return ticks[7], sum(ticks)


def process_cpu(pids) -> float:
    """CPU seconds (user + system) used so far by the processes ``pids`` (Linux /proc)."""
    tick, total = os.sysconf("SC_CLK_TCK"), 0.0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick
    return total


def server_pids(server: subprocess.Popen) -> dict[str, list[int]]:
    """gunicorn (its process group) and the PostgreSQL backends serving the bench database."""
    db = DB_URL.rsplit("/", 1)[1]
    pids: dict[str, list[int]] = {"gunicorn": [], "postgres": []}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            group = os.getpgid(int(entry.name))
        except (OSError, UnicodeDecodeError):
            continue
        if group == server.pid:
            pids["gunicorn"].append(int(entry.name))
        elif cmdline.startswith("postgres: ") and f" {db} " in cmdline:
            pids["postgres"].append(int(entry.name))
    return pids


def run_phase(
    port: int, server, sessions: list[str], jobs, rate: float | None, template=RESULT_PATH
) -> dict:
    pids = server_pids(server)
    load = os.getloadavg()[0]
    steal0 = stolen()
    before = {name: process_cpu(group) for name, group in pids.items()}
    client0 = time.process_time()
    latencies, errors, duration = asyncio.run(drive(port, sessions, jobs, rate, template=template))
    cpu = {name: process_cpu(group) - before[name] for name, group in pids.items()}
    cpu["client"] = time.process_time() - client0
    steal1 = stolen()
    steal = (steal1[0] - steal0[0]) / max(steal1[1] - steal0[1], 1)
    return {
        "latencies": latencies,
        "errors": errors,
        "duration": duration,
        "cpu": cpu,
        "load": load,
        "steal": steal,
    }


def warm_up(port: int, sessions: list[str], jobs: list[tuple[int, bytes]]) -> None:
    """Before measuring, submit a result at every table of a separate warm-up event, 50 at a
    time, so every worker thread has run the whole submission path once: its DB connection
    and PostgreSQL backend, lazily built serializers, the engine's presets (a fresh server
    otherwise spends its first seconds on this, which a venue's server running all day
    never shows)."""
    latencies, errors, duration = asyncio.run(drive(port, sessions, jobs, None, WARM_SLUG))
    print(
        f"warm-up: {len(latencies)} results in {duration:.1f} s, errors {len(errors)}"
        + (f" (first: {errors[0][:120]})" if errors else "")
    )


def report(name: str, phase: dict) -> None:
    latencies, errors, duration = phase["latencies"], phase["errors"], phase["duration"]
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [0] * 99
    n = max(len(ms), 1)
    cpu = phase["cpu"]
    print(
        f"{name}: {len(ms)} requests in {duration:.1f} s = {len(ms) / duration:.0f}/s; "
        f"p50 {q[49]:.1f} ms, p95 {q[94]:.1f} ms, p99 {q[98]:.1f} ms, "
        f"max {ms[-1]:.1f} ms; errors {len(errors)}"
    )
    print(
        f"   CPU per request: gunicorn {cpu['gunicorn'] / n * 1000:.1f} ms, PostgreSQL "
        f"{cpu['postgres'] / n * 1000:.1f} ms, bench client {cpu['client'] / n * 1000:.2f} ms; "
        f"load average before {phase['load']:.2f}; CPU stolen by the host "
        f"{100 * phase['steal']:.1f}%"
    )
    for error in errors[:5]:
        print("   error:", error)


PYSPY = os.environ.get("BENCH_PYSPY")  # a file: py-spy samples gunicorn at full speed


def profile_workers(server: subprocess.Popen) -> subprocess.Popen | None:
    """With BENCH_PYSPY=<file>: py-spy samples every gunicorn worker (the thread holding the GIL,
    only) while the full-speed phase runs and writes the stacks there (collapsed format)."""
    if not PYSPY:
        return None
    spy = subprocess.Popen(
        [
            str(Path(PY).with_name("py-spy")),
            "record",
            "--pid",
            str(server.pid),
            "--subprocesses",
            "--rate",
            "250",
            "--gil",
            "--format",
            "raw",
            "--output",
            PYSPY,
            "--nonblocking",
            "--duration",
            "60",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.5)  # py-spy attaches to each worker
    return spy


def summarise_profile(spy: subprocess.Popen | None, top: int = 25) -> None:
    """Stop py-spy and print the frames that held the CPU: by own samples and by samples
    with the frame anywhere on the stack (inclusive)."""
    if spy is None:
        return
    spy.send_signal(signal.SIGINT)
    spy.wait(30)
    own: dict[str, int] = {}
    inclusive: dict[str, int] = {}
    total = 0
    for line in Path(PYSPY).read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        frames = [f for f in stack.split(";")[1:] if f]  # the first is the process
        if not frames:
            continue
        n = int(count)
        total += n
        own[frames[-1]] = own.get(frames[-1], 0) + n
        for frame in set(frames):
            inclusive[frame] = inclusive.get(frame, 0) + n
    print(f"py-spy, full speed: {total} samples on CPU in the gunicorn workers")
    for title, table in (("own", own), ("inclusive", inclusive)):
        print(f"   top {top} by {title} samples:")
        for frame, n in sorted(table.items(), key=lambda kv: -kv[1])[:top]:
            print(f"   {100 * n / max(total, 1):5.1f}%  {frame[:150]}")


def in_django(command: str) -> dict:
    out = subprocess.run(
        [PY, __file__, command],
        cwd=ROOT,
        env=server_env(),
        check=True,
        capture_output=True,
        text=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> int:
    kind = f"{WORKERS} gthread workers x {THREADS} threads" if THREADS else f"{WORKERS} sync"
    print(f"results_load: {CLIENTS} clients, gunicorn {kind}, {os.cpu_count()} CPUs")
    recreate_database()
    event = in_django("setup")
    rng = random.Random(6)
    sys.path.insert(0, str(ROOT))
    bodies = [
        json.dumps({"record": legal_record(rng), "base_version": 0, "confirm": True}).encode()
        for _ in range(2 * PER_PHASE)
    ]
    jobs = list(zip(event["matches"][: 2 * PER_PHASE], bodies, strict=True))
    warm_jobs = list(zip(event["warm_matches"], bodies, strict=False))
    port = free_port()
    server = start_server(port)
    try:
        warm_up(port, event["sessions"], warm_jobs)
        paced = run_phase(port, server, event["sessions"], jobs[:PER_PHASE], RATE)
        report(f"at {RATE}/s", paced)
        spy = profile_workers(server)
        full = run_phase(port, server, event["sessions"], jobs[PER_PHASE:], None)
        summarise_profile(spy)
        report("full speed", full)
        # the floor: a bare Django + DRF write of the same bodies, driven the same way
        floor_paced = run_phase(port, server, event["sessions"], jobs[:PER_PHASE], RATE, FLOOR_PATH)
        report(f"floor at {RATE}/s", floor_paced)
        floor = run_phase(port, server, event["sessions"], jobs[PER_PHASE:], None, FLOOR_PATH)
        report("floor full speed", floor)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
    for name, mine, bare in (("at 50/s", paced, floor_paced), ("full speed", full, floor)):
        cpu = mine["cpu"]["gunicorn"] / max(len(mine["latencies"]), 1) * 1000
        cpu_floor = bare["cpu"]["gunicorn"] / max(len(bare["latencies"]), 1) * 1000
        print(
            f"gunicorn CPU per request {name}: confirmed submission {cpu:.1f} ms, floor "
            f"{cpu_floor:.1f} ms, ratio {cpu / cpu_floor:.2f} (target <= 2)"
        )
    stats = in_django("check")
    print("database:", ", ".join(f"{k} {v}" for k, v in stats.items()))
    failed = len(paced["errors"]) + len(full["errors"])
    failed_floor = len(floor_paced["errors"]) + len(floor["errors"])
    good = (
        stats["versions"] == 2 * PER_PHASE - failed == stats["matches_with_result"]
        and stats["audit_entries"] == stats["versions"]
        and stats["matches_with_duplicates"] == 0
        and stats["matches_counting_not_one"] == 0
    )
    p95 = statistics.quantiles(paced["latencies"], n=100)[94] * 1000
    rate = len(full["latencies"]) / full["duration"]
    ratio = (full["cpu"]["gunicorn"] / len(full["latencies"])) / (
        floor["cpu"]["gunicorn"] / max(len(floor["latencies"]), 1)
    )
    print(
        f"targets: p95 at {RATE}/s {p95:.1f} ms (<= 30), full speed {rate:.0f}/s (>= 150), "
        f"CPU ratio to the floor {ratio:.2f} (<= 2), errors {failed} (0; floor "
        f"{failed_floor}), database {'consistent' if good else 'INCONSISTENT'}"
    )
    return 0 if good and failed == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] in ("setup", "check"):
        django_setup()
        result = build_event() if sys.argv[1] == "setup" else check_database()
        print(json.dumps(result))
    else:
        sys.exit(main())
