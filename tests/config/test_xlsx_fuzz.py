"""Issue 31: crafted .xlsx files, imported through the API and through the import page, never
answer 5xx; a file that is no spreadsheet is refused naming the file, a cell that is wrong is
refused naming its row and column; a wide file goes to the background job by its cells.

The files are written by hand (a zip of XML parts), as an attacker would: document type
declarations (an external DTD, billion laughs, one in the shared strings), text where a
number goes, numbers no column holds (1e999, NaN, 30 digits, "²"), escaped NUL and lone
surrogates (``_x0000_``, ``_xD800_``), formulas and error cells, broken zips, a zip bomb,
an OLE (encrypted or legacy) file, deep XML, too many rows, over-long names.
"""

from __future__ import annotations

import io
import zipfile
from collections import Counter

import pytest

from tests.config.test_fault_inputs import (  # the hand-written workbook of the listed cases
    CONTENT_TYPES,
    CRAFTED,
    RELS,
    SHEET_HEAD,
    WB_RELS,
    WORKBOOK,
    organiser,  # noqa: F401 - the event's organiser (and chief), logged in
    workbook,
)

pytestmark = pytest.mark.django_db

END = "</sheetData></worksheet>"


def row(cells: str, n: int = 2) -> str:
    return f'<row r="{n}">{cells}</row>'


