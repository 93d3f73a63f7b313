"""The chief referee's operations board: every table of a round and where its result stands.

States, in the order a table goes through them: ``not_started`` (no version yet),
``submitted`` (the latest version awaits confirmation), ``half_confirmed`` (one captain has
confirmed), ``changed`` (a newer version awaits confirmation while an older one counts),
``confirmed`` (the latest version counts). A bye is ``bye``. The board reads the round in a
few queries (no query per table) and the chief confirms the selected tables at once.

The board is filtered by referee, state and zone: a range of tables (``tables 1-50``; an
event's halls are free text, so a hall or zone is the range of its tables). Beside the tables
it shows the chief's queue (calls from tables and disputes, ``services.calls``) and the
round's late teams, whose forfeits the chief confirms from the board
(``checkin.confirm_late_forfeits``).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import permissions
from tournaments.errors import ServiceError
from tournaments.models import (
    Match,
    ResultConfirmation,
    ResultVersion,
    Round,
    TableAssignment,
)
from tournaments.validation import MAX_TABLE

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


class BoardError(ServiceError):
    """A filter or an action of the operations board refused."""


@dataclass(frozen=True)
class TableRange:
    """Tables ``low``–``high`` (either end open when None): a hall or zone of the venue."""

    low: int | None = None
    high: int | None = None

    def __bool__(self) -> bool:
        return self.low is not None or self.high is not None

    def __contains__(self, table: int | None) -> bool:
        if not self:
            return True
        if table is None:  # a bye sits at no table: in no zone
            return False
        return (self.low is None or table >= self.low) and (self.high is None or table <= self.high)


def table_range(low: object = "", high: object = "") -> TableRange:
    """The zone filter from its two inputs (blank: open end); the ends swapped when reversed."""

    def number(value: object, name: str) -> int | None:
        text = str(value if value is not None else "").strip()
        if not text:
            return None
        if not text.isdigit() or not 1 <= int(text) <= MAX_TABLE:
            raise BoardError(
                gettext_lazy("A table number is a whole number from 1 to %(max)s: “%(value)s”."),
                name,
                max=MAX_TABLE,
                value=text[:20],
            )
        return int(text)

    first, last = number(low, "from"), number(high, "to")
    if first is not None and last is not None and first > last:
        first, last = last, first
    return TableRange(first, last)


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


def board(rnd: Round, referee: str = "", state: str = "",
          tables: TableRange | None = None) -> list[TableState]:  # fmt: skip
    """The round's tables with their states, filtered by a referee's username, a state and a
    range of tables."""
    return select(read(rnd), referee, state, tables)


def select(rows: list[TableState], referee: str = "", state: str = "",
           tables: TableRange | None = None) -> list[TableState]:  # fmt: skip
    """The rows of one referee, one state and one zone (each filter off when empty)."""
    tables = tables or TableRange()
    return [
        row
        for row in rows
        if (not referee or referee in row.referees)
        and (not state or row.state == state)
        and row.table in tables
    ]


def read(rnd: Round) -> list[TableState]:
    """Every table of the round with its state (a fixed number of queries)."""
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
        rows.append(
            TableState(
                match,
                state_of(match, history, captains[latest.pk] if latest else 0),
                latest,
                sorted(referees.get(match.table_number, [])),
            )
        )
    return rows


def counts(rows: list[TableState]) -> dict[str, int]:
    tally = dict.fromkeys(STATES, 0)
    for row in rows:
        tally[row.state] += 1
    return tally


def bulk_confirm(rnd: Round, user, match_ids, source: str = "") -> tuple[int, list[str]]:
    """The chief referee confirms the latest version of each selected table. Returns how many
    now count and, for each table refused, why (one table's refusal stops no other)."""
    from tournaments.services import result_confirm, results

    permissions.require(user, rnd.tournament, "result.correct", results.ResultForbidden,
                        _("Only the chief referee may confirm results in bulk."))  # fmt: skip
    ids = {int(pk) for pk in match_ids if str(pk).isdigit()}
    actor = results.Actor(user, None, "web", source)
    done, refused = 0, []
    for match in rnd.matches.filter(pk__in=ids).order_by("table_number"):
        latest = results.latest_version(match)
        try:
            if latest is None:
                raise results.ResultError(_("There is no result to confirm yet."), "version")
            result_confirm.confirm(match, latest.number, actor)
            done += 1
        except results.ResultError as error:
            refused.append(
                _("Table %(table)s: %(reason)s") % {"table": match.table_number, "reason": error}
            )
    return done, refused


# --- the chief's queue and the late teams -------------------------------------------------


def queue(rnd: Round, tables: TableRange | None = None, now=None):
    """Calls from tables and disputes waiting for the chief, oldest first, in the zone."""
    from tournaments.services import calls

    tables = tables or TableRange()
    return [item for item in calls.queue(rnd, now) if item.table in tables]


@dataclass
class LateTable:
    """A table with a late team (or two): what the chief's forfeit would rule."""

    match: Match
    teams: list = field(default_factory=list)  # checkin.LateTeam, East–West first

    @property
    def both(self) -> bool:
        return len(self.teams) == 2


def late_tables(rnd: Round, tables: TableRange | None = None, now=None) -> list[LateTable]:
    """The round's late teams (``checkin.late_teams``) by table, in the zone."""
    from tournaments.services import checkin

    tables = tables or TableRange()
    grouped: dict[int, LateTable] = {}
    for late in checkin.late_teams(rnd, now):
        if late.match.table_number in tables:
            grouped.setdefault(late.match.pk, LateTable(late.match)).teams.append(late)
    return list(grouped.values())


def confirm_forfeits(rnd: Round, user, match_ids, now=None) -> int:
    """The chief confirms the forfeits of the selected late tables from the board (the same
    action and permission as the attendance page). Returns the tables ruled."""
    from tournaments.services import checkin

    checkin.require(user, rnd.tournament, "forfeit.confirm", _("confirm late forfeits"))
    ids = [int(pk) for pk in match_ids if str(pk).isdigit()]
    if not ids:
        raise BoardError(gettext_lazy("Select the tables whose forfeits you confirm."), "match")
    return checkin.confirm_late_forfeits(rnd, user, ids, now)
