"""Accounts without the admin, on a 390×844 phone in Chinese (issue 24): the organiser
invites a chief referee by name and makes captain logins for the teams without one; the
chief opens the one-time link on their own phone, chooses a password and lands on the front
page, whose first button is the chief's desk; the desk links the board and attendance."""

from __future__ import annotations

import pytest

from tests import factories
from tests.e2e.conftest import watch_csp
from tournaments.models import EventRole, LoginLink

PHONE = {"width": 390, "height": 844}


def phone_page(browser):
    context = browser.new_context(viewport=PHONE, locale="zh-CN", has_touch=True, is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    return context, page, watch_csp(page)


@pytest.mark.django_db(transaction=True)
def test_invite_a_chief_and_captains_then_the_chief_logs_in_by_the_link(
    browser, live_server, login
):
    event = factories.event(teams=4, name="苏州公开赛", slug="suzhou-open")
    factories.round_(
        event,
        1,
        [tuple(event.teams.order_by("name")[:2]), tuple(event.teams.order_by("name")[2:4])],
        status="in_play",
    )
    organiser = factories.organiser_of(event)
    context, page, violations = phone_page(browser)
    try:
        login(page, live_server, organiser)
        page.goto(f"{live_server.url}/t/{event.slug}/manage/")
        page.click("#accounts-link")
        page.fill("#id_name", "王裁判长")
        page.select_option("#id_role", "chief_referee")
        page.click("#invite-submit")
        page.wait_for_selector(".login-link")
        held = EventRole.objects.get(event=event, role="chief_referee", user__first_name="王裁判长")
        link = page.locator(f"#person-{held.user_id} .login-link").get_attribute("href")
        # captains for every team without one, in one action
        page.click("[data-only=without]")
        page.click("#make-captains")
        # made by a job (issue 35): its page says how many, then leads on to the sheet
        page.wait_for_selector("#job-made")
        page.click("#job-next")
        page.wait_for_selector("#captain-cards")
        assert page.locator(".captain-card").count() == 4
        assert EventRole.objects.filter(event=event, role="captain").count() == 4
        page.screenshot(path="var/screens/captains-sheet.png", full_page=True)
    finally:
        context.close()
    assert not violations

    context, page, violations = phone_page(browser)
    try:
        page.goto(link)
        page.click("#use-link")
        page.wait_for_selector("#save-password")
        page.fill("#id_new_password1", "Zhang-Cai-2026!")
        page.fill("#id_new_password2", "Zhang-Cai-2026!")
        page.click("#save-password")
        page.wait_for_selector("#my-homes")
        first = page.locator("#my-homes a.btn").first
        assert first.get_attribute("data-role") == "chief_referee"
        first.click()
        page.wait_for_selector("#desk-rounds")
        page.screenshot(path="var/screens/desk-after-invite.png", full_page=True)
        assert page.locator(f"a[href='/t/{event.slug}/manage/rounds/1/board/']").count() >= 1
        assert page.locator(f"a[href='/t/{event.slug}/manage/rounds/1/attendance/']").count() >= 1
    finally:
        context.close()
    assert not violations
    assert LoginLink.objects.get(user=held.user).used_at is not None
    held.user.refresh_from_db()
    assert held.user.check_password("Zhang-Cai-2026!")
