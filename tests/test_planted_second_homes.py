"""A second home planted in a copy of the tree is caught by tests/test_one_home.py (issue 37).

Each plant is what a contributor might plausibly write: a limit, a side, a rule, a registry or
an export path that already has its one home, written again somewhere else in a spelling the
old grep lists did not know. One at a time, each is written into a copy of the product's
sources (tournaments/, arbitration/, config/, rules_engine/, static/js/, templates/), every
one-home check is run on the copy, and the plant must be among what they find. The checks
find nothing on the real tree (tests/test_one_home.py), so what they find on the copy is the
plant.

Before issue 37 the grep lists caught 5 of the first 20 plants below; see the module's
``BEFORE`` (measured once by running the old tests/test_one_home.py on each planted copy).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_one_home import CHECKS, ROOT

FOLDERS = ("tournaments", "arbitration", "config", "rules_engine", "static/js", "templates")

# (what it is, the file it goes in, the text added at the end of that file)
PLANTS = [
    (
        "an upload limit written 5_000_000",
        "tournaments/api/registration_import.py",
        "\n\ndef too_big(upload):\n    return upload.size > 5_000_000\n",
    ),
    (
        "an upload limit in a module outside the four old prefixes",
        "tournaments/views/registration.py",
        "\n\nUPLOAD_LIMIT = 5 * 1024 * 1024\n",
    ),
    (
        "the upload setting read a second time",
        "tournaments/services/registration_import.py",
        "\n\ndef fits(data):\n    return len(data) <= settings.PAISAI_MAX_UPLOAD_BYTES\n",
    ),
    (
        "SIDE_OF_HOME = {True: 'EW'}",
        "tournaments/services/find_table.py",
        '\n\nSIDE_OF_HOME = {True: "EW", False: "NS"}\n',
    ),
    (
        "a script's isHome ? 'EW' : 'NS'",
        "static/js/table.js",
        '\nfunction sideOf(isHome) { return isHome ? "EW" : "NS"; }\n',
    ),
    (
        "a template's {% if row.home %}东西",
        "templates/tournaments/public/team.html",
        "\n{% if row.home %}东西{% else %}南北{% endif %}\n",
    ),
    (
        "a template wording the home team's side",
        "templates/tournaments/results/round.html",
        '\n{% if m.home %}{% translate "East–West" %}{% endif %}\n',
    ),
    (
        "a service asking whether the winner is the home side",
        "tournaments/views/results.py",
        '\n\ndef home_won(outcome):\n    return outcome.get("winner") == "EW"\n',
    ),
    (
        "len(games) > 3",
        "tournaments/services/stage_rounds.py",
        "\n\ndef too_many(games):\n    return len(games) > 3\n",
    ),
    (
        "a script's best of three: games.length >= 3",
        "static/js/table_match_end.js",
        "\nfunction overByGames(games) { return games.length >= 3; }\n",
    ),
    (
        "a cursor named c",
        "tournaments/services/rounds.py",
        "\n\ndef reopen(round_id):\n    from django.db import connection\n\n"
        "    with connection.cursor() as c:\n"
        "        c.execute(\"UPDATE tournaments_round SET state = 'open' WHERE id = %s\", [round_id])\n",
    ),
    (
        "invalidate as bump",
        "tournaments/services/registration.py",
        "\n\nfrom tournaments.freshness import invalidate as bump  # noqa\n\n\n"
        "def touch(event):\n    bump(event.pk)\n",
    ),
    (
        "a second audit-action table",
        "tournaments/views/audit.py",
        '\n\nAUDIT_WORDS = {"result.confirm": pgettext_lazy("audit", "Result confirmed")}\n',
    ),
    (
        "an error class of its own with its own code",
        "tournaments/services/registration_import.py",
        '\n\nclass ImportRefused(Exception):\n    code = "import_refused"\n',
    ),
    (
        'a permission check if role == "chief_referee" in a view',
        "tournaments/views/rounds.py",
        '\n\ndef may_publish(role):\n    if role == "chief_referee":\n        return True\n'
        "    return False\n",
    ),
    (
        "a text kept per language",
        "tournaments/views/board.py",
        '\n\ndef welcome(language):\n    return {"zh-hans": "欢迎", "en": "Welcome"}[language]\n',
    ),
    (
        "an event setting declared again in a form",
        "tournaments/forms.py",
        "\n\nclass AppealWindowForm(forms.Form):\n"
        '    appeal_minutes = forms.IntegerField(label=_("Appeal window"), min_value=1)\n',
    ),
    (
        "a CSV written beside the exporters",
        "tournaments/views/standings.py",
        "\n\nimport csv  # noqa\n\n\ndef standings_csv(rows, out):\n"
        "    csv.writer(out).writerows(rows)\n",
    ),
    (
        "a sentence quoting a setting across its blocktranslate",
        "templates/arbitration/ruling.html",
        "\n{% blocktranslate %}An appeal may be filed within 30 minutes of the end of the "
        "match.{% endblocktranslate %}\n",
    ),
    (
        "a serializer checking a team name again",
        "tournaments/api/serializers.py",
        "\n\ndef unique_name(event, value):\n"
        "    return not Team.objects.filter(event=event, name__iexact=value).exists()\n",
    ),
    (
        "a second clock in a script",
        "static/js/projector.js",
        '\nfunction pad(n) { return (n < 10 ? "0" : "") + n; }\n',
    ),
    (
        "a name joining the two words",
        "tournaments/services/brackets.py",
        "\n\nhome_ew = None\n",
    ),
    (
        "a preset's title giving its points",
        "rules_engine/presets.py",
        '\n\nEXTRA = dict(title="win 3, draw 1")\n',
    ),
    (
        "a second adjustments module",
        "tournaments/services/adjustments.py",
        '"""Ranking adjustments."""\n',
    ),
]

# Caught by the old grep lists (tests/test_one_home.py before issue 37, run once on a copy of
# the tree with each plant in it): 5 of these 24, 3 of the first 22.
BEFORE = {
    "the upload setting read a second time",
    "a second clock in a script",
    "a name joining the two words",
    "a preset's title giving its points",
    "a second adjustments module",
}


@pytest.fixture(scope="module")
def copy_of_the_tree(tmp_path_factory) -> Path:
    tree = tmp_path_factory.mktemp("tree")
    for folder in FOLDERS:
        shutil.copytree(
            ROOT / folder,
            tree / folder,
            ignore=shutil.ignore_patterns("__pycache__", "migrations", "vendor"),
        )
    return tree


def found(root: Path) -> set[str]:
    return {f"{check.__name__}: {hit}" for check in CHECKS for hit in check(root)}


def caught(root: Path, path: str, text: str) -> list[str]:
    """What the checks find in ``path`` with ``text`` added to it (or as a new file)."""
    target = root / path
    before = target.read_text("utf-8") if target.exists() else None
    target.write_text((before or "") + text, "utf-8")
    try:
        return sorted(hit for hit in found(root) if path in hit)
    finally:
        if before is None:
            target.unlink()
        else:
            target.write_text(before, "utf-8")


def test_each_planted_second_home_is_caught(copy_of_the_tree):
    assert found(copy_of_the_tree) == set()  # the copy as it is: nothing
    missed = [what for what, path, text in PLANTS if not caught(copy_of_the_tree, path, text)]
    print(
        f"\nplanted second homes caught: {len(PLANTS) - len(missed)} of {len(PLANTS)} "
        f"(before issue 37: {len(BEFORE)} of {len(PLANTS)})"
    )
    assert missed == []
    assert found(copy_of_the_tree) == set()  # and every plant was removed


def test_there_are_at_least_the_issues_seventeen_plants():
    assert len(PLANTS) >= 17 and len({p[0] for p in PLANTS}) == len(PLANTS)
