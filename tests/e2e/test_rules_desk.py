"""The rules desk on a referee's phone: only the inputs of the chosen game and question show,
and a disputed tractor follow gets the engine's ruling in Chinese."""

import pytest

from tests.arbitration import conftest as fixtures

arb = fixtures.arb


@pytest.mark.django_db(transaction=True)
def test_desk_shows_the_inputs_of_the_question_and_rules_a_tractor_follow(
    arb, live_server, phone, login
):
    login(phone, live_server, arb.chief)
    phone.goto(f"{live_server.url}/arbitration/t/{arb.tournament.slug}/desk/")
    assert phone.locator("#id_previous").is_visible()  # guandan: the previous play
    assert not phone.locator("#id_lead").is_visible()
    phone.select_option("#id_game", "tractor")
    assert phone.locator("#id_lead").is_visible() and not phone.locator("#id_previous").is_visible()
    phone.fill("#id_level", "5")
    phone.fill("#id_trump", "S")
    phone.fill("#id_hand", "C3 C8 C8 D4 H6")
    phone.fill("#id_lead", "C9 C9")
    phone.fill("#id_play", "C3 C8")
    with phone.expect_navigation():
        phone.click("#desk-form button[name=ask]")
    assert phone.locator("#verdict").inner_text() == "违规"
    ruling = phone.locator("#desk-ruling").inner_text()
    assert "须跟出梅花的一个对子" in ruling  # the reason in Chinese
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
