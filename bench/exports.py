"""Seconds for the exports (run on the target machine: 2 cores).

    .venv/bin/python -m bench.exports [--tables 2500] [--teams 5000] [--processes 2]
                                      [--plain-tables N] [--plain-standings]

Scoresheets: ``--tables`` sheets (2,500: a 5,000-team round) rendered the way the Celery
job does it (chunks of 50 tables, each chunk holding only each table's own text, over
``--processes`` worker processes; the page every sheet shares is drawn once and stamped
under each page when the chunks are assembled), against
the same sheets rendered as one plain WeasyPrint document (every page drawn in full, one
process), timed in the same run. ``--plain-tables`` times the plain document on fewer
sheets and scales it linearly (the plain render is linear in pages; the default is every
sheet). Targets: <= 15 s with two processes, and at least 2x faster than plain.

Standings: ``--teams`` rows with the columns of a guandan standings table, to .xlsx
(target <= 1 s) and to PDF (one monospaced text block per page, one process, from a cold
start as in a fresh worker: the CJK font loads first; target <= 15 s). ``--plain-standings`` also times one plain HTML <table> of every row (slow).
The data are built in memory: loading standings from the database is bench.standings_service.

Printables (``--only printables``), rendered the way their Celery jobs do it (chunks over
``--processes`` worker processes, then concatenated): team badges with their QR (500 and
``--badges`` 5,000; target <= 60 s), the QR sheet and table cards (250 and ``--tables``
2,500 each; target <= 30 s each); linear: the time per item at the large count within 1.5x
of that at the small one, same run. Certificates: ``--prizes`` 100 certificates in one fresh
worker process (the CJK font loads first; target <= 10 s).
"""

from __future__ import annotations

import argparse
import os
import time

XLSX_TARGET, PDF_TARGET, SHEETS_TARGET, SPEEDUP_TARGET = 1.0, 15.0, 15.0, 2.0
BADGES_TARGET, PRINTABLES_TARGET, CERTIFICATES_TARGET, LINEAR_TARGET = 60.0, 30.0, 10.0, 1.5
EVENT = "2026 苏州掼蛋公开赛 Suzhou Guandan Open"


def setup_django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ.setdefault("PAISAI_DEV", "1")
    import django

    django.setup()


def sample_sheets(count: int):
    from tournaments.exporters.scoresheets import Sheet, SheetSet, Side

    sheets = [
        Sheet(
            table,
            Side(f"龙城掼蛋{table}队", "苏州市体育总会", (f"张{table}", f"王{table}")),
            Side(f"姑苏牌友{table}队", "无锡市棋牌协会", (f"李{table}", f"赵{table}")),
        )
        for table in range(1, count + 1)
    ]
    return SheetSet("2026 苏州掼蛋公开赛 Suzhou Guandan Open", 3, "guandan", "苏州体育中心", sheets)


def sample_standings(teams: int):
    from tournaments.exporters.tables import Column, Table

    columns = [
        Column("名次 Rank", 7, True),
        Column("队名 Team", 28),
        Column("单位 Unit", 24),
        Column("积分 Points", 9, True),
        Column("总级差 Level diff", 12, True),
        Column("相互胜负 Head-to-head", 12, True),
        Column("抽签 Lots", 12, True),
        Column("状态 Status", 10),
    ]
    rows = [
        (n, f"龙城掼蛋第{n}队", f"苏州市第{n % 97}单位", 180 - n // 30, 40 - n % 80, 0, n, "")
        for n in range(1, teams + 1)
    ]
    return Table("积分榜 Standings", "2026 苏州掼蛋公开赛", columns, rows, sheet_name="Final")


def timed(function, *args, **kwargs):
    start = time.perf_counter()
    result = function(*args, **kwargs)
    return time.perf_counter() - start, result


def pages(data: bytes) -> int:
    import io

    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(data)).pages)


def verdict(ok: bool) -> str:
    return "ok" if ok else "MISSED"


def _worker_init() -> None:
    """A bench worker process: Django set up and the fonts loaded, as in a running Celery
    worker."""
    setup_django()
    from django.utils import translation

    from tournaments.exporters import scoresheets

    translation.activate("zh-hans")
    scoresheets.fields_pdf(sample_sheets(1).sheets)


def _render_chunk(chunk) -> tuple[bytes, float]:
    """One chunk's PDF and the CPU seconds it took."""
    from tournaments.exporters import scoresheets

    start = time.process_time()
    data = scoresheets.fields_pdf(chunk)
    return data, time.process_time() - start


def render_like_the_job(sheet_set, pool) -> tuple[bytes, float, float]:
    """What the scoresheet job does, without the database: one task per chunk of
    CHUNK_SIZE tables on the worker processes, then the chunks assembled in one.
    Returns the PDF, the workers' CPU seconds and the assembly's."""
    from tournaments.exporters import scoresheets

    done = list(pool.map(_render_chunk, scoresheets.chunks(sheet_set.sheets)))
    start = time.process_time()
    data = scoresheets.assemble(sheet_set.header(), [part for part, _cpu in done])
    return data, sum(cpu for _part, cpu in done), time.process_time() - start


