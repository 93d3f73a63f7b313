"""Printed before a round: table cards, team badges with their QR, the table-link QR sheet."""

from __future__ import annotations

from tests import factories
from tests.readers import download, pdf_pages, pdf_text
from tournaments.exporters import printables
from tournaments.exporters.qr import qr_matrix
from tournaments.models import Match, TableKey
from tournaments.services import table_keys


def test_table_cards_one_a_table_with_both_teams(chinese_event, client):
    client.force_login(factories.organiser_of(chinese_event))
    response = download(client, f"/t/{chinese_event.slug}/export/table-cards-pdf/?round=3")
    assert response.status_code == 200
    pages = pdf_pages(response.content)
    assert len(pages) == 4
    assert "1" in pages[0] and "龙城队" in pages[0] and "锡山队" in pages[0]


def test_rule_each_table_card_carries_the_qr_of_its_tables_public_pairing(
    chinese_event, client, settings, monkeypatch
):
    """The README promised QR codes on table cards (issue 35): each card's QR opens the public
    pairings at that table (the match and its result for players and spectators), never the
    table's private link."""
    settings.PAISAI_PUBLIC_URL = "https://paisai.example"
    drawn = []
    real = printables.qr_drawing
    monkeypatch.setattr(
        printables, "qr_drawing", lambda url, *args: drawn.append(url) or real(url, *args)
    )
    client.force_login(factories.organiser_of(chinese_event))
    response = download(client, f"/t/{chinese_event.slug}/export/table-cards-pdf/?round=3")
    assert response.status_code == 200
    base = f"https://paisai.example/t/{chinese_event.slug}/pairings/?round=3&q="
    assert drawn == [f"{base}{n}" for n in range(1, 5)]
    assert not [url for url in drawn if "/table/" in url]
    page = client.get(drawn[0].removeprefix("https://paisai.example")).content.decode()
    assert "龙城队" in page and "锡山队" in page  # table 1's teams, and only table 1's
    match = Match.objects.get(round__event=chinese_event, round__number=3, table_number=2)
    assert match.home.name not in page and match.away.name not in page


def test_table_cards_name_a_missing_round(chinese_event, client):
    client.force_login(factories.organiser_of(chinese_event))
    response = download(client, f"/t/{chinese_event.slug}/export/table-cards-pdf/?round=9")
    assert response.status_code == 404  # no such round: nothing to make (issue 39)


def test_team_badges_carry_each_team_and_its_check_in_link(chinese_event, client, settings):
    settings.PAISAI_PUBLIC_URL = "https://paisai.example"
    client.force_login(factories.organiser_of(chinese_event))
    text = pdf_text(download(client, f"/t/{chinese_event.slug}/export/team-badges-pdf/").content)
    for name in factories.CHINESE_NAMES:
        assert name in text
    assert "https://paisai.example/t/suzhou-open/manage/checkin/team/" in text.replace("\n", "")


def test_every_table_gets_a_link_in_one_click_and_the_qr_sheet_lists_them(chinese_event, client):
    organiser = factories.organiser_of(chinese_event)
    client.force_login(organiser)
    response = client.post(f"/t/{chinese_event.slug}/manage/tables/keys/", {"all": "1"})
    assert response.status_code == 302
    assert sorted(TableKey.objects.values_list("table_number", flat=True)) == [1, 2, 3, 4]
    assert table_keys.issue_missing(chinese_event, organiser) == []  # nothing left to issue
    pages = pdf_text(download(client, f"/t/{chinese_event.slug}/export/table-links-pdf/").content)
    assert all(f"/table/{key.key}" in pages.replace("\n", "") for key in TableKey.objects.all())


def test_printables_are_for_officials_only(chinese_event, client):
    for name in ("table-cards-pdf/?round=3", "team-badges-pdf/", "table-links-pdf/"):
        response = download(client, f"/t/{chinese_event.slug}/export/{name}")
        assert response.status_code == 302, name


def test_a_qr_is_drawn_module_for_module():
    """The badge's QR is drawn as rectangles, one a run of dark modules: reading them back
    gives the code's matrix exactly (quiet zone included)."""
    url = "https://paisai.example/t/suzhou-open/manage/checkin/team/42/"
    matrix = qr_matrix(url)
    count = len(matrix)
    drawn = [[False] * count for _ in range(count)]
    for op in printables.qr_drawing(url, 10, 10, 30, 842).splitlines():
        parts = op.split()
        if len(parts) == 5 and parts[-1] == "re":
            x, y, width = int(parts[0]), int(parts[1]), int(parts[2])
            for column in range(x, x + width):
                drawn[count - 1 - y][column] = True
    assert drawn == matrix


def test_badges_in_several_chunks_fill_whole_pages_in_order(chinese_event, settings):
    """A chunk is whole pages (10 badges): asked for chunks of 3, the job renders 10."""
    from tournaments.exporters import exports

    settings.PAISAI_EXPORT_CHUNK = 3
    exporter = exports.make_exporter(chinese_event, "team-badges-pdf")
    assert exports.chunk_size(exporter) == printables.PER_PAGE
    extra = [factories.team(chinese_event, f"新队{n}", unit="苏州") for n in range(5)]
    assert exporter.item_count() == 13
    parts = [exporter.render_chunk(0, 10), exporter.render_chunk(10, 13)]
    pages = pdf_pages(exporter.assemble(parts))
    assert len(pages) == 2
    assert all(team.name in pages[1] or team.name in pages[0] for team in extra)
    assert sum(page.count("/manage/checkin/team/") for page in pages) == 13
