"""The venue box whole (issue 39): `make serve` in production mode (DEBUG off, gunicorn with no
proxy in front, as scripts/venue-box.sh leaves it) serves its own static files through
WhiteNoise, compressed and, for Pyodide's versioned folder, cached for good; a phone on the
box's own address gets the table page with its styles, its scripts, the service worker and the
engine, and reloads it with no network. The bytes of the first and second visits are printed
(issue 40: each engine file fetched once; ≤ 8 MB on a first visit, ≤ 50 kB on a second)."""

from __future__ import annotations

import os
from types import SimpleNamespace

import pytest

from tests.factories import build_event
from tests.test_serve import PORT, serve  # noqa: F401
from tests.tournaments.test_tasks_worker import redis_broker  # noqa: F401

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.django_db(transaction=True),
]

BOX = SimpleNamespace(url=f"http://127.0.0.1:{PORT}")


def wire_bytes(page) -> dict:
    """Bytes on the wire per URL (headers and encoded bodies), requests from the page, its
    workers and its service worker alike (the context sees them all)."""
    seen: dict[str, int] = {}

    def done(request):
        try:
            sizes = request.sizes()
        except Exception:  # noqa: BLE001 - a request without a response (aborted)
            return
        total = sizes["responseBodySize"] + sizes["responseHeadersSize"]
        seen[request.url] = seen.get(request.url, 0) + total
        seen.setdefault("_fetches", {})
        seen["_fetches"][request.url] = seen["_fetches"].get(request.url, 0) + 1

    page.context.on("requestfinished", done)
    return seen


def test_the_venue_box_serves_a_phone_its_table_page_whole_and_offline(
    serve,  # noqa: F811
    phone,
    login,
    make_event,
    make_user,
    grant,
):
    import urllib.request

    from django.contrib.auth.hashers import PBKDF2PasswordHasher

    event = build_event(make_event, make_user, grant)
    # the box checks passwords with the production hasher (the tests' own is MD5)
    referee = event.referee
    hasher = PBKDF2PasswordHasher()
    referee.password = hasher.encode("pw-" + referee.username, hasher.salt())
    referee.save(update_fields=["password"])
    # the files themselves: compressed, and Pyodide's cached for good
    css = urllib.request.Request(
        f"{BOX.url}/static/css/paisai.css", headers={"Accept-Encoding": "br, gzip"}
    )
    with urllib.request.urlopen(css, timeout=30) as answer:
        assert answer.status == 200
        assert answer.headers["Content-Encoding"] == "br", serve.tail()
    wasm = urllib.request.Request(
        f"{BOX.url}/static/vendor/pyodide-314.0.8/pyodide.asm.wasm",
        headers={"Accept-Encoding": "br, gzip"},
    )
    with urllib.request.urlopen(wasm, timeout=30) as answer:
        body = answer.read()
        assert answer.headers["Content-Encoding"] == "br"
        assert "immutable" in answer.headers["Cache-Control"]
        assert answer.headers["Content-Type"] == "application/wasm"
        assert len(body) < 4_000_000  # 9.6 MB as sent before

    seen = wire_bytes(phone)
    login(phone, BOX, event.referee)
    assert "/accounts/login/" not in phone.url, (phone.inner_text("main")[:800], serve.tail())
    import time

    opened = time.monotonic()
    phone.goto(f"{BOX.url}/t/{event.event.slug}/table/1/")
    # the stylesheet applied (the page's own layout, not the browser's default) and the
    # scripts ran
    assert phone.evaluate("getComputedStyle(document.body).margin") == "0px"
    phone.wait_for_function("window.paisaiTable && window.paisaiTable.engine", timeout=30_000)
    phone.wait_for_function("window.paisaiTable.engine.status() === 'ready'", timeout=180_000)
    ready = time.monotonic() - opened
    phone.wait_for_function("window.paisaiTable.offlineKept === true", timeout=120_000)
    first = sum(v for k, v in seen.items() if k != "_fetches")
    fetches = dict(seen["_fetches"])
    engine_files = [u for u in fetches if "pyodide.asm.wasm" in u or "/engine/" in u]
    assert engine_files, fetches
    # each engine file crossed the network once (Playwright counts the service worker's fetch
    # of a file the engine worker asked for as a second request of the same URL, with no
    # bytes of its own when it was answered from the first)
    wasm_bytes = sum(v for k, v in seen.items() if k.endswith("pyodide.asm.wasm"))
    assert wasm_bytes < 4_000_000, wasm_bytes

    seen.clear()
    again = time.monotonic()
    phone.reload()
    phone.wait_for_function("window.paisaiTable.engine.status() === 'ready'", timeout=120_000)
    ready_again = time.monotonic() - again
    second = sum(v for k, v in seen.items() if k != "_fetches")

    phone.context.set_offline(True)
    phone.reload()
    phone.wait_for_selector("#levels-ew")
    assert "ERR_INTERNET_DISCONNECTED" not in phone.content()
    phone.wait_for_function("window.paisaiTable.engine.status() === 'ready'", timeout=120_000)
    phone.context.set_offline(False)
    print(
        f"venue box, production mode: first visit {first / 1e6:.2f} MB on the wire "
        f"(the wasm {wasm_bytes / 1e6:.2f} MB), second {second / 1e3:.1f} kB; engine ready "
        f"{ready:.1f} s after the first visit's page opened, {ready_again:.1f} s on the second; "
        f"fetches of each engine file {sorted(set(fetches[u] for u in engine_files))}; "
        f"load {os.getloadavg()[0]:.1f}"
    )
