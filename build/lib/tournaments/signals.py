"""Saves that change what the public sees bump the event revision in the same transaction
(see tournaments.standings.service, "Caching"). Bulk writes and ``update()`` send no signal:
the services doing them call ``invalidate`` themselves."""

from __future__ import annotations

from django.db.models.signals import post_delete, post_save

from tournaments.models import (
    Match,
    Player,
    RankingAdjustment,
    ResultVersion,
    Round,
    Team,
    Tournament,
    Unit,
)
from tournaments.standings.service import invalidate


def _cached(instance, name):
    """The related object ``name`` if it is already loaded on ``instance`` (no query)."""
    return instance._state.fields_cache.get(name)


def _tournament_id(instance) -> int | None:
    if isinstance(instance, Tournament):
        return instance.pk
    if isinstance(instance, Player):
        team = _cached(instance, "team")
        if team is not None:
            return team.tournament_id
        return Team.objects.filter(pk=instance.team_id).values_list("tournament_id", flat=True)[0]
    if isinstance(instance, ResultVersion):
        match = _cached(instance, "match")
        if match is None:
            return (
                Match.objects.filter(pk=instance.match_id)
                .values_list("round__tournament_id", flat=True)
                .first()
            )
        instance = match
    if isinstance(instance, Match):
        round_ = _cached(instance, "round")
        if round_ is not None:
            return round_.tournament_id
        return Round.objects.filter(pk=instance.round_id).values_list("tournament_id", flat=True)[0]
    return getattr(instance, "tournament_id", None)


def bump(sender, instance, raw=False, **kwargs) -> None:
    if raw:  # loaddata / archive import: the importer's own transaction bumps
        return
    if isinstance(instance, ResultVersion) and not instance.is_counting:
        return  # a version that does not count changes no public answer
    tournament_id = _tournament_id(instance)
    if tournament_id is not None:
        invalidate(tournament_id)


def bump_on_delete(sender, instance, **kwargs) -> None:
    try:
        tournament_id = _tournament_id(instance)
    except (IndexError, Team.DoesNotExist, Round.DoesNotExist):
        return  # the event itself is being deleted
    if tournament_id is not None and not isinstance(instance, Tournament):
        invalidate(tournament_id)


def connect() -> None:
    for model in (Tournament, Unit, Team, Player, Round, Match, ResultVersion, RankingAdjustment):
        post_save.connect(bump, sender=model, dispatch_uid=f"paisai-revision-{model.__name__}")
        post_delete.connect(
            bump_on_delete, sender=model, dispatch_uid=f"paisai-revision-del-{model.__name__}"
        )
