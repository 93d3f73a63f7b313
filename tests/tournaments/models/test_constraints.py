"""Database constraints: the database itself refuses impossible registrations and pairings."""

import pytest
from django.db import IntegrityError, transaction

from tournaments.models import EventRole, Match, Player, Round, RoundSlot, Team


def refused(fn):
    with pytest.raises(IntegrityError), transaction.atomic():
        fn()


def test_a_team_has_at_most_two_players(make_event):
    team = Team.objects.filter(event=make_event(teams=1)).get()
    refused(lambda: Player.objects.create(team=team, name="third", seat_order=3))
    refused(lambda: Player.objects.create(team=team, name="again", seat_order=1))


def test_team_names_are_unique_per_event(make_event):
    t = make_event(teams=1)
    refused(lambda: Team.objects.create(event=t, name="Team 001"))
    Team.objects.create(event=make_event(), name="Team 001")  # another event: fine


def test_table_numbers_are_unique_per_round(make_event):
    t = make_event(teams=4)
    a, b, c, d = Team.objects.filter(event=t)
    r = Round.objects.create(event=t, number=1)
    Match.objects.create(round=r, table_number=1, home=a, away=b)
    refused(lambda: Match.objects.create(round=r, table_number=1, home=c, away=d))


def test_a_team_plays_at_most_once_per_round(make_event):
    t = make_event(teams=3)
    a, b, c = Team.objects.filter(event=t)
    r = Round.objects.create(event=t, number=1)
    m1 = Match.objects.create(round=r, table_number=1, home=a, away=b)
    RoundSlot.objects.create(round=r, match=m1, team=a, side="EW")
    m2 = Match.objects.create(round=r, table_number=2, home=c, away=a)
    refused(lambda: RoundSlot.objects.create(round=r, match=m2, team=a, side="NS"))


def test_a_team_cannot_play_itself_and_a_bye_has_no_table(make_event):
    t = make_event(teams=2)
    a, b = Team.objects.filter(event=t)
    r = Round.objects.create(event=t, number=1)
    refused(lambda: Match.objects.create(round=r, table_number=1, home=a, away=a))
    refused(lambda: Match.objects.create(round=r, table_number=3, home=a, away=None))
    Match.objects.create(round=r, table_number=None, home=a, away=None)


def test_round_numbers_are_unique_per_event(make_event):
    t = make_event()
    Round.objects.create(event=t, number=1)
    refused(lambda: Round.objects.create(event=t, number=1))


def test_a_captain_role_names_a_team_and_others_do_not(make_event, make_user):
    t = make_event(teams=1)
    user = make_user()
    refused(lambda: EventRole.objects.create(user=user, event=t, role="captain"))
    team = Team.objects.get(event=t)
    refused(lambda: EventRole.objects.create(user=user, event=t, role="organiser", team=team))


def test_the_admin_never_changes_or_deletes_evidence(rf, make_user):
    from django.contrib import admin

    from tournaments.models import AuditLog, ResultVersion

    request = rf.get("/admin/")
    request.user = make_user(is_superuser=True, is_staff=True)
    for model in (AuditLog, ResultVersion):
        model_admin = admin.site._registry[model]
        assert not model_admin.has_add_permission(request)
        assert not model_admin.has_change_permission(request)
        assert not model_admin.has_delete_permission(request)
