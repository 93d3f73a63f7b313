"""The event-day rehearsal (issue 24): one event walked by its real people on 390×844 phones in
Chinese. Every person logs in, starts from the front page and goes on by links alone (no
address is ever typed but the login page's); every page opened is read for raw codes and
English words; the database is asserted after each step.

The event's format: 16 teams imported from a file, 15 checked in; a Swiss stage of two rounds
(积分赛, the preset's usual scoring) and a final (决赛): a knockout stage of the Swiss stage's
top two, best of three (三局二胜), set on the stages page. So round 3 is the one
best-of-three match, and it is entered by final levels per game.

1. the organiser creates the event, imports the teams, sets the stages, checks in 15, draws
   round 1 (from a recorded seed), publishes it after a confirmation, starts the clock;
2. two referees seat their seven tables from "my tables" (全部入座; at table 7 only 已入座
   for its East–West team);
3. start + 10:00 (time-machine moves the clock of the test and the live server's thread
   alike): the chief's desk lists exactly table 7's North–South team; one confirmed action
   forfeits it: 17 : 0 (the Suzhou preset's forfeit points) for its opponent;
4a. table 1 is entered with no network, the page reloaded in between, and submitted back
   online; the chief confirms the submitted results from the desk's round board (after a
   refused early finalise) and finalises round 1;
7. round 2: an incident logged from "my tables", a ruling (a level off), the captain's appeal
   from "my team's rulings", three committee votes (overturned 2 : 1); round 2 finalised;
4b. round 3, the final: its referee enters each game's final levels;
5. the losing captain disputes from "my match";
6. the chief opens the dispute from the desk and corrects the final levels (9 : 2 was 9 : 4);
8. round 3 finalised; the organiser finishes the event after a confirmation dialog.

Not walked (entered through the project's services in ``tests.factories``, said where):
the logins and roles of the officials and captains (the accounts page has its own walk,
test_accounts_flow.py), the results of the tables nobody walks (round 1 tables 2–6 as their
referees would submit them; round 2 as the chief would confirm them).

PAISAI_WALK_DUMP=<folder> writes every page read there (its text and a screenshot).
"""

from __future__ import annotations

import io
import os
import re
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from types import SimpleNamespace

import pytest
from openpyxl import Workbook

from tests import factories
from tests.e2e.conftest import confirm_dialog, watch_csp
from tests.test_vocabulary import (
    USERNAME_PAGE_EXACT,
    USERNAME_PAGES,
    problems_in_chinese,
    visible_text,
)

pytestmark = pytest.mark.django_db(transaction=True)

DUMP = Path(os.environ["PAISAI_WALK_DUMP"]) if os.environ.get("PAISAI_WALK_DUMP") else None
SLUG = "wuxi-2026"
TEAMS = [
    "龙城队",
    "姑苏队",
    "金陵队",
    "钱塘队",
    "锡山队",
    "太湖队",
    "虎丘队",
    "运河队",
    "梁溪队",
    "秦淮队",
    "玄武队",
    "惠山队",
    "天平队",
    "石湖队",
    "紫金队",
    "缺席队",
]
CITIES = ("苏州", "无锡", "常州", "南京")
SURNAMES = "赵钱孙李周吴郑王冯陈褚卫蒋沈韩杨"
ABSENT = "缺席队"  # never checks in

# ASCII words a Chinese page may show: the brand, the language switch's own name, file kinds
# and card ranks. People and teams here have Chinese names, so any other English word on a
# page is a translation missing.
ASCII_OK = {
    "paisai",
    "English",
    "JSON",
    "PDF",
    "QR",
    "xlsx",
    "Excel",
    "API",
    "ID",
    "A",
    "J",
    "Q",
    "K",
    "v",
}
ASCII_WORD = re.compile(r"[A-Za-z]{2,}")

EW3, EW2, EW1 = ["E", "W", "S"], ["E", "S", "W"], ["E", "N", "S"]  # East–West up 3, 2, 1
NS3, NS2, NS1 = ["N", "S", "E"], ["N", "E", "S"], ["N", "W", "E"]  # North–South up 3, 2, 1
ROUND1_TABLE1 = [EW3, NS1, EW2]  # the table entered offline: East–West 7, North–South 3
# the Swiss tables nobody walks: a different margin at each (the final's two are not tied)
SWISS_RESULTS = {
    1: [NS1, NS1, EW3, NS2],
    2: [EW3, EW3],
    3: [NS2],
    4: [EW1, NS2, EW3],
    5: [NS3, NS3, EW1],
    6: [EW2, EW1],
    7: [NS3, EW1],
}
FINAL_LEVELS = [("9", "2"), ("8", "6")]  # the final as entered: East–West 2 : 0 games
CORRECTED_NS = "4"  # game 1 was 9 : 4


