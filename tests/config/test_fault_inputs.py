"""Issue 31: each input that answered 500 in the production sweep now answers 4xx.

Anonymous: a superscript digit in a query, NUL in a path, an over-long or NUL username at
login and in Basic auth. Logged in: a lone surrogate in a choice field, JSON 1e999 in an id
field, "²" in board, attendance and audit fields, num_rounds past its column on the settings
form, malformed .xlsx files, GET on the seated action.
"""

from __future__ import annotations

import base64
import io
import json
import zipfile

import pytest
from django.test import Client

from tournaments.models import Event, TableKey

pytestmark = pytest.mark.django_db


@pytest.fixture
def anonymous():
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.raise_request_exception = False
    return client


@pytest.fixture
def organiser(event):
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.raise_request_exception = False
    for role in ("chief_referee", "table_referee"):
        from tests.factories import grant

        grant(event.organiser, event.event, role)
    client.force_login(event.organiser)
    return client


def assert_4xx(response, where: str) -> None:
    assert 400 <= response.status_code < 500 or response.status_code in (200, 302), (
        where,
        response.status_code,
        response.content[:300],
    )


def test_a_superscript_digit_as_the_round_of_the_results_page_is_no_500(anonymous, event):
    response = anonymous.get(f"/t/{event.event.slug}/results/", {"round": "²"})
    assert response.status_code == 200


@pytest.mark.parametrize(
    "path", ["/table/a%00b/", "/api/table/a%00b/", "/api/tournaments/a%00b/", "/t/a%00b/"]
)
def test_a_nul_in_a_path_answers_400(anonymous, path):
    response = anonymous.get(path)
    assert response.status_code in (400, 404), response.content[:200]


@pytest.mark.parametrize("username", ["u" * 300, "a\x00b"])
def test_a_login_with_an_impossible_username_is_refused_not_500(anonymous, username):
    response = anonymous.post("/accounts/login/", {"username": username, "password": "x"})
    assert response.status_code in (200, 400, 403, 429), response.content[:200]
    token = base64.b64encode(f"{username}:pw".encode("utf-8", "surrogatepass")).decode()
    answer = anonymous.get("/api/tournaments/", HTTP_AUTHORIZATION=f"Basic {token}")
    assert answer.status_code in (400, 401, 403), answer.content[:200]


def test_a_lone_surrogate_in_a_json_choice_field_answers_400(organiser, event):
    body = '{"role": "\\ud800", "username": "org"}'
    response = organiser.post(
        f"/api/tournaments/{event.event.slug}/roles/", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]
    body = '{"status": "\\ud800"}'
    url = f"/api/tournaments/{event.event.slug}/teams/{event.teams[0].pk}/"
    response = organiser.patch(url, body, content_type="application/json")
    assert response.status_code == 400, response.content[:300]


def test_json_1e999_in_an_id_field_answers_400(organiser, event):
    slug = event.event.slug
    body = '{"username": "org", "role": "captain", "team": 1e999}'
    response = organiser.post(
        f"/api/tournaments/{slug}/roles/", body, content_type="application/json"
    )
    assert response.status_code == 400, response.content[:300]


def test_a_superscript_digit_in_board_attendance_and_audit_fields_is_no_500(organiser, event):
    slug, number = event.event.slug, event.round.number
    manage = f"/t/{slug}/manage/"
    answers = [
        organiser.get(f"{manage}rounds/{number}/board/", {"from": "²", "to": "³"}),
        organiser.post(f"{manage}rounds/{number}/board/", {"call": "²", "match": "²"}),
        organiser.post(
            f"{manage}rounds/{number}/board/", {"action": "x", "match": ["²", "9" * 30]}
        ),
        organiser.post(f"{manage}rounds/{number}/attendance/", {"team": ["²"], "match": ["²"]}),
        organiser.get(f"{manage}audit/", {"table": "²", "team": "²", "page": "²"}),
        organiser.get(f"{manage}audit/", {"table": "9" * 30}),
    ]
    for answer in answers:
        assert answer.status_code < 500, (answer.status_code, answer.content[:300])


def test_num_rounds_past_its_column_on_the_settings_form_names_the_field(organiser, event):
    from tournaments.forms_settings import EventSettingsForm

    form = EventSettingsForm(instance=event.event)
    data = {name: form[name].value() for name in form.fields}
    data = {k: ("" if v is None else v) for k, v in data.items() if not isinstance(v, bool) or v}
    data["num_rounds"] = "40000"
    response = organiser.post(f"/t/{event.event.slug}/manage/settings/", data)
    assert response.status_code in (200, 400), response.content[:300]
    assert "num_rounds" in response.content.decode() or "rounds" in response.content.decode()


def test_get_on_the_seated_action_redirects(organiser, event):
    slug = event.event.slug
    response = organiser.get(f"/t/{slug}/manage/rounds/1/tables/1/seated/")
    assert response.status_code == 302


# --- crafted .xlsx -------------------------------------------------------------------------

