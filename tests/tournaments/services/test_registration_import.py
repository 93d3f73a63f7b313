"""Team import from .xlsx: all-or-nothing, every bad row reported with its number and reason."""

import io

import pytest
from django.utils import translation
from openpyxl import Workbook, load_workbook

from tests import factories
from tournaments.exporters.registration_template import template_workbook
from tournaments.models import Player, Team, Unit
from tournaments.services.registration_import import ImportFileError, import_teams

HEADER = ["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2", "种子 Seed"]


def xlsx(rows, header=HEADER) -> bytes:
    wb = Workbook()
    ws = wb.active
    ws.append(header)
    for row in rows:
        ws.append(row)
    out = io.BytesIO()
    wb.save(out)
    return out.getvalue()


@pytest.fixture
def organiser_client(client, make_event, make_user, grant):
    event = make_event(units=0)
    user = grant(make_user(), event, "organiser")
    client.force_login(user)
    return client, event, user


def by_organiser(event):
    return event, factories.organiser_of(event)


@pytest.fixture
def organiser_of(make_user, grant):
    return lambda event: grant(make_user(), event, "organiser")


def test_good_file_imports_every_team_with_two_players_and_units(make_event, organiser_of):
    event = make_event(units=0)
    data = xlsx(
        [
            ["苏州一队", "苏州协会", "张三", "李四", 1],
            ["南京一队", "南京俱乐部", "王五", "赵六", None],
            ["苏州二队", "苏州协会", "孙七", "周八", 2],
        ]
    )
    report = import_teams(event, organiser_of(event), data)
    assert report.ok and report.created == 3
    assert Team.objects.filter(event=event).count() == 3
    assert set(Unit.objects.filter(event=event).values_list("name", flat=True)) == {
        "苏州协会",
        "南京俱乐部",
    }
    team = Team.objects.get(event=event, name="苏州一队")
    assert [p.name for p in team.players.order_by("seat_order")] == ["张三", "李四"]
    assert team.seed == 1
    assert Team.objects.get(name="南京一队").seed is None


def test_three_bad_rows_import_nothing_and_report_all_three(make_event, organiser_of):
    event = make_event(units=0)
    data = xlsx(
        [
            ["好队", "A", "甲", "乙", 1],
            ["", "A", "丙", "丁", None],  # row 3: missing team name
            ["好队", "B", "戊", "己", None],  # row 4: duplicate team
            ["三人队", "C", "庚", "辛", None, "壬"],  # row 5: three players
        ]
    )
    report = import_teams(event, organiser_of(event), data)
    assert not report.ok
    assert report.created == 0
    rows = [row for row, _ in report.errors]
    assert rows == [3, 4, 5]
    reasons = dict(report.errors)
    assert "team name" in reasons[3] or "队名" in reasons[3]
    assert "duplicate" in reasons[4] or "重复" in reasons[4]
    assert "two players" in reasons[5] or "两名" in reasons[5]
    assert Team.objects.filter(event=event).count() == 0
    assert Player.objects.filter(team__event=event).count() == 0
    assert Unit.objects.filter(event=event).count() == 0


def test_duplicate_of_an_already_registered_team_is_reported(make_event, organiser_of):
    event = make_event(teams=1, units=1)
    data = xlsx([["Team 001", "X", "a", "b", None]])
    report = import_teams(event, organiser_of(event), data)
    assert report.errors and report.errors[0][0] == 2


def test_file_that_is_not_xlsx_gives_a_clear_error(make_event, organiser_of):
    event = make_event(units=0)
    with pytest.raises(ImportFileError, match="xlsx"):
        import_teams(event, organiser_of(event), b"team,unit\nA,B\n")


