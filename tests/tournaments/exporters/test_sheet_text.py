"""Each scoresheet's own text drawn without WeasyPrint's page layout (exporters/sheet_text.py):
the same words at the same places as the print stylesheet puts them."""

from __future__ import annotations

import io

from pypdf import PdfReader

from tests.readers import pdf_pages
from tournaments.exporters import scoresheets, sheet_text
from tournaments.exporters.scoresheets import Sheet, Side

SHEET = Sheet(
    27,
    Side("龙城掼蛋一队 Dragons", "苏州市体育总会", ("张卫军", "Li Wei")),
    Side("姑苏牌友队", "无锡市棋牌协会", ("赵敏", "王小二")),
)


def _placed(data: bytes, wanted: set[str]) -> dict[str, tuple[float, float]]:
    """Where each wanted string starts on the first page (x, baseline y in pt)."""
    found: dict[str, tuple[float, float]] = {}

    def visit(text, cm, tm, font, size):
        text = text.strip()
        if text in wanted and text not in found:
            x = cm[0] * tm[4] + cm[2] * tm[5] + cm[4]
            y = cm[1] * tm[4] + cm[3] * tm[5] + cm[5]
            found[text] = (x, y)

    PdfReader(io.BytesIO(data)).pages[0].extract_text(visitor_text=visit)
    return found


def test_sheet_text_stands_where_the_print_stylesheet_puts_it():
    header = scoresheets.SheetSet("赛事", 3, "guandan").header()
    plain = scoresheets.plain_pdf(header, [SHEET])
    drawn = sheet_text.render([SHEET], scoresheets.CSS)
    wanted = {text for _box, text in sheet_text.boxes_of(SHEET)}
    expected, placed = _placed(plain, wanted), _placed(drawn, wanted)
    assert set(placed) == wanted and set(expected) == wanted
    for text in wanted:
        (x0, y0), (x1, y1) = expected[text], placed[text]
        assert abs(x0 - x1) < 1.0 and abs(y0 - y1) < 1.0, (text, expected[text], placed[text])


def test_sheet_text_is_extracted_back_in_chinese_one_page_per_sheet():
    other = Sheet(28, Side("甲队", "", ("甲一", "甲二")), Side("乙队", "乙单位", ("乙一", "乙二")))
    pages = pdf_pages(sheet_text.render([SHEET, other], scoresheets.CSS))
    assert len(pages) == 2
    for word in ("27", "龙城掼蛋一队 Dragons", "张卫军", "Li Wei", "无锡市棋牌协会"):
        assert word in pages[0]
    assert "乙单位" in pages[1] and "龙城" not in pages[1]


def test_a_name_too_long_for_its_cell_is_set_smaller_to_fit_not_cut():
    long_name = "江苏省苏州市吴中区木渎镇掼蛋协会第一代表队"
    box, _text = next((b, t) for b, t in sheet_text.boxes_of(SHEET) if t == SHEET.home.team)
    writer_fonts = sheet_text.render([Sheet(1, Side(long_name), Side("短"))], scoresheets.CSS)
    sizes = []

    def visit(text, cm, tm, font, size):
        if text.strip() == long_name:
            sizes.append(size)

    PdfReader(io.BytesIO(writer_fonts)).pages[0].extract_text(visitor_text=visit)
    assert sizes and sizes[0] < box.style.size  # shrunk: 21 characters of 11 pt are 81 mm
    assert sizes[0] * len(long_name) <= box.width * sheet_text.MM + 0.5
