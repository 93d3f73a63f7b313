"""The bracket PDF of a knockout stage: Chinese round names and team names in the text,
winners and the champion, one section a page; a stage that is no knockout is refused."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests import factories
from tests.readers import download, pdf_pages, pdf_text
from tournaments.errors import ExportError
from tournaments.exporters import exports

pytestmark = pytest.mark.django_db


@pytest.fixture
def knockout():
    event = factories.event(teams=0)
    for i in range(1, 5):
        factories.team(event, f"北京{i}队", seed=i)
    stage = factories.stage(
        event,
        name="决赛阶段",
        kind="knockout",
        third_place=True,
        match_format={"end": "deals", "deals": 1},
    )
    return event, stage


def test_bracket_pdf_reads_in_chinese_with_rounds_teams_and_champion(knockout):
    event, stage = knockout
    for _ in range(2):  # semi-finals, then the final and the third-place match
        factories.play_stage_round(stage)
    with translation.override("zh-hans"):
        made = exports.render_now(event, "bracket-pdf", {"stage": str(stage.pk)})
    text = pdf_text(made.data)
    assert made.filename.endswith(f"bracket-{stage.pk}.pdf")
    for words in ("决赛阶段", "半决赛", "决赛", "三四名决赛", "北京1队", "北京4队", "冠军"):
        assert words in text, words
    assert "冠军: 北京1队" in text
    assert len(pdf_pages(made.data)) == 1


def test_bracket_pdf_needs_a_knockout_stage(knockout):
    event, _ = knockout
    swiss = factories.stage(event, name="Q", kind="swiss", num_rounds=2)
    with pytest.raises(ExportError) as err:
        exports.render_now(event, "bracket-pdf", {"stage": str(swiss.pk)})
    assert err.value.field == "stage"
    with pytest.raises(ExportError) as err:
        exports.render_now(event, "bracket-pdf", {})
    assert err.value.field == "stage"


def test_bracket_pdf_is_a_public_download(knockout, client):
    event, stage = knockout
    response = download(client, f"/t/{event.slug}/export/bracket-pdf/?stage={stage.pk}")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
