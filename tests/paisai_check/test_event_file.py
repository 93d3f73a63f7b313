"""The event file (.paisai.json) and its checker (issue 38): a Swiss event played through the
services is exported by the export job, and ``paisai_check`` finds everything the same; a file
edited by hand is answered with what no longer agrees."""

from __future__ import annotations

import copy
import io
import json
import subprocess
import sys
import time
from pathlib import Path

import jsonschema
import pytest
from django.urls import reverse

import paisai_check
from paisai_check import BadFile, check, main
from tests import factories
from tournaments.exporters import exports
from tournaments.models import AuditLog
from tournaments.pairing.core import PairingTeam
from tournaments.pairing.quality import round_quality

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "paisai_check" / "paisai-event.schema.json").read_text("utf-8"))
TEAMS, ROUNDS = 41, 5  # odd: a bye every round; the default run's scale


def exported(event) -> dict:
    """The event file as the export job makes it."""
    job = exports.create_job(event, "event-file", {}, factories.organiser_of(event))
    exports.run_export(job)
    job.refresh_from_db()
    assert job.status == "done", job.error
    assert job.file.name.endswith(".paisai.json")
    with job.file.open("rb") as handle:
        return json.loads(handle.read())


def validate(data: dict) -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(data)


def run(data: dict, tmp_path) -> tuple[int, str]:
    path = tmp_path / "event.paisai.json"
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    out = io.StringIO()
    return main([str(path)], out=out), out.getvalue()


@pytest.fixture
def played(media):
    return factories.swiss_event(teams=TEAMS, rounds=ROUNDS, seed=11)


@pytest.fixture
def file_data(played):
    return exported(played)


def test_the_file_says_what_was_played(played, file_data):
    data = file_data
    assert (data["format"], data["version"]) == ("paisai-event", 1)
    assert [r["number"] for r in data["rounds"]] == list(range(1, ROUNDS + 1))
    assert data["rounds"][0]["draw_seed"] == 11
    assert {"what": "round_draw", "round": 1, "seed": 11} in data["seeds"]
    # 41 teams, 40 once one withdraws after round 2, 39 while one is on leave in round 3
    assert [len(r["byes"]) for r in data["rounds"]] == [1, 1, 1, 0, 0]
    facts = played.facts
    assert data["withdrawals"] == [
        {
            "team": facts.withdrawn.pk,
            "status": "withdrawn",
            "before": "active",
            "after_round": 2,
            "reason": "went home ill",
        }
    ]
    assert facts.withdrawn.pk not in data["rounds"][2]["field"]
    assert facts.on_leave.pk not in data["rounds"][2]["field"]
    assert data["leaves"][0]["team"] == facts.on_leave.pk
    [ruling] = data["rulings"]
    assert (ruling["step"], ruling["round"], ruling["table"]) == ("level_deduction", 2, 1)
    ruled = data["rounds"][1]["tables"][0]["result"]
    assert ruled["kind"] == "ruling" and ruled["record"]["adjustments"]
    assert facts.lot is not None and data["lots"][0]["order"] == facts.lot.order
    every = [t for r in data["rounds"] for t in r["tables"]]
    assert all(t["result"]["record"]["deals"] for t in every)
    assert data["rules"]["values"]["standings_order"][0] == "points"
    validate(data)


def test_the_checker_finds_every_round_the_same(file_data, tmp_path):
    code, text = run(file_data, tmp_path)
    assert code == 0, text
    for number in range(1, ROUNDS + 1):
        assert f"round {number}: same\n" in text
    assert "lots: same" in text and "final standings: same" in text
    assert "official ranking: same" in text
    assert text.rstrip().endswith("everything agrees")


def edit_result(data: dict) -> tuple[int, int]:
    table = data["rounds"][2]["tables"][3]  # round 3, table 4: the points swapped
    score = table["result"]["score"]
    score["home_points"], score["away_points"] = score["away_points"], score["home_points"]
    return 3, table["table"]


