"""The projector's hall screens (issue 14, "by hall/section when there are any"): an event's hall
with a range of tables ("A厅 1-10") has its own screen, which pages through that hall's tables
only and names the hall; the pairings API filters by hall the same way."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.views import public_pages

HALLS = "A厅 1-10\n休息区\nB厅 11–20\nC厅 21~30"  # hall 2 is a plain name: no screen
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def three_halls(db):
    """30 tables in 3 halls of 10, and a bye."""
    event = factories.event(teams=61, halls=HALLS)
    teams = list(event.teams.order_by("name"))
    pairs = [(teams[i], teams[i + 1]) for i in range(0, 60, 2)]
    rnd = factories.round_(event, 1, pairs, byes=[teams[60]], status="in_play")
    return event, rnd


def _homes(rnd, first, last):
    return {m.home.name for m in rnd.matches.filter(table_number__range=(first, last))}


def projector(client, event, **params):
    return client.get(f"/t/{event.slug}/projector/", params, **EN).content.decode()


def test_a_hall_screen_of_the_projector_shows_only_its_tables_and_names_the_hall(
    client, three_halls
):
    event, rnd = three_halls
    html = projector(client, event, hall=3)
    assert all(name in html for name in _homes(rnd, 11, 20))
    assert not any(name in html for name in _homes(rnd, 1, 10) | _homes(rnd, 21, 30))
    assert "Team 061" not in html  # the bye sits at no table: in no hall
    assert "B厅" in html.split("</h1>")[0]  # the screen says which hall it shows
    assert "&amp;hall=3" in html  # the next screens are read for the same hall
    assert "Tables 1–10 of 10 · screen 1 of 1" in html


def test_the_projector_lists_the_halls_with_ranges_as_screens_beside_all_tables(
    client, three_halls
):
    event, rnd = three_halls
    html = projector(client, event)
    nav = html.split('id="projector-halls"')[1].split("</nav>")[0]
    assert 'href="?hall=1"' in nav and 'href="?hall=3"' in nav and 'href="?hall=4"' in nav
    assert "?hall=2" not in nav and "休息区" not in nav  # a plain hall name has no screen
    assert "All tables" in nav and 'href="?" aria-current="page"' in nav
    assert "hall=" not in html.split("data-pairings-url=")[1].split('"')[1]
    assert all(name in html for name in _homes(rnd, 1, 30))
    unknown = projector(client, event, hall="9")  # not a hall with a range: every table
    assert all(name in unknown for name in _homes(rnd, 1, 30))
    odd = client.get(f"/t/{event.slug}/projector/", {"hall": "١", "section": "²"}, **EN)
    assert odd.status_code == 200  # digits to str.isdigit, no numbers to int: every table
    assert all(name in odd.content.decode() for name in _homes(rnd, 1, 30))


def test_a_hall_screen_pages_through_its_own_tables(client, three_halls, monkeypatch):
    event, rnd = three_halls
    monkeypatch.setattr(public_pages, "PROJECTOR_PAGE", 4)
    html = projector(client, event, hall=4)
    assert 'data-pages="3"' in html and 'data-count="10"' in html
    assert "Tables 1–4 of 10 · screen 1 of 3" in html
    assert [f"<b>{n}</b>" in html for n in range(21, 26)] == [True] * 4 + [False]
    url = html.split('data-pairings-url="')[1].split('"')[0].replace("&amp;", "&")
    last = client.get(url + "&page=3").json()  # what projector.js fetches for screen 3
    assert [row["table"] for row in last["tables"]] == [29, 30] and last["hall"] == "C厅"


def test_two_hall_screens_are_cached_apart(client, three_halls):
    event, rnd = three_halls
    first = projector(client, event, hall=1)
    second = projector(client, event, hall=3)
    assert "A厅" in first.split("</h1>")[0] and "B厅" in second.split("</h1>")[0]
    assert first != second
    assert all(name in second for name in _homes(rnd, 11, 20))
    again = client.get(f"/t/{event.slug}/projector/", {"hall": 1}, **EN)
    assert again.content.decode() == first and "ETag" in again


def test_the_public_pairings_api_filters_by_hall_counted_and_paged(client, three_halls):
    event, rnd = three_halls
    url = f"/api/tournaments/{event.slug}/public/pairings/"
    answer = client.get(url, {"hall": 3, "page_size": 4, "page": 2}).json()
    assert answer["hall"] == "B厅" and answer["count"] == 10 and answer["pages"] == 3
    assert [row["table"] for row in answer["tables"]] == [15, 16, 17, 18]
    assert answer["next"] == 3 and answer["previous"] == 1
    every = client.get(url).json()
    assert every["hall"] is None and every["count"] == 31  # 30 tables and the bye
    for garbage in ("2", "99"):  # a plain name, unknown
        unknown = client.get(url, {"hall": garbage})
        assert unknown.status_code == 200 and unknown.json()["count"] == 31
        assert unknown.json()["hall"] is None
    for garbage in ("x", "-1", "²"):  # not a number: refused, naming it (issue 31)
        refused = client.get(url, {"hall": garbage})
        assert refused.status_code == 400 and refused.json()["field"] == "hall"
    searched = client.get(url, {"hall": 1, "q": "Team 01"}).json()  # with the search
    assert {row["table"] for row in searched["tables"]} == {5, 6, 7, 8, 9, 10}


def test_a_section_and_a_hall_given_both_apply(client, db):
    from tournaments.services import rounds, stage_rounds, stage_sections

    event = factories.event(teams=12, units=4, halls="A厅 1-3\nB厅 4-6")
    who = factories.organiser_of(event)
    stage = factories.stage(event, name="预赛", num_rounds=2)
    a, b = factories.sections(stage, "A组", "B组")
    stage_sections.split_teams(stage, who, "snake")
    rnd = rounds.publish(stage_rounds.draw_round(stage, who), who, confirm_reason="test")
    url = f"/api/tournaments/{event.slug}/public/pairings/"
    both = client.get(url, {"section": a.pk, "hall": 1}).json()
    expected = set(
        rnd.matches.filter(section=a, table_number__range=(1, 3)).values_list(
            "table_number", flat=True
        )
    )
    assert expected and {row["table"] for row in both["tables"]} == expected
    assert both["count"] == len(expected) and both["section"] == "A组" and both["hall"] == "A厅"
    html = projector(client, event, section=b.pk, hall=2)
    head = html.split("</h1>")[0]
    assert "B组" in head and "B厅" in head
    assert f'href="?hall=1&amp;section={b.pk}"' in html  # a hall's link keeps the section
    assert f'href="?section={a.pk}&amp;hall=2"' in html  # a section's link keeps the hall
    shown = {m.home.name for m in rnd.matches.filter(section=b, table_number__range=(4, 6))}
    assert shown
    hidden = {m.home.name for m in rnd.matches.exclude(section=b, table_number__range=(4, 6))}
    body = html.split('id="projector-tables"')[1]
    assert all(name in body for name in shown)
    assert not any(f"{name} " in body for name in hidden - shown)
