"""Issue 35: the words a deal shows while the phone's engine starts, or when it cannot start,
in both languages (the table page's strings, static/js/table_engine.js shows them)."""

from __future__ import annotations

from django.utils import translation

from tournaments.views.table import STRINGS


def test_the_engine_words_are_in_chinese_and_english():
    with translation.override("zh-hans"):
        assert str(STRINGS["engine_starting"]) == "正在启动计分引擎…"
        assert "无法启动" in str(STRINGS["engine_failed"])
        assert "恢复网络" in str(STRINGS["engine_failed"])
    with translation.override("en"):
        assert str(STRINGS["engine_starting"]) == "Starting the scoring engine…"
        assert "could not start" in str(STRINGS["engine_failed"])
