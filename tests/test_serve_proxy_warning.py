"""Issue 39: `make serve` (scripts/serve.sh) warns loudly when a reverse proxy is in front
(gunicorn on a loopback address, the README's layout) and TRUSTED_PROXIES is empty: every
client would then have the proxy's address, for the audit log and for login throttling.

The script runs from a copy in a folder of the test's own (it stops at its first check, no
database given), so a developer's var/paisai.env never shapes the answer."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def serve(tmp_path):
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "serve.sh", tmp_path / "scripts" / "serve.sh")

    def run(**env) -> subprocess.CompletedProcess:
        base = {
            k: v for k, v in os.environ.items() if k not in ("TRUSTED_PROXIES", "GUNICORN_BIND")
        }
        base.pop("DATABASE_URL", None)  # the script stops at its first check
        return subprocess.run(
            ["bash", str(tmp_path / "scripts" / "serve.sh")],
            env={**base, **env},
            capture_output=True,
            text=True,
            timeout=30,
        )

    return run


def test_rule_make_serve_warns_when_a_proxy_is_in_front_and_trusted_proxies_is_empty(serve):
    for bind in (None, "127.0.0.1:8000", "localhost:9000", "unix:/run/paisai.sock"):
        answer = serve(**({"GUNICORN_BIND": bind} if bind else {}))
        assert answer.returncode == 2 and "set DATABASE_URL" in answer.stderr  # stopped there
        assert "WARNING make serve: TRUSTED_PROXIES is empty" in answer.stderr, bind
        assert "TRUSTED_PROXIES=127.0.0.1" in answer.stderr
    # the proxy's address given, or no proxy (gunicorn on the venue's address): no warning
    for env in ({"TRUSTED_PROXIES": "127.0.0.1"}, {"GUNICORN_BIND": "0.0.0.0:8000"}):
        answer = serve(**env)
        assert answer.returncode == 2 and "WARNING" not in answer.stderr, env