def deals(finishes) -> list[dict]:
    return [{"finish": finish} for finish in finishes]


def team_file() -> bytes:
    """The organiser's team list: team, unit, player 1, player 2 (no two players alike)."""
    book = Workbook()
    sheet = book.active
    sheet.append(["队名", "单位", "队员1", "队员2"])
    for i, name in enumerate(TEAMS):
        players = [f"{SURNAMES[i]}{name[0]}{n}" for n in "一二"]
        sheet.append([name, CITIES[i % 4], *players])
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


class Walk:
    """The phones of the day's people (a browser context each, kept logged in) and what they
    read: every page opened is checked for raw codes and English words."""

    def __init__(self, browser, live_server, usernames: set[str]):
        self.browser, self.base, self.usernames = browser, live_server.url, usernames
        self.phones: dict[str, object] = {}
        self.csp: list[list[str]] = []
        self.problems: list[str] = []
        self.pages_read = 0
        self.started = time.monotonic()

    def phone(self, who: str):
        if who not in self.phones:
            context = self.browser.new_context(
                viewport={"width": 390, "height": 844},
                device_scale_factor=2,
                is_mobile=True,
                has_touch=True,
                locale="zh-CN",
            )
            page = context.new_page()
            page.set_default_timeout(15_000)
            self.csp.append(watch_csp(page))
            self.phones[who] = page
        return self.phones[who]

    def read(self, page) -> str:
        """The page's visible text, checked: no raw code, no English word."""
        text = visible_text(page.content().encode())
        where = page.url.removeprefix(self.base)
        self.pages_read += 1
        if DUMP:
            name = f"{self.pages_read:03d}{where.replace('/', '_')[:80]}"
            (DUMP / f"{name}.txt").write_text(re.sub(r"\n\s*\n+", "\n", text))
            page.screenshot(path=str(DUMP / f"{name}.png"), full_page=True)
        names = self.usernames
        if any(p in where for p in USERNAME_PAGES) or where.endswith(USERNAME_PAGE_EXACT):
            for username in names:  # a page that manages logins names the login to type
                text = re.sub(rf"(?<![\w-]){re.escape(username)}(?![\w-])", " ", text)
            names = set()
        found = problems_in_chinese(text, names, {SLUG})
        words = ASCII_WORD.findall(re.sub(r"(https?://\S+|/[\w\-./?=&%#]*)", " ", text))
        found += [f"English: {word!r}" for word in words if word not in ASCII_OK]
        self.problems += [f"{where}: {problem}" for problem in found]
        return text

    def log_in(self, who: str, user):
        """Log in on the person's phone: the front page with their homes."""
        page = self.phone(who)
        page.goto(f"{self.base}/accounts/login/")
        page.fill("input[name=username]", user.username)
        page.fill("input[name=password]", "pw-" + user.username)
        with page.expect_navigation():
            page.click("main button[type=submit]")
        assert page.url == f"{self.base}/", page.url
        self.read(page)
        return page

    def follow(self, page, selector: str):
        """Follow a link (or a button that navigates) and read the page it opens."""
        target = page.locator(selector)
        assert target.count() == 1, f"{target.count()} × {selector} on {page.url}"
        with page.expect_navigation():
            target.click()
        self.read(page)
        return page

    def confirm(self, page, *names: str):
        """Answer the confirmation dialog (naming ``names``) and read the page it leads to."""
        with page.expect_navigation():
            confirm_dialog(page, *names)
        return self.read(page)

    def home(self, who: str, role: str):
        """The person's home for ``role``: the front page (the brand link), then its button."""
        page = self.phones[who]
        if page.url != f"{self.base}/":
            self.follow(page, "header a.brand")
        return self.follow(page, f"#my-homes a[data-role={role}]")

    def done(self, step: str):
        print(f"{step}: done at {time.monotonic() - self.started:.1f} s")

    def close(self):
        for page in self.phones.values():
            page.context.close()


# --- the steps ----------------------------------------------------------------------------------


