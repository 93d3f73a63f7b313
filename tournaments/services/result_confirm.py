"""Confirming a result: who may confirm the latest version, and when it starts counting.

The number the confirmer saw must still be the latest (else
:class:`~tournaments.services.results.ChangedMeanwhile`). The chief referee's confirmation
counts at once; so does a *second* referee's (a referee allowed to write the table who did
not create that version); the captains of the two teams confirm each for their own team, and
the version counts once both have. A table key cannot confirm, and whoever entered a version
(or the referee whose table key entered it) never confirms it. An open dispute
(:mod:`tournaments.services.disputes`) blocks counting until the chief referee decides it.
Confirming locks the match row; every confirmation is in the audit log.
"""

from __future__ import annotations

from django.db.models import OuterRef, Subquery
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments import permissions
from tournaments.freshness import revision_batch
from tournaments.models import Match, ResultConfirmation, ResultDispute, ResultVersion, Round

from . import round_close
from .audit import log_action, log_actions
from .results import (
    Actor,
    ChangedMeanwhile,
    ResultError,
    ResultForbidden,
    after_counting,
    base_number,
    clear_counting,
    counted,
    is_chief,
    latest_version,
    lock,
    require_whole,
)

Capacity = ResultConfirmation.Capacity


CONFIRMERS = _(
    "Only the captains of the two teams, a second referee or the chief referee may confirm "
    "this result."
)


def _capacity(actor: Actor, match: Match, version: ResultVersion):
    event = match.round.event
    if actor.table_key is not None or actor.user is None:
        raise ResultForbidden(_("Log in to confirm: a table key cannot confirm a result."))
    permissions.require(actor.user, event, "result.confirm", ResultForbidden, CONFIRMERS)
    if actor.user.pk in (version.created_by_id, version.referee_id):
        # Whoever entered the version, or the referee whose table key entered it, never
        # confirms it: not as a referee, a captain or the chief.
        raise ResultForbidden(
            _(
                "You entered this version: another referee, the chief referee or both "
                "captains must confirm it."
            )
        )
    if is_chief(actor, event):
        return Capacity.CHIEF, None
    if permissions.can_write_table(actor.user, event, match.table_number):
        if version.via == "table-key" and version.referee_id is None:
            raise ResultForbidden(
                _(
                    "This version was entered with the table link, which belongs to no named "
                    "referee: the chief referee or both captains must confirm it."
                )
            )
        return Capacity.REFEREE, None
    teams = permissions.captain_team_ids(actor.user, event)
    for team_id in (match.home_id, match.away_id):
        if team_id in teams:
            return Capacity.CAPTAIN, team_id
    raise ResultForbidden(CONFIRMERS)


def may_confirm(actor: Actor, match: Match, version: ResultVersion | None) -> bool:
    """Whether ``actor`` may confirm ``version`` now (the page shows the button only then):
    it is the latest, not counting, not disputed, and the actor's team has not confirmed."""
    if version is None or version.is_counting:
        return False
    try:
        capacity, team_id = _capacity(actor, match, version)
        _require_undisputed(version)
        require_whole(version.record, version.outcome, version.number)
    except ResultError:
        return False
    confirmed = ResultConfirmation.objects.filter(version=version)
    if capacity == Capacity.CAPTAIN:
        confirmed = confirmed.filter(team_id=team_id)
    else:
        confirmed = confirmed.filter(user=actor.user)
    return not confirmed.exists()


def confirm(match: Match, number: object, actor: Actor) -> ResultVersion:
    """Confirm version ``number`` (it must still be the latest). Returns the version,
    whose ``is_counting`` says whether it counts now."""
    number = base_number(number)
    with revision_batch():
        lock(match)
        latest = latest_version(match)
        _require_latest(latest, number, actor)
        capacity, team_id = _capacity(actor, match, latest)
        _require_undisputed(latest)
        require_whole(latest.record, latest.outcome, latest.number)
        if (
            capacity == Capacity.CAPTAIN
            and ResultConfirmation.objects.filter(version=latest, team_id=team_id).exists()
        ):
            raise ResultError(_("Your team has already confirmed this version."), "version")
        ResultConfirmation.objects.create(
            version=latest,
            user=actor.user,
            capacity=capacity,
            team_id=team_id,
            source=actor.source[:120],
        )
        counts = capacity != Capacity.CAPTAIN or _both_captains(latest, match)
        if counts:
            clear_counting(match, latest.pk)
            counted(latest, actor.user)
            latest.save(update_fields=["is_counting", "confirmed_at", "confirmed_by"])
            after_counting(match)
        log_action(
            match.round.event,
            actor.user,
            "result.confirm",
            match,
            data={"version": number, "capacity": capacity, "team": team_id, "counting": counts},
            source=actor.source,
        )
    return latest


