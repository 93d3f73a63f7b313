"""A venue box and a public mirror on throw-away PostgreSQL clusters (the mirror test and
bench/mirror.py): a primary and a hot standby made with ``initdb``/``pg_basebackup -R`` on
free ports of their own in a temporary folder (the main cluster is never touched), an app
process on each (the mirror's with PAISAI_MIRROR_OF), and the replication link cut and healed
the way an uplink drops: the standby's WAL receiver is pointed at a closed port (a reload,
no restart: the mirror keeps serving what it has) and back.

Run as root (a container), the clusters belong to the ``postgres`` user (``runuser``).
Inside Django: ``python -m tests.replication setup <teams>`` builds the event at the venue.
"""

from __future__ import annotations

import contextlib
import glob
import json
import os
import pwd
import random
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PY = sys.executable
SLUG = "mirror-cup"
PORTS = range(
    int(os.environ.get("PAISAI_TEST_PORT_LO", "8800")),
    int(os.environ.get("PAISAI_TEST_PORT_HI", "8900")),
)


def pg_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    if found:
        return Path(found[-1]).parent
    initdb = shutil.which("initdb")
    return Path(initdb).parent if initdb else None


def unavailable() -> str | None:
    """Why clusters cannot be built here (None: they can)."""
    if pg_bin() is None:
        return "initdb/pg_ctl not found (/usr/lib/postgresql/*/bin)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root without a postgres user"
        if shutil.which("runuser") is None:
            return "running as root without runuser"
    return None


def as_owner(args: list[str]) -> list[str]:
    """``args`` run as the clusters' owner (postgres when we are root)."""
    return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else args


def free_port(taken: set[int]) -> int:
    for port in random.sample(list(PORTS), len(PORTS)):
        if port in taken:
            continue
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", port))
            except OSError:
                continue
        taken.add(port)
        return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def wait_for(check, timeout: float, what: str, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while True:
        value = check()
        if value:
            return value
        if time.monotonic() > deadline:
            raise TimeoutError(f"{what}: not within {timeout} s")
        time.sleep(every)


class Cluster:
    def __init__(self, folder: Path, port: int, name: str):
        self.folder, self.port, self.name = folder, port, name
        self.data = folder / name
        self.log = folder / f"{name}.log"

    def ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess:
        command = [str(pg_bin() / "pg_ctl"), "-D", str(self.data), "-l", str(self.log), *args]
        return subprocess.run(as_owner(command), check=check, capture_output=True, text=True)

    def start(self) -> None:
        self.ctl("-w", "-t", "60", "start")

    def stop(self) -> None:
        self.ctl("-m", "fast", "-w", "stop", check=False)

    def url(self, db: str = "paisai") -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}/{db}"

    def query(self, sql: str, params=(), db: str = "paisai") -> list[tuple]:
        import psycopg

        with psycopg.connect(self.url(db), autocommit=True) as conn:
            cursor = conn.execute(sql, params)
            return cursor.fetchall() if cursor.description else []

    def configure(self, lines: list[str]) -> None:
        with (self.data / "postgresql.auto.conf").open("a") as conf:
            conf.write("".join(f"{line}\n" for line in lines))