CONTENT_TYPES = (
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
    '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.'
    'relationships+xml"/><Default Extension="xml" ContentType="application/xml"/>'
    '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-'
    'officedocument.spreadsheetml.sheet.main+xml"/>'
    '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.'
    'openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>'
)
RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats'
    '.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships/officeDocument" '
    'Target="xl/workbook.xml"/></Relationships>'
)
WORKBOOK = (
    '<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/'
    'spreadsheetml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
    'relationships"><sheets><sheet name="S" sheetId="1" r:id="rId1"/></sheets></workbook>'
)
WB_RELS = (
    '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats'
    '.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.'
    'openxmlformats.org/officeDocument/2006/relationships/worksheet" '
    'Target="worksheets/sheet1.xml"/></Relationships>'
)
SHEET_HEAD = (
    '<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
    '<row r="1"><c r="A1" t="inlineStr"><is><t>team</t></is></c>'
    '<c r="B1" t="inlineStr"><is><t>player1</t></is></c>'
    '<c r="C1" t="inlineStr"><is><t>player2</t></is></c>'
    '<c r="D1" t="inlineStr"><is><t>seed</t></is></c></row>'
)


def workbook(sheet: str) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("[Content_Types].xml", CONTENT_TYPES)
        archive.writestr("_rels/.rels", RELS)
        archive.writestr("xl/workbook.xml", WORKBOOK)
        archive.writestr("xl/_rels/workbook.xml.rels", WB_RELS)
        archive.writestr("xl/worksheets/sheet1.xml", sheet)
    return buffer.getvalue()


LAUGHS = (
    '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">'
    '<!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">'
    '<!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>'
)
CRAFTED = {
    "dtd": '<?xml version="1.0"?><!DOCTYPE worksheet SYSTEM "http://127.0.0.1:1/x.dtd">'
    + SHEET_HEAD
    + "</sheetData></worksheet>",
    "billion-laughs": LAUGHS
    + SHEET_HEAD
    + '<row r="2"><c r="A2" t="inlineStr"><is><t>&lol3;</t></is></c></row></sheetData></worksheet>',
    "text-in-a-number": SHEET_HEAD
    + '<row r="2"><c r="A2" t="inlineStr"><is><t>T</t></is></c><c r="B2"><v>abc</v></c>'
    "</row></sheetData></worksheet>",
    "bad-date": SHEET_HEAD
    + '<row r="2"><c r="A2" t="d"><v>not a date</v></c></row></sheetData></worksheet>',
    "bad-bool": SHEET_HEAD
    + '<row r="2"><c r="A2" t="b"><v>maybe</v></c></row></sheetData></worksheet>',
    "bad-shared-string": SHEET_HEAD
    + '<row r="2"><c r="A2" t="s"><v>999</v></c></row></sheetData></worksheet>',
    "bad-xml": SHEET_HEAD + "<row r=",
}


@pytest.mark.parametrize("kind", sorted(CRAFTED))
def test_a_crafted_xlsx_is_not_an_xlsx_not_a_500(organiser, event, kind):
    data = workbook(CRAFTED[kind])
    slug = event.event.slug
    upload = io.BytesIO(data)
    upload.name = "teams.xlsx"
    response = organiser.post(f"/api/tournaments/{slug}/teams-import/", {"file": upload})
    assert response.status_code == 400, (kind, response.status_code, response.content[:300])
    upload = io.BytesIO(data)
    upload.name = "teams.xlsx"
    page = organiser.post(f"/t/{slug}/manage/teams/import/", {"file": upload, "mode": "add"})
    assert page.status_code in (200, 400), (kind, page.status_code, page.content[:300])


def test_a_wide_sheet_goes_to_the_background_by_its_cells(organiser, event, settings):
    """A 137 KB file of 1,999 rows × 854 cells took 25–30 s inside the request."""
    from tournaments.services import registration_import, registration_sheet

    settings.PAISAI_IMPORT_BACKGROUND_CELLS = 2_000
    cells = "".join(f'<c r="E{i}"><v>1</v></c>' for i in range(3))
    rows = "".join(
        f'<row r="{n}"><c r="A{n}" t="inlineStr"><is><t>T{n}</t></is></c>{cells * 100}</row>'
        for n in range(2, 12)
    )
    data = workbook(SHEET_HEAD + rows + "</sheetData></worksheet>")
    size = registration_sheet.check_import_file(data)
    assert size.rows == 11 and size.cells > 2_000
    assert registration_import.in_background(size)
    assert not registration_import.in_background(
        registration_sheet.check_import_file(workbook(SHEET_HEAD + "</sheetData></worksheet>"))
    )


def test_the_table_key_page_with_a_real_key_still_answers(anonymous, event):
    key = TableKey.objects.create(event=event.event, table_number=1)
    assert anonymous.get(f"/api/table/{key.key}/").status_code in (200, 404)
    assert json  # the module's imports are used


@pytest.mark.parametrize(
    "settings_text", ['{"appeal_minutes": "\\ud800"}', '{"\\udfff": 1}', '["\\ud800"]']
)
def test_a_lone_surrogate_in_settings_posted_to_the_new_event_form_is_no_500(
    make_user, settings_text
):
    """Issue 39: the form kept "\\ud800" and failed as it rendered the settings again (500).
    Issue 36: the new-event form takes no settings (no JSON on an organiser's page): a
    settings field posted anyway is not read, and the event is made with the edition's own."""
    user = make_user()
    user.is_superuser = True
    user.save()
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.raise_request_exception = False
    client.force_login(user)
    data = {
        "name": "Cup",
        "slug": "cup-2026",
        "game": "guandan",
        "preset": "guandan-national-2017",
        "num_rounds": 7,
        "settings": settings_text,
    }
    response = client.post("/new/", data)
    assert response.status_code == 302, response.content[:300]
    assert Event.objects.get(slug="cup-2026").settings == {}
    assert json.loads(settings_text) is not None  # the test's JSON is JSON
