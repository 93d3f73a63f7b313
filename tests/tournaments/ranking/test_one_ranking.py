"""One official ranking, asked everywhere (issue 35, SPEC §2 "the official ranking of an
event (the one every page, export, API answer, prize list and certificate shows as final)").

Every page, API endpoint and exporter that shows a ranking is listed below (``SHOWN``) and
compared, place by place, with ``stage_standings.official_standings`` on a staged event
(Swiss into knockout, tests/tournaments/ranking/staged.py): with the default
"earlier_stage" places (the quarter-final losers ranked by the Swiss, their summed points
running the other way), and with shared places, a prize-band lot pending, then drawn. The
list is checked against the exporter registry and the URL names, so a new one cannot be
missed: each is either compared here or named, with the reason, in ``NOT_A_RANKING``.
"""

from __future__ import annotations

import json
import re

import pytest
from django.urls import get_resolver
from django.utils import translation

from tests import factories
from tests.readers import pdf_pages, pdf_text, workbook
from tests.tournaments.ranking.staged import staged_event
from tournaments.errors import ExportError
from tournaments.exporters import exporters, exports
from tournaments.models import Round
from tournaments.services import events, lots, prizes, stage_standings
from tournaments.standings.service import standings_for

pytestmark = pytest.mark.django_db

AWARDS = "冠军 1\n亚军 2\n季军 3\n殿军 4\n优胜奖 5-6"

# what shows a ranking: (kind, name) -> how the test reads it (see the readers below)
SHOWN = {
    ("page", "tournaments:manage-standings"): "organiser's 排名 page (and ?after_round=)",
    ("page", "tournaments:stages"): "organiser's stage list: final ranking",
    ("page", "tournaments:public-standings"): "public standings, default tab",
    ("page", "tournaments:public-team"): "public team page: rank after each round",
    ("page", "tournaments:round"): "round page: each team's place before the round",
    ("page", "tournaments:prizes"): "prize page: places of the awards",
    ("api", "standings-api"): "GET /api/tournaments/<e>/standings/ (and ?after_round=)",
    ("api", "event-ranking"): "GET /api/tournaments/<e>/ranking/",
    ("api", "public-standings"): "GET /api/tournaments/<e>/public/standings/",
    ("export", "standings-xlsx"): "every sheet: each round's, the knockout's, 最终",
    ("export", "standings-pdf"): "current and after a round",
    ("export", "prizes-pdf"): "prize list",
    ("export", "certificates-pdf"): "certificates",
    ("export", "event-file"): "the event file (.paisai.json): its official_ranking",
}
# shown elsewhere, but not the event's ranking of teams (each with the reason)
NOT_A_RANKING = {
    ("export", "units-xlsx"): "the units' ranking (best N teams a unit), not teams'",
    ("export", "units-pdf"): "the units' ranking, not teams'",
    ("page", "tournaments:public-units"): "the units' ranking, not teams'",
    ("api", "public-units"): "the units' ranking, not teams'",
    ("export", "pairings-pdf"): "a round's tables, no places",
    ("export", "pairings-xlsx"): "a round's tables, no places",
    ("export", "scoresheets"): "blank scoresheets",
    ("export", "archive"): "the event file: results and lots, no places",
    ("export", "table-cards-pdf"): "table cards",
    ("export", "team-badges-pdf"): "team QR badges",
    ("export", "table-links-pdf"): "table links",
    ("export", "bracket-pdf"): "the knockout's bracket (who met whom), no places",
    ("api", "stage-standings"): "one stage's own ranking, labelled as for reference",
    ("page", "tournaments:stage"): "one stage's own ranking, labelled as for reference",
    ("page", "tournaments:draw-lots"): "POST only: draws lots",
    ("page", "tournaments:draw-cut-lots"): "POST only: draws lots",
}


def url_names(namespace: str = "") -> set[str]:
    """Every URL name, with its namespace (tournaments:…) where it has one."""
    found = set()

    def walk(resolver, prefix):
        for pattern in resolver.url_patterns:
            if hasattr(pattern, "url_patterns"):
                space = f"{pattern.namespace}:" if pattern.namespace else ""
                walk(pattern, prefix + space)
            elif pattern.name:
                found.add(prefix + pattern.name)

    walk(get_resolver(), namespace)
    return found


