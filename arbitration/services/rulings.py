"""Rulings on the penalty ladder: the chief referee decides, the escalation follows, the
effects are applied; a ruling is cancelled only by a new record (a revocation).
"""

from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from arbitration.models import Incident, Revocation, Ruling
from arbitration.models.incidents import Category
from arbitration.models.rulings import Step
from rules_engine import adjustments, ladder
from rules_engine.errors import RulesError
from rules_engine.ladder_national import IN_PLAY_STEPS, times_of
from tournaments.freshness import revision_batch
from tournaments.models import Event, Team
from tournaments.services.audit import log_action
from tournaments.validation import BadInput, bounded_int

from . import ArbitrationError, effects
from .common import require_chief, require_reason, settings_of


def active_rulings(event: Event):
    return Ruling.objects.filter(event=event, revocation__isnull=True)


def team_steps(team: Team, exclude: Ruling | None = None) -> list[str]:
    """The team's standing disciplinary record in the event: steps of active rulings."""
    rulings = active_rulings(team.event).filter(team=team)
    if exclude is not None:
        rulings = rulings.exclude(pk=exclude.pk)
    return list(rulings.values_list("step", flat=True))


def proposal(incident: Incident) -> list[ladder.Penalty]:
    """What the ladder proposes for the incident: chengyu's fixed ladder (a slow play over its
    10 seconds: one trick); under an in-play ladder (national, Suzhou), the n-th offence of a
    category by the team in the match (earlier incidents ruled and in force, a dismissal not
    counted), a slow play by its seconds against the preset's limits, a wrong tribute scored
    last (national) or given again (Suzhou), a wrong, exposed or out-of-turn card a round of
    play lost (Suzhou)."""
    previous = 0
    if incident.team_id and incident.match_id:
        previous = (
            Incident.objects.filter(
                match=incident.match,
                team=incident.team,
                category=incident.category,
                rulings__revocation__isnull=True,
                rulings__automatic=False,
                created_at__lt=incident.created_at,
            )
            .exclude(rulings__step=ladder.NO_PENALTY)
            .distinct()
            .count()
        )
    event = incident.event
    preset = event.get_preset()
    return ladder.proposed_penalties(
        event.game,
        incident.category,
        previous,
        preset.in_play_ladder,
        seconds=incident.seconds,
        timed=incident.timed,
        times=times_of(preset),
    )


def rule(
    incident: Incident,
    user,
    *,
    step: str,
    reason: str,
    team: Team | None = None,
    levels: int = 1,
    opponent_up: bool = False,
    deal: int | None = None,
    places: int = 0,
    source: str = "",
) -> list[Ruling]:
    """The chief referee's ruling on ``incident``; returns it and the rulings the escalation
    made of it (each with its effect applied)."""
    event = incident.event
    require_chief(user, event, "incident.rule", _("rule on an incident"))
    reason = require_reason(reason)
    check_step(event, step)
    team = team or incident.team
    if team is None or team.event_id != event.pk:
        raise ArbitrationError(_("Name the team the ruling is about."), "team")
    try:
        adjustments.check_levels(levels)
    except RulesError as err:
        raise ArbitrationError.from_rules(err) from None
    try:  # the columns' ranges (a value past them would reach the database)
        deal = bounded_int(deal, "deal", 1)
        places = bounded_int(places, "places", 0, blank=0)
    except BadInput as err:
        raise ArbitrationError.from_error(err) from None
    if step == ladder.SCORED_LAST:
        deal = scored_last_deal(incident, team, deal)
    fields = {
        "levels": levels,
        "opponent_up": bool(opponent_up),
        "deal": deal or None,
        "places": places or 0,
        "in_play_steps": in_play_steps(incident, step),
    }
    with revision_batch():  # one revision bump, locked after every match row
        made = create(event, incident, team, step, reason, user, fields, source)
    return made


def check_step(event: Event, step: object, field: str = "step") -> str:
    """``step`` may be ruled in the event (scored last only under the national ladder)."""
    try:
        return ladder.check_step(step, event.game, field, event.get_preset().in_play_ladder)
    except RulesError as err:
        raise ArbitrationError.from_rules(err) from None