class Venue:
    """The venue's primary and the mirror's hot standby, with an app process on each."""

    def __init__(self, fsync: bool = False):
        self.folder = Path(tempfile.mkdtemp(prefix="paisai-mirror-"))
        self.folder.chmod(0o755)
        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        self.taken: set[int] = set()
        self.primary = Cluster(self.folder, free_port(self.taken), "venue")
        self.standby = Cluster(self.folder, free_port(self.taken), "mirror")
        self.dead_port = free_port(self.taken)  # where a cut link points the WAL receiver
        self.fsync = fsync
        self.apps: dict[str, tuple[subprocess.Popen, int]] = {}

    # --- the clusters ----------------------------------------------------------------------

    def build(
        self,
        teams: int,
        workers: int = 0,
        rounds: int = 1,
        app_env: dict | None = None,
        mirror_env: dict | None = None,
    ) -> tuple[str, str, dict]:
        """The venue's cluster with the paisai schema and an event of ``teams`` teams (see
        :func:`build_event`), its hot standby, and an app on each (gunicorn with ``workers``
        workers, else runserver): (venue address, mirror address, the event). The apps start
        while the schema is migrated and the event built."""
        initdb = [
            str(pg_bin() / "initdb"),
            "-D",
            str(self.primary.data),
            "-U",
            "postgres",
            "--auth=trust",
            "-E",
            "UTF8",
            "--locale=C.UTF-8",
            "--no-sync",
        ]
        subprocess.run(as_owner(initdb), check=True, capture_output=True)
        self.primary.configure(self.settings(self.primary.port))
        self.primary.start()
        self.primary.query("CREATE DATABASE paisai", db="postgres")
        venue = self.start_app("venue", self.primary, workers=workers, env=app_env)
        subprocess.run(
            [PY, "manage.py", "migrate", "--noinput", "-v", "0"],
            cwd=ROOT,
            env=self.env(self.primary),
            check=True,
        )
        backup = [
            str(pg_bin() / "pg_basebackup"),
            "-h",
            "127.0.0.1",
            "-p",
            str(self.primary.port),
            "-U",
            "postgres",
            "-D",
            str(self.standby.data),
            "-R",
            "-X",
            "stream",
            "--checkpoint=fast",
            "--no-sync",
        ]
        subprocess.run(as_owner(backup), check=True, capture_output=True)
        self.standby.configure(
            [
                f"port = {self.standby.port}",
                "wal_receiver_timeout = '10s'",
                "wal_retrieve_retry_interval = '1s'",
            ]
        )
        self.standby.start()
        mirror = self.start_app(
            "mirror",
            self.standby,
            mirror_of=venue,
            workers=workers,
            env=(app_env or {}) | (mirror_env or {}),
        )
        event = self.setup_event(teams, rounds)
        wait_for(self.streaming, 30, "the standby streams from the venue")
        for base in (venue, mirror):
            wait_for(lambda base=base: _answers(base + "/"), 90, f"{base} starts", every=0.2)
        return venue, mirror, event

    def settings(self, port: int) -> list[str]:
        return [
            f"port = {port}",
            "listen_addresses = '127.0.0.1'",
            f"unix_socket_directories = '{self.folder}'",
            "max_connections = 60",
            "shared_buffers = '64MB'",
            f"fsync = {'on' if self.fsync else 'off'}",
            f"synchronous_commit = {'on' if self.fsync else 'off'}",
            "full_page_writes = off" if not self.fsync else "full_page_writes = on",
            "wal_level = replica",
            "max_wal_senders = 4",
            "wal_keep_size = '256MB'",  # a cut of minutes is caught up from the venue's WAL
            "hot_standby = on",
        ]

    def streaming(self) -> bool:
        rows = self.standby.query("SELECT status FROM pg_stat_wal_receiver")
        return bool(rows) and rows[0][0] == "streaming"

    def cut(self) -> None:
        """The uplink drops: the standby's WAL receiver goes to a port where nobody listens."""
        self.standby.configure(
            [
                f"primary_conninfo = 'host=127.0.0.1 port={self.dead_port} "
                "user=postgres connect_timeout=2'"
            ]
        )
        self.standby.ctl("reload")
        wait_for(lambda: not self.streaming(), 30, "the WAL receiver stops")

    def heal(self) -> None:
        """The uplink is back: the receiver's first address again (written by pg_basebackup)."""
        conf = self.standby.data / "postgresql.auto.conf"
        lines = conf.read_text().splitlines()
        conf.write_text("".join(f"{line}\n" for line in lines if str(self.dead_port) not in line))
        self.standby.ctl("reload")

    def caught_up(self) -> bool:
        """The standby has replayed everything the venue has written."""
        (target,) = self.primary.query("SELECT pg_current_wal_lsn()")[0]
        return self.replayed_to(str(target))

    def replayed_to(self, lsn: str) -> bool:
        rows = self.standby.query("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [lsn])
        return bool(rows[0][0])

    # --- the apps --------------------------------------------------------------------------

    def env(self, cluster: Cluster, mirror_of: str = "") -> dict:
        env = {
            k: v
            for k, v in os.environ.items()
            if not k.startswith(("PYTEST", "CACHE_URL", "CELERY_"))
        }
        return env | {
            "DATABASE_URL": cluster.url(),
            "SECRET_KEY": "mirror-test-" + "k" * 50,
            "DEBUG": "0",
            "ALLOWED_HOSTS": "127.0.0.1,localhost",
            "SECURE_SSL_REDIRECT": "0",
            "SESSION_COOKIE_SECURE": "0",
            "CSRF_COOKIE_SECURE": "0",
            "SECURE_HSTS_SECONDS": "0",
            "LOG_LEVEL": "ERROR",
            "PAISAI_MIRROR_OF": mirror_of,
            "DJANGO_SETTINGS_MODULE": "config.settings",
        }

    def start_app(
        self,
        name: str,
        cluster: Cluster,
        mirror_of: str = "",
        workers: int = 0,
        env: dict | None = None,
    ) -> str:
        """An app process on ``cluster``: ``manage.py runserver`` (or gunicorn with the load
        benches' settings when ``workers``); returns its address (it may still be starting)."""
        port = free_port(self.taken)
        if workers:
            command = [
                PY,
                "-m",
                "gunicorn",
                "config.wsgi",
                "-b",
                f"127.0.0.1:{port}",
                "-w",
                str(workers),
                "-k",
                "gthread",
                "--threads",
                "4",
                "--keep-alive",
                "30",
                "--log-level",
                "error",
            ]
        else:
            command = [PY, "manage.py", "runserver", "--noreload", f"127.0.0.1:{port}"]
        log = (self.folder / f"app-{name}.log").open("w")
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env=self.env(cluster, mirror_of) | (env or {}),
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
        self.apps[name] = (process, port)
        return f"http://127.0.0.1:{port}"

    def close(self) -> None:
        for process, _port in self.apps.values():
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 15)
        for process, _port in self.apps.values():
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(10)
        self.standby.stop()
        self.primary.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    def setup_event(self, teams: int, rounds: int = 1) -> dict:
        """The event at the venue (in the venue's database): ``teams`` teams, round 1 in play,
        a chief referee with an API token."""
        done = subprocess.run(
            [PY, "-m", "tests.replication", "setup", str(teams), str(rounds)],
            cwd=ROOT,
            env=self.env(self.primary),
            check=True,
            capture_output=True,
            text=True,
        )
        return json.loads(done.stdout.strip().splitlines()[-1])


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            return response.status < 500
    except urllib.error.HTTPError as err:
        return err.code < 500
    except OSError:
        return False