def bench_scoresheets(tables: int, processes: int, plain_tables: int | None) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    from tournaments.exporters import scoresheets

    sheet_set = sample_sheets(tables)
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(processes, mp_context=context, initializer=_worker_init) as pool:
        list(pool.map(_render_chunk, [sample_sheets(1).sheets] * processes))  # warm workers
        scoresheets.assemble(sheet_set.header(), [])  # the background page, warm
        load = os.getloadavg()[0]
        fast, (data, worker_cpu, assembly_cpu) = timed(render_like_the_job, sheet_set, pool)
    idle = worker_cpu / processes + assembly_cpu
    print(
        f"scoresheets, {tables} tables, {processes} worker processes "
        f"(chunks of {scoresheets.CHUNK_SIZE}): {fast:.1f} s at load {load:.1f} "
        f"({pages(data)} pages, {len(data) / 1e6:.1f} MB) target <= {SHEETS_TARGET:.0f} s: "
        f"{verdict(fast <= SHEETS_TARGET)}"
    )
    print(
        f"  CPU: workers {worker_cpu:.1f} s ({1000 * worker_cpu / tables:.1f} ms a sheet), "
        f"assembly {assembly_cpu:.1f} s -> on {processes} idle cores about {idle:.1f} s: "
        f"{verdict(idle <= SHEETS_TARGET)}"
    )
    sample = min(tables, plain_tables or tables)
    plain_set = sample_sheets(sample)
    plain, plain_data = timed(scoresheets.plain_pdf, plain_set.header(), plain_set.sheets)
    plain_total = plain * tables / sample
    scaled = "" if sample == tables else f" (timed on {sample}, scaled)"
    print(
        f"scoresheets, same sheets as one plain WeasyPrint document: {plain_total:.1f} s"
        f"{scaled}, {plain / sample:.3f} s a page ({pages(plain_data)} pages)"
    )
    speedup = plain_total / fast
    print(f"speed-up {speedup:.1f}x, target >= {SPEEDUP_TARGET:.0f}x: {verdict(speedup >= 2)}")


def sample_items(kind: str, start: int, stop: int):
    """Items ``start``..``stop`` of a printable, as its exporter builds them from the rows."""
    from tournaments.exporters import printables

    base = "https://paisai.example.org"
    if kind == "badges":
        return [
            printables.badge_card(
                EVENT,
                f"龙城掼蛋第{n}队",
                f"苏州市第{n % 97}单位",
                [f"张{n}", f"王{n}"],
                f"{base}/t/suzhou-open-2026/manage/checkin/team/{100000 + n}/",
            )
            for n in range(start, stop)
        ]
    if kind == "qr-sheet":
        return [
            printables.link_card(EVENT, n + 1, f"{base}/table/{'k' * 20}{n:06d}/")
            for n in range(start, stop)
        ]
    return [
        printables.table_card(EVENT, 3, n + 1, f"龙城掼蛋第{2 * n}队", f"姑苏牌友第{2 * n + 1}队")
        for n in range(start, stop)
    ]


def _render_printable(spec) -> tuple[bytes, float]:
    """One chunk of a printable (in a worker) and the CPU seconds it took."""
    from tournaments.exporters import printables

    kind, start, stop = spec
    began = time.process_time()
    items = sample_items(kind, start, stop)
    if kind == "table-cards":
        data = printables.render_table_cards(items)
    else:
        data = printables.render_grid(items)
    return data, time.process_time() - began


def printable_chunk(kind: str) -> int:
    from tournaments.exporters import printables

    cls = printables.TableCardsPdf if kind == "table-cards" else printables.TeamBadgesPdf
    return cls.chunk_size


def render_printable_like_the_job(kind: str, count: int, pool) -> tuple[bytes, float]:
    from tournaments.exporters import pdf

    size = printable_chunk(kind)
    specs = [(kind, start, min(count, start + size)) for start in range(0, count, size)]
    parts = list(pool.map(_render_printable, specs))
    began = time.process_time()
    data = pdf.concatenate([part for part, _cpu in parts])
    return data, sum(cpu for _part, cpu in parts), time.process_time() - began


