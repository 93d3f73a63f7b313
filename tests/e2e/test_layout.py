"""Every main page fits a 390×844 phone and a 1366×900 desktop, read by the role that uses it.

One browser, one context per role, one page reused for every address and both sizes. On each
page the checker (``CHECK`` below, run inside the page) reports:

- overflow: the document is wider than the window (``scrollWidth > innerWidth``);
- clipped: a visible element that hides overflow (overflow hidden/clip, or an ellipsis) and
  whose text is wider or taller than its box, i.e. text the reader cannot see;
- squeezed: a visible table cell of three or more characters narrower than two characters —
  the "裁/判/长" column; a table may scroll inside its card instead, which is fine;
- small text: a chart's label (SVG text) drawn smaller than 12 px once the chart is scaled;
- tap: (phone only) a button, select, a link or button inside a table or a form, or a radio /
  checkbox with its label, smaller than 44×44 px.

``test_the_layout_checker_finds_each_defect`` feeds the checker one page with each defect, so
every check is shown to fail.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests import factories
from tests.e2e.conftest import csp_safe_waits

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 900}
TAP_PX = 44

CHECK = r"""(phone) => {
  const problems = [];
  const name = (el) => {
    let s = el.tagName.toLowerCase();
    if (el.id) s += "#" + el.id;
    if (el.classList.length) s += "." + [...el.classList].join(".");
    const text = (el.innerText || el.textContent || el.value || "").trim().replace(/\s+/g, " ").slice(0, 40);
    return s + (text ? ' "' + text + '"' : "");
  };
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const st = getComputedStyle(el);
    return st.visibility !== "hidden" && st.display !== "none" && !el.closest("[hidden]");
  };
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth) {
    const wide = [...document.body.querySelectorAll("*")]
      .filter((el) => visible(el) && el.getBoundingClientRect().right > window.innerWidth + 1)
      .filter((el) => !el.closest(".table-wrap"))
      .slice(-1).map(name);
    problems.push("overflow: page " + doc.scrollWidth + "px > " + window.innerWidth + "px " + wide);
  }
  for (const el of document.body.querySelectorAll("*")) {
    if (!visible(el) || !(el.innerText || "").trim()) continue;
    if (["SELECT", "OPTION", "TEXTAREA", "INPUT", "svg"].includes(el.tagName)) continue;
    const st = getComputedStyle(el);
    const hides = (v) => v === "hidden" || v === "clip";
    const cut = (hides(st.overflowX) || st.textOverflow === "ellipsis") && el.scrollWidth > el.clientWidth + 1
      || hides(st.overflowY) && el.scrollHeight > el.clientHeight + 1;
    if (cut) problems.push("clipped: " + name(el) + " " + el.scrollWidth + "x" + el.scrollHeight
                           + " in " + el.clientWidth + "x" + el.clientHeight);
  }
  for (const cell of document.querySelectorAll("td, th")) {
    if (!visible(cell)) continue;
    const text = (cell.innerText || "").trim();
    if ([...text].length < 3) continue;
    const st = getComputedStyle(cell);
    const inner = cell.clientWidth - parseFloat(st.paddingLeft) - parseFloat(st.paddingRight);
    if (inner < 2 * parseFloat(st.fontSize)) problems.push("squeezed: " + name(cell) + " " + Math.round(inner) + "px");
  }
  for (const text of document.querySelectorAll("svg text")) {
    if (!visible(text)) continue;
    const scale = text.ownerSVGElement.getScreenCTM();
    const px = parseFloat(getComputedStyle(text).fontSize) * (scale ? scale.a : 1);
    if (px < 12) problems.push("small text: " + name(text) + " " + px.toFixed(1) + "px");
  }
  if (phone) {
    const targets = new Set(document.querySelectorAll(
      "button, .btn, select, input[type=submit], table a, form a, td button"));
    for (const el of targets) {
      if (!visible(el) || el.closest("noscript")) continue;
      const r = el.getBoundingClientRect();
      if (r.height < 44 || r.width < 44) problems.push("tap: " + name(el) + " " + Math.round(r.width) + "x" + Math.round(r.height));
    }
    for (const box of document.querySelectorAll("input[type=radio], input[type=checkbox]")) {
      if (!visible(box)) continue;
      const label = box.closest("label") || (box.id && document.querySelector('label[for="' + box.id + '"]'));
      const r = (label && visible(label) ? label : box).getBoundingClientRect();
      if (r.height < 44) problems.push("tap: " + name(label || box) + " " + Math.round(r.height) + "px high");
    }
  }
  return problems;
}"""


def page_problems(page, phone: bool) -> list[str]:
    page.wait_for_load_state("load")
    return page.evaluate(CHECK, phone)


# --- the event every page is read in ------------------------------------------------------

LONG_NAMES = [
    "苏州市姑苏区棋牌协会一队",
    "南京掼蛋俱乐部精英二队",
    "无锡体育总会老年大学队",
    "常州电力职工队",
    "南通银行联队",
    "扬州老城区代表队",
]


def _site(make_event, make_user, grant):
    """A guandan event with a played round, a round in play whose table 1 has five versions
    (entry, correction, void, restore, a disputed entry), table links, an incident, a ruling,
    an appeal with one vote; a tractor and an idiom-chain event in play. One official of each
    role (the chief and the referee in all three events)."""
    from arbitration.services import appeals, incidents, rulings
    from tournaments.models import Round
    from tournaments.services import result_entry, results, table_keys

    event = make_event(
        name="2026 苏州掼蛋精英赛 · 第三届长三角城市邀请赛",
        slug="layout",
        venue="苏州市体育中心",
        num_rounds=7,
    )
    t = [
        factories.team(
            event,
            name,
            unit=("苏州棋牌协会", "南京掼蛋俱乐部")[i % 2],
            players=[f"{name[:2]}欧阳选手{seat}" for seat in (1, 2)],
        )
        for i, name in enumerate(LONG_NAMES)
    ]
    factories.played_round(
        event,
        1,
        [(t[0], t[1]), (t[2], t[3]), (t[4], t[5])],
        status="complete",
        deals=factories.SIX_DEALS,
    )
    rnd = factories.round_(
        event, 2, [(t[0], t[2]), (t[1], t[4]), (t[3], t[5])], status=Round.Status.IN_PLAY
    )
    Round.objects.filter(pk=rnd.pk).update(ends_at=timezone.now() + timedelta(minutes=50))
    people = dict(
        chief=grant(make_user("layout-chief"), event, "chief_referee"),
        referee=grant(make_user("layout-referee"), event, "table_referee", tables=[1, 2]),
        organiser=factories.organiser_of(event),
        captain=grant(make_user("layout-captain"), event, "captain", team=t[0]),
        committee=[grant(make_user(f"layout-committee{i}"), event, "committee") for i in (1, 2, 3)],
    )
    chief = people["chief"]
    match = rnd.matches.get(table_number=1)
    actor = results.Actor(chief, None, "web", "10.0.0.9")
    record = factories.guandan_record()
    v1 = result_entry.submit(
        match, record, actor, 0, confirm=True, note="临场裁判录入，双方队长口头确认"
    )
    v2 = result_entry.correct(
        match,
        factories.guandan_record(factories.SIX_DEALS[:4]),
        actor,
        v1.number,
        "第 3 副 记录有误，裁判长更正",
    )
    v3 = result_entry.void(match, actor, v2.number, "比赛暂停后重新开始")
    result_entry.correct(match, record, actor, v3.number, "恢复原始记录")
    referee_actor = results.Actor(people["referee"], None, "web", "10.0.0.10")
    result_entry.submit(rnd.matches.get(table_number=2), record, referee_actor, 0)
    table_keys.issue_missing(event, people["organiser"])
    incident = incidents.log_incident(
        event,
        people["referee"],
        category="signalling",
        match=match,
        team=t[0],
        description="东家两次敲桌示意同伴，临场裁判当场提醒无效，请裁判长到场处理",
    )
    [ruling, *_] = rulings.rule(
        incident,
        chief,
        step="level_deduction",
        levels=1,
        reason="临场裁判亲眼所见，视频回放确认两次敲桌",
    )
    appeal = appeals.file_appeal(
        ruling, people["captain"], "只是咳嗽，并非暗号；请仲裁委员会查看完整录像。"
    )
    appeals.vote(appeal, people["committee"][0], "uphold", "录像清楚显示敲桌两次。")
    drafted = make_event(
        name="第二站 无锡掼蛋公开赛", slug="layout-draft", teams=12, creator=people["organiser"]
    )
    from tournaments.services import rounds

    draft = rounds.generate_draft(drafted, people["organiser"], seed=7)
    games = {}
    for game in ("tractor", "chengyu"):
        other = make_event(name=f"{game} 邀请赛", slug=f"layout-{game}", game=game)
        o = [factories.team(other, name) for name in LONG_NAMES[:2]]
        factories.round_(other, 1, [(o[0], o[1])], status=Round.Status.IN_PLAY)
        grant(chief, other, "chief_referee")
        grant(people["referee"], other, "table_referee", tables=[1])
        games[game] = other
    return dict(
        event=event,
        teams=t,
        match=match,
        draft=draft,
        incident=incident,
        ruling=ruling,
        appeal=appeal,
        games=games,
        **people,
    )


def _pages(site) -> dict[str, list[str]]:
    """role → the addresses that role works on."""
    slug = site["event"].slug
    e, a = f"/t/{slug}", f"/arbitration/t/{slug}"
    team = site["teams"][0].pk
    match = site["match"].pk
    return {
        "public": [
            f"{e}/",
            f"{e}/pairings/",
            f"{e}/standings/",
            f"{e}/teams/{team}/",
            f"{e}/projector/",
            f"{e}/find/?q=欧阳",
            f"{e}/units/",
        ],
        "referee": [
            f"{e}/table/1/",
            *(f"/t/{g.slug}/table/1/" for g in site["games"].values()),
            f"{a}/incidents/new/",
        ],
        "chief": [
            f"{e}/results/match/{match}/",
            f"{e}/results/",
            f"{a}/chief/",
            f"{a}/incidents/{site['incident'].pk}/",
            f"{a}/rulings/{site['ruling'].pk}/",
            f"{a}/desk/",
            f"{e}/manage/rounds/2/board/",
            *(f"/t/{g.slug}/table/1/" for g in site["games"].values()),
        ],
        "organiser": [
            f"{e}/manage/",
            f"{e}/manage/rounds/",
            f"/t/{site['draft'].event.slug}/manage/rounds/1/",
            f"{e}/manage/rounds/2/",
            f"{e}/manage/checkin/",
            f"{e}/manage/assignments/",
            f"{e}/manage/tables/",
            f"{e}/manage/audit/",
            f"{e}/manage/prizes/",
            f"{e}/manage/standings/",
        ],
        "committee": [
            f"{a}/committee/",
            f"{a}/appeals/{site['appeal'].pk}/",
            f"{a}/rulings/{site['ruling'].pk}/",
        ],
        "captain": [
            f"{a}/rulings/{site['ruling'].pk}/",
            f"{a}/appeals/{site['appeal'].pk}/",
            f"{e}/results/match/{match}/",
        ],
    }


def _context(browser, live_server, user=None, time_zone=None):
    context = browser.new_context(
        viewport=PHONE, locale="zh-CN", has_touch=True, timezone_id=time_zone
    )
    page = context.new_page()
    page.set_default_timeout(15_000)
    violations: list[str] = []
    page.on("console", lambda m: "Content Security Policy" in m.text and violations.append(m.text))
    csp_safe_waits(page)
    if user is not None:
        page.goto(f"{live_server.url}/accounts/login/")
        page.fill("input[name=username]", user.username)
        page.fill("input[name=password]", "pw-" + user.username)
        with page.expect_navigation():
            page.click("main button[type=submit]")
    return context, page, violations


@pytest.mark.django_db(transaction=True)
def test_every_main_page_fits_a_phone_and_a_desktop_without_overflow_clipping_or_small_taps(
    browser, live_server, make_event, make_user, grant
):
    site = _site(make_event, make_user, grant)
    problems: list[str] = []
    for role, addresses in _pages(site).items():
        who = {"public": None, "committee": site["committee"][1]}.get(role, site.get(role))
        context, page, violations = _context(browser, live_server, who)
        try:
            for size, phone in ((PHONE, True), (DESKTOP, False)):
                page.set_viewport_size(size)
                for address in addresses:
                    answer = page.goto(live_server.url + address)
                    assert answer.status == 200, (role, address, answer.status)
                    where = f"{role} {size['width']} {address}"
                    problems += [f"{where}: {p}" for p in page_problems(page, phone)]
        finally:
            context.close()
        problems += violations
    assert problems == [], "\n".join(problems)


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_table_page_numbers_seats_and_deals_once_greys_disabled_buttons_and_uses_the_event_time_zone(
    browser, live_server, make_event, make_user, grant
):
    from tournaments.services import result_entry, results

    event = factories.build_event(make_event, make_user, grant)
    context, page, violations = _context(browser, live_server, event.referee, "America/New_York")
    try:
        result_entry.submit(
            event.match,
            factories.guandan_record(factories.TWO_DEALS),
            results.Actor(event.chief, None, "web", ""),
            0,
        )
        saved = results.latest_version(event.match)
        page.goto(f"{live_server.url}/t/{event.event.slug}/table/1/")
        submit = page.locator("#submit-result")
        assert submit.is_disabled()
        grey = submit.evaluate(
            "b => [getComputedStyle(b).backgroundColor, getComputedStyle(b).cursor]"
        )
        assert grey == ["rgb(228, 230, 233)", "not-allowed"]
        page.click("button.seat[data-seat=E]")
        page.click("button.seat[data-seat=W]")
        place = page.locator("button.seat[data-seat=W] .place")
        assert place.inner_text() == "2"
        look = place.evaluate(
            "p => [getComputedStyle(p).color, getComputedStyle(p).backgroundColor,"
            " parseFloat(getComputedStyle(p).fontSize)]"
        )
        assert look[0] != look[1] and look[2] >= 18
        page.click("#send-deal")
        page.wait_for_function("document.querySelectorAll('#deal-list li').length >= 1")
        deal = page.locator("#deal-list li").first
        assert deal.inner_text().startswith("#1")
        deals = page.locator("#deal-list")  # (its lines are redrawn as the engine answers)
        assert deals.evaluate("ol => getComputedStyle(ol).listStyleType") == "none"
        # the version list: the time in the event's zone (Asia/Shanghai), not New York's
        page.wait_for_function("document.querySelectorAll('#history li').length === 1")
        shanghai = timezone.localtime(saved.created_at).strftime("%Y-%m-%d %H:%M:%S")
        assert shanghai in page.locator("#history li").first.inner_text()
    finally:
        context.close()
    assert violations == []


@pytest.mark.django_db(transaction=True)
def test_on_a_phone_the_committee_sees_the_ruling_and_a_countdown_and_standings_explain_ties(
    browser, live_server, make_event, make_user, grant
):
    site = _site(make_event, make_user, grant)
    slug = site["event"].slug
    context, page, violations = _context(browser, live_server, site["committee"][1])
    try:
        page.goto(f"{live_server.url}/arbitration/t/{slug}/appeals/{site['appeal'].pk}/")
        ruling = page.locator("#appealed-ruling").inner_text()
        assert "临场裁判亲眼所见，视频回放确认两次敲桌" in ruling  # its reason
        assert "1 级" in ruling or "1 level" in ruling  # its effect: one level down
        left = page.locator("#appeal-state time.countdown .countdown-left")
        first = left.inner_text()
        assert first.startswith("(剩余时间 ") and first.endswith(")"), first
        page.wait_for_function(
            "(t) => document.querySelector('#appeal-state .countdown-left').textContent !== t",
            arg=first,
        )
        radio = page.locator("#vote-form label:has(input[type=radio])").first.bounding_box()
        assert radio["height"] >= TAP_PX
    finally:
        context.close()
    context, page, referee = _context(browser, live_server, site["referee"])
    try:  # the idiom-chain table page: the score says it counts deals won
        page.goto(f"{live_server.url}/t/{site['games']['chengyu'].slug}/table/1/")
        assert "副数" in page.locator("#score-counts").inner_text()
        page.goto(f"{live_server.url}/t/{site['games']['tractor'].slug}/table/1/")
        assert page.locator("#score-counts").count() == 0  # tractor's score is levels
    finally:
        context.close()
    context, page, more = _context(browser, live_server, None)
    try:
        page.goto(f"{live_server.url}/t/{slug}/standings/")
        tiebreaks = page.locator("#standings tbody tr .tiebreaks").first
        assert tiebreaks.is_visible() and tiebreaks.locator("span").count() >= 1
        page.set_viewport_size(DESKTOP)
        assert not tiebreaks.is_visible()  # the columns say it on a wide screen
    finally:
        context.close()
    assert violations + referee + more == []


BROKEN = """<!DOCTYPE html><html><head><meta name="viewport" content="width=device-width">
<style>.clip { width: 80px; overflow: hidden; white-space: nowrap; }
.narrow td { width: 1px; } .narrow { width: 30px; } .wide { width: 600px; }</style></head><body>
<div class="clip">North–South (away) 南北（客队）</div>
<table class="narrow"><tr><td>裁判长</td><td>x</td></tr></table>
<form><button style="padding:0;font-size:10px">OK</button>
<label><input type="radio" name="r"> 维持</label></form>
<div class="wide">wide</div>
<svg viewBox="0 0 640 240" width="200"><text x="10" y="20" font-size="12">R1</text></svg>
</body></html>"""


def test_the_layout_checker_finds_each_defect(browser):
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    try:
        page.set_content(BROKEN)
        problems = page.evaluate(CHECK, True)
        kinds = {problem.split(":")[0] for problem in problems}
        assert kinds == {"overflow", "clipped", "squeezed", "tap", "small text"}, problems
        assert any("div.clip" in p for p in problems)
        assert any("squeezed: td" in p and "裁判长" in p for p in problems)
        assert any('tap: button "OK"' in p for p in problems)
        assert any("tap: label" in p for p in problems)
        assert any('small text: text "R1"' in p for p in problems)
        page.set_content("<!DOCTYPE html><html><body><p>好</p></body></html>")
        assert page.evaluate(CHECK, True) == []
    finally:
        context.close()
