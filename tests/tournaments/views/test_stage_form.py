"""The stage form never drops a choice (issue 25): every combination of its match-format
and field settings is either stored as shown (the edit page shows back exactly what was
sent) or refused naming the field, with nothing stored. A stage is edited and removed on
its page until its first round is drawn."""

from __future__ import annotations

import itertools

import pytest

from tests import factories
from tournaments.models import AuditLog, Stage
from tournaments.services import stages
from tournaments.views.stages import StageForm, form_refusal

pytestmark = pytest.mark.django_db

ENDS = ["", "pass_a", "deals", "time", "time_or_deals"]
KINDS = ["swiss", "round_robin", "knockout"]


def page(event, path=""):
    return f"/t/{event.slug}/manage/stages/{path}"


def shown_back(stage) -> dict:
    """The form fields the edit page fills from the stored stage, as posted values."""
    initial = StageForm.initial_of(stage)
    return {key: value for key, value in initial.items() if value not in (None, "", False, [])}


@pytest.fixture
def organiser_client(client):
    event = factories.event(teams=4)
    client.force_login(factories.organiser_of(event))
    return event, client


COMBINATIONS = list(itertools.product(KINDS, ENDS, (None, 4), (None, 45), (False, True), (None, 3)))


FIELDS = {
    "name",
    "kind",
    "num_rounds",
    "end",
    "deals",
    "minutes",
    "best_of_three",
    "entrants",
    "qualify_top",
    "sources",
    "carry_points",
    "third_place",
}


@pytest.mark.parametrize("kind,end,deals,minutes,best_of_three,num_rounds", COMBINATIONS)
def test_every_combination_is_stored_as_shown_or_refused_naming_the_field(
    kind, end, deals, minutes, best_of_three, num_rounds
):
    event = factories.event(teams=4)
    who = factories.organiser_of(event)
    sent = {"name": "S", "kind": kind, "entrants": "all", "end": end}
    for key, value in (("deals", deals), ("minutes", minutes), ("num_rounds", num_rounds)):
        if value is not None:
            sent[key] = str(value)
    if best_of_three:
        sent["best_of_three"] = "on"
    form = StageForm(sent, event=event)
    try:
        if not form.is_valid():
            raise form_refusal(form)
        stage = stages.create_stage(event, who, **form.service_fields())
    except stages.StageError as refused:  # refused naming a field of the form; none stored
        assert refused.field in FIELDS
        assert not Stage.objects.filter(event=event).exists()
        return
    back = {
        k: str(v) if isinstance(v, int) and not isinstance(v, bool) else v
        for k, v in shown_back(stage).items()
    }
    back = {k: ("on" if v is True else v) for k, v in back.items()}
    assert back == {k: v for k, v in sent.items() if k != "end" or v}
    assert (stage.match_format.get("games") == 3) == best_of_three


def test_the_page_refuses_naming_the_field(organiser_client):
    event, client = organiser_client
    sent = {"name": "S", "kind": "knockout", "entrants": "all", "end": "pass_a", "deals": "4"}
    answer = client.post(page(event, "new/"), sent, HTTP_ACCEPT_LANGUAGE="en", follow=True)
    assert "Deals: Not used when a match ends" in answer.content.decode()
    assert not Stage.objects.filter(event=event).exists()


def test_best_of_three_alone_is_kept_with_the_usual_end(organiser_client):
    event, client = organiser_client
    client.post(
        page(event, "new/"),
        {"name": "KO", "kind": "knockout", "entrants": "all", "end": "", "best_of_three": "on"},
    )
    assert Stage.objects.get(event=event).match_format == {"games": 3}


def test_a_stage_is_edited_and_removed_on_its_page_until_its_first_round(organiser_client):
    event, client = organiser_client
    stage = factories.stage(event, name="Q", num_rounds=2)
    edit = client.get(page(event, f"{stage.pk}/edit/"))
    assert edit.status_code == 200 and 'id="stage-edit-form"' in edit.content.decode()
    assert 'id="stage-edit"' in client.get(page(event, f"{stage.pk}/")).content.decode()
    changed = {
        "name": "Qualifier",
        "kind": "swiss",
        "num_rounds": "3",
        "entrants": "all",
        "end": "deals",
        "deals": "6",
        "best_of_three": "on",
    }
    assert client.post(page(event, f"{stage.pk}/edit/"), changed).status_code == 302
    stage.refresh_from_db()
    assert (stage.name, stage.num_rounds) == ("Qualifier", 3)
    assert stage.match_format == {"end": "deals", "deals": 6, "games": 3}
    assert AuditLog.objects.filter(action="stage.update").exists()
    del changed["best_of_three"]  # unticked: stored as shown too
    assert client.post(page(event, f"{stage.pk}/edit/"), changed).status_code == 302
    stage.refresh_from_db()
    assert stage.match_format == {"end": "deals", "deals": 6}

    factories.play_stage_round(stage, deals=lambda match: factories.SIX_DEALS)  # 6 deals
    locked = client.get(page(event, f"{stage.pk}/edit/")).content.decode()
    assert 'id="stage-locked"' in locked and 'id="stage-delete-form"' not in locked
    refused = client.post(
        page(event, f"{stage.pk}/edit/"),
        {**changed, "num_rounds": "5"},
        HTTP_ACCEPT_LANGUAGE="en",
        follow=True,
    )
    assert "only its name can change now" in refused.content.decode()
    stage.refresh_from_db()
    assert stage.num_rounds == 3
    renamed = client.post(page(event, f"{stage.pk}/edit/"), {**changed, "name": "预赛"})
    assert renamed.status_code == 302
    stage.refresh_from_db()
    assert stage.name == "预赛"
    client.post(page(event, f"{stage.pk}/delete/"))
    assert Stage.objects.filter(pk=stage.pk).exists()  # it has a round: not removed

    other = factories.stage(event, name="Final", kind="knockout")
    assert client.post(page(event, f"{other.pk}/delete/")).status_code == 302
    assert not Stage.objects.filter(pk=other.pk).exists()
    assert AuditLog.objects.filter(action="stage.delete").exists()
