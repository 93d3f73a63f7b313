"""One home for each rule, limit and setting (issues 29 and 37), checked by reading the source.

Each check names the one place a thing is decided and returns every second place that decides
it again, as ``path:line what``. A check looks for the mechanism, not for a spelling: the
Python is read as its syntax tree (a limit written ``5_000_000``, ``5000000`` or
``5 * 1024 * 1024`` is one number; a cursor is a cursor whatever its name; an import of
``invalidate`` is one whatever it is renamed to), the templates and the scripts as text with
their comments removed. Every check takes the root of a tree, so
tests/test_planted_second_homes.py runs the same checks on a copy of the tree with a second
home planted in it, one at a time, and shows that each is caught. The behaviour behind each
home is tested where it lives (named in each check's docstring).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterator
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tournaments", "arbitration", "config", "rules_engine")


# --- reading a tree ------------------------------------------------------------------------


def sources(root: Path, *folders: str, suffix: str = ".py") -> dict[str, str]:
    """path (from ``root``) -> text, for the product's files under ``folders``."""
    found = {}
    for folder in folders:
        for path in sorted((root / folder).rglob(f"*{suffix}")):
            if {"migrations", "__pycache__", "vendor"} & set(path.parts):
                continue
            found[path.relative_to(root).as_posix()] = path.read_text("utf-8")
    return found


@lru_cache(maxsize=4096)
def parsed(text: str) -> ast.Module:
    return ast.parse(text)


def each_file(root: Path, check, folders: tuple[str, ...], *given) -> list[str]:
    """What ``check(name, tree, *given)`` finds in each Python file under ``folders``; a file's
    findings are kept with its text, so a copy of the tree with one file changed is checked
    again in that file only."""
    hits = []
    for name, text in sources(root, *(folders or APPS)).items():
        hits += file_hits(check, name, text, given)
    return hits


@lru_cache(maxsize=65536)
def file_hits(check, name: str, text: str, given: tuple) -> list[str]:
    return list(check(name, parsed(text), *given))


