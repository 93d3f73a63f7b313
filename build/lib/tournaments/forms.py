"""Organiser forms. Every error message is translatable (zh-hans default, en)."""

from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.utils.translation import gettext_lazy as _

from rules_engine.presets import PRESETS
from tournaments import glossary
from tournaments.models import Game, Role, Team, Tournament
from tournaments.validation import INT_MAX


def preset_names_by_game() -> dict[str, list[str]]:
    names: dict[str, list[str]] = {}
    for name, preset in PRESETS.items():
        names.setdefault(preset.game, []).append(name)
    return names


class TournamentForm(forms.ModelForm):
    """A new event. The model's clean() checks the preset and the settings with the rules
    engine's event-settings schema (a preset of another game, a bad or unknown setting)."""

    preset = forms.ChoiceField(label=_("scoring preset"))

    class Meta:
        model = Tournament
        fields = [
            "name",
            "slug",
            "game",
            "preset",
            "num_rounds",
            "round_minutes",
            "venue",
            "starts_on",
            "settings",
        ]
        widgets = {
            "starts_on": forms.DateInput(attrs={"type": "date"}),
            "settings": forms.Textarea(attrs={"rows": 3, "placeholder": '{"appeal_minutes": 30}'}),
        }

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["preset"].choices = [
            (name, glossary.word(glossary.PRESETS, name))
            for names in preset_names_by_game().values()
            for name in names
        ]
        self.fields["settings"].help_text = _(
            "Optional changes to the preset and the penalty ladder, as a JSON object."
        )

    def clean_settings(self):
        return self.cleaned_data.get("settings") or {}


class TeamForm(forms.Form):
    name = forms.CharField(label=_("team name"), max_length=200)
    unit = forms.CharField(label=_("unit"), max_length=200, required=False)
    player1 = forms.CharField(label=_("player 1"), max_length=100)
    player2 = forms.CharField(label=_("player 2"), max_length=100)
    ident1 = forms.CharField(
        label=_("player 1: ID number or phone"), max_length=40, required=False,
        help_text=_("Optional: tells apart two players of the same name."),
    )  # fmt: skip
    ident2 = forms.CharField(label=_("player 2: ID number or phone"), max_length=40, required=False)
    seed = forms.IntegerField(label=_("seed"), min_value=1, max_value=INT_MAX, required=False)
    status = forms.ChoiceField(
        label=_("status"), choices=Team.Status.choices, initial=Team.Status.ACTIVE
    )

    def __init__(self, *args, tournament: Tournament, team: Team | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament, self.team = tournament, team

    def _others(self):
        qs = Team.objects.filter(tournament=self.tournament)
        return qs.exclude(pk=self.team.pk) if self.team else qs

    def clean_name(self):
        name = self.cleaned_data["name"].strip()
        if self._others().filter(name=name).exists():
            raise forms.ValidationError(_("A team with this name is already registered."))
        return name

    def clean_seed(self):
        seed = self.cleaned_data.get("seed")
        if seed is not None and self._others().filter(seed=seed).exists():
            raise forms.ValidationError(_("Another team has this seed."))
        return seed


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

    MAX_BYTES = 5 * 1024 * 1024

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(_("The file is larger than 5 MB."))
        return upload


class RoleForm(forms.Form):
    username = forms.CharField(label=_("username"), max_length=150)
    role = forms.ChoiceField(label=_("role"), choices=list(glossary.ROLES.items()))
    team = forms.ModelChoiceField(
        label=_("team (captains)"), queryset=Team.objects.none(), required=False
    )

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        self.fields["team"].queryset = Team.objects.filter(tournament=tournament)

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        try:
            return get_user_model().objects.get(username=username)
        except get_user_model().DoesNotExist as exc:
            raise forms.ValidationError(_("No user with this username.")) from exc

    def clean(self):
        data = super().clean()
        if data.get("role") == Role.CAPTAIN and not data.get("team"):
            self.add_error("team", _("A captain speaks for a team: choose it."))
        if data.get("role") and data.get("role") != Role.CAPTAIN:
            data["team"] = None
        return data


__all__ = ["Game", "ImportForm", "RoleForm", "TeamForm", "TournamentForm"]
