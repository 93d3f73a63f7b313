"""Scoresheets: every printed label and name is there in full, in Chinese and in English."""

from __future__ import annotations

import pytest
from django.utils import translation

from tests.readers import pdf_cut_text, pdf_text
from tournaments.exporters import pdf, scoresheets, sheet_text

SHEETS = [
    scoresheets.Sheet(
        1,
        scoresheets.Side(
            "苏州市姑苏区棋牌协会一队", "苏州市姑苏区棋牌协会", ("欧阳明华", "司马秀英")
        ),
        scoresheets.Side("南京掼蛋俱乐部精英二队", "南京掼蛋俱乐部", ("诸葛伟", "上官丽")),
    )
]
EVENT = "2026 苏州掼蛋精英赛 · 第三届长三角城市邀请赛暨江苏省第十二届掼蛋公开赛"
SHEET_SET = scoresheets.SheetSet(EVENT, 3, "guandan", "苏州市体育中心", SHEETS)


def labels(game: str) -> list[str]:
    """Every label the background prints, in the active language."""
    fixed = [
        "East–West (home)",
        "North–South (away)",
        "Unit",
        "East",
        "South",
        "West",
        "North",
        "Result",
        "Winner",
        "East–West captain",
        "North–South captain",
        "Referee",
        "Time",
        "Table",
    ]
    return [translation.gettext(text) for text in fixed] + [
        str(label) for label, _width in scoresheets.GRIDS[game]
    ]


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("game", ["guandan", "tractor", "chengyu"])
def test_scoresheet_labels_are_printed_whole_and_none_is_cut(language, game):
    sheet_set = scoresheets.SheetSet(SHEET_SET.event, 3, game, SHEET_SET.venue, SHEETS)
    with translation.override(language):
        text = pdf_text(scoresheets.render_sheet_set(sheet_set))
        wanted = labels(game)
        background = scoresheets.background_html(sheet_set.header())
    missing = [label for label in [*wanted, "第三届长三角"] if label not in text]
    assert missing == [], text
    assert pdf_cut_text(background, pdf.css_text(scoresheets.CSS)) == []


def test_scoresheet_names_and_units_are_printed_whole():
    text = pdf_text(scoresheets.render_sheet_set(SHEET_SET))
    for side in (SHEETS[0].home, SHEETS[0].away):
        assert side.team in text and side.unit in text and all(p in text for p in side.players)
    # each table's text is drawn in the background's value cells (36 mm label, 54 mm value)
    for left in sheet_text.COLUMNS:
        cell = 15 + 36 if left < 105 else 15 + 36 + 54 + 36
        assert cell < left and left + sheet_text.CELL_WIDTH <= cell + 54


def test_a_cut_label_is_found():
    """The reader of the layout finds a label that runs past its cell (the defect it guards)."""
    css = "@page { size: A4; margin: 0 } td { width: 10mm; max-width: 10mm; overflow: hidden; white-space: nowrap }"
    html = "<table style='table-layout: fixed; width: 10mm'><tr><td>North–South (away)</td></tr></table>"
    assert pdf_cut_text(html, css) == ["North–South (away)"]
