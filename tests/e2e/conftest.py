"""Browser tests: Playwright drives Debian's Chromium (/usr/bin/chromium), never a downloaded browser.

Fixtures: ``browser`` (session), ``phone`` (a 390×844 touch page), ``desktop`` (1920×1080 page),
``login(page, live_server, user)``. Pages talk to pytest-django's ``live_server``.
"""

from __future__ import annotations

import os
import shutil
import time

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

# Playwright's sync API runs an event loop in this thread; the ORM calls in test bodies are safe.
os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

CHROMIUM = os.environ.get("PAISAI_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-dev-shm-usage",
]


def pytest_collection_modifyitems(items):
    for item in items:
        if "/e2e/" in str(item.fspath):
            item.add_marker(pytest.mark.e2e)


@pytest.fixture(scope="session")
def browser():
    if not shutil.which(CHROMIUM) and not os.path.exists(CHROMIUM):
        pytest.fail(
            f"Chromium not found at {CHROMIUM}: run scripts/system-deps.sh (make test does)."
        )
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
        )
        yield browser
        browser.close()


def watch_csp(page) -> list[str]:
    """Every page of every browser test passes the Content-Security-Policy: the browser
    reports each blocked script, style or connection on the console; the test fails."""
    violations: list[str] = []

    def note(message):
        if "Content Security Policy" in message.text:
            violations.append(f"{page.url}: {message.text}")

    page.on("console", note)
    csp_safe_waits(page)
    return violations


def csp_safe_waits(page) -> None:
    """``wait_for_function`` polls its predicate with ``eval`` inside the page, which the
    policy forbids (no 'unsafe-eval'); this one asks the page from outside instead."""

    def wait_for_function(expression, *, arg=None, timeout=None, polling=None):
        deadline = time.monotonic() + (timeout or 10_000) / 1000
        while True:
            value = page.evaluate(expression, arg)
            if value:
                return value
            if time.monotonic() > deadline:
                raise PlaywrightTimeout(f"wait_for_function timed out: {expression}")
            page.wait_for_timeout(polling if isinstance(polling, int | float) else 50)

    page.wait_for_function = wait_for_function


@pytest.fixture
def phone(browser):
    context = browser.new_context(
        viewport={"width": 390, "height": 844},
        device_scale_factor=2,
        is_mobile=True,
        has_touch=True,
        locale="zh-CN",
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    violations = watch_csp(page)
    yield page
    context.close()
    assert violations == [], violations


@pytest.fixture
def desktop(browser):
    context = browser.new_context(viewport={"width": 1920, "height": 1080}, locale="zh-CN")
    page = context.new_page()
    page.set_default_timeout(10_000)
    violations = watch_csp(page)
    yield page
    context.close()
    assert violations == [], violations


@pytest.fixture
def login():
    def do_login(page, live_server, user, password: str | None = None):
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", user.username)
        page.fill("input[name=password]", password or "pw-" + user.username)
        page.click("main button[type=submit]")
        page.wait_for_load_state()
        return page

    return do_login


@pytest.fixture
def table(live_server, phone, login, make_event, make_user, grant):
    """The results area's event on table 1's page, the table referee logged in on a phone."""
    from tests.factories import build_event

    event = build_event(make_event, make_user, grant)
    login(phone, live_server, event.referee)
    event.url = f"{live_server.url}/t/{event.event.slug}/table/1/"
    phone.goto(event.url)
    # the page's first requests (the saved version, the engine's start) are done before a
    # test writes to the database beside them
    phone.wait_for_load_state("networkidle")
    return event


def confirm_dialog(page, *names: str) -> str:
    """Answer a confirmation dialog (static/js/confirm_dialog.js) with its OK button, after
    checking that it names each of ``names`` and that its buttons are thumb-sized; returns
    the dialog's text."""
    dialog = page.locator("dialog.confirm-dialog")
    dialog.wait_for()
    text = dialog.inner_text()
    for name in names:
        assert name in text, (name, text)
    ok = dialog.locator(".confirm-ok")
    assert ok.bounding_box()["height"] >= 44
    ok.click()
    return text
