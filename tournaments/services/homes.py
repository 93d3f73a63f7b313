"""Every role's home: where each person starts after logging in, with what waits for them.

- :func:`homes_of` — the front page's list: for each event the user holds a role in, a link
  to each role's home (organiser → the console, chief referee → the chief's desk, table
  referee → my tables, captain → my match, committee → the open appeals);
- :func:`chief_desk` — late teams, calls and disputes, the operations board of every round
  with its counts; :func:`desk_counts` the same counts as plain data (the desk's poll);
- :func:`referee_tables` — each table assigned to a referee in the current round, its state
  and the next thing to do there;
- :func:`captain_matches` — a captain's match of the current round (and before), its state and
  what the captain does next (read the deals, confirm or dispute).

What arbitration shows on a home (incidents, appeals, a team's rulings) comes from panels the
arbitration app registers (:func:`register_panel`): imports point one way, arbitration →
tournaments, so this module never imports arbitration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.models import Event, EventRole, Match, Role, Round, TableAssignment

from . import board, checkin
from .results import current_round

# --- the homes of a user ----------------------------------------------------------------------

HOME_URL = {
    Role.ORGANISER: "tournaments:console",
    Role.CHIEF_REFEREE: "tournaments:chief-desk",
    Role.TABLE_REFEREE: "tournaments:my-tables",
    Role.COMMITTEE: "arbitration:committee",
    Role.CAPTAIN: "tournaments:my-match",
}
HOME_LABEL = {
    Role.ORGANISER: _("Organiser console"),
    Role.CHIEF_REFEREE: _("Chief referee's desk"),
    Role.TABLE_REFEREE: _("My tables"),
    Role.CAPTAIN: _("My match and my team's rulings"),
    Role.COMMITTEE: _("Open appeals (committee)"),
}
HOME_ORDER = list(HOME_URL)  # the order of the buttons: the organiser's first


@dataclass
class Home:
    role: str
    url: str
    label: object
    team: str = ""


@dataclass
class EventHomes:
    event: Event
    homes: list[Home] = field(default_factory=list)


def home_url(role: str, event: Event) -> str:
    return reverse(HOME_URL[role], args=[event.slug])


def homes_of(user) -> list[EventHomes]:
    """For each event ``user`` holds a role in (newest first), a home per role (one query)."""
    if user is None or not user.is_authenticated:
        return []
    events: dict[int, EventHomes] = {}
    roles = (
        EventRole.objects.filter(user=user)
        .select_related("event", "team")
        .order_by("-event__created_at", "event_id")
    )
    seen = set()
    for held in roles:
        entry = events.setdefault(held.event_id, EventHomes(held.event))
        if (held.event_id, held.role) in seen:
            continue  # a captain of two teams has one home
        seen.add((held.event_id, held.role))
        entry.homes.append(
            Home(
                held.role,
                home_url(held.role, held.event),
                HOME_LABEL[held.role],
                held.team.name if held.team_id else "",
            )
        )
    for entry in events.values():
        entry.homes.sort(key=lambda home: HOME_ORDER.index(home.role))
    return list(events.values())


def homes_in(user, event: Event) -> list[Home]:
    """``user``'s homes in one event (the event page links them)."""
    roles = permissions.user_roles(user, event)
    return [
        Home(role, home_url(role, event), HOME_LABEL[role]) for role in HOME_ORDER if role in roles
    ]


# --- panels other apps add to a home -----------------------------------------------------------


@dataclass
class Panel:
    """A block of a home: its template, its context and the counts it adds to the poll."""

    key: str
    template: str
    context: dict
    counts: dict[str, int] = field(default_factory=dict)


PanelProvider = Callable[[Event, object], "Panel | None"]
_PANELS: dict[str, list[tuple[str, PanelProvider]]] = {}


def register_panel(home: str, key: str, provider: PanelProvider) -> None:
    """Add ``provider`` (event, user → a Panel or None) to the home ``home`` (``chief``,
    ``captain``, ``referee``); registering a key again replaces it."""
    providers = [(k, p) for k, p in _PANELS.get(home, []) if k != key]
    _PANELS[home] = [*providers, (key, provider)]