def edit_pairing(data: dict) -> tuple[int, list[int]]:
    last = data["rounds"][-1]  # the last round: two tables exchange their away teams
    first, second = last["tables"][0], last["tables"][1]
    first["away"], second["away"] = second["away"], first["away"]
    return last["number"], [first["table"], second["table"]]


def edit_lot(data: dict) -> int:
    lot = data["lots"][0]
    lot["order"] = list(reversed(lot["order"]))
    return lot["id"]


def lines_of(report, kind: str) -> list[str]:
    return [f"{d.where} {d.text}" for d in report.differences if d.kind == kind]


def test_a_file_edited_by_hand_is_answered_with_what_no_longer_agrees(file_data, tmp_path):
    data = copy.deepcopy(file_data)
    result_round, result_table = edit_result(data)
    pairing_round, tables = edit_pairing(data)
    lot = edit_lot(data)
    report = check(data)
    assert not report.same
    assert {"score", "pairing", "lot"} <= report.kinds()
    [score] = lines_of(report, "score")
    assert score.startswith(f"round {result_round} table {result_table} ")
    pairings = lines_of(report, "pairing")
    assert {line.split(":")[0] for line in pairings} == {
        f"round {pairing_round} table {t}" for t in tables
    }
    [lot_line] = lines_of(report, "lot")
    assert lot_line.startswith(f"lots lot {lot} ")
    # the rounds before the edited pairing still agree but for the edited score
    for where, found, _ in report.sections:
        if where.startswith("round ") and int(where.split()[1]) < pairing_round:
            assert {d.kind for d in found} <= {"score"}, found
    code, text = run(data, tmp_path)
    assert code == 1
    assert f"round {result_round}: differs" in text and "lots: differs" in text
    assert "(rule: the record scored by the rules engine" in text
    assert "(rule: Swiss pairing from the standings before the round" in text
    assert "(rule: lots: random.Random(seed).shuffle" in text


@pytest.mark.parametrize("edit", ["result", "pairing", "lot"])
def test_each_edit_alone_is_named(file_data, edit):
    data = copy.deepcopy(file_data)
    {"result": edit_result, "pairing": edit_pairing, "lot": edit_lot}[edit](data)
    kind = {"result": "score"}.get(edit, edit)
    report = check(data)
    assert kind in report.kinds()
    if edit != "pairing":  # a pairing changed moves the places after it as well
        assert report.kinds() == {kind}


def test_a_changed_place_is_named(file_data):
    data = copy.deepcopy(file_data)
    rows = data["final_standings"]
    rows[0]["rank"], rows[1]["rank"] = 2, 1
    report = check(data)
    assert report.kinds() == {"place"}
    assert all(d.where == "final standings" for d in report.differences)
    assert "standings order points > " in report.differences[0].rule


def test_a_changed_official_ranking_is_named(file_data):
    data = copy.deepcopy(file_data)
    rows = data["official_ranking"]
    rows[0], rows[1] = rows[1], rows[0]
    report = check(data)
    assert report.kinds() == {"place"}
    assert [d.where for d in report.differences] == ["official ranking"] * 2
    assert report.differences[0].text.startswith("place 1: the file has ")


def test_a_changed_deal_record_is_rescored(file_data):
    data = copy.deepcopy(file_data)
    table = data["rounds"][0]["tables"][0]
    deal = table["result"]["record"]["deals"][0]
    deal["finish"] = ["S", "N", "E", "W"] if deal["finish"][0] in "EW" else ["E", "W", "S", "N"]
    report = check(data)
    [found] = [d for d in report.differences if d.kind == "score"]
    assert found.where == "round 1" and found.text.startswith(f"table {table['table']} ")


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("not json", "is not JSON"),
        ('{"format": "other"}', "not a paisai event file"),
        ('{"format": "paisai-event", "version": 9}', "version 9 is not supported"),
        ('{"format": "paisai-event", "version": 1, "event": {}}', '"rules" is missing'),
    ],
)
def test_a_bad_file_exits_2_with_a_message(tmp_path, content, says):
    path = tmp_path / "bad.paisai.json"
    path.write_text(content)
    out = io.StringIO()
    assert main([str(path)], out=out) == 2
    assert says in out.getvalue() and out.getvalue().startswith("paisai_check: bad file: ")