def bench_printables(badges: int, tables: int, processes: int) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    context = multiprocessing.get_context("spawn")
    work = (
        ("badges", badges, BADGES_TARGET),
        ("qr-sheet", tables, PRINTABLES_TARGET),
        ("table-cards", tables, PRINTABLES_TARGET),
    )
    with ProcessPoolExecutor(processes, mp_context=context, initializer=_worker_init) as pool:
        for kind, _count, _target in work:  # warm every worker for every kind
            list(pool.map(_render_printable, [(kind, 0, 2)] * processes * 2))
        for kind, count, target in work:
            per_item, per_item_cpu = {}, {}
            for n in (count // 10, count):
                load = os.getloadavg()[0]
                seconds, (data, cpu, joined) = timed(render_printable_like_the_job, kind, n, pool)
                per_item[n] = seconds / n
                idle = cpu / processes + joined
                line = (
                    f"{kind}, {n} items, {processes} worker processes (chunks of "
                    f"{printable_chunk(kind)}): {seconds:.1f} s at load {load:.1f}, "
                    f"{1000 * seconds / n:.2f} ms an item ({pages(data)} pages, "
                    f"{len(data) / 1e6:.1f} MB)"
                )
                if n == count:
                    line += f" target <= {target:.0f} s: {verdict(seconds <= target)}"
                print(line)
                print(
                    f"    CPU: workers {cpu:.1f} s ({1000 * cpu / n:.2f} ms an item), assembly "
                    f"{joined:.1f} s -> on {processes} idle cores about {idle:.1f} s"
                )
                per_item_cpu[n] = idle / n
            ratio = per_item[count] / per_item[count // 10]
            cpu_ratio = per_item_cpu[count] / per_item_cpu[count // 10]
            print(
                f"  {kind} linearity: time an item at {count} / at {count // 10} = {ratio:.2f} "
                f"(CPU {cpu_ratio:.2f}), target <= {LINEAR_TARGET}: "
                f"{verdict(ratio <= LINEAR_TARGET)}"
            )


def _certificates(count: int) -> tuple[float, float, int]:
    """In a fresh worker process: ``count`` certificates as the job renders them, and the
    seconds the process spent before on its first (empty) PDF (loading the CJK font)."""
    began = time.perf_counter()
    setup_django()
    from django.utils import timezone, translation

    from tournaments.exporters.pdf import template_to_pdf
    from tournaments.exporters.prizes import Prize

    translation.activate("zh-hans")
    empty = {"event": {"name": EVENT}, "prizes": [], "today": None}
    template_to_pdf("pdf/certificates.html", empty, "prizes.css")
    warm = time.perf_counter() - began  # the CJK font loaded, as in a worker that ran a job
    prizes = [
        Prize(
            "一等奖" if n < 10 else "优胜奖",
            n + 1,
            f"龙城掼蛋第{n}队",
            f"苏州市第{n % 97}单位",
            f"张{n} · 王{n}",
            180 - n,
        )
        for n in range(count)
    ]
    context = {"event": {"name": EVENT}, "prizes": prizes, "today": timezone.localdate()}
    began = time.perf_counter()
    data = template_to_pdf("pdf/certificates.html", context, "prizes.css")
    return time.perf_counter() - began, warm, pages(data)


def bench_certificates(count: int) -> None:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        load = os.getloadavg()[0]
        seconds, warm, count_pages = pool.submit(_certificates, count).result()
    print(
        f"certificates, {count} prizes, one worker process: {seconds:.1f} s at load "
        f"{load:.1f} ({count_pages} pages; its start and CJK font load before: {warm:.1f} s) "
        f"target <= {CERTIFICATES_TARGET:.0f} s: {verdict(seconds <= CERTIFICATES_TARGET)}"
    )


def bench_standings(teams: int, plain: bool) -> None:
    from tournaments.exporters import pdf, table_pdf
    from tournaments.exporters.xlsx import workbook_bytes

    table = sample_standings(teams)
    seconds, data = timed(workbook_bytes, [table])
    print(
        f"standings .xlsx, {teams} teams: {seconds:.2f} s ({len(data) / 1e3:.0f} kB) "
        f"target <= {XLSX_TARGET:.0f} s: {verdict(seconds <= XLSX_TARGET)}"
    )
    seconds, data = timed(table_pdf.render_table, table)
    print(
        f"standings PDF, {teams} teams, one process: {seconds:.1f} s "
        f"({pages(data)} pages) target <= {PDF_TARGET:.0f} s: {verdict(seconds <= PDF_TARGET)}"
    )
    if plain:
        html = plain_table_html(table)
        seconds, data = timed(pdf.html_to_pdf, html, "table.css")
        print(f"standings PDF as one plain HTML table: {seconds:.1f} s ({pages(data)} pages)")


def plain_table_html(table) -> str:
    from django.utils.html import escape

    head = "".join(f"<th>{escape(c.label)}</th>" for c in table.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{escape('' if v is None else v)}</td>" for v in row) + "</tr>"
        for row in table.rows
    )
    return f"<table style='border-collapse:collapse'><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=2500)
    parser.add_argument("--teams", type=int, default=5000)
    parser.add_argument("--processes", type=int, default=2)
    parser.add_argument("--plain-tables", type=int, default=None)
    parser.add_argument("--plain-standings", action="store_true")
    parser.add_argument("--badges", type=int, default=5000)
    parser.add_argument("--prizes", type=int, default=100)
    parser.add_argument("--only", choices=("scoresheets", "standings", "printables"))
    args = parser.parse_args()
    setup_django()
    from django.utils import translation

    translation.activate("zh-hans")
    print(f"cores: {os.cpu_count()}, load average {os.getloadavg()[0]:.2f}")
    if args.only in (None, "scoresheets"):
        bench_scoresheets(args.tables, args.processes, args.plain_tables)
    if args.only in (None, "standings"):
        bench_standings(args.teams, args.plain_standings)
    if args.only in (None, "printables"):
        bench_printables(args.badges, args.tables, args.processes)
        bench_certificates(args.prizes)
    print(f"load average at the end {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