def panels(home: str, event: Event, user) -> list[Panel]:
    found = []
    for _key, provider in _PANELS.get(home, []):
        panel = provider(event, user)
        if panel is not None:
            found.append(panel)
    return found


# --- the chief's desk ------------------------------------------------------------------------


@dataclass
class RoundBoard:
    round: Round
    counts: dict[str, int]
    waiting: int  # results awaiting confirmation

    @property
    def tables(self) -> int:
        return sum(n for state, n in self.counts.items() if state != board.BYE)


def open_rounds(event: Event) -> list[Round]:
    """The rounds past their draft, latest first (the desk shows their boards)."""
    return list(
        Round.objects.filter(event=event).exclude(status=Round.Status.DRAFT).order_by("-number")
    )


def chief_desk(event: Event, user) -> dict:
    """What the chief referee's desk shows (a few queries a round)."""
    rounds = open_rounds(event)
    current = rounds[0] if rounds else None
    boards = []
    for rnd in rounds:
        counts = board.counts(board.read(rnd))
        boards.append(RoundBoard(rnd, counts, sum(counts[s] for s in board.WAITING)))
    late = board.late_tables(current) if current is not None else []
    queue = board.queue(current) if current is not None else []
    found = panels("chief", event, user)
    return {
        "current": current,
        "boards": boards,
        "late_tables": late,
        "late": sum(len(entry.teams) for entry in late),
        "queue": queue,
        "panels": found,
        "counts": _counts(boards, late, queue, found),
    }


def _counts(boards, late, queue, found) -> dict:
    counts = {
        "late": sum(len(entry.teams) for entry in late),
        "queue": len(queue),
        "calls": sum(1 for item in queue if item.dispute is None),
        "disputes": sum(1 for item in queue if item.dispute is not None),
    }
    for entry in boards:
        number = entry.round.number
        counts[f"r{number}-waiting"] = entry.waiting
        for state, n in entry.counts.items():
            counts[f"r{number}-{state}"] = n
    for panel in found:
        counts.update(panel.counts)
    return counts


def desk_counts(event: Event, user) -> dict:
    """The desk's counts only (its page polls them)."""
    return chief_desk(event, user)["counts"]


# --- the table referee's tables ----------------------------------------------------------------

NEXT_ACTION = {
    board.NOT_STARTED: _("Seat the teams and enter the result"),
    board.SUBMITTED: _("Entered: the captains confirm it next"),
    board.HALF_CONFIRMED: _("One team confirmed: the other confirms next"),
    board.CHANGED: _("Changed: the new version waits for confirmation"),
    board.CONFIRMED: _("Confirmed: nothing more to do"),
    board.BYE: _("Bye: nothing to do"),
}
STATE_LABEL = {
    board.NOT_STARTED: _("not started"),
    board.SUBMITTED: _("submitted, awaiting confirmation"),
    board.HALF_CONFIRMED: _("one team confirmed"),
    board.CHANGED: _("changed, awaiting confirmation"),
    board.CONFIRMED: _("confirmed"),
    board.BYE: _("bye"),
}


# a table not started yet, by its seat marks (已入座 from the table page)
SEATED_LABEL = _("both teams seated")
SEATED_ACTION = _("Both teams seated: enter the deals as they are played")
HALF_SEATED_LABEL = _("%(team)s not seated")
HALF_SEATED_ACTION = _(
    "Mark %(team)s seated once both its players are at the table: a team not marked seated "
    "is late at the start + %(minutes)s minutes"
)


@dataclass
class MyTable:
    number: int
    match: Match | None
    state: str
    label: object
    next_action: object
    urgent: bool
    seated: bool = False  # both teams marked seated, nothing entered yet


def _not_started(number: int, row, late_after: int) -> MyTable:
    """A table with nothing entered: what its seat marks leave to do."""
    match = row.match
    if row.home_seated and row.away_seated:
        return MyTable(number, match, row.state, SEATED_LABEL, SEATED_ACTION, False, True)
    if row.home_seated or row.away_seated:
        team = (match.away if row.home_seated else match.home).name
        return MyTable(
            number,
            match,
            row.state,
            HALF_SEATED_LABEL % {"team": team},
            HALF_SEATED_ACTION % {"team": team, "minutes": late_after},
            True,
        )
    return MyTable(number, match, row.state, STATE_LABEL[row.state], NEXT_ACTION[row.state], True)


