"""Issue 39: the team list's guard reads every XML part with a real parser (defusedxml), so
what it counts and refuses does not depend on the encoding: a worksheet re-encoded as UTF-16
(or with a byte-order mark) has its rows counted, a 30,001-row list is refused in UTF-8 and
in UTF-16 alike, a document type or an entity is refused in UTF-16 too, UTF-32 is refused by
name, a link to another workbook is refused, a zip of many parts or of a part compressed far
past any spreadsheet (a zip bomb) is refused. Each refusal names what is wrong, in English
and in Chinese."""

from __future__ import annotations

import io
import time
import zipfile

import pytest
from django.utils import translation

from tests import factories
from tournaments.models import Team
from tournaments.services import registration_import
from tournaments.services.registration_import import import_teams, in_background
from tournaments.services.registration_sheet import ImportFileError, check_import_file

NS = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
REL_NS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships"
PKG_NS = "http://schemas.openxmlformats.org/package/2006/relationships"
CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
    'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_NS}">'
    f'<Relationship Id="rId1" Type="{REL_NS}/officeDocument" Target="xl/workbook.xml"/>'
    "</Relationships>"
)
WORKBOOK = (
    f'<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="{NS}" xmlns:r="{REL_NS}">'
    '<sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WB_RELS = (
    f'<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="{PKG_NS}">'
    f'<Relationship Id="rId1" Type="{REL_NS}/worksheet" Target="worksheets/sheet1.xml"/>'
    "</Relationships>"
)
HEADER = (
    '<row r="1"><c r="A1" t="inlineStr"><is><t>队名 Team</t></is></c>'
    '<c r="B1" t="inlineStr"><is><t>队员1 Player 1</t></is></c>'
    '<c r="C1" t="inlineStr"><is><t>队员2 Player 2</t></is></c></row>'
)
LAUGHS = (
    '<!DOCTYPE lolz [<!ENTITY lol "lolololololololololo">'
    + "".join(
        f'<!ENTITY lol{n} "{f"&lol{n - 1};" * 10 if n > 1 else "&lol;" * 10}">'
        for n in range(1, 10)
    )
    + "]>"
)


