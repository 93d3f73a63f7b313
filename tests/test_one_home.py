"""One home for each rule, limit and setting (issue 29), checked by reading the source.

Each test names the one place a thing is defined and fails when a second definition appears
elsewhere: a number, a literal or a code shape that would decide it again. The behaviour
behind each is tested where it lives (named in each test's docstring).
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
APPS = ("tournaments", "arbitration", "config", "rules_engine")


def sources(*folders: str, suffix: str = ".py") -> dict[str, str]:
    """path (from the repository root) -> text, for the product's files under ``folders``."""
    found = {}
    for folder in folders:
        for path in sorted((ROOT / folder).rglob(f"*{suffix}")):
            if "migrations" in path.parts or "__pycache__" in path.parts:
                continue
            if "vendor" in path.parts:
                continue
            found[str(path.relative_to(ROOT))] = path.read_text("utf-8")
    return found


def code_lines(text: str) -> list[str]:
    """The lines of Python code, without comments and docstrings (a rule explained in words
    is not a second definition)."""
    text = re.sub(r'"""(?:.|\n)*?"""', lambda m: "\n" * m.group().count("\n"), text)
    return [line.split("#", 1)[0] for line in text.splitlines()]


def where(pattern: str, files: dict[str, str], code_only: bool = True) -> list[str]:
    """``file:line`` of every match of ``pattern``."""
    regex = re.compile(pattern)
    hits = []
    for name, text in files.items():
        lines = code_lines(text) if code_only and name.endswith(".py") else text.splitlines()
        hits += [f"{name}:{n}" for n, line in enumerate(lines, 1) if regex.search(line)]
    return hits


PY = sources(*APPS)
JS = sources("static/js", suffix=".js")
HTML = sources("templates", suffix=".html")


def only_in(hits: list[str], *homes: str) -> list[str]:
    return [hit for hit in hits if not hit.startswith(homes)]


def test_the_upload_limit_is_read_from_settings_in_one_place():
    """tournaments/upload_limit.py (tests/tournaments/test_upload_limit.py)."""
    assert (
        only_in(
            where(r"PAISAI_MAX_UPLOAD_BYTES", PY),
            "tournaments/upload_limit.py",
            "config/settings.py",
        )
        == []
    )
    assert (
        where(
            r"MAX_BYTES|\d+ \* 1024 \* 1024",
            {
                k: v
                for k, v in PY.items()
                if k.startswith(
                    (
                        "tournaments/forms",
                        "tournaments/api",
                        "tournaments/middleware",
                        "tournaments/validation",
                    )
                )
            },
        )
        == []
    )
    assert where(r"larger than \d+ MB", {**PY, **HTML}) == []


def test_team_name_uniqueness_is_the_service_and_the_constraint():
    """services/registration.py (taken_names) and the database's team_unique_name
    (tests/tournaments/services/test_team_uniqueness.py)."""
    message = r"A team with this name is already registered"
    assert only_in(where(message, PY), "tournaments/services/registration.py") == []
    checks = {k: PY[k] for k in ("tournaments/forms.py", "tournaments/api/serializers.py")}
    assert where(r"def (clean_name|validate_name)\b|filter\(.*\bname=", checks) == []
    assert (
        only_in(
            where(r"team_unique_name", PY),
            "tournaments/models/events.py",
            "tournaments/services/registration.py",
        )
        == []
    )


HOME_EW = [  # code that would decide again which side the home team plays
    r'\(\s*"EW"\s*,\s*\w+\.home\b',
    r'"EW"\s*:\s*\w*\.?home',
    r'"EW"\s+if\s+.*home',
    r'home.*\s+if\s+.*==\s*"EW"',
    r'==\s*"EW"\s*else\s*\w*\.?(home|away)',
    r'===?\s*"EW"\s*\?\s*cfg\.home',
    r'side\s*===?\s*"EW"',
    r'side\s*==\s*"EW"',
    r'winner\s*==\s*"EW"',
]


def test_home_plays_east_west_is_asked_of_the_engine():
    """rules_engine/seating.py: side_of, by_side, is_home (tests/rules_engine/
    test_seating_sides.py); the table page's JS receives side_teams from the server."""
    app = {k: v for k, v in PY.items() if not k.startswith("rules_engine/")}
    for pattern in HOME_EW:
        assert where(pattern, app) == [], pattern
        assert where(pattern, JS) == [], pattern
    assert where(r'==\s*"EW"\s*%}.*\.home\.', HTML) == []
    assert (
        only_in(where(r'_HOME_SIDE, _AWAY_SIDE = "EW", "NS"', PY), "rules_engine/seating.py") == []
    )


IDENTIFIER = re.compile(r"\b[A-Za-z_][A-Za-z0-9_]*\b")
TEAM_WORDS = {"home", "away"}  # a team's place in a match: pairing, standings, forms, models
SEAT_WORDS = {"ew", "ns"}  # the sides at the table: the engine's records and seats


def test_sides_have_one_word_each_and_no_name_joins_the_two():
    """Two things, two words: home/away name a team's place in a match, EW/NS the sides
    of the table a record is scored from; one becomes the other only through
    rules_engine/seating.py (side_of, by_side, is_home). A name holding a word of each
    (``home_ew``, ``ns_away``) would be a second mapping, so none may exist."""
    joined = set()
    for files in (PY, JS, HTML):
        for text in files.values():
            for name in IDENTIFIER.findall(text):
                words = set(name.lower().split("_"))
                if words & TEAM_WORDS and words & SEAT_WORDS:
                    joined.add(name)
    assert joined == set()
    assert "home_ew_level" in {
        name
        for name in IDENTIFIER.findall("x = home_ew_level")
        if set(name.split("_")) & TEAM_WORDS and set(name.split("_")) & SEAT_WORDS
    }  # the check finds such a name


