"""Changing an existing event's settings through the one settings schema: validated, logged old
→ new, and refused where a change would break the running event."""

import pytest

from tests import factories
from tournaments.errors import Forbidden
from tournaments.models import AuditLog, Event, Round, Team
from tournaments.services.event_settings import SettingsError, update_settings


@pytest.fixture
def organiser(make_user):
    return make_user()


@pytest.fixture
def event(make_event, organiser, grant):
    event = make_event(teams=4)
    grant(organiser, event, "organiser")
    return event


def test_settings_change_is_stored_and_logged_old_to_new(event, organiser):
    made = update_settings(
        event, organiser, {"venue": "苏州体育馆", "settings": {"fail_a_limit": 3}}
    )
    event.refresh_from_db()
    assert event.venue == "苏州体育馆" and event.settings == {"fail_a_limit": 3}
    assert event.get_preset().fail_a_limit == 3
    assert made["venue"] == ["", "苏州体育馆"]
    entry = AuditLog.objects.get(event=event, action="event.settings")
    assert entry.actor_name == organiser.username
    assert entry.data["changes"] == {
        "venue": ["", "苏州体育馆"],
        "settings.fail_a_limit": [None, 3],
    }


def test_a_setting_equal_to_the_presets_own_is_no_override(event, organiser):
    update_settings(event, organiser, {"settings": {"warning_minutes": 10, "decks": 2}})
    event.refresh_from_db()
    assert event.settings == {}
    assert not AuditLog.objects.filter(event=event, action="event.settings").exists()


def test_a_bad_setting_is_refused_naming_it_and_nothing_is_saved(event, organiser):
    with pytest.raises(SettingsError) as err:
        update_settings(event, organiser, {"venue": "X", "settings": {"fail_a_limit": 0}})
    assert err.value.field == "settings.fail_a_limit"
    assert "fail_a_limit" in err.value.message
    event.refresh_from_db()
    assert event.venue == "" and event.settings == {}


def test_the_preset_may_change_before_round_one_is_published(event, organiser):
    update_settings(event, organiser, {"preset": "guandan-national"})
    event.refresh_from_db()
    assert event.preset == "guandan-national"


def test_preset_change_refused_once_round_one_is_published(event, organiser):
    factories.round_(event, 1, status=Round.Status.PUBLISHED)
    with pytest.raises(SettingsError, match="Round 1 is published") as err:
        update_settings(event, organiser, {"preset": "guandan-national"})
    assert err.value.field == "preset"
    assert Event.objects.get(pk=event.pk).preset == "guandan-suzhou-2016"


def test_scoring_settings_refused_once_round_one_is_published_others_allowed(event, organiser):
    factories.round_(event, 1, status=Round.Status.PUBLISHED)
    with pytest.raises(SettingsError, match="win_points") as err:
        update_settings(event, organiser, {"settings": {"win_points": 30}})
    assert err.value.field == "settings.win_points"
    with pytest.raises(SettingsError, match="round_one_method"):
        update_settings(event, organiser, {"settings": {"round_one_method": "seed"}})
    update_settings(event, organiser, {"settings": {"appeal_minutes": 45}, "round_minutes": 70})
    event.refresh_from_db()
    assert event.settings == {"appeal_minutes": 45} and event.round_minutes == 70


def test_fewer_rounds_than_already_drawn_refused(event, organiser):
    teams = list(Team.objects.filter(event=event))
    factories.round_(event, 1, [(teams[0], teams[1])])
    factories.round_(event, 2, [(teams[0], teams[2])], status=Round.Status.DRAFT)
    with pytest.raises(SettingsError, match="Round 2 is already drawn"):
        update_settings(event, organiser, {"num_rounds": 1})
    update_settings(event, organiser, {"num_rounds": 2})
    assert Event.objects.get(pk=event.pk).num_rounds == 2


def test_a_finished_event_changes_only_its_details(event, organiser):
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()
    with pytest.raises(SettingsError, match="finished"):
        update_settings(event, organiser, {"round_minutes": 90})
    update_settings(event, organiser, {"venue": "Hall 2"})
    assert Event.objects.get(pk=event.pk).venue == "Hall 2"


def test_only_the_organiser_changes_the_settings(event, make_user, grant):
    chief = make_user()
    grant(chief, event, "chief_referee")
    with pytest.raises(Forbidden):
        update_settings(event, chief, {"venue": "X"})
