"""Registration pages, the API schema, i18n and the demo loader."""

import subprocess
import sys

import pytest
from django.contrib.auth.models import Permission

from tournaments.models import AuditLog, Event, EventRole, Team
from tournaments.services.demo import DEMO_SLUG, load_demo


@pytest.fixture
def organiser(make_user):
    user = make_user("boss")
    user.user_permissions.add(Permission.objects.get(codename="add_event"))
    return user


def test_organiser_creates_an_event_and_becomes_its_organiser(client, organiser):
    client.force_login(organiser)
    response = client.post(
        "/new/",
        {
            "name": "城市赛",
            "slug": "city",
            "game": "guandan",
            "preset": "guandan-national-2017",
            "num_rounds": 5,
            "round_minutes": 90,
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    event = Event.objects.get(slug="city")
    assert EventRole.objects.filter(user=organiser, event=event, role="organiser").exists()
    assert AuditLog.objects.filter(event=event, action="tournament.create").exists()


def test_preset_must_match_the_game(client, organiser):
    client.force_login(organiser)
    response = client.post(
        "/new/",
        {
            "name": "x",
            "slug": "x",
            "game": "tractor",
            "preset": "guandan-national-2017",
            "num_rounds": 5,
            "round_minutes": 60,
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 400  # the form again with its errors
    assert "not for the chosen game" in response.content.decode()


def test_chengyu_5_an_idiom_chain_event_left_blank_plays_30_minute_rounds(client, organiser):
    """成语接龙 五 "30 分钟内完成比赛": the preset's round clock when the form leaves it blank;
    a round length typed in stays the event's own."""
    client.force_login(organiser)
    base = {"game": "chengyu", "preset": "chengyu", "num_rounds": 3}
    response = client.post("/new/", base | {"name": "成语赛", "slug": "idioms"})
    assert response.status_code == 302, response.content.decode()[:2000]
    assert Event.objects.get(slug="idioms").round_minutes == 30
    client.post("/new/", base | {"name": "成语赛 2", "slug": "idioms-2", "round_minutes": 45})
    assert Event.objects.get(slug="idioms-2").round_minutes == 45
    page = client.get("/new/").content.decode()
    assert "成语接龙扑克 30 分钟" in page  # the help says what blank means


def test_an_event_created_through_the_api_without_a_round_length_takes_the_presets(
    organiser,
):
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organiser)
    response = api.post(
        "/api/tournaments/",
        {
            "name": "成语赛",
            "slug": "idioms-api",
            "game": "chengyu",
            "preset": "chengyu",
            "num_rounds": 3,
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    assert response.json()["round_minutes"] == 30
    response = api.post(
        "/api/tournaments/",
        {
            "name": "掼蛋赛",
            "slug": "guandan-api",
            "game": "guandan",
            "preset": "guandan-suzhou-2016",
            "num_rounds": 3,
        },
        format="json",
    )
    assert response.json()["round_minutes"] == 60


def test_user_without_permission_cannot_create_events(client, make_user):
    client.force_login(make_user())
    assert client.get("/new/").status_code == 403


def test_organiser_adds_and_edits_a_team_and_it_is_audited(client, make_event, make_user, grant):
    event = make_event(units=0)
    client.force_login(grant(make_user(), event, "organiser"))
    url = f"/t/{event.slug}/manage/teams/new/"
    data = {
        "name": "红队",
        "unit": "一中",
        "player1": "甲",
        "player2": "乙",
        "seed": 3,
        "status": "active",
    }
    assert client.post(url, data).status_code == 302
    team = Team.objects.get(event=event, name="红队")
    data.update(name="红队改", status="withdrawn")
    assert client.post(f"/t/{event.slug}/manage/teams/{team.pk}/", data).status_code == 302
    team.refresh_from_db()
    assert (team.name, team.status) == ("红队改", "withdrawn")
    assert list(
        AuditLog.objects.filter(target_type="tournaments.team", target_id=str(team.pk)).values_list(
            "action", flat=True
        )
    ) == ["team.update", "team.create"]
    # Duplicate names are refused with a message, not a crash.
    data.update(name="红队改")
    response = client.post(url, data, HTTP_ACCEPT_LANGUAGE="en")  # the present teams refuse it
    assert response.status_code == 409 and "already registered" in response.content.decode()


def test_pages_default_to_chinese_and_switch_to_english(client, make_event):
    make_event(name="Spring Open")
    body = client.get("/").content.decode()
    assert 'lang="zh-hans"' in body and "赛事" in body
    response = client.post("/i18n/setlang/", {"language": "en", "next": "/"})
    assert response.status_code == 302
    body = client.get("/").content.decode()
    assert 'lang="en"' in body and "Events" in body
    assert 'id="language-switch"' in body


def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    for path in (
        "/api/tournaments/",
        "/api/tournaments/{slug}/teams/",
        "/api/tournaments/{slug}/roles/",
        "/api/tournaments/{slug}/players/",
    ):
        assert path in text
    assert client.get("/api/docs/").status_code == 200


def test_api_errors_name_the_field(api_as, make_event, make_user, grant):
    event = make_event(units=0)
    api = api_as(grant(make_user(), event, "organiser"))
    response = api.post(
        f"/api/tournaments/{event.slug}/teams/",
        {"name": "A", "players": ["only one"]},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["field"] == "players"


def test_unknown_event_is_404_in_both_languages_and_json_on_the_api(db, client, api):
    assert client.get("/t/nope/").status_code == 404
    response = api.get("/api/tournaments/nope/teams/")
    assert response.status_code == 404 and response.json()["error"]


def test_demo_loads_24_teams_from_6_units_and_a_login_per_role(db):
    logins = load_demo()
    event = Event.objects.get(slug=DEMO_SLUG)
    assert event.teams.count() == 24 and event.units.count() == 6
    roles = set(EventRole.objects.filter(event=event).values_list("role", flat=True))
    assert roles == {"organiser", "chief_referee", "table_referee", "committee", "captain"}
    assert len(logins) >= 6
    load_demo()  # idempotent
    assert event.teams.count() == 24


def test_check_deploy_reports_nothing_with_production_settings(tmp_path):
    env = {
        "SECRET_KEY": "x" * 20 + "production-secret-key-with-enough-entropy-1234567890",
        "ALLOWED_HOSTS": "paisai.example.org",
        "PATH": "/usr/bin:/bin",
        "DATABASE_URL": f"sqlite:///{tmp_path}/db.sqlite3",
    }
    result = subprocess.run(
        [sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True,
        text=True,
        env=env,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "no issues" in result.stdout


def test_debug_is_off_unless_set():
    result = subprocess.run(
        [
            sys.executable,
            "-c",
            "import django,os;os.environ['DJANGO_SETTINGS_MODULE']='config.settings';"
            "from django.conf import settings;print(settings.DEBUG)",
        ],
        capture_output=True,
        text=True,
        env={"SECRET_KEY": "k" * 60, "PATH": "/usr/bin:/bin"},
    )
    assert result.stdout.strip() == "False", result.stderr


def test_a_huge_page_limit_is_capped_not_a_server_error(api, make_event):
    make_event(teams=2)
    response = api.get("/api/tournaments/?limit=99999999999999999999&offset=0")
    assert response.status_code == 200
    # issue 31: a limit or offset that is no whole number is refused, naming it (the schema
    # says an integer), not read as "not given"
    response = api.get("/api/tournaments/?limit=-5&offset=abc")
    assert response.status_code == 400 and response.json()["field"] == "limit"
    response = api.get("/api/tournaments/?offset=abc")
    assert response.status_code == 400 and response.json()["field"] == "offset"


def test_a_table_referee_finds_links_to_their_own_tables_on_the_event_page(
    client, make_event, make_user, grant
):
    event = make_event(teams=4)
    client.force_login(grant(make_user(), event, "table_referee", tables=[3, 1]))
    body = client.get(f"/t/{event.slug}/").content.decode()
    assert body.index(f"/t/{event.slug}/table/1/") < body.index(f"/t/{event.slug}/table/3/")
    assert f"/t/{event.slug}/table/2/" not in body
