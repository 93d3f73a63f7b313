"""The pages of the national text's incidents: the incident form offers 10张报牌, misplayed
combination and wrong tribute only under the national ladder and refuses them elsewhere in
Chinese and English; the proposal and the ruling show 停止一圈出牌权 and 犯规 in words."""

import pytest
from django.urls import reverse

from arbitration.models import Incident, Ruling
from arbitration.services.incidents import log_incident
from arbitration.services.rulings import rule
from tests.factories import counting_outcome, enter_result

pytestmark = pytest.mark.django_db

ZH = {"HTTP_ACCEPT_LANGUAGE": "zh-hans"}
EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


def url(name, arb, *args):
    return reverse(f"arbitration:{name}", args=[arb.event.slug, *args])


def national(arb):
    arb.event.preset, arb.event.settings = "guandan-national", {}
    arb.event.save()


def offence(arb, category="ten_card_call", **extra):
    return log_incident(
        arb.event,
        arb.chief,
        category=category,
        description="at the table",
        match=arb.match,
        team=arb.teams[0],
        **extra,
    )


def page(client, user, path, **headers):
    client.force_login(user)
    response = client.get(path, **(headers or ZH))
    assert response.status_code == 200
    return response.content.decode()


def test_incident_form_offers_the_national_categories_only_under_the_national_ladder(arb, client):
    arb.event.settings = {"in_play_ladder": None}  # Suzhou has its own ladder (issue 28)
    arb.event.save()
    text = page(client, arb.referee, url("incident-add", arb))
    assert "越序出牌" in text and "未报牌（10张报牌）" not in text
    assert 'value="wrong_tribute"' not in text and 'name="seat"' not in text
    national(arb)
    text = page(client, arb.referee, url("incident-add", arb))
    assert "未报牌（10张报牌）" in text and "出错牌型" in text
    assert "违规进贡" in text and "犯规者座位（进贡错误）" in text


@pytest.mark.parametrize(
    ("headers", "words"),
    [
        (ZH, "仅适用于全国规则"),
        (EN, "is an incident of the national rules only"),
    ],
)
def test_incident_form_refuses_a_national_category_elsewhere_in_the_pages_language(
    arb, client, headers, words
):
    client.force_login(arb.referee)
    response = client.post(
        url("incident-add", arb),
        {
            "match": arb.match.pk,
            "team": arb.teams[0].pk,
            "category": "misplayed_combination",
            "description": "no call",
            "timed": "play",
        },
        **headers,
    )
    assert response.status_code == 400
    assert words in response.content.decode()
    assert not Incident.objects.exists()


def test_national_ten_card_call_second_offence_page_proposes_violation_and_loss_of_a_round_of_play(
    arb, client
):
    national(arb)
    rule(offence(arb), arb.chief, step="verbal_warning", reason="first")
    second = offence(arb)
    text = page(client, arb.chief, url("incident", arb, second.pk))
    assert "判罚阶梯建议" in text and "记违例" in text and "停止一圈出牌权" in text
    assert '<option value="violation" selected>' in text
    client.post(
        url("incident", arb, second.pk),
        {"step": "violation", "team": arb.teams[0].pk, "levels": 1, "reason": "second"},
        **ZH,
    )
    ruling = Ruling.objects.get(incident=second)
    text = page(client, arb.chief, url("ruling", arb, ruling.pk))
    assert "记违例 · 停止一圈出牌权" in text  # the printable ruling, title and penalty
    assert 'class="in-play-step">停止一圈出牌权' in text
    text = page(client, arb.chief, url("ruling", arb, ruling.pk), **EN)
    assert "Loses a round of play (停止一圈出牌权)" in text


def test_national_third_offence_page_proposes_a_foul_and_the_ruling_shows_it(arb, client):
    national(arb)
    rule(offence(arb, "misplayed_combination"), arb.chief, step="verbal_warning", reason="1")
    rule(offence(arb, "misplayed_combination"), arb.chief, step="violation", reason="2")
    third = offence(arb, "misplayed_combination")
    text = page(client, arb.chief, url("incident", arb, third.pk))
    assert "犯规" in text.split('id="proposal"')[1].split("</p>")[0]
    [ruling] = rule(third, arb.chief, step="warning", reason="3")
    assert "警告 · 犯规" in page(client, arb.chief, url("ruling", arb, ruling.pk))
    text = page(client, arb.chief, url("incident", arb, third.pk))
    assert "犯规" in text.split('id="rulings"')[1]  # the incident's list of rulings