def organiser_prepares_and_draws(walk, day, upload):
    """1. The event, its teams from a file, its stages, check-in of 15, round 1 drawn."""
    from tournaments.models import CheckIn, Event, Stage

    page = walk.log_in("organiser", day.organiser)
    walk.follow(page, "main a[href='/new/']")
    page.fill("#id_name", "无锡掼蛋公开赛")
    page.fill("#id_slug", SLUG)
    page.select_option("#id_game", "guandan")
    page.select_option("#id_preset", "guandan-suzhou-2016")
    page.fill("#id_num_rounds", "3")
    walk.follow(page, "main button[type=submit]")
    event = day.event = Event.objects.get(slug=SLUG)
    assert page.url == f"{walk.base}/t/{SLUG}/manage/"
    assert event.status == Event.Status.REGISTRATION

    upload.write_bytes(team_file())
    walk.follow(page, f"#console-links a[href='/t/{SLUG}/manage/teams/import/']")
    page.set_input_files("input[type=file]", str(upload))
    walk.follow(page, "main form button[type=submit]")
    assert sorted(event.teams.values_list("name", flat=True)) == sorted(TEAMS)
    assert list(event.teams.get(name="运河队").players.values_list("name", flat=True)) == [
        "王运一",
        "王运二",
    ]

    # set-up, not walked: the officials' roles (tables 1-4 and 5-8 to the two referees) and a
    # captain's login for every team
    factories.grant(day.chief, event, "chief_referee")
    factories.grant(day.referee_a, event, "table_referee", tables=range(1, 5))
    factories.grant(day.referee_b, event, "table_referee", tables=range(5, 9))
    for member in day.committee:
        factories.grant(member, event, "committee")
    for team in event.teams.all():
        captain = factories.user(f"dz{team.pk}", first_name=f"{team.name}队长")
        day.captains[team.name] = factories.grant(captain, event, "captain", team=team)
    walk.usernames |= {captain.username for captain in day.captains.values()}

    # the stages: a Swiss of two rounds, then a best-of-three final of its top two
    walk.follow(page, f"#console-links a[href='/t/{SLUG}/manage/stages/']")
    page.fill("#id_name", "积分赛")
    page.select_option("#id_kind", "swiss")
    page.fill("#id_num_rounds", "2")
    walk.follow(page, "#stage-add button[type=submit]")  # on to the stage's page
    walk.follow(page, f"main a[href='/t/{SLUG}/manage/stages/']")
    page.fill("#id_name", "决赛")
    page.select_option("#id_kind", "knockout")
    page.check("#id_best_of_three")
    page.select_option("#id_entrants", "qualified")
    page.fill("#id_qualify_top", "2")
    page.select_option("#id_sources", label="积分赛")
    walk.follow(page, "#stage-add button[type=submit]")
    swiss, final = day.swiss, day.final = Stage.objects.filter(event=event).order_by("order")
    assert (swiss.kind, swiss.num_rounds, swiss.match_format) == ("swiss", 2, {})
    assert (final.kind, final.match_format, final.qualify_top) == ("knockout", {"games": 3}, 2)
    assert list(final.sources.all()) == [swiss]

    walk.follow(page, f"main a[href='/t/{SLUG}/manage/stages/']")
    walk.follow(page, f"main a[href='/t/{SLUG}/manage/']")
    walk.follow(page, f"#console-links a[href='/t/{SLUG}/manage/checkin/']")
    for team in event.teams.exclude(name=ABSENT):
        page.check(f"#team-{team.pk} input[type=checkbox]")
    walk.follow(page, "#checkin-selected")
    assert CheckIn.objects.filter(team__event=event).count() == 15
    assert not CheckIn.objects.filter(team__name=ABSENT).exists()

    first = day.round1 = draw_publish_start(walk, 1, seed=2026)  # the seed drawn in public
    assert first.stage_id == swiss.pk and first.matches.count() == 8  # 7 tables and a bye
    drawn = set(first.slots.values_list("team__name", flat=True))
    assert len(drawn) == 15 and ABSENT not in drawn
    day.tables = {m.table_number: m for m in first.matches.exclude(away=None)}
    walk.done("1 organiser: event, 16 teams, stages, 15 checked in, round 1 drawn")


