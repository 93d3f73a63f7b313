"""The checker: read an event file, recompute everything it claims, say what differs."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path

from rules_engine import api as rules_api
from rules_engine.errors import RulesError
from rules_engine.presets import event_preset
from tournaments.pairing import PairingError
from tournaments.standings.core import StandingsError, compute_standings, draw_lots

from .replay import (
    official_order,
    outcome_of,
    pairing_teams,
    quality_of,
    rerun_pairing,
    rerun_stage,
    score_of,
)

FORMAT = "paisai-event"
VERSIONS = (1,)
LOT_RULE = "lots: random.Random(seed).shuffle of the tied teams' ids in ascending order"
DRAW_RULE = "round-1 draw from its seed (tournaments.pairing.draw.draw_first_round, {method})"
SWISS_RULE = "Swiss pairing from the standings before the round (tournaments.pairing.swiss)"
STAGE_RULE = (
    "a stage's draw, section by section: knockout bracket from the seeds and the winners, "
    "round-robin Berger tables, or a Swiss stage's first draw from its seed"
)
SCORE_RULE = "the record scored by the rules engine ({preset})"
PLACE_RULE = "standings order {order}"
OFFICIAL_RULE = (
    "the final standings ({order}), ties a recorded lot covers broken by it, absent teams apart"
)
QUALITY_RULE = "pairing-quality report (tournaments.pairing.quality.round_quality)"


USAGE = (
    "usage: python -m paisai_check [--quality] FILE.paisai.json\n"
    "  --quality  also print each round's pairing quality beside the matcher's best"
)


class BadFile(Exception):
    """The file cannot be checked: not JSON, not an event file, a value of the wrong kind."""


@dataclass(frozen=True)
class Difference:
    where: str  # "round 3", "lots", "final standings"
    kind: str  # "pairing", "score", "place", "lot", "quality"
    text: str
    rule: str

    def line(self) -> str:
        return f"  {self.kind}: {self.text} (rule: {self.rule})"


@dataclass
class Report:
    title: str = ""
    sections: list[tuple[str, list[Difference], list[str]]] = field(default_factory=list)
    # (round, the played pairing's quality report, the re-run pairing's)
    quality: list[tuple[str, dict, dict]] = field(default_factory=list)

    @property
    def differences(self) -> list[Difference]:
        return [d for _, found, _ in self.sections for d in found]

    @property
    def same(self) -> bool:
        return not self.differences

    def kinds(self) -> set[str]:
        return {d.kind for d in self.differences}

    def lines(self) -> list[str]:
        out = [self.title]
        for where, found, notes in self.sections:
            note = f" ({'; '.join(notes)})" if notes else ""
            if found:
                out.append(f"{where}: differs{note}")
                out.extend(d.line() for d in found)
            else:
                out.append(f"{where}: same{note}")
        count = len(self.differences)
        out.append("everything agrees" if not count else f"{count} difference(s)")
        return out

    def text(self) -> str:
        return "\n".join(self.lines()) + "\n"

    def quality_lines(self) -> list[str]:
        """Each round's pairing quality: the pairing played beside the matcher's best."""
        out = ["pairing quality, played | the matcher's best:"]
        for where, played, best in self.quality:
            out.append(f"{where}: {quality_line(played)} | {quality_line(best)}")
        return out


def load(path) -> dict:
    """The file's contents, or BadFile saying why not."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise BadFile(f"cannot read {path}: {error.strerror or error}") from None
    except UnicodeDecodeError:
        raise BadFile(f"{path} is not UTF-8 text") from None
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise BadFile(f"{path} is not JSON: {error}") from None


def _shape(data) -> None:
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadFile(f'not a paisai event file (no "format": "{FORMAT}")')
    if data.get("version") not in VERSIONS:
        raise BadFile(f"event file version {data.get('version')!r} is not supported: {VERSIONS}")
    for key, kind in (
        ("event", dict),
        ("rules", dict),
        ("teams", list),
        ("rounds", list),
        ("lots", list),
        ("final_standings", list),
    ):
        if not isinstance(data.get(key), kind):
            raise BadFile(f'"{key}" is missing or not a{"n object" if kind is dict else " list"}')


class Names:
    def __init__(self, teams: list[dict]):
        self.names = {team["id"]: team.get("name") or f"#{team['id']}" for team in teams}

    def __call__(self, team) -> str:
        if team is None:
            return "nobody"
        return self.names.get(team, f"#{team}")

    def table(self, pair) -> str:
        if pair is None:
            return "no such table"
        home, away = pair
        return f"{self(home)} v {self(away)}"


