"""Public pages and their JSON: rendered once per event revision, served from the cache with
ETag / Last-Modified / Cache-Control so a browser or proxy revalidates with a 304; the same
for everybody; long lists paged (issue 14)."""

from __future__ import annotations

import pytest
from django.test import Client
from django.urls import reverse

from tests.factories import guandan_record
from tournaments.models import Event, Match, Round, RoundSlot, Team
from tournaments.services import result_entry
from tournaments.services.results import Actor

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def pages(event) -> list[str]:
    slug = event.slug
    team = event.teams_in_order[0].pk
    return [
        reverse("tournaments:public-pairings", args=[slug]),
        reverse("tournaments:public-standings", args=[slug]),
        reverse("tournaments:public-team", args=[slug, team]),
        reverse("tournaments:projector", args=[slug]),
        reverse("tournaments:find-table", args=[slug]) + "?q=龙城",
        f"/api/tournaments/{slug}/public/standings/",
        f"/api/tournaments/{slug}/public/pairings/",
        f"/api/tournaments/{slug}/public/find-table/?q=lcd",
    ]


def test_second_get_with_if_none_match_is_304(chinese_event):
    client = Client()
    for path in pages(chinese_event):
        first = client.get(path, **EN)
        assert first.status_code == 200, path
        tag = first["ETag"]
        assert tag.startswith('"') and first["Last-Modified"]
        assert (
            "public" in first["Cache-Control"]
            and "stale-while-revalidate" in (first["Cache-Control"])
        )
        assert "Accept-Language" in first["Vary"]
        again = client.get(path, HTTP_IF_NONE_MATCH=tag, **EN)
        assert again.status_code == 304, path
        assert again["ETag"] == tag and again.content == b""
        since = client.get(path, HTTP_IF_MODIFIED_SINCE=first["Last-Modified"], **EN)
        assert since.status_code == 304, path


def test_a_revalidation_costs_one_query_and_no_rendering(chinese_event, django_assert_num_queries):
    client = Client()
    path = reverse("tournaments:public-standings", args=[chinese_event.slug])
    tag = client.get(path, **EN)["ETag"]
    with django_assert_num_queries(1):  # the event row (its revision)
        assert client.get(path, HTTP_IF_NONE_MATCH=tag, **EN).status_code == 304


def test_a_cached_page_is_served_without_rendering(chinese_event, django_assert_num_queries):
    client = Client()
    path = reverse("tournaments:public-pairings", args=[chinese_event.slug])
    first = client.get(path, **EN)
    assert first.context is not None  # rendered
    with django_assert_num_queries(1):
        second = client.get(path, **EN)
    assert second.content == first.content and second["ETag"] == first["ETag"]


def test_a_confirmed_result_changes_the_etag(chinese_event, make_user, grant):
    chief = grant(make_user(), chinese_event, "chief_referee")
    client = Client()
    standings = reverse("tournaments:public-standings", args=[chinese_event.slug])
    api = f"/api/tournaments/{chinese_event.slug}/public/standings/"
    before = {path: client.get(path, **EN)["ETag"] for path in (standings, api)}
    match = Match.objects.filter(round__event=chinese_event, round__number=3).first()
    Round.objects.filter(pk=match.round_id).update(status="in_play")
    version = result_entry.submit(match, guandan_record(), Actor(chief), 0, confirm=True)
    assert version.is_counting
    for path, tag in before.items():
        fresh = client.get(path, HTTP_IF_NONE_MATCH=tag, **EN)
        assert fresh.status_code == 200 and fresh["ETag"] != tag, path
    rows = client.get(api).json()["results"]
    home = next(row for row in rows if row["team"] == match.home_id)
    assert home["points"] > 26 or home["name"] != "龙城队"


def test_a_result_that_does_not_count_yet_keeps_the_etag(chinese_event, make_user, grant):
    referee = grant(make_user(), chinese_event, "table_referee", tables=[1])
    client = Client()
    path = reverse("tournaments:public-standings", args=[chinese_event.slug])
    match = Match.objects.get(round__event=chinese_event, round__number=3, table_number=1)
    Round.objects.filter(pk=match.round_id).update(status="in_play")  # a public change: bumps
    tag = client.get(path, **EN)["ETag"]
    result_entry.submit(match, guandan_record(), Actor(referee), 0)  # awaits confirmation
    assert client.get(path, HTTP_IF_NONE_MATCH=tag, **EN).status_code == 304