def in_play_steps(incident: Incident, step: str) -> list[str]:
    """The in-play steps (停止一圈/一轮出牌, 犯规, 重新给牌) a ruling of ``step`` on
    ``incident`` carries: those the ladder proposes, unless the incident is dismissed."""
    if step == ladder.NO_PENALTY:
        return []
    return [p.step for p in proposal(incident) if p.step in IN_PLAY_STEPS]


def scored_last_deal(
    incident: Incident | None, team: Team, deal: int | None = None, field: str = "step"
) -> int:
    """The deal a wrong tribute is scored last in (the ruling's, else the incident's); refused
    unless the incident is a wrong tribute naming a seat of ``team``. ``field``: the field of
    the step (an appeal's amendment names ``amended_step``)."""
    if incident is None or incident.category != Category.WRONG_TRIBUTE or not incident.seat:
        raise ArbitrationError(
            _(
                "“Scored last in the deal” is the ruling on a wrong tribute incident (it names "
                "the deal and the offender's seat)."
            ),
            field,
        )
    if team.pk != incident.team_id:
        raise ArbitrationError(
            _("A wrong tribute is scored against the team of the offender's seat."), "team"
        )
    deal = deal or incident.deal
    if not deal:
        raise ArbitrationError(_("Name the deal the wrong tribute was found in."), "deal")
    return deal


def create(event, incident, team, step, reason, user, fields, source, amends=None):
    """Store a ruling, apply its effect, then every step its escalation sets off."""
    match = incident.match if incident else None
    if step == ladder.SCORED_LAST:  # an appeal's amendment comes here without rule()'s checks
        fields = fields | {"deal": scored_last_deal(incident, team, fields.get("deal"))}
    ruling = _store(event, incident, team, match, step, reason, user, fields, source, amends=amends)
    made = [ruling]
    parent = ruling
    for extra in ladder.escalate(team_steps(team, exclude=ruling), step, settings_of(event)):
        why = gettext("Escalation: %(step)s after ruling #%(n)s.") % {
            "step": Step(extra).label,
            "n": parent.pk,
        }
        parent = _store(
            event,
            incident,
            team,
            match,
            extra,
            why,
            user,
            {},
            source,
            automatic=True,
            escalated_from=parent,
        )
        made.append(parent)
    return made


def _store(event, incident, team, match, step, reason, user, fields, source, **extra):
    ruling = Ruling.objects.create(
        event=event,
        incident=incident,
        team=team,
        match=match,
        step=step,
        reason=reason,
        decided_by=user,
        source=source[:120],
        **fields,
        **extra,
    )
    ruling.effect = effects.apply(ruling, user, source)
    ruling.save(update_fields=["effect", "result_version", "ranking_adjustment"])
    log_action(
        event,
        user,
        "ruling.automatic" if extra.get("automatic") else "ruling.make",
        ruling,
        data={
            "step": step,
            "team": team.pk,
            "incident": incident and incident.pk,
            "effect": ruling.effect,
            "in_play_steps": ruling.in_play_steps,
            "amends": extra.get("amends") and extra["amends"].pk,
        },
        reason=reason,
        source=source,
    )
    return ruling


def revoke(ruling: Ruling, user, reason: str, appeal=None, source: str = "") -> list[Revocation]:
    """Cancel ``ruling`` and every active ruling its escalation made, undoing their effects
    (the latest first). The chief referee corrects this way; appeals call it too."""
    if appeal is None:
        require_chief(user, ruling.event, "ruling.revoke", _("correct a ruling"))
    reason = require_reason(reason)
    if not ruling.is_active:
        raise ArbitrationError(_("Ruling #%(n)s is already revoked."), "ruling", n=ruling.pk)
    chain = [ruling]
    while True:
        nxt = Ruling.objects.filter(escalated_from=chain[-1], revocation__isnull=True).first()
        if nxt is None:
            break
        chain.append(nxt)
    done = []
    with revision_batch():
        for item in reversed(chain):
            version = effects.reverse(item, user, reason, source)
            done.append(
                Revocation.objects.create(
                    ruling=item,
                    reason=reason,
                    appeal=appeal,
                    result_version=version,
                    decided_by=user,
                )
            )
            log_action(
                item.event,
                user,
                "ruling.revoke",
                item,
                data={"appeal": appeal and appeal.pk, "version": version and version.number},
                reason=reason,
                source=source,
            )
    return done