def docstrings(tree: ast.Module) -> set[int]:
    """ids of the docstring constants: a rule explained in words is not a second home."""
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            first = node.body[0] if node.body else None
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def strings(tree: ast.Module) -> Iterator[ast.Constant]:
    """The string constants of the code, docstrings left out."""
    skip = docstrings(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node


JS_TOKEN = re.compile(
    r"(?P<comment>//[^\n]*|/\*.*?\*/)|(?P<string>\"(?:\\.|[^\"\\\n])*\"|'(?:\\.|[^'\\\n])*'"
    r"|`(?:\\.|[^`\\])*`)",
    re.S,
)


def js_code(text: str) -> str:
    """A script without its comments (line numbers kept; strings kept whole)."""

    def blank(match: re.Match) -> str:
        if match.group("comment"):
            return "\n" * match.group().count("\n")
        return match.group()

    return JS_TOKEN.sub(blank, text)


TEMPLATE_COMMENT = re.compile(r"\{#.*?#\}|\{% comment %\}.*?\{% endcomment %\}", re.S)


def template_text(text: str) -> str:
    return TEMPLATE_COMMENT.sub(lambda m: "\n" * m.group().count("\n"), text)


def scripts(root: Path) -> dict[str, str]:
    found = sources(root, "static/js", suffix=".js") | sources(root, "static/js", suffix=".mjs")
    return {name: js_code(text) for name, text in found.items()}


def templates(root: Path) -> dict[str, str]:
    return {k: template_text(v) for k, v in sources(root, "templates", suffix=".html").items()}


def text_hits(pattern: str, files: dict[str, str], what: str = "", flags: int = 0) -> list[str]:
    """``file:line what`` of every match of ``pattern`` (which may span lines)."""
    return [
        hit for name, text in files.items() for hit in matches(pattern, flags, what, name, text)
    ]


@lru_cache(maxsize=65536)
def matches(pattern: str, flags: int, what: str, name: str, text: str) -> list[str]:
    return [
        f"{name}:{text.count(chr(10), 0, m.start()) + 1} {what or m.group()[:60]}"
        for m in re.finditer(pattern, text, flags)
    ]


def at(name: str, node: ast.AST, what: str) -> str:
    return f"{name}:{node.lineno} {what}"


def words_of(node: ast.AST) -> set[str]:
    """The lower-case words of the names an expression reads: ``row.is_home`` → {row, is,
    home}, ``len(games)`` → {len, games}, ``isHome`` → {is, home}."""
    found = set()
    for sub in ast.walk(node):
        name = None
        if isinstance(sub, ast.Name):
            name = sub.id
        elif isinstance(sub, ast.Attribute):
            name = sub.attr
        elif (
            isinstance(sub, ast.Constant)
            and isinstance(sub.value, str)
            and sub.value.isidentifier()
        ):
            name = sub.value  # a key: row["home"]
        if name:
            found |= {w.lower() for w in re.findall(r"[a-z0-9]+|[A-Z][a-z0-9]*", name)}
    return found


def number(node: ast.AST) -> int | None:
    """The integer a constant expression comes to (``5 * 1024 * 1024``, ``2**31 - 1``)."""
    if isinstance(node, ast.Constant):
        value = node.value
        return value if isinstance(value, int) and not isinstance(value, bool) else None
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        value = number(node.operand)
        return None if value is None else -value
    if isinstance(node, ast.BinOp):
        left, right = number(node.left), number(node.right)
        if left is None or right is None:
            return None
        ops = {
            ast.Add: lambda a, b: a + b,
            ast.Sub: lambda a, b: a - b,
            ast.Mult: lambda a, b: a * b,
            ast.Pow: lambda a, b: a**b if b < 200 else 0,
            ast.LShift: lambda a, b: a << b if b < 200 else 0,
            ast.FloorDiv: lambda a, b: a // b if b else 0,
        }
        op = ops.get(type(node.op))
        return op(left, right) if op else None
    return None


def numbers(tree: ast.Module) -> Iterator[tuple[ast.AST, int]]:
    """Each largest constant expression of the code with its value (``5 * 1024 * 1024`` once,
    not its parts)."""
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        value = number(node)
        if value is not None:
            yield node, value
            continue
        stack.extend(ast.iter_child_nodes(node))


def outside(name: str, *homes: str) -> bool:
    return not name.startswith(homes)


# --- the checks ----------------------------------------------------------------------------

UPLOAD_HOMES = ("tournaments/upload_limit.py", "config/settings.py")
SIZE_WORDS = {"size", "bytes", "length", "upload", "uploaded", "body", "content"}


def is_a_unit(value: int) -> bool:
    """A width or a unit, not a limit: 2**k, 2**k - 1 (an id's range, a MiB), 10**k."""
    if value & (value - 1) == 0 or (value + 1) & value == 0:
        return True
    return str(value).rstrip("0") == "1"


def _upload_limit_in(name: str, tree: ast.Module) -> Iterator[str]:
    if not outside(name, *UPLOAD_HOMES):
        return
    for node in ast.walk(tree):
        named = (isinstance(node, ast.Name) and node.id) or (
            isinstance(node, ast.Attribute) and node.attr
        )
        if named == "PAISAI_MAX_UPLOAD_BYTES":
            yield at(name, node, "reads the upload limit's setting")
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(words_of(s) & SIZE_WORDS for s in sides) and any(
                (number(s) or 0) >= 1024 for s in sides
            ):
                yield at(name, node, "compares a size with a number of bytes")
    for node, value in numbers(tree):
        if value >= 1_000_000 and not is_a_unit(value):
            yield at(name, node, f"holds a byte count {value}")
    for node in strings(tree):
        if re.search(r"\d\s*MB\b", node.value):
            yield at(name, node, "names a size in MB")


def upload_limit(root: Path) -> list[str]:
    """tournaments/upload_limit.py reads ``settings.PAISAI_MAX_UPLOAD_BYTES`` and nothing else
    holds a number for it (tests/tournaments/test_upload_limit.py): no other module reads the
    setting, compares a size with a number of bytes, or holds a byte count (any number of a
    million or more that is not a power of two or of ten), however it is written."""
    hits = each_file(root, _upload_limit_in, ())
    return hits + text_hits(r"\d\s*MB\b", templates(root) | scripts(root), "names a size in MB")


SIDES = ("EW", "NS")
TEAM_WORDS = {"home", "away"}  # a team's place in a match: pairing, standings, forms, models
SEAT_WORDS = {"ew", "ns"}  # the sides at the table: the engine's records and seats


def is_side(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value in SIDES


def is_team_place(node: ast.AST) -> bool:
    """An expression naming the home or the away team (``home``, ``match.away``, ``isHome``)."""
    return isinstance(node, ast.Name | ast.Attribute | ast.Call | ast.Subscript) and bool(
        words_of(node) & TEAM_WORDS
    )


def _home_side_in(name: str, tree: ast.Module) -> Iterator[str]:
    if name == "rules_engine/seating.py":
        return
    app = not name.startswith("rules_engine/")
    for node in ast.walk(tree):
        if isinstance(node, ast.IfExp) and (is_side(node.body) or is_side(node.orelse)):
            if app or words_of(node.test) & TEAM_WORDS:
                yield at(name, node, "chooses a side")
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is None:
                    continue
                pair = (key, value)
                if any(map(is_side, pair)) and any(
                    (isinstance(p, ast.Constant) and isinstance(p.value, bool)) or is_team_place(p)
                    for p in pair
                ):
                    yield at(name, node, "maps a team's place to a side")
            if app and sum(map(is_side, node.values)) == 2:
                yield at(name, node, "maps something to the two sides")
        elif isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            equal = any(isinstance(op, ast.Eq | ast.NotEq | ast.Is | ast.IsNot) for op in node.ops)
            if equal and any(map(is_side, sides)):
                if app or any(map(is_team_place, sides)):
                    yield at(name, node, "asks which side")
        elif isinstance(node, ast.Tuple | ast.List):
            if any(map(is_side, node.elts)) and any(map(is_team_place, node.elts)):
                yield at(name, node, "pairs a side with a team's place")
        elif isinstance(node, ast.Assign) and any(words_of(t) & TEAM_WORDS for t in node.targets):
            if any(is_side(n) for n in ast.walk(node.value)):
                yield at(name, node, "names the home team's side")


def home_side(root: Path) -> list[str]:
    """rules_engine/seating.py is the one statement of which side the home team plays (side_of,
    by_side, is_home; tests/rules_engine/test_seating_sides.py). Elsewhere no code chooses a
    side ("EW"/"NS") from a condition, maps a boolean or a team's place to a side, or asks
    whether a side is one of the two; in the engine's own modules (whose records are kept by
    side) none does so beside a team's place."""
    hits = each_file(root, _home_side_in, ())
    return hits


SIDE_WORDS = r"东西|南北"


def side_words_in_pages(root: Path) -> list[str]:
    """Pages and scripts say a side with the glossary's word (tournaments/glossary.py SIDES,
    the ``side`` filter; the table's scripts ``sideName``, from the server's side_names;
    tests/test_vocabulary.py): no template or script writes 东西/南北, compares a value with a
    side's code, or words a side under a condition on the home team; a script's side codes
    are only ``sideName``'s argument."""
    pages, js = templates(root), scripts(root)
    hits = text_hits(SIDE_WORDS, pages | js, "writes a side's word")
    branch = r"[^%]*%\}(?:(?!\{%\s*(?:endif|else|elif)).)*"
    side_if = (
        r"\{%\s*(?:el)?if\b[^%]*(==|!=)\s*[\"'](EW|NS)[\"']" + branch + r"(East–West|North–South)"
    )
    hits += text_hits(side_if, pages, "words a side by its code", re.S)
    home_if = r"\{%\s*(?:el)?if\b[^%]*\b(home|away)\b" + branch
    side = r"(East–West|North–South|[\"'](?:EW|NS)[\"'])"
    hits += text_hits(home_if + side, pages, "words a side for the home team", re.S)
    for name, text in js.items():
        for m in re.finditer(r"[\"'`](EW|NS)[\"'`]", text):
            if not re.search(r"sideName\(\s*$", text[max(0, m.start() - 40) : m.start()]):
                line = text.count("\n", 0, m.start()) + 1
                hits.append(f"{name}:{line} a side's code outside sideName()")
    return hits


def no_name_joins_the_two_words(root: Path) -> list[str]:
    """Two things, two words: home/away name a team's place in a match, EW/NS the sides
    of the table a record is scored from; one becomes the other only through
    rules_engine/seating.py. A name holding a word of each (``home_ew``, ``nsAway``) would
    be a second mapping."""
    files = sources(root, *APPS) | scripts(root) | templates(root)
    return [hit for name, text in files.items() for hit in joined_names(name, text)]


@lru_cache(maxsize=8192)
def joined_names(name: str, text: str) -> list[str]:
    hits = []
    for m in re.finditer(r"\b[A-Za-z_][A-Za-z0-9_]*\b", text):
        words = {w.lower() for w in re.findall(r"[a-z0-9]+|[A-Z][a-z0-9]*", m.group())}
        if words & TEAM_WORDS and words & SEAT_WORDS:
            hits.append(f"{name}:{text.count(chr(10), 0, m.start()) + 1} {m.group()}")
    return hits


GAME_WORDS = {"game", "games", "best", "bo3"}


BEST_OF_HOME = "rules_engine/format_fields.py"


def _best_of_three_in(name: str, tree: ast.Module) -> Iterator[str]:
    if name == BEST_OF_HOME:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(number(s) in (2, 3) for s in sides) and any(
                words_of(s) & GAME_WORDS for s in sides if number(s) is None
            ):
                yield at(name, node, "compares a count of games with 2 or 3")
        elif isinstance(node, ast.Assign | ast.AnnAssign) and number(node.value) == 3:
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if any(words_of(t) & GAME_WORDS or words_of(t) & {"best", "of"} for t in targets):
                yield at(name, node, "sets a count of games to 3")
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if key is not None and words_of(key) & GAME_WORDS and number(value) == 3:
                    yield at(name, node, "sets a count of games to 3")
        elif isinstance(node, ast.Tuple | ast.List) and [number(e) for e in node.elts] == [
            1,
            2,
            3,
        ]:
            yield at(name, node, "lists the games 1, 2, 3")
    yield from [
        at(name, node, "declares BEST_OF")
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign)
        and any(
            isinstance(t, ast.Name) and t.id in ("BEST_OF", "GAMES_TO_WIN") for t in node.targets
        )
    ]


def best_of_three(root: Path) -> list[str]:
    """rules_engine/format_fields.py: BEST_OF, GAMES_TO_WIN, games_of, limits
    (tests/rules_engine/test_match_format.py, tests/e2e/test_table_best_of_three.py). No other
    code compares a count of games with 2 or 3, sets one to 3 or lists the games 1, 2, 3; no
    script or template either."""
    hits = each_file(root, _best_of_three_in, ())
    count = r"\b\w*(?:[gG]ames?|bestOf)\w*(?:\.length|\|length)?\s*(?:===?|!==?|[<>]=?)\s*[23]\b"
    reverse = r"\b[23]\s*(?:===?|!==?|[<>]=?)\s*\w*(?:[gG]ames?|bestOf)"
    hits += text_hits(count, scripts(root) | templates(root))
    hits += text_hits(reverse, scripts(root) | templates(root))
    hits += text_hits(r"\blast\s*<\s*2\b|\bg\s*>=\s*2\b", scripts(root))
    return hits


SQL = re.compile(
    r"^\s*(SELECT\b.*\bFROM\b|UPDATE\s+\S+\s+SET\b|INSERT\s+INTO\b|DELETE\s+FROM\b"
    r"|WITH\s+\w+\s+AS\b|LOCK\s+TABLE\b|TRUNCATE\b|CREATE\s|ALTER\s)",
    re.S,
)
SQL_CALLS = {"cursor", "execute", "executemany", "raw", "RawSQL", "callproc"}


SQL_HOMES = ("tournaments/sql/", "tournaments/services/archive.py")


def _sql_one_package_in(name: str, tree: ast.Module) -> Iterator[str]:
    if not outside(name, *SQL_HOMES):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in SQL_CALLS:
                yield at(name, node, f"calls {called}()")
    yield from [at(name, s, "holds an SQL statement") for s in strings(tree) if SQL.match(s.value)]


def sql_one_package(root: Path) -> list[str]:
    """tournaments/sql/ holds the hot paths' SQL (tests/tournaments/test_sql.py); the archive
    import's sequence reset is Django's own SQL (services/archive.py). Nowhere else opens a
    cursor, executes, writes a raw query, or holds an SQL statement, whatever the cursor is
    called."""
    return each_file(root, _sql_one_package_in, ("tournaments", "arbitration", "config"))


def _freshness_one_module_in(name: str, tree: ast.Module) -> Iterator[str]:
    if name == "tournaments/freshness.py":
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and (node.module or "").endswith("freshness"):
            for alias in node.names:
                if alias.name in ("invalidate", "*"):
                    yield at(name, node, f"imports {alias.name} as {alias.asname}")
                if alias.name == "revision_batch" and "/services/" not in name:
                    yield at(name, node, "opens a revision batch outside a service")
        named = (isinstance(node, ast.Name) and node.id) or (
            isinstance(node, ast.Attribute) and node.attr
        )
        if named in ("invalidate", "_base_manager"):
            yield at(name, node, f"reads {named}")


def freshness_one_module(root: Path) -> list[str]:
    """tournaments/freshness.py moves an event's revision (tests/tournaments/test_freshness.py):
    no other module takes ``invalidate`` (by any name) or the managers' back door
    (``_base_manager``), and only the services open a ``revision_batch``; no signals module."""
    hits = each_file(root, _freshness_one_module_in, ("tournaments", "arbitration", "config"))
    if (root / "tournaments/signals.py").exists():
        hits.append("tournaments/signals.py a second home of the signals")
    return hits


AUDIT_HOMES = ("tournaments/audit_actions.py", "arbitration/audit_actions.py")


def audit_codes(root: Path) -> set[str]:
    """The audit kinds and actions declared in the registry (their string constants)."""
    codes = set()
    for home in AUDIT_HOMES:
        tree = parsed((root / home).read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") in ("kind", "action"):
                if node.args and isinstance(node.args[0], ast.Constant):
                    codes.add(node.args[0].value)
            if isinstance(node, ast.Dict):
                codes |= {k.value for k in node.keys if isinstance(k, ast.Constant)}
    return {c for c in codes if isinstance(c, str)}


def _audit_registry_in(name: str, tree: ast.Module, codes: frozenset) -> Iterator[str]:
    if name in AUDIT_HOMES:
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "").startswith("pgettext"):
            first = node.args[0] if node.args else None
            if isinstance(first, ast.Constant) and first.value in ("audit", "audit kind"):
                yield at(name, node, "words an audit action")
        if isinstance(node, ast.Dict):
            keys = {k.value for k in node.keys if isinstance(k, ast.Constant)}
            worded = any(
                isinstance(v, ast.Call) and getattr(v.func, "id", "") in TEXT_CALLS
                for v in node.values
            )
            if {k for k in keys & codes if "." in str(k)} and worded:
                yield at(name, node, "keys a table by audit codes")


def audit_registry(root: Path) -> list[str]:
    """tournaments/audit_actions.py (and an app's audit_actions.py through its ``action``) is
    the one registry of the audit log's words (tests/tournaments/test_audit_actions.py): no
    other module words an action (a ``pgettext("audit", …)``) or keys a table by the codes."""
    codes = frozenset(audit_codes(root))
    assert "result.*" in codes or len(codes) > 20, codes  # the registry is found
    return each_file(root, _audit_registry_in, ("tournaments", "arbitration"), codes)


BUILTIN_ERRORS = {
    "Exception",
    "ValueError",
    "LookupError",
    "KeyError",
    "RuntimeError",
    "TypeError",
    "PermissionError",
    "ArithmeticError",
}
REFUSING = (
    "/services/",
    "/views/",
    "/api/",
    "/exporters/",
    "/forms",
    "/validation.py",
    "/halls.py",
)


def _one_error_family_in(name: str, tree: ast.Module) -> Iterator[str]:
    if name == "tournaments/errors.py":
        return
    refusing = any(part in "/" + name for part in REFUSING)
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and refusing:
            bases = {getattr(b, "id", getattr(b, "attr", "")) for b in node.bases}
            if bases & BUILTIN_ERRORS:
                yield at(name, node, f"error {node.name} outside the family")
        if isinstance(node, ast.ClassDef):
            for stmt in node.body:
                target = (
                    getattr(stmt, "target", None) or (getattr(stmt, "targets", [None]) or [None])[0]
                )
                value = getattr(stmt, "value", None)
                if (
                    isinstance(target, ast.Name)
                    and target.id == "code"
                    and isinstance(value, ast.Constant)
                    and isinstance(value.value, str)
                ):
                    yield at(name, stmt, f"a code {value.value!r} not in Code")
        if isinstance(node, ast.Dict):
            pairs = {
                k.value: v
                for k, v in zip(node.keys, node.values, strict=True)
                if isinstance(k, ast.Constant)
            }
            code = pairs.get("code")
            if "error" in pairs and isinstance(code, ast.Constant):
                yield at(name, node, f"an error answer with a code {code.value!r}")


def one_error_family(root: Path) -> list[str]:
    """tournaments/errors.py: ServiceError and its Code (tests/tournaments/test_errors.py).
    Nothing that answers a user (services, views, API, forms, exporters) declares an error
    outside the family, no class sets its code as a bare string, and no answer writes its own
    ``{"error", "code"}``."""
    hits = each_file(root, _one_error_family_in, ("tournaments", "arbitration"))
    return hits


ROLE_CODES = {"organiser", "chief_referee", "table_referee", "committee", "captain"}
OFFICIAL_ROLES = {"ORGANISER", "CHIEF_REFEREE", "TABLE_REFEREE", "COMMITTEE", "CHIEF", "TABLE"}


PERMISSION_HOMES = ("tournaments/permissions.py", "tournaments/models/")


def _permission_table_in(name: str, tree: ast.Module) -> Iterator[str]:
    if not outside(name, *PERMISSION_HOMES):
        return
    page = "/views/" in name or "/api/" in name
    for node in ast.walk(tree):
        if not isinstance(node, ast.Compare):
            continue
        for side in [node.left, *node.comparators]:
            values = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
            for value in values:
                if isinstance(value, ast.Constant) and value.value in ROLE_CODES:
                    yield at(name, node, f"compares a role with {value.value!r}")
                if page and isinstance(value, ast.Attribute) and value.attr in OFFICIAL_ROLES:
                    yield at(name, node, f"asks for the role {value.attr}")


def permission_table(root: Path) -> list[str]:
    """tournaments/permissions.py: ACTIONS, may, require (tests/tournaments/test_permissions.py).
    No code compares a role with a role's code, no view or API asks whether a user holds an
    official's role, and no template asks a role by its code."""
    hits = each_file(root, _permission_table_in, ("tournaments", "arbitration"))
    roles = "|".join(ROLE_CODES)
    asked = rf"\{{%[^%]*(==|!=|\bin\b)\s*[\"']({roles})[\"'][^%]*%\}}"
    return hits + text_hits(asked, templates(root), "asks a role by its code")


LANGUAGES = {"zh", "zh-hans", "zh_hans", "zh-cn", "en", "en-us"}
TRANSLATION_HOMES = (
    "rules_engine/words.py",
    "rules_engine/i18n.py",
    "rules_engine/locale_zh.py",
    "config/",
)


def _translation_path_in(name: str, tree: ast.Module) -> Iterator[str]:
    if not outside(name, *TRANSLATION_HOMES):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            keys = {str(k.value).lower() for k in node.keys if isinstance(k, ast.Constant)}
            if keys & LANGUAGES:
                yield at(name, node, "keeps a text per language")
        if isinstance(node, ast.Compare):
            for side in [node.left, *node.comparators]:
                values = side.elts if isinstance(side, ast.Tuple | ast.List | ast.Set) else [side]
                if any(
                    isinstance(v, ast.Constant) and str(v.value).lower() in LANGUAGES
                    for v in values
                ):
                    yield at(name, node, "chooses words by the language")


def translation_path(root: Path) -> list[str]:
    """User-facing text goes through gettext and the .po files (tests/test_translations.py);
    the engine's words are rules_engine/words.py, i18n.py and locale_zh.py. No other module
    keeps a text per language or asks which language is active to choose words."""
    hits = each_file(root, _translation_path_in, ())
    return hits


def setting_names(root: Path) -> set[str]:
    """The event settings declared with rules_engine.schema.setting."""
    return set(each_file(root, _settings_in, ("rules_engine",)))


def _settings_in(name: str, tree: ast.Module) -> Iterator[str]:
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(node.value, ast.Call)
            and getattr(node.value.func, "id", "") == "setting"
        ):
            yield node.target.id