def test_wrong_tribute_page_names_the_deal_and_the_ruling_rescores(arb, client):
    national(arb)
    enter_result(arb)
    client.force_login(arb.referee)
    response = client.post(
        url("incident-add", arb),
        {
            "match": arb.match.pk,
            "team": arb.teams[0].pk,
            "category": "wrong_tribute",
            "description": "tributed a 9, held an ace",
            "timed": "play",
            "deal": 1,
            "seat": "W",
        },
        **ZH,
    )
    case = Incident.objects.get()
    assert response.status_code == 302 and (case.deal, case.seat) == (1, "W")
    text = page(client, arb.chief, url("incident", arb, case.pk))
    assert "第 1 副" in text and "犯规者座位: 西" in text and "该副计为下游" in text
    assert '<option value="scored_last" selected>' in text
    response = client.post(
        url("incident", arb, case.pk),
        {
            "step": "scored_last",
            "team": arb.teams[0].pk,
            "levels": 1,
            "reason": "wrong tribute",
        },
        **ZH,
    )
    ruling = Ruling.objects.get()
    assert response.status_code == 302 and counting_outcome(arb.match)["winner"] == "NS"
    text = page(client, arb.chief, url("ruling", arb, ruling.pk))
    assert "该副计为下游" in text and "第 1 副" in text and "犯规者座位 西" in text


def test_wrong_tribute_page_refuses_a_deal_not_played_in_chinese(arb, client):
    national(arb)
    enter_result(arb)
    case = offence(arb, "wrong_tribute", deal=5, seat="E")
    client.force_login(arb.chief)
    response = client.post(
        url("incident", arb, case.pk),
        {
            "step": "scored_last",
            "team": arb.teams[0].pk,
            "levels": 1,
            "reason": "wrong tribute",
        },
        **ZH,
    )
    assert response.status_code == 400
    assert "生效成绩中没有第 5 副（共 2 副）" in response.content.decode()
    assert not Ruling.objects.exists()


def test_national_incident_and_ruling_pages_keep_the_one_vocabulary(arb, client):
    """The walk of tests/test_vocabulary.py (whose demo event is not national) on these pages:
    no raw codes in Chinese (ten_card_call, round_of_play_lost, W), no Chinese left in
    English but the glosses and the data."""
    from tests.test_vocabulary import problems_in_chinese, problems_in_english, visible_text

    national(arb)
    enter_result(arb)
    rule(offence(arb), arb.chief, step="verbal_warning", reason="第一次")
    second = offence(arb)
    [round_lost] = rule(second, arb.chief, step="violation", reason="第二次")
    tribute = offence(arb, "wrong_tribute", deal=1, seat="W")
    [last] = rule(tribute, arb.chief, step="scored_last", reason="进贡错误")
    offence(arb)  # open: the third, a foul
    urls = [
        url("incident-add", arb),
        url("incident", arb, second.pk),
        url("incident", arb, tribute.pk),
        url("ruling", arb, round_lost.pk),
        url("ruling", arb, last.pk),
        url("chief", arb),
    ]
    client.force_login(arb.chief)
    data = sorted(
        {
            "第一次",
            "第二次",
            "进贡错误",
            "at the table",
            arb.event.name,
            *(t.name for t in arb.teams),
            "牌赛",
            "简体中文",
            "中文",
            "掼蛋",
        },  # the header's, as in the walk
        key=len,
        reverse=True,
    )
    found = []
    for path in urls:
        zh = client.get(path, **ZH)
        en = client.get(path, **EN)
        assert zh.status_code == en.status_code == 200, path
        found += problems_in_chinese(visible_text(zh.content), set(), {arb.event.slug})
        found += problems_in_english(visible_text(en.content), data)
    assert not found, "\n".join(found)


def test_chief_dashboard_shows_the_national_steps_of_open_incidents_in_words(arb, client):
    national(arb)
    offence(arb, "slow_play", seconds=31)  # a violation and the loss of a round of play
    text = page(client, arb.chief, url("chief", arb))
    assert "记违例 / 停止一圈出牌权" in text
