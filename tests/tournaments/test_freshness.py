"""Public freshness has one home (tournaments.freshness): every write of a public model's rows,
a save or a queryset's update/delete/bulk write, moves the event's revision, so a cached
public answer is never served after the data under it changed.

- each public model's queryset writes bump its event;
- a bulk write that changes a public answer changes its ETag (no 304 with the old one);
- every table a public answer reads is a public model's: a model added to what the public
  sees without the public manager fails here.
"""

from __future__ import annotations

import re

import pytest
from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tests import factories
from tournaments import freshness
from tournaments.models import (
    CheckIn,
    Event,
    LotDraw,
    Match,
    Player,
    RankingAdjustment,
    ResultVersion,
    Round,
    RoundSlot,
    Section,
    SectionEntry,
    Stage,
    Team,
    Unit,
)

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}
PUBLIC = (
    Event,
    Unit,
    Team,
    Player,
    Round,
    Match,
    RoundSlot,
    ResultVersion,
    RankingAdjustment,
    Stage,
    Section,
    SectionEntry,
    LotDraw,
    CheckIn,
)
# Tables a public answer may read that are no event's data: the revision itself, and the jobs
# making the public files of a revision (keyed by the revision they were made from; a job's
# writes must not move it, or every finished file would ask for the next one).
NOT_EVENT_DATA = {"tournaments_eventrevision", "tournaments_job"}


def test_the_public_models_are_those_with_the_public_manager():
    found = {m for m in apps.get_app_config("tournaments").get_models() if freshness.is_public(m)}
    assert found == set(PUBLIC)


@pytest.fixture
def played(event, make_event):
    """The standard event with table 1's result counting; another event in stages, with a
    section."""
    factories.result(event.match)
    stage = factories.stage(make_event(teams=4))
    [section] = factories.sections(stage, "A")
    return event, stage, section


def _rows(played):
    event, stage, section = played
    t = event.event
    return {
        Event: Event.objects.filter(pk=t.pk),
        Unit: Unit.objects.filter(event=t),
        Team: Team.objects.filter(event=t),
        Player: Player.objects.filter(team__event=t),
        Round: Round.objects.filter(event=t),
        Match: Match.objects.filter(round__event=t),
        RoundSlot: RoundSlot.objects.filter(round__event=t),
        ResultVersion: ResultVersion.objects.filter(match__round__event=t),
        Stage: Stage.objects.filter(pk=stage.pk),
        Section: Section.objects.filter(pk=section.pk),
    }


# a harmless value for each model's update (the write itself is what counts)
SAME = {
    Event: {"venue": "Hall 9"},
    Unit: {"name": "Unit X"},
    Team: {"status": "active"},
    Player: {"ident": ""},
    Round: {"ends_at": None},
    Match: {"flags": []},
    RoundSlot: {"side": "EW"},
    ResultVersion: {"is_counting": True},
    Stage: {"name": "S"},
    Section: {"name": "A"},
}


@pytest.mark.parametrize("model", list(SAME), ids=lambda m: m.__name__)
def test_every_public_models_update_moves_the_revision(played, model):
    event = played[0]
    rows = _rows(played)[model]
    first = rows.order_by("pk").first()
    if model is RoundSlot:
        first = rows.filter(side="EW").first()
    if model is ResultVersion:
        first = rows.filter(is_counting=True).first()
    own = played[1].event if model in (Stage, Section) else event.event
    before = freshness.revision(own)
    assert model.objects.filter(pk=first.pk).update(**SAME[model]) == 1
    assert freshness.revision(own) > before, model.__name__


def test_bulk_create_bulk_update_and_delete_move_the_revision(played):
    event, stage, section = played
    t = event.event
    before = freshness.revision(t)
    [unit] = Unit.objects.bulk_create([Unit(event=t, name="新单位")])
    assert freshness.revision(t) > before
    before = freshness.revision(t)
    player = Player.objects.filter(team__event=t).first()
    player.name = "新名字"
    Player.objects.bulk_update([player], ["name"])
    assert freshness.revision(t) > before
    staged = stage.event
    before = freshness.revision(staged)
    team = Team.objects.filter(event=staged).first()
    SectionEntry.objects.bulk_create(
        [SectionEntry(section=section, stage=stage, team=team, seed=1)]
    )
    assert freshness.revision(staged) > before
    before = freshness.revision(staged)
    assert SectionEntry.objects.filter(stage=stage).delete()[0] == 1
    assert freshness.revision(staged) > before
    before = freshness.revision(t)
    Unit.objects.filter(pk=unit.pk).delete()
    assert freshness.revision(t) > before


def test_a_write_of_another_event_leaves_this_ones_revision(played, make_event):
    event = played[0]
    other = make_event(teams=2)
    before = freshness.revision(event.event)
    Team.objects.filter(event=other).update(status="withdrawn")
    assert freshness.revision(event.event) == before


def test_a_bulk_write_that_changes_a_public_answer_changes_its_etag(played):
    """The old hole: a service's update() or bulk write without its invalidate() left the
    public pages answering 304 to the old ETag with the old content."""
    event = played[0]
    client = Client()
    path = reverse("tournaments:public-standings", args=[event.event.slug])
    first = client.get(path, **EN)
    tag = first["ETag"]
    assert client.get(path, HTTP_IF_NONE_MATCH=tag, **EN).status_code == 304
    Team.objects.filter(pk=event.teams[0].pk).update(name="改名队")  # a bulk write, no save
    again = client.get(path, HTTP_IF_NONE_MATCH=tag, **EN)
    assert again.status_code == 200 and again["ETag"] != tag
    assert "改名队" in again.content.decode()
    # the counting result withdrawn by a queryset write: the standings change too
    tag = again["ETag"]
    ResultVersion.objects.filter(match=event.match).update(is_counting=False)
    assert client.get(path, HTTP_IF_NONE_MATCH=tag, **EN).status_code == 200


def _tables(sql: str) -> set[str]:
    return set(re.findall(r'(?:FROM|JOIN)\s+"?([a-z_]+)"?', sql))


def test_every_table_a_public_answer_reads_is_a_public_models(played):
    """Render every public page and public API answer and list the tables their queries
    read: each one must be a public model's (whose writes move the revision)."""
    event, stage, _section = played
    slug, team = event.event.slug, event.teams[0]
    paths = [
        reverse("tournaments:public-standings", args=[slug]),
        reverse("tournaments:public-pairings", args=[slug]),
        reverse("tournaments:public-units", args=[slug]),
        reverse("tournaments:public-team", args=[slug, team.pk]),
        reverse("tournaments:projector", args=[slug]),
        reverse("tournaments:find-table", args=[slug]) + "?q=Team",
        f"/api/tournaments/{slug}/public/standings/",
        f"/api/tournaments/{slug}/public/pairings/",
        f"/api/tournaments/{slug}/public/find-table/?q=Team",
    ]
    staged = stage.event.slug  # an event in stages: sections on its pages
    paths += [
        reverse("tournaments:public-standings", args=[staged]),
        reverse("tournaments:projector", args=[staged]),
    ]
    public_tables = {m._meta.db_table for m in PUBLIC} | NOT_EVENT_DATA
    client = Client()
    read: set[str] = set()
    for path in paths:
        with CaptureQueriesContext(connection) as queries:
            response = client.get(path, **EN)
        assert response.status_code == 200, path
        for query in queries.captured_queries:
            read |= {name for name in _tables(query["sql"]) if name.startswith("tournaments_")}
    assert read, "no query was seen"
    assert read <= public_tables, (
        f"read by a public answer, not a public model: {read - public_tables}"
    )
