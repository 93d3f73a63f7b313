"""Load bench of the public pages at venue scale: gunicorn + PostgreSQL + Redis, loopback only.

What it does
  1. (Re)creates the bench database (BENCH_DATABASE_URL, as bench/results_load.py) and
     builds a Guandan event of 5,000 teams (10,000 players with Chinese names): rounds 1–4
     finalised and round 5 published and in play, 2,500 tables a round, every match with a
     counting result.
  2. Starts gunicorn exactly as bench/results_load.py does (BENCH_WORKERS gthread workers x
     BENCH_THREADS threads, DEBUG off, persistent DB connections, the Redis cache).
  3. Renders every measured page once (a round's first visitor), then drives 50 keep-alive
     clients at full speed, one page at a time, in the same run: the login page (a small
     page rendered by Django: the floor), the pairings, the standings, a team page, the
     projector, find-my-table (by name, pinyin initials, team number), their JSON, the
     login page again (to see the load drift), then the public pages with ``If-None-Match``
     (what a browser or proxy sends: 304s), then all public pages mixed at 100 requests/s.
  4. Prints per page: throughput, p50/p95, gunicorn CPU ms per request, bytes, and the
     ratio of the throughput to the login page's; and the load average (the machine is
     shared: compare runs at similar load). Targets: every public page >= 0.5x the login
     page's throughput; p95 <= 200 ms at 100 requests/s.

The public standings PDF (``standings PDF``) is measured as a public page: its first visitor
gets "being made" (202) while a job makes the file of the revision (here in-process: no
broker), then it is served from the cache like the pages (issue 26: >= 0.5x the login page).

Run: ``.venv/bin/python -m bench.public_load`` (BENCH_PORT, BENCH_REDIS_URL as results_load;
BENCH_ONLY="standings PDF,standings" measures only those pages).
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import signal
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import results_load as rl  # noqa: E402

TEAMS, ROUNDS, CLIENTS = int(os.environ.get("BENCH_TEAMS", "5000")), 5, 50
PER_PAGE = int(os.environ.get("BENCH_REQUESTS", "1500"))
PACED_RATE, PACED_SECONDS = 100, 15
SLUG = "venue"
SURNAMES = "张王李赵刘陈杨黄周吴徐孙胡朱高林何郭马罗梁宋郑谢韩唐冯于董萧程曹袁邓许傅沈曾彭吕"
GIVEN = "伟芳娜敏静丽强磊军洋勇艳杰娟涛明超秀霞平刚桂英华玉兰辉鹏卫东建国志文"


def player_name(i: int) -> str:
    rng = random.Random(i)
    return rng.choice(SURNAMES) + rng.choice(GIVEN) + rng.choice(GIVEN)


# --- inside Django (``public_load.py setup``) ---------------------------------------------


def build_event() -> dict:
    from django.db import connection
    from django.utils import timezone

    from rules_engine import api as rules_api
    from tournaments.freshness import invalidate
    from tournaments.models import (
        Event,
        Match,
        Player,
        ResultVersion,
        Round,
        RoundSlot,
        Team,
    )

    t0 = time.time()
    event = Event.objects.create(
        name="万人掼蛋大赛", slug=SLUG, game="guandan", preset="guandan-suzhou-2016", num_rounds=7
    )
    teams = Team.objects.bulk_create(
        Team(event=event, name=f"{player_name(10**6 + i)[:2]}队{i + 1:04d}", seed=i + 1)
        for i in range(TEAMS)
    )
    Player.objects.bulk_create(
        Player(team=team, name=player_name(2 * i + seat), seat_order=seat)
        for i, team in enumerate(teams)
        for seat in (1, 2)
    )
    records = []
    for finish in (["E", "W", "S", "N"], ["S", "N", "E", "W"], ["E", "S", "W", "N"]):
        record = {"game": "guandan", "preset": "guandan-suzhou-2016", "deals": [{"finish": finish}]}
        records.append((record, rules_api.score(record)))
    now = timezone.now()
    for number in range(1, ROUNDS + 1):
        status = "finalised" if number < ROUNDS else "in_play"
        rnd = Round.objects.create(
            event=event,
            number=number,
            status=status,
            published_at=now,
            started_at=now,
            ends_at=now + timezone.timedelta(minutes=60),
        )
        order = random.Random(number).sample(teams, len(teams))
        matches = Match.objects.bulk_create(
            Match(round=rnd, table_number=t + 1, home=order[2 * t], away=order[2 * t + 1])
            for t in range(TEAMS // 2)
        )
        RoundSlot.objects.bulk_create(
            RoundSlot(round=rnd, match=m, team_id=team, side=side)
            for m in matches
            for team, side in ((m.home_id, "EW"), (m.away_id, "NS"))
        )
        ResultVersion.objects.bulk_create(
            ResultVersion(
                match=m,
                number=1,
                record=records[i % 3][0],
                outcome=records[i % 3][1],
                is_counting=True,
                confirmed_at=now,
            )
            for i, m in enumerate(matches)
        )
    invalidate(event)
    with connection.cursor() as cursor:
        cursor.execute("ANALYZE")
    team = teams[min(1234, len(teams) - 1)]
    players = list(Player.objects.filter(team=team).values_list("name", flat=True))
    from tournaments.services.find_table import spellings

    return {
        "team": team.pk,
        "queries": [players[0], spellings(players[1])[0], str(team.seed), team.name[:3]],
        "seconds": round(time.time() - t0, 1),
    }


# --- the driver ---------------------------------------------------------------------------


class Connection:
    """A phone's keep-alive HTTP/1.1 connection (raw asyncio streams, as results_load)."""

    def __init__(self, port: int):
        self.port, self.reader, self.writer = port, None, None

    async def get(self, path: str, headers: str = "") -> tuple[int, bytes, dict]:
        request = (
            f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Accept-Language: zh-CN,zh;q=0.9\r\n{headers}\r\n"
        ).encode()
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
                attempt = 2
            try:
                self.writer.write(request)
                head = (await self.reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
                found = dict(line.lower().split(": ", 1) for line in head[1:] if ": " in line)
                body = await self.reader.readexactly(int(found.get("content-length", "0")))
                if found.get("connection") == "close":
                    self.close()
                return int(head[0].split()[1]), body, found
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt == 2:
                    raise
        raise AssertionError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def drive(port: int, paths: list[tuple[str, str]], rate: float | None, total: int):
    """CLIENTS connections; request i asks paths[i % len(paths)] (path, extra headers)."""
    start = time.perf_counter() + 0.2
    pending = iter(range(total))
    latencies: list[float] = []
    errors: list[str] = []
    sizes: list[int] = []

    async def client() -> None:
        conn = Connection(port)
        try:
            for i in pending:
                path, headers = paths[i % len(paths)]
                scheduled = start + i / rate if rate else None
                if scheduled is not None:
                    await asyncio.sleep(max(0.0, scheduled - time.perf_counter()))
                began = scheduled or time.perf_counter()
                try:
                    status, body, _headers = await asyncio.wait_for(conn.get(path, headers), 10)
                    if status not in (200, 304):
                        errors.append(f"{status} {path} {body[:120]!r}")
                    sizes.append(len(body))
                except (TimeoutError, OSError, asyncio.IncompleteReadError) as err:
                    conn.close()
                    errors.append(f"{type(err).__name__} {path}")
                latencies.append(time.perf_counter() - began)
        finally:
            conn.close()

    t0 = time.perf_counter()
    await asyncio.gather(*(client() for _ in range(CLIENTS)))
    return latencies, errors, time.perf_counter() - max(t0, start), sizes


def phase(port, server, paths, rate=None, total=PER_PAGE) -> dict:
    pids = rl.server_pids(server)
    load = os.getloadavg()[0]
    before = rl.process_cpu(pids["gunicorn"]), rl.process_cpu(pids["postgres"])
    latencies, errors, duration, sizes = asyncio.run(drive(port, paths, rate, total))
    cpu = (
        rl.process_cpu(pids["gunicorn"]) - before[0],
        rl.process_cpu(pids["postgres"]) - before[1],
    )
    ms = sorted(x * 1000 for x in latencies)
    q = statistics.quantiles(ms, n=100) if len(ms) > 1 else [0] * 99
    return {
        "n": len(ms),
        "rate": len(ms) / duration,
        "p50": q[49],
        "p95": q[94],
        "load": load,
        "cpu": cpu[0] / max(len(ms), 1) * 1000,
        "pg": cpu[1] / max(len(ms), 1) * 1000,
        "bytes": statistics.mean(sizes) if sizes else 0,
        "errors": errors,
    }


def etag_of(port: int, path: str) -> str:
    async def one():
        conn = Connection(port)
        try:
            return (await conn.get(path))[2].get("etag", "")
        finally:
            conn.close()

    return asyncio.run(one())


def line(name: str, result: dict, floor: float | None) -> None:
    ratio = f"{result['rate'] / floor:.2f}x login" if floor else ("floor" if floor is None else "")
    print(
        f"{name:<26} {result['rate']:7.0f}/s  p50 {result['p50']:7.1f} ms  p95 "
        f"{result['p95']:7.1f} ms  gunicorn CPU {result['cpu']:5.2f} ms/req  PostgreSQL "
        f"{result['pg']:4.2f}  {result['bytes'] / 1024:6.1f} KiB  {ratio}  errors "
        f"{len(result['errors'])}  (load {result['load']:.2f})"
    )
    for error in result["errors"][:3]:
        print("    error:", error)


def main() -> int:
    kind = f"{rl.WORKERS} gthread workers x {rl.THREADS} threads" if rl.THREADS else "sync"
    print(
        f"public_load: {TEAMS} teams, round {ROUNDS} of {TEAMS // 2} tables, {CLIENTS} "
        f"clients, gunicorn {kind}, {os.cpu_count()} CPUs"
    )
    rl.recreate_database()
    out = subprocess.run(
        [rl.PY, __file__, "setup"],
        cwd=ROOT,
        env=rl.server_env(),
        check=True,
        capture_output=True,
        text=True,
    )
    event = json.loads(out.stdout.strip().splitlines()[-1])
    print(f"event built in {event['seconds']} s; find-my-table queries {event['queries']}")
    base, api = f"/t/{SLUG}", f"/api/tournaments/{SLUG}/public"
    from urllib.parse import quote

    finds = [f"{base}/find/?q={quote(q)}" for q in event["queries"]]
    pages = {
        "pairings": [f"{base}/pairings/"],
        "standings": [f"{base}/standings/"],
        "team page": [f"{base}/teams/{event['team']}/"],
        "projector": [f"{base}/projector/"],
        "find my table": finds,
        "API standings": [f"{api}/standings/"],
        "API pairings": [f"{api}/pairings/"],
        "API find-table": [f"{api}/find-table/?q={quote(q)}" for q in event["queries"]],
        "standings PDF": [f"{base}/export/standings-pdf/"],
    }
    only = [name.strip() for name in os.environ.get("BENCH_ONLY", "").split(",") if name.strip()]
    if only:
        pages = {name: paths for name, paths in pages.items() if name in only}
    port = rl.free_port()
    server = rl.start_server(port)
    results: dict[str, dict] = {}
    try:
        t0 = time.perf_counter()
        for paths in pages.values():  # each page's first visitor renders it
            for path in paths:
                deadline = time.perf_counter() + 300
                while not etag_of(port, path) and time.perf_counter() < deadline:
                    time.sleep(1)  # a download being made (202, no ETag yet)
        print(f"first renders of every page: {time.perf_counter() - t0:.1f} s")
        phase(port, server, [("/accounts/login/", "")], total=300)  # warm every thread
        floor = phase(port, server, [("/accounts/login/", "")])
        line("login page (floor)", floor, None)
        for name, paths in pages.items():
            results[name] = phase(port, server, [(path, "") for path in paths])
            line(name, results[name], floor["rate"])
        again = phase(port, server, [("/accounts/login/", "")])
        line("login page again", again, None)
        conditional = [
            (path, f"If-None-Match: {etag_of(port, path)}\r\n")
            for paths in pages.values()
            for path in paths
        ]
        revalidated = phase(port, server, conditional)
        line("revalidation (304s)", revalidated, floor["rate"])
        mixed = [(path, "") for paths in pages.values() for path in paths]
        paced = phase(port, server, mixed, rate=PACED_RATE, total=PACED_RATE * PACED_SECONDS)
        line(f"all public at {PACED_RATE}/s", paced, 0)
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(20)
    floor_rate = (floor["rate"] + again["rate"]) / 2
    worst = min(results, key=lambda name: results[name]["rate"])
    errors = sum(len(r["errors"]) for r in results.values()) + len(paced["errors"])
    print(
        f"targets: slowest public page {worst} {results[worst]['rate'] / floor_rate:.2f}x the "
        f"login page (>= 0.5); p95 at {PACED_RATE}/s {paced['p95']:.1f} ms (<= 200); "
        f"errors {errors} (0)"
    )
    return 0 if errors == 0 else 1


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "setup":
        rl.django_setup()
        print(json.dumps(build_event()))
    else:
        sys.exit(main())