def test_import_page_shows_every_bad_row_and_imports_nothing(organiser_client):
    client, event, _ = organiser_client
    data = xlsx([["", "A", "x", "y"], ["T", "A", "", "y"], ["T2", "A", "x", "y", "seed?"]])
    upload = io.BytesIO(data)
    upload.name = "teams.xlsx"
    response = client.post(
        f"/t/{event.slug}/manage/teams/import/", {"file": upload}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    body = response.content.decode()
    for row in ('<td class="num">2</td>', '<td class="num">3</td>', '<td class="num">4</td>'):
        assert row in body
    assert Team.objects.filter(event=event).count() == 0


def test_import_page_rejects_a_non_xlsx_upload_with_a_message(organiser_client):
    client, event, _ = organiser_client
    upload = io.BytesIO(b"%PDF-1.4 not a spreadsheet")
    upload.name = "teams.xlsx"
    response = client.post(f"/t/{event.slug}/manage/teams/import/", {"file": upload})
    assert response.status_code == 400
    assert ".xlsx" in response.content.decode()
    assert Team.objects.filter(event=event).count() == 0


def test_template_download_is_an_xlsx_with_the_import_header(organiser_client):
    client, event, organiser = organiser_client
    response = client.get(f"/t/{event.slug}/manage/teams/template.xlsx")
    assert response.status_code == 200
    ws = load_workbook(io.BytesIO(response.content)).active
    assert [c.value for c in ws[1]] == [*HEADER, "证件1 ID 1", "证件2 ID 2"]
    # The template's example row is never imported: a forgotten example registers nobody.
    with translation.override("en"):  # the page request above left Chinese active
        report = import_teams(event, organiser, template_workbook())
    assert not report.ok and "example row" in report.errors[0][1]
    assert not Team.objects.filter(event=event).exists()


def test_a_player_on_two_teams_is_refused_in_the_file_and_against_registered_teams(
    make_event,
):
    event = make_event(teams=1, units=0)  # Team 001: P1-1, P1-2
    organiser = factories.organiser_of(event)
    data = xlsx(
        [["红队", "", "陆文杰", "甲"], ["重复队", "", "陆文杰", "乙"], ["老队", "", "P1-1", "丙"]]
    )
    report = import_teams(event, organiser, data)
    assert not report.ok
    problems = dict(report.errors)
    assert "陆文杰 is also on row 2" in problems[3]
    assert "P1-1 already plays for Team 001" in problems[4]
    assert event.teams.count() == 1


def test_the_team_form_refuses_a_player_of_another_team(make_event):
    from tournaments.errors import ServiceError
    from tournaments.services.registration import save_team

    event = make_event(teams=1, units=0)
    with pytest.raises(ServiceError) as refused:
        save_team(
            event,
            factories.organiser_of(event),
            name="新队",
            unit_name="",
            players=["P1-2", "新人"],
            seed=None,
        )
    assert refused.value.field == "player1" and "Team 001" in refused.value.message


# --- caps: checked before parsing, large lists in the background ----------------------------


def xlsx_with_sheet(sheet_xml_chunks, level: int = 9) -> bytes:
    """A real .xlsx whose first worksheet's XML is replaced by ``sheet_xml_chunks`` (bytes,
    streamed into the zip: a bomb is never held in memory)."""
    import zipfile

    base = xlsx([])
    out = io.BytesIO()
    with (
        zipfile.ZipFile(io.BytesIO(base)) as source,
        zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED, compresslevel=level) as target,
    ):
        for info in source.infolist():
            if info.filename == "xl/worksheets/sheet1.xml":
                with target.open(info.filename, "w", force_zip64=True) as member:
                    for chunk in sheet_xml_chunks:
                        member.write(chunk)
            else:
                target.writestr(info, source.read(info.filename))
    return out.getvalue()


SHEET_HEAD = (
    b'<?xml version="1.0" encoding="UTF-8" standalone="yes"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
)
SHEET_TAIL = b"</sheetData></worksheet>"


def _cell(ref: str, text: str) -> str:
    return f'<c r="{ref}" t="inlineStr"><is><t>{text}</t></is></c>'