def draw_publish_start(walk, number: int, seed: int | None = None):
    """The organiser drafts the next round from the console (round 1 from a recorded seed),
    publishes it after a confirmation and starts its clock."""
    from tournaments.models import Round

    page = walk.home("organiser", "organiser")
    walk.follow(page, f"#console-links a[href='/t/{SLUG}/manage/rounds/']")
    if seed is not None:
        page.fill("#id_seed", str(seed))
    walk.follow(page, "#draft-next button[type=submit]")
    page.click("#publish")
    walk.confirm(page, f"第 {number} 轮")
    walk.follow(page, "#start-clock")
    rnd = Round.objects.get(event__slug=SLUG, number=number)
    assert rnd.status == Round.Status.IN_PLAY and rnd.started_at is not None
    return rnd


def referees_seat_their_tables(walk, day):
    """2. Each referee opens each table from "my tables", marks it seated, and is back on
    "my tables" by the table page's link, where the table reads as seated."""
    from tournaments.models import Seating

    late = day.tables[7]  # table 7's North–South team never sits down
    for who, user, numbers in (
        ("referee_a", day.referee_a, (1, 2, 3, 4)),
        ("referee_b", day.referee_b, (5, 6, 7)),
    ):
        walk.log_in(who, user)
        page = walk.home(who, "table_referee")
        for number in numbers:
            open_table(walk, page, number)
            page.click("button[data-seat-side=EW]" if number == 7 else "#seat-all")
            page.wait_for_selector("#seating-status.ok")
            walk.read(page)
            walk.follow(page, "#my-tables-link")
            label = page.locator(f"#my-table-{number} h2 .badge").inner_text()
            assert label == (f"{late.away.name} 未入座" if number == 7 else "两队均已入座")
    seated = set(Seating.objects.filter(round=day.round1).values_list("team_id", flat=True))
    playing = {team for m in day.tables.values() for team in (m.home_id, m.away_id)}
    assert seated == playing - {late.away_id}
    walk.done("2 referees: 13 of 14 teams seated from my tables")


def chief_forfeits_the_late_team(walk, day, time_machine):
    """3. Start + 10:00: the desk lists exactly the unseated team; one confirmed action
    forfeits it, its opponent getting the preset's forfeit win."""
    from tournaments.models import ResultVersion

    time_machine.move_to(day.round1.started_at + timedelta(minutes=10), tick=True)
    late = day.tables[7]
    walk.log_in("chief", day.chief)
    page = walk.home("chief", "chief_referee")
    assert page.locator("#desk-late [data-count=late]").inner_text() == "1"
    assert page.locator("#desk-late li").all_inner_texts() == [f"第 7 桌 · {late.away.name}"]
    walk.follow(page, "#desk-attendance")
    assert page.locator("#late-teams tbody tr").count() == 1
    page.check(f"#late-teams input[value='{late.away_id}']")
    page.click("#confirm-forfeits")
    walk.confirm(page, late.away.name)  # the dialog names the team
    forfeit = ResultVersion.objects.get(match=late)
    win, loss = day.event.get_preset().forfeit_points
    assert (win, loss) == (17, 0) and forfeit.is_counting and forfeit.record["forfeit"] == "NS"
    assert forfeit.outcome["match_points"] == {"EW": win, "NS": loss}
    page = walk.home("chief", "chief_referee")
    assert page.locator("#desk-late [data-count=late]").inner_text() == "0"
    assert page.locator("[data-count='r1-confirmed']").inner_text() == "1"
    walk.done("3 chief: the late team forfeited 17 : 0 at start + 10:00")


def table_one_offline(walk, day):
    """4a. Table 1 entered with no network, a reload in between, sent back online."""
    from tournaments.models import ResultVersion

    page = walk.home("referee_a", "table_referee")
    open_table(walk, page, 1)
    # the service worker keeps the page (localhost is a secure context), the engine starts
    page.wait_for_function("window.paisaiTable.offlineKept === true", timeout=60_000)
    page.context.set_offline(True)
    for n, finish in enumerate(ROUND1_TABLE1, 1):
        for seat in finish:
            page.click(f"button.seat[data-seat={seat}]")
        wait_checked(page, n)
        if n == 2:  # no network and a reload: the page opens from the phone, the deals kept
            page.reload()
            wait_checked(page, 2)
            assert "暂定" in page.locator("#engine-note").inner_text()  # the phone's answer
    assert not ResultVersion.objects.filter(match=day.tables[1]).exists()
    page.context.set_offline(False)
    page.evaluate("window.dispatchEvent(new Event('online'))")
    page.wait_for_function("document.querySelector('#engine-note').hidden === true", timeout=30_000)
    page.click("#submit-result")
    page.wait_for_function(
        "document.querySelectorAll('#deal-list li[data-state=saved]')"
        f".length === {len(ROUND1_TABLE1)}"
    )
    page.wait_for_selector("#history li")  # the versions list shows the stored version
    walk.read(page)
    stored = ResultVersion.objects.get(match=day.tables[1])
    assert [d["finish"][:3] for d in stored.record["deals"]] == ROUND1_TABLE1
    assert stored.created_by == day.referee_a and not stored.is_counting
    assert stored.outcome["levels"] == {"EW": "7", "NS": "3"}
    walk.done("4a table 1: three deals offline, a reload, submitted back online")