def test_a_file_with_a_broken_reference_is_a_bad_file(file_data, tmp_path):
    data = copy.deepcopy(file_data)
    del data["rounds"][1]["tables"][0]["home"]
    with pytest.raises(BadFile, match=r"schema says: rounds\[1\]\.tables\[0\]: 'home' is"):
        check(data)
    assert run(data, tmp_path)[0] == 2
    data = copy.deepcopy(file_data)
    data["rounds"][0]["tables"][0]["away"] = "Team 002"
    with pytest.raises(BadFile, match=r"tables\[0\]\.away: 'Team 002' is not of type"):
        check(data)
    data = copy.deepcopy(file_data)
    data["rounds"][0]["tables"][0]["away"] = 999999  # no such team: the schema cannot say
    with pytest.raises(BadFile, match="refused: round 1: unknown team 999999"):
        check(data)
    data = copy.deepcopy(file_data)
    data["rules"]["preset"] = "no-such-preset"
    assert run(data, tmp_path)[0] == 2
    assert main([str(tmp_path / "missing.json")], out=io.StringIO()) == 2


def test_the_quality_report_is_recomputed_independently(file_data):
    """Each round's figures from the file's own tables and the standings before the round."""
    data = file_data
    teams = {team["id"]: team for team in data["teams"]}
    met: set[frozenset] = set()
    had_bye: set[int] = set()
    sides: dict[int, int] = {}
    points: dict[int, float] = {}
    for rnd in data["rounds"]:
        q = rnd["quality"]
        pairs = [(t["home"], t["away"]) for t in rnd["tables"]]
        assert q["tables"] == len(pairs)
        assert q["rematches"] == sum(frozenset(p) in met for p in pairs)
        gaps = [abs(points.get(h, 0) - points.get(a, 0)) for h, a in pairs]
        assert q["floats"] == sum(gap > 0 for gap in gaps)
        assert q["largest_score_difference"] == max(gaps)
        assert q["unit_clashes"] == sum(teams[h]["unit"] == teams[a]["unit"] for h, a in pairs)
        assert q["byes"] == rnd["byes"]
        assert q["repeated_byes"] == [t for t in rnd["byes"] if t in had_bye]
        for home, away in pairs:
            sides[home] = sides.get(home, 0) + 1
            sides[away] = sides.get(away, 0) - 1
        playing = {team for pair in pairs for team in pair}
        assert q["side_imbalanced"] == sum(abs(sides[t]) >= 2 for t in playing)
        met.update(frozenset(p) for p in pairs)
        had_bye.update(rnd["byes"])
        points = {row["team"]: row["points"] for row in rnd["standings"]}
    assert data["rounds"][0]["quality"]["floats"] == 0  # round 1: everyone level
    assert any(r["quality"]["floats"] for r in data["rounds"][1:])


def test_round_quality_by_hand():
    def team(ident, score, unit=None, opponents=(), home=0, away=0, bye=False):
        return PairingTeam(
            ident,
            score=score,
            unit=unit,
            opponents=frozenset(opponents),
            home_count=home,
            away_count=away,
            had_bye=bye,
        )

    before = {
        1: team(1, 6, "A", opponents=[2], home=1),
        2: team(2, 6, "B", opponents=[1], away=1),
        3: team(3, 3, "A", home=1),
        4: team(4, 0, "A", home=1),
        5: team(5, 0, "C", bye=True),
    }
    report = round_quality([(1, 1, 2), (2, 4, 3)], [5], before)
    assert report["rematches"] == 1 and report["rematch_tables"] == [1]
    assert report["floats"] == 1
    assert report["float_tables"] == [{"table": 2, "groups": 1, "points": 3}]
    assert report["largest_score_difference"] == 3
    assert report["unit_clash_tables"] == [2]
    assert report["side_imbalanced_teams"] == [
        {"team": 1, "home_minus_away": 2},
        {"team": 2, "home_minus_away": -2},
        {"team": 4, "home_minus_away": 2},
    ]
    assert report["repeated_byes"] == [5]