SCHEMA = Path(__file__).with_name("paisai-event.schema.json")


def schema_problem(data) -> str | None:
    """The first place where the file breaks its JSON Schema, when the ``jsonschema``
    package is installed (it is optional: without it the checker reads what it needs)."""
    try:
        import jsonschema
    except ImportError:
        return None
    validator = jsonschema.Draft202012Validator(json.loads(SCHEMA.read_text("utf-8")))
    error = jsonschema.exceptions.best_match(validator.iter_errors(data))
    if error is None:
        return None
    where = "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in error.absolute_path)
    return f"{where.lstrip('.') or 'the file'}: {error.message}"


def check(data) -> Report:
    """Recompute everything the file claims; BadFile when it cannot be read as one."""
    _shape(data)
    problem = schema_problem(data)
    if problem:
        raise BadFile(f"not as the schema says: {problem}")
    try:
        return _check(data)
    except (RulesError, StandingsError, PairingError) as error:
        raise BadFile(f"the file's data is refused: {error}") from None
    except (KeyError, TypeError, ValueError, AttributeError, IndexError) as error:
        raise BadFile(f"the file is malformed: {type(error).__name__}: {error}") from None


def _check(data: dict) -> Report:
    rules = data["rules"]
    try:
        preset = event_preset(rules["game"], rules["preset"], rules.get("settings") or None)
    except RulesError as error:
        raise BadFile(f"rules: {error.message}") from None
    name = Names(data["teams"])
    event = data["event"]
    report = Report(
        title=(
            f"paisai_check: {event.get('name', '')} ({event.get('slug', '')}), "
            f"{len(data['teams'])} teams, {len(data['rounds'])} rounds, rules {rules['preset']}"
        )
    )
    order = " > ".join(preset.standings_order)
    team_ids = [team["id"] for team in data["teams"]]
    team_lots = {t["id"]: t["draw_lot"] for t in data["teams"] if t.get("draw_lot") is not None}

    def moves_made(by_round=None) -> dict[int, int]:
        """Net places down per team (a net move up counts 0), of the adjustments made by
        the end of round ``by_round`` (None: all)."""
        totals: dict[int, int] = {}
        for adjustment in data.get("ranking_adjustments", []):
            made = adjustment.get("made_after_round")
            if by_round is None or made is None or made <= by_round:
                totals[adjustment["team"]] = (
                    totals.get(adjustment["team"], 0) + adjustment["places"]
                )
        return {team: places for team, places in totals.items() if places > 0}

    moves = moves_made()

    # lots first: the standings use the orders their seeds draw
    lot_diffs, lot_orders = [], []
    for lot in data["lots"]:
        _, record = draw_lots(lot["teams"], lot["seed"])
        if list(record["order"]) != list(lot["order"]):
            lot_diffs.append(
                Difference(
                    "lots",
                    "lot",
                    f"lot {lot.get('id')} (seed {lot['seed']}): the file has the order "
                    f"{', '.join(map(name, lot['order']))}; the seed draws "
                    f"{', '.join(map(name, record['order']))}",
                    LOT_RULE,
                )
            )
        lot_orders.append(
            (lot.get("after_round"), lot.get("made_after_round"), tuple(record["order"]))
        )

    def draws(after_round, made_by=None):
        """The draws of lots that apply after ``after_round`` (those drawn after it or an
        earlier one, or for the latest standings); with ``made_by``, only those drawn by the
        end of that round (what a pairing could see)."""
        return [
            order
            for after, made, order in lot_orders
            if (after is None or after_round is None or after <= after_round)
            and (made_by is None or made is None or made <= made_by)
        ]

    def standings(outcomes, after_round, made_by=None):
        return compute_standings(
            team_ids,
            outcomes,
            preset.standings_order,
            draw_lots=team_lots,
            moved_down=moves if made_by is None else moves_made(made_by),
            draws=draws(after_round, made_by),
        )

    def seen_by_pairing(number) -> bool:
        """Did the pairing of round ``number`` see every lot and adjustment made so far?"""
        made = [made for _, made, _ in lot_orders] + [
            a.get("made_after_round") for a in data.get("ranking_adjustments", [])
        ]
        return all(m is None or m <= number - 1 for m in made)

    def stage_ranker(numbers, after_round, kind=None):
        rows = compute_standings(
            team_ids,
            [outcome for outcome in outcomes if outcome.round_no in numbers],
            preset.standings_order_for(kind),
            draw_lots=team_lots,
            draws=draws(after_round),
        )
        return rows, draws(after_round)

    answers = {}  # (round, table) -> the engine's answer for the file's record
    outcomes = []  # the recomputed outcomes of the rounds so far
    played: list[dict] = []  # the rounds so far as the file has them
    previous_rows = []
    for rnd in sorted(data["rounds"], key=lambda r: r["number"]):
        number = rnd["number"]
        where = f"round {number}"
        found, notes = [], []
        # 1. the pairing, re-run
        pairing_rows = previous_rows
        if number > 1 and not seen_by_pairing(number):  # made later: not seen when it was drawn
            pairing_rows = standings(outcomes, number - 1, made_by=number - 1)
        before = pairing_teams(data, rnd, played, pairing_rows)
        tables = {t["table"]: (t["home"], t["away"]) for t in rnd["tables"]}
        rerun, rerun_byes, rule = None, None, ""
        if rnd.get("stage") is not None:
            found_stage, why = rerun_stage(data, preset, rnd, before, played, answers, stage_ranker)
            if found_stage is None:
                notes.append(why)
            else:
                rerun, rerun_byes = found_stage
                rule = STAGE_RULE
        elif number == 1 and rnd.get("draw_seed") is None:
            notes.append("no draw seed recorded: the pairing is not re-run")
        else:
            result = rerun_pairing(data, preset, rnd, before)
            rule = DRAW_RULE.format(method=preset.round_one_method) if number == 1 else SWISS_RULE
            rerun = {p.table: (p.home, p.away) for p in result.pairings}
            rerun_byes = [result.bye] if result.bye is not None else []
        if rerun is not None:
            swapped = [s for s in data.get("swaps", []) if s.get("round") == number]
            if swapped:
                rule += "; swapped by hand: " + "; ".join(s.get("reason", "") for s in swapped)
            for table in sorted(set(tables) | set(rerun), key=lambda t: (t is None, t or 0)):
                if tables.get(table) != rerun.get(table):
                    found.append(
                        Difference(
                            where,
                            "pairing",
                            f"table {table}: the file has {name.table(tables.get(table))}, "
                            f"the re-run gives {name.table(rerun.get(table))}",
                            rule,
                        )
                    )
            if sorted(rnd["byes"]) != sorted(rerun_byes):
                found.append(
                    Difference(
                        where,
                        "pairing",
                        f"bye: the file gives it to {', '.join(map(name, rnd['byes'])) or 'nobody'}"
                        f", the re-run to {', '.join(map(name, rerun_byes)) or 'nobody'}",
                        rule,
                    )
                )
        # 2. every counting result, re-scored from its record
        for table in rnd["tables"]:
            result = table.get("result")
            if not result:
                continue
            try:
                answer = rules_api.score(result["record"])
            except RulesError as error:
                found.append(
                    Difference(
                        where,
                        "score",
                        f"table {table['table']}: the record cannot be scored: {error.message}",
                        SCORE_RULE.format(preset=rules["preset"]),
                    )
                )
                continue
            answers[(number, table["table"])] = answer
            scored = score_of(number, table["home"], table["away"], answer, preset)
            if _compared(scored, result.get("score")) != result.get("score"):
                found.append(
                    Difference(
                        where,
                        "score",
                        f"table {table['table']} ({name.table((table['home'], table['away']))}):"
                        f" the file says {_points(result.get('score'))}, the record scores "
                        f"{_points(scored)}" + _detail(result.get("score"), scored),
                        SCORE_RULE.format(preset=rules["preset"]),
                    )
                )
            outcome = outcome_of(number, table["home"], table["away"], scored)
            if outcome is not None:
                outcomes.append(outcome)
        outcomes.extend(outcome_of(number, bye, None, None, preset) for bye in rnd["byes"])
        # 3. the standings after the round
        rows = standings(outcomes, number)
        found.extend(_places(where, rnd.get("standings", []), rows, name, order))
        # 4. the quality report
        mine = quality_of(data, rnd, before)
        if rerun is not None:
            report.quality.append((where, mine, quality_of(data, rnd, before, (rerun, rerun_byes))))
        if "quality" in rnd:
            for key in sorted(set(mine) | set(rnd["quality"])):
                if mine.get(key) != rnd["quality"].get(key):
                    found.append(
                        Difference(
                            where,
                            "quality",
                            f"{key}: the file says {rnd['quality'].get(key)!r}, recomputed "
                            f"{mine.get(key)!r}",
                            QUALITY_RULE,
                        )
                    )
        report.sections.append((where, found, notes))
        played.append(rnd)
        previous_rows = rows
    report.sections.append(("lots", lot_diffs, []))
    final = standings(outcomes, None)
    report.sections.append(
        (
            "final standings",
            _places("final standings", data["final_standings"], final, name, order),
            [],
        )
    )
    claimed = data.get("official_ranking")
    if claimed is not None:
        where = "official ranking"
        if data.get("stages"):
            report.sections.append((where, [], ["a staged event's: taken as given"]))
        else:
            mine = official_order(final, draws(None), set(data.get("absent", [])))
            theirs = [(row["team"], row["rank"]) for row in claimed]
            found = [
                Difference(
                    where,
                    "place",
                    f"place {index}: the file has {name(a[0])} at {a[1]}, recomputed "
                    f"{name(b[0])} at {b[1]}",
                    OFFICIAL_RULE.format(order=order),
                )
                for index, (a, b) in enumerate(zip(theirs, mine, strict=False), start=1)
                if a != b
            ]
            if len(theirs) != len(mine):
                found.append(
                    Difference(
                        where, "place", f"{len(theirs)} teams ranked, not {len(mine)}", order
                    )
                )
            report.sections.append((where, found, []))
    return report


