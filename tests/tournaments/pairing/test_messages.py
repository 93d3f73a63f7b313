"""Pairing messages: keys from the pure core, text from Django's catalogues, team names."""

from django.utils import translation

from tests.tournaments.pairing_helpers import field
from tournaments.pairing import FLAG_REMATCH, pair_round
from tournaments.pairing.messages import TEXTS, flag_badge, render, render_explanation


def names(team_id):
    return {1: "Suzhou A", 2: "Wuxi B", 3: "Nanjing C"}.get(team_id, f"#{team_id}")


def test_every_key_the_core_writes_has_a_text():
    result = pair_round(field([4, 4, 4, 2, 0], units=["U", "U", None, None, None]))
    for note in result.explanation:
        assert note.key in TEXTS


def test_the_bye_is_named_by_the_team_s_name_not_its_id():
    with translation.override("en"):
        assert render("pairing.note.bye", {"team": 3}, names) == (
            "Nanjing C has the bye: the lowest-placed team without a bye yet."
        )
    with translation.override("zh-hans"):
        assert (
            render("pairing.note.bye", {"team": 3}, names)
            == "Nanjing C 轮空：尚未轮空过的队中排名最低。"
        )


def test_a_float_shows_the_score_difference():
    note = {
        "key": "pairing.note.floated",
        "params": {
            "table": 2,
            "upper": 1,
            "lower": 2,
            "upper_score": 6,
            "lower_score": 4,
            "difference": 2,
        },
    }
    with translation.override("en"):
        (line,) = render_explanation([note], names)
    assert line == "Table 2: Suzhou A (6 points) meets Wuxi B (4 points), 2 points apart."


def test_old_plain_text_explanations_still_show():
    assert render_explanation(["team 5 has the bye"], names) == ["team 5 has the bye"]


def test_flag_badges_translate():
    with translation.override("zh-hans"):
        assert flag_badge(FLAG_REMATCH) == ("重复交手", "两队此前已交手：发布前须确认")
