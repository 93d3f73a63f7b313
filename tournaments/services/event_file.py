"""The paisai event file (``.paisai.json``, issue 38): the event as an open, stable document
that anyone can check with ``python -m paisai_check FILE`` (the package at the repository's
root), without our database or Django.

Unlike the event archive (tournaments/exporters/archive.py: our models as they are, for an
import), the file is about the event: its edition of the rules, its teams, stages and
sections, every round's tables and sides, every counting result with its deal record, the
rulings that changed a result, the lots drawn, the byes, the leaves and withdrawals, the
hand swaps and confirmed rematches, the seeds of every random choice, and the standings
after every round as the service computed them. Its shape is
``paisai_check/paisai-event.schema.json``; FORMAT and VERSION below are the file's.
"""

from __future__ import annotations

import dataclasses
import math
from decimal import Decimal

from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from paisai_check.replay import SCORE_FIELDS  # the file's score fields: the checker reads them
from rules_engine.outcome import Outcome
from rules_engine.points import answer_number
from rules_engine.presets import forfeit_level_difference
from tournaments.errors import ExportError
from tournaments.models import (
    AuditLog,
    Event,
    LotDraw,
    RankingAdjustment,
    ResultVersion,
    Round,
    RoundLeave,
    Stage,
    Team,
)
from tournaments.pairing.quality import round_quality
from tournaments.pairing.service import load_pairing_teams
from tournaments.services.archive import import_archive
from tournaments.services.stage_standings import absent_teams, official_standings
from tournaments.standings.service import match_outcome, standings_for

FORMAT = "paisai-event"
VERSION = 1
GENERATOR = "paisai"