TEXT_CALLS = {"_", "gettext", "gettext_lazy", "pgettext", "pgettext_lazy", "gettext_noop"}


def _setting_declared_once_in(name: str, tree: ast.Module, declared: frozenset) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name.endswith("Form"):
            for stmt in node.body:
                targets = getattr(stmt, "targets", None) or [getattr(stmt, "target", None)]
                for target in targets:
                    if isinstance(target, ast.Name) and target.id in declared:
                        yield at(name, stmt, f"a second field {target.id}")
        if isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if (
                    isinstance(key, ast.Constant)
                    and key.value in declared
                    and isinstance(value, ast.Call)
                    and getattr(value.func, "id", "") in TEXT_CALLS
                ):
                    yield at(name, node, f"words the setting {key.value}")


def setting_declared_once(root: Path) -> list[str]:
    """rules_engine.schema.setting on Preset's and LadderSettings' fields is each event
    setting's one declaration; the form, the validation and the README table are made from it
    (tests/rules_engine/test_settings_table.py). No form or serializer declares a field named
    after a setting (the API's stage serializer takes a stage's own match format), and no
    module words a setting in a table of its own."""
    declared = frozenset(setting_names(root))
    assert len(declared) > 10, declared  # the declarations are found
    hits = each_file(root, _setting_declared_once_in, ("tournaments", "arbitration"), declared)
    form = sources(root, "tournaments")["tournaments/forms_settings.py"]
    hits += [f"forms_settings.py {w}" for w in ("LABELS = {", "CHOICE_LABELS") if w in form]
    return hits