def confirm_many(rnd: Round, seen: dict[int, int | None], actor: Actor):
    """The chief referee confirms at once the version seen of each selected match of ``rnd``
    (``seen``: match id → the version number seen, None for the latest); each counts at once.

    The same checks as :func:`confirm`, table by table (one table's refusal stops no other),
    and the same rows: a confirmation, the counting flag and an audit entry per table. The
    writes are made for the whole selection at once, so the cost is a fixed number of queries
    whatever the number of tables (tests/tournaments/services/test_board.py counts them): the
    selected match rows locked, their latest versions, their open disputes, the
    confirmations, the counting flags (two updates), the audit entries, the round's
    completion and one revision bump. Returns (the (match, version) pairs now counting, the
    (match, ResultError) pairs refused), both in table order; matches of another round are
    ignored."""
    event = rnd.event
    require_chief_confirm(actor, event)
    done: list[tuple[Match, ResultVersion]] = []
    refused: list[tuple[Match, ResultError]] = []
    with revision_batch():
        # locked in primary-key order (as every writer that locks several matches does)
        matches = list(
            Match.objects.select_for_update(no_key=True)
            .filter(round=rnd, pk__in=list(seen))
            .order_by("pk")
        )
        newest = ResultVersion.objects.filter(match_id=OuterRef("match_id")).order_by("-number")
        latest = {
            version.match_id: version
            for version in ResultVersion.objects.filter(match__in=[m.pk for m in matches])
            .filter(number=Subquery(newest.values("number")[:1]))
            .select_related("created_by")
        }
        disputes = {
            dispute.version_id: dispute
            for dispute in ResultDispute.objects.filter(
                version__in=[v.pk for v in latest.values()], decided_at__isnull=True
            ).select_related("team")
        }
        for match in sorted(matches, key=lambda m: (m.table_number or 0, m.pk)):
            match.round = rnd  # read by the checks and the audit entry: no query a table
            version = latest.get(match.pk)
            try:
                _require_latest(
                    version, seen[match.pk] or (version.number if version else 0), actor
                )
                _capacity(actor, match, version)
                if version.pk in disputes:
                    raise _disputed(version, disputes[version.pk])
                require_whole(version.record, version.outcome, version.number)
            except ResultError as error:
                refused.append((match, error))
            else:
                done.append((match, version))
        if done:
            _count_all(rnd, done, actor)
    return done, refused


def require_chief_confirm(actor: Actor, event) -> None:
    """Only the chief referee confirms many tables at once."""
    permissions.require(
        actor.user,
        event,
        "result.correct",
        ResultForbidden,
        _("Only the chief referee may confirm results in bulk."),
    )


def _count_all(rnd: Round, done, actor: Actor) -> None:
    """Inside the batch holding the match locks: the chief's confirmations of ``done`` (match,
    latest version) written and counting, a query each for the whole selection."""
    user, event = actor.user, rnd.event
    source = actor.source[:120]
    ResultConfirmation.objects.bulk_create(
        [
            ResultConfirmation(version=version, user=user, capacity=Capacity.CHIEF, source=source)
            for _match, version in done
        ]
    )
    # an earlier counting version of each match stops counting first (one counting a match)
    ResultVersion.objects.filter(
        match_id__in=[match.pk for match, _version in done], is_counting=True
    ).update(is_counting=False)
    now = timezone.now()
    for _match, version in done:
        counted(version, user)
        version.confirmed_at, version.confirmed_by_name = now, user.get_username()
    ResultVersion.objects.filter(pk__in=[version.pk for _match, version in done]).update(
        is_counting=True, confirmed_at=now, confirmed_by=user, confirmed_by_name=user.get_username()
    )
    round_close.note_decided(rnd)
    log_actions(
        event,
        user,
        "result.confirm",
        [
            (
                match,
                {
                    "version": version.number,
                    "capacity": Capacity.CHIEF,
                    "team": None,
                    "counting": True,
                },
            )
            for match, version in done
        ],
        source=actor.source,
    )


def _require_latest(latest: ResultVersion | None, number: int, actor: Actor) -> None:
    """The version seen (``number``) must still be the latest and not count yet."""
    if latest is None:
        raise ResultError(_("There is no result to confirm yet."), "version")
    if latest.number != number:
        raise ChangedMeanwhile(latest, by=actor.user)
    if latest.is_counting:
        raise ResultError(_("Version %(n)s already counts."), "version", n=number)


def _require_undisputed(version: ResultVersion) -> None:
    """An open dispute blocks counting until the chief referee decides it."""
    dispute = (
        ResultDispute.objects.filter(version=version, decided_at__isnull=True)
        .select_related("team")
        .first()
    )
    if dispute is not None:
        raise _disputed(version, dispute)


def _disputed(version: ResultVersion, dispute: ResultDispute) -> ResultError:
    return ResultError(
        _(
            "Version %(n)s is disputed by %(team)s (%(reason)s): the chief referee decides "
            "before it can count."
        ),
        "version",
        n=version.number,
        team=dispute.team.name if dispute.team else "?",
        reason=dispute.reason,
    )


def _both_captains(version: ResultVersion, match: Match) -> bool:
    teams = set(
        ResultConfirmation.objects.filter(version=version, team__isnull=False).values_list(
            "team_id", flat=True
        )
    )
    return {match.home_id, match.away_id} <= teams