def test_the_list_of_rankings_covers_every_exporter_and_every_ranking_url():
    listed = {name for kind, name in SHOWN | NOT_A_RANKING if kind == "export"}
    assert listed == set(exporters()), "a new exporter: compare it here or say why not"
    wanted = {
        name
        for name in url_names()
        if not name.startswith("admin:")
        and re.search(r"standings|ranking|prize|units", name)
        and "export" not in name
    }
    listed = {name for kind, name in SHOWN | NOT_A_RANKING if kind in ("page", "api")}
    assert wanted <= listed, f"not listed: {sorted(wanted - listed)}"


# --- what each shows, as (name, place, shared) best first ---------------------------------

Place = tuple[str, int, bool]


def official(event, after_round=None) -> list[Place]:
    return [
        (row.name, row.rank, row.shared)
        for row in stage_standings.official_standings(event, after_round)
    ]


def html(client, path) -> str:
    response = client.get(path)
    assert response.status_code == 200, path
    return response.content.decode()


def table_rows(page: str, table_id: str) -> list[Place]:
    """(name, place, shared) of each body row of the table ``table_id``: the place is the
    first cell ("5" or "5="), the name the second cell's text before any tag inside it."""
    body = page.split(f'id="{table_id}"', 1)[1].split("</table>", 1)[0]
    body = body.split("<tbody>", 1)[1]
    found = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, flags=re.S):
        cells = re.findall(r"<td[^>]*>(.*?)</td>", row, flags=re.S)
        if len(cells) < 2:
            continue
        place = re.sub(r"<[^>]+>", "", cells[0]).strip()
        name = re.sub(r"<[^>]+>", "", re.split(r"<span|<div", cells[1])[0]).strip()
        if place == "—":  # 未参赛: no place
            found.append((name, None, False))
        else:
            found.append((name, int(place.rstrip("=")), place.endswith("=")))
    return found


def names_in(text: str) -> list[str]:
    found = []
    for name in re.findall(r"\bT\d\d\b", text):
        if not found or found[-1] != name:
            found.append(name)
    return found


def by_places(rows) -> list[Place]:
    """Places where a file shows no "=": a place is shared when the next or the previous
    row has the same number."""
    rows = list(rows)
    out = []
    for index, (name, rank) in enumerate(rows):
        near = [rows[i][1] for i in (index - 1, index + 1) if 0 <= i < len(rows)]
        out.append((name, rank, rank is not None and rank in near))
    return out


def sheet_places(sheet) -> list[Place]:
    rows = [row for row in sheet.iter_rows(min_row=4, values_only=True) if row[1] is not None]
    return by_places((row[1], row[0]) for row in rows)


def sheet_figures_of_knockout_rows(sheet, event) -> list:
    """The points and tiebreak cells of the rows a knockout placed (blank, SPEC: a
    knockout's place is its bracket's)."""
    knockout = {row.name for row in stage_standings.official_standings(event) if row.knockout}
    header = [cell for cell in next(sheet.iter_rows(min_row=3, max_row=3, values_only=True))]
    first = header.index("Points")
    return [
        value
        for row in sheet.iter_rows(min_row=4, values_only=True)
        if row[1] in knockout
        for value in row[first:-1]
        if value is not None
    ]


def shown_everywhere(s, client, api) -> dict[str, list[Place]]:
    """Each ranking as its page, API answer or file shows it (the final one)."""
    event = s.event
    slug = event.slug
    client.force_login(s.organiser)
    shown = {
        "manage-standings": table_rows(html(client, f"/t/{slug}/manage/standings/"), "standings"),
        "stages": table_rows(html(client, f"/t/{slug}/manage/stages/"), "final-ranking"),
        "public-standings": table_rows(html(client, f"/t/{slug}/standings/"), "standings"),
    }
    body = api.get(f"/api/tournaments/{slug}/standings/").json()
    shown["standings-api"] = [(r["name"], r["rank"], r["shared"]) for r in body["rows"]]
    body = api.get(f"/api/tournaments/{slug}/ranking/").json()
    shown["event-ranking"] = [(r["name"], r["rank"], r["shared"]) for r in body]
    body = api.get(f"/api/tournaments/{slug}/public/standings/?size=100").json()
    shown["public-standings-api"] = [(r["name"], r["rank"], r["shared"]) for r in body["results"]]
    with translation.override("en"):
        book = workbook(exports.render_now(event, "standings-xlsx").data)
    assert book.worksheets[-1].title == "Final"
    shown["xlsx Final"] = sheet_places(book.worksheets[-1])
    assert sheet_figures_of_knockout_rows(book.worksheets[-1], event) == []
    text = pdf_text(exports.render_now(event, "standings-pdf").data)
    shown["standings-pdf (names)"] = names_in(text)
    data = json.loads(exports.render_now(event, "event-file").data)
    names = {team["id"]: team["name"] for team in data["teams"]}
    shown["event-file"] = [
        (names[row["team"]], row["rank"], row["shared"]) for row in data["official_ranking"]
    ]
    return shown


