"""The prize list and certificates: awards over the final ranking, printed in Chinese."""

from __future__ import annotations

import pytest

from tests import factories
from tests.readers import download, pdf_pages, pdf_text
from tournaments.errors import ExportError
from tournaments.exporters.prizes import prize_list
from tournaments.models import AuditLog, Event
from tournaments.services import lots, prizes
from tournaments.services.awards import parse_awards
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


def _finish(event) -> None:
    Event.objects.filter(pk=event.pk).update(status=Event.Status.FINISHED)
    event.refresh_from_db()


def test_prize_list_and_certificates_print_in_chinese(chinese_event, client):
    client.force_login(factories.organiser_of(chinese_event))
    winner = standings_for(chinese_event)[0].name
    _finish(chinese_event)
    response = download(client, f"/t/{chinese_event.slug}/export/prizes-pdf/")
    assert response.status_code == 200
    text = pdf_text(response.content)
    assert chinese_event.name in text and winner in text and "冠军" in text
    assert "临时名单" not in text  # the places are final
    certificates = download(client, f"/t/{chinese_event.slug}/export/certificates-pdf/")
    pages = pdf_pages(certificates.content)
    assert len(pages) == len(prize_list(chinese_event))
    assert winner in pages[0] and "荣誉证书" in pages[0].replace(" ", "")  # letter-spaced title


def test_prize_list_is_for_officials_only(chinese_event, client):
    response = download(client, f"/t/{chinese_event.slug}/export/prizes-pdf/")
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


@pytest.mark.django_db
def test_prize_list_of_an_event_in_stages_follows_the_knockout_not_the_points():
    from tournaments.models import Round
    from tournaments.services import round_close, rounds, stage_rounds, stage_standings

    event = factories.event(teams=0)
    for i in range(1, 5):
        factories.team(event, f"S{i}", seed=i)
    final = factories.stage(
        event, name="决赛", kind="knockout", match_format={"end": "deals", "deals": 1}
    )
    who = factories.organiser_of(event)
    semis = rounds.publish(stage_rounds.draw_round(final, who), who)
    # the lower seeds win: against seed 1 by 3 levels, against seed 2 by 1 level
    for match in semis.matches.exclude(away=None):
        finish = ["S", "N", "E", "W"] if match.home.name == "S1" else ["S", "E", "W", "N"]
        factories.result(match, deals=[{"finish": finish}])
    round_close.finalise(semis, factories.chief_of(event))
    last = rounds.publish(Round.objects.get(stage=final, status=Round.Status.DRAFT), who)
    for match in last.matches.exclude(away=None):  # the final: the home side wins by 1 level
        factories.result(match, deals=[{"finish": ["E", "S", "W", "N"]}])
    round_close.finalise(last, factories.chief_of(event))

    ranking = stage_standings.event_ranking(event)
    # both semi-final losers share 3rd (no third-place match, no earlier stage), though by
    # the points S2 (lost by 1 level) stands above S1 (lost by 3)
    assert sorted((row.rank, row.name) for row in ranking[2:]) == [(3, "S1"), (3, "S2")]
    by_points = {row.name: row.rank for row in standings_for(event)}
    assert by_points["S2"] < by_points["S1"]
    # the award "Third place 3" straddles their tie: the prize list waits for lots
    with pytest.raises(ExportError) as waiting:
        prize_list(event)
    assert "S1" in waiting.value.message and "S2" in waiting.value.message
    tie = lots.prize_cut_ties(event)[0]
    assert tie.kind == lots.PRIZE and set(tie.names) == {"S1", "S2"}
    draw = lots.draw_cut(event, factories.chief_of(event), tie.teams, seed=3)
    listed = prize_list(event)
    ranking = stage_standings.event_ranking(event)
    assert [(p.rank, p.team) for p in listed] == [
        (row.rank, row.name) for row in ranking if row.rank <= 3
    ]
    assert listed[2].team == draw.names[0] and len(listed) == 3


def test_certificates_wait_for_the_event_to_finish_and_the_prize_list_says_provisional(
    chinese_event, client
):
    """Until the organiser finishes the event its places may change (a knockout still in
    play ranks every team left in it together): the prize list is marked provisional and
    certificates are refused, in the page's language, with what to do."""
    client.force_login(factories.organiser_of(chinese_event))
    assert chinese_event.status != Event.Status.FINISHED
    listed = download(client, f"/t/{chinese_event.slug}/export/prizes-pdf/")
    assert listed.status_code == 200 and "临时名单" in pdf_text(listed.content).replace(" ", "")
    refused = download(client, f"/t/{chinese_event.slug}/export/certificates-pdf/")
    assert refused.status_code == 400
    assert "荣誉证书在赛事结束后打印" in refused.content.decode()
    english = client.get(
        f"/t/{chinese_event.slug}/export/certificates-pdf/", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert english.status_code == 400 and "once the event is finished" in english.content.decode()
    page = client.get(f"/t/{chinese_event.slug}/manage/prizes/")
    assert "临时名单" in page.content.decode()
    _finish(chinese_event)
    assert download(client, f"/t/{chinese_event.slug}/export/certificates-pdf/").status_code == 200
    assert "临时名单" not in client.get(f"/t/{chinese_event.slug}/manage/prizes/").content.decode()