def text(ref: str, value: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'


def team_rows(count: int) -> str:
    return "".join(
        f'<row r="{n}">{text(f"A{n}", f"队{n}")}{text(f"B{n}", f"甲{n}")}'
        f"{text(f'C{n}', f'乙{n}')}</row>"
        for n in range(2, count + 2)
    )


def sheet_xml(rows: str, encoding: str = "UTF-8", prolog: str = "") -> str:
    return (
        f'<?xml version="1.0" encoding="{encoding}"?>{prolog}'
        f'<worksheet xmlns="{NS}"><sheetData>{HEADER}{rows}</sheetData></worksheet>'
    )


def xlsx(sheet: bytes, extra: dict[str, bytes | str] | None = None) -> bytes:
    parts = {
        "[Content_Types].xml": CONTENT_TYPES,
        "_rels/.rels": RELS,
        "xl/workbook.xml": WORKBOOK,
        "xl/_rels/workbook.xml.rels": WB_RELS,
        "xl/worksheets/sheet1.xml": sheet,
    }
    parts |= extra or {}
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def utf16(rows: str, prolog: str = "") -> bytes:
    """The sheet as UTF-16 with its byte-order mark (as Python and Notepad write it)."""
    return sheet_xml(rows, "UTF-16", prolog).encode("utf-16")


def refusal(data: bytes) -> tuple[str, str]:
    """The refusal's words in English and in Chinese."""
    with pytest.raises(ImportFileError) as refused:
        check_import_file(data)
    assert refused.value.field == "file"
    with translation.override("en"):
        english = str(refused.value)
    with translation.override("zh-hans"):
        chinese = str(refused.value)
    assert english != chinese, english  # translated
    return english, chinese


def test_a_utf16_worksheet_has_its_rows_counted_and_imports(make_event):
    data = xlsx(utf16(team_rows(3)))
    assert check_import_file(data).rows == 4  # the header and three teams
    event = make_event(units=0)
    report = import_teams(event, factories.organiser_of(event), data)
    assert report.ok and report.created == 3, report.errors
    assert Team.objects.filter(event=event, name="队2").exists()


@pytest.mark.parametrize(
    "encoded",
    [
        lambda xml: xml.encode("utf-16-le"),  # no byte-order mark: expat reads the first bytes
        lambda xml: xml.encode("utf-16-be"),
        lambda xml: (
            b"\xef\xbb\xbf" + xml.replace('"UTF-16"', '"UTF-8"').encode("utf-8")
        ),  # UTF-8 with a byte-order mark
        lambda xml: xml.replace('"UTF-16"', '"UTF-8"').encode("utf-8"),
    ],
    ids=["utf16-le", "utf16-be", "utf8-bom", "utf8"],
)
def test_every_encoding_a_parser_reads_counts_the_same_rows(encoded):
    data = xlsx(encoded(sheet_xml(team_rows(5), "UTF-16")))
    size = check_import_file(data)
    assert (size.rows, size.cells) == (6, 18)


def test_the_background_threshold_counts_a_utf16_list(settings):
    settings.PAISAI_IMPORT_BACKGROUND_ROWS = 10
    assert in_background(check_import_file(xlsx(utf16(team_rows(11)))))
    assert not in_background(check_import_file(xlsx(utf16(team_rows(9)))))


@pytest.mark.parametrize("encoding", ["utf-8", "utf-16"])
def test_30001_rows_are_refused_in_utf8_and_in_utf16(encoding, monkeypatch):
    from tournaments.services import registration_sheet

    monkeypatch.setattr(registration_sheet, "load_workbook", lambda *a, **k: pytest.fail("parsed"))
    rows = "".join(f'<row r="{n}">{text(f"A{n}", "x")}</row>' for n in range(2, 30_003))
    data = xlsx(sheet_xml(rows, encoding.upper()).encode(encoding))
    english, chinese = refusal(data)
    assert english == (
        "The file has more than 25,000 rows; at most 25,000 teams can be imported at once."
    )
    assert "25,000" in chinese and "行" in chinese


def test_utf32_is_refused_by_name():
    xml = sheet_xml(team_rows(2), "UTF-32")
    for data in (xml.encode("utf-32"), xml.encode("utf-32-le")):
        english, chinese = refusal(xlsx(data))
        assert "xl/worksheets/sheet1.xml" in english and "UTF-32" in english
        assert "UTF-32" in chinese


@pytest.mark.parametrize(
    "sheet",
    [
        sheet_xml("", prolog='<!DOCTYPE worksheet SYSTEM "http://127.0.0.1:1/x.dtd">').encode(),
        utf16("", prolog='<!DOCTYPE worksheet SYSTEM "http://127.0.0.1:1/x.dtd">'),
        utf16(f'<row r="2">{text("A2", "&lol9;")}</row>', prolog=LAUGHS),
        sheet_xml(f'<row r="2">{text("A2", "&lol9;")}</row>', "UTF-16", LAUGHS).encode("utf-16-le"),
    ],
    ids=["dtd-utf8", "dtd-utf16", "laughs-utf16", "laughs-utf16-no-bom"],
)
def test_a_document_type_or_entity_is_refused_in_any_encoding_at_once(sheet):
    started = time.monotonic()
    english, chinese = refusal(xlsx(sheet))
    assert time.monotonic() - started < 2
    assert "xl/worksheets/sheet1.xml" in english and "<!DOCTYPE>" in english
    assert "<!DOCTYPE>" in chinese


def test_a_document_type_in_another_part_utf16_is_refused():
    strings = (
        '<?xml version="1.0" encoding="UTF-16"?><!DOCTYPE s [<!ENTITY e SYSTEM '
        f'"file:///etc/passwd">]><sst xmlns="{NS}"><si><t>&e;</t></si></sst>'
    ).encode("utf-16")
    english, _ = refusal(xlsx(sheet_xml("").encode(), {"xl/sharedStrings.xml": strings}))
    assert "xl/sharedStrings.xml" in english


def test_a_link_to_another_workbook_is_refused():
    link = (
        f'<?xml version="1.0" encoding="UTF-8"?><externalLink xmlns="{NS}">'
        '<externalBook r:id="rId1" xmlns:r="' + REL_NS + '"/></externalLink>'
    )
    data = xlsx(sheet_xml(team_rows(1)).encode(), {"xl/externalLinks/externalLink1.xml": link})
    english, chinese = refusal(data)
    assert "xl/externalLinks/externalLink1.xml" in english and "links to another file" in english
    assert "xl/externalLinks/externalLink1.xml" in chinese


def test_an_external_relationship_is_refused_but_a_hyperlink_is_not():
    def rels(kind: str) -> str:
        return (
            f'<?xml version="1.0" encoding="UTF-16"?><Relationships xmlns="{PKG_NS}">'
            f'<Relationship Id="rId9" Type="{REL_NS}/{kind}" '
            'Target="file:///C:/other.xlsx" TargetMode="External"/></Relationships>'
        ).encode("utf-16")

    sheet = sheet_xml(team_rows(1)).encode()
    english, _ = refusal(xlsx(sheet, {"xl/worksheets/_rels/sheet1.xml.rels": rels("oleObject")}))
    assert "file:///C:/other.xlsx" in english
    assert (
        check_import_file(
            xlsx(sheet, {"xl/worksheets/_rels/sheet1.xml.rels": rels("hyperlink")})
        ).rows
        == 2
    )


def test_a_zip_of_many_parts_is_refused_before_any_is_read(settings):
    settings.PAISAI_IMPORT_MAX_PARTS = 1_000
    many = {f"docProps/x{n}.xml": "<a/>" for n in range(1_001)}
    started = time.monotonic()
    english, chinese = refusal(xlsx(sheet_xml(team_rows(1)).encode(), many))
    assert time.monotonic() - started < 2
    assert english.startswith("The file holds 1,006 parts; a team list holds at most 1,000.")
    assert "1,006" in chinese


def test_a_part_compressed_past_any_spreadsheet_is_a_zip_bomb():
    bomb = b"<a>" + b" " * (20 * 1024 * 1024) + b"</a>"  # 20 MB, under the 40 MB cap
    english, chinese = refusal(xlsx(sheet_xml(team_rows(1)).encode(), {"xl/media/pad.xml": bomb}))
    assert "xl/media/pad.xml" in english and "zip bomb" in english
    assert "xl/media/pad.xml" in chinese


def test_a_spreadsheet_of_25000_teams_passes_the_ratio_check():
    """The ratio refused is far past what a real list compresses to."""
    size = check_import_file(xlsx(sheet_xml(team_rows(25_000)).encode()))
    assert size.rows == 25_001
    assert registration_import.in_background(size)


@pytest.mark.parametrize(
    "sheet",
    [
        sheet_xml("".join(f'<row r="{n}"/>' for n in range(2, 30_003)), "UTF-16").encode("utf-16"),
        utf16(f'<row r="2">{text("A2", "&lol9;")}</row>', prolog=LAUGHS),
    ],
    ids=["30001-rows-utf16", "laughs-utf16"],
)
def test_the_import_api_and_page_refuse_a_utf16_attack_at_once(event, sheet):
    """Through the API and the page, as the sweep sent them: 400 naming the file."""
    from django.test import Client

    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.raise_request_exception = False
    client.force_login(event.organiser)
    slug = event.event.slug
    data = xlsx(sheet)
    for url in (f"/api/tournaments/{slug}/teams-import/", f"/t/{slug}/manage/teams/import/"):
        upload = io.BytesIO(data)
        upload.name = "teams.xlsx"
        started = time.monotonic()
        response = client.post(url, {"file": upload, "mode": "add"})
        assert time.monotonic() - started < 5
        assert response.status_code == 400, (url, response.status_code)
        if url.startswith("/api/"):
            assert response.json()["field"] == "file"
            assert "rows" in response.json()["error"] or "DOCTYPE" in response.json()["error"]
    assert not Team.objects.filter(event=event.event, name__startswith="lol").exists()