def open_table(walk, page, number: int):
    """Open a table from "my tables" and wait for its script: it has asked the server for
    the table's versions (a tap before that would be lost)."""
    walk.follow(page, f"#my-table-{number} a.table-open")
    page.wait_for_selector("#connection.ok")


def wait_checked(page, n: int):
    """``n`` deals on the page, each checked by the engine (the phone's, with no network)."""
    page.wait_for_function(
        f"document.querySelectorAll('#deal-list li').length === {n} && "
        f"document.querySelector('#deal-list').dataset.checked === '{n}'",
        timeout=60_000,
    )


def chief_confirms_and_finalises(walk, day, number: int, confirm: bool):
    """The chief on the desk's round board: an early finalise is refused in words; the
    submitted results confirmed in one action (``confirm``); the round finalised."""
    from tournaments.models import ResultVersion, Round

    rnd = Round.objects.get(event=day.event, number=number)
    if confirm:
        page = walk.home("chief", "chief_referee")
        walk.follow(page, f"#desk-round-{number} a[href$='?round={number}']")
        walk.follow(page, "form:has(input[name=action][value=finalise]) button")
        refusal = page.locator(".messages .error").inner_text()
        assert "第 1, 2, 3, 4, 5, 6 桌" in refusal or "1, 2, 3, 4, 5, 6" in refusal, refusal
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.IN_PLAY
        page = walk.home("chief", "chief_referee")
        walk.follow(page, f"#desk-round-{number} a[href$='?state=submitted']")
        page.check("#select-submitted")
        page.click("#bulk-confirm")
        walk.confirm(page)
    played = rnd.matches.exclude(away=None)
    assert ResultVersion.objects.filter(match__in=played, is_counting=True).count() == len(played)
    page = walk.home("chief", "chief_referee")
    walk.follow(page, f"#desk-round-{number} a[href$='?round={number}']")
    walk.follow(page, "form:has(input[name=action][value=finalise]) button")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.FINALISED
    walk.done(f"round {number} finalised")


