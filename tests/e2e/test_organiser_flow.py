"""An organiser runs an event from the browser without ever opening /admin/ (issue: event
operations): create the event, import the teams, edit its settings, re-import the list in
update mode (one team changed, one new), assign 40 tables to two referees, print the
table links, check teams in (one absent), two rounds with a late forfeit confirmed from the
operations board and results confirmed in bulk from the board, finish, the prize list.
The database is asserted after each step."""

from __future__ import annotations

import io
from datetime import timedelta

import pytest
from django.utils import timezone
from openpyxl import Workbook

from tests import factories
from tests.e2e.conftest import confirm_dialog
from tournaments.models import (
    AuditLog,
    CheckIn,
    Event,
    Match,
    ResultVersion,
    Round,
    TableAssignment,
    TableKey,
)
from tournaments.services import creators, result_entry, results

NAMES = ["龙城队", "姑苏队", "金陵队", "钱塘队", "锡山队", "太湖队", "虎丘队", "运河队", "缺席队"]


def team_file(names=NAMES, changed=()) -> bytes:
    """The team list; a team in ``changed`` has a new second player."""
    book = Workbook()
    sheet = book.active
    sheet.append(["队名", "单位", "队员1", "队员2"])
    for i, name in enumerate(NAMES):
        if name not in names:
            continue
        second = f"{name[0]}丙" if name in changed else f"{name[0]}乙"
        sheet.append([name, ("苏州", "无锡", "常州")[i % 3], f"{name[0]}甲", second])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


def enter_results(rnd, referees):
    """The table referees enter every table's result on their phones (not confirmed)."""
    for match in rnd.matches.exclude(away=None).filter(versions__isnull=True):
        referee = referees[0] if match.table_number <= 20 else referees[1]
        record = {"game": "guandan", "deals": [{"finish": ["E", "W", "S", "N"]}]}
        result_entry.submit(match, record, results.Actor(referee), 0)