def http(
    method: str, url: str, body: dict | None = None, token: str = "", language: str = "zh-hans"
) -> tuple[int, dict, bytes]:
    """(status, headers, body) of one request."""
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method)
    request.add_header("Accept-Language", language)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", f"Token {token}")
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, dict(response.headers), response.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def legal_record(rng: random.Random) -> dict:
    """A Guandan match the rules engine accepts (six deals, finishing orders)."""
    sys.path.insert(0, str(ROOT))
    from rules_engine.api import score
    from rules_engine.errors import RulesError

    while True:
        deals = [{"finish": rng.sample(["E", "S", "W", "N"], 4)} for _ in range(6)]
        record = {"game": "guandan", "deals": deals}
        try:
            score(record)
            return record
        except RulesError:
            continue


def enter_result(base: str, token: str, match_id: int, record: dict) -> tuple[int, dict]:
    """The chief referee enters a match's result through the venue's API (it counts at once)."""
    status, _headers, body = http(
        "POST",
        f"{base}/api/tournaments/{SLUG}/matches/{match_id}/result/",
        {"record": record, "base_version": 0, "confirm": True},
        token,
    )
    return status, json.loads(body or b"{}")


# --- inside Django ---------------------------------------------------------------------------


def build_event(teams: int, rounds: int = 1) -> dict:
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments.models import Event, EventRole, Match, Round, RoundSlot, Team

    event = Event.objects.create(
        name="镜像杯掼蛋赛", slug=SLUG, game="guandan", preset="guandan-suzhou-2016", num_rounds=5
    )
    made = Team.objects.bulk_create(
        Team(event=event, name=f"第{i + 1:03d}队", seed=i + 1) for i in range(teams)
    )
    matches = []
    for number in range(1, rounds + 1):  # every round in play: results may come in for any
        rnd = Round.objects.create(event=event, number=number, status="in_play")
        order = made if number == 1 else random.Random(number).sample(made, len(made))
        played = Match.objects.bulk_create(
            Match(round=rnd, table_number=t + 1, home=order[2 * t], away=order[2 * t + 1])
            for t in range(teams // 2)
        )
        RoundSlot.objects.bulk_create(
            RoundSlot(round=rnd, match=m, team=team, side=side)
            for m in played
            for team, side in ((m.home, "EW"), (m.away, "NS"))
        )
        matches += played
    chief = get_user_model().objects.create_user("chief", password="mirror-" + "x" * 12)
    EventRole.objects.create(user=chief, event=event, role="chief_referee")
    token = Token.objects.create(user=chief)
    return {"matches": [m.pk for m in matches], "teams": [t.pk for t in made], "token": token.key}


if __name__ == "__main__":
    sys.path.insert(0, str(ROOT))
    if sys.argv[1:2] == ["setup"]:
        print(json.dumps(build_event(int(sys.argv[2]), int(sys.argv[3]))))