def test_preset_names_and_the_simulation_read_the_presets_numbers():
    """glossary.preset_name from rules_engine.presets.scoring_terms
    (tests/tournaments/test_preset_names.py); pairing/simulation.py asks the engine."""
    glossary = PY["tournaments/glossary.py"]
    presets = glossary.split("PRESETS = {", 1)[1].split("}", 1)[0]
    assert re.findall(r"(win|draw|loss) \d|\d+-point|\d/\d/\d", presets) == []
    assert where(r'"[WDLB]"\s*:\s*\d', {"s": PY["tournaments/pairing/simulation.py"]}) == []
    titles = re.findall(r'title="([^"]*)"', PY["rules_engine/presets.py"])
    assert titles and [t for t in titles if re.search(r"win \d|\d+-point|\d/\d", t)] == []


def test_best_of_three_limits_are_the_match_formats():
    """rules_engine/format_fields.py: BEST_OF, GAMES_TO_WIN, games_of, limits
    (tests/rules_engine/test_match_format.py, tests/e2e/test_table_best_of_three.py)."""
    app = {k: v for k, v in PY.items() if k != "rules_engine/format_fields.py"}
    patterns = (
        r'games"\]\s*==\s*3',
        r'get\("games"\)\s*==\s*3',
        r'"games"\]\s*=\s*3',
        r"games\s*==\s*3\b",
        r"\(1, 2, 3\)",
    )
    for pattern in patterns:
        assert where(pattern, app) == [], pattern
    assert where(r"games\s*===?\s*3|last\s*<\s*2\b|g\s*>=\s*2\b", JS) == []
    assert where(r"games\s*==\s*3", HTML) == []
    assert only_in(where(r"^BEST_OF = ", PY), "rules_engine/format_fields.py") == []


def test_texts_quote_the_settings_they_name():
    """ruling.html reads appeal_minutes, the seating card late_limit_minutes, the new-event
    form the presets' round lengths (tests/arbitration/views/test_setting_texts.py)."""
    quoted = r"(translate|blocktranslate)[^%]*\b\d+ (minutes|seconds)\b"
    assert where(quoted, HTML) == []
    assert where(r'_\(\s*"[^"]*\b\d+ minutes', PY) == []


def test_each_event_setting_is_declared_once():
    """rules_engine.schema.setting on Preset's and LadderSettings' fields; the form, the
    validation and the README table are made from it (tests/rules_engine/
    test_settings_table.py)."""
    form = PY["tournaments/forms_settings.py"]
    assert "LABELS = {" not in form and "CHOICE_LABELS" not in form
    for name in ("appeal_minutes", "fail_a_limit", "time_up", "win_points"):
        assert f'"{name}"' not in form, name
    validate = PY["rules_engine/presets.py"].split("def validate(self)", 1)[1]
    validate = validate.split("def as_dict", 1)[0]
    assert "TIME_UP_RULES" not in validate and "TRIBUTE_DIRECTIONS" not in validate


def test_one_clock_module_in_the_javascript():
    """static/js/clock.js (tests/e2e/test_public_pages.py)."""
    assert (
        only_in(where(r"function pad\(|Date\.now\(\)\s*\+\s*\w*\.?skew", JS), "static/js/clock.js")
        == []
    )
    assert only_in(where(r"Math\.floor\(\w+ / 3600\)", JS), "static/js/clock.js") == []


def test_public_freshness_is_one_module():
    """tournaments/freshness.py (tests/tournaments/test_freshness.py)."""
    app = {k: v for k, v in PY.items() if not k.startswith("rules_engine/")}
    assert only_in(where(r"\binvalidate\(", app), "tournaments/freshness.py") == []
    assert (
        only_in(
            where(r"revision_batch\b", app),
            "tournaments/freshness.py",
            "tournaments/services/",
            "arbitration/services/",
        )
        == []
    )
    assert only_in(where(r"_base_manager", app), "tournaments/freshness.py") == []
    assert not (ROOT / "tournaments/signals.py").exists()


def test_the_hot_paths_sql_is_one_package():
    """tournaments/sql/ (tests/tournaments/test_sql.py); the archive import's sequence reset
    is Django's own SQL."""
    hits = where(r"cursor\.execute\(|\.raw\(|RawSQL", PY)
    assert only_in(hits, "tournaments/sql/", "tournaments/services/archive.py") == []


def test_import_cycles_are_refused_by_the_build():
    """pyproject.toml's acyclic_siblings contracts (tests/test_architecture.py)."""
    config = (ROOT / "pyproject.toml").read_text("utf-8")
    assert 'ancestors = ["tournaments.services"]' in config
    assert 'ancestors = ["rules_engine"]' in config
    assert 'ancestors = ["tournaments", "arbitration", "config"]' in config


def test_adjustments_are_the_records():
    """ "adjustments" in code are a match record's (rules_engine/adjustments.py: a ruling's
    effect on the result); a team moved down the standings is a ranking adjustment
    (tournaments/services/ranking_adjustments.py, RankingAdjustment), held as a ``drop``."""
    named = sorted(str(p.relative_to(ROOT)) for a in APPS for p in (ROOT / a).rglob("*.py"))
    modules = [path for path in named if path.endswith("/adjustments.py")]
    assert modules == ["rules_engine/adjustments.py"]
    ranking = r"\badjustments?\s*=\s*(add_ranking_adjustment|RankingAdjustment\.objects)"
    assert where(ranking, PY) == []
    assert where(r"def \w+\(\s*adjustments?\s*:\s*RankingAdjustment", PY) == []
