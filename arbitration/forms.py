"""Forms of the arbitration pages (the services check everything again)."""

from __future__ import annotations

from django import forms
from django.db.models import Case, When
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
from rules_engine import ladder, seating
from tournaments import glossary
from tournaments.glossary import SEATS
from tournaments.models import Event, Game, Match, Player, Team
from tournaments.services.results import current_round
from tournaments.validation import SMALLINT_MAX

LOCAL_TIME = forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M")


def step_choices(event: Event) -> list[tuple[str, str]]:
    allowed = ladder.steps_for(event.game, event.get_preset().in_play_ladder)
    return [(value, label) for value, label in Step.choices if value in allowed]


class MatchChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, match: Match) -> str:
        return _("Round %(r)s · table %(t)s · %(home)s – %(away)s") % {
            "r": match.round.number,
            "t": match.table_number,
            "home": match.home.name,
            "away": match.away.name if match.away else "",
        }


def match_players(match: Match) -> list[tuple[Player, Team, str]]:
    """The four players of a match, each with their team and seat, in table order (东南西北)."""
    rows = []
    for side, team in seating.by_side(match.home, match.away).items():
        if team is None:
            continue
        for player in team.players.all():
            rows.append((player, team, seating.seat_of(side, player.seat_order)))
    return sorted(rows, key=lambda row: seating.SEAT_ORDER.index(row[2]))


def player_label(player: Player, team: Team, seat: str) -> str:
    return _("%(player)s · %(team)s · %(seat)s") % {
        "player": player.name,
        "team": team.name,
        "seat": glossary.seat(seat),
    }


def team_label(team: Team, side: str) -> str:
    return f"{team.name} · {glossary.side(side)}"


class LabelledChoiceField(forms.ModelChoiceField):
    """A choice of rows whose labels the form sets (a player with team and seat)."""

    labels: dict[int, str]

    def label_from_instance(self, obj) -> str:
        return getattr(self, "labels", {}).get(obj.pk) or str(obj)


def match_choices(match: Match) -> dict:
    """What the incident page offers for a match: its two teams and four players (each with
    team and seat), and each player's team (a chosen player preselects the team)."""
    rows = match_players(match)
    return {
        "teams": [
            [team.pk, team_label(team, side)]
            for side, team in seating.by_side(match.home, match.away).items()
            if team is not None
        ],
        "players": [[p.pk, player_label(p, team, seat), team.pk] for p, team, seat in rows],
    }