def assert_agrees(s, client, api):
    event = s.event
    wanted = official(event)
    assert [name for name, *_ in wanted][:4] == [
        event.teams.get(pk=group[0]).name for group in stage_standings.stage_groups(s.knockout)[:4]
    ]
    for where, places in shown_everywhere(s, client, api).items():
        if where.endswith("(names)"):
            assert places == [name for name, *_ in wanted], where
        else:
            assert places == wanted, where

    # each round's sheet, and the standings after a knockout round, as they stood then
    with translation.override("en"):
        book = workbook(exports.render_now(event, "standings-xlsx").data)
    numbers = list(
        event.rounds.filter(status=Round.Status.FINALISED)
        .order_by("number")
        .values_list("number", flat=True)
    )
    assert len(book.worksheets) == len(numbers) + 1
    for number, sheet in zip(numbers, book.worksheets, strict=False):
        assert sheet_places(sheet) == official(event, number), sheet.title
    quarter = s.quarter.number
    path = f"/t/{event.slug}/manage/standings/?after_round={quarter}"
    assert table_rows(html(client, path), "standings") == official(event, quarter)
    body = api.get(f"/api/tournaments/{event.slug}/standings/?after_round={quarter}").json()
    assert [(r["name"], r["rank"], r["shared"]) for r in body["rows"]] == official(event, quarter)
    text = pdf_text(exports.render_now(event, "standings-pdf", {"after_round": quarter}).data)
    assert names_in(text) == [name for name, *_ in official(event, quarter)]

    # the round page's places before the last round; each team page's place after each round
    last = s.last
    page = client.get(f"/t/{event.slug}/manage/rounds/{last.number}/")
    before = {row[0]: row[1] for row in official(event, last.number - 1)}
    for match in page.context["tables"]:
        assert match.home_place.rank == before[match.home.name]
        assert match.away_place.rank == before[match.away.name]
    after = {n: {name: rank for name, rank, _ in official(event, n)} for n in numbers}
    for name, _rank, _shared in wanted:
        team = event.teams.get(name=name)
        page = client.get(f"/t/{event.slug}/teams/{team.pk}/")
        for row in page.context["history"]:  # the rounds the team played
            assert row["rank"] == after[row["round"]][name], (name, row["round"])

    # the prize list: the awards' places are the official ones; ties at a band's line wait
    ranks = {name: rank for name, rank, _ in wanted}
    held = {name for tie in lots.prize_cut_ties(event) for name in tie.names}
    listed = table_rows_prizes(html(client, f"/t/{event.slug}/manage/prizes/"))
    assert listed == [
        (name, rank)
        for name, rank, _ in wanted
        if rank is not None and rank <= 6 and name not in held
    ]
    assert all(ranks[name] == rank for name, rank in listed)
    prize_text = pdf_text(exports.render_now(event, "prizes-pdf").data)
    table = re.split(r"奖项 名次|Award Rank", prize_text, maxsplit=1)[1]  # after the waiting note
    assert names_in(table) == [name for name, _ in listed]
    return listed, held


