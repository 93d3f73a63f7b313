"""Printed before a round: table cards, team badges with their QR, the table-link QR sheet."""

from __future__ import annotations

from tests import factories
from tests.readers import download, pdf_pages, pdf_text
from tournaments.models import TableKey
from tournaments.services import table_keys


def test_table_cards_one_a_table_with_both_teams(chinese_event, client):
    client.force_login(factories.organiser_of(chinese_event))
    response = download(client, f"/t/{chinese_event.slug}/export/table-cards-pdf/?round=3")
    assert response.status_code == 200
    pages = pdf_pages(response.content)
    assert len(pages) == 4
    assert "1" in pages[0] and "龙城队" in pages[0] and "锡山队" in pages[0]


def test_table_cards_name_a_missing_round(chinese_event, client):
    client.force_login(factories.organiser_of(chinese_event))
    response = download(client, f"/t/{chinese_event.slug}/export/table-cards-pdf/?round=9")
    assert response.status_code == 400


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
