"""The prize list and certificates: awards over the final ranking, printed in Chinese."""

from __future__ import annotations

import pytest

from tests import factories
from tests.readers import pdf_pages, pdf_text
from tournaments.exporters.base import ExportError
from tournaments.exporters.prizes import parse_awards, prize_list
from tournaments.models import AuditLog
from tournaments.services import prizes
from tournaments.standings.service import standings_for


def test_award_lines_name_and_places():
    awards = parse_awards("冠军 1\n一等奖 2-4\n\n优胜奖 5～8")
    assert [(a.name, a.first, a.last) for a in awards] == [
        ("冠军", 1, 1),
        ("一等奖", 2, 4),
        ("优胜奖", 5, 8),
    ]


@pytest.mark.parametrize("text", ["冠军", "冠军 3-1", "1-3"])
def test_bad_award_lines_are_refused_with_the_line(text):
    with pytest.raises(ExportError) as err:
        parse_awards(text)
    assert err.value.field == "awards" and "1" in err.value.message


def test_prize_list_follows_the_final_ranking(chinese_event):
    prizes.set_awards(chinese_event, factories.organiser_of(chinese_event), "冠军 1\n优胜奖 2-3")
    ranking = [row for row in standings_for(chinese_event)]
    listed = prize_list(chinese_event)
    assert [(p.award, p.team) for p in listed][:1] == [("冠军", ranking[0].name)]
    assert all(p.rank <= 3 for p in listed) and len(listed) >= 3
    assert AuditLog.objects.filter(action="tournament.awards").exists()


def test_prize_list_and_certificates_print_in_chinese(chinese_event, client):
    client.force_login(factories.organiser_of(chinese_event))
    winner = standings_for(chinese_event)[0].name
    response = client.get(f"/t/{chinese_event.slug}/export/prizes-pdf/")
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert chinese_event.name in text and winner in text and "冠军" in text
    certificates = client.get(f"/t/{chinese_event.slug}/export/certificates-pdf/")
    pages = pdf_pages(certificates.content)
    assert len(pages) == len(prize_list(chinese_event))
    assert winner in pages[0] and "荣誉证书" in pages[0].replace(" ", "")  # letter-spaced title


def test_prize_list_is_for_officials_only(chinese_event, client):
    response = client.get(f"/t/{chinese_event.slug}/export/prizes-pdf/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_prizes_page_saves_awards_and_refuses_a_bad_line(chinese_event, client):
    client.force_login(factories.organiser_of(chinese_event))
    url = f"/t/{chinese_event.slug}/manage/prizes/"
    assert client.post(url, {"awards": "冠军 1\n亚军 2"}).status_code == 302
    chinese_event.refresh_from_db()
    assert chinese_event.awards == "冠军 1\n亚军 2"
    bad = client.post(url, {"awards": "冠军"}, HTTP_ACCEPT_LANGUAGE="en")
    assert bad.status_code == 400
    chinese_event.refresh_from_db()
    assert chinese_event.awards == "冠军 1\n亚军 2"