def _export_path_in(name: str, tree: ast.Module) -> Iterator[str]:
    if name.startswith("tournaments/exporters/"):
        return
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            modules = [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            modules += [a.name for a in node.names] if isinstance(node, ast.Import) else []
            if any(
                m.split(".")[0] in ("csv", "weasyprint", "reportlab", "xlsxwriter") for m in modules
            ):
                yield at(name, node, f"imports {modules}")
        if isinstance(node, ast.Call):
            func = node.func
            called = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if called in ("Workbook", "DictWriter", "write_pdf"):
                yield at(name, node, f"writes a file ({called})")


def export_path(root: Path) -> list[str]:
    """Every file a user downloads is written in tournaments/exporters/ (as a job;
    tests/tournaments/services/test_exports.py): nowhere else makes a workbook, a CSV writer
    or a PDF."""
    hits = each_file(root, _export_path_in, ("tournaments", "arbitration"))
    return hits


NAME_HOME = "tournaments/services/registration.py"
NAME_CHECKS = ("tournaments/forms", "tournaments/api/", "arbitration/forms", "arbitration/api/")


def _team_names_are_checked_by_the_service_in(
    name: str, tree: ast.Module, refusals: frozenset
) -> Iterator[str]:
    checks, home = NAME_CHECKS, NAME_HOME
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef) and node.name in ("clean_name", "validate_name"):
            if name.startswith(checks):
                yield at(name, node, f"checks a name in {node.name}")
        if isinstance(node, ast.Call) and name.startswith(checks):
            keys = {k.arg for k in node.keywords}
            if keys & {"name", "name__iexact", "name__exact", "name__in"} and getattr(
                node.func, "attr", ""
            ) in ("filter", "exclude", "get"):
                yield at(name, node, "looks a team up by name")
        if isinstance(node, ast.Constant) and name != home:
            if node.value in refusals:
                yield at(name, node, "words the name's refusal")
            if node.value == "team_unique_name" and name != "tournaments/models/events.py":
                yield at(name, node, "names the constraint")