def test_team_renamed_changes_every_page_that_shows_it(chinese_event):
    client = Client()
    path = reverse("tournaments:public-pairings", args=[chinese_event.slug])
    tag = client.get(path, **EN)["ETag"]
    team = Team.objects.get(event=chinese_event, name="龙城队")
    team.name = "新龙城队"
    team.save()
    fresh = client.get(path, HTTP_IF_NONE_MATCH=tag, **EN)
    assert fresh.status_code == 200 and "新龙城队" in fresh.content.decode()


def test_a_cached_page_is_the_same_for_everybody(chinese_event, make_user, grant):
    organiser = grant(make_user("org-visible"), chinese_event, "organiser")
    path = reverse("tournaments:public-standings", args=[chinese_event.slug])
    anonymous = Client().get(path, **EN)
    logged_in = Client()
    logged_in.force_login(organiser)
    seen = logged_in.get(path, **EN)
    assert seen.content == anonymous.content
    assert "org-visible" not in seen.content.decode()
    assert "csrfmiddlewaretoken" not in seen.content.decode()
    assert "csrftoken" not in anonymous.cookies


def test_languages_are_cached_apart(chinese_event):
    client = Client()
    path = reverse("tournaments:public-standings", args=[chinese_event.slug])
    english = client.get(path, **EN)
    chinese = client.get(path, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert english["ETag"] != chinese["ETag"]
    assert "Standings" in english.content.decode() and "排名" in chinese.content.decode()


def test_language_link_sets_the_cookie_and_goes_back(chinese_event):
    client = Client()
    back = reverse("tournaments:public-standings", args=[chinese_event.slug])
    response = client.get(reverse("tournaments:language", args=["en"]), {"next": back})
    assert response.status_code == 302 and response["Location"] == back
    assert response.cookies["django_language"].value == "en"
    away = client.get(
        reverse("tournaments:language", args=["en"]), {"next": "https://evil.example/"}
    )
    assert away["Location"] == reverse("tournaments:home")


def test_revision_is_never_written_back_by_a_stale_save(chinese_event):
    stale = Event.objects.get(pk=chinese_event.pk)
    Team.objects.filter(event=chinese_event).first().save()  # bumps
    current = Event.objects.get(pk=chinese_event.pk).revision
    stale.venue = "别处"
    stale.save()
    assert Event.objects.get(pk=chinese_event.pk).revision == current + 1


# --- paging -------------------------------------------------------------------------------


@pytest.fixture
def big_round(make_event):
    """250 tables in a published round (500 teams), no results."""
    event = make_event(teams=0, slug="big-event")
    teams = Team.objects.bulk_create(Team(event=event, name=f"队{i:04d}") for i in range(500))
    rnd = Round.objects.create(event=event, number=1, status="published")
    matches = Match.objects.bulk_create(
        Match(round=rnd, table_number=t + 1, home=teams[2 * t], away=teams[2 * t + 1])
        for t in range(250)
    )
    RoundSlot.objects.bulk_create(
        RoundSlot(round=rnd, match=m, team=team, side=side)
        for m in matches
        for team, side in ((m.home, "EW"), (m.away, "NS"))
    )
    return Event.objects.get(pk=event.pk)


def test_pairings_are_paged_and_the_first_screen_is_small(big_round):
    client = Client()
    path = reverse("tournaments:public-pairings", args=[big_round.slug])
    first = client.get(path, **EN)
    assert [row["table"] for row in first.context["rows"]] == list(range(1, 101))
    text = first.content.decode()
    assert "101–200" in text and "201–250" in text
    last = client.get(path, {"page": 3}, **EN)
    assert [row["table"] for row in last.context["rows"]] == list(range(201, 251))
    beyond = client.get(path, {"page": 99}, **EN)
    assert beyond.context["page"].number == 3
    unreadable = client.get(path, {"page": "x"}, **EN)
    assert unreadable.content == first.content  # page 1, from the cache


def test_standings_are_paged(big_round):
    client = Client()
    path = reverse("tournaments:public-standings", args=[big_round.slug])
    first = client.get(path, **EN)
    assert len(first.context["rows"]) == 100 and first.context["page"].pages == 5
    fifth = client.get(path, {"page": 5}, **EN)
    assert len(fifth.context["rows"]) == 100 and fifth.content != first.content


def test_public_api_is_paged_with_a_capped_page_size(big_round):
    client = Client()
    base = f"/api/tournaments/{big_round.slug}/public"
    pairings = client.get(f"{base}/pairings/", {"page": 2, "page_size": 42}).json()
    assert pairings["count"] == 250 and pairings["pages"] == 6 and pairings["page"] == 2
    assert [t["table"] for t in pairings["tables"]] == list(range(43, 85))
    assert pairings["next"] == 3 and pairings["previous"] == 1
    standings = client.get(f"{base}/standings/", {"page_size": 100000}).json()
    assert standings["page_size"] == 1000 and len(standings["results"]) == 500


def test_projector_shows_the_first_screen_and_pages_through_the_rest(big_round):
    response = Client().get(reverse("tournaments:projector", args=[big_round.slug]), **EN)
    text = response.content.decode()
    assert len(response.context["rows"]) == 42
    assert 'data-pages="6"' in text and "page_size=42" in text
    assert "Tables 1–42 of 250 · screen 1 of 6" in text


def test_one_render_of_a_page_at_a_time_whatever_its_revision(chinese_event):
    """Results at 50 a second make a new revision every 20 ms: while one request renders a
    page, a request finding a newer revision gets the latest rendered answer (for a second)
    instead of rendering too; once that render is done, the next request renders."""
    from django.core.cache import cache

    from tournaments.freshness import invalidate
    from tournaments.services import public_cache

    client = Client()
    path = reverse("tournaments:public-standings", args=[chinese_event.slug])
    first = client.get(path, **EN)
    assert first.context is not None
    invalidate(chinese_event)  # a result confirmed meanwhile: a new revision
    chinese_event.refresh_from_db()
    # the page's identity names which of its downloads exist (see StandingsPage.cache_params)
    names = [
        public_cache.identity(
            chinese_event, "standings", {"page": 1, "stage": "", "section": "", "files": files}
        )
        for files in ("00", "01", "10", "11")
    ]
    for name in names:  # another request renders the page
        assert cache.add(f"paisai:public-render:{name}", 1, 10)
    meanwhile = client.get(path, **EN)
    assert meanwhile.context is None and meanwhile.content == first.content
    assert meanwhile["ETag"] == first["ETag"] and meanwhile["Cache-Control"] == "public, max-age=1"
    for name in names:  # that render is done
        cache.delete(f"paisai:public-render:{name}")
    after = client.get(path, **EN)
    assert after.context is not None and after["ETag"] != first["ETag"]


def test_a_mirror_pauses_between_two_renders_of_a_page(chinese_event, settings):
    """PAISAI_PUBLIC_RENDER_PAUSE (1 s on a mirror): a page rendered is not rendered again
    for that long, whatever revision replication brings; the venue (0) renders at once."""
    from tournaments.freshness import invalidate

    client = Client()
    path = reverse("tournaments:public-pairings", args=[chinese_event.slug])
    settings.PAISAI_PUBLIC_RENDER_PAUSE = 1
    first = client.get(path, **EN)
    invalidate(chinese_event)
    paused = client.get(path, **EN)
    assert paused.context is None and paused["ETag"] == first["ETag"]
    settings.PAISAI_PUBLIC_RENDER_PAUSE = 0
    from django.core.cache import cache

    cache.clear()  # the pause over
    assert client.get(path, **EN)["ETag"] != first["ETag"]


def test_a_mirror_serves_an_address_it_just_served_without_asking_the_database(
    chinese_event, settings, django_assert_num_queries
):
    """On a mirror (a render pause), a public page or public API answer this process served
    less than the pause ago is served again by its address before the event is looked up:
    no query, no cache trip; a revalidation naming its ETag is a 304. The venue (no pause)
    looks the event up every time."""
    client = Client()
    page = reverse("tournaments:public-pairings", args=[chinese_event.slug])
    api = f"/api/tournaments/{chinese_event.slug}/public/standings/"
    settings.PAISAI_PUBLIC_RENDER_PAUSE = 1
    first_page, first_api = client.get(page, **EN), client.get(api, **EN)
    assert first_page.status_code == first_api.status_code == 200
    with django_assert_num_queries(0):
        again = client.get(page, **EN)
        again_api = client.get(api, **EN)
        revalidated = client.get(page, HTTP_IF_NONE_MATCH=first_page["ETag"], **EN)
    assert again.content == first_page.content and again["ETag"] == first_page["ETag"]
    assert again_api.content == first_api.content
    assert revalidated.status_code == 304
    settings.PAISAI_PUBLIC_RENDER_PAUSE = 0
    with django_assert_num_queries(1):  # the venue: the event's row and its revision
        assert client.get(page, **EN).status_code == 200
