"""Published addresses outlive the renames of issue 29 (Names) in code: printed QR
codes and API clients know /api/tournaments/…, /t/<slug>/ and /arbitration/t/<slug>/, so the
code says event while those paths stay as they were."""

from django.urls import reverse

from tournaments.models import Role


def test_the_event_api_answers_at_its_old_path(api_as, make_event, make_user, grant):
    event = make_event(teams=2, slug="old-path")
    api = api_as(grant(make_user(), event, Role.ORGANISER))
    assert reverse("event-list") == "/api/tournaments/"
    assert reverse("event-detail", args=["old-path"]) == "/api/tournaments/old-path/"
    response = api.get("/api/tournaments/old-path/")
    assert response.status_code == 200 and response.json()["slug"] == "old-path"
    assert "old-path" in {row["slug"] for row in api.get("/api/tournaments/").json()["results"]}
    assert api.get("/api/tournaments/old-path/teams/").status_code == 200
    assert "tournaments" in api.get("/api/").json()  # the API root names the same list


def test_the_public_and_arbitration_pages_answer_at_their_old_paths(client, make_event):
    make_event(teams=2, slug="old-path", status="published")
    assert reverse("tournaments:detail", args=["old-path"]) == "/t/old-path/"
    assert reverse("arbitration:index", args=["old-path"]) == "/arbitration/t/old-path/"
    assert client.get("/t/old-path/").status_code == 200
    assert client.get("/api/tournaments/old-path/public/standings/").status_code == 200