def incident_ruling_appeal_votes(walk, day):
    """7. Round 2: an incident from "my tables", a ruling from the desk, the captain's appeal
    from "my team's rulings", three votes from the committee's open appeals."""
    from arbitration.models import Appeal, Incident, Ruling

    match = day.tables2[2]
    offender = match.home
    page = walk.home("referee_a", "table_referee")
    walk.follow(page, "#my-table-2 a.table-incident")  # the form knows the match
    assert page.locator("select[name=match]").input_value() == str(match.pk)
    assert page.locator("select[name=player] option:not([value=''])").count() == 4
    page.select_option("select[name=team]", str(offender.pk))
    page.select_option("select[name=category]", "signalling")
    page.fill("textarea[name=description]", "东家两次敲桌示意同伴")
    walk.follow(page, "#incident-form button[type=submit]")
    incident = Incident.objects.get(match=match)
    assert (incident.team, incident.category) == (offender, "signalling")
    before = factories.points(day.event)

    page = walk.home("chief", "chief_referee")
    walk.follow(page, f"#desk-incidents a[href='/arbitration/t/{SLUG}/incidents/{incident.pk}/']")
    page.select_option("select[name=step]", "level_deduction")
    page.fill("input[name=levels]", "1")
    page.fill("#ruling-form textarea[name=reason]", "临场裁判亲见暗示，扣一级")
    walk.follow(page, "#ruling-form button[type=submit]")
    ruling = Ruling.objects.get(incident=incident)
    assert ruling.team == offender and ruling.is_active
    assert factories.points(day.event)[offender.name] < before[offender.name]

    walk.log_in("captain", day.captains[offender.name])
    page = walk.home("captain", "captain")
    walk.follow(page, f"#my-rulings a[href='/arbitration/t/{SLUG}/rulings/{ruling.pk}/appeal/']")
    assert offender.name in page.locator("#appealed-ruling").inner_text()
    assert page.locator("#filing-deadline").count() == 1  # the deadline above the grounds
    page.fill("textarea[name=grounds]", "是咳嗽，不是暗示；请看录像。")
    walk.follow(page, "main form button[type=submit]")
    appeal = Appeal.objects.get(ruling=ruling)
    assert appeal.team == offender and appeal.status == "open"

    for member, choice in zip(day.committee, ("uphold", "overturn", "overturn"), strict=True):
        walk.log_in(member.username, member)
        page = walk.home(member.username, "committee")
        walk.follow(page, f"main a[href='/arbitration/t/{SLUG}/appeals/{appeal.pk}/']")
        page.check(f"input[name=choice][value={choice}]")
        page.fill("#vote-form textarea[name=reason]", "录像为证。")
        walk.follow(page, "#vote-form button[type=submit]")
    appeal.refresh_from_db()
    ruling.refresh_from_db()
    assert appeal.votes.count() == 3 and appeal.status == "decided"
    assert not ruling.is_active and factories.points(day.event) == before
    decision = page.locator("#decision").inner_text()
    assert re.search(r"裁决:\s*撤销", decision), decision  # the decision in the votes' word
    walk.done("7 incident, ruling, appeal, 3 votes (overturned 2 : 1)")


def final_by_final_levels(walk, day):
    """4b. The final (best of three): its referee enters each game's final levels."""
    from tournaments.models import ResultVersion

    match = day.final_match
    page = walk.home("referee_a", "table_referee")
    open_table(walk, page, 1)
    assert "决赛" in page.locator("h1").inner_text()
    page.click("#final-levels summary")
    for n, (ew, ns) in enumerate(FINAL_LEVELS, 1):
        suffix = "" if n == 1 else f"_{n}"
        page.select_option(f"#final_ew{suffix}", ew)
        page.select_option(f"#final_ns{suffix}", ns)
    page.wait_for_function("document.querySelector('#final-summary').textContent !== ''")
    page.click("#submit-final")
    page.wait_for_selector("#final-status.ok")
    page.wait_for_selector("#history li")
    walk.read(page)
    entered = ResultVersion.objects.get(match=match)
    games = [game["final_levels"] for game in entered.record["games"]]
    assert games == [{"EW": ew, "NS": ns} for ew, ns in FINAL_LEVELS]
    assert entered.outcome["games_won"] == {"EW": 2, "NS": 0} and not entered.is_counting
    walk.done("4b the final: two games by their final levels")
    return entered


def captain_disputes(walk, day, entered):
    """5. The losing captain reads the final on "my match" and disputes it."""
    match = day.final_match
    walk.log_in("captain", day.captains[match.away.name])
    page = walk.home("captain", "captain")
    walk.follow(page, f"#match-{match.pk} a.btn")
    assert "第 1 局" in page.locator("#latest-deals").inner_text()  # read game by game
    page.click("#dispute summary")
    page.fill("#dispute-reason", f"第一局我方打到{CORRECTED_NS}，不是2")
    walk.follow(page, "#dispute-submit")
    dispute = entered.disputes.get()
    assert dispute.team == match.away and dispute.decided_at is None
    walk.done("5 the captain disputes from my match")
    return dispute


