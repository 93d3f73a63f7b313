"""Issue 31: an event always has an organiser."""

from __future__ import annotations

import pytest

from tournaments.models import EventRole, Role
from tournaments.services import roles

pytestmark = pytest.mark.django_db


def organiser_roles(event):
    return EventRole.objects.filter(event=event.event, role=Role.ORGANISER)


def test_the_last_organiser_role_cannot_be_removed(event):
    """The event's creator and the fixture's organiser: one may go, the last may not."""
    first, last = list(organiser_roles(event).order_by("pk"))
    roles.revoke(first, event.organiser)
    with pytest.raises(roles.RoleError) as refused:
        roles.revoke(last, event.organiser)
    assert refused.value.field == "role" and refused.value.status == 409
    assert "always has an organiser" in str(refused.value.message)
    assert organiser_roles(event).count() == 1


def test_the_last_organiser_cannot_remove_their_role_through_the_api(event, api_as):
    for role in organiser_roles(event).exclude(user=event.organiser):
        roles.revoke(role, event.organiser)
    mine = organiser_roles(event).get()
    answer = api_as(event.organiser).delete(f"/api/tournaments/{event.event.slug}/roles/{mine.pk}/")
    assert answer.status_code == 409, answer.content
    assert answer.json()["field"] == "role"
    assert organiser_roles(event).count() == 1
