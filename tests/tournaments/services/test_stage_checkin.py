"""A late check-in in an event in stages (issue 25): the team joins the current stage from
its next round (the organiser chooses its section when there are several), or the check-in
is refused with the reason; a team without a table in a round is listed with why."""

from __future__ import annotations

import pytest

from tests import factories
from tournaments.models import CheckIn, Team
from tournaments.services import checkin, stage_rounds, stage_sections
from tournaments.services.stages import StageError

pytestmark = pytest.mark.django_db


def staged(teams=8, sections=()):
    event = factories.event(teams=teams)
    swiss = factories.stage(event, name="Swiss", num_rounds=3)
    made = factories.sections(swiss, *sections) if sections else []
    everyone = list(Team.objects.filter(event=event).order_by("name"))
    who = factories.organiser_of(event)
    late = everyone[-1]
    checkin.check_in(everyone[:-1], who)
    if made:
        half = (len(everyone) - 1) // 2
        stage_sections.assign_teams(made[0], who, [t.pk for t in everyone[:half]])
        stage_sections.assign_teams(made[1], who, [t.pk for t in everyone[half:-1]])
    return event, swiss, made, late, who


def test_a_late_team_is_listed_in_the_round_it_missed_then_paired_from_the_next(client):
    event, swiss, _made, late, who = staged(teams=9)
    first = factories.play_stage_round(swiss)
    checkin.check_in([late], who)
    listed = dict((t.pk, why) for t, why in checkin.not_drawn(first))
    assert "checked in after this round was drawn" in listed[late.pk]
    second = stage_rounds.draw_round(swiss, who)
    assert second.matches.filter(home=late).exists() or second.matches.filter(away=late).exists()
    assert checkin.not_drawn(second) == []
    client.force_login(who)
    page = client.get(f"/t/{event.slug}/manage/rounds/{first.number}/").content.decode()
    assert 'id="not-drawn"' in page and f'data-team="{late.pk}"' in page


def test_with_several_sections_the_organiser_chooses_the_late_teams_section():
    event, swiss, (men, women), late, who = staged(teams=9, sections=("男双", "女双"))
    factories.play_stage_round(swiss)
    with pytest.raises(StageError) as refused:
        checkin.check_in([late], who)
    assert refused.value.field == "section" and late.name in refused.value.message
    assert not CheckIn.objects.filter(team=late).exists()  # refused: nothing stored
    checkin.check_in([late], who, section=women.pk)
    assert women.entries.filter(team=late).exists()
    nxt = stage_rounds.draw_round(swiss, who)
    match = nxt.matches.filter(home=late).first() or nxt.matches.get(away=late)
    assert match.section_id == women.pk


def test_a_check_in_during_a_knockout_is_refused_with_the_reason():
    event = factories.event(teams=5)
    teams = list(Team.objects.filter(event=event).order_by("name"))
    who = factories.organiser_of(event)
    knockout = factories.stage(event, name="KO", kind="knockout")
    checkin.check_in(teams[:4], who)
    stage_rounds.draw_round(knockout, who)
    with pytest.raises(StageError) as refused:
        checkin.check_in([teams[4]], who)
    assert "KO" in refused.value.message and teams[4].name in refused.value.message
    assert not CheckIn.objects.filter(team=teams[4]).exists()


def test_a_team_not_among_the_qualifiers_is_listed_with_why():
    event = factories.event(teams=6)
    swiss = factories.stage(event, name="Swiss", num_rounds=1)
    knockout = factories.stage(
        event, name="KO", kind="knockout", entrants="qualified", qualify_top=3, sources=[swiss]
    )
    factories.play_stage_round(swiss)
    factories.settle_cut_lots(knockout)
    rnd = stage_rounds.draw_round(knockout, factories.organiser_of(event))
    reasons = {why for _team, why in checkin.not_drawn(rnd)}
    assert len(checkin.not_drawn(rnd)) == 3
    assert reasons == {"not among the qualifiers of this stage"}
