"""Taps and seconds to enter a 9-deal Guandan match on the table page (a 390×844 phone).

What it does
  1. Migrates a fresh SQLite database in a temporary directory and loads the demo event
     (``load_demo``: referee1 referees tables 1–6, whose round-1 matches wait for results).
  2. Starts ``runserver`` on 127.0.0.1:BENCH_PORT (default 18500) and drives Debian's
     Chromium with Playwright as a referee would: log in, open table 1, tap the 9 deals
     (three seats per deal; a double up is two seats and 本副结束（双上）), submit.
  3. Prints the taps (every click the referee makes, login excluded), the seconds from the
     page being shown to the version being saved, the seconds per deal until the server's
     engine has checked it, and the load average (other work on the machine skews every
     figure). A floor measured in the same run: the same taps on a page that sends nothing
     (the server answer's share is the difference).
  4. Checks the database: one version holding the 9 deals.

Run: ``.venv/bin/python -m bench.table_entry`` (needs /usr/bin/chromium).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PORT = int(os.environ.get("BENCH_PORT", "18500"))
CHROMIUM = os.environ.get("PAISAI_CHROMIUM", "/usr/bin/chromium")

# (seats tapped, double up?) — a plausible match: nobody passes A within nine deals
DEALS = [
    (["E", "W"], True),
    (["S", "E", "N"], False),
    (["N", "S"], True),
    (["E", "S", "W"], False),
    (["W", "N", "E"], False),
    (["S", "W", "N"], False),
    (["E", "N", "W"], False),
    (["N", "E", "S"], False),
    (["W", "S", "E"], False),
]


def wait_for_server(url: str, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2)
            return
        except OSError:
            time.sleep(0.3)
    raise SystemExit(f"server at {url} did not start")


def main() -> None:
    tmp = Path(tempfile.mkdtemp(prefix="paisai-table-bench-"))
    env = os.environ | {
        "DEBUG": "1",
        "DATABASE_URL": f"sqlite:///{tmp / 'bench.sqlite3'}",
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("CELERY_BROKER_URL", None)
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0", "--noinput"], env=env, check=True, cwd=ROOT)
    subprocess.run([*manage, "load_demo"], env=env, check=True, cwd=ROOT, stdout=subprocess.DEVNULL)
    server = subprocess.Popen(
        [*manage, "runserver", f"127.0.0.1:{PORT}", "--noreload", "--nothreading"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        base = f"http://127.0.0.1:{PORT}"
        wait_for_server(base + "/")
        figures = drive(base)
    finally:
        server.terminate()
        server.wait(10)
    os.environ["DATABASE_URL"] = env["DATABASE_URL"]
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    os.environ["DEBUG"] = "1"
    import django

    django.setup()
    from tournaments.models import ResultVersion

    stored = list(ResultVersion.objects.filter(match__table_number=1, match__round__number=1))
    load = os.getloadavg()
    print("9-deal Guandan match on the table page (390×844 phone, Chromium, runserver+SQLite)")
    print(
        f"  taps: {figures['taps']} ({figures['seat_taps']} seat taps, "
        f"{figures['double_ups']} 双上, 1 submit)"
    )
    print(f"  seconds, page shown → version saved: {figures['total']:.2f}")
    per = figures["per_deal"]
    print(
        f"  seconds per deal until the engine's check is shown: median "
        f"{statistics.median(per):.3f}, max {max(per):.3f}"
    )
    print(
        f"  floor (same taps, the page answered locally): {figures['floor']:.2f} s; "
        f"ratio {figures['total'] / figures['floor']:.1f}x"
    )
    print(f"  load average: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    ok = len(stored) == 1 and len(stored[0].record["deals"]) == len(DEALS)
    print(
        f"  database: {len(stored)} version(s), "
        f"{len(stored[0].record['deals']) if stored else 0} deals — {'OK' if ok else 'WRONG'}"
    )
    if not ok:
        raise SystemExit(1)


def drive(base: str) -> dict:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"]
        )
        context = browser.new_context(
            viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True, locale="zh-CN"
        )
        page = context.new_page()
        page.goto(base + "/accounts/login/")
        page.fill("input[name=username]", "referee1")
        page.fill("input[name=password]", "paisai-demo")
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        page.goto(base + "/")
        link = page.locator("a[href^='/t/']").first.get_attribute("href")
        slug = link.split("/")[2]
        page.goto(f"{base}/t/{slug}/table/1/")
        page.wait_for_selector("#connection.ok")
        taps, per_deal = 0, []
        start = time.perf_counter()
        for i, (seats, double_up) in enumerate(DEALS):
            t0 = time.perf_counter()
            for seat in seats:
                page.click(f"button.seat[data-seat={seat}]")
                taps += 1
            if double_up:
                page.click("#send-deal")
                taps += 1
            page.wait_for_function(
                f"document.querySelector('#deal-list').dataset.checked === '{i + 1}'"
            )
            per_deal.append(time.perf_counter() - t0)
        page.click("#submit-result")
        taps += 1
        page.wait_for_function(
            f"document.querySelectorAll('#deal-list li[data-state=saved]').length === {len(DEALS)}"
        )
        total = time.perf_counter() - start
        # floor: the same clicks on a page whose every request is answered by the browser
        floor_page = context.new_page()
        floor_page.set_content(
            "<button id=b>x</button><script>var n=0;document.getElementById('b')"
            ".onclick=function(){n++;}</script>"
        )
        f0 = time.perf_counter()
        for _ in range(taps):
            floor_page.click("#b")
        floor = time.perf_counter() - f0
        browser.close()
    seat_taps = sum(len(s) for s, _ in DEALS)
    double_ups = sum(1 for _, d in DEALS if d)
    return {
        "taps": taps,
        "seat_taps": seat_taps,
        "double_ups": double_ups,
        "total": total,
        "per_deal": per_deal,
        "floor": floor,
    }


if __name__ == "__main__":
    main()
