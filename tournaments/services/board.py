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

from django.db.models import Exists, OuterRef, Prefetch
from django.utils.translation import gettext, gettext_lazy
from django.utils.translation import gettext_lazy as _

from rules_engine.outcome import Outcome
from tournaments.errors import ServiceError
from tournaments.models import (
    Match,
    ResultConfirmation,
    ResultDispute,
    ResultVersion,
    Round,
    TableAssignment,
)
from tournaments.services import match_formats
from tournaments.validation import MAX_TABLE, whole_number

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
        if not 1 <= (whole_number(text, MAX_TABLE) or 0):
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
    home_seated: bool = False  # 已入座: marked seated this round from the table page
    away_seated: bool = False
    disputed: bool = False  # the latest version has an open dispute: the chief decides first
    incomplete: str = ""  # why the latest version is not a whole match yet ("" when it is)

    @property
    def confirmable(self) -> bool:
        """Whether the chief may tick the row for the bulk confirm: a version waits, is not
        disputed and is a whole match (the same checks as ``confirm_many``, issue 35)."""
        return self.state in WAITING and not self.disputed and not self.incomplete

    @property
    def table(self) -> int | None:
        return self.match.table_number

    @property
    def score(self) -> Outcome | None:
        """The latest version's result as the engine answered it (points, levels, forfeit or
        penalty loss): what the chief confirms, on the row."""
        return Outcome.from_answer(self.latest.outcome) if self.latest is not None else None


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


def board(
    rnd: Round, referee: str = "", state: str = "", tables: TableRange | None = None
) -> list[TableState]:
    """The round's tables with their states, filtered by a referee's username, a state and a
    range of tables."""
    return select(read(rnd), referee, state, tables)


def select(
    rows: list[TableState], referee: str = "", state: str = "", tables: TableRange | None = None
) -> list[TableState]:
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
    """Every table of the round with its state, latest version (its score) and seat marks
    (a fixed number of queries, whatever the number of tables)."""
    # each version with whether a dispute of it is open (in the same query)
    open_dispute = ResultDispute.objects.filter(version=OuterRef("pk"), decided_at__isnull=True)
    versions = ResultVersion.objects.annotate(open_dispute=Exists(open_dispute)).order_by("number")
    matches = (
        rnd.matches.select_related("home", "away")
        .prefetch_related(Prefetch("versions", queryset=versions))
        .order_by("table_number", "pk")
    )
    referees: dict[int, list[str]] = defaultdict(list)
    for table, username in TableAssignment.objects.filter(event=rnd.event).values_list(
        "table_number", "user__username"
    ):
        referees[table].append(username)
    seated = set(rnd.seatings.values_list("team_id", flat=True))
    captains: dict[int, int] = defaultdict(int)
    for version_id in ResultConfirmation.objects.filter(
        version__match__round=rnd, capacity=ResultConfirmation.Capacity.CAPTAIN
    ).values_list("version_id", flat=True):
        captains[version_id] += 1
    rows = []
    for match in matches:
        history = list(match.versions.all())
        latest = history[-1] if history else None
        state = state_of(match, history, captains[latest.pk] if latest else 0)
        rows.append(
            TableState(
                match,
                state,
                latest,
                sorted(referees.get(match.table_number, [])),
                match.home_id in seated,
                match.away_id in seated,
                disputed=latest is not None and latest.open_dispute,
                incomplete=match_formats.not_whole(latest.record, latest.outcome)
                if latest is not None and state in WAITING
                else "",
            )
        )
    return rows


def counts(rows: list[TableState]) -> dict[str, int]:
    tally = dict.fromkeys(STATES, 0)
    for row in rows:
        tally[row.state] += 1
    return tally


def bulk_confirm(rnd: Round, user, match_ids, source: str = "") -> tuple[int, list[str]]:
    """The chief referee confirms the version seen of each selected table (``match_ids``:
    "<match>:<version>" as the board sends, or bare match ids for the latest). Returns how many
    now count and, for each table refused, why (one table's refusal stops no other). One
    transaction and a fixed number of queries whatever the number of tables
    (``result_confirm.confirm_many``; tests/tournaments/services/test_board.py counts them)."""
    from tournaments.services import result_confirm, results

    actor = results.Actor(user, None, "web", source)
    result_confirm.require_chief_confirm(actor, rnd.event)
    done, refused = result_confirm.confirm_many(rnd, _selection(match_ids), actor)
    return len(done), [
        gettext("Table %(table)s: %(reason)s") % {"table": match.table_number, "reason": error}
        for match, error in refused
    ]


def _selection(values) -> dict[int, int | None]:
    """The board's ticks: "<match id>:<version seen>" (or a bare match id: its latest)."""
    seen: dict[int, int | None] = {}
    for value in values:
        match_id, _sep, number = str(value).partition(":")
        if whole_number(match_id) is not None:
            seen[whole_number(match_id)] = whole_number(number)
    return seen


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


def confirm_forfeits(rnd: Round, user, team_ids, now=None, source: str = ""):
    """The chief confirms the forfeits of the ticked late TEAMS (``team_ids``: a forfeit is
    per team, ``checkin.confirm_late_forfeits``) from the board or the attendance page (the
    same action and permission). Nothing ticked is refused. Returns ``checkin.Forfeits``
    (``.teams`` ruled absent, ``.tables`` count, ``.skipped`` reasons)."""
    from tournaments.services import checkin

    checkin.require(user, rnd.event, "forfeit.confirm", _("confirm late forfeits"))
    ids = [n for n in map(whole_number, team_ids) if n is not None]
    if not ids:
        raise BoardError(gettext_lazy("Tick the late teams whose forfeits you confirm."), "team")
    return checkin.confirm_late_forfeits(rnd, user, ids, now, source)
