"""Organiser forms. Every error message is translatable (zh-hans default, en)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from rules_engine.presets import PRESETS
from tournaments import glossary, upload_limit
from tournaments.models import Event, Game, Player, Role, Team, Unit
from tournaments.validation import INT_MAX, whole_number


def round_minutes_help() -> str:
    """The round length a blank field takes, from the presets' own (``default_round_minutes``)."""
    minutes: dict[str, list[int]] = {}
    for preset in PRESETS.values():
        found = minutes.setdefault(preset.game, [])
        if preset.default_round_minutes not in found:
            found.append(preset.default_round_minutes)
    lengths = "; ".join(
        _("%(game)s %(minutes)s minutes")
        % {"game": Game(game).label, "minutes": "/".join(map(str, sorted(values)))}
        for game, values in minutes.items()
    )
    return _("Leave blank for the preset's own round length: %(lengths)s.") % {"lengths": lengths}


def preset_names_by_game() -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for name, preset in PRESETS.items():
        names.setdefault(preset.game, []).append(name)
    return names


class EventForm(forms.ModelForm):
    """A new event: its edition of the rules is chosen as a preset (issue 36: no JSON on an
    organiser's page); each setting is changed afterwards on the event's settings page
    (tournaments.forms_settings), field by field. The model's clean() checks the preset is
    of the event's game."""

    preset = forms.ChoiceField(label=_("scoring preset"))

    class Meta:
        model = Event
        fields = [
            "name",
            "slug",
            "game",
            "preset",
            "num_rounds",
            "round_minutes",
            "venue",
            "starts_on",
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [
            (name, glossary.preset_name(name))
            for names in preset_names_by_game().values()
            for name in names
        ]
        self.fields["preset"].help_text = _(
            "The edition of the rules; change any of its settings afterwards on the event's "
            "settings page."
        )
        # blank: the preset's own round clock (Preset.default_round_minutes)
        self.fields["round_minutes"].required = False
        self.fields["round_minutes"].initial = None
        self.fields["round_minutes"].help_text = round_minutes_help()

    def clean(self):
        data = super().clean()
        if data.get("round_minutes") is None and data.get("preset") in PRESETS:
            data["round_minutes"] = PRESETS[data["preset"]].default_round_minutes
        return data


def max_length(model, name: str) -> int:
    """A form field's limit: its column's (the database's and the page's limit the same)."""
    return model._meta.get_field(name).max_length


class TeamForm(forms.Form):
    name = forms.CharField(label=_("team name"), max_length=max_length(Team, "name"))
    unit = forms.CharField(label=_("unit"), max_length=max_length(Unit, "name"), required=False)
    player1 = forms.CharField(label=_("player 1"), max_length=max_length(Player, "name"))
    player2 = forms.CharField(label=_("player 2"), max_length=max_length(Player, "name"))
    ident1 = forms.CharField(
        label=_("player 1: ID number or phone"),
        max_length=max_length(Player, "ident"),
        required=False,
        help_text=_("Optional: tells apart two players of the same name."),
    )
    ident2 = forms.CharField(
        label=_("player 2: ID number or phone"),
        max_length=max_length(Player, "ident"),
        required=False,
    )
    seed = forms.IntegerField(label=_("seed"), min_value=1, max_value=INT_MAX, required=False)
    status = forms.ChoiceField(
        label=_("status"), choices=Team.Status.choices, initial=Team.Status.ACTIVE
    )

    # A name or seed another team has is refused by the service (registration.save_team),
    # its words shown on the field.
    def __init__(self, *args, event: Event, team: Team | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.event, self.team = event, team


class ImportForm(forms.Form):
    file = forms.FileField(label=_("team list (.xlsx)"))
    mode = forms.ChoiceField(
        label=_("mode"),
        choices=[
            ("add", _("add: every row is a new team")),
            ("update", _("update: add new teams, update changed ones, list unchanged ones")),
        ],
        initial="add",
        required=False,
    )

    def clean_mode(self):
        return self.cleaned_data.get("mode") or "add"

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if message := upload_limit.refusal(upload):
            raise forms.ValidationError(message)
        return upload


class TeamSearchField(forms.CharField):
    """A team typed by name, a player's name, pinyin (``szyd`` for 苏州一队) or number: the
    roles page's search instead of a list of every team (services/accounts.search_teams)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 200)
        kwargs.setdefault("required", False)
        super().__init__(**kwargs)
        self.widget.attrs.update(
            {"list": "team-choices", "autocomplete": "off", "data-team-search": ""}
        )


def resolve_team(event: Event, text: str) -> Team | None:
    """The one team ``text`` names, or a ValidationError saying which teams it could be."""
    from tournaments.services.accounts import search_teams

    if not text:
        return None
    found = search_teams(event, text, limit=6)
    exact = [team for team in found if team.name == text]
    if exact or len(found) == 1:
        return (exact or found)[0]
    if not found:
        raise forms.ValidationError(
            _("No team matches “%(text)s”: type its name, its pinyin initials or its number."),
            params={"text": text[:50]},
        )
    raise forms.ValidationError(
        _("Several teams match: %(names)s. Type more of the name, or pick one from the list."),
        params={"names": " · ".join(team.name for team in found[:5])},
    )


class RoleForm(forms.Form):
    """A role for someone who already holds one in this event (people new to the event are
    invited by name: InviteForm). No username is typed, so the form never says which
    usernames exist (issue 31)."""

    person = forms.ChoiceField(label=_("person"))
    role = forms.ChoiceField(label=_("role"), choices=list(glossary.ROLES.items()))
    team = TeamSearchField(
        label=_("team (captains)"),
        help_text=_("Type the team's name, its pinyin initials or its number."),
    )

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.event = event
        people = {}
        for held in event.roles.select_related("user").order_by(
            "user__first_name", "user__username"
        ):
            user = held.user
            label = user.get_full_name() or user.username
            people[str(user.pk)] = f"{label} ({user.username})" if user.get_full_name() else label
        self.fields["person"].choices = [("", "—"), *people.items()]

    def clean_person(self):
        value = self.cleaned_data["person"]
        number = whole_number(value)
        user = (
            get_user_model()
            .objects.filter(pk=number, paisai_roles__event=self.event)
            .distinct()
            .first()
            if number is not None
            else None
        )
        if user is None:
            raise forms.ValidationError(_("Choose a person of the list."))
        return user

    def clean_team(self):
        return resolve_team(self.event, self.cleaned_data.get("team", "").strip())

    def clean(self):
        data = super().clean()
        if data.get("role") == Role.CAPTAIN and not data.get("team") and "team" not in self.errors:
            self.add_error("team", _("A captain speaks for a team: choose it."))
        if data.get("role") and data.get("role") != Role.CAPTAIN:
            data["team"] = None
        return data


class InviteForm(forms.Form):
    """An official new to this event, by name: an account and a one-time login link."""

    name = forms.CharField(
        label=_("name"),
        max_length=60,
        help_text=_("As it should appear on the pages, e.g. Chief referee Wang."),
    )
    role = forms.ChoiceField(
        label=_("role"),
        choices=[(code, label) for code, label in glossary.ROLES.items() if code != Role.CAPTAIN],
    )


__all__ = ["Game", "ImportForm", "InviteForm", "RoleForm", "TeamForm", "EventForm"]