def _plain(value):
    """JSON-able: tuples as lists, infinities as None, exact match points as JSON numbers
    (1, 0.5, -1: rules_engine.points)."""
    if isinstance(value, Decimal):
        return answer_number(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {str(key): _plain(item) for key, item in value.items()}
    if isinstance(value, float) and math.isinf(value):
        return None
    return value


def _date(value) -> str | None:
    return value.isoformat() if value is not None else None


def rules_of(event: Event) -> dict:
    """The event's edition of the rules: game, preset, the event's own settings and every
    value the preset takes with them (the checker builds the same preset from the first
    three through rules_engine.presets.event_preset)."""
    preset = event.get_preset()
    values = {
        field.name: _plain(getattr(preset, field.name))
        for field in dataclasses.fields(preset)
        if field.name not in ("name", "game", "title")
    }
    return {
        "game": event.game,
        "preset": event.preset,
        "settings": _plain(event.settings or {}),
        "values": values,
    }


def score_of(round_no: int, home: int, away: int, answer: dict, forfeit_diff: int) -> dict | None:
    """What a counting result gives each team (the standings' view of the engine's answer)."""
    outcome = match_outcome(round_no, home, away, Outcome.from_answer(answer), forfeit_diff)
    if outcome is None:
        return None
    score = {name: _plain(getattr(outcome, name)) for name in SCORE_FIELDS}
    # which team won, "home" or "away" (the wins tiebreak), never a team id the table repeats
    score["winner"] = {home: "home", away: "away"}.get(outcome.winner)
    return score


def _standings(event: Event, after_round: int | None) -> list[dict]:
    return [
        {
            "team": row.team,
            "rank": row.rank,
            "points": _plain(row.points),
            "metrics": _plain(dict(row.metrics)),
            **({"moved_down": row.moved_down} if row.moved_down else {}),
        }
        for row in standings_for(event, after_round=after_round)
    ]


def _audit(event: Event, action: str):
    return AuditLog.objects.filter(event=event, action=action).order_by("created_at", "pk")


def _round_at(rounds: list[Round], when) -> int:
    """The number of the latest round published by ``when`` (0: before round 1)."""
    published = [r.number for r in rounds if r.published_at and r.published_at <= when]
    return max(published, default=0)


def _rounds(event: Event, preset) -> list[dict]:
    forfeit_diff = forfeit_level_difference(preset)
    counting = {}
    for version in ResultVersion.objects.filter(
        match__round__event=event, is_counting=True
    ).select_related("match"):
        counting[version.match_id] = version
    confirmed = {
        entry.data.get("round"): entry.reason for entry in _audit(event, "round.confirm_rematches")
    }
    out = []
    rounds = event.rounds.exclude(status=Round.Status.DRAFT).order_by("number")
    for rnd in rounds.prefetch_related("matches"):
        tables, byes, bye_slots = [], [], []
        for match in sorted(rnd.matches.all(), key=lambda m: (m.table_number or 0, m.pk)):
            if match.away_id is None:
                byes.append(match.home_id)
                if match.section_id is not None:
                    bye_slots.append(
                        {
                            "team": match.home_id,
                            "section": match.section_id,
                            "bracket_slot": match.bracket_slot,
                        }
                    )
                continue
            table = {
                "table": match.table_number,
                "home": match.home_id,
                "away": match.away_id,
                "flags": sorted(match.flags or []),
            }
            if match.section_id is not None:
                table["section"] = match.section_id
            if match.bracket_slot:
                table["bracket_slot"] = match.bracket_slot
            version = counting.get(match.pk)
            if version is not None:
                table["result"] = {
                    "version": version.number,
                    "kind": version.kind,
                    "record": version.record,
                    "score": score_of(
                        rnd.number, match.home_id, match.away_id, version.outcome, forfeit_diff
                    ),
                }
            tables.append(table)
        entry = {
            "number": rnd.number,
            "stage": rnd.stage_id,
            "status": rnd.status,
            "draw_seed": rnd.draw_seed,
            "field": rnd.drawn_from,
            "tables": tables,
            "byes": byes,
            "standings": _standings(event, rnd.number),
        }
        if rnd.stage_id is not None:
            entry["bye_slots"] = bye_slots
        before = {team.id: team for team in load_pairing_teams(event, rnd.number)}
        entry["quality"] = round_quality(
            [(t["table"], t["home"], t["away"]) for t in tables],
            byes,
            before,
            confirmed.get(rnd.number),
        )
        out.append(entry)
    return out


def quality_for(rnd: Round) -> dict:
    """The pairing-quality report of a round's tables as they stand (a draft, a swapped
    round): the round page's and the public pairings page's collapsed line (the report does
    not depend on who was left out of the draw: no leave is read)."""
    tables, byes = [], []
    for table, home, away in rnd.matches.values_list("table_number", "home_id", "away_id"):
        if away is None:
            byes.append(home)
        else:
            tables.append((table, home, away))
    teams = load_pairing_teams(rnd.event, rnd.number, with_leaves=False)
    return round_quality(tables, byes, {team.id: team for team in teams})


def _stages(event: Event) -> list[dict]:
    stages = []
    for stage in (
        Stage.objects.filter(event=event).order_by("order").prefetch_related("sections__entries")
    ):
        stages.append(
            {
                "id": stage.pk,
                "order": stage.order,
                "name": stage.name,
                "kind": stage.kind,
                "num_rounds": stage.num_rounds,
                "entrants": stage.entrants,
                "qualify_top": stage.qualify_top,
                "carry_points": stage.carry_points,
                "third_place": stage.third_place,
                "match_format": stage.match_format,
                "sections": [
                    {
                        "id": section.pk,
                        "name": section.name,
                        "order": section.order,
                        "teams": [
                            {"team": entry.team_id, "seed": entry.seed}
                            for entry in sorted(section.entries.all(), key=lambda e: e.seed)
                        ],
                    }
                    for section in sorted(stage.sections.all(), key=lambda s: s.order)
                ],
            }
        )
    return stages


def _rulings(event: Event) -> list[dict]:
    """The rulings that changed a result or a place (arbitration), when that app is in."""
    from django.apps import apps

    if not apps.is_installed("arbitration"):
        return []
    ruling_model = apps.get_model("arbitration", "Ruling")
    rulings = []
    rows = ruling_model.objects.filter(event=event).select_related(
        "match__round", "result_version", "ranking_adjustment"
    )
    for ruling in rows.order_by("created_at", "pk"):
        if ruling.result_version_id is None and ruling.ranking_adjustment_id is None:
            continue  # a warning: it changed nothing the checker recomputes
        item = {
            "id": ruling.pk,
            "team": ruling.team_id,
            "step": ruling.step,
            "levels": ruling.levels,
            "places": ruling.places,
            "reason": ruling.reason,
            "revoked": hasattr(ruling, "revocation"),
        }
        if ruling.match_id is not None:
            item["round"] = ruling.match.round.number
            item["table"] = ruling.match.table_number
        if ruling.result_version_id is not None:
            item["result_version"] = ruling.result_version.number
        rulings.append(item)
    return rulings


def build(event: Event) -> dict:
    """The event file's contents (a dict; ``paisai_check.load`` reads it back). The exporter
    (tournaments/exporters/event_file.py) may add the event archive as ``archive``, which
    :func:`import_event_file` loads."""
    preset = event.get_preset()
    rounds = list(event.rounds.order_by("number"))
    teams = list(Team.objects.filter(event=event).order_by("pk"))
    played_rounds = _rounds(event, preset)
    lots = [
        {
            "id": draw.pk,
            "after_round": draw.after_round,
            "teams": list(draw.teams),
            "order": list(draw.order),
            "seed": draw.seed,
            "method": draw.method,
            "made_after_round": _round_at(rounds, draw.drawn_at),
        }
        for draw in LotDraw.objects.filter(event=event).order_by("drawn_at", "pk")
    ]
    withdrawals = [
        {
            "team": int(entry.target_id),
            "status": entry.data.get("after"),
            "before": entry.data.get("before"),
            "after_round": _round_at(rounds, entry.created_at),
            "reason": entry.reason,
        }
        for entry in _audit(event, "team.status")
        if entry.target_id.isdigit()
    ]
    swaps = [
        {
            "round": entry.data.get("round"),
            "teams": entry.data.get("teams"),
            "before": entry.data.get("before"),
            "after": entry.data.get("after"),
            "reason": entry.reason,
        }
        for entry in _audit(event, "round.swap")
    ]
    confirmed = [
        {
            "round": entry.data.get("round"),
            "tables": entry.data.get("tables"),
            "reason": entry.reason,
        }
        for entry in _audit(event, "round.confirm_rematches")
    ]
    seeds = [
        {"what": "round_draw", "round": rnd["number"], "seed": rnd["draw_seed"]}
        for rnd in played_rounds
        if rnd["draw_seed"] is not None
    ] + [{"what": "lots", "lot": lot["id"], "seed": lot["seed"]} for lot in lots]
    data = {
        "format": FORMAT,
        "version": VERSION,
        "generator": GENERATOR,
        "exported_at": timezone.now().isoformat(),
        "event": {
            "slug": event.slug,
            "name": event.name,
            "game": event.game,
            "status": event.status,
            "num_rounds": event.num_rounds,
            "venue": event.venue,
            "starts_on": _date(event.starts_on),
            "ends_on": _date(event.ends_on),
        },
        "rules": rules_of(event),
        "units": [{"id": unit.pk, "name": unit.name} for unit in event.units.order_by("pk")],
        "teams": [
            {
                "id": team.pk,
                "name": team.name,
                "unit": team.unit_id,
                "seed": team.seed,
                "status": team.status,
                "draw_lot": team.draw_lot,
            }
            for team in teams
        ],
        "stages": _stages(event),
        "rounds": played_rounds,
        "lots": lots,
        "rulings": _rulings(event),
        "ranking_adjustments": [
            {
                "team": adj.team_id,
                "places": adj.places,
                "reason": adj.reason,
                "source": adj.source,
                "made_after_round": _round_at(rounds, adj.created_at),
            }
            for adj in RankingAdjustment.objects.filter(
                event=event, cancelled_at__isnull=True, unit__isnull=True
            ).order_by("pk")
        ],
        "leaves": [
            {
                "team": leave.team_id,
                "round": leave.round_number,
                "kind": leave.kind,
                "reason": leave.reason,
            }
            for leave in RoundLeave.objects.filter(team__event=event).order_by("pk")
        ],
        "withdrawals": withdrawals,
        "swaps": swaps,
        "confirmed_rematches": confirmed,
        "seeds": seeds,
        "final_standings": _standings(event, None),
        "official_ranking": [
            {
                "team": row.team,
                "rank": row.rank,
                "shared": row.shared,
                "stage": row.stage,
                "absent": row.absent,
            }
            for row in official_standings(event)
        ],
        "absent": sorted(absent_teams(event)),
    }
    return data


def import_event_file(data) -> Event:
    """Load an event file that carries its archive into a database that does not hold the
    event (the archive import's rules: all or nothing, never overwriting); returns the
    event. ExportError says what is wrong."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ExportError(_("This file is not a paisai event file."), "format")
    if data.get("version") != VERSION:
        raise ExportError(
            _("Event file version %(version)s is not supported (expected %(expected)s)."),
            "version",
            version=data.get("version"),
            expected=VERSION,
        )
    if not isinstance(data.get("archive"), dict):
        raise ExportError(
            _("This event file carries no archive: export it again with the archive."),
            "archive",
        )
    return import_archive(data["archive"])


__all__ = ["FORMAT", "VERSION", "build", "import_event_file", "quality_for"]
