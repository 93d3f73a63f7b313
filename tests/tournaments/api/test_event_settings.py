"""The tournaments API changes an event's settings through the settings service: refused where
it would break the running event ({error, field}), logged old → new."""

from tests import factories
from tournaments.models import AuditLog, Event, Round


def test_api_preset_change_after_round_one_refused_naming_the_field(
    api_as, make_event, make_user, grant
):
    event = make_event(teams=4)
    api = api_as(grant(make_user(), event, "organiser"))
    factories.round_(event, 1, status=Round.Status.PUBLISHED)
    url = f"/api/tournaments/{event.slug}/"
    response = api.patch(url, {"preset": "guandan-national"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "preset" and "Round 1" in response.json()["error"]
    response = api.patch(url, {"settings": {"win_points": 30}}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "settings.win_points"
    assert Event.objects.get(pk=event.pk).settings == {}


def test_api_settings_change_is_logged_old_to_new(api_as, make_event, make_user, grant):
    event = make_event(teams=2)
    api = api_as(grant(make_user(), event, "organiser"))
    url = f"/api/tournaments/{event.slug}/"
    response = api.patch(url, {"halls": "A厅", "settings": {"appeal_minutes": 40}}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["halls"] == "A厅"
    changes = AuditLog.objects.get(event=event, action="event.settings").data["changes"]
    assert changes == {"halls": ["", "A厅"], "settings.appeal_minutes": [None, 40]}


def test_api_halls_sharing_tables_refused_naming_the_field(api_as, make_event, make_user, grant):
    event = make_event(teams=2)
    api = api_as(grant(make_user(), event, "organiser"))
    url = f"/api/tournaments/{event.slug}/"
    response = api.patch(url, {"halls": "A厅 1-60\nB厅 60-120"}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "error": "A厅 and B厅 both hold table 60.",
        "field": "halls",
        "code": "invalid",
    }
    assert Event.objects.get(pk=event.pk).halls == ""
