"""What a table phone keeps to work with no network: the rules engine as a zip for Pyodide
(the phone runs the same ``rules_engine`` as the server) and the service worker's list of
files, both named by a version made of their contents.

The zip and the version are built once per process from the files on disk (a deployment
restarts the processes), never per request. A new deployment changes the version: the
service worker (``static/js/offline_worker.js``, served at ``/sw.js``) then keeps the new
files in a new cache and drops the old one, so a phone never mixes old and new files.
"""

from __future__ import annotations

import hashlib
import io
import zipfile
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static

import rules_engine

PYODIDE_VERSION = "314.0.8"  # package.json pins the same (checked by a test)
PYODIDE_FILES = (
    "pyodide.mjs",
    "pyodide.asm.mjs",
    "pyodide.asm.wasm",
    "python_stdlib.zip",
    "pyodide-lock.json",
)
# the table page's and the rules desk's own files, kept for use with no network
PAGE_FILES = (
    "css/paisai.css",
    "js/clock.js",
    "js/paisai.js",
    "js/table_store.js",
    "js/table_deals.js",
    "js/table_match_end.js",
    "js/table_history.js",
    "js/table.js",
    "js/table_seating.js",
    "js/table_engine.js",
    "js/engine_client.js",
    "js/engine_core.mjs",
    "js/engine_worker.mjs",
    "js/desk.js",
    "js/desk_offline.js",
)
_ZIP_TIME = (2020, 1, 1, 0, 0, 0)  # fixed, so the same sources make the same zip


@dataclass(frozen=True)
class EngineBundle:
    data: bytes
    digest: str

    @property
    def name(self) -> str:
        return f"rules_engine-{self.digest[:16]}.zip"


@cache
def engine_bundle() -> EngineBundle:
    """The ``rules_engine`` package (its .py files and data) as a zip to unpack in Pyodide."""
    root = Path(rules_engine.__file__).resolve().parent
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(root.rglob("*")):
            if not path.is_file() or "__pycache__" in path.parts or path.suffix == ".pyc":
                continue
            info = zipfile.ZipInfo(str(Path("rules_engine") / path.relative_to(root)), _ZIP_TIME)
            info.compress_type = zipfile.ZIP_DEFLATED
            archive.writestr(info, path.read_bytes())
    data = buffer.getvalue()
    return EngineBundle(data, hashlib.sha256(data).hexdigest())


def pyodide_url(name: str = "") -> str:
    """A file of Pyodide: its folder is named by its version (config/settings.py), so a new
    Pyodide is new URLs."""
    return static(f"vendor/pyodide-{PYODIDE_VERSION}/{name}")


def pyodide_present() -> bool:
    """Pyodide is installed (``make install`` runs ``npm ci``); without it the table page
    works online only and says so."""
    return finders.find(f"vendor/pyodide-{PYODIDE_VERSION}/pyodide.mjs") is not None


@cache
def static_digest() -> str:
    """A digest of the kept files' contents (a new deployment gives a new one)."""
    digest = hashlib.sha256(engine_bundle().digest.encode())
    for name in PAGE_FILES:
        found = finders.find(name)
        digest.update(name.encode())
        if found:
            digest.update(Path(found).read_bytes())
    digest.update(PYODIDE_VERSION.encode())
    return digest.hexdigest()[:16]


def version() -> str:
    """The kept files' version: their digest, and the deployment's label when one is set
    (``PAISAI_DEPLOYMENT``, e.g. the release's commit)."""
    label = settings.PAISAI_DEPLOYMENT
    return f"{static_digest()}-{label}" if label else static_digest()


def kept_url(name: str, version: str) -> str:
    """A page file's URL named by the version, so a phone never mixes two versions' files."""
    return f"{static(name)}?v={version}"


def kept_files(version: str) -> list[str]:
    """The URLs the service worker keeps at install: the pages' own files (~0.3 MB)."""
    return [kept_url(name, version) for name in PAGE_FILES]


def engine_files(engine_url: str) -> list[str]:
    """The engine's files (its zip and Pyodide, ~13 MB): kept by the service worker as the
    phone's engine worker fetches them, not at install, so that a first visit downloads each
    once (the install and the engine worker each fetched the 9.6 MB wasm before; the page
    starts its engine worker once the service worker controls it, static/js/engine_client.js)."""
    urls = [engine_url]
    if pyodide_present():
        urls += [pyodide_url(name) for name in PYODIDE_FILES]
    return urls


def page_config(base: dict, lang: str) -> dict | None:
    """The table page's ``offline`` config: where the engine and Pyodide are, what the event
    adds to a record (``base``) and the page's language; None when Pyodide is not installed."""
    if not pyodide_present():
        return None
    from django.urls import reverse

    version_ = version()
    return {
        "sw": reverse("tournaments:service-worker"),
        "worker": kept_url("js/engine_worker.mjs", version_),
        "engine": reverse("tournaments:offline-engine", args=[engine_bundle().name]),
        "pyodide": pyodide_url(),
        "base": base,
        "lang": lang,
        "version": version_,
    }


def kept_bytes() -> int:
    """What a phone downloads once per version to work offline (for the README and the note)."""
    total = len(engine_bundle().data)
    for name in PAGE_FILES + tuple(f"vendor/pyodide-{PYODIDE_VERSION}/{n}" for n in PYODIDE_FILES):
        found = finders.find(name)
        if found:
            total += Path(found).stat().st_size
    return total