def table_rows_prizes(page: str) -> list[tuple[str, int]]:
    body = page.split('id="prizes"', 1)[1].split("</table>", 1)[0].split("<tbody>", 1)[1]
    found = []
    for row in re.findall(r"<tr>(.*?)</tr>", body, flags=re.S):
        cells = [re.sub(r"<[^>]+>", "", c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", row)]
        if len(cells) >= 3 and cells[1].isdigit():
            found.append((cells[2], int(cells[1])))
    return found


def test_every_ranking_shown_is_the_official_one_with_knockout_places_from_the_swiss(
    client, api, media
):
    s = staged_event("earlier_stage")
    prizes.set_awards(s.event, s.organiser, AWARDS)
    # the scenario: the quarter-final losers' summed points run against their places
    summed = [row.name for row in standings_for(s.event)]
    assert summed != [name for name, *_ in official(s.event)]
    assert lots.prize_cut_ties(s.event) == []
    assert_agrees(s, client, api)
    events.finish(s.event, s.organiser)
    s.event.refresh_from_db()
    pages = pdf_pages(exports.render_now(s.event, "certificates-pdf").data)
    assert [names_in(page)[0] for page in pages] == [
        n for n, r, _ in official(s.event) if r is not None and r <= 6
    ]


def test_every_ranking_shown_is_the_official_one_with_a_prize_lot_pending_then_drawn(
    client, api, media
):
    s = staged_event("shared")
    event = s.event
    prizes.set_awards(event, s.organiser, AWARDS)
    # the quarter-final losers share 5th: the band 5-6 waits for lots among the four
    places = official(event)
    assert [(rank, shared) for _n, rank, shared in places[4:8]] == [(5, True)] * 4
    ties = lots.prize_cut_ties(event)
    assert len(ties) == 1 and len(ties[0].teams) == 4

    listed, held = assert_agrees(s, client, api)
    assert len(held) == 4 and [rank for _n, rank in listed] == [1, 2, 3, 4]
    page = html(client, f"/t/{event.slug}/manage/prizes/")
    assert "积分榜为空" not in page and "the standings are empty" not in page
    assert 'id="prizes-waiting"' in page and all(name in page for name in held)
    events.finish(event, s.organiser)
    event.refresh_from_db()
    with pytest.raises(ExportError) as refused:
        exports.render_now(event, "certificates-pdf")
    assert all(name in refused.value.message for name in held)

    # the chief draws the lot: every ranking splits the four in the drawn order
    draw = lots.draw_cut(event, s.chief, ties[0].teams, seed=11)
    places = official(event)
    assert [name for name, *_ in places[4:8]] == list(draw.names)
    assert [rank for _n, rank, _s in places[4:8]] == [5, 6, 7, 8]
    listed, held = assert_agrees(s, client, api)
    assert held == set() and [rank for _n, rank in listed] == [1, 2, 3, 4, 5, 6]
    pages = pdf_pages(exports.render_now(event, "certificates-pdf").data)
    assert [names_in(page)[0] for page in pages] == [name for name, _ in listed]
    assert factories.chief_of(event) == s.chief


CHENGYU_WIN = [
    {"tricks": {"EW": 8, "NS": 5}},
    {"tricks": {"EW": 7, "NS": 6}},
    {"tricks": {"EW": 6, "NS": 7}},
]


def test_an_idiom_chain_event_shows_a_drawn_prize_lot_on_every_ranking(client, api, media):
    # issue 35: after the prize-band lot was drawn the organiser's page and the standings
    # API still showed 1= (the idiom-chain order has no draw-lots tiebreak of its own)
    event = factories.event(teams=4, game="chengyu")
    a, b, c, d = event.teams.order_by("name")
    factories.played_round(event, 1, [(a, b), (c, d)], deals=CHENGYU_WIN)
    who = factories.organiser_of(event)
    prizes.set_awards(event, who, "冠军 1\n亚军 2")
    [tie] = lots.prize_cut_ties(event)
    assert set(tie.teams) == {a.pk, c.pk}
    assert [(rank, shared) for _n, rank, shared in official(event)][:2] == [(1, True)] * 2
    lots.draw_cut(event, factories.chief_of(event), tie.teams, seed=5)
    wanted = official(event)
    assert [(rank, shared) for _n, rank, shared in wanted][:2] == [(1, False), (2, False)]
    client.force_login(who)
    assert table_rows(html(client, f"/t/{event.slug}/manage/standings/"), "standings") == wanted
    assert table_rows(html(client, f"/t/{event.slug}/standings/"), "standings") == wanted
    body = api.get(f"/api/tournaments/{event.slug}/standings/").json()
    assert [(r["name"], r["rank"], r["shared"]) for r in body["rows"]] == wanted
    with translation.override("en"):
        book = workbook(exports.render_now(event, "standings-xlsx").data)
    assert sheet_places(book.worksheets[-1]) == wanted
    assert [p[:2] for p in table_rows_prizes(html(client, f"/t/{event.slug}/manage/prizes/"))] == [
        (name, rank) for name, rank, _ in wanted[:2]
    ]
