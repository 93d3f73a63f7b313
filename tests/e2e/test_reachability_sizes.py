"""Thumb-sized and phone-shaped (issue 24): every page each role reaches from its front page
by links (tests/reachability.py), opened on a 390×844 phone in Chinese, has no visible
control under 44 px high — links, buttons, selects, inputs, check boxes and radios with
their labels, summaries — and passes the layout checks of test_layout.py (no sideways
scrolling of the page, nothing clipped, no squeezed table column), no table scrolling sideways
(it stacks) and no short name broken across lines. Each role's home is
photographed (var/screens/) to be looked at."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.e2e.conftest import csp_safe_waits
from tests.e2e.test_layout import CHECK
from tests.reachability import ROLE_PAGES, crawl
from tests.test_vocabulary import world  # noqa: F401 - the fixture

PHONE = {"width": 390, "height": 844}
HOMES = {
    "organiser": "/t/{slug}/manage/",
    "chief": "/t/{slug}/chief/",
    "referee1": "/t/{slug}/my/tables/",
    "captain1": "/t/{slug}/my/match/",
    "committee1": "/arbitration/t/{slug}/committee/",
}
SCREENS = Path(
    os.environ.get("PAISAI_SCREENS", Path(__file__).resolve().parents[2] / "var" / "screens")
)

# Every visible control: links (but those inside a sentence of text), buttons, fields,
# summaries; a check box or radio counts by its label.
CONTROLS = r"""() => {
  const small = [];
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return false;
    const st = getComputedStyle(el);
    return st.visibility !== "hidden" && st.display !== "none" && !el.closest("[hidden], noscript");
  };
  const inSentence = (a) => {
    const block = a.closest("p, li, td, dd, div");
    if (!block || a.closest(".actions, nav, table, form, ul.plain")) return false;
    const text = (block.innerText || "").replace(/\s+/g, "");
    const own = (a.innerText || "").replace(/\s+/g, "");
    return text.length > own.length + 8;  // a link within a sentence, not a control alone
  };
  const name = (el) => el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") +
    ' "' + (el.innerText || el.value || el.getAttribute("aria-label") || "").trim().slice(0, 30) + '"';
  for (const el of document.querySelectorAll(
      "a[href], button, select, textarea, summary, input:not([type=hidden])")) {
    if (!visible(el)) continue;
    if (el.tagName === "A" && inSentence(el)) continue;
    let box = el;
    if (el.type === "checkbox" || el.type === "radio") {
      box = el.closest("label") || (el.id && document.querySelector('label[for="' + el.id + '"]')) || el;
    }
    const r = box.getBoundingClientRect();
    if (r.height < 44) small.push(name(el) + " " + Math.round(r.height) + "px high");
  }
  // a short name in a table (a team, a unit, a player: no space, at most 12 characters) is
  // never broken across lines (苏/州棋牌协会)
  for (const cell of document.querySelectorAll("td, th")) {
    if (!visible(cell)) continue;
    for (const node of cell.childNodes) {
      const text = node.nodeType === 3 ? node.textContent.trim() : "";
      if (!text || /\s/.test(text) || [...text].length > 12 || [...text].length < 2) continue;
      const range = document.createRange();
      range.selectNodeContents(node);
      const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
      if (lines.size > 1) small.push("broken name: " + text + " in " + lines.size + " lines");
    }
  }
  for (const wrap of document.querySelectorAll(".table-wrap")) {  // tables stack, never scroll
    if (visible(wrap) && wrap.scrollWidth > wrap.clientWidth + 1)
      small.push("sideways: " + name(wrap.querySelector("table") || wrap) + " " + wrap.scrollWidth + "px in " + wrap.clientWidth + "px");
  }
  return small;
}"""


@pytest.mark.django_db(transaction=True)
def test_every_page_a_role_reaches_fits_a_phone_with_thumb_sized_controls(
    world,  # noqa: F811 - the fixture imported above
    browser,
    live_server,
    client,
):
    slug = world.events[0].slug
    SCREENS.mkdir(parents=True, exist_ok=True)
    problems: list[str] = []
    for username in sorted(ROLE_PAGES):
        client.force_login(world.users[username])
        reached = crawl(client, "/", "zh-hans", slugs={slug})
        paths, names = [], set()
        for path, name, status, html in reached:  # one address a page kind
            if status == 200 and html and name not in names:
                names.add(name)
                paths.append(path)
        context = browser.new_context(
            viewport=PHONE, locale="zh-CN", has_touch=True, is_mobile=True, device_scale_factor=1
        )
        page = context.new_page()
        page.set_default_timeout(15_000)
        csp_safe_waits(page)
        try:
            page.goto(f"{live_server.url}/accounts/login/")
            page.fill("input[name=username]", username)
            page.fill("input[name=password]", "paisai-demo")
            with page.expect_navigation():
                page.click("main button[type=submit]")
            page.goto(live_server.url + HOMES[username].format(slug=slug))
            page.screenshot(path=str(SCREENS / f"home-{username}.png"), full_page=True)
            for path in paths:
                answer = page.goto(live_server.url + path)
                assert answer.status == 200, (username, path, answer.status)
                page.wait_for_load_state("load")
                where = f"{username} {path}"
                problems += [f"{where}: {p}" for p in page.evaluate(CHECK, True)]
                problems += [f"{where}: small {p}" for p in page.evaluate(CONTROLS)]
        finally:
            context.close()
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
