"""Issue 36 (SPEC 3.1): tie-breaks per kind of stage. On the 南山杯 2026 edition a Swiss stage
(海选赛) ranks by 总积分 → 对手分 → 胜场数 → 贡献分 and a round robin (小组赛) by 总积分 →
相互胜负 (two tied teams only) → 净积小分 → 累积小分; each stage's page shows its own columns."""

from __future__ import annotations

from django.urls import reverse

from rules_engine.presets import NANSHAN_GROUP_ORDER, NANSHAN_SWISS_ORDER
from tests import factories
from tournaments.services import stage_standings
from tournaments.standings.service import metric_labels


def test_each_kind_of_stage_ranks_by_its_own_order(db, client):
    event = factories.event(teams=4, preset="guandan-nanshan-2026", slug="nanshan-stages")
    swiss = factories.stage(event, name="海选赛", kind="swiss", num_rounds=1)
    factories.play_stage_round(swiss)
    groups = factories.stage(event, name="小组赛", kind="round_robin")
    factories.play_stage_round(groups)
    (swiss_section,) = swiss.sections.all()
    (group_section,) = groups.sections.all()
    swiss_rows = stage_standings.section_standings(swiss_section)
    group_rows = stage_standings.section_standings(group_section)
    assert list(swiss_rows[0].metrics) == list(NANSHAN_SWISS_ORDER)
    assert list(group_rows[0].metrics) == list(NANSHAN_GROUP_ORDER)
    assert [key for key, _ in metric_labels(event, "round_robin")] == list(NANSHAN_GROUP_ORDER)
    url = reverse("tournaments:public-standings", args=[event.slug])
    page = client.get(f"{url}?stage={groups.pk}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Net levels" in page and "Contribution points" not in page
    page = client.get(f"{url}?stage={swiss.pk}", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Contribution points" in page and "Wins" in page