def team_names_are_checked_by_the_service(root: Path) -> list[str]:
    """services/registration.py (taken_names) and the database's team_unique_name
    (tests/tournaments/services/test_team_uniqueness.py): no form or serializer looks a team
    up by its name, and the refusal's words are the service's."""
    service = strings(parsed((root / NAME_HOME).read_text("utf-8")))
    refusals = frozenset(s.value for s in service if "already" in s.value)
    assert refusals  # the service's refusal is found
    folders = ("tournaments", "arbitration")
    return each_file(root, _team_names_are_checked_by_the_service_in, folders, refusals)


QUANTITY = r"\b(?:[2-9]|\d\d+)\s*(?:minutes|seconds|hours|分钟|秒)"  # "1 minute at first": a rule


def _texts_quote_the_settings_in(name: str, tree: ast.Module) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") in TEXT_CALLS:
            for arg in node.args:
                if isinstance(arg, ast.Constant) and re.search(QUANTITY, str(arg.value)):
                    yield at(name, node, "a text quotes a setting")


def texts_quote_the_settings(root: Path) -> list[str]:
    """ruling.html reads appeal_minutes, the seating card late_limit_minutes, the new-event
    form the presets' round lengths (tests/arbitration/views/test_setting_texts.py): no
    translated sentence holds a number of minutes, seconds or hours."""
    quantity = QUANTITY
    block = r"\{%\s*blocktrans(?:late)?\b[^%]*%\}(?:(?!\{%\s*endblocktrans).)*?" + quantity
    single = r"\{%\s*trans(?:late)?\s+[\"'][^\"']*" + quantity
    pages = templates(root)
    hits = text_hits(block, pages, "a sentence quotes a setting", re.S)
    hits += text_hits(single, pages, "a text quotes a setting")
    hits += each_file(root, _texts_quote_the_settings_in, ("tournaments", "arbitration"))
    return hits


