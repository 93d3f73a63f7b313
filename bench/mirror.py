"""A public mirror under a venue taking results at 50 per second (issue 30's figures).

What it does
  1. Builds a venue primary and a hot standby on throw-away clusters (tests/replication.py:
     initdb, pg_basebackup -R, ports of 8800-8899, fsync on) with a BENCH_TEAMS-team Guandan
     event (default 5,000; five rounds in play, no result yet), gunicorn on each (BENCH_WORKERS gthread
     workers, default 4, x 4 threads; the mirror with PAISAI_MIRROR_OF and its own Redis cache,
     BENCH_REDIS_URL, default db 8).
  2. Lag: the chief referee's API submissions at 50/s to the venue (a separate process,
     paced, each a confirmed result) for LAG_SECONDS, while the venue's pg_stat_replication
     is sampled every 0.5 s: replay lag (time) and bytes not yet replayed.
  3. Public pages on the mirror (bench/public_load.py's driver: 50 keep-alive clients, full
     speed) while the venue goes on taking 50 results/s: the mirror's login page (which only
     says "log in at the venue": the floor), then the pairings, standings, a team page, the
     projector, find-my-table and their JSON; throughput and the ratio to the floor.
  4. Cut and catch-up: the standby's WAL receiver cut for CUT_SECONDS (default 60) while the
     venue takes 50 results/s, then healed; the time until the standby has replayed all the
     venue's WAL and until the mirror's standings API shows the venue's revision; the WAL the
     cut left behind and the replay rate, extrapolated to a 10-minute cut.
  5. Prints the load average (the machine is shared: run twice, compare at similar load).

Run: ``.venv/bin/python -m bench.mirror`` (BENCH_TEAMS, BENCH_CUT_SECONDS, BENCH_REQUESTS).
"""

from __future__ import annotations

import http.client
import json
import multiprocessing
import os
import random
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import quote

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench import public_load as pl  # noqa: E402
from tests import replication as rep  # noqa: E402

TEAMS = int(os.environ.get("BENCH_TEAMS", "5000"))
ROUNDS = 5
RATE = 50
LAG_SECONDS = int(os.environ.get("BENCH_LAG_SECONDS", "30"))
CUT_SECONDS = int(os.environ.get("BENCH_CUT_SECONDS", "60"))
REQUESTS = int(os.environ.get("BENCH_REQUESTS", "600"))
REDIS = os.environ.get("BENCH_REDIS_URL", "redis://127.0.0.1:6379/8")
PAGE_SECONDS = int(os.environ.get("BENCH_PAGE_SECONDS", "100"))
WORKERS = int(os.environ.get("BENCH_WORKERS", "4"))
WRITERS = 10  # connections sharing the 50/s


