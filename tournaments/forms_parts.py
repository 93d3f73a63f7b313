"""The settings form's fields for a setting that is not one value (tournaments.forms_settings),
each made from the setting's one declaration (rules_engine.schema.setting):

- a pair or triple of values (``tuple[Decimal, Decimal]``: forfeit points) — one input each;
- an order of items (``tuple[str, ...]`` with ``items``: a tie-break order) — select boxes in
  order, each offering the items in words (tournaments.glossary.METRICS);
- an order per key (``Mapping`` with ``keys`` and ``items``: a tie-break order per kind of
  stage) — one row of select boxes per key;
- a table (rows of values, or a key and its values) — a text box, one row a line, values
  separated by spaces.

No field takes JSON; each cleans to the value the engine's schema checks."""

from __future__ import annotations

import typing
from collections.abc import Mapping
from decimal import Decimal

from django import forms
from django.utils.html import format_html, format_html_join
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from rules_engine.points import points_json
from tournaments import glossary
from tournaments.models import Stage

MAX_SLOTS = 6  # select boxes of an order beyond its current length (then one more each time)


def plain(value):
    """A value as the settings object stores it: lists, decimals as 3 or "0.5"."""
    if isinstance(value, Decimal):
        return points_json(value)
    if isinstance(value, tuple | list):
        return [plain(item) for item in value]
    if isinstance(value, Mapping):
        return {key: plain(item) for key, item in value.items()}
    return value


def scalar_field(kind) -> forms.Field:
    if kind is Decimal:
        return forms.DecimalField(max_digits=8, decimal_places=2, required=False)
    if kind is int:
        return forms.IntegerField(required=False)
    return forms.CharField(required=False, max_length=200)


def structured_field(hint, meta: Mapping, optional: bool, own: dict) -> forms.Field:
    """The field of a setting that is not one value, by its type ``hint`` and declaration."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is tuple and args and Ellipsis not in args:
        return PartsField(args, optional, own)
    if origin is tuple and args == (str, Ellipsis) and meta.get("items"):
        return OrderField(meta["items"], optional, own)
    if meta.get("key_words") and origin is not None and issubclass(origin, Mapping):
        return RowsByKeyField(meta["keys"], meta["key_words"], typing.get_args(args[1]), own)
    if meta.get("keys") and meta.get("items"):
        return OrdersByKeyField(meta["keys"], meta["items"], optional, own)
    return TableField(hint, optional, own, meta.get("token_words"))


class PartsWidget(forms.MultiWidget):
    """Inputs side by side, each named by the setting's words and its place."""

    def __init__(self, widgets, label):
        super().__init__(widgets)
        for place, widget in enumerate(self.widgets, 1):
            widget.attrs.setdefault("aria-label", f"{label} {place}")

    def decompress(self, value):
        return list(value) if value else [None] * len(self.widgets)


class PartsField(forms.MultiValueField):
    """A pair (or triple) of values, all given or (an optional setting) none."""

    def __init__(self, kinds, optional, own):
        fields = [scalar_field(kind) for kind in kinds]
        super().__init__(
            fields,
            require_all_fields=False,
            required=False,
            widget=PartsWidget([f.widget for f in fields], own["label"]),
            **own,
        )
        self.optional = optional

    def compress(self, values):
        values = list(values or [])
        if all(v in (None, "") for v in values):
            if self.optional:
                return None
            raise forms.ValidationError(_("Give every value of this setting."))
        if any(v in (None, "") for v in values):
            raise forms.ValidationError(_("Give every value of this setting."))
        return tuple(values)

    def has_changed(self, initial, data):
        try:
            return plain(self.clean(data)) != plain(initial)
        except forms.ValidationError:
            return True


def _order_choices(items):
    return [("", "—"), *((item, glossary.word(glossary.METRICS, item, item)) for item in items)]


def _slots(items) -> int:
    return min(len(items), MAX_SLOTS)


class OrderWidget(forms.MultiWidget):
    """Select boxes in order (best first), in rows with a heading (one row per key)."""

    def __init__(self, rows, items, label):
        self.rows = rows  # [(heading or None, number of boxes)]
        widgets = []
        for heading, count in rows:
            for place in range(1, count + 1):
                named = gettext("%(label)s: tie-break %(place)s") % {
                    "label": heading or label,
                    "place": place,
                }
                widgets.append(
                    forms.Select(choices=_order_choices(items), attrs={"aria-label": named})
                )
        super().__init__(widgets)

    def decompress(self, value):
        return [""] * len(self.widgets)

    def render(self, name, value, attrs=None, renderer=None):
        if not isinstance(value, list):
            value = self.decompress(value)
        attrs = self.build_attrs(self.attrs, attrs)
        own_id = attrs.get("id")
        boxes, place = [], 0
        for heading, count in self.rows:
            row = []
            for _n in range(count):
                box_attrs = dict(attrs)
                if own_id:
                    box_attrs["id"] = f"{own_id}_{place}"
                chosen = value[place] if place < len(value) else ""
                row.append(
                    self.widgets[place].render(f"{name}_{place}", chosen, box_attrs, renderer)
                )
                place += 1
            inner = format_html_join(" ", "{}", ((box,) for box in row))
            if heading:
                boxes.append(
                    format_html(
                        '<div class="order-row"><span class="order-kind">{}</span> {}</div>',
                        heading,
                        inner,
                    )
                )
            else:
                boxes.append(format_html('<div class="order-row">{}</div>', inner))
        return format_html_join("", "{}", ((box,) for box in boxes))