def preset_names_read_the_presets(root: Path) -> list[str]:
    """glossary.preset_name from rules_engine.presets.scoring_terms
    (tests/tournaments/test_preset_names.py); pairing/simulation.py asks the engine."""
    files = sources(root, *APPS)
    glossary = files["tournaments/glossary.py"]
    presets = glossary.split("PRESETS = {", 1)[1].split("}", 1)[0]
    hits = [
        f"tournaments/glossary.py {m}"
        for m in re.findall(r"(?:win|draw|loss) \d|\d+-point|\d/\d/\d", presets)
    ]
    hits += text_hits(
        r'"[WDLB]"\s*:\s*\d', {k: files[k] for k in ["tournaments/pairing/simulation.py"]}
    )
    titles = re.findall(r'title="([^"]*)"', files["rules_engine/presets.py"])
    assert titles  # the titles are found
    wrong = [t for t in titles if re.search(r"win \d|\d+-point|\d/\d", t)]
    return hits + [f"rules_engine/presets.py title {t!r}" for t in wrong]


def one_clock_module(root: Path) -> list[str]:
    """static/js/clock.js (tests/e2e/test_public_pages.py): no other script pads, counts hours
    or corrects the clock's skew."""
    others = {k: v for k, v in scripts(root).items() if k != "static/js/clock.js"}
    clock = r"function pad\(|\bpad\s*=\s*function|Date\.now\(\)\s*\+\s*\w*\.?skew|Math\.floor\(\w+ / 3600\)"
    return text_hits(clock, others)