def team_rows_xml(count: int, start: int = 1):
    """The sheet XML of a header and ``count`` good team rows, in pieces."""
    yield SHEET_HEAD
    header = "".join(_cell(f"{c}1", h) for c, h in zip("ABCD", HEADER, strict=False))
    yield f'<row r="1">{header}</row>'.encode()
    piece = []
    for n in range(start, start + count):
        r = n - start + 2
        cells = (
            _cell(f"A{r}", f"第{n}队")
            + _cell(f"B{r}", f"单位{n % 300}")
            + _cell(f"C{r}", f"张{n}")
            + _cell(f"D{r}", f"李{n}")
        )
        piece.append(f'<row r="{r}">{cells}</row>')
        if len(piece) == 1000:
            yield "".join(piece).encode()
            piece = []
    yield "".join(piece).encode()
    yield SHEET_TAIL


def empty_rows_xml(megabytes: int):
    yield SHEET_HEAD
    block = b"<row/>" * 50_000  # 300 kB of empty rows
    for _ in range(megabytes * 1024 * 1024 // len(block)):
        yield block
    yield SHEET_TAIL


@pytest.fixture(scope="module")
def zip_bomb() -> bytes:
    """About 300 MB of empty rows in a zip of a few hundred kB (as in the finding)."""
    return xlsx_with_sheet(empty_rows_xml(300))


def test_zip_bomb_import_refused_fast(zip_bomb, make_event, make_user, monkeypatch):
    from tournaments.services import registration_sheet

    assert len(zip_bomb) < 2 * 1024 * 1024

    def no_parsing(*args, **kwargs):
        raise AssertionError("the file was parsed")

    monkeypatch.setattr(registration_sheet, "load_workbook", no_parsing)
    event = make_event(units=0)
    with pytest.raises(ImportFileError, match=r"unpacks to 3\d\d MB; at most 40 MB"):
        import_teams(event, factories.organiser_of(event), zip_bomb)
    assert Team.objects.filter(event=event).count() == 0


def test_zip_bomb_on_the_import_page_says_why(organiser_client, zip_bomb):
    client, event, _ = organiser_client
    upload = io.BytesIO(zip_bomb)
    upload.name = "teams.xlsx"
    response = client.post(
        f"/t/{event.slug}/manage/teams/import/", {"file": upload}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400  # a refused form is shown again with the reason
    assert "unpacks to" in response.content.decode()
    assert not Team.objects.filter(event=event).exists()


def test_file_of_100000_rows_refused_with_a_clear_message(make_event, make_user, monkeypatch):
    from tournaments.services import registration_sheet

    data = xlsx_with_sheet(team_rows_xml(100_000))
    monkeypatch.setattr(registration_sheet, "load_workbook", lambda *a, **k: pytest.fail("parsed"))
    with pytest.raises(ImportFileError) as refused:
        import_teams(*by_organiser(make_event(units=0)), data)
    assert str(refused.value) == (
        "The file has more than 25,000 rows; at most 25,000 teams can be imported at once."
    )


@pytest.mark.slow  # a scale test: make test runs it, make test-fast does not
def test_20000_rows_import_in_the_background_with_progress(
    organiser_client, django_capture_on_commit_callbacks
):
    from tournaments.models import Job
    from tournaments.services import jobs

    client, event, user = organiser_client
    upload = io.BytesIO(xlsx_with_sheet(team_rows_xml(20_000)))
    upload.name = "teams.xlsx"
    seen = []
    original = jobs.set_progress

    def spy(job_id, done, total):
        seen.append((done, total))
        original(job_id, done, total)

    jobs.set_progress = spy
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/t/{event.slug}/manage/teams/import/", {"file": upload})
    finally:
        jobs.set_progress = original
    job = Job.objects.get(kind="team-import")
    assert response.status_code == 302 and response.url.endswith(f"/jobs/{job.pk}/")
    assert job.status == "done" and job.progress == job.total == 20_000
    assert job.report == {"created": 20_000, "errors": []}
    assert len(seen) >= 10 and seen == sorted(seen)  # progress every 1,000 rows
    assert Team.objects.filter(event=event).count() == 20_000
    assert Player.objects.filter(team__event=event).count() == 40_000
    assert Unit.objects.filter(event=event).count() == 300
    page = client.get(response.url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "20000 teams imported." in page


def test_background_import_with_bad_rows_imports_nothing_and_lists_them(
    organiser_client, settings, django_capture_on_commit_callbacks
):
    from tournaments.models import Job

    settings.PAISAI_IMPORT_BACKGROUND_ROWS = 2
    client, event, _ = organiser_client
    data = xlsx([["A队", "U", "x", "y"], ["A队", "U", "x", "y"], ["", "U", "x", "y"]])
    upload = io.BytesIO(data)
    upload.name = "teams.xlsx"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            f"/t/{event.slug}/manage/teams/import/",
            {"file": upload},
            HTTP_ACCEPT_LANGUAGE="en",
        )
    job = Job.objects.get(kind="team-import")
    assert job.status == "failed" and "nothing was imported" in job.error
    assert [row for row, _reason in job.report["errors"]] == [3, 4]
    assert not Team.objects.filter(event=event).exists()
    page = client.get(response.url, HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'id="import-errors"' in page and 'id="job-retry" ' in page  # the form stays hidden
    assert client.get(response.url + "status/").json()["retry"] is None  # the file would fail again


def test_upload_over_the_limit_refused_before_the_body_is_read(organiser_client):
    client, event, _ = organiser_client
    response = client.generic(
        "POST",
        f"/t/{event.slug}/manage/teams/import/",
        b"--xyz",  # what follows would be 50 MB: never read
        CONTENT_TYPE="multipart/form-data; boundary=xyz",
        CONTENT_LENGTH=str(50 * 1024 * 1024),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 413
    assert "The file is larger than 5 MB; nothing was uploaded." in response.content.decode()


def test_imported_text_stays_text(make_event, make_user):
    from tournaments.exporters.standings_xlsx import StandingsXlsx

    event = make_event(units=0)
    data = xlsx_with_sheet(
        iter(
            [
                SHEET_HEAD,
                b'<row r="1">'
                + "".join(_cell(f"{c}1", h) for c, h in zip("ABCD", HEADER, strict=False)).encode()
                + b"</row>",
                (
                    '<row r="2">'
                    + _cell("A2", "=1+2")
                    + _cell("B2", "@SUM(A1)")
                    + _cell("C2", "+86 张")
                    + _cell("D2", "-李")
                    + "</row>"
                ).encode(),
                SHEET_TAIL,
            ]
        )
    )
    assert import_teams(event, factories.organiser_of(event), data).created == 1
    team = Team.objects.get(event=event)
    assert team.name == "=1+2" and team.unit.name == "@SUM(A1)"
    assert sorted(team.players.values_list("name", flat=True)) == ["+86 张", "-李"]
    sheet = load_workbook(io.BytesIO(StandingsXlsx(event).render().data))["Final"]
    cell = next(c for row in sheet.iter_rows() for c in row if c.value == "=1+2")
    assert cell.data_type == "s"


def test_team_name_over_60_characters_is_a_bad_row(make_event, make_user):
    report = import_teams(*by_organiser(make_event(units=0)), xlsx([["队" * 61, "U", "x", "y"]]))
    assert not report.ok and report.errors[0][0] == 2
    assert "longer than 60 characters" in report.errors[0][1]


# --- registration hygiene: IDs, blank units, problems naming row/column/team, update mode ---

HEADER_IDS = [*HEADER, "证件1 ID 1", "证件2 ID 2"]


def test_every_import_problem_names_its_row_column_and_team(make_event, organiser_of):
    event = make_event(units=0)
    data = xlsx([["红队", "苏州", "", "乙", "x"], ["", "苏州", "甲", "丁"]])
    with translation.override("en"):
        report = import_teams(event, organiser_of(event), data)
    problems = dict(report.errors)
    assert "column C «队员1 Player 1», team 红队: missing player name" in problems[2]
    assert "column E «种子 Seed», team 红队: seed must be a whole number" in problems[2]
    assert "column A «队名 Team», team —: missing team name" in problems[3]
    assert not event.teams.exists()


def test_a_blank_unit_is_warned_not_refused(make_event, organiser_of):
    event = make_event(units=0)
    data = xlsx([["红队", "", "甲", "乙"], ["蓝队", "苏州", "丙", "丁"]])
    with translation.override("en"):
        report = import_teams(event, organiser_of(event), data)
    assert report.ok and report.created == 2
    assert report.warnings == [
        (2, "column B «单位 Unit», team 红队: the unit is blank: the team will have no unit")
    ]
    assert Team.objects.get(event=event, name="红队").unit is None


def test_same_name_players_with_different_ids_are_two_people(make_event, organiser_of):
    event = make_event(units=0)
    data = xlsx(
        [
            ["红队", "苏州", "李军", "甲", None, "320501", ""],
            ["蓝队", "扬州", "李军", "乙", None, "321001", ""],
        ],
        header=HEADER_IDS,
    )
    report = import_teams(event, organiser_of(event), data)
    assert report.ok, report.errors
    assert set(Player.objects.filter(name="李军").values_list("ident", flat=True)) == {
        "320501",
        "321001",
    }


@pytest.mark.parametrize("idents", [("320501", "320501"), ("320501", ""), ("", "")])
def test_same_name_with_the_same_id_or_without_one_is_one_person_one_team(
    make_event, organiser_of, idents
):
    event = make_event(units=0)
    data = xlsx(
        [
            ["红队", "苏州", "李军", "甲", None, idents[0], ""],
            ["蓝队", "扬州", "李军", "乙", None, idents[1], ""],
        ],
        header=HEADER_IDS,
    )
    with translation.override("en"):
        report = import_teams(event, organiser_of(event), data)
    assert not report.ok
    assert "team 蓝队: 李军 is also on row 2" in dict(report.errors)[3]
    assert not event.teams.exists()


def test_update_reimport_adds_new_updates_changed_lists_unchanged_and_loses_nothing(
    make_event, organiser_of
):
    from tournaments.models import AuditLog

    event = make_event(units=0)
    organiser = organiser_of(event)
    first = [
        ["红队", "苏州", "甲", "乙", 1],
        ["蓝队", "无锡", "丙", "丁", 2],
        ["绿队", "南京", "戊", "己", None],
    ]
    assert import_teams(event, organiser, xlsx(first)).created == 3
    again = [
        ["红队", "苏州", "甲", "乙", 1],
        ["蓝队", "常州", "丙", "庚", 2],
        ["白队", "扬州", "辛", "壬", 3],
    ]
    with translation.override("en"):
        refused = import_teams(event, organiser, xlsx(again))  # the add mode
    assert "duplicate team: 红队 is already registered" in dict(refused.errors)[2]
    report = import_teams(event, organiser, xlsx(again), mode="update")
    assert report.ok, report.errors
    assert (report.added, report.updated, report.unchanged) == (["白队"], ["蓝队"], ["红队"])
    blue = Team.objects.get(event=event, name="蓝队")
    assert blue.unit.name == "常州" and blue.seed == 2
    assert list(blue.players.values_list("name", flat=True)) == ["丙", "庚"]
    assert Team.objects.filter(event=event).count() == 4  # 绿队 is kept
    assert Team.objects.get(event=event, name="白队").seed == 3
    update = AuditLog.objects.get(event=event, action="team.update")
    assert update.data["before"]["players"] == ["丙", "丁"]
    assert update.data["after"]["players"] == ["丙", "庚"]
    logged = AuditLog.objects.get(event=event, action="team.reimport").data
    assert logged == {"added": ["白队"], "updated": ["蓝队"], "unchanged": ["红队"]}


def test_update_reimport_still_refuses_a_player_of_another_team(make_event, organiser_of):
    event = make_event(units=0)
    organiser = organiser_of(event)
    import_teams(
        event, organiser, xlsx([["红队", "苏州", "甲", "乙"], ["蓝队", "无锡", "丙", "丁"]])
    )
    with translation.override("en"):
        report = import_teams(event, organiser, xlsx([["蓝队", "无锡", "丙", "甲"]]), mode="update")
    assert "甲 already plays for 红队" in dict(report.errors)[2]
    assert list(Team.objects.get(name="蓝队").players.values_list("name", flat=True)) == [
        "丙",
        "丁",
    ]


def test_import_page_update_mode_lists_added_updated_and_unchanged(organiser_client):
    client, event, _organiser = organiser_client
    url = f"/t/{event.slug}/manage/teams/import/"

    def upload(rows):
        data = io.BytesIO(xlsx(rows))
        data.name = "teams.xlsx"
        return data

    client.post(url, {"file": upload([["红队", "苏州", "甲", "乙"], ["蓝队", "无锡", "丙", "丁"]])})
    page = client.post(
        url,
        {
            "file": upload(
                [
                    ["红队", "苏州", "甲", "乙"],
                    ["蓝队", "无锡", "丙", "庚"],
                    ["白队", "", "辛", "壬"],
                ]
            ),
            "mode": "update",
        },
        HTTP_ACCEPT_LANGUAGE="en",
    )
    content = page.content.decode()
    assert page.status_code == 200
    assert "1 added, 1 updated, 1 unchanged" in content
    assert 'id="import-warnings"' in content and "the unit is blank" in content
    assert event.teams.count() == 3


def test_the_team_form_tells_same_name_players_apart_by_id(make_event):
    from tournaments.errors import ServiceError
    from tournaments.services.registration import save_team

    event = make_event(units=0)
    organiser = factories.organiser_of(event)
    save_team(
        event,
        organiser,
        name="红队",
        unit_name="",
        players=["李军", "甲"],
        seed=None,
        idents=["320501", ""],
    )
    save_team(
        event,
        organiser,
        name="蓝队",
        unit_name="",
        players=["李军", "乙"],
        seed=None,
        idents=["321001", ""],
    )
    with pytest.raises(ServiceError) as refused:
        save_team(
            event,
            organiser,
            name="绿队",
            unit_name="",
            players=["李军", "丙"],
            seed=None,
            idents=["320 501", ""],
        )
    assert refused.value.field == "player1" and "红队" in refused.value.message
    assert event.teams.count() == 2


def test_a_formula_cell_is_named_as_a_formula_not_as_a_missing_name(make_event, organiser_of):
    """Issue 39: openpyxl writes a formula with no cached value; read for its value, the cell
    was blank and the row said "missing team name"."""
    event = make_event(units=0)
    data = xlsx([['=B1&"队"', "苏州", "甲", "乙"], ["蓝队", "苏州", "=A2", "丁"]])
    with translation.override("en"):
        report = import_teams(event, organiser_of(event), data)
    problems = dict(report.errors)
    assert 'column A «队名 Team», team —: cell A2 holds a formula (=B1&"队")' in problems[2]
    assert "missing team name" not in problems[2]
    assert "column C «队员1 Player 1», team 蓝队: cell C3 holds a formula (=A2)" in problems[3]
    assert "missing player name" not in problems[3]
    assert not event.teams.exists()
    with translation.override("zh-hans"):
        report = import_teams(event, organiser_of(event), data)
    assert "单元格 A2 是公式" in dict(report.errors)[2]
