"""One translation path, checked by the build (issue 29).

- ``make messages`` (this project's ``makemessages``, tournaments/management/commands) run over
  the code leaves the Chinese catalogue with nothing obsolete, nothing untranslated and
  nothing fuzzy: every message of the code has its Chinese, and the catalogue holds no word
  the code no longer says. It runs into a copy of ``locale/``, so the tree is not touched.
- The compiled catalogue (``django.mo``) says what the ``.po`` says.
- Every message reaches the catalogue the one way ``makemessages`` reads: a literal in a call
  of a gettext function under a name xgettext knows (never ``gettext(variable)``, never an
  alias such as ``_lazy``); a word defined outside a view or template (a dict of labels, a
  pure core's key) is marked where it is defined, and translated by its key.
- A refusal's message is a template with its parameters (``Error(_("… %(x)s"), field, x=…)``):
  never formatted before it is raised, so it is rendered in its reader's language.
"""

from __future__ import annotations

import ast
import gettext
import re
import shutil
import subprocess
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import override_settings

ROOT = Path(__file__).resolve().parent.parent
LOCALE = ROOT / "locale"
PO = LOCALE / "zh_Hans" / "LC_MESSAGES" / "django.po"
MO = PO.with_suffix(".mo")
SOURCES = ("arbitration", "config", "tournaments")


# --- reading a .po ------------------------------------------------------------------------


@dataclass
class Entry:
    msgid: str = ""
    context: str | None = None
    plural: str | None = None
    strings: list[str] = field(default_factory=list)
    flags: set[str] = field(default_factory=set)
    obsolete: bool = False

    @property
    def name(self) -> str:
        return f"{self.context}|{self.msgid}" if self.context is not None else self.msgid


def _unquote(text: str) -> str:
    return ast.literal_eval(text)


def read_po(path: Path) -> list[Entry]:
    """The entries of a .po file (the header's excepted)."""
    entries: list[Entry] = []
    entry, target = Entry(), None

    def finish():
        nonlocal entry, target
        if target is not None and entry.msgid:
            entries.append(entry)
        entry, target = Entry(), None

    for raw in path.read_text(encoding="utf-8").splitlines():
        line = raw
        if line.startswith("#~"):
            entry.obsolete = True
            line = line[2:].lstrip()
            if line.startswith("|"):  # a previous msgid (#~| msgid "…")
                continue
        if not line.strip():
            finish()
            continue
        if line.startswith("#,"):
            entry.flags |= {flag.strip() for flag in line[2:].split(",")}
            continue
        if line.startswith("#"):
            continue
        keyword, _space, rest = line.partition(" ")
        if line.startswith('"'):
            value = _unquote(line)
            if target == "msgid":
                entry.msgid += value
            elif target == "msgctxt":
                entry.context += value
            elif target == "msgid_plural":
                entry.plural += value
            elif target is not None:
                entry.strings[-1] += value
            continue
        if keyword == "msgctxt":
            if target is not None and target != "msgctxt":
                finish()
            entry.context, target = _unquote(rest), "msgctxt"
        elif keyword == "msgid":
            if target not in (None, "msgctxt"):
                finish()
            entry.msgid, target = _unquote(rest), "msgid"
        elif keyword == "msgid_plural":
            entry.plural, target = _unquote(rest), "msgid_plural"
        elif keyword.startswith("msgstr"):
            entry.strings.append(_unquote(rest))
            target = keyword
    finish()
    return entries


