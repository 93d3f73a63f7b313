"""Public standings and the projector view in a real browser, on a phone and a 1920×1080 screen."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests import factories
from tests.factories import add_round

NAMES = ["龙城队", "姑苏队", "金陵队", "钱塘队", "锡山队", "太湖队"]
# the home (dealer) side keeps the deal with the defenders on 40 points: home +2
HOME_KEEPS_DEAL = {"deals": [{"dealer": "EW", "defender_points": 40}]}


@pytest.fixture
def event(make_event):
    event = make_event(name="苏州掼蛋公开赛", slug="open-e2e", game="tractor")
    t = [factories.team(event, name) for name in NAMES]
    add_round(event, 1, [(t[0], t[1]), (t[2], t[3]), (t[4], t[5])], record=HOME_KEEPS_DEAL)
    add_round(event, 2, [(t[0], t[2]), (t[1], t[4]), (t[3], t[5])], status="in_play", record=None)
    return event


def _set_clock(event, remaining: timedelta):
    event.rounds.filter(number=2).update(ends_at=timezone.now() + remaining)


def _standings_rows(page):
    return page.locator("#standings tbody tr").all_inner_texts()


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_public_standings_show_every_team_ranked_without_login(live_server, event, screen, request):
    page = request.getfixturevalue(screen)
    page.goto(f"{live_server.url}/t/{event.slug}/standings/")
    rows = _standings_rows(page)
    assert len(rows) == len(NAMES)
    # round 1: the three home teams (龙城, 金陵, 锡山) won and lead
    assert all(any(name in row for name in ("龙城队", "金陵队", "锡山队")) for row in rows[:3])
    first = page.locator("#standings tbody tr").first
    assert first.locator("td").first.inner_text().startswith("1")
    if screen == "phone":
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert not page.locator("#standings th.hide-sm").first.is_visible()
    else:
        assert page.locator("#standings th.hide-sm").first.is_visible()
    page.click("#standings tbody tr >> nth=0 >> a")
    page.wait_for_selector("#rank-chart")
    assert page.locator("#history tbody tr").count() == 2


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_projector_counts_down_and_shows_the_tables(live_server, event, screen, request):
    page = request.getfixturevalue(screen)
    _set_clock(event, timedelta(minutes=42, seconds=30))
    page.goto(f"{live_server.url}/t/{event.slug}/projector/")
    clock = page.locator("#clock")
    first = clock.inner_text()
    assert first.startswith("42:")
    page.wait_for_function(
        "(first) => document.getElementById('clock').textContent !== first", arg=first
    )
    assert "warning" not in page.locator("#clock-box").get_attribute("class")
    tables = page.locator("#projector-tables div").all_inner_texts()
    assert len(tables) == 3 and "龙城队" in tables[0] and "金陵队" in tables[0]
    assert page.locator("header.top").is_hidden()
    size = page.evaluate("parseFloat(getComputedStyle(document.getElementById('clock')).fontSize)")
    assert size >= (60 if screen == "phone" else 150)


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("screen", ["phone", "desktop"])
def test_projector_warns_in_the_last_ten_minutes(live_server, event, screen, request):
    page = request.getfixturevalue(screen)
    _set_clock(event, timedelta(minutes=9, seconds=30))
    page.goto(f"{live_server.url}/t/{event.slug}/projector/")
    page.wait_for_function("document.getElementById('clock-box').classList.contains('warning')")
    assert page.locator("#clock").inner_text().startswith("09:")
    note = page.locator("#clock-note").inner_text()
    assert note  # tractor: "then one more deal" in the page's language
    background = page.evaluate(
        "getComputedStyle(document.getElementById('clock-box')).backgroundColor"
    )
    assert background == "rgb(161, 92, 0)"


@pytest.mark.django_db(transaction=True)
def test_projector_at_zero_says_time_is_up_in_english(live_server, event, desktop):
    _set_clock(event, timedelta(seconds=2))
    # the language switch's cookie (the browser context itself asks for Chinese)
    desktop.context.add_cookies(
        [{"name": "django_language", "value": "en", "url": live_server.url}]
    )
    desktop.goto(f"{live_server.url}/t/{event.slug}/projector/")
    desktop.wait_for_function("document.getElementById('clock-box').classList.contains('over')")
    assert desktop.locator("#clock").inner_text() == "00:00"
    assert desktop.locator("#clock-note").inner_text() == "Time is up: play one more deal."


@pytest.fixture
def big_event(make_event):
    """100 tables in play (3 projector screens of 42), the clock running."""
    from tournaments.models import Match, Round, Team

    event = make_event(name="千人掼蛋大赛", slug="big-e2e")
    teams = Team.objects.bulk_create(Team(event=event, name=f"第{i:03d}队") for i in range(200))
    rnd = Round.objects.create(
        event=event,
        number=1,
        status="in_play",
        ends_at=timezone.now() + timedelta(minutes=50),
    )
    Match.objects.bulk_create(
        Match(round=rnd, table_number=t + 1, home=teams[2 * t], away=teams[2 * t + 1])
        for t in range(100)
    )
    return event


@pytest.mark.django_db(transaction=True)
def test_projector_pages_through_every_table_at_1920x1080(
    live_server, big_event, desktop, monkeypatch
):
    from tournaments.views import public_pages

    monkeypatch.setattr(public_pages, "PROJECTOR_DWELL_SECONDS", 1)
    desktop.goto(f"{live_server.url}/t/{big_event.slug}/projector/")
    seen: set[int] = set()
    for screen in (1, 2, 3, 1):
        desktop.wait_for_function(
            "(n) => document.getElementById('projector-screen').textContent"
            ".includes('screen ' + n + ' of 3') || document.getElementById('projector-screen')"
            ".textContent.includes('第 ' + n + ' / 3 屏')",
            arg=screen,
        )
        rows = desktop.locator("#projector-tables div")
        texts = rows.all_inner_texts()
        assert len(texts) == (16 if screen == 3 else 42)
        seen |= {int(text) for text in desktop.locator("#projector-tables div b").all_inner_texts()}
        last = rows.last.bounding_box()
        assert last["y"] + last["height"] <= 1080  # the whole screen is visible, no scrolling
    assert seen == set(range(1, 101))
    assert desktop.evaluate("document.documentElement.scrollHeight") <= 1080
    row_px = desktop.evaluate(
        "parseFloat(getComputedStyle(document.getElementById('projector-tables')).fontSize)"
    )
    assert row_px >= 34  # about 9 cm high on a 3 m projection: readable from 10 m


@pytest.mark.django_db(transaction=True)
def test_projector_countdown_stops_when_the_round_is_finalised(
    live_server, big_event, desktop, monkeypatch
):
    from tournaments.models import Round
    from tournaments.views import public_pages

    monkeypatch.setattr(public_pages, "PROJECTOR_SYNC_SECONDS", 1)
    desktop.goto(f"{live_server.url}/t/{big_event.slug}/projector/")
    first = desktop.locator("#clock").inner_text()
    assert first.startswith(("49:", "50:"))
    desktop.wait_for_function(
        "(first) => document.getElementById('clock').textContent !== first", arg=first
    )
    rnd = Round.objects.get(event=big_event, number=1)
    rnd.status = "finalised"
    rnd.save()
    desktop.wait_for_function(
        "document.getElementById('clock-box').classList.contains('finalised')"
    )
    assert desktop.locator("#clock").inner_text() == "--:--"
    note = desktop.locator("#clock-note").inner_text()
    assert "1" in note and ("finalised" in note or "已结束" in note)
    desktop.wait_for_timeout(2200)
    assert desktop.locator("#clock").inner_text() == "--:--"  # stopped, not counting on


@pytest.mark.django_db(transaction=True)
def test_projector_warns_when_its_data_is_more_than_a_minute_old(live_server, event, desktop):
    """A mirror cut off from the venue: the clock API's data_as_of stops moving; once it is
    more than a minute old the projector says so in red, with the time the data is complete
    to; when fresh data comes back the warning goes."""
    import json

    _set_clock(event, timedelta(minutes=30))
    state = {"age": timedelta(minutes=2)}

    def clock(route):
        answer = json.loads(route.fetch().text())
        answer["data_as_of"] = (timezone.now() - state["age"]).isoformat()
        route.fulfill(status=200, content_type="application/json", body=json.dumps(answer))

    desktop.route("**/public/clock/", clock)
    desktop.goto(f"{live_server.url}/t/{event.slug}/projector/")
    assert "成绩更新于" in desktop.locator("#projector-freshness").inner_text()
    stale = desktop.locator("#projector-stale")
    stale.wait_for(state="visible")
    assert "超过一分钟" in stale.inner_text()
    background = desktop.evaluate(
        "getComputedStyle(document.getElementById('projector-stale')).backgroundColor"
    )
    assert background == "rgb(179, 38, 30)"
    state["age"] = timedelta(seconds=3)
    desktop.reload()
    desktop.wait_for_function("document.getElementById('projector-stale').hidden")
    desktop.wait_for_timeout(6000)  # the freshness check runs every 5 s
    assert stale.is_hidden()


@pytest.mark.django_db(transaction=True)
def test_find_my_table_counts_down_with_the_one_clock_module(live_server, event, phone):
    """The find page's clock is static/js/clock.js's, as the projector's and the deadlines'."""
    _set_clock(event, timedelta(minutes=12, seconds=30))
    phone.goto(f"{live_server.url}/t/{event.slug}/find/?q=龙城")
    text = phone.locator("#find-clock-text")
    phone.wait_for_function(
        "document.getElementById('find-clock-text').textContent.startsWith('12:')"
    )
    first = text.inner_text()
    phone.wait_for_function(
        "(first) => document.getElementById('find-clock-text').textContent !== first", arg=first
    )
    assert phone.evaluate("typeof window.paisaiClock.Countdown") == "function"
    assert phone.evaluate("window.paisaiClock.format(3725)") == "1:02:05"
    assert phone.evaluate("window.paisaiClock.format(309, true)") == "5:09"
    assert phone.evaluate("window.paisaiClock.format(309)") == "05:09"
