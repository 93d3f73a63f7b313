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
    phone.goto(f"{live_server.url}/arbitration/t/{arb.event.slug}/desk/")
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


@pytest.mark.django_db(transaction=True)
def test_desk_card_picker_counts_copies_and_shows_legal_plays_as_cards(
    arb, live_server, phone, login
):
    login(phone, live_server, arb.chief)
    phone.goto(f"{live_server.url}/arbitration/t/{arb.event.slug}/desk/")
    phone.select_option("#id_game", "tractor")
    phone.fill("#id_level", "5")
    phone.fill("#id_trump", "S")
    phone.click("#pick-hand")
    for code in ("C3", "C8", "C6", "C6", "HK"):
        phone.click(f"#picker-grid .pick[data-card='{code}']")
    assert phone.input_value("#id_hand") == "C3 C8 C6 C6 HK"
    six = phone.locator("#picker-grid .pick[data-card='C6']")
    assert "×2" in six.inner_text()
    six.click()  # three decks: a third copy is allowed, then no more
    assert six.is_disabled()
    phone.click("#picker-remove")
    six.click()
    assert phone.input_value("#id_hand") == "C3 C8 C6 C6 HK"
    phone.click("#picker-remove")
    phone.click("#pick-lead")
    phone.click("#picker-grid .pick[data-card='C9']")
    phone.click("#picker-grid .pick[data-card='C9']")
    assert phone.input_value("#id_lead") == "C9 C9"
    phone.check("#id_list_plays")
    with phone.expect_navigation():
        phone.click("#desk-form button[name=ask]")
    assert phone.locator("#verdict").inner_text() == "合法出牌"
    plays = phone.locator("#legal-plays")
    assert "跟牌" in plays.inner_text() and plays.locator(".playing-card").count() == 2
    assert not phone.locator("#desk-answer").is_visible()  # the JSON is behind "details"
    phone.click("#desk-details summary")
    assert phone.locator("#desk-answer").is_visible()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.django_db(transaction=True)
def test_desk_card_picker_shows_each_cards_idiom_for_the_idiom_game(arb, live_server, phone, login):
    login(phone, live_server, arb.chief)
    phone.goto(f"{live_server.url}/arbitration/t/{arb.event.slug}/desk/")
    phone.select_option("#id_game", "chengyu")
    phone.click("#pick-hand")
    assert "助人为乐" in phone.locator("#picker-grid .pick[data-card='S7']").inner_text()
    assert phone.locator("#picker-grid .pick[data-card='BJ']").count() == 0
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.django_db(transaction=True)
def test_desk_play_log_is_tapped_seat_by_seat_and_replayed(arb, live_server, phone, login):
    login(phone, live_server, arb.chief)
    phone.goto(f"{live_server.url}/arbitration/t/{arb.event.slug}/desk/")
    phone.select_option("#id_game", "tractor")
    phone.fill("#id_level", "5")
    phone.fill("#id_trump", "S")
    phone.select_option("#id_dealer", "EW")  # a choice of 东西 and 南北, not typed
    phone.fill("#id_hands", "E: CA CA\nN: S2 S2\nW: C3 C4\nS: D2 D3")
    phone.click("#pick-play_log")
    for seat, cards in (
        ("E", ["CA", "CA"]),
        ("N", ["S2", "S2"]),
        ("W", ["C3", "C4"]),
        ("S", ["D2", "D3"]),
    ):
        phone.click(f"#picker-grid .seat[data-seat='{seat}']")
        for code in cards:
            phone.click(f"#picker-grid .pick[data-card='{code}']")
    assert phone.input_value("#id_play_log") == "E: CA CA\nN: S2 S2\nW: C3 C4\nS: D2 D3"
    with phone.expect_navigation():
        phone.click("#desk-form button[name=ask]")
    assert phone.locator("#verdict").inner_text() == "合规"
    assert "已打 1 墩" in phone.locator("#desk-replay").inner_text()
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
