"""The import contract is checked by the build (import-linter, contracts in pyproject.toml).

Apps point one way (arbitration → tournaments → rules_engine), no app imports config/, the rules
engine imports no Django, the pairing and standings cores are functions over plain data, and
no modules import each other in a cycle (the services, the rules engine, the apps as a whole,
imports inside functions included).
"""

from __future__ import annotations

import ast
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("arbitration", "tournaments", "rules_engine", "config", "paisai_check")
LAZY = "\n\ndef lazy():\n    import %s\n"


def lint(cwd: Path) -> subprocess.CompletedProcess:
    code = "from importlinter.cli import lint_imports_command; lint_imports_command()"
    return subprocess.run(
        [sys.executable, "-c", code, "--no-cache", "--no-logo", "pyproject.toml"],
        cwd=cwd,
        env={"PYTHONPATH": str(cwd), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_every_import_contract_is_kept():
    run = lint(ROOT)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


@pytest.fixture(scope="module")
def copy_of_the_tree(tmp_path_factory) -> Path:
    tree = tmp_path_factory.mktemp("tree")
    shutil.copy(ROOT / "pyproject.toml", tree)
    for name in PACKAGES:
        shutil.copytree(
            ROOT / name, tree / name, ignore=shutil.ignore_patterns("__pycache__", "migrations")
        )
    return tree


@pytest.mark.parametrize(
    ("module", "line", "contract"),
    [
        ("rules_engine/bad.py", "import django.db\n", "Rules engine without Django"),
        (
            "rules_engine/bad.py",
            "import tournaments.models\n",
            "Rules engine without Django or apps",
        ),
        ("tournaments/bad.py", "import arbitration.models\n", "Layers"),
        ("arbitration/bad.py", "import config.settings\n", "Apps never import config"),
        (
            "tournaments/standings/core.py",
            "from django.db import models\n",
            "standings cores without Django",
        ),
        # issue 38: the event file's checker runs without Django
        ("paisai_check/bad.py", "import django.db\n", "event-file checker without Django"),
        ("paisai_check/bad.py", LAZY % "tournaments.standings.service", "checker without Django"),
        ("tournaments/pairing/quality.py", "import tournaments.models\n", "cores without Django"),
        # issue 29: an import cycle breaks the build
        ("rules_engine/ladder_steps.py", "import rules_engine.ladder\n", "No import cycles"),
        (
            "tournaments/services/round_basics.py",
            "import tournaments.services.rounds\n",
            "No import cycles among the services",
        ),
        # the cycles once dodged by an import inside a function: such an import counts too
        ("rules_engine/presets.py", LAZY % "rules_engine.match_format", "rules engine's modules"),
        ("rules_engine/match_format.py", LAZY % "rules_engine.api", "rules engine's modules"),
        ("rules_engine/games.py", LAZY % "rules_engine.api", "rules engine's modules"),
        ("tournaments/freshness.py", LAZY % "tournaments.models.events", "the apps' modules"),
        ("tournaments/sql/revision.py", LAZY % "tournaments.models", "the apps' modules"),
        ("tournaments/exporters/exports.py", LAZY % "tournaments.tasks", "the apps' modules"),
        ("tournaments/standings/stages.py", LAZY % "tournaments.pairing.knockout", "apps'"),
        # issue 37: the cycles once listed in the contract's ignore_imports
        ("tournaments/sql/lookups.py", "import tournaments.models\n", "the apps' modules"),
        ("tournaments/sql/roles.py", LAZY % "tournaments.permissions", "the apps' modules"),
        ("tournaments/services/jobs.py", LAZY % "tournaments.exporters.base", "apps'"),
        ("tournaments/services/awards.py", "import tournaments.exporters\n", "apps'"),
    ],
)
def test_an_import_against_the_contract_breaks_the_build(copy_of_the_tree, module, line, contract):
    path = copy_of_the_tree / module
    before = path.read_text() if path.exists() else None
    path.write_text((before or "") + line)
    try:
        run = lint(copy_of_the_tree)
    finally:
        if before is None:
            path.unlink()
        else:
            path.write_text(before)
    assert run.returncode != 0
    broken = [line for line in run.stdout.splitlines() if " BROKEN" in line]
    assert any(contract in line for line in broken), run.stdout


def app_sources() -> dict[str, ast.Module]:
    """module name -> its parsed source, for every module of the apps (no migrations)."""
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            parts = path.relative_to(ROOT).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            found[name] = ast.parse(path.read_text("utf-8"), str(path))
    return found


def is_private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def private_imports(modules: dict[str, ast.Module]) -> list[str]:
    """``module: name`` for each private name (``_x``) one module of the apps takes from
    another: by ``from m import _x``, or as ``m._x`` of a module it imported."""
    found = []
    for name, tree in modules.items():
        aliases = {}  # local name -> one of the apps' modules
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                for alias in node.names:
                    if is_private(alias.name) and node.module.split(".")[0] in PACKAGES:
                        found.append(f"{name}: {node.module}.{alias.name}")
                    if f"{node.module}.{alias.name}" in modules:
                        aliases[alias.asname or alias.name] = f"{node.module}.{alias.name}"
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in modules and alias.asname:
                        aliases[alias.asname] = alias.name
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in aliases
                and is_private(node.attr)
            ):
                found.append(f"{name}: {aliases[node.value.id]}.{node.attr}")
    return found


def test_no_module_takes_another_modules_private_names():
    """A name with a leading underscore is its module's own (issue 29: the guandan sample
    deal took the replay's ``_Deal``; it is ``DealState`` now)."""
    assert private_imports(app_sources()) == []


def test_the_private_name_check_sees_both_ways_of_taking_one():
    taken = ast.parse("from rules_engine.guandan.replay import _Deal\nfrom a import _b\n")
    through = ast.parse("from tournaments.exporters import exports\nexports._ready_key(1)\n")
    modules = {
        "rules_engine.guandan.replay": ast.parse(""),
        "tournaments.exporters.exports": ast.parse(""),
    }
    assert private_imports(modules | {"x": taken, "y": through}) == [
        "x: rules_engine.guandan.replay._Deal",
        "y: tournaments.exporters.exports._ready_key",
    ]


def test_super_names_no_class():
    """``super()`` without arguments: ``super(SomeMixin, self)`` skipped a class of the MRO
    on purpose (the public pages skipped EventMixin's context; they set
    ``visitor_roles = False`` now), which a reader of that class cannot see."""
    calls = [
        f"{name}:{node.lineno}"
        for name, tree in app_sources().items()
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "super"
        and node.args
    ]
    assert calls == []


def test_the_import_contracts_ignore_no_import():
    """Issue 37: a cycle is removed, never listed as known (the contract once ignored 12
    imports: sql ↔ models and permissions, exporters ↔ services)."""
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    assert all("ignore_imports" not in c for c in contracts["contracts"])