def writer(base: str, token: str, matches: list[int], rate: float, seconds: float, out) -> None:
    """Confirmed results at ``rate`` a second for ``seconds`` (one process, WRITERS threads,
    each on a keep-alive connection): sends (ok, errors, p50 ms, p95 ms) to ``out``."""
    host, port = base.removeprefix("http://").split(":")
    start = time.perf_counter() + 0.2
    total = min(int(rate * seconds), len(matches))
    jobs = iter(range(total))
    lock = threading.Lock()
    latencies: list[float] = []
    errors: list[str] = []
    rng = random.Random(7)
    records = [rep.legal_record(rng) for _ in range(64)]

    def run() -> None:
        conn = http.client.HTTPConnection(host, int(port), timeout=10)
        while True:
            with lock:
                i = next(jobs, None)
            if i is None:
                break
            scheduled = start + i / rate
            time.sleep(max(0.0, scheduled - time.perf_counter()))
            body = json.dumps({"record": records[i % 64], "base_version": 0, "confirm": True})
            try:
                conn.request(
                    "POST",
                    f"/api/tournaments/{rep.SLUG}/matches/{matches[i]}/result/",
                    body,
                    {"Content-Type": "application/json", "Authorization": f"Token {token}"},
                )
                answer = conn.getresponse()
                answer.read()
                if answer.status != 201:
                    errors.append(str(answer.status))
            except (OSError, http.client.HTTPException) as err:
                errors.append(type(err).__name__)
                conn.close()
                conn = http.client.HTTPConnection(host, int(port), timeout=10)
            latencies.append((time.perf_counter() - scheduled) * 1000)
        conn.close()

    threads = [threading.Thread(target=run) for _ in range(WRITERS)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    q = statistics.quantiles(latencies, n=100) if len(latencies) > 1 else [0.0] * 99
    took = time.perf_counter() - start
    out.put((len(latencies) - len(errors), errors[:5], len(errors), q[49], q[94], took))


class Results:
    """The venue's results at 50/s in a process of their own, from the next unused match."""

    def __init__(self, base: str, token: str, matches: list[int]):
        self.base, self.token, self.matches, self.used = base, token, matches, 0
        self.queue: multiprocessing.Queue = multiprocessing.Queue()

    def start(self, seconds: float) -> multiprocessing.Process:
        count = int(RATE * seconds)
        chunk = self.matches[self.used : self.used + count]
        self.used += count
        process = multiprocessing.Process(
            target=writer, args=(self.base, self.token, chunk, RATE, seconds, self.queue)
        )
        process.start()
        return process

    def finish(self, process: multiprocessing.Process) -> str:
        process.join()
        ok, errors, failed, p50, p95, took = self.queue.get()
        note = f" errors {failed} {errors}" if failed else ""
        return (
            f"{ok} results stored in {took:.0f} s ({ok / took:.0f}/s), p50 {p50:.0f} ms, "
            f"p95 {p95:.0f} ms{note}"
        )


def sample_lag(cluster: rep.Venue, stop: threading.Event, samples: list) -> None:
    """(replay lag s, bytes not replayed) from the venue's pg_stat_replication, every 0.5 s."""
    sql = """SELECT EXTRACT(EPOCH FROM COALESCE(replay_lag, '0'))::float,
                    pg_wal_lsn_diff(pg_current_wal_lsn(), replay_lsn)::bigint
             FROM pg_stat_replication"""
    while not stop.wait(0.5):
        rows = cluster.primary.query(sql)
        if rows:
            samples.append(rows[0])


def quantile(values: list[float], q: int) -> float:
    return statistics.quantiles(values, n=100)[q - 1] if len(values) > 1 else (values or [0])[0]


def main() -> int:  # noqa: PLR0915 (one bench, one story)
    print(
        f"mirror bench: {TEAMS} teams, {ROUNDS} rounds in play, results at {RATE}/s, gunicorn "
        f"{WORKERS} gthread workers x 4 threads on each site, {os.cpu_count()} CPUs; "
        f"load {os.getloadavg()[0]:.2f}"
    )
    import redis

    redis.Redis.from_url(REDIS).flushdb()
    cluster = rep.Venue(fsync=True)
    try:
        t0 = time.perf_counter()
        venue, mirror, event = cluster.build(
            TEAMS,
            workers=WORKERS,
            rounds=ROUNDS,
            app_env={"DB_CONN_MAX_AGE": "600"},
            mirror_env={"CACHE_URL": REDIS},
        )
        print(f"clusters, schema, event and both sites in {time.perf_counter() - t0:.0f} s")
        results = Results(venue, event["token"], event["matches"])
        warm = results.start(2)  # the venue's first requests
        results.finish(warm)

        # 2. replication lag at 50 results/s
        samples: list[tuple[float, int]] = []
        stop = threading.Event()
        sampler = threading.Thread(target=sample_lag, args=(cluster, stop, samples))
        sampler.start()
        load = os.getloadavg()[0]
        writing = results.start(LAG_SECONDS)
        written = results.finish(writing)
        stop.set()
        sampler.join()
        lags = [lag * 1000 for lag, _bytes in samples]
        behind = [b for _lag, b in samples]
        print(
            f"lag at {RATE}/s for {LAG_SECONDS} s: {written}; replay lag p50 "
            f"{quantile(lags, 50):.0f} ms, p95 {quantile(lags, 95):.0f} ms, max "
            f"{max(lags, default=0):.0f} ms; WAL not yet replayed p50 "
            f"{quantile(behind, 50) / 1024:.0f} KiB, max {max(behind, default=0) / 1024:.0f} "
            f"KiB ({len(samples)} samples, load {load:.2f})"
        )

        # 3. the mirror's public pages while the venue takes 50 results/s
        port = int(mirror.rsplit(":", 1)[1])
        server = cluster.apps["mirror"][0]
        base, api = f"/t/{rep.SLUG}", f"/api/tournaments/{rep.SLUG}/public"
        team = event["teams"][len(event["teams"]) // 2]
        pages = {
            "pairings": [f"{base}/pairings/"],
            "standings": [f"{base}/standings/"],
            "team page": [f"{base}/teams/{team}/"],
            "projector": [f"{base}/projector/"],
            "find my table": [f"{base}/find/?q={quote(q)}" for q in ("第0123队", "第4567队")],
            "API standings": [f"{api}/standings/"],
            "API pairings": [f"{api}/pairings/"],
        }
        for paths in pages.values():
            for path in paths:
                pl.etag_of(port, path)
        seconds = PAGE_SECONDS  # long enough for every phase below (stopped when they end)
        writing = results.start(seconds)
        pl.phase(port, server, [("/accounts/login/", "")], total=200)  # warm every thread
        floor = pl.phase(port, server, [("/accounts/login/", "")], total=REQUESTS)
        pl.line("mirror login page (floor)", floor, None)
        rates = {}
        for name, paths in pages.items():
            result = pl.phase(port, server, [(path, "") for path in paths], total=REQUESTS)
            pl.line(f"mirror {name}", result, floor["rate"])
            rates[name] = result["rate"]
        again = pl.phase(port, server, [("/accounts/login/", "")], total=REQUESTS)
        pl.line("mirror login page again", again, None)
        if writing.is_alive():
            writing.terminate()
            print("venue results during the page phases: writer stopped at the end")
        else:
            print(f"venue results during the page phases: {results.finish(writing)}")
        floor_rate = (floor["rate"] + again["rate"]) / 2
        worst = min(rates, key=rates.get)
        print(
            f"slowest public page on the mirror: {worst} {rates[worst] / floor_rate:.2f}x the "
            f"mirror's login page (>= 0.5)"
        )

        # 4. a cut of CUT_SECONDS at 50 results/s, then the catch-up
        rep.wait_for(cluster.caught_up, 120, "the mirror catches up before the cut")
        (start_lsn,) = cluster.primary.query("SELECT pg_current_wal_lsn()::text")[0]
        cluster.cut()
        load = os.getloadavg()[0]
        writing = results.start(CUT_SECONDS)
        written = results.finish(writing)
        (end_lsn, wal) = cluster.primary.query(
            "SELECT pg_current_wal_lsn()::text, pg_wal_lsn_diff(pg_current_wal_lsn(), %s)",
            [start_lsn],
        )[0]
        venue_revision = pl_json(venue, f"{api}/standings/?page_size=1")["revision"]
        healed = time.perf_counter()
        cluster.heal()
        rep.wait_for(lambda: cluster.replayed_to(end_lsn), 600, "catch-up", every=0.05)
        replayed = time.perf_counter() - healed
        rep.wait_for(
            lambda: pl_json(mirror, f"{api}/standings/?page_size=1")["revision"] >= venue_revision,
            120,
            "the mirror's standings",
            every=0.1,
        )
        visible = time.perf_counter() - healed
        wal = float(wal)
        rate = wal / replayed if replayed else 0
        print(
            f"cut of {CUT_SECONDS} s at {RATE}/s: {written}; WAL left behind "
            f"{wal / 2**20:.1f} MiB ({wal / CUT_SECONDS / 1024:.0f} KiB/s); healed → replayed in "
            f"{replayed:.1f} s (incl. reconnect; {rate / 2**20:.1f} MiB/s), the venue's "
            f"standings on the mirror after {visible:.1f} s (load {load:.2f})"
        )
        ten = wal * 600 / CUT_SECONDS
        print(
            f"a 10-minute cut at {RATE}/s, extrapolated: {ten / 2**20:.0f} MiB of WAL (keep it: "
            f"wal_keep_size or a replication slot), replayed in about {ten / rate:.0f} s at the "
            f"rate above"
            if rate
            else ""
        )
    finally:
        cluster.close()
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0


def pl_json(base: str, path: str) -> dict:
    status, _headers, body = rep.http("GET", base + path)
    if status != 200:
        raise RuntimeError(f"{path}: {status} {body[:200]!r}")
    return json.loads(body)


if __name__ == "__main__":
    sys.exit(main())
