"""In a browser: a referee logs an incident, the chief referee rules a level deduction, the
captain appeals, the committee overturns; the standings are right at every step."""

import pytest

from arbitration.models import Appeal, Incident, Ruling
from tests.arbitration import conftest as fixtures
from tests.factories import enter_result, points

# the arbitration fixtures (the event and its officials) serve here too
arb = fixtures.arb

ORIGINAL = {"Team 001": 11, "Team 002": 9, "Team 003": 0, "Team 004": 0}
DEDUCTED = {"Team 001": 10, "Team 002": 10, "Team 003": 0, "Team 004": 0}


def submit(page, form: str):
    with page.expect_navigation():
        page.click(f"{form} button[type=submit]")


@pytest.mark.django_db(transaction=True)
def test_incident_ruling_appeal_overturn_with_standings_at_every_step(
    arb,
    live_server,
    phone,
    login,
):
    enter_result(arb)
    assert points(arb.event) == ORIGINAL
    base = f"{live_server.url}/arbitration/t/{arb.event.slug}"

    # the table referee logs the incident on a phone
    login(phone, live_server, arb.referee)
    phone.goto(f"{base}/incidents/new/")
    phone.select_option("select[name=match]", str(arb.match.pk))
    phone.select_option("select[name=team]", str(arb.teams[0].pk))
    phone.select_option("select[name=category]", "signalling")
    phone.fill("textarea[name=description]", "East tapped the table twice")
    submit(phone, "#incident-form")
    incident = Incident.objects.get()
    assert phone.url.endswith(f"/incidents/{incident.pk}/")
    assert phone.locator("#ruling-form").count() == 0  # a table referee does not rule
    assert points(arb.event) == ORIGINAL

    # the chief referee rules a level deduction
    login(phone, live_server, arb.chief)
    phone.goto(f"{base}/incidents/{incident.pk}/")
    phone.select_option("select[name=step]", "level_deduction")
    phone.fill("input[name=levels]", "1")
    phone.fill("textarea[name=reason]", "Signalling seen by the table referee")
    submit(phone, "#ruling-form")
    ruling = Ruling.objects.get()
    assert phone.url.endswith(f"/rulings/{ruling.pk}/")
    assert "10 : 10" in phone.locator("#ruling").inner_text()
    assert points(arb.event) == DEDUCTED

    # the captain appeals in writing
    login(phone, live_server, arb.captain)
    phone.goto(f"{base}/rulings/{ruling.pk}/")
    phone.fill("#appeal-form textarea[name=grounds]", "It was a cough, not a signal.")
    submit(phone, "#appeal-form")
    appeal = Appeal.objects.get()
    assert phone.url.endswith(f"/appeals/{appeal.pk}/")
    assert points(arb.event) == DEDUCTED

    # two of the three committee members overturn
    for number, member in enumerate(arb.committee[:2], 1):
        login(phone, live_server, member)
        phone.goto(f"{base}/appeals/{appeal.pk}/")
        phone.check("input[name=choice][value=overturn]")
        phone.fill("#vote-form textarea[name=reason]", "The video shows a cough.")
        submit(phone, "#vote-form")
        assert phone.locator("#votes tbody tr").count() == number
        assert points(arb.event) == (DEDUCTED if number == 1 else ORIGINAL)
    assert phone.locator("#decision").count() == 1
    assert appeal.status == "decided" and not ruling.is_active
    assert phone.evaluate("document.documentElement.scrollWidth") <= 390