def chief_corrects_final_levels(walk, day, dispute):
    """6. The chief opens the dispute from the desk and corrects game 1's final levels."""
    from tournaments.models import ResultVersion

    match = day.final_match
    page = walk.home("chief", "chief_referee")
    assert page.locator("#desk-queue [data-count=queue]").inner_text() == "1"
    walk.follow(page, f"#desk-queue a[href='/t/{SLUG}/results/match/{match.pk}/']")
    assert "队长" in page.locator(".dispute").inner_text()  # who disputes, by name
    page.wait_for_selector("#final-levels[open]")
    summary = "document.querySelector('#diff-summary').textContent"
    page.wait_for_function(f"{summary}.includes('相同')")  # the editor is up: nothing changed
    page.select_option("#final_ns", CORRECTED_NS)
    page.wait_for_function(f"{summary}.includes('→')")  # version 1: old → new levels
    page.click("#submit-final")  # no reason yet: refused beside the button, in words
    page.wait_for_selector("#final-status.error")
    assert "理由" in page.locator("#final-status").inner_text()
    assert ResultVersion.objects.filter(match=match).count() == 1
    page.fill("#result-note", f"队长申诉属实：第一局南北为{CORRECTED_NS}")
    with page.expect_navigation():
        page.click("#submit-final")
    walk.read(page)
    correction = ResultVersion.objects.get(match=match, is_counting=True)
    assert (correction.kind, correction.number) == ("correction", 2)
    assert correction.record["games"][0]["final_levels"] == {"EW": "9", "NS": CORRECTED_NS}
    assert correction.outcome["games_won"] == {"EW": 2, "NS": 0}
    dispute.refresh_from_db()
    assert dispute.decided_at is not None  # the correction answers the dispute
    walk.done("6 the chief corrects the final levels")


def organiser_finishes(walk, day):
    """8. The event finished from its status page, after a confirmation dialog."""
    from tournaments.models import Event

    page = walk.home("organiser", "organiser")
    walk.follow(page, "#event-status-link")
    page.click("#finish-event")
    walk.confirm(page)
    day.event.refresh_from_db()
    assert day.event.status == Event.Status.FINISHED
    walk.done("8 the event finished")


def test_event_day_rehearsal(browser, live_server, time_machine, tmp_path):
    from tournaments.models import ResultVersion

    time_machine.move_to(datetime.now(UTC).replace(microsecond=0), tick=True)
    # the people's logins, made before the day (set-up, not walked)
    day = SimpleNamespace(
        organiser=factories.event_creator(factories.user("zuwei", first_name="王组委")),
        chief=factories.user("caipanzhang", first_name="李裁判长"),
        referee_a=factories.user("caipan1", first_name="张裁判"),
        referee_b=factories.user("caipan2", first_name="刘裁判"),
        committee=[
            factories.user(f"weiyuan{i}", first_name=f"{surname}委员")
            for i, surname in enumerate("赵钱孙", 1)
        ],
        captains={},
    )
    officials = (day.organiser, day.chief, day.referee_a, day.referee_b, *day.committee)
    walk = Walk(browser, live_server, {user.username for user in officials})
    try:
        organiser_prepares_and_draws(walk, day, tmp_path / "参赛队.xlsx")
        referees_seat_their_tables(walk, day)
        chief_forfeits_the_late_team(walk, day, time_machine)
        table_one_offline(walk, day)
        # round 1's tables 2-6 as their referees would submit them (not walked)
        for number in (2, 3, 4, 5, 6):
            referee = day.referee_a if number <= 4 else day.referee_b
            factories.result(
                day.tables[number], deals=deals(SWISS_RESULTS[number]), counting=False, by=referee
            )
        chief_confirms_and_finalises(walk, day, 1, confirm=True)

        second = draw_publish_start(walk, 2)
        assert second.stage_id == day.swiss.pk
        day.tables2 = {m.table_number: m for m in second.matches.exclude(away=None)}
        assert sorted(day.tables2) == [1, 2, 3, 4, 5, 6, 7]
        # round 2's results as the chief would confirm them (not walked: round 1 was)
        for number, match in day.tables2.items():
            factories.result(match, deals=deals(SWISS_RESULTS[number]), by=day.chief)
        incident_ruling_appeal_votes(walk, day)
        chief_confirms_and_finalises(walk, day, 2, confirm=False)

        final_round = draw_publish_start(walk, 3)
        assert final_round.stage_id == day.final.pk
        day.final_match = final_round.matches.get()
        assert day.final_match.table_number == 1
        entered = final_by_final_levels(walk, day)
        dispute = captain_disputes(walk, day, entered)
        chief_corrects_final_levels(walk, day, dispute)
        chief_confirms_and_finalises(walk, day, 3, confirm=False)
        organiser_finishes(walk, day)
        assert (
            ResultVersion.objects.filter(match__round__event=day.event, is_counting=True).count()
            == 15
        )
    finally:
        walk.close()
    print(f"event day: {walk.pages_read} pages read in {time.monotonic() - walk.started:.1f} s")
    assert not [v for page in walk.csp for v in page], walk.csp
    assert not walk.problems, "\n".join(walk.problems)
