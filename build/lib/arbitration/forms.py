"""Forms of the arbitration pages (the services check everything again)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from arbitration.models.appeals import Choice
from arbitration.models.incidents import (
    MAX_SECONDS,
    Category,
    Timed,
    category_choices,
    offers_national,
)
from arbitration.models.rulings import Step
from rules_engine import ladder
from tournaments.glossary import SEATS
from tournaments.models import Match, Player, Team, Tournament
from tournaments.validation import SMALLINT_MAX

LOCAL_TIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def step_choices(tournament: Tournament) -> list[tuple[str, str]]:
    allowed = ladder.steps_for(tournament.game, tournament.get_preset().in_play_ladder)
    return [(value, label) for value, label in Step.choices if value in allowed]


class MatchChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, match: Match) -> str:
        return _("Round %(r)s · table %(t)s · %(home)s – %(away)s") % {
            "r": match.round.number,
            "t": match.table_number,
            "home": match.home.name,
            "away": match.away.name if match.away else "",
        }


class IncidentForm(forms.Form):
    match = MatchChoiceField(queryset=Match.objects.none(), label=_("Match"))
    team = forms.ModelChoiceField(queryset=Team.objects.none(), label=_("Team concerned"))
    player = forms.ModelChoiceField(
        queryset=Player.objects.none(), required=False, label=_("Player")
    )
    category = forms.ChoiceField(choices=Category.choices, label=_("Category"))
    description = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 3}), label=_("What happened")
    )
    reported_by = forms.CharField(required=False, max_length=200, label=_("Reported by"))
    arrived_at = forms.DateTimeField(
        required=False, widget=LOCAL_TIME, label=_("Arrival time (late arrival)")
    )
    leave_approved = forms.BooleanField(required=False, label=_("Leave approved in advance"))
    seconds = forms.IntegerField(
        required=False, min_value=0, max_value=MAX_SECONDS, label=_("Seconds taken (slow play)")
    )
    timed = forms.ChoiceField(
        choices=Timed.choices, initial=Timed.PLAY, required=False, label=_("What was timed")
    )
    deal = forms.IntegerField(
        required=False, min_value=1, max_value=SMALLINT_MAX, label=_("Deal (wrong tribute)")
    )
    seat = forms.ChoiceField(
        choices=[("", "–"), *SEATS.items()], required=False,
        label=_("Offender's seat (wrong tribute)"),
    )  # fmt: skip

    def clean_timed(self):
        return self.cleaned_data.get("timed") or Timed.PLAY

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        # every category is accepted (the service refuses a national one with its reason);
        # the list offers the event's own, and the wrong tribute's deal and seat only where
        # the national ladder has it
        preset = tournament.get_preset()
        self.fields["category"].widget.choices = category_choices(preset)
        if not offers_national(preset):
            del self.fields["deal"], self.fields["seat"]
        self.fields["match"].queryset = (
            Match.objects.filter(round__tournament=tournament, away__isnull=False)
            .select_related("round", "home", "away")
            .order_by("-round__number", "table_number")
        )
        self.fields["team"].queryset = Team.objects.filter(tournament=tournament)
        self.fields["player"].queryset = Player.objects.filter(team__tournament=tournament)


class RulingForm(forms.Form):
    step = forms.ChoiceField(label=_("Penalty"))
    team = forms.ModelChoiceField(queryset=Team.objects.none(), label=_("Team"))
    levels = forms.IntegerField(min_value=1, max_value=12, initial=1, label=_("Levels"))
    opponent_up = forms.BooleanField(required=False, label=_("The opponents go up instead (升级)"))
    deal = forms.IntegerField(
        min_value=1,
        max_value=SMALLINT_MAX,
        required=False,
        label=_("Deal (idiom-chain; wrong tribute)"),
    )
    places = forms.IntegerField(
        min_value=0, max_value=SMALLINT_MAX, initial=1, required=False, label=_("Places down")
    )
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("Reason"))

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["step"].choices = step_choices(tournament)
        self.fields["team"].queryset = Team.objects.filter(tournament=tournament)


class ReasonForm(forms.Form):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), label=_("Reason"))


class AppealForm(forms.Form):
    grounds = forms.CharField(
        widget=forms.Textarea(attrs={"rows": 4}), label=_("Grounds of the appeal (in writing)")
    )


class VoteForm(forms.Form):
    choice = forms.ChoiceField(choices=Choice.choices, widget=forms.RadioSelect, label=_("Vote"))
    amended_step = forms.ChoiceField(required=False, label=_("Amended penalty (for amend)"))
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 3}), label=_("Reasons"))

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["amended_step"].choices = [("", "—"), *step_choices(tournament)]


class DeskForm(forms.Form):
    GAMES = [("guandan", "掼蛋 Guandan"), ("tractor", "拖拉机 Tractor"), ("chengyu", "成语接龙")]
    ACTIONS = [("check", _("Rule on a play")), ("classify", _("List readings")),
               ("score", _("Score a match record"))]  # fmt: skip
    CARDS = _('Cards as text, e.g. "S7 H7 BJ" (♠♥♣♦ and 黑桃7 are accepted)')

    game = forms.ChoiceField(choices=GAMES, label=_("Game"))
    action = forms.ChoiceField(choices=ACTIONS, initial="check", label=_("Question"))
    level = forms.CharField(required=False, max_length=3, label=_("Level being played"))
    trump = forms.CharField(required=False, max_length=3, label=_("Trump suit (or NT)"))
    hand = forms.CharField(required=False, label=_("Hand before the play"), help_text=CARDS)
    previous = forms.CharField(required=False, label=_("Previous play (guandan)"))
    lead = forms.CharField(required=False, label=_("Lead (tractor)"))
    trick = forms.CharField(required=False, label=_("Trick so far (idiom-chain)"))
    play = forms.CharField(required=False, label=_("Disputed play"))
    throw = forms.CharField(required=False, label=_("Throw (tractor)"))
    others = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 3}),
        label=_("The other hands, one a line (tractor throw)"),
    )  # fmt: skip
    cards = forms.CharField(required=False, label=_("Cards to classify (guandan)"))
    list_plays = forms.BooleanField(required=False, label=_("List every legal play of the hand"))
    dealer = forms.ChoiceField(
        required=False, label=_("Dealer side (tractor play log)"),
        choices=[("", "–"), ("EW", _("East–West")), ("NS", _("North–South"))],
    )  # fmt: skip
    bottom = forms.CharField(required=False, label=_("Bottom cards (tractor play log)"))
    hands = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 4}),
        label=_('Hands for a play log, one seat a line ("E: S7 H7 …")'),
    )  # fmt: skip
    play_log = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 4}),
        label=_('Play log: one play a line ("E: S3 S3"; a seat alone passes), or JSON'),
    )  # fmt: skip
    json = forms.CharField(
        required=False, widget=forms.Textarea(attrs={"rows": 5}),
        label=_("Or paste a whole request (JSON, as for python -m rules_engine)"),
    )  # fmt: skip