def text(ref: str, value: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{value}</t></is></c>'


TEAM = text("A2", "T") + text("B2", "p1") + text("C2", "p2")


def sheet(*rows: str) -> bytes:
    return workbook(SHEET_HEAD + "".join(rows) + END)


def zipped(parts: dict[str, bytes | str], compression=zipfile.ZIP_DEFLATED) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", compression) as archive:
        for name, data in parts.items():
            archive.writestr(name, data)
    return buffer.getvalue()


BASE_PARTS = {
    "[Content_Types].xml": CONTENT_TYPES,
    "_rels/.rels": RELS,
    "xl/workbook.xml": WORKBOOK,
    "xl/_rels/workbook.xml.rels": WB_RELS,
}


def files() -> dict[str, bytes]:
    out = {name: workbook(xml) for name, xml in CRAFTED.items()}
    seeds = {
        "seed-superscript": text("D2", "²"),
        "seed-infinity": '<c r="D2"><v>1e999</v></c>',
        "seed-nan": '<c r="D2"><v>NaN</v></c>',
        "seed-huge": '<c r="D2"><v>999999999999999999999999999999</v></c>',
        "seed-negative": '<c r="D2"><v>-5</v></c>',
        "seed-fraction": '<c r="D2"><v>1.5</v></c>',
        "seed-text": text("D2", "first"),
    }
    for name, cell in seeds.items():
        out[name] = sheet(row(TEAM + cell))
    out |= {
        "nul-escaped": sheet(row(text("A2", "a_x0000_b") + text("B2", "p1") + text("C2", "p2"))),
        "surrogate-escaped": sheet(
            row(text("A2", "_xD800_") + text("B2", "p1") + text("C2", "p2"))
        ),
        "surrogate-player": sheet(row(text("A2", "T") + text("B2", "a_xDFFF_") + text("C2", "p2"))),
        "long-name": sheet(row(text("A2", "名" * 10_000) + text("B2", "p1") + text("C2", "p2"))),
        "formula": sheet(
            row('<c r="A2"><f>1+1</f><v>2</v></c>' + text("B2", "p1") + text("C2", "p2"))
        ),
        "error-cell": sheet(
            row('<c r="A2" t="e"><v>#DIV/0!</v></c>' + text("B2", "p") + text("C2", "q"))
        ),
        "bool-name": sheet(
            row('<c r="A2" t="b"><v>1</v></c>' + text("B2", "p1") + text("C2", "p2"))
        ),
        "negative-shared": sheet(
            row('<c r="A2" t="s"><v>-1</v></c>' + text("B2", "p") + text("C2", "q"))
        ),
        "far-column": sheet(row(TEAM + '<c r="XFD2"><v>1</v></c>')),
        "bad-reference": sheet(row('<c r="ZZZZZZ2"><v>1</v></c>' + TEAM)),
        "deep-xml": workbook(SHEET_HEAD + "<x>" * 5_000 + "</x>" * 5_000 + END),
        "too-many-rows": workbook(SHEET_HEAD + "<row/>" * 26_000 + END),
        "no-header": workbook(
            '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/'
            '2006/main"><sheetData/></worksheet>'
        ),
        "dtd-in-shared-strings": zipped(
            BASE_PARTS
            | {
                "xl/worksheets/sheet1.xml": SHEET_HEAD + END,
                "xl/sharedStrings.xml": '<?xml version="1.0"?><!DOCTYPE s [<!ENTITY e SYSTEM '
                '"file:///etc/passwd">]><sst><si><t>&e;</t></si></sst>',
            }
        ),
        "no-workbook": zipped({"xl/worksheets/sheet1.xml": SHEET_HEAD + END}),
        "no-sheets": zipped(BASE_PARTS | {"xl/workbook.xml": "<workbook/>"}),
        "zip-bomb": zipped(
            BASE_PARTS
            | {
                "xl/worksheets/sheet1.xml": SHEET_HEAD + END,
                "xl/media/zero.bin": b"\0" * (45 * 1024 * 1024),
            }
        ),
        "stored-not-deflated": zipped(
            BASE_PARTS | {"xl/worksheets/sheet1.xml": SHEET_HEAD + END}, zipfile.ZIP_STORED
        ),
        "truncated-zip": workbook(SHEET_HEAD + END)[:300],
        "not-a-zip": b"PK\x03\x04 this is no zip at all",
        "ole": b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\0" * 600,
        "empty": b"",
    }
    return out


def upload(data: bytes):
    handle = io.BytesIO(data)
    handle.name = "teams.xlsx"
    return handle


def test_crafted_xlsx_files_never_answer_5xx(organiser, event):  # noqa: F811
    slug = event.event.slug
    counts, failures = Counter(), []
    for name, data in files().items():
        api = organiser.post(f"/api/tournaments/{slug}/teams-import/", {"file": upload(data)})
        page = organiser.post(
            f"/t/{slug}/manage/teams/import/", {"file": upload(data), "mode": "add"}
        )
        for where, response in (("api", api), ("page", page)):
            counts["requests"] += 1
            counts[f"{response.status_code // 100}xx"] += 1
            if response.status_code >= 500 or b"Traceback" in response.content:
                failures.append((name, where, response.status_code))
        if api.status_code == 400:  # refused: the answer names the file, or its rows' problems
            assert api.json()["field"] == "file", (name, api.json())
    print(f"\nxlsx fuzz: {len(files())} files, {dict(counts)}")
    assert failures == [], failures


def test_a_wide_file_is_imported_by_the_background_job(organiser, event, settings):  # noqa: F811
    """Few rows, many cells: the API answers 202 with the job, the page shows the job."""
    from tournaments.models import Job

    settings.PAISAI_IMPORT_BACKGROUND_CELLS = 200
    padding = "".join(f'<c r="E{i}"><v>1</v></c>' for i in range(60))
    data = sheet(
        *(
            row(
                text(f"A{n}", f"Wide {n}")
                + text(f"B{n}", f"p{n}")
                + text(f"C{n}", f"q{n}")
                + padding,
                n,
            )
            for n in range(2, 6)
        )
    )
    slug = event.event.slug
    api = organiser.post(f"/api/tournaments/{slug}/teams-import/", {"file": upload(data)})
    assert api.status_code == 202 and Job.objects.filter(pk=api.json()["job"]).exists()
    page = organiser.post(f"/t/{slug}/manage/teams/import/", {"file": upload(data), "mode": "add"})
    assert page.status_code in (200, 302)
    assert Job.objects.filter(event=event.event).count() == 2
