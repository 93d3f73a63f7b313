"""One rules engine (issue: the table page offline): the phone runs the server's own
``rules_engine`` in Pyodide, started by the phone's own code (static/js/engine_core.mjs) from
the zip the site serves (tournaments.services.offline). On 10,000 generated records of the
three games under every match format — right deals, deals the rules refuse and deals after
the end — the phone's answers equal the server's, word for word, in Chinese and English.
A smaller sample goes through the results API's preview itself."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from rules_engine import phone
from tests.rules_engine.phone_records import records

ROOT = Path(__file__).resolve().parents[2]
PYODIDE = ROOT / "node_modules" / "pyodide"
SCRIPT = Path(__file__).with_name("phone_parity.mjs")

pytestmark = pytest.mark.skipif(
    not (PYODIDE / "pyodide.mjs").exists() or not shutil.which("node"),
    reason="Pyodide (npm ci) and node are installed by make install",
)


def phone_answers(tmp_path, pairs, lang):
    from tournaments.services import offline

    zip_path = tmp_path / "engine.zip"
    zip_path.write_bytes(offline.engine_bundle().data)
    pairs_path = tmp_path / "pairs.json"
    pairs_path.write_text(json.dumps(pairs, ensure_ascii=False))
    out = tmp_path / "answers.json"
    run = subprocess.run(
        ["node", str(SCRIPT), str(PYODIDE), str(zip_path), str(pairs_path), str(out), lang],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert run.returncode == 0, run.stderr[-2000:]
    result = json.loads(out.read_text())
    print(
        f"phone engine ({lang}): start {result['start_ms']} ms, "
        f"{len(pairs)} answers {result['answer_ms']} ms"
    )
    return result["answers"]


def test_phone_and_server_engines_answer_10000_generated_records_alike(tmp_path):
    pairs = [list(pair) for pair in records(seed=2026, n=10_000)]
    games = {base["game"] for _, base in pairs}
    assert games == {"guandan", "tractor", "chengyu"}
    langs = ["zh-hans" if i % 4 else "en" for i in range(len(pairs))]
    server = [
        {"status": status, "data": data}
        for (record, base), lang in zip(pairs, langs, strict=True)
        for status, data in [phone.answer(record, base, lang)]
    ]
    assert {a["status"] for a in server} == {200, 400}  # both kinds of answer are compared
    mobile = []
    for lang in ("zh-hans", "en"):
        chosen = [pair for pair, lg in zip(pairs, langs, strict=True) if lg == lang]
        mobile.append(iter(phone_answers(tmp_path, chosen, lang)))
    by_lang = dict(zip(("zh-hans", "en"), mobile, strict=True))
    differ = []
    for i, lang in enumerate(langs):
        answer = next(by_lang[lang])
        if answer != server[i]:
            differ.append((i, pairs[i], server[i], answer))
    assert differ == [], differ[:3]


@pytest.mark.django_db
@pytest.mark.parametrize("game", ["guandan", "tractor", "chengyu"])
def test_the_results_apis_preview_answers_what_rules_engine_phone_answers(
    game, make_event, make_user, grant
):
    """The server's preview (the API the table page asks online) is rules_engine.phone with
    the match's base: same status, same data, in the page's language."""
    from rest_framework.test import APIClient

    from tests.factories import round_
    from tournaments.models import Round, Team
    from tournaments.services import results

    event = make_event(teams=2, game=game)
    teams = list(Team.objects.filter(event=event).order_by("name"))
    rnd = round_(event, 1, [(teams[0], teams[1])], status=Round.Status.IN_PLAY)
    match = rnd.matches.get()
    chief = grant(make_user(f"chief-{game}"), event, "chief_referee")
    client = APIClient()
    client.force_authenticate(chief)
    base = results.engine_base(match)
    sample = [(r, b) for r, b in records(seed=7, n=300) if b["game"] == game][:40]
    assert len(sample) >= 10
    url = f"/api/tournaments/{event.slug}/matches/{match.pk}/preview/"
    for record, _ in sample:
        for lang in ("zh-hans", "en"):
            answer = client.post(url, {"record": record}, format="json", HTTP_ACCEPT_LANGUAGE=lang)
            status, data = phone.answer(record, base, lang)
            assert (answer.status_code, answer.json()) == (status, data), record