def quality_line(q: dict) -> str:
    rematches = f"rematches {q['rematches']}"
    if q.get("rematches_confirmed"):
        rematches += f" (confirmed: {q['rematches_confirmed']})"
    return (
        f"{rematches}, floats {q['floats']} ({q['float_groups']} score groups), "
        f"largest difference {q['largest_score_difference']}, unit clashes "
        f"{q['unit_clashes']}, home/away out of balance {q['side_imbalanced']}, "
        f"byes {len(q['byes'])} (second byes {len(q['repeated_byes'])})"
    )


def _compared(scored, theirs):
    """The recomputed score as the file's is compared: a file written before scores named
    their winner (issue 36) is not wrong for lacking it (the winner is recomputed anyway)."""
    if scored and isinstance(theirs, dict) and "winner" not in theirs:
        return {key: value for key, value in scored.items() if key != "winner"}
    return scored


def _points(score) -> str:
    if not score:
        return "no match points"
    return f"{_n(score['home_points'])}:{_n(score['away_points'])}"


def _n(value) -> str:
    return str(int(value)) if float(value).is_integer() else str(value)


def _detail(theirs, mine) -> str:
    if not theirs or not mine:
        return ""
    keys = [k for k in sorted(set(theirs) | set(mine)) if theirs.get(k) != mine.get(k)]
    keys = [k for k in keys if k not in ("home_points", "away_points")]
    if not keys:
        return ""
    return " (" + ", ".join(f"{k} {theirs.get(k)!r} → {mine.get(k)!r}" for k in keys) + ")"


