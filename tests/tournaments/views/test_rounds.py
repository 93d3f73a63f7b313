"""Organiser pages for rounds and standings: what they show, what they refuse, who may use them."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.tournaments.round_helpers import play_round
from tournaments.models import AuditLog, Match, Role, Round, Team
from tournaments.services import rounds

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def event(make_event):
    return make_event(teams=6, units=3)


@pytest.fixture
def organiser(make_user, grant, event, client):
    user = grant(make_user(), event, Role.ORGANISER)
    client.force_login(user)
    return user


def url(name, event, *args):
    return reverse(f"tournaments:{name}", args=[event.slug, *args])


def test_console_links_to_rounds_and_standings(client, event, organiser):
    page = client.get(url("console", event), **EN).content.decode()
    assert url("rounds", event) in page and url("manage-standings", event) in page


def test_organiser_drafts_round_one_with_a_seed_and_sees_the_tables(client, event, organiser):
    response = client.post(url("round-draft", event), {"seed": "4242"}, **EN)
    assert response.status_code == 302 and response.url == url("round", event, 1)
    page = client.get(response.url, **EN).content.decode()
    assert "4242" in page and "Draft pairing for round 1 ready" in page
    for match in Match.objects.filter(round__event=event):
        assert match.home.name in page and match.away.name in page
    listing = client.get(url("rounds", event), **EN).content.decode()
    assert "Draft pairing" in listing and "4242" in listing


def test_bad_seed_is_refused_with_a_message(client, event, organiser):
    response = client.post(url("round-draft", event), {"seed": "-3"}, follow=True, **EN)
    assert not Round.objects.filter(event=event).exists()
    assert "greater than or equal to 0" in response.content.decode()


def test_next_round_refused_until_finalised_shows_the_reason(client, event, organiser):
    rnd = rounds.generate_draft(event, organiser)
    rounds.publish(rnd, organiser)
    response = client.post(url("round-draft", event), {}, follow=True, **EN)
    assert "Round 1 is not finalised yet" in response.content.decode()
    assert Round.objects.filter(event=event).count() == 1


def test_flags_are_shown_as_readable_badges(client, make_event, make_user, grant):
    event = make_event(teams=4, units=1)
    client.force_login(grant(make_user(), event, Role.ORGANISER))
    client.post(url("round-draft", event), {"seed": "1"})
    page = client.get(url("round", event, 1), **EN).content.decode()
    assert page.count(">same unit<") == 2
    assert "both teams from the same unit" in page  # the explanation in the badge's title


def test_bye_and_left_out_teams_are_shown(client, event, organiser):
    Team.objects.filter(pk=event.teams.order_by("pk").first().pk).update(status="withdrawn")
    client.post(url("round-draft", event), {})
    page = client.get(url("round", event, 1), **EN).content.decode()
    assert "bye (scored as a forfeit win)" in page
    assert "Not paired (withdrawn or suspended)" in page and "Team 001" in page


def test_swap_form_swaps_with_a_reason_and_refuses_without(client, event, organiser):
    rnd = rounds.generate_draft(event, organiser, seed=9)
    one, two = Match.objects.filter(round=rnd).order_by("table_number")[:2]
    swap = url("round-swap", event, 1)
    data = {"team_a": one.home_id, "team_b": two.home_id, "reason": ""}
    response = client.post(swap, data, follow=True, **EN)
    assert "This field is required" in response.content.decode()
    assert not AuditLog.objects.filter(action="round.swap").exists()
    response = client.post(swap, {**data, "reason": "family request"}, follow=True, **EN)
    assert "Teams swapped" in response.content.decode()
    assert Match.objects.get(pk=one.pk).home_id == two.home_id
    assert AuditLog.objects.get(action="round.swap").reason == "family request"


def test_publish_then_start_the_clock(client, event, organiser):
    rounds.generate_draft(event, organiser)
    response = client.post(url("round-publish", event, 1), follow=True, **EN)
    assert "Round 1 is published" in response.content.decode()
    response = client.post(url("round-start", event, 1), follow=True, **EN)
    assert "Round 1 has started" in response.content.decode()
    assert Round.objects.get(event=event).status == Round.Status.IN_PLAY
    again = client.post(url("round-start", event, 1), follow=True, **EN).content.decode()
    assert "Only a published round can start" in again


def test_unknown_round_is_404(client, event, organiser):
    assert client.get(url("round", event, 9), **EN).status_code == 404


def test_standings_page_shows_the_presets_tiebreaks_and_any_round(client, event, organiser):
    a, b, c, d, e, f = event.teams.order_by("pk")
    play_round(event, 1, [(a, b), (c, d), (e, f)])
    play_round(event, 2, [(b, a), (d, c), (f, e)])
    Team.objects.filter(pk=f.pk).update(status="withdrawn")
    page = client.get(url("manage-standings", event), **EN).content.decode()
    for label in ("Total level difference", "Head-to-head", "Drawing lots"):
        assert label in page
    assert "withdrawn" in page and "Team 006" in page
    after_one = client.get(url("manage-standings", event) + "?after_round=1", **EN)
    assert '<option value="1" selected>' in after_one.content.decode()
    assert after_one.context["rows"][0][0].points == 13


def test_standings_labels_in_chinese_by_default(client, event, organiser):
    page = client.get(url("manage-standings", event), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert "总级差" in page.content.decode()


def test_standings_ignore_a_bad_after_round(client, event, organiser):
    response = client.get(url("manage-standings", event) + "?after_round=abc", **EN)
    assert response.status_code == 200 and response.context["after_round"] is None


@pytest.mark.parametrize(
    "name, args, method",
    [
        ("rounds", (), "get"),
        ("round-draft", (), "post"),
    ],
)
def test_pages_are_for_the_organiser_only(
    client, make_event, make_user, grant, event, name, args, method
):
    other = make_event(teams=2)
    referee = grant(make_user(), other, Role.CHIEF_REFEREE)  # a referee of another event
    client.force_login(referee)
    assert getattr(client, method)(url(name, event, *args), **EN).status_code == 403
    chief_here = grant(make_user(), event, Role.CHIEF_REFEREE)  # not an organiser
    client.force_login(chief_here)
    assert getattr(client, method)(url(name, event, *args), **EN).status_code == 403
    assert not Round.objects.filter(event=event).exists()


def test_standings_page_is_for_the_organiser_and_the_chief_referee(
    client, make_event, make_user, grant, event
):
    other = make_event(teams=2)
    client.force_login(grant(make_user(), other, Role.CHIEF_REFEREE))  # of another event
    assert client.get(url("manage-standings", event), **EN).status_code == 403
    client.force_login(grant(make_user(), event, Role.TABLE_REFEREE))
    assert client.get(url("manage-standings", event), **EN).status_code == 403
    client.force_login(grant(make_user(), event, Role.CHIEF_REFEREE))
    assert client.get(url("manage-standings", event), **EN).status_code == 200


def test_round_actions_refused_to_others(client, event, make_user, grant, make_event):
    rnd = rounds.generate_draft(event, grant(make_user(), event, Role.ORGANISER))
    other = make_event()
    client.force_login(grant(make_user(), other, Role.ORGANISER))
    for name in ("round", "round-swap", "round-publish", "round-start"):
        call = client.get if name == "round" else client.post
        assert call(url(name, event, 1), **EN).status_code == 403
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT


def test_anonymous_is_sent_to_log_in(client, event):
    response = client.get(url("rounds", event))
    assert response.status_code == 302 and "login" in response.url


def test_least_bad_round_is_published_only_with_a_reason_given_on_the_page(
    client, make_event, make_user, grant
):
    two = make_event(teams=2, num_rounds=3)
    user = grant(make_user(), two, Role.ORGANISER)
    client.force_login(user)
    first = rounds.generate_draft(two, user)
    rounds.publish(first, user)
    Round.objects.filter(pk=first.pk).update(status=Round.Status.FINALISED)
    client.post(url("round-draft", two), {}, **EN)
    page = client.get(url("round", two, 2), **EN).content.decode()
    assert 'id="confirm-rematches"' in page and "rematch" in page
    names = list(Team.objects.filter(event=two).values_list("name", flat=True))
    assert all(f"{name} and" in page or f"and {name}" in page for name in names)  # names, not ids
    refused = client.post(url("round-publish", two, 2), {}, follow=True, **EN)
    assert "confirm with a reason" in refused.content.decode()
    assert Round.objects.get(event=two, number=2).status == Round.Status.DRAFT
    client.post(url("round-publish", two, 2), {"confirm_reason": "two teams only"}, **EN)
    assert Round.objects.get(event=two, number=2).status == Round.Status.PUBLISHED
    assert AuditLog.objects.get(action="round.confirm_rematches").reason == "two teams only"


def test_explanation_names_teams_in_chinese(client, event, organiser):
    rounds.generate_draft(event, organiser, seed=7)
    page = client.get(url("round", event, 1), HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "抽签种子 7" in page
