"""The projector of a staged event: each hall's screen shows its own section's tables (issue 14,
"by hall/section when there are any"), and the pairings API filters by section."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.services import rounds, stage_rounds, stage_sections


@pytest.fixture
def two_sections(db):
    event = factories.event(teams=12, units=4)
    who = factories.organiser_of(event)
    stage = factories.stage(event, name="预赛", num_rounds=2)
    a, b = factories.sections(stage, "A组", "B组")
    stage_sections.split_teams(stage, who, "snake")
    rnd = rounds.publish(stage_rounds.draw_round(stage, who), who, confirm_reason="test")
    return event, rnd, a, b


def _tables(rnd, section):
    return set(
        rnd.matches.filter(section=section)
        .exclude(away=None)
        .values_list("table_number", flat=True)
    )


def test_a_section_screen_of_the_projector_shows_only_that_sections_tables(client, two_sections):
    event, rnd, a, b = two_sections
    page = client.get(f"/t/{event.slug}/projector/", {"section": a.pk}, HTTP_ACCEPT_LANGUAGE="en")
    assert page.status_code == 200
    html = page.content.decode()
    names_a = {m.home.name for m in rnd.matches.filter(section=a)}
    names_b = {m.home.name for m in rnd.matches.filter(section=b)}
    assert all(name in html for name in names_a)
    assert not any(name in html for name in names_b)
    assert "A组" in html.split("</h1>")[0]  # the screen says which section it shows
    assert f"section={a.pk}" in html  # the next screens are read for the same section
    whole = client.get(f"/t/{event.slug}/projector/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'href="?section={b.pk}"' in whole and "All tables" in whole
    assert all(name in whole for name in names_a | names_b)


def test_the_public_pairings_api_filters_by_section(client, two_sections):
    event, rnd, a, b = two_sections
    url = f"/api/tournaments/{event.slug}/public/pairings/"
    answer = client.get(url, {"section": b.pk}).json()
    assert answer["section"] == "B组"
    assert {row["table"] for row in answer["tables"] if row["table"]} == _tables(rnd, b)
    every = client.get(url).json()
    assert every["section"] is None and every["count"] == rnd.matches.count()
    unknown = client.get(url, {"section": 10**6}).json()  # not a section of the round: all
    assert unknown["count"] == rnd.matches.count()
