"""Per-event permissions: rights in event A give nothing in event B, on pages and API."""

import pytest

from tournaments.models import Team


@pytest.fixture
def two_events(make_event, make_user, grant):
    a, b = make_event(teams=2), make_event(teams=2)
    referee = grant(make_user("ref_a"), a, "table_referee", tables=[1])
    organiser_a = grant(make_user("org_a"), a, "organiser")
    return a, b, referee, organiser_a


@pytest.mark.parametrize(
    "path",
    [
        "manage/",
        "manage/teams/new/",
        "manage/teams/import/",
        "manage/roles/new/",
        "manage/teams/template.xlsx",
    ],
)
def test_referee_of_one_event_gets_403_on_another_events_pages(client, two_events, path):
    a, b, referee, _ = two_events
    client.force_login(referee)
    response = client.get(f"/t/{b.slug}/{path}")
    assert response.status_code == 403
    assert "Forbidden" in response.content.decode() or "无权" in response.content.decode()


def test_organiser_of_one_event_gets_403_managing_another(client, two_events):
    a, b, _, organiser_a = two_events
    client.force_login(organiser_a)
    assert client.get(f"/t/{a.slug}/manage/").status_code == 200
    assert client.get(f"/t/{b.slug}/manage/").status_code == 403


def test_anonymous_user_is_sent_to_login_for_the_console(client, two_events):
    a, *_ = two_events
    response = client.get(f"/t/{a.slug}/manage/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_table_referee_cannot_manage_own_event_either(client, two_events):
    a, _, referee, _ = two_events
    client.force_login(referee)
    assert client.get(f"/t/{a.slug}/manage/").status_code == 403


def test_referee_of_one_event_gets_403_on_another_events_api(api_as, two_events):
    a, b, referee, _ = two_events
    api = api_as(referee)
    response = api.post(
        f"/api/tournaments/{b.slug}/teams/",
        {"name": "X", "unit": "", "players": ["p", "q"]},
        format="json",
    )
    assert response.status_code == 403
    assert response.json()["error"]
    assert api.get(f"/api/tournaments/{b.slug}/roles/").status_code == 403
    team = Team.objects.filter(event=b).first()
    assert (
        api.patch(
            f"/api/tournaments/{b.slug}/teams/{team.pk}/", {"name": "Y"}, format="json"
        ).status_code
        == 403
    )
    assert api.patch(f"/api/tournaments/{b.slug}/", {"name": "Y"}, format="json").status_code == 403


def test_organiser_can_write_own_event_through_the_api(api_as, two_events):
    a, _, _, organiser_a = two_events
    api = api_as(organiser_a)
    response = api.post(
        f"/api/tournaments/{a.slug}/teams/",
        {"name": "新队", "unit": "新单位", "players": ["甲", "乙"], "seed": 5},
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["player_names"] == ["甲", "乙"]
    assert api.get(f"/api/tournaments/{a.slug}/roles/").status_code == 200


def test_public_can_read_teams_but_not_write(api, two_events):
    a, *_ = two_events
    assert api.get(f"/api/tournaments/{a.slug}/teams/").status_code == 200
    response = api.post(f"/api/tournaments/{a.slug}/teams/", {"name": "x"}, format="json")
    assert response.status_code == 403  # no credentials: session auth answers 403


def test_team_on_another_event_is_404_through_this_events_url(api_as, two_events):
    a, b, _, organiser_a = two_events
    team_b = Team.objects.filter(event=b).first()
    response = api_as(organiser_a).patch(
        f"/api/tournaments/{a.slug}/teams/{team_b.pk}/", {"name": "stolen"}, format="json"
    )
    assert response.status_code == 404