def test_the_checker_runs_without_django(file_data, tmp_path):
    path = tmp_path / "event.paisai.json"
    path.write_text(json.dumps(file_data), encoding="utf-8")
    code = (
        "import sys, runpy; sys.argv = ['paisai_check', sys.argv[1]]\n"
        "try:\n    runpy.run_module('paisai_check', run_name='__main__')\n"
        "except SystemExit as done:\n"
        "    print('django' in sys.modules, 'tournaments.models' in sys.modules)\n"
        "    raise\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(path)],
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert done.stdout.rstrip().endswith("False False")
    assert "round 1: same" in done.stdout


def test_the_console_and_the_api_export_it_as_a_job(
    played, client, api_as, django_capture_on_commit_callbacks
):
    organiser = factories.organiser_of(played)
    client.force_login(organiser)
    page = client.get(reverse("tournaments:exports", args=[played.slug]))
    link = reverse("tournaments:export", args=[played.slug, "event-file"])
    assert link in page.content.decode()
    answer = client.get(link)
    assert answer.status_code == 302 and "/jobs/" in answer["Location"]
    assert f"{link}?archive=yes" in page.content.decode()
    client.get(link, {"archive": "yes"})
    kinds = played.jobs.filter(kind="event-file")
    assert sorted(job.params.get("archive", "") for job in kinds) == ["", "yes"]
    api = api_as(organiser)
    url = f"/api/tournaments/{played.slug}/event-file/"
    with django_capture_on_commit_callbacks(execute=True):
        started = api.post(url)
    assert started.status_code == 202, started.content
    assert started.json()["kind"] == "event-file"
    status = api.get(url, {"job": started.json()["id"]}).json()
    assert status["status"] == "done" and status["download"]
    body = b"".join(client.get(status["download"]).streaming_content)
    assert json.loads(body)["format"] == "paisai-event"
    outsider = api_as(factories.user())
    assert outsider.post(url).status_code == 403


@pytest.mark.slow
def test_the_issue_scale_200_teams_7_rounds(media, tmp_path):
    started = time.monotonic()
    event = factories.swiss_event(teams=200, rounds=7, seed=38)
    data = exported(event)
    validate(data)
    checked = time.monotonic()
    code, text = run(data, tmp_path)
    assert code == 0, text
    assert text.count(": same\n") == 7 + 3  # the rounds, lots, final standings, official ranking
    print(
        f"200 teams, 7 rounds: built and exported in {checked - started:.1f}s, "
        f"checked in {time.monotonic() - checked:.1f}s"
    )


def test_the_package_says_what_it_needs():
    assert paisai_check.__doc__ and "no Django" in paisai_check.__doc__


def test_a_staged_event_with_a_knockout_final_is_re_run(media, tmp_path):
    event = factories.staged_event(teams=16, swiss_rounds=3, top=4, seed=5)
    data = exported(event)
    validate(data)
    assert [r["stage"] is not None for r in data["rounds"]] == [True] * 5
    final = data["rounds"][-1]
    assert sorted(t["bracket_slot"] for t in final["tables"]) == ["3P", "R2-1"]
    code, text = run(data, tmp_path)
    assert code == 0, text
    # every round re-run: the qualifier's draw, its Swiss rounds from its section
    # standings, the knockout's rounds from the seeds and the winners
    for number in range(1, 6):
        assert f"round {number}: same\n" in text
    # the final's winner changed by hand in the semi-final: the final no longer follows
    edited = copy.deepcopy(data)
    semi = edited["rounds"][3]["tables"][0]
    semi["result"]["record"]["deals"] = [
        {
            "finish": ["S", "N", "E", "W"]
            if semi["result"]["score"]["home_points"] > semi["result"]["score"]["away_points"]
            else ["E", "W", "S", "N"]
        }
    ]
    report = check(edited)
    kinds = {(d.where, d.kind) for d in report.differences}
    assert ("round 4", "score") in kinds and ("round 5", "pairing") in kinds


def test_a_confirmed_rematch_is_in_the_quality_report(media, tmp_path):
    """4 teams, 4 rounds: round 4 must repeat meetings; the organiser confirmed them."""
    event = factories.swiss_event(
        teams=4, rounds=4, withdraw_after=None, leave_round=None, ruling_round=None, lot=False
    )
    data = exported(event)
    validate(data)
    last = data["rounds"][-1]["quality"]
    assert last["rematches"] == 2 and last["rematches_confirmed"] == "accepted by the test"
    assert data["rounds"][0]["quality"]["rematches_confirmed"] is None
    path = tmp_path / "small.paisai.json"
    path.write_text(json.dumps(data))
    out = io.StringIO()
    assert main(["--quality", str(path)], out=out) == 0, out.getvalue()
    text = out.getvalue()
    assert "pairing quality, played | the matcher's best:" in text
    line = next(line for line in text.splitlines() if line.startswith("round 4: rematches"))
    played, best = line.split(" | ")
    assert "rematches 2 (confirmed: accepted by the test)" in played
    assert played.split(": ", 1)[1] == best  # the matcher's own pairing was played


def _empty_database():
    from django.core.management import call_command
    from django.db import connection

    if connection.vendor == "postgresql":  # fire deferred FK checks: TRUNCATE refuses them
        with connection.cursor() as cursor:
            cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    call_command("flush", interactive=False, verbosity=0)


def without_time(data: dict) -> dict:
    return {key: value for key, value in data.items() if key != "exported_at"}


def test_the_archive_import_reads_the_file_and_it_exports_again_unchanged(media, tmp_path):
    from tournaments.errors import ExportError
    from tournaments.exporters.event_file import event_file_data
    from tournaments.models import Event
    from tournaments.services.event_file import import_event_file

    event = factories.swiss_event(teams=13, rounds=4, seed=3)
    job = exports.create_job(event, "event-file", {"archive": "yes"}, factories.organiser_of(event))
    exports.run_export(job)
    job.refresh_from_db()
    with job.file.open("rb") as handle:
        before = json.loads(handle.read())
    validate(before)
    assert before["archive"]["format"] == "paisai-archive"
    assert run(before, tmp_path)[0] == 0  # the checker reads it, archive and all
    with pytest.raises(ExportError) as refused:
        import_event_file(without_time({**before, "archive": None}))
    assert refused.value.field == "archive"
    _empty_database()
    assert not Event.objects.exists()
    imported = import_event_file(before)
    assert imported.slug == event.slug
    again = json.loads(json.dumps(event_file_data(imported, with_archive=True)))
    assert without_time(again) == without_time(before)


def test_the_archive_parameter_is_yes_or_no(played):
    from tournaments.errors import ExportError

    with pytest.raises(ExportError) as refused:
        exports.create_job(played, "event-file", {"archive": "maybe"}, None)
    assert refused.value.field == "archive"


def test_a_hand_swap_is_named_with_its_reason(media):
    event = factories.swiss_event(teams=12, rounds=4, seed=9, swap_round=3, lot=False)
    data = exported(event)
    assert [swap["round"] for swap in data["swaps"]] == [3]
    report = check(data)
    tables = {f"table {t}" for t in event.facts.swapped}
    assert {d.where for d in report.differences} == {"round 3"}
    assert {d.kind for d in report.differences} <= {"pairing"}
    assert {d.text.split(":")[0] for d in report.differences} == tables
    assert all("swapped by hand: 两队同单位要求分开" in d.rule for d in report.differences)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_ranking_drop_counts_in_the_pairings_only_after_it_was_made(media, seed):
    """The standings of every round show an adjustment; the round drawn before it was made
    did not see it (the file says after which round it was made)."""
    event = factories.swiss_event(
        teams=10,
        rounds=5,
        seed=seed,
        drop_in=2,
        withdraw_after=None,
        leave_round=None,
        ruling_round=None,
        lot=False,
    )
    data = exported(event)
    [drop] = data["ranking_adjustments"]
    assert drop["made_after_round"] == 2  # while round 2 was played: drawn without it
    assert data["rounds"][0]["standings"][0]["team"] != drop["team"]  # shown after round 1
    report = check(data)
    assert report.same, report.text()


def test_the_round_page_shows_the_quality_line_of_the_file(played, file_data, client):
    client.force_login(factories.organiser_of(played))
    rnd = file_data["rounds"][2]
    q = rnd["quality"]
    page = client.get(f"/t/{played.slug}/manage/rounds/{rnd['number']}/").content.decode()
    assert 'id="pairing-quality"' in page
    assert (
        f"配对质量：重复交手 {q['rematches']} 桌，跨分组 {q['floats']} 桌"
        f"（共跨 {q['float_groups']} 个分组），同桌最大分差 {q['largest_score_difference']}"
    ) in page
    for item in q["float_tables"]:
        assert f"第 {item['table']} 桌：相差 {item['groups']} 个分组" in page


def test_the_public_pairings_page_shows_the_quality_line_of_the_file(played, file_data, client):
    rnd = file_data["rounds"][2]
    q = rnd["quality"]
    page = client.get(f"/t/{played.slug}/pairings/?round={rnd['number']}").content.decode()
    assert '<details class="card" id="pairing-quality">' in page  # collapsed
    assert (
        f"配对质量：重复交手 {q['rematches']} 桌，跨分组 {q['floats']} 桌"
        f"（共跨 {q['float_groups']} 个分组），同桌最大分差 {q['largest_score_difference']}"
    ) in page


@pytest.mark.parametrize("argv", [[], ["--help"], ["a.json", "b.json"]])
def test_the_usage_is_said_with_exit_2(argv):
    out = io.StringIO()
    assert main(argv, out=out) == 2
    assert out.getvalue().startswith("usage: python -m paisai_check [--quality] FILE")


def test_a_finished_event_publishes_its_file_at_the_organisers_choice(
    played, client, django_capture_on_commit_callbacks
):
    from tournaments.services import event_settings, events

    organiser = factories.organiser_of(played)
    path = f"/t/{played.slug}/export/event-file/"
    events.finish(played, organiser)
    played.refresh_from_db()
    # not chosen: the file is the officials' (a visitor is asked to log in), and not offered
    assert client.get(path).status_code == 302
    assert 'id="event-file"' not in client.get(f"/t/{played.slug}/standings/").content.decode()
    event_settings.update_settings(played, organiser, {"event_file_public": True})
    played.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):  # the page asks for the file
        client.get(f"/t/{played.slug}/standings/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    page = client.get(f"/t/{played.slug}/standings/", HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert 'id="event-file"' in page.content.decode() and "赛事核查文件" in page.content.decode()
    answer = client.get(path)
    assert answer.status_code == 200, answer
    data = json.loads(b"".join(answer.streaming_content if answer.streaming else [answer.content]))
    assert data["format"] == "paisai-event" and "archive" not in data
    assert check(data).same
    # never with the archive (it holds the accounts)
    assert client.get(path + "?archive=yes").status_code == 302
    assert AuditLog.objects.filter(event=played, action="event.settings").exists()
