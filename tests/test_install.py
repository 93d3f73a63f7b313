"""The project installs without any extra (``pip install .`` in a fresh venv, as a
production host does) and every module of config, tournaments, arbitration and
rules_engine imports there: no runtime import may live only in the dev or bench extras
(pypdf did: the PDF exporters import it)."""

from __future__ import annotations

import ast
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("config", "tournaments", "arbitration", "rules_engine")

IMPORT_ALL = textwrap.dedent(
    """
    import importlib, pkgutil, sys
    import django
    django.setup()
    failed, count = [], 0
    for name in {packages!r}:
        package = importlib.import_module(name)
        assert "site-packages" in package.__file__, package.__file__  # the installed copy
        for info in pkgutil.walk_packages(package.__path__, name + "."):
            if info.name.endswith(".__main__"):  # a command line, run not imported
                continue
            count += 1
            try:
                importlib.import_module(info.name)
            except (Exception, SystemExit) as error:  # noqa: BLE001
                failed.append(f"{{info.name}}: {{type(error).__name__}}: {{error}}")
    for name in {lazy!r}:  # imported inside functions (WeasyPrint, pypdf …): not seen above
        try:
            importlib.import_module(name)
        except Exception as error:  # noqa: BLE001
            failed.append(f"{{name}} (imported lazily): {{type(error).__name__}}: {{error}}")
    print(count, "modules")
    if failed:
        print("\\n".join(failed))
        sys.exit(1)
    """
)


def lazy_imports() -> list[str]:
    """Every top-level module the packages import anywhere (in a function body too), less
    the standard library and the packages themselves."""
    found: set[str] = set()
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Import):
                    found.update(alias.name.split(".")[0] for alias in node.names)
                elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                    found.add(node.module.split(".")[0])
    return sorted(found - set(sys.stdlib_module_names) - set(PACKAGES) - {"__future__"})


@pytest.mark.slow
def test_installs_without_extras_and_imports_every_module(tmp_path):
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = venv / "bin" / "python"
    source = tmp_path / "src"  # a copy: setuptools builds in the source tree (build/)
    shutil.copytree(
        ROOT,
        source,
        ignore=shutil.ignore_patterns(
            ".venv",
            ".git",
            "var",
            "build",
            "staticfiles",
            "__pycache__",
            "*.egg-info",
            ".*cache",
            "node_modules",
            "bench",
        ),
    )
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", str(source)],
        capture_output=True,
        text=True,
        cwd=tmp_path,
    )
    assert install.returncode == 0, install.stderr[-3000:]
    env = {
        key: value
        for key, value in os.environ.items()
        if not key.startswith(("PYTHON", "VIRTUAL_ENV", "DJANGO"))
    }
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings",
        DEBUG="1",
        DATABASE_URL=f"sqlite:///{tmp_path / 'db.sqlite3'}",
        MEDIA_ROOT=str(tmp_path / "media"),
    )
    run = subprocess.run(
        [str(python), "-c", IMPORT_ALL.format(packages=PACKAGES, lazy=lazy_imports())],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env=env,
    )
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    assert int(run.stdout.split()[0]) > 100  # every module was walked