def adjustments_are_the_records(root: Path) -> list[str]:
    """ "adjustments" in code are a match record's (rules_engine/adjustments.py: a ruling's
    effect on the result); a team moved down the standings is a ranking adjustment
    (tournaments/services/ranking_adjustments.py, RankingAdjustment), held as a ``drop``."""
    files = sources(root, *APPS)
    hits = [
        n for n in files if n.endswith("/adjustments.py") and n != "rules_engine/adjustments.py"
    ]
    ranking = r"\badjustments?\s*=\s*(add_ranking_adjustment|RankingAdjustment\.objects)"
    hits += text_hits(ranking, files)
    return hits + text_hits(r"def \w+\(\s*adjustments?\s*:\s*RankingAdjustment", files)


CHECKS: list[Callable[[Path], list[str]]] = [
    upload_limit,
    home_side,
    side_words_in_pages,
    no_name_joins_the_two_words,
    best_of_three,
    sql_one_package,
    freshness_one_module,
    audit_registry,
    one_error_family,
    permission_table,
    translation_path,
    setting_declared_once,
    export_path,
    team_names_are_checked_by_the_service,
    texts_quote_the_settings,
    preset_names_read_the_presets,
    one_clock_module,
    adjustments_are_the_records,
]


def test_each_thing_has_one_home():
    """One test for all checks: they share one reading of the tree (under pytest-xdist a
    test per check read and parsed it again in each process)."""
    second_homes = {check.__name__: hits for check in CHECKS if (hits := check(ROOT))}
    assert second_homes == {}
