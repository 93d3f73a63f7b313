"""Time and peak memory of the team import on hostile and on large files.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/paisai \\
        .venv/bin/python -m bench.imports [--rows 20000] [--unguarded]

Cases, each in a fresh process (so that its peak resident memory is its own):
  floor       Python + Django set up, the file read: what every case costs before it starts
  zip bomb    ~300 MB of empty rows in a zip of a few hundred kB: refused before parsing
  100k rows   100,000 good rows: refused by the row count before parsing
  20k rows    ``--rows`` good rows imported by the background job's code (run_import_job)
              into a scratch database, progress included
  unguarded   (``--unguarded``) the zip bomb read by openpyxl as before the checks, for
              comparison: slow and large
Prints seconds and peak RSS (MB) per case, and the increment over the floor.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

HEADER = ["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2", "种子 Seed"]
HEAD = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
)
TAIL = b"</sheetData></worksheet>"


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("PAISAI_DEV", "1")
    import django

    django.setup()


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def with_sheet(chunks) -> bytes:
    """An .xlsx (made by openpyxl) whose first sheet's XML is streamed from ``chunks``."""
    from openpyxl import Workbook

    book = Workbook()
    book.active.append(HEADER)
    base = io.BytesIO()
    book.save(base)
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(base.getvalue())) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as target,
    ):
        for info in source.infolist():
            if info.filename == "xl/worksheets/sheet1.xml":
                with target.open(info.filename, "w", force_zip64=True) as member:
                    for chunk in chunks:
                        member.write(chunk)
            else:
                target.writestr(info, source.read(info.filename))
    return out.getvalue()


def _cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def team_rows(count: int):
    yield HEAD
    header = "".join(_cell(f"{c}1", h) for c, h in zip("ABCD", HEADER, strict=False))
    yield f'<row r="1">{header}</row>'.encode()
    piece = []
    for n in range(1, count + 1):
        r = n + 1
        cells = _cell(f"A{r}", f"第{n}队") + _cell(f"B{r}", f"单位{n % 300}")
        cells += _cell(f"C{r}", f"张{n}") + _cell(f"D{r}", f"李{n}")
        piece.append(f'<row r="{r}">{cells}</row>')
        if len(piece) == 1000:
            yield "".join(piece).encode()
            piece = []
    yield "".join(piece).encode()
    yield TAIL


def empty_rows(megabytes: int):
    yield HEAD
    block = b"<row/>" * 50_000
    for _ in range(megabytes * 1024 * 1024 // len(block)):
        yield block
    yield TAIL


def run_case(case: str, path: str) -> dict:
    """In the child: run one case on the file at ``path``; the figures as a dict."""
    setup_django()
    data = Path(path).read_bytes()
    floor = peak_mb()
    start = time.perf_counter()
    outcome = ""
    if case == "floor":
        pass
    elif case == "unguarded":
        from openpyxl import load_workbook

        rows = sum(1 for _ in load_workbook(io.BytesIO(data), read_only=True).active.iter_rows())
        outcome = f"{rows} rows read"
    elif case == "import":
        outcome = import_in_scratch_database(data)
    else:
        from tournaments.services.registration_import import ImportFileError, check_import_file

        try:
            check_import_file(data)
            outcome = "accepted (!)"
        except ImportFileError as error:
            outcome = f"refused: {error}"
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "peak_mb": peak_mb(), "floor_mb": floor, "outcome": outcome}


def import_in_scratch_database(data: bytes) -> str:
    from django.utils import translation

    from bench.pairing_service import scratch_database
    from tournaments.models import Event, Job, Team
    from tournaments.services import registration_import as registration

    translation.activate("en")
    with scratch_database("imports"):
        event = Event.objects.create(
            name="Bench import", slug="bench-import", game="guandan", preset="guandan-suzhou-2016"
        )
        job = registration.create_import_job(event, None, data)
        start = time.perf_counter()
        registration.run_import_job(Job.objects.select_related("event").get(pk=job.pk))
        took = time.perf_counter() - start
        job.refresh_from_db()
        teams = Team.objects.filter(event=event).count()
        return (
            f"job {job.status} {job.progress}/{job.total}, {teams} teams "
            f"(the job alone {took:.1f} s; the rest is the scratch database)"
        )


def child(case: str, path: str) -> dict:
    process = subprocess.run(
        [sys.executable, "-m", "bench.imports", "--case", case, "--file", path],
        capture_output=True,
        text=True,
        check=False,
    )
    if process.returncode:
        return {"error": process.stderr[-1500:]}
    return json.loads(process.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=20_000)
    parser.add_argument("--unguarded", action="store_true")
    parser.add_argument("--case")
    parser.add_argument("--file")
    args = parser.parse_args()
    if args.case:
        print(json.dumps(run_case(args.case, args.file)))
        return
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as folder:
        files = {
            "bomb": with_sheet(empty_rows(300)),
            "100k": with_sheet(team_rows(100_000)),
            "rows": with_sheet(team_rows(args.rows)),
        }
        paths = {}
        for name, data in files.items():
            paths[name] = str(Path(folder) / f"{name}.xlsx")
            Path(paths[name]).write_bytes(data)
        sizes = {name: len(data) / 1024 for name, data in files.items()}
        cases = [
            ("floor", "floor", "rows", "Python + Django, the file read"),
            ("zip bomb", "check", "bomb", f"{sizes['bomb']:.0f} kB zip, ~300 MB unpacked"),
            ("100k rows", "check", "100k", f"{sizes['100k']:.0f} kB"),
            (f"{args.rows // 1000}k rows", "import", "rows", f"{sizes['rows']:.0f} kB"),
        ]
        if args.unguarded:
            cases.append(("unguarded bomb", "unguarded", "bomb", "openpyxl as before the checks"))
        for label, case, file, what in cases:
            result = child(case, paths[file])
            if "error" in result:
                print(f"{label}: FAILED\n{result['error']}")
                continue
            print(
                f"{label:>14} ({what}): {result['seconds']:.2f} s, peak {result['peak_mb']:.0f} MB "
                f"(+{result['peak_mb'] - result['floor_mb']:.0f} MB over the floor) "
                f"{result['outcome']}"
            )
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
