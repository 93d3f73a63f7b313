"""The table phone's rules engine: how long until its first answer (issue: the table page
offline; target: the first answer offline within 3 s).

    .venv/bin/python -m bench.phone_engine [--runs 3]

Starts the phone's engine (static/js/engine_core.mjs: Pyodide from node_modules, the engine's
zip the site serves) in Node, each start in a fresh process, to its first answer:
  - plainly, as a phone's first visit does (Pyodide's start-up, then every engine module);
  - from the start-up snapshot the first visit keeps (every later start, offline included).
Prints wall and CPU milliseconds, the snapshot's size raw and gzipped (what the phone keeps
beside Pyodide), and the load average. Chromium compiles the WebAssembly much as Node does;
tests/e2e/test_table_offline.py prints the same figure in the browser.
"""

from __future__ import annotations

import gzip
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
os.environ.setdefault("DEBUG", "1")


def start(zip_path: Path, snapshot: Path, mode: str) -> dict:
    run = subprocess.run(
        [
            "node",
            str(ROOT / "bench" / "phone_engine_start.mjs"),
            str(ROOT / "node_modules" / "pyodide"),
            str(zip_path),
            str(snapshot),
            mode,
        ],
        capture_output=True,
        text=True,
        timeout=300,
        check=True,
    )
    return json.loads(run.stdout.strip().splitlines()[-1])


def main() -> None:
    import argparse

    import django

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    args = parser.parse_args()
    django.setup()
    from tournaments.services import offline

    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        zip_path, snapshot = Path(tmp) / "engine.zip", Path(tmp) / "snapshot.bin"
        zip_path.write_bytes(offline.engine_bundle().data)
        made = start(zip_path, snapshot, "make")
        size = snapshot.stat().st_size
        packed = len(gzip.compress(snapshot.read_bytes(), 6))
        print(
            f"snapshot: {size / 1e6:.1f} MB, gzipped {packed / 1e6:.1f} MB "
            f"(made in a first start of {made['ms']} ms)"
        )
        for mode, label in (("plain", "first start (plain)"), ("snapshot", "from the snapshot")):
            runs = [start(zip_path, snapshot, mode) for _ in range(args.runs)]
            assert all(r["status"] == 200 for r in runs), runs
            assert all(r["from_snapshot"] == (mode == "snapshot") for r in runs), runs
            wall = [r["ms"] for r in runs]
            cpu = [r["cpu_ms"] for r in runs]
            target = "  target <= 3000 ms: " + ("ok" if max(wall) <= 3000 else "MISSED")
            print(
                f"{label:22} first answer {statistics.median(wall):6.0f} ms wall "
                f"(runs {', '.join(map(str, wall))}), {statistics.median(cpu):6.0f} ms CPU"
                f"{target if mode == 'snapshot' else ''}"
            )
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