class IncidentForm(forms.Form):
    """An incident at a match: once the match is known the form offers only its two teams and
    its four players, each named with team and seat (never the event's whole list, where two
    players of one name look alike); a chosen player preselects the team."""

    match = MatchChoiceField(queryset=Match.objects.none(), label=_("Match"))
    team = LabelledChoiceField(
        queryset=Team.objects.none(), required=False, label=_("Team concerned")
    )
    player = LabelledChoiceField(queryset=Player.objects.none(), required=False, label=_("Player"))
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
        choices=[("", "–"), *SEATS.items()],
        required=False,
        label=_("Offender's seat (wrong tribute)"),
    )

    def clean_timed(self):
        return self.cleaned_data.get("timed") or Timed.PLAY

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        # every category is accepted (the service refuses a national one with its reason);
        # the list offers the event's own, and the wrong tribute's deal and seat only where
        # the national ladder has it
        preset = event.get_preset()
        self.fields["category"].widget.choices = category_choices(preset)
        if not offers_national(preset):
            del self.fields["deal"], self.fields["seat"]
        matches = Match.objects.filter(round__event=event, away__isnull=False)
        self.fields["match"].queryset = matches.select_related("round", "home", "away").order_by(
            "-round__number", "table_number"
        )
        self.chosen_match = self._chosen(matches)
        # the page rebuilds the lists when another match of the current round is chosen
        current = current_round(event)
        shown = (
            list(
                matches.filter(round=current)
                .select_related("home", "away")
                .prefetch_related("home__players", "away__players")
            )
            if current is not None
            else []
        )
        if self.chosen_match is not None and self.chosen_match not in shown:
            shown.append(self.chosen_match)
        self.choices_by_match = {str(m.pk): match_choices(m) for m in shown}
        match = self.chosen_match
        if match is None:  # choose the match first: then its teams and players are offered
            self.fields["team"].queryset = Team.objects.none()
            self.fields["player"].help_text = _(
                "Choose the match first: its four players are offered then."
            )
            return
        rows = match_players(match)
        self.fields["team"].queryset = Team.objects.filter(pk__in=[match.home_id, match.away_id])
        self.fields["team"].labels = {
            team.pk: team_label(team, side)
            for side, team in seating.by_side(match.home, match.away).items()
        }
        order = Case(*[When(pk=p.pk, then=i) for i, (p, _t, _s) in enumerate(rows)])
        self.fields["player"].queryset = Player.objects.filter(
            pk__in=[p.pk for p, _t, _s in rows]
        ).order_by(order)  # table order: 东 南 西 北
        self.fields["player"].labels = {p.pk: player_label(p, t, s) for p, t, s in rows}
        if not self.is_bound and not self.initial.get("match"):
            self.initial["match"] = match.pk

    def _chosen(self, matches) -> Match | None:
        value = self.data.get("match") if self.is_bound else self.initial.get("match")
        try:
            pk = int(value)
        except (TypeError, ValueError):
            return None
        return matches.select_related("home", "away").filter(pk=pk).first()

    def clean(self):
        data = super().clean()
        player, team = data.get("player"), data.get("team")
        if player is not None and team is None:
            data["team"] = player.team  # the player's team is the team concerned
        elif player is not None and team is not None and player.team_id != team.pk:
            self.add_error("player", _("This player is not of the team chosen."))
        return data


class RulingForm(forms.Form):
    step = forms.ChoiceField(label=_("Penalty"))
    team = LabelledChoiceField(queryset=Team.objects.none(), label=_("Team"))
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

    def __init__(self, *args, event: Event, match: Match | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["step"].choices = step_choices(event)
        self.fields["team"].queryset = Team.objects.filter(event=event)
        if match is not None and match.away_id is not None:
            # the incident's match: its two teams, each named with its side and its players
            # in their seats (李军 东 · 张超 西), never the event's whole list
            self.fields["team"].queryset = Team.objects.filter(
                pk__in=[match.home_id, match.away_id]
            )
            seats: dict[int, list[str]] = {}
            for player, team, seat in match_players(match):
                seats.setdefault(team.pk, []).append(f"{player.name} {glossary.seat(seat)}")
            self.fields["team"].labels = {
                team.pk: f"{team_label(team, side)} · {' / '.join(seats.get(team.pk, []))}"
                for side, team in seating.by_side(match.home, match.away).items()
            }


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

    def __init__(self, *args, event: Event, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["amended_step"].choices = [("", "—"), *step_choices(event)]


class DeskForm(forms.Form):
    GAMES = Game.choices  # the games in the reader's language, one vocabulary
    ACTIONS = [
        ("check", _("Rule on a play")),
        ("classify", _("List readings")),
        ("score", _("Score a match record")),
    ]
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
        required=False,
        widget=forms.Textarea(attrs={"rows": 3}),
        label=_("The other hands, one a line (tractor throw)"),
    )
    cards = forms.CharField(required=False, label=_("Cards to classify (guandan)"))
    list_plays = forms.BooleanField(required=False, label=_("List every legal play of the hand"))
    dealer = forms.ChoiceField(
        required=False,
        label=_("Dealer side (tractor play log)"),
        choices=[("", "–"), ("EW", _("East–West")), ("NS", _("North–South"))],
    )
    bottom = forms.CharField(required=False, label=_("Bottom cards (tractor play log)"))
    hands = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label=_('Hands for a play log, one seat a line ("E: S7 H7 …")'),
    )
    play_log = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 4}),
        label=_('Play log: one play a line ("E: S3 S3"; a seat alone passes), or JSON'),
    )
    json = forms.CharField(
        required=False,
        widget=forms.Textarea(attrs={"rows": 5}),
        label=_("Or paste a whole request (JSON, as for python -m rules_engine)"),
    )
