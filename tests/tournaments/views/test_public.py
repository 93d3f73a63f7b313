"""Public pages without login: pairings with search, standings, team history, projector, API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.readers import download
from tournaments.models import Round
from tournaments.services import public

pytestmark = pytest.mark.django_db
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def client():
    return Client()


def url(name, event, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def test_pairings_page_shows_the_current_round_without_login(client, chinese_event):
    response = client.get(url("public-pairings", chinese_event), **EN)
    assert response.status_code == 200
    text = response.content.decode()
    assert "Round 3" in text and "龙城队" in text and "锡山队" in text


def test_pairings_search_filters_by_team_name_on_the_server(client, chinese_event):
    response = client.get(url("public-pairings", chinese_event), {"q": "太湖"}, **EN)
    rows = response.context["rows"]
    assert [(row["home"].name, row["away"].name) for row in rows] == [("金陵队", "太湖队")]


def test_pairings_search_without_a_match_says_so(client, chinese_event):
    response = client.get(url("public-pairings", chinese_event), {"q": "不存在"}, **EN)
    assert "No team matches your search." in response.content.decode()


def test_a_draft_round_is_not_public(client, chinese_event):
    from tests.factories import add_round

    teams = chinese_event.teams_in_order
    add_round(chinese_event, 4, [(teams[0], teams[7])], status="draft")
    response = client.get(url("public-pairings", chinese_event), {"round": 4}, **EN)
    assert response.context["round"].number == 3
    download = client.get(url("export", chinese_event, "pairings-xlsx"), {"round": 4})
    assert download.status_code == 302  # to the login page


def test_standings_page_ranks_teams_and_refreshes_itself(client, chinese_event):
    response = client.get(url("public-standings", chinese_event), **EN)
    text = response.content.decode()
    assert response.status_code == 200
    assert 'http-equiv="refresh"' in text
    rows = response.context["rows"]
    assert rows[0]["row"].name == "龙城队" and rows[0]["row"].points == 26
    assert len(rows) == 8


def test_team_page_lists_rounds_with_opponent_side_result_points_and_rank(client, chinese_event):
    team = chinese_event.teams_in_order[1]  # 姑苏队: lost round 1 as NS, won round 2 as EW
    response = client.get(url("public-team", chinese_event, team.pk), **EN)
    history = response.context["history"]
    assert [
        (row["round"], row["opponent"].name, row["side"], row["result"], row["points"])
        for row in history
    ] == [
        (1, "龙城队", "NS", "loss", 7),
        (2, "钱塘队", "EW", "win", 13),
        (3, "古运河队", "EW", "", None),
    ]
    assert all(isinstance(row["rank"], int) for row in history[:2])
    assert history[2]["rank"] is None


def test_team_page_draws_the_rank_chart_as_inline_svg(client, chinese_event):
    team = chinese_event.teams_in_order[0]
    response = client.get(url("public-team", chinese_event, team.pk), **EN)
    text = response.content.decode()
    assert '<svg id="rank-chart"' in text and "<polyline" in text
    chart = response.context["chart"]
    assert [point["rank"] for point in chart["points"]] == [1, 1]
    assert chart["points"][0]["y"] == chart["pad"]  # rank 1 at the top


def test_rank_chart_puts_the_last_rank_at_the_bottom():
    chart = public.rank_chart([(1, 8), (2, 1)], teams=8)
    assert chart["points"][0]["y"] == chart["bottom"] and chart["points"][1]["y"] == chart["pad"]


def test_team_of_another_event_is_not_found(client, chinese_event, make_event):
    other = make_event(teams=1)
    team = other.teams.first()
    assert client.get(url("public-team", chinese_event, team.pk)).status_code == 404


def test_projector_shows_clock_and_tables(client, chinese_event, time_machine):
    time_machine.move_to(timezone.now(), tick=False)
    rnd = Round.objects.get(event=chinese_event, number=3)
    rnd.status, rnd.ends_at = "in_play", timezone.now() + timedelta(minutes=30, seconds=5)
    rnd.save()
    response = client.get(url("projector", chinese_event), **EN)
    text = response.content.decode()
    assert response.context["clock"]["state"] == ""
    assert response.context["clock"]["text"] == "30:05"
    assert "龙城队" in text and "projector.js" in text


def test_projector_warns_in_the_last_ten_minutes_tractor_then_one_more_deal(client, chinese_event):
    chinese_event.game, chinese_event.preset = "tractor", "tractor"
    chinese_event.save()
    rnd = Round.objects.get(event=chinese_event, number=3)
    rnd.status, rnd.ends_at = "in_play", timezone.now() + timedelta(minutes=9)
    rnd.save()
    response = client.get(url("projector", chinese_event), **EN)
    text = response.content.decode()
    assert response.context["clock"]["state"] == "warning"
    assert "then one more deal" in text and 'class="clock-box warning"' in text


def test_projector_at_time_says_finish_the_deal_for_guandan(client, chinese_event):
    rnd = Round.objects.get(event=chinese_event, number=3)
    rnd.status, rnd.ends_at = "in_play", timezone.now() - timedelta(minutes=1)
    rnd.save()
    response = client.get(url("projector", chinese_event), **EN)
    assert response.context["clock"]["text"] == "00:00"
    assert "Time is up: finish the deal in play." in response.content.decode()


def test_round_timing_follows_the_events_settings(client, chinese_event):
    """Warning minutes and what happens at time are preset settings an event may change."""
    chinese_event.settings = {"warning_minutes": 5, "time_up": "one_more_deal"}
    chinese_event.save()
    rnd = Round.objects.get(event=chinese_event, number=3)
    rnd.status, rnd.ends_at = "in_play", timezone.now() + timedelta(minutes=7)
    rnd.save()
    response = client.get(url("projector", chinese_event), **EN)
    assert response.context["clock"]["state"] == ""  # 7 minutes left, warning from 5
    assert 'data-warning-minutes="5"' in response.content.decode()
    rnd.ends_at = timezone.now() + timedelta(minutes=4)
    rnd.save()
    response = client.get(url("projector", chinese_event), **EN)
    assert response.context["clock"]["state"] == "warning"
    assert (
        "Last 5 minutes: referees warn the tables; then one more deal." in response.content.decode()
    )


def test_clock_text_formats_hours_minutes_seconds():
    assert public.clock_text(None) == "--:--"
    assert public.clock_text(59) == "00:59"
    assert public.clock_text(3725) == "1:02:05"


def test_public_api_standings_pairings_and_clock(api, chinese_event):
    base = f"/api/tournaments/{chinese_event.slug}/public"
    standings = api.get(f"{base}/standings/").json()
    assert standings["count"] == 8 and standings["page"] == 1 and standings["next"] is None
    first = standings["results"][0]
    assert first["name"] == "龙城队" and first["points"] == 26
    pairings = api.get(f"{base}/pairings/", {"q": "锡山"}).json()
    assert pairings["round"] == 3 and pairings["count"] == 1
    assert [(t["table"], t["home"], t["away"]) for t in pairings["tables"]] == [
        (1, "龙城队", "锡山队")
    ]
    clock = api.get(f"{base}/clock/").json()
    assert clock["round"] == 3 and clock["remaining"] is None and clock["text"] == "--:--"


def test_public_api_unknown_event_is_a_json_404(api, db):
    response = api.get("/api/tournaments/nope/public/standings/")
    assert response.status_code == 404 and "error" in response.json()


def test_public_download_of_standings_xlsx_needs_no_login(client, chinese_event):
    response = download(client, url("export", chinese_event, "standings-xlsx"))
    assert response.status_code == 200
    assert response["Content-Disposition"] == 'attachment; filename="suzhou-open-standings.xlsx"'


def test_team_page_shows_table_side_level_score_points_and_running_total(client, chinese_event):
    team = chinese_event.teams_in_order[1]  # 姑苏队: lost round 1 as NS, won round 2 as EW
    response = client.get(url("public-team", chinese_event, team.pk), **EN)
    history = response.context["history"]
    assert [row["total"] for row in history[:2]] == [7, 20]
    assert all(isinstance(row["table"], int) for row in history)
    assert history[0]["levels"] and " : " in history[0]["levels"]
    html = response.content.decode()
    assert '<th class="num">Total</th>' in html and '<th class="num">Levels</th>' in html


def test_team_page_shows_a_bye_without_a_side_and_with_its_points(client, make_event):
    from tests import factories
    from tournaments.models import Team

    event = make_event(teams=3)
    a, b, c = Team.objects.filter(event=event).order_by("name")
    factories.played_round(event, 1, [(a, b)], byes=[c])
    response = client.get(url("public-team", event, c.pk), **EN)
    (row,) = response.context["history"]
    assert row["side"] is None and row["table"] is None and row["result"] == "bye"
    assert row["points"] == 17 and row["total"] == 17
    html = response.content.decode()
    assert 'data-mark="bye"' in html and "East–West" not in html.split('id="history"')[1]


def test_public_pairings_show_units_and_the_results_once_in(client, chinese_event):
    response = client.get(url("public-pairings", chinese_event), {"round": 1}, **EN)
    rows = response.context["rows"]
    assert all(row["result"] is not None for row in rows)  # round 1 is complete
    text = response.content.decode()
    assert (
        '<span class="muted unit">苏州</span>' in text
        or '<span class="muted unit">无锡</span>' in text
    )
    assert rows[0]["result"].points_text in text
    current = client.get(url("public-pairings", chinese_event), **EN)  # round 3: not played
    assert all(row["result"] is None for row in current.context["rows"])


def test_a_public_page_is_not_shaped_by_the_visitors_roles(client, chinese_event):
    """A public page is cached for every visitor: an organiser's roles stay out of its
    context (PublicMixin.visitor_roles; the event's own page, not cached, has them)."""
    from tests import factories

    client.force_login(factories.organiser_of(chinese_event))
    for name in ("public-pairings", "public-standings"):
        context = client.get(url(name, chinese_event), **EN).context
        assert context["event"] == chinese_event
        assert not {"my_roles", "allowed", "can_manage"} & set(context.keys()), name
    home = client.get(reverse("tournaments:detail", args=[chinese_event.slug]), **EN)
    assert "organiser" in home.context["my_roles"]
