"""Shared fixtures: the factories (tests/factories.py) as fixtures, API clients, a clean cache
and English service messages for every test."""

from __future__ import annotations

import os

import pytest
from hypothesis import settings
from rest_framework.test import APIClient

from tests import factories

# CI runs the same hypothesis examples every time (a red build is reproducible); developers
# get fresh random examples on each run.
settings.register_profile("ci", derandomize=True, deadline=None, database=None, print_blob=True)
settings.register_profile("dev", deadline=None)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture
def make_user(db):
    return factories.user


@pytest.fixture
def make_event(db):
    return factories.event


@pytest.fixture
def grant(db):
    return factories.grant


@pytest.fixture
def media(settings, tmp_path):
    """Files (exports, uploads) go to a folder of this test."""
    settings.MEDIA_ROOT = str(tmp_path / "media")
    return tmp_path / "media"


@pytest.fixture
def chinese_event(db, media):
    return factories.chinese_event()


@pytest.fixture
def event(make_event, make_user, grant):
    return factories.build_event(make_event, make_user, grant)


@pytest.fixture
def api():
    """An API client that asks for English answers (the API speaks Chinese by default)."""
    return APIClient(HTTP_ACCEPT_LANGUAGE="en")


@pytest.fixture
def api_as(api):
    def login(user):
        api.force_authenticate(user)
        return api

    return login


# The sweeps, walks, real workers, servers, installs and clusters: `make test` runs them, `make test-fast` does not
# (with the browser tests, marked e2e in tests/e2e/conftest.py). One list, here.
SLOW_FILES = (
    "tests/config/test_malformed_sweep.py",
    "tests/config/test_api_schema.py",
    "tests/config/test_form_fuzz.py",
    "tests/config/test_query_path_sweep.py",
    "tests/config/test_xlsx_fuzz.py",
    "tests/tournaments/views/test_forms_sweep.py",
    "tests/test_vocabulary.py",
    "tests/test_vocabulary_exports.py",
    "tests/tournaments/test_tasks_worker.py",
    "tests/tournaments/test_tasks_broker_faults.py",
    "tests/tournaments/test_files_two_hosts.py",
    "tests/tournaments/test_mirror_replication.py",
    "tests/test_serve.py",
    "tests/e2e/test_venue_box.py",
    "tests/test_install.py",
    "tests/test_sqlite_migrations.py",
    "tests/rules_engine/test_phone_parity.py",
    "tests/test_architecture.py",
)


# Tests that hold something only one process may use at a time: a Redis database they flush
# or a broker queue (real Celery workers), fixed ports, their own Redis server or PostgreSQL
# clusters. `make test` runs the suite over two processes (pytest-xdist, --dist loadgroup);
# these files all run in one of them, one after another. One list, here.
SERIAL_FILES = (
    "tests/test_serve.py",
    "tests/e2e/test_venue_box.py",
    "tests/test_install.py",
    "tests/config/test_redis_outage.py",
    "tests/tournaments/test_tasks_worker.py",
    "tests/tournaments/test_files_two_hosts.py",
    "tests/tournaments/test_tasks_broker_faults.py",
    "tests/tournaments/test_mirror_replication.py",
)


def pytest_ignore_collect(collection_path, config):
    """``-m "not e2e and not slow"`` (make test-fast) does not even import the files it would
    deselect: collecting the schema sweep alone took 16 s in each process."""
    marks = config.option.markexpr or ""
    path = str(collection_path)
    if "not slow" in marks and path.endswith(SLOW_FILES):
        return True
    if "not e2e" in marks and f"{os.sep}tests{os.sep}e2e" in path:
        return True
    return None


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups (its hook would run first)
def pytest_collection_modifyitems(config, items):
    """Tests in SLOW_FILES are marked ``slow``; tests in SERIAL_FILES run in one process
    (``xdist_group``). Tests marked ``postgres`` need PostgreSQL (CI runs the suite there);
    skip them on SQLite."""
    from django.db import connection

    for item in items:
        path = str(item.fspath)
        if path.endswith(SLOW_FILES):
            item.add_marker(pytest.mark.slow)
        if path.endswith(SERIAL_FILES):
            item.add_marker(pytest.mark.xdist_group("serial"))
    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL (set DATABASE_URL; CI does)")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


def pytest_runtest_setup(item):
    """Under ``--dist loadgroup`` pytest-xdist tells its scheduler a test's group by the suffix
    ``@serial`` on its node id. When a pytest release ignores that (pytest 9.2 with
    pytest-xdist 3.8 did: the serial files then ran in both processes at once, one restarting
    Redis under the other's worker), each serial test fails saying so rather than flake."""
    if not getattr(item.config.option, "loadgroup", False):
        return
    if item.get_closest_marker("xdist_group") and not item.nodeid.endswith("@serial"):
        pytest.fail(
            "this test of SERIAL_FILES lost its xdist group, so it may run beside another "
            "serial test: pytest and pytest-xdist disagree on node ids; pin a pair that groups",
            pytrace=False,
        )


@pytest.fixture(autouse=True)
def _english_outside_requests():
    """Service code (no request) speaks the active language; tests read its English messages.
    Pages still choose their language per request (Chinese by default) via LocaleMiddleware."""
    from django.utils import translation

    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def _clean_cache():
    """Memoised standings or pages of an earlier test never answer for this one."""
    from django.core.cache import cache

    from tournaments.services import public_cache

    cache.clear()
    public_cache.forget_held()
    yield
    cache.clear()
    public_cache.forget_held()


@pytest.fixture(scope="session")
def private_redis(tmp_path_factory):
    """A Redis server of this test process's own on a free port (tests/redis_server.py), as
    ``redis://127.0.0.1:<port>`` (add ``/<db>``): the tests that need a real Redis flush and
    restart only this one, never the 6379 a developer's or a venue's site runs on."""
    from tests.redis_server import OwnRedis

    server = OwnRedis(tmp_path_factory.mktemp("redis"))
    server.start()
    try:
        yield server.url
    finally:
        server.stop()
