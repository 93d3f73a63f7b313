"""System checks (``manage.py check``, run by every management command and the test run).

Settings have one home: each is declared once in the settings module (config/settings.py,
read from the environment there), and the apps read it as ``settings.NAME``. A second
default written where a setting is read (``getattr(settings, "NAME", 14)``) would be a second
declaration that drifts from the first, and a name read but never declared would fail only
when its line runs; both are reported here, with the file and line, before anything serves.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from pathlib import Path

from django.conf import settings
from django.core import checks

APPS = ("tournaments", "arbitration", "rules_engine")
ROOT = Path(__file__).resolve().parent.parent
SELF = Path("tournaments/checks.py")  # asks whether names are declared: not a read


def _reads(tree: ast.AST) -> Iterable[tuple[str, int, bool]]:
    """(setting name, line, read with a default) for each read of ``django.conf.settings``."""
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "settings"
            and node.attr.isupper()
        ):
            yield node.attr, node.lineno, False
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "hasattr")
            and len(node.args) >= 2
            and isinstance(node.args[0], ast.Name)
            and node.args[0].id == "settings"
        ):
            name = node.args[1].value if isinstance(node.args[1], ast.Constant) else None
            yield (name or "?"), node.lineno, node.func.id == "hasattr" or len(node.args) > 2


def setting_reads(root: Path = ROOT, apps: Iterable[str] = APPS) -> list[checks.CheckMessage]:
    """Every read of an undeclared setting (paisai.E001) and every setting read with a default
    of its own (paisai.E002) in the apps' modules under ``root``."""
    found: list[checks.CheckMessage] = []
    for app in apps:
        for path in sorted((root / app).rglob("*.py")):
            if "migrations" in path.parts or path.relative_to(root) == SELF:
                continue
            text = path.read_text(encoding="utf-8")
            if "django.conf" not in text:  # reads no setting (parsing every module costs)
                continue
            tree = ast.parse(text, str(path))
            where = f"{path.relative_to(root)}"
            for name, line, defaulted in _reads(tree):
                if defaulted:
                    found.append(
                        checks.Error(
                            f"{where}:{line} reads setting {name} with a default of its own.",
                            hint="Declare the setting once in the settings module and read "
                            f"settings.{name}.",
                            id="paisai.E002",
                        )
                    )
                elif not hasattr(settings, name):
                    found.append(
                        checks.Error(
                            f"{where}:{line} reads setting {name}, which is not declared.",
                            hint="Declare it in the settings module (from the environment "
                            "where it is configurable), or fix its name.",
                            id="paisai.E001",
                        )
                    )
    return found


@checks.register()
def one_declaration_per_setting(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    return setting_reads()
