"""One event-settings schema (the rules engine's, presets.event_preset) behind the event form,
the API and the archive import: preset and penalty-ladder settings, by type and range."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Permission

from tournaments.errors import ExportError
from tournaments.exporters.archive import export_archive
from tournaments.models import Event
from tournaments.services.archive import import_archive

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(make_user):
    user = make_user("boss")
    user.user_permissions.add(Permission.objects.get(codename="add_event"))
    return user


def event_form(settings: str, **extra) -> dict:
    return {
        "name": "城市赛",
        "slug": "city",
        "game": "guandan",
        "preset": "guandan-national-2017",
        "num_rounds": 5,
        "round_minutes": 90,
        "settings": settings,
        **extra,
    }


# --- the form -------------------------------------------------------------------------------


def test_the_new_event_form_chooses_the_edition_only_and_takes_no_json(client, organiser):
    """Issue 36: no organiser form takes JSON: the new-event form has no settings box (it
    showed ``null``); settings posted anyway are not read; each setting is changed on the
    settings page."""
    client.force_login(organiser)
    page = client.get("/new/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'name="settings"' not in page and "null" not in page
    assert '<select name="preset"' in page
    response = client.post("/new/", event_form('{"appeal_minutes": 45}'))
    assert response.status_code == 302
    event = Event.objects.get(slug="city")
    assert event.settings == {} and event.preset == "guandan-national-2017"


def test_form_settings_may_stay_empty(client, organiser):
    client.force_login(organiser)
    assert client.post("/new/", event_form("")).status_code == 302
    assert Event.objects.get(slug="city").settings == {}


# --- the API --------------------------------------------------------------------------------


def api_event(**extra) -> dict:
    return {"name": "x", "slug": "x", "game": "guandan", "preset": "guandan-suzhou-2016", **extra}


def test_api_refuses_a_negative_appeal_time_with_the_field_named(api_as, organiser):
    response = api_as(organiser).post(
        "/api/tournaments/", api_event(settings={"appeal_minutes": -5}), format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["field"] == "settings.appeal_minutes"
    assert "appeal_minutes must be a whole number of 0 or more" in body["error"]
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    "settings, field",
    [
        ({"colour": "red"}, "settings.colour"),
        ({"escalation": {"warning": 3}}, "settings.escalation"),
        ({"time_up": "never"}, "settings.time_up"),
        ([1, 2], "settings"),
    ],
)
def test_api_refuses_unknown_keys_and_bad_values(api_as, organiser, settings, field):
    response = api_as(organiser).post(
        "/api/tournaments/", api_event(settings=settings), format="json"
    )
    assert response.status_code == 400
    assert response.json()["field"] == field


def test_api_accepts_a_valid_override(api_as, organiser):
    response = api_as(organiser).post(
        "/api/tournaments/",
        api_event(settings={"late_limit_minutes": 5, "avoid_same_unit": False}),
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert Event.objects.get(slug="x").settings["late_limit_minutes"] == 5


def test_api_update_checks_the_settings_against_the_events_preset(
    api_as, make_event, make_user, grant
):
    event = make_event(game="chengyu")
    api = api_as(grant(make_user(), event, "organiser"))
    url = f"/api/tournaments/{event.slug}/"
    response = api.patch(url, {"settings": {"answer_minutes": -1}}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "settings.answer_minutes"
    response = api.patch(url, {"settings": {"answer_minutes": 90}}, format="json")
    assert response.status_code == 200
    event.refresh_from_db()
    assert event.settings == {"answer_minutes": 90}


def test_api_refuses_a_preset_of_another_game(api_as, organiser):
    response = api_as(organiser).post("/api/tournaments/", api_event(game="tractor"), format="json")
    assert response.status_code == 400 and response.json()["field"] == "preset"


# --- the archive import -----------------------------------------------------------------------


def test_archive_import_refuses_bad_settings_and_loads_nothing(make_event):
    data = export_archive(make_event(units=0))
    Event.objects.all().delete()
    for obj in data["objects"]:
        if obj["model"] == "tournaments.event":
            obj["fields"]["settings"] = {"appeal_minutes": -5}
    with pytest.raises(ExportError) as err:
        import_archive(data)
    assert err.value.field == "settings.appeal_minutes"
    assert not Event.objects.exists()


def test_archive_import_keeps_valid_settings(make_event):
    data = export_archive(make_event(units=0, settings={"appeal_minutes": 40}))
    Event.objects.all().delete()
    assert import_archive(data).settings == {"appeal_minutes": 40}


# --- the model (the admin's form) ------------------------------------------------------------


def test_model_clean_names_the_settings_field():
    from django.core.exceptions import ValidationError

    event = Event(game="guandan", preset="guandan-suzhou-2016", settings={"appeal_minutes": -5})
    with pytest.raises(ValidationError) as err:
        event.clean()
    assert "settings" in err.value.message_dict


def test_bad_settings_are_never_stored_whoever_writes_them(make_event):
    from rules_engine.errors import RulesError

    event = make_event()
    event.settings = {"appeal_minutes": -5}
    with pytest.raises(RulesError) as err:
        event.save()
    assert err.value.field == "settings.appeal_minutes"
    event.refresh_from_db()
    assert event.settings == {}
