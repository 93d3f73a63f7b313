"""Changing an existing event's settings: its details, the preset and every setting of the
one event-settings schema (rules_engine.presets.event_preset), logged old → new.

A change that would break a running event is refused with its reason: once a round is
published the preset and the settings that decide points or the ranking
(:data:`rules_engine.presets.SCORING_SETTINGS`) are fixed, and the number of rounds cannot
fall below the rounds already drawn; a finished event changes nothing but its details.
"""

from __future__ import annotations

import datetime
from decimal import Decimal

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from rules_engine.errors import RulesError
from rules_engine.points import points_json
from rules_engine.presets import POINTS_FIELDS, SCORING_SETTINGS, event_preset, settings_fields
from tournaments import halls
from tournaments.errors import ServiceError
from tournaments.models import Event, Round
from tournaments.permissions import require

from .audit import log_action

DETAILS = ("name", "venue", "starts_on", "ends_on", "halls", "event_file_public")
PLAY = ("preset", "num_rounds", "round_minutes", "settings")
EDITABLE = DETAILS + PLAY


class SettingsError(ServiceError):
    """An event setting refused (bad value, or it would break the running event)."""


def normalised(game: str, preset: str, settings: dict) -> dict:
    """The overrides that differ from the preset's own values (a value equal to the preset's
    is no override), in the schema's stored form (lists as lists)."""
    defaults = {f.name: f.default for f in settings_fields(game, preset)}
    checked = event_preset(game, preset, settings)  # RulesError naming settings.<key>
    kept = {}
    for key, value in settings.items():
        if key in POINTS_FIELDS and value is not None:  # "0.50" is 0.5: the checked value
            value = getattr(checked, key)
        if _plain(value) != _plain(defaults.get(key, object())):
            kept[key] = _plain(value)
    return kept


def _plain(value):
    if isinstance(value, Decimal):  # match points: 3 or "0.5" (rules_engine.points)
        return points_json(value)
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value


def _shown(value):
    if isinstance(value, datetime.date):
        return value.isoformat()
    return _plain(value)


def started(event: Event) -> bool:
    """A round past its draft: results are being scored under the current rules."""
    return event.rounds.exclude(status=Round.Status.DRAFT).exists()


def planned(event: Event, changes: dict) -> dict:
    """What saving ``changes`` would change, {field: (old, new)}, checked as saving checks it
    (SettingsError naming the field): the settings page previews it before storing."""
    unknown = sorted(set(changes) - set(EDITABLE))
    if unknown:
        raise SettingsError(_("%(name)s cannot be changed here."), unknown[0], name=unknown[0])
    preset = changes.get("preset", event.preset)
    settings = changes.get("settings", event.settings) or {}
    if not isinstance(settings, dict):
        raise SettingsError(_("settings must be an object of preset settings"), "settings")
    try:
        settings = normalised(event.game, preset, settings)
    except RulesError as err:
        raise SettingsError.from_rules(err) from None
    wanted = {**{k: v for k, v in changes.items() if k != "settings"}, "settings": settings}
    made = {}
    for key, value in wanted.items():
        old = getattr(event, key)
        if _shown(old) != _shown(value):
            made[key] = (old, value)
    if "halls" in made:
        halls.check(made["halls"][1])  # HallsError naming ``halls``
    refuse_breaking(event, made)
    return made


def update_settings(
    event: Event, user, changes: dict, source: str = "", reason: str | None = None
) -> dict:
    """Apply ``changes`` (keys of :data:`EDITABLE`; ``settings`` is the whole new overrides
    object) and log each change old → new with ``reason``. Returns the changes made
    {field: [old, new]}. The settings page gives a reason (``""`` when none was written):
    once results exist a change needs one."""
    require(user, event, "event.settings")
    with transaction.atomic():
        current = Event.objects.select_for_update(no_key=True).get(pk=event.pk)
        made = planned(current, changes)
        if made and reason is not None and not reason.strip() and started(current):
            raise SettingsError(
                _("Results already exist: say why the settings change (the audit log keeps it)."),
                "reason",
            )
        for key, (_old, value) in made.items():
            setattr(current, key, value)
        if made:
            current.save(update_fields=list(made))
            log_action(
                current,
                user,
                "event.settings",
                current,
                {"changes": audit_changes(made)},
                reason=(reason or "").strip(),
                source=source,
            )
    for key, (_old, value) in made.items():
        setattr(event, key, value)
    return {key: [_shown(old), _shown(new)] for key, (old, new) in made.items()}


def audit_changes(made: dict) -> dict:
    """{field: [old, new]}; the settings object by key ("settings.<key>")."""
    shown = {}
    for key, (old, new) in made.items():
        if key == "settings":
            for name in sorted(set(old or {}) | set(new or {})):
                before, after = (old or {}).get(name), (new or {}).get(name)
                if _plain(before) != _plain(after):
                    shown[f"settings.{name}"] = [_plain(before), _plain(after)]
        else:
            shown[key] = [_shown(old), _shown(new)]
    return shown


def refuse_breaking(event: Event, made: dict) -> None:
    """Refuse the changes that would break the event as it runs, with the reason."""
    if not made:
        return
    finished = event.status == Event.Status.FINISHED
    play = [key for key in made if key in PLAY]
    if finished and play:
        raise SettingsError(
            _("The event is finished: %(name)s can no longer change (its results are frozen)."),
            play[0],
            name=play[0],
        )
    drawn = event.rounds.order_by("-number").values_list("number", flat=True).first() or 0
    if "num_rounds" in made and made["num_rounds"][1] < drawn:
        raise SettingsError(
            _("Round %(number)s is already drawn: the event cannot have fewer rounds."),
            "num_rounds",
            number=drawn,
        )
    if not started(event):
        return
    if "preset" in made:
        raise SettingsError(
            _(
                "Round 1 is published: the scoring preset can no longer change (results are "
                "scored by it)."
            ),
            "preset",
        )
    if "settings" in made:
        old, new = made["settings"]
        for key in SCORING_SETTINGS:
            if _plain((old or {}).get(key)) != _plain((new or {}).get(key)):
                raise SettingsError(
                    _(
                        "Round 1 is published: %(name)s decides points or the ranking and can "
                        "no longer change."
                    ),
                    f"settings.{key}",
                    name=key,
                )
