"""The event settings form, generated from the one event-settings schema
(:func:`rules_engine.presets.settings_fields`): a checkbox for a yes/no setting, a number
field with the schema's bounds, a choice for a setting with choices, a pair of inputs for a
pair (forfeit points), select boxes in order for a tie-break order (one list per kind of stage
when the declaration names ``keys``) and a table of rows for a table (tournaments.forms_parts).
No field takes JSON. Labels, help and choices' words are the settings' own declarations
(rules_engine.schema.setting), translated; an error names the field."""

from __future__ import annotations

import types
import typing
from decimal import Decimal

from django import forms
from django.core.validators import MaxValueValidator, MinValueValidator
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules_engine.points import points_json, points_text
from rules_engine.presets import presets_for_game, settings_fields
from tournaments import forms_parts as parts
from tournaments import glossary, halls
from tournaments.forms_parts import words
from tournaments.models import Event, Stage
from tournaments.validation import SMALLINT_MAX

DETAIL_FIELDS = ("name", "venue", "starts_on", "ends_on", "halls", "event_file_public")
EVENT_FIELDS = ("preset", "num_rounds", "round_minutes")


def _optional(hint) -> tuple[object, bool]:
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(args) == 1:
            return args[0], True
    return hint, False


def form_field(setting) -> forms.Field:
    """The field of one setting, made from its one declaration: type, bounds, choices and
    words (label, help, each choice's words)."""
    hint, optional = _optional(setting.hint)
    meta = setting.meta
    own = {"label": words(meta.get("label")) or setting.name, "help_text": words(meta.get("help"))}
    if hint is bool:
        return forms.BooleanField(required=False, **own)
    if hint is Decimal:  # match points, exact: 1, 0.5, -1 (rules_engine.points)
        return forms.DecimalField(
            required=not optional,
            max_digits=8,
            decimal_places=2,
            min_value=meta.get("min"),
            max_value=meta.get("max"),
            **own,
        )
    if hint in (int, float):
        low = meta.get("min", 0)
        kind = forms.IntegerField if hint is int else forms.FloatField
        return kind(
            required=not optional, min_value=low, max_value=meta.get("max", SMALLINT_MAX), **own
        )
    if hint is str and meta.get("choices"):
        named = meta.get("choice_words", {})
        choices = [(c, words(named.get(c)) or c) for c in meta["choices"]]
        if optional:
            choices = [("", "—"), *choices]
        return forms.ChoiceField(required=not optional, choices=choices, **own)
    if hint is str:
        return forms.CharField(required=not optional, max_length=200, **own)
    return parts.structured_field(hint, meta, optional, own)


def value_words(setting, value) -> str:
    """A setting's value as the organiser reads it (the preview, issue 36): yes/no, a
    choice's words, "1 / −1", an order as "Match points → Wins", an order per kind of stage
    by the kind's words; "—" when empty."""
    meta = setting.meta
    if value is None or value == "" or value == ():
        return "—"
    if isinstance(value, bool):
        return gettext("yes") if value else gettext("no")
    if meta.get("choice_words") and isinstance(value, str):
        return words(meta["choice_words"].get(value)) or value
    if isinstance(value, Decimal):
        return points_text(value)
    if meta.get("keys") and isinstance(value, dict):
        kinds = dict(Stage.Kind.choices)
        return "; ".join(
            f"{kinds.get(kind, kind)}: {_order_words(order)}" for kind, order in value.items()
        )
    if meta.get("items") and isinstance(value, tuple | list):
        return _order_words(value)
    if isinstance(value, dict):
        return "; ".join(f"{key} {parts.prepare_row(item)}".strip() for key, item in value.items())
    if isinstance(value, tuple | list):
        if all(not isinstance(item, tuple | list) for item in value):
            return " / ".join(parts.prepare_row(item) for item in value)
        return "; ".join(parts.prepare_row(item) for item in value)
    return str(value)


def _order_words(order) -> str:
    return " → ".join(str(glossary.word(glossary.METRICS, key, key)) for key in order) or "—"


def bounded(field: forms.IntegerField, low: int, high: int) -> None:
    """Bounds checked by the form (the model's validators never run: ``_post_clean`` is
    off), so 40000 rounds is an error on the field, not a database error."""
    field.min_value, field.max_value = low, high
    field.validators += [MinValueValidator(low), MaxValueValidator(high)]
    field.widget.attrs.update(min=low, max=high)


