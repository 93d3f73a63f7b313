"""A way through for every role (issue 24): from the front page after login, by links alone,
each role reaches every page on its list (tests/reachability.py: ROLE_PAGES); every page
reached in Chinese shows no raw code and no English word (the vocabulary rules of
tests/test_vocabulary.py, and a rule on Latin words)."""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests.reachability import ROLE_PAGES, crawl, reached_names
from tests.test_vocabulary import (
    USERNAME_PAGE_EXACT,
    USERNAME_PAGES,
    data_names,
    problems_in_chinese,
    visible_text,
    world,  # noqa: F401 - the fixture: the demo with rulings, appeals, incidents, a job
)

# Latin words a Chinese page may show: the product's name, the formats and codes people know
# by these letters.
LATIN_ALLOWED = {
    "paisai",
    "QR",
    "PDF",
    "API",
    "Excel",
    "xlsx",
    "ID",
    "CSV",
    "JSON",
    "Token",
    "token",
    "English",  # the language switch names each language in itself
    "zwj",  # the find page's example of pinyin initials (张卫军)
    "Authorization",  # the API token page names the HTTP header to send
    "BJ",
    "NT",
}  # the rules desk's card notation ("S7 H7 BJ", NT 无主)
LATIN_WORD = re.compile(r"(?<![\w.@/-])[A-Za-z][A-Za-z'’]+(?![\w@/-])")


def english_words(text: str, allowed: set[str]) -> list[str]:
    from tests.test_vocabulary import _URL

    text = _URL.sub(" ", text)
    return sorted({w for w in LATIN_WORD.findall(text) if w not in allowed})


@pytest.fixture
def roles_world(world):  # noqa: F811 - the fixture imported above
    """The vocabulary walk's world, and a ruling against captain1's team not yet appealed
    (its appeal button is on the captain's home)."""
    from arbitration.services.incidents import log_incident
    from arbitration.services.rulings import rule
    from tournaments.permissions import captain_team_ids

    event, users = world.events[0], world.users
    [team_id] = captain_team_ids(users["captain1"], event)
    incident = log_incident(
        event,
        users["chief"],
        category="slow_play",
        description="出牌慢",
        team=event.teams.get(pk=team_id),
    )
    with translation.override("zh-hans"):  # the chief works in Chinese: the escalation's words
        rule(incident, users["chief"], step="warning", reason="提醒一次")
    return world


def crawl_as(client, event_world, username):
    client.logout()
    client.force_login(event_world.users[username])
    return crawl(client, "/", "zh-hans", slugs={event_world.events[0].slug})


@pytest.mark.parametrize("username", sorted(ROLE_PAGES))
def test_every_page_of_a_role_is_reachable_from_its_front_page_by_links(
    roles_world, client, username
):
    pages = crawl_as(client, roles_world, username)
    missing = ROLE_PAGES[username] - reached_names(pages)
    assert not missing, f"{username} cannot reach {sorted(missing)} ({len(pages)} pages read)"
    assert all(status < 500 for _p, _n, status, _h in pages)


@pytest.mark.parametrize("username", sorted(ROLE_PAGES))
def test_every_page_a_role_reaches_in_chinese_shows_no_code_and_no_english(
    roles_world, client, username
):
    event_world = roles_world
    usernames = set(get_user_model().objects.values_list("username", flat=True))
    slugs = {e.slug for e in event_world.events}
    names = data_names()
    latin_names = {w for name in names for w in re.findall(r"[A-Za-z]+", name)}
    found = []
    for path, _name, status, html in crawl_as(client, event_world, username):
        if status != 200 or not html:
            continue
        text = visible_text(html.encode())
        login_page = any(p in path for p in USERNAME_PAGES) or path.endswith(USERNAME_PAGE_EXACT)
        if login_page:
            for known in usernames:
                text = re.sub(rf"(?<![\w-]){re.escape(known)}(?![\w-])", " ", text)
        named = {
            u
            for u in usernames
            if get_user_model().objects.filter(username=u).exclude(first_name="").exists()
        }
        found += [
            f"{path}: {p}" for p in problems_in_chinese(text, set() if login_page else named, slugs)
        ]
        for word in english_words(text, LATIN_ALLOWED | latin_names | usernames):
            found.append(f"{path}: English {word!r}")
    assert not found, "\n".join(sorted(set(found)))