class OrderField(forms.MultiValueField):
    """A tie-break order: the chosen items in the order of the boxes, each at most once."""

    def __init__(self, items, optional, own):
        self.items, self.optional = tuple(items), optional
        count = _slots(items)
        fields = [
            forms.ChoiceField(choices=_order_choices(items), required=False) for _ in range(count)
        ]
        super().__init__(
            fields,
            require_all_fields=False,
            required=False,
            widget=OrderWidget([(None, count)], items, own["label"]),
            **own,
        )
        self.widget.decompress = self.boxes

    def boxes(self, value):
        order = list(value or ())
        return order + [""] * (len(self.fields) - len(order))

    def compress(self, values):
        order = _order(values)
        if not order and not self.optional:
            raise forms.ValidationError(_("Choose at least one tie-break."))
        return tuple(order) if order else None

    def has_changed(self, initial, data):
        try:
            return plain(self.clean(data)) != plain(initial)
        except forms.ValidationError:
            return True


def _order(values) -> list[str]:
    order = [v for v in values or () if v]
    for item in order:
        if order.count(item) > 1:
            raise forms.ValidationError(
                _("%(metric)s is chosen twice."),
                code="twice",
                params={"metric": glossary.word(glossary.METRICS, item, item)},
            )
    return order


class OrdersByKeyField(forms.MultiValueField):
    """A tie-break order per kind of stage: a row of boxes per kind; a kind left empty ranks
    by the event's standings order."""

    def __init__(self, keys, items, optional, own):
        self.keys, self.count = tuple(keys), _slots(items)
        kinds = dict(Stage.Kind.choices)
        rows = [(kinds.get(key, key), self.count) for key in self.keys]
        fields = [
            forms.ChoiceField(choices=_order_choices(items), required=False)
            for _ in range(len(self.keys) * self.count)
        ]
        super().__init__(
            fields,
            require_all_fields=False,
            required=False,
            widget=OrderWidget(rows, items, own["label"]),
            **own,
        )
        self.widget.decompress = self.boxes

    def boxes(self, value):
        value = value or {}
        boxes = []
        for key in self.keys:
            order = list(value.get(key) or ())
            boxes += order + [""] * (self.count - len(order))
        return boxes

    def compress(self, values):
        values = list(values or [])
        orders = {}
        for place, key in enumerate(self.keys):
            order = _order(values[place * self.count : (place + 1) * self.count])
            if order:
                orders[key] = tuple(order)
        return orders or None

    def has_changed(self, initial, data):
        try:
            return plain(self.clean(data)) != plain(initial)
        except forms.ValidationError:
            return True


class RowsByKeyField(forms.MultiValueField):
    """An object from a key to a row of values (the penalty escalation: a step → how many
    times, then which step): a row of inputs per key, a word being one of the keys (a select
    in words); a row left empty is no entry."""

    def __init__(self, keys, key_words, kinds, own):
        self.keys, self.kinds = tuple(keys), tuple(kinds)
        named = [("", "—"), *((key, words_of(key_words, key)) for key in self.keys)]
        fields, widgets = [], []
        for key in self.keys:
            for place, kind in enumerate(self.kinds, 1):
                heading = f"{words_of(key_words, key)} {place}"
                if kind is str:
                    field = forms.ChoiceField(choices=named, required=False)
                else:
                    field = forms.IntegerField(required=False, min_value=1)
                field.widget.attrs["aria-label"] = heading
                fields.append(field)
                widgets.append(field.widget)
        super().__init__(fields, require_all_fields=False, required=False, **own)
        self.widget = OrderWidget(
            [(words_of(key_words, k), len(self.kinds)) for k in self.keys], (), ""
        )
        self.widget.widgets = widgets
        self.widget.decompress = self.boxes

    def boxes(self, value):
        value = value or {}
        boxes = []
        for key in self.keys:
            row = list(value.get(key) or ())
            boxes += [("" if v is None else v) for v in row] + [""] * (len(self.kinds) - len(row))
        return boxes

    def compress(self, values):
        values = list(values or [])
        width = len(self.kinds)
        found = {}
        for place, key in enumerate(self.keys):
            row = values[place * width : (place + 1) * width]
            if all(v in (None, "") for v in row):
                continue
            if any(v in (None, "") for v in row):
                raise forms.ValidationError(_("Give every value of this setting."))
            found[key] = list(row)
        return found

    def has_changed(self, initial, data):
        try:
            return plain(self.clean(data)) != plain(initial)
        except forms.ValidationError:
            return True


