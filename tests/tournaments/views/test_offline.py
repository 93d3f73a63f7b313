"""What a table phone keeps for use offline: the service worker at the site's root and the
rules engine's zip, each named by its version; a new deployment is a new version."""

from __future__ import annotations

import io
import json
import re
import zipfile

import pytest

from tournaments.services import offline


def sw_version(body: str) -> str:
    return json.loads('"' + re.search(r'const VERSION = "(.*?)";', body).group(1) + '"')


@pytest.mark.django_db
def test_the_service_worker_lists_the_kept_files_by_version_and_is_never_cached(client):
    answer = client.get("/sw.js")
    assert answer.status_code == 200
    assert answer["Content-Type"].startswith("text/javascript")
    assert answer["Cache-Control"] == "no-cache"
    body = answer.content.decode()
    version = offline.version()
    assert sw_version(body) == version
    kept = json.loads(re.search(r"const KEPT = (\[.*?\]);", body).group(1))
    assert f"/static/js/table_store.js?v={version}" in kept
    # the engine's files are kept as the engine worker fetches them, never at install (the
    # install and the worker each downloaded the 9.6 MB wasm on a first visit)
    engine = json.loads(re.search(r"const ENGINE = (\[.*?\]);", body).group(1))
    assert f"/engine/{offline.engine_bundle().name}" in engine
    assert any(url.endswith("pyodide.asm.wasm") for url in engine) == offline.pyodide_present()
    assert not [url for url in kept if "/engine/" in url or "pyodide" in url]


@pytest.mark.django_db
def test_a_new_deployment_label_is_a_new_version(client, settings):
    before = offline.version()
    settings.PAISAI_DEPLOYMENT = "r2"
    assert offline.version() == before + "-r2"
    assert sw_version(client.get("/sw.js").content.decode()) == before + "-r2"


@pytest.mark.django_db
def test_the_engine_zip_is_the_rules_engine_named_by_its_digest(client):
    bundle = offline.engine_bundle()
    answer = client.get(f"/engine/{bundle.name}")
    assert answer.status_code == 200 and "immutable" in answer["Cache-Control"]
    names = zipfile.ZipFile(io.BytesIO(answer.content)).namelist()
    assert "rules_engine/phone.py" in names and "rules_engine/chengyu/idioms.json" in names
    assert not [n for n in names if "__pycache__" in n]
    assert client.get("/engine/rules_engine-0000.zip").status_code == 404


def test_package_json_pins_the_pyodide_the_server_names():
    from django.conf import settings

    pinned = json.loads((settings.BASE_DIR / "package.json").read_text())["dependencies"]
    assert pinned["pyodide"] == offline.PYODIDE_VERSION
