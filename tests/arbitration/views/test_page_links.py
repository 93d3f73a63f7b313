"""The arbitration pages show the links the permission table allows, and no others."""

import pytest
from django.urls import reverse

LINKS = {
    "dashboard.chief": "arbitration:chief",
    "dashboard.committee": "arbitration:committee",
    "incident.log": "arbitration:incident-add",
}


@pytest.mark.parametrize(
    ("who", "shown"),
    [
        ("chief", {"dashboard.chief", "dashboard.committee", "incident.log"}),
        ("organiser", {"dashboard.chief"}),
        ("referee", {"incident.log"}),
        ("captain", set()),
    ],
)
def test_each_role_sees_the_links_it_may_follow(arb, client, who, shown):
    client.force_login(getattr(arb, who))
    page = client.get(reverse("arbitration:index", args=[arb.event.slug]))
    assert page.status_code == 200
    body = page.content.decode()
    for action, name in LINKS.items():
        link = f'href="{reverse(name, args=[arb.event.slug])}"'
        assert (link in body) is (action in shown), action
        followed = client.get(reverse(name, args=[arb.event.slug]))
        assert (followed.status_code == 200) is (action in shown), action