# --- the refresh ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def refreshed(tmp_path_factory) -> list[Entry]:
    """The catalogue as ``make messages`` leaves it, made in a copy of the tree: the sources
    are linked, ``locale/`` is copied."""
    if shutil.which("xgettext") is None:
        pytest.fail("gettext is not installed (scripts/system-deps.sh installs it)")
    work = tmp_path_factory.mktemp("messages")
    for entry in ROOT.iterdir():
        if entry.name != "locale" and not entry.name.startswith("."):
            (work / entry.name).symlink_to(entry)
    shutil.copytree(LOCALE, work / "locale")
    mp = pytest.MonkeyPatch()
    mp.chdir(work)
    try:
        with override_settings(LOCALE_PATHS=[work / "locale"]):
            call_command("makemessages", locale=["zh_Hans"], symlinks=True, verbosity=0)
    finally:
        mp.undo()
    po = work / "locale" / "zh_Hans" / "LC_MESSAGES" / "django.po"
    check = subprocess.run(
        ["msgfmt", "--check-format", "--output-file=/dev/null", str(po)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert check.returncode == 0, f"the catalogue's placeholders do not match:\n{check.stderr}"
    return read_po(po)


def test_nothing_in_the_catalogue_that_the_code_no_longer_says(refreshed):
    obsolete = [entry.name for entry in refreshed if entry.obsolete]
    assert not obsolete, (
        f"{len(obsolete)} message(s) of locale/zh_Hans are in no source any more (a text "
        "changed, or a word is translated by gettext(variable) without a marker where it is "
        f"defined); mark them or remove them (make messages): {obsolete}"
    )


def test_every_message_of_the_code_has_its_chinese(refreshed):
    live = [entry for entry in refreshed if not entry.obsolete]
    untranslated = [entry.name for entry in live if not all(entry.strings)]
    fuzzy = [entry.name for entry in live if "fuzzy" in entry.flags]
    assert not untranslated, (
        f"{len(untranslated)} message(s) of the code have no Chinese in "
        f"locale/zh_Hans/LC_MESSAGES/django.po (run make messages and translate them): "
        f"{untranslated}"
    )
    assert not fuzzy, f"fuzzy (guessed) translations to check and unmark: {fuzzy}"


def test_the_committed_catalogue_is_the_refreshed_one(refreshed):
    """The .po in the tree has every message the code says (none added only by the refresh)."""
    committed = {entry.name for entry in read_po(PO) if not entry.obsolete}
    missing = sorted({entry.name for entry in refreshed if not entry.obsolete} - committed)
    assert not missing, f"messages missing from locale/zh_Hans (make messages): {missing}"


def test_the_compiled_catalogue_says_what_the_po_says(tmp_path):
    compiled = tmp_path / "django.mo"
    subprocess.run(["msgfmt", "--output-file", str(compiled), str(PO)], check=True)
    with compiled.open("rb") as fresh, MO.open("rb") as kept:
        expected = gettext.GNUTranslations(fresh)._catalog
        found = gettext.GNUTranslations(kept)._catalog
    changed = sorted(str(key) for key in expected.keys() ^ found.keys())
    changed += sorted(
        str(key) for key in expected.keys() & found.keys() if expected[key] != found[key]
    )
    assert not changed, (
        "locale/zh_Hans/LC_MESSAGES/django.mo is older than the .po; run "
        f"`manage.py compilemessages -l zh_Hans`: {changed[:20]}"
    )


# --- one marker, literal messages -------------------------------------------------------------

# The gettext functions by the names xgettext reads (Django's makemessages keywords and
# xgettext's own for Python), with the position of the message argument.
MESSAGE_ARGUMENT = {
    "_": 0,
    "gettext": 0,
    "gettext_lazy": 0,
    "gettext_noop": 0,
    "ngettext": 0,
    "ngettext_lazy": 0,
    "pgettext": 1,
    "pgettext_lazy": 1,
    "npgettext": 1,
    "npgettext_lazy": 1,
}
TRANSLATION_MODULES = ("django.utils.translation",)


@cache
def python_files() -> tuple[tuple[Path, ast.Module], ...]:
    """Every module of the product, parsed once for the checks below."""
    return tuple(
        (path, ast.parse(path.read_text(encoding="utf-8")))
        for package in SOURCES
        for path in sorted((ROOT / package).rglob("*.py"))
        if "migrations" not in path.parts
    )


def where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{node.lineno}"


def test_gettext_functions_are_imported_under_names_makemessages_reads():
    """``from django.utils.translation import gettext_lazy as _lazy`` hides every message of
    the module from makemessages: only the names it reads."""
    found = []
    for path, tree in python_files():
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in TRANSLATION_MODULES:
                for alias in node.names:
                    name = alias.asname or alias.name
                    if alias.name in MESSAGE_ARGUMENT and name not in MESSAGE_ARGUMENT:
                        found.append(f"{where(path, node)}: {alias.name} as {name}")
    assert not found, f"gettext under a name makemessages does not read: {found}"


# The one place that translates words by variable: the event settings' words, each marked
# with gettext_noop where it is declared (rules_engine.schema.setting), so makemessages reads
# them there (Django's pattern for words declared apart from where they are shown).
DECLARED_WORDS = {"tournaments/forms_settings.py", "tournaments/forms_parts.py"}


def test_every_message_is_a_literal():
    """``gettext(variable)`` translates what makemessages never saw: the word is dropped from
    the catalogue at the next refresh. Mark the word where it is defined and translate it by
    its key (as tournaments.glossary and pairing/messages.py do)."""
    found = []
    for path, tree in python_files():
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or not isinstance(node.func, ast.Name):
                continue
            index = MESSAGE_ARGUMENT.get(node.func.id)
            if index is None or len(node.args) <= index:
                continue
            message = node.args[index]
            if not (isinstance(message, ast.Constant) and isinstance(message.value, str)):
                if path.relative_to(ROOT).as_posix() in DECLARED_WORDS:
                    continue
                found.append(f"{where(path, node)}: {ast.unparse(node)[:80]}")
    assert not found, f"messages makemessages cannot read: {found}"


def _formatted_message(node: ast.AST) -> bool:
    """``_("…") % {…}`` (or ``.format``): a message formatted where it is written."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        call = node.left
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr == "format"
    ):
        call = node.func.value
    else:
        return False
    return (
        isinstance(call, ast.Call)
        and isinstance(call.func, ast.Name)
        and call.func.id in MESSAGE_ARGUMENT
    )


def test_refusals_are_templates_with_their_parameters():
    """A refusal keeps its template and parameters (``ServiceError(_("… %(x)s"), field,
    x=…)``); it is put in words when shown, in its reader's language."""
    found = []
    for path, tree in python_files():
        for node in ast.walk(tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                arguments = [*node.exc.args, *(k.value for k in node.exc.keywords)]
                if any(_formatted_message(sub) for arg in arguments for sub in ast.walk(arg)):
                    found.append(where(path, node))
    assert not found, f"refusals formatted before they are raised: {found}"


def test_refusals_of_the_services_are_lazy_templates():
    """A service's refusal may be shown later, to someone else (a job's error, a phone's
    retry): its template is ``gettext_lazy``, rendered when shown. In the services ``_`` is
    ``gettext_lazy``; text made now is ``gettext``."""
    from tests.tournaments import test_errors as family

    found = []
    for path in family.SERVICE_MODULES:
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module in TRANSLATION_MODULES:
                found += [
                    where(path, node)
                    for alias in node.names
                    if alias.asname == "_" and alias.name != "gettext_lazy"
                ]
    assert not found, f"services where _ is not gettext_lazy: {found}"


PLACEHOLDER = re.compile(r"%\((\w+)\)")


def test_a_refusals_parameters_are_its_templates_placeholders():
    """``Error(_("… %(team)s …"), field, team=…)``: every placeholder has its parameter and
    every parameter its placeholder (a missing one fails only when the refusal is shown)."""
    found = []
    for path, tree in python_files():
        for node in ast.walk(tree):
            if not (isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call)):
                continue
            call = node.exc
            message = call.args[0] if call.args else None
            if not (
                isinstance(message, ast.Call)
                and isinstance(message.func, ast.Name)
                and message.func.id in MESSAGE_ARGUMENT
                and message.args
            ):
                continue
            template = message.args[MESSAGE_ARGUMENT[message.func.id]]
            if any(k.arg is None for k in call.keywords) or not isinstance(template, ast.Constant):
                continue  # **params: not known here
            wanted = set(PLACEHOLDER.findall(template.value))
            given = {k.arg for k in call.keywords} - {"pending"}  # RoundCloseError's tables
            django_params = [k.value for k in call.keywords if k.arg == "params"]
            if django_params:  # forms.ValidationError(_("…"), code=…, params={…})
                if not isinstance(django_params[0], ast.Dict):
                    continue
                given = {k.value for k in django_params[0].keys if isinstance(k, ast.Constant)}
            if wanted != given:
                found.append(f"{where(path, node)}: {sorted(wanted)} ≠ {sorted(given)}")
    assert not found, f"templates and parameters that do not match: {found}"
