"""The base layout works in a real browser on a phone: login, language switch, console."""

import pytest


@pytest.mark.django_db(transaction=True)
def test_organiser_logs_in_on_a_phone_and_switches_to_english(
    live_server, phone, login, make_user, make_event, grant
):
    event = make_event(teams=3, name="春季赛")
    user = grant(make_user("org"), event, "organiser")
    login(phone, live_server, user)
    phone.goto(f"{live_server.url}/t/{event.slug}/manage/")
    assert phone.locator("h1").inner_text().startswith("组委会控制台")
    assert phone.locator("#teams tbody tr").count() == 3
    with phone.expect_navigation():
        phone.select_option("#language-switch select", "en")
    assert phone.locator("h1").inner_text().startswith("Organiser console")
    # Nothing overflows a 390-px screen horizontally at the page level.
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