def referee_tables(event: Event, user) -> tuple[Round | None, list[MyTable]]:
    """The tables assigned to ``user`` with their match in the current round."""
    numbers = list(
        TableAssignment.objects.filter(event=event, user=user)
        .order_by("table_number")
        .values_list("table_number", flat=True)
    )
    rnd = current_round(event)
    rows = {row.table: row for row in board.read(rnd)} if rnd is not None and numbers else {}
    tables = []
    for number in numbers:
        row = rows.get(number)
        if row is None:
            tables.append(
                MyTable(number, None, "", _("no match at this table this round"), "", False)
            )
            continue
        if row.state == board.NOT_STARTED and row.match.away_id is not None:
            tables.append(_not_started(number, row, checkin.late_minutes(event)))
            continue
        tables.append(
            MyTable(
                number,
                row.match,
                row.state,
                STATE_LABEL[row.state],
                NEXT_ACTION[row.state],
                row.state == board.NOT_STARTED,
            )
        )
    return rnd, tables


# --- the captain's match ----------------------------------------------------------------------


@dataclass
class MyMatch:
    match: Match
    team_id: int
    state: str
    label: object
    next_action: object
    to_confirm: bool

    @property
    def opponent(self):
        return self.match.away if self.match.home_id == self.team_id else self.match.home

    @property
    def team(self):
        return self.match.home if self.match.home_id == self.team_id else self.match.away


CAPTAIN_ACTION = {
    board.NOT_STARTED: _("The referee enters the result: nothing to do yet"),
    board.SUBMITTED: _("Read the deals, then confirm or dispute"),
    board.HALF_CONFIRMED: _("Read the deals, then confirm or dispute"),
    board.CHANGED: _("A new version: read it, then confirm or dispute"),
    board.CONFIRMED: _("Confirmed: it counts"),
    board.BYE: _("Bye: no match this round"),
}


def captain_teams(user, event: Event):
    return list(
        EventRole.objects.filter(user=user, event=event, role=Role.CAPTAIN)
        .exclude(team=None)
        .select_related("team")
        .order_by("team__name")
    )


def captain_matches(event: Event, user) -> tuple[list, list[MyMatch], list[MyMatch]]:
    """(teams, the current round's matches, earlier matches) of the captain's teams."""
    from django.db.models import Q

    from tournaments.models import ResultConfirmation

    teams = [held.team for held in captain_teams(user, event)]
    ids = [team.pk for team in teams]
    if not ids:
        return teams, [], []
    matches = list(
        Match.objects.filter(round__event=event)
        .exclude(round__status=Round.Status.DRAFT)
        .filter(Q(home_id__in=ids) | Q(away_id__in=ids))
        .select_related("round", "home", "away")
        .prefetch_related("versions")
        .order_by("-round__number", "table_number")
    )
    current = current_round(event)
    captains: dict[int, int] = {}
    mine = set()
    confirmations = ResultConfirmation.objects.filter(
        version__match__in=[m.pk for m in matches], capacity=ResultConfirmation.Capacity.CAPTAIN
    ).values_list("version_id", "team_id")
    for version_id, team_id in confirmations:
        captains[version_id] = captains.get(version_id, 0) + 1
        if team_id in ids:
            mine.add((version_id, team_id))
    now, before = [], []
    for match in matches:
        versions = sorted(match.versions.all(), key=lambda v: v.number)
        latest = versions[-1] if versions else None
        team_id = match.home_id if match.home_id in ids else match.away_id
        state = board.state_of(match, versions, captains.get(latest.pk, 0) if latest else 0)
        confirmed_by_me = latest is not None and (latest.pk, team_id) in mine
        to_confirm = state in board.WAITING and not confirmed_by_me
        action = CAPTAIN_ACTION[state]
        if state in board.WAITING and confirmed_by_me:
            action = _("Your team confirmed: the other side confirms next")
        entry = MyMatch(match, team_id, state, STATE_LABEL[state], action, to_confirm)
        (now if current is not None and match.round_id == current.pk else before).append(entry)
    return teams, now, before
