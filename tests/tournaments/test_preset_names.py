"""A preset's name quotes its scoring numbers from the preset's values, so an event that
overrides them reads its own numbers (issue 29)."""

from __future__ import annotations

from django.utils import translation

from tournaments import glossary


def test_names_are_built_from_the_presets_values():
    with translation.override("en"):
        assert glossary.preset_name("guandan-national-2017") == (
            "National 2017 rules (win 3, draw 2, loss 1)"
        )
        assert glossary.preset_name("guandan-suzhou-2016") == (
            "Suzhou 2016 elite rules (20-point scale)"
        )
        assert glossary.preset_name("guandan-national") == (
            "National rules (win 2, draw 1, loss 0 + level-difference points)"
        )
    with translation.override("zh-hans"):
        assert glossary.preset_name("guandan-national-2017") == "2017 全国规则（胜 3、平 2、负 1）"
        assert glossary.preset_name("guandan-suzhou-2016") == "苏州 2016 精英赛规则（20 分制）"


def test_an_event_that_overrides_the_points_reads_its_own_numbers(make_event, client):
    event = make_event(preset="guandan-national-2017", settings={"win_points": 4, "loss_points": 0})
    page = client.get(f"/t/{event.slug}/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "National 2017 rules (win 4, draw 2, loss 0)" in page
    assert "win 3" not in page
    home = client.get("/", HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "2017 全国规则（胜 4、平 2、负 0）" in home
