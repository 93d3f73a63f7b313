"""The organiser's standings page: the chief referee reads it and draws lots among teams still
tied (SPEC 3), from the page."""

from django.urls import reverse

from tests import factories
from tournaments.models import LotDraw, Team


def tied_event(make_event):
    event = make_event(teams=4)
    a, b, c, d = Team.objects.filter(event=event).order_by("name")
    factories.played_round(event, 1, [(a, b), (c, d)])
    return event


def test_chief_draws_lots_for_a_tie_from_the_standings_page(client, make_event):
    event = tied_event(make_event)
    chief = factories.chief_of(event)
    client.force_login(chief)
    page = client.get(reverse("tournaments:manage-standings", args=[event.slug]))
    assert page.status_code == 200
    assert b'id="ties"' in page.content and b'name="rank" value="1"' in page.content
    answer = client.post(
        reverse("tournaments:draw-lots", args=[event.slug]), {"rank": "1"}, follow=True
    )
    draw = LotDraw.objects.get(event=event)
    assert answer.status_code == 200
    assert " &gt; ".join(draw.names).encode() in answer.content  # the order is shown
    assert b'name="rank" value="1"' not in answer.content  # rank 1 is no longer tied
    assert b'name="rank" value="3"' in answer.content


def test_a_draw_for_a_rank_not_tied_is_refused_with_a_message(client, make_event):
    event = tied_event(make_event)
    client.force_login(factories.chief_of(event))
    answer = client.post(
        reverse("tournaments:draw-lots", args=[event.slug]),
        {"rank": "2"},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert b"No teams are tied at rank 2" in answer.content
    assert not LotDraw.objects.exists()


def test_a_table_referee_may_not_draw_lots(client, make_event, make_user, grant):
    event = tied_event(make_event)
    referee = make_user()
    grant(referee, event, "table_referee", tables=[1])
    client.force_login(referee)
    answer = client.post(reverse("tournaments:draw-lots", args=[event.slug]), {"rank": "1"})
    assert answer.status_code == 403
    assert not LotDraw.objects.exists()