class EventSettingsForm(forms.ModelForm):
    """The event's details, its preset, rounds and minutes, and one field per setting."""

    preset = forms.ChoiceField(label=_("scoring preset"))

    class Meta:
        model = Event
        fields = [*DETAIL_FIELDS, *EVENT_FIELDS]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "ends_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
            "halls": forms.Textarea(attrs={"rows": 2}),
        }

    def __init__(self, *args, instance: Event, **kwargs):
        super().__init__(*args, instance=instance, **kwargs)
        self.fields["preset"].choices = [
            (p.name, glossary.preset_name(p)) for p in presets_for_game(instance.game)
        ]
        for name in ("num_rounds", "round_minutes"):  # the columns' bounds, on the form
            bounded(self.fields[name], 1, SMALLINT_MAX)
        self.settings = settings_fields(instance.game, instance.preset, instance.settings)
        self.setting_names = []
        for setting in self.settings:
            field = form_field(setting)
            field.initial = setting.value
            field.group = setting.group
            self.fields[setting.name] = field
            self.setting_names.append(setting.name)

    def describe(self, made: dict) -> list[dict]:
        """The changes the service plans (tournaments.services.event_settings.planned), one
        row per changed field or setting: its words, the old and the new value in words."""
        rows = []
        event = self.instance
        for name, (old, new) in made.items():
            if name == "settings":
                continue
            if name == "preset":
                old, new = glossary.preset_name(old), glossary.preset_name(new)
            label = self.fields[name].label if name in self.fields else name
            rows.append(
                {
                    "name": name,
                    "label": label,
                    "old": "—" if old in (None, "") else str(old),
                    "new": "—" if new in (None, "") else str(new),
                }
            )
        if "settings" in made or "preset" in made:
            old_settings, new_settings = made.get("settings", (event.settings, event.settings))
            old_preset, new_preset = made.get("preset", (event.preset, event.preset))
            before = {f.name: f for f in settings_fields(event.game, old_preset, old_settings)}
            for setting in settings_fields(event.game, new_preset, new_settings):
                was = before.get(setting.name)
                old_value = was.value if was else None
                if parts.plain(old_value) == parts.plain(setting.value):
                    continue
                rows.append(
                    {
                        "name": setting.name,
                        "label": words(setting.meta.get("label")) or setting.name,
                        "old": value_words(setting, old_value),
                        "new": value_words(setting, setting.value),
                    }
                )
        return rows

    def groups(self):
        """The form's fields by section, for the template."""
        named = [self[n] for n in (*DETAIL_FIELDS, *EVENT_FIELDS)]
        preset = [self[s.name] for s in self.settings if s.group == "preset"]
        ladder = [self[s.name] for s in self.settings if s.group == "ladder"]
        return [(_("Event"), named), (_("Preset settings"), preset), (_("Penalty ladder"), ladder)]

    def clean_halls(self):
        """One hall a line: line ends as \\n, blank lines and spaces around names dropped;
        refused when a range runs backwards, has a table 0 or shares tables with another
        hall's (tournaments.halls)."""
        lines = (self.cleaned_data.get("halls") or "").splitlines()
        text = "\n".join(line.strip() for line in lines if line.strip())
        refused = halls.refusals(halls.parse(text))
        if refused:
            raise forms.ValidationError(refused)
        return text

    def clean(self):
        data = super().clean()
        starts, ends = data.get("starts_on"), data.get("ends_on")
        if starts and ends and ends < starts:
            self.add_error("ends_on", _("The event cannot end before it starts."))
        return data

    def _post_clean(self):
        """The model is saved by the service, never by the form."""

    def changes(self) -> dict:
        """What the service is asked to change: the event's fields, and the settings object
        (the event's overrides, with every setting changed on the form)."""
        data = self.cleaned_data
        changes = {name: data.get(name) for name in (*DETAIL_FIELDS, *EVENT_FIELDS)}
        for name in ("venue", "halls"):
            changes[name] = changes[name] or ""
        settings = dict(self.instance.settings or {})
        for name in self.setting_names:
            if name in self.changed_data:
                value = data.get(name)
                if isinstance(value, Decimal):  # stored as 3 or "0.5" (an edition's JSON)
                    value = points_json(value)
                settings[name] = None if value == "" else value
        changes["settings"] = settings
        return changes


def page_data(form: EventSettingsForm) -> dict:
    """The data the page posts as shown (tests and the preview start from it): each input's
    name and text; a checkbox left out when off; a field of several inputs by ``name_<n>``."""
    data = {}
    for name, field in form.fields.items():
        value = form[name].value()
        if isinstance(field, forms.MultiValueField):
            parts = value if isinstance(value, list) else field.widget.decompress(value)
            for place, part in enumerate(parts):
                data[f"{name}_{place}"] = "" if part is None else str(part)
        elif isinstance(value, bool):
            if value:
                data[name] = "on"
        else:
            data[name] = "" if value is None else field.prepare_value(value)
    return data
