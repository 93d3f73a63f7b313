"""The chief referee's operations board: every table of a round and where its result stands.

States, in the order a table goes through them: ``not_started`` (no version yet),
``submitted`` (the latest version awaits confirmation), ``half_confirmed`` (one captain has
confirmed), ``changed`` (a newer version awaits confirmation while an older one counts),
``confirmed`` (the latest version counts). A bye is ``bye``. The board reads the round in a
few queries (no query per table) and the chief confirms the selected tables at once.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils.translation import gettext as _

from tournaments import permissions
from tournaments.models import (
    Match,
    ResultConfirmation,
    ResultVersion,
    Role,
    Round,
    TableAssignment,
)

NOT_STARTED, SUBMITTED, HALF_CONFIRMED, CHANGED, CONFIRMED, BYE = (
    "not_started",
    "submitted",
    "half_confirmed",
    "changed",
    "confirmed",
    "bye",
)
STATES = (NOT_STARTED, SUBMITTED, HALF_CONFIRMED, CHANGED, CONFIRMED, BYE)
WAITING = (SUBMITTED, HALF_CONFIRMED, CHANGED)


@dataclass
class TableState:
    match: Match
    state: str
    latest: ResultVersion | None = None
    referees: list[str] = field(default_factory=list)

    @property
    def table(self) -> int | None:
        return self.match.table_number


def state_of(match: Match, versions: list[ResultVersion], captain_confirmations: int) -> str:
    if match.is_bye:
        return BYE
    if not versions:
        return NOT_STARTED
    latest = versions[-1]
    if latest.is_counting:
        return CONFIRMED
    if any(v.is_counting for v in versions):
        return CHANGED
    return HALF_CONFIRMED if captain_confirmations else SUBMITTED


def board(rnd: Round, referee: str = "", state: str = "") -> list[TableState]:
    """The round's tables with their states, filtered by a referee's username and a state."""
    versions = ResultVersion.objects.order_by("number")
    matches = (
        rnd.matches.select_related("home", "away")
        .prefetch_related(Prefetch("versions", queryset=versions))
        .order_by("table_number", "pk")
    )
    referees: dict[int, list[str]] = defaultdict(list)
    for table, username in TableAssignment.objects.filter(tournament=rnd.tournament).values_list(
        "table_number", "user__username"
    ):
        referees[table].append(username)
    captains: dict[int, int] = defaultdict(int)
    for version_id in ResultConfirmation.objects.filter(
        version__match__round=rnd, capacity=ResultConfirmation.Capacity.CAPTAIN
    ).values_list("version_id", flat=True):
        captains[version_id] += 1
    rows = []
    for match in matches:
        history = list(match.versions.all())
        latest = history[-1] if history else None
        row = TableState(
            match,
            state_of(match, history, captains[latest.pk] if latest else 0),
            latest,
            sorted(referees.get(match.table_number, [])),
        )
        if referee and referee not in row.referees:
            continue
        if state and row.state != state:
            continue
        rows.append(row)
    return rows


def counts(rows: list[TableState]) -> dict[str, int]:
    tally = dict.fromkeys(STATES, 0)
    for row in rows:
        tally[row.state] += 1
    return tally


def bulk_confirm(rnd: Round, user, match_ids, source: str = "") -> tuple[int, list[str]]:
    """The chief referee confirms the latest version of each selected table. Returns how many
    now count and, for each table refused, why (one table's refusal stops no other)."""
    from tournaments.services import results

    if not permissions.has_role(user, rnd.tournament, (Role.CHIEF_REFEREE,)):
        raise results.ResultForbidden(_("Only the chief referee may confirm results in bulk."))
    ids = {int(pk) for pk in match_ids if str(pk).isdigit()}
    actor = results.Actor(user, None, "web", source)
    done, refused = 0, []
    for match in rnd.matches.filter(pk__in=ids).order_by("table_number"):
        latest = results.latest_version(match)
        try:
            if latest is None:
                raise results.ResultError(_("There is no result to confirm yet."), "version")
            results.confirm(match, latest.number, actor)
            done += 1
        except results.ResultError as error:
            refused.append(
                _("Table %(table)s: %(reason)s") % {"table": match.table_number, "reason": error}
            )
    return done, refused