def _places(where, claimed: list[dict], rows, name, order) -> list[Difference]:
    mine = {row.team: row for row in rows}
    found = []
    for entry in claimed:
        row = mine.get(entry["team"])
        if row is None:
            found.append(Difference(where, "place", f"{name(entry['team'])} is not a team", order))
            continue
        if row.rank != entry["rank"] or float(row.points) != float(entry["points"]):
            found.append(
                Difference(
                    where,
                    "place",
                    f"{name(entry['team'])}: the file says place {entry['rank']} with "
                    f"{_n(entry['points'])} points, recomputed place {row.rank} with "
                    f"{_n(row.points)} points",
                    PLACE_RULE.format(order=order),
                )
            )
    missing = set(mine) - {entry["team"] for entry in claimed}
    if claimed and missing:
        found.append(
            Difference(
                where,
                "place",
                f"not ranked in the file: {', '.join(map(name, sorted(missing)))}",
                PLACE_RULE.format(order=order),
            )
        )
    return found


def main(argv: list[str] | None = None, out=None) -> int:
    out = out or sys.stdout
    argv = list(sys.argv[1:] if argv is None else argv)
    show_quality = "--quality" in argv
    argv = [arg for arg in argv if arg != "--quality"]
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(USAGE, file=out)
        return 2
    try:
        report = check(load(argv[0]))
    except BadFile as error:
        print(f"paisai_check: bad file: {error}", file=out)
        return 2
    out.write(report.text())
    if show_quality:
        out.write("\n".join(report.quality_lines()) + "\n")
    return 0 if report.same else 1