@pytest.mark.django_db(transaction=True)
def test_organiser_runs_an_event_without_the_admin(live_server, desktop, login, tmp_path):
    page = desktop
    base = live_server.url
    organiser = factories.user("组委王")
    organiser.user_permissions.add(creators.creator_permission())  # given on the creators page
    referees = [factories.user("裁判甲"), factories.user("裁判乙")]
    login(page, live_server, organiser)

    # 1. create the event
    page.goto(f"{base}/new/")
    page.fill("#id_name", "苏州掼蛋公开赛")
    page.fill("#id_slug", "suzhou-2026")
    page.select_option("#id_game", "guandan")
    page.select_option("#id_preset", "guandan-suzhou-2016")
    page.fill("#id_num_rounds", "2")
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/t/suzhou-2026/manage/")
    event = Event.objects.get(slug="suzhou-2026")
    assert event.status == Event.Status.REGISTRATION
    factories.grant(organiser, event, "chief_referee")  # a small event: the organiser rules too

    # 2. import the teams (one entry is still missing from the first list)
    first_list = [name for name in NAMES if name != "运河队"]
    upload = tmp_path / "teams.xlsx"
    upload.write_bytes(team_file(first_list))
    page.goto(f"{base}/t/suzhou-2026/manage/teams/import/")
    page.set_input_files("input[type=file]", str(upload))
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/t/suzhou-2026/manage/")
    assert sorted(event.teams.values_list("name", flat=True)) == sorted(first_list)

    # 2a. edit the event's settings on its settings page
    page.click("#settings-link")
    page.wait_for_selector("#event-settings")
    page.fill("#id_venue", "苏州市体育中心")
    page.fill("#id_halls", "A厅 1-20\nB厅 21-40")
    page.fill("#id_fail_a_limit", "3")
    page.select_option("#id_round_one_method", "random")
    page.click("#event-settings button[type=submit]")
    page.wait_for_selector("#settings-preview")  # the changes in words, before storing
    page.click("#settings-confirm button[name=confirmed]")
    page.wait_for_selector("#settings-history")
    event.refresh_from_db()
    assert event.venue == "苏州市体育中心" and event.halls == "A厅 1-20\nB厅 21-40"
    assert event.settings == {"fail_a_limit": 3} and event.get_preset().fail_a_limit == 3
    logged = AuditLog.objects.get(event=event, action="event.settings")
    assert logged.actor_name == "组委王"
    assert logged.data["changes"]["settings.fail_a_limit"] == [None, 3]

    # 2b. the corrected list again, in update mode: one team changed, one new
    upload.write_bytes(team_file(NAMES, changed=("缺席队",)))
    page.goto(f"{base}/t/suzhou-2026/manage/teams/import/")
    page.set_input_files("input[type=file]", str(upload))
    page.select_option("#id_mode", "update")
    page.click("main button[type=submit]")
    page.wait_for_selector("#import-report")
    assert page.locator("#import-added").inner_text().endswith("运河队")
    assert "缺席队" in page.locator("#import-updated").inner_text()
    assert sorted(event.teams.values_list("name", flat=True)) == sorted(NAMES)
    changed = event.teams.get(name="缺席队")
    assert list(changed.players.values_list("name", flat=True)) == ["缺甲", "缺丙"]
    assert AuditLog.objects.get(event=event, action="team.reimport").data["updated"] == ["缺席队"]

    # 3. forty tables to two referees, on one page
    page.goto(f"{base}/t/suzhou-2026/manage/assignments/")
    for referee, tables in zip(referees, ("1-20", "21-40"), strict=True):
        page.fill("#id_username", referee.username)
        page.fill("#id_tables", tables)
        page.click("#assign")
        page.wait_for_selector("#referees")
    assert TableAssignment.objects.filter(event=event).count() == 40
    assert TableAssignment.objects.filter(user=referees[1], table_number=40).exists()

    # 4. check in every team but one
    page.goto(f"{base}/t/suzhou-2026/manage/checkin/")
    absent = event.teams.get(name="缺席队")
    for team in event.teams.exclude(pk=absent.pk):
        page.check(f"#team-{team.pk} input[type=checkbox]")
    page.click("#checkin-selected")
    page.wait_for_selector("#checkin-count")
    assert CheckIn.objects.filter(team__event=event).count() == 8
    assert not CheckIn.objects.filter(team=absent).exists()

    for number in (1, 2):
        # 5. draft, publish, start
        page.goto(f"{base}/t/suzhou-2026/manage/rounds/")
        page.click("#draft-next button[type=submit]")
        page.wait_for_url(f"{base}/t/suzhou-2026/manage/rounds/{number}/")
        rnd = Round.objects.get(event=event, number=number)
        drawn = set(rnd.slots.values_list("team_id", flat=True))
        assert absent.pk not in drawn and len(drawn) == 8
        page.click("#publish")
        confirm_dialog(page, f"第 {number} 轮")  # publishing asks first
        page.wait_for_selector("#start-clock")
        page.click("#start-clock")
        page.wait_for_selector("#attendance-link")
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.IN_PLAY
        if number == 1:
            # 6. print the table links (all at once) and the QR sheet
            page.goto(f"{base}/t/suzhou-2026/manage/tables/")
            page.click("#all-links")
            # made by a job (issue 35): its page says how many, then back to the links
            page.wait_for_selector("#job-made")
            assert "新生成 4 个桌链接" in page.inner_text("#job-made")
            page.click("#job-next")
            page.wait_for_selector("#links-pdf")
            assert TableKey.objects.filter(event=event, revoked_at=None).count() == 4
            page.click("#links-pdf")  # every export is a job: its page offers the file
            page.wait_for_selector("#job-download:visible")
            with page.expect_download() as download:
                page.click("#job-download")
            assert download.value.suggested_filename.endswith(".pdf")
            # 7. table 1's away team never sat down: 11 minutes after the start it is late
            first = rnd.matches.get(table_number=1)
            for match in rnd.matches.exclude(away=None).exclude(pk=first.pk):
                for team in (match.home, match.away):
                    rnd.seatings.create(team=team, by_name="裁判甲")
            rnd.seatings.create(team=first.home, by_name="裁判甲")
            Round.objects.filter(pk=rnd.pk).update(
                started_at=timezone.now() - timedelta(minutes=11)
            )
            # the chief confirms the proposed forfeit on the operations board
            page.goto(f"{base}/t/suzhou-2026/manage/rounds/1/board/")
            assert page.locator("#late-forfeits tbody tr").count() == 1
            page.check("#late-forfeits input[name=team]")
            page.click("#board-confirm-forfeits")
            confirm_dialog(page, first.away.name)  # the dialog names the team
            page.wait_for_selector("#board")
            forfeit = ResultVersion.objects.get(match=first)
            assert forfeit.is_counting and forfeit.record["forfeit"] == "NS"
        # 8. the referees enter the other tables; the chief confirms them all on the board
        rnd = Round.objects.get(pk=rnd.pk)
        enter_results(rnd, referees)
        page.goto(f"{base}/t/suzhou-2026/manage/rounds/{number}/board/")
        page.check("#select-submitted")  # select all submitted
        page.click("#bulk-confirm")
        confirm_dialog(page)
        page.wait_for_selector("#board")
        played = Match.objects.filter(round=rnd).exclude(away=None)
        assert ResultVersion.objects.filter(match__in=played, is_counting=True).count() == 4
        page.goto(f"{base}/t/suzhou-2026/results/?round={number}")
        page.click("form:has(input[name=action][value=finalise]) button")
        page.wait_for_load_state()
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINALISED

    # 9. finish the event and print the prize list
    page.goto(f"{base}/t/suzhou-2026/manage/status/")
    page.click("#finish-event")
    confirm_dialog(page)  # finishing asks first
    page.wait_for_selector("#prizes-link")
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
    # ties across the prize band wait for lots (issue 25): drawn from the standings page
    page.goto(f"{base}/t/suzhou-2026/manage/standings/")
    while page.locator("#cut-ties form button").count():
        page.locator("#cut-ties form button").first.click()
        page.wait_for_load_state()
    page.goto(f"{base}/t/suzhou-2026/manage/prizes/")
    page.wait_for_selector("#prizes")
    assert page.locator("#prizes tbody tr").count() >= 3
    page.click("#prizes-pdf")
    page.wait_for_selector("#job-download:visible")
    with page.expect_download() as download:
        page.click("#job-download")
    assert download.value.suggested_filename == "suzhou-2026-prizes-pdf.pdf"
