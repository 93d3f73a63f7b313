"""The tournaments API changes an event's settings through the settings service: refused where
it would break the running event ({error, field}), logged old → new."""

from tests import factories
from tournaments.models import AuditLog, Round, Tournament


def test_api_preset_change_after_round_one_refused_naming_the_field(
    api_as, make_tournament, make_user, grant
):
    tournament = make_tournament(teams=4)
    api = api_as(grant(make_user(), tournament, "organiser"))
    factories.round_(tournament, 1, status=Round.Status.PUBLISHED)
    url = f"/api/tournaments/{tournament.slug}/"
    response = api.patch(url, {"preset": "guandan-national"}, format="json")
    assert response.status_code == 400
    assert response.json()["field"] == "preset" and "Round 1" in response.json()["error"]
    response = api.patch(url, {"settings": {"win_points": 30}}, format="json")
    assert response.status_code == 400 and response.json()["field"] == "settings.win_points"
    assert Tournament.objects.get(pk=tournament.pk).settings == {}


def test_api_settings_change_is_logged_old_to_new(api_as, make_tournament, make_user, grant):
    tournament = make_tournament(teams=2)
    api = api_as(grant(make_user(), tournament, "organiser"))
    url = f"/api/tournaments/{tournament.slug}/"
    response = api.patch(url, {"halls": "A厅", "settings": {"appeal_minutes": 40}}, format="json")
    assert response.status_code == 200, response.json()
    assert response.json()["halls"] == "A厅"
    changes = AuditLog.objects.get(tournament=tournament, action="event.settings").data["changes"]
    assert changes == {"halls": ["", "A厅"], "settings.appeal_minutes": [None, 40]}


def test_api_halls_sharing_tables_refused_naming_the_field(
    api_as, make_tournament, make_user, grant
):
    tournament = make_tournament(teams=2)
    api = api_as(grant(make_user(), tournament, "organiser"))
    url = f"/api/tournaments/{tournament.slug}/"
    response = api.patch(url, {"halls": "A厅 1-60\nB厅 60-120"}, format="json")
    assert response.status_code == 400
    assert response.json() == {
        "error": "A厅 and B厅 both hold table 60.",
        "field": "halls",
        "code": "invalid",
    }
    assert Tournament.objects.get(pk=tournament.pk).halls == ""