def words(text: str | None) -> str:
    """A setting's words from its declaration (rules_engine.schema.setting), translated by the
    pages' catalogue (makemessages reads them where they are declared)."""
    return gettext(text) if text else ""


def words_of(table, key) -> str:
    """A key's words from its declaration (rules_engine.schema.setting ``key_words``)."""
    return words(table.get(key)) or key


class TableField(forms.CharField):
    """A table: one row a line, values separated by spaces (a key first for an object)."""

    def __init__(self, hint, optional, own, token_words=None):
        self.hint = hint
        # each value as the form shows it (a suit as ♠, never the letter S) and back
        self.shown = dict(token_words or {})
        self.read = {shown: value for value, shown in self.shown.items()}
        own = dict(own)
        way = _("One row a line, values separated by spaces.")
        own["help_text"] = f"{own['help_text']} {way}" if own.get("help_text") else way
        super().__init__(required=not optional, widget=forms.Textarea(attrs={"rows": 4}), **own)

    def _shape(self):
        """(is an object, the types of a row's values or None for one value of any type,
        rows are whole lines)"""
        hint = self.hint
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            row = args[0]
            row_args = typing.get_args(row)
            if typing.get_origin(row) is tuple:
                return False, row_args, True
            return False, (row,), False
        if origin is not None and issubclass(origin, Mapping) and len(args) == 2:
            row = args[1]
            if typing.get_origin(row) is tuple:
                return True, typing.get_args(row), True
            return True, (row,), True
        return True, None, True

    def prepare_value(self, value):
        if isinstance(value, str) or value is None:
            return value or ""
        if isinstance(value, Mapping):
            lines = []
            for key, item in value.items():
                items = item if isinstance(item, tuple | list) else [item]
                lines.append(" ".join([str(key), *(_token(v) for v in items)]).strip())
            return "\n".join(lines)
        _obj, _kinds, whole = self._shape()
        if not whole:
            return "\n".join(self.shown.get(_token(v), _token(v)) for v in value)
        return "\n".join(" ".join(_token(v) for v in row) for row in value)

    def to_python(self, value):
        text = super().to_python(value)
        if not text:
            return None
        is_object, kinds, whole = self._shape()
        lines = [
            [self.read.get(token, token) for token in line.split()]
            for line in text.splitlines()
            if line.strip()
        ]
        if not whole:
            return [_read(token, kinds[0]) for line in lines for token in line]
        if not is_object:
            return [self._row(line, kinds) for line in lines]
        found = {}
        for line in lines:
            key, rest = line[0], line[1:]
            if kinds is None:
                found[key] = _read(rest[0], None) if rest else None
            elif len(kinds) == 1:
                found[key] = _read(rest[0], kinds[0]) if rest else None
            else:
                found[key] = self._row(rest, kinds)
        return found

    def _row(self, tokens, kinds):
        if len(tokens) != len(kinds):
            raise forms.ValidationError(
                _("Each row has %(count)s values: %(row)s"),
                code="row",
                params={"count": len(kinds), "row": " ".join(tokens)},
            )
        return [_read(token, kind) for token, kind in zip(tokens, kinds, strict=True)]

    def has_changed(self, initial, data):
        try:
            return plain(self.to_python(data)) != plain(initial)
        except forms.ValidationError:
            return True


def prepare_row(value) -> str:
    """One value or one row of a table as the page writes it: "0 20", "1", "true"."""
    if isinstance(value, tuple | list):
        return " ".join(_token(item) for item in value)
    return _token(value)


def _token(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return ""
    return str(plain(value))


def _read(token: str, kind):
    """One value of a table, by its type (any type: a whole number, yes/no or a word)."""
    if kind is int or (kind is None and token.lstrip("-").isdigit()):
        try:
            return int(token)
        except ValueError:
            raise forms.ValidationError(
                _("%(value)s is not a whole number."), code="number", params={"value": token}
            ) from None
    if kind is Decimal:
        try:
            return plain(Decimal(token))
        except ArithmeticError:
            raise forms.ValidationError(
                _("%(value)s is not a number."), code="number", params={"value": token}
            ) from None
    if kind is None and token.lower() in ("true", "false"):
        return token.lower() == "true"
    return token
