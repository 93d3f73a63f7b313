"""The event settings page: every setting of the one schema as a form field (not a JSON box
for the common ones), saved through the service, errors on the field in zh-hans and en."""

import pytest
from django.urls import reverse
from django.utils.html import escape

from tests import factories
from tournaments.forms_settings import EventSettingsForm, page_data
from tournaments.models import AuditLog, Event, Round

EN = {"HTTP_ACCEPT_LANGUAGE": "en"}


@pytest.fixture
def organiser(make_user):
    return make_user()


@pytest.fixture
def event(make_event, organiser, grant):
    event = make_event(teams=4, venue="苏州")
    grant(organiser, event, "organiser")
    return event


def url(event):
    return reverse("tournaments:event-settings", args=[event.slug])


def posted(event, **changes):
    """The form as the page shows it, with ``changes``, confirmed on the preview step with a
    reason (the preview itself: test_saving_shows_the_changes_in_words_before_storing)."""
    data = {
        "confirmed": "1",
        "reason": "规程第 5 条",
        **page_data(EventSettingsForm(instance=event)),
    }
    for name, value in changes.items():
        if value is False:
            data.pop(name, None)
        else:
            data[name] = value
    return data


def test_every_setting_of_the_schema_is_a_form_field_of_its_kind(client, event, organiser):
    client.force_login(organiser)
    page = client.get(url(event), **EN).content.decode()
    assert 'type="checkbox" name="avoid_same_unit"' in page
    assert '<select name="round_one_method"' in page and 'value="seed"' in page
    assert 'type="number" name="fail_a_limit"' in page
    assert 'type="number" name="late_limit_minutes"' in page  # a ladder setting
    assert '<select name="time_up"' in page
    assert 'name="halls"' in page and 'name="ends_on"' in page


def test_saving_the_settings_page_changes_the_event_and_logs_it(client, event, organiser):
    client.force_login(organiser)
    data = posted(
        event,
        fail_a_limit="3",
        avoid_same_unit=False,
        round_one_method="seed",
        num_rounds="5",
        halls="A厅 1-20\nB厅 21-40",
        ends_on="2026-12-02",
        starts_on="2026-12-01",
    )
    answer = client.post(url(event), data, **EN)
    assert answer.status_code == 302
    event.refresh_from_db()
    assert event.settings == {
        "fail_a_limit": 3,
        "avoid_same_unit": False,
        "round_one_method": "seed",
    }
    assert event.num_rounds == 5 and event.halls == "A厅 1-20\nB厅 21-40"
    assert str(event.ends_on) == "2026-12-02"
    changes = AuditLog.objects.get(event=event, action="event.settings").data["changes"]
    assert changes["settings.avoid_same_unit"] == [None, False]
    assert changes["num_rounds"] == [7, 5]
    history = client.get(url(event), **EN).content.decode()
    assert "settings.fail_a_limit" in history


def test_a_bad_setting_is_shown_on_its_field_in_english_and_chinese(client, event, organiser):
    client.force_login(organiser)
    answer = client.post(url(event), posted(event, fail_a_limit="0"), **EN)
    assert answer.status_code == 200  # the form's own bound: at least 1
    assert "fail_a_limit" in answer.context["form"].errors
    answer = client.post(url(event), posted(event, standings_order_1="luck"), **EN)
    assert answer.status_code == 200
    errors = answer.context["form"].errors["standings_order"]
    assert "luck" in errors[0]
    page = client.post(
        url(event),
        posted(event, standings_order_1="luck"),
        HTTP_ACCEPT_LANGUAGE="zh-hans",
    ).content.decode()
    assert "排名顺序" in page and "luck" in page
    assert Event.objects.get(pk=event.pk).settings == {}


def test_preset_change_after_round_one_refused_on_the_page(client, event, organiser):
    factories.round_(event, 1, status=Round.Status.PUBLISHED)
    client.force_login(organiser)
    answer = client.post(url(event), posted(event, preset="guandan-national"), **EN)
    assert answer.status_code == 400
    assert "Round 1 is published" in answer.context["form"].errors["preset"][0]
    assert Event.objects.get(pk=event.pk).preset == "guandan-suzhou-2016"


def test_the_settings_page_is_for_the_organiser(client, event, make_user, grant):
    chief = make_user()
    grant(chief, event, "chief_referee")
    client.force_login(chief)
    assert client.get(url(event), **EN).status_code == 403


@pytest.mark.parametrize(
    ("halls", "english", "chinese"),
    [
        ("A厅 60-1", "A厅: table 60 is above table 1", "A厅：第 60 桌大于第 1 桌"),
        ("A厅 0-20", "A厅: there is no table 0", "A厅：没有第 0 桌"),
        (
            "A厅 1-60\nB厅 41–100",
            "A厅 and B厅 both hold tables 41–60.",
            "A厅 与 B厅 都包含第 41–60 桌。",
        ),
    ],
)
def test_halls_refused_on_their_field_when_backwards_at_table_0_or_sharing_tables(
    client, event, organiser, halls, english, chinese
):
    client.force_login(organiser)
    answer = client.post(url(event), posted(event, halls=halls), **EN)
    assert answer.status_code == 200
    assert english in answer.context["form"].errors["halls"][0]
    page = client.post(url(event), posted(event, halls=halls), HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert chinese in page.context["form"].errors["halls"][0]
    assert chinese in page.content.decode()
    assert Event.objects.get(pk=event.pk).halls == ""


def test_halls_are_normalised_and_plain_names_beside_ranges_are_allowed(client, event, organiser):
    client.force_login(organiser)
    halls = "  A厅 1-60 \r\n\r\n休息区\r\nHall B 61–120\r\n"
    assert client.post(url(event), posted(event, halls=halls), **EN).status_code == 302
    event.refresh_from_db()
    assert event.halls == "A厅 1-60\n休息区\nHall B 61–120"
    assert [(h.name, h.first, h.last) for h in event.hall_list()] == [
        ("A厅", 1, 60),
        ("休息区", None, None),
        ("Hall B", 61, 120),
    ]


def test_match_points_are_exact_decimal_fields_saved_as_the_editions_json(client, event, organiser):
    """Issue 36: a draw of 0.5, absent −1 and a bye of 1 typed on the page are stored as the
    edition's JSON ("0.5", -1, 1) and read back exactly; three decimals are refused."""
    client.force_login(organiser)
    page = client.get(url(event), **EN).content.decode()
    assert 'type="number" name="draw_points"' in page and 'step="0.01"' in page
    data = posted(
        event,
        draw_points="0.5",
        no_show_points="-1",
        bye_match_points="1",
        bye_small_points=False,
        forfeit_points_0="1",
        forfeit_points_1="-1",
    )
    assert client.post(url(event), data, **EN).status_code == 302
    event.refresh_from_db()
    assert event.settings == {
        "draw_points": "0.5",
        "no_show_points": -1,
        "bye_match_points": 1,
        "bye_small_points": False,
        "forfeit_points": [1, -1],
    }
    preset = event.get_preset()
    assert str(preset.draw_points) == "0.5" and str(preset.forfeit_points[1]) == "-1"
    again = client.get(url(event), **EN).content.decode()
    assert 'value="0.5"' in again and 'value="0.50"' not in again
    answer = client.post(url(event), posted(event, draw_points="0.125"), **EN)
    assert answer.status_code == 200 and "draw_points" in answer.context["form"].errors


def test_no_setting_takes_json_pairs_orders_and_tables_are_real_inputs(client, event, organiser):
    """Issue 36: forfeit points are two number inputs, the tie-break order select boxes in
    order (choices in words), the order per kind of stage a row of boxes per kind, a table one
    row a line; saving them stores the engine's values; a metric chosen twice is refused on
    the field in both languages."""
    client.force_login(organiser)
    page = client.get(url(event), **EN).content.decode()
    assert 'value="[' not in page and "{&quot;" not in page  # no JSON in any input
    assert 'type="number" name="forfeit_points_0"' in page
    assert '<select name="standings_order_0"' in page and ">Opponents&#x27; points<" in page
    assert '<select name="stage_standings_orders_0"' in page and "Swiss (积分编排赛)" in page
    assert 'name="level_difference_table"' in page and "10 10" in page  # Suzhou row 0
    form = EventSettingsForm(instance=event)
    slots = len(form.fields["standings_order"].fields)
    data = posted(
        event,
        standings_order_0="points",
        standings_order_1="opponents_points",
        standings_order_2="wins",
        **{f"standings_order_{n}": "" for n in range(3, slots)},
        stage_standings_orders_0="points",
        stage_standings_orders_1="contribution",
        forfeit_points_0="1",
        forfeit_points_1="-1",
        level_difference_table="0 20\n1 19",
    )
    assert client.post(url(event), data, **EN).status_code == 302
    event.refresh_from_db()
    assert event.settings["standings_order"] == ["points", "opponents_points", "wins"]
    assert event.settings["stage_standings_orders"] == {"swiss": ["points", "contribution"]}
    assert event.settings["forfeit_points"] == [1, -1]
    assert event.settings["level_difference_table"] == [[0, 20], [1, 19]]
    twice = posted(event, standings_order_0="wins", standings_order_1="wins")
    answer = client.post(url(event), twice, **EN)
    assert answer.status_code == 200
    assert "Wins is chosen twice." in answer.context["form"].errors["standings_order"]
    page = client.post(url(event), twice, HTTP_ACCEPT_LANGUAGE="zh-hans").content.decode()
    assert "排名顺序" in page
    bad = client.post(url(event), posted(event, level_difference_table="0 x"), **EN)
    assert "level_difference_table" in bad.context["form"].errors


def test_saving_shows_the_changes_in_words_before_storing(client, event, organiser):
    """Issue 36: saving with changes shows each changed setting "name: old → new" in words
    and stores nothing; confirming stores it, logged once (event.settings) with old and new
    per setting, who and why; back keeps the edits."""
    client.force_login(organiser)
    data = posted(
        event,
        standings_order_0="points",
        standings_order_1="opponents_points",
        standings_order_2="wins",
        **{f"standings_order_{n}": "" for n in range(3, 6)},
        avoid_same_unit=False,
        num_rounds="9",
    )
    del data["confirmed"], data["reason"]
    answer = client.post(url(event), data, HTTP_ACCEPT_LANGUAGE="zh-hans")
    assert answer.status_code == 200
    page = answer.content.decode()
    assert 'id="settings-preview"' in page and 'id="event-settings"' not in page
    assert (
        "<b>排名顺序（排名依据，优先者在前）</b>: 场分 → 总级差 → 相互胜负 → 抽签 → 场分 → 对手分 → 胜场数</li>"
        in page
    )
    assert "<b>同单位队伍尽量不相遇</b>: 是 → 否</li>" in page
    assert "<b>轮数</b>: 7 → 9</li>" in page
    assert Event.objects.get(pk=event.pk).settings == {}  # nothing stored yet
    assert not AuditLog.objects.filter(action="event.settings").exists()
    back = client.post(url(event), {**data, "edit": "1"}, **EN)
    assert 'id="event-settings"' in back.content.decode()
    assert back.context["form"]["num_rounds"].value() == "9"
    answer = client.post(url(event), {**data, "confirmed": "1", "reason": ""}, **EN)
    assert answer.status_code == 302  # no results yet: no reason needed
    entry = AuditLog.objects.get(action="event.settings")
    assert entry.actor_name and entry.data["changes"]["settings.standings_order"][1] == [
        "points",
        "opponents_points",
        "wins",
    ]
    assert entry.data["changes"]["num_rounds"][1] == 9


def test_once_results_exist_a_change_needs_a_reason_kept_in_the_log(client, event, organiser):
    factories.round_(event, 1, status=Round.Status.PUBLISHED)
    client.force_login(organiser)
    data = posted(event, fail_a_limit="2", reason="")
    answer = client.post(url(event), data, **EN)
    assert answer.status_code == 200 and 'id="settings-preview"' in answer.content.decode()
    assert "reason: Results already exist" in answer.content.decode()
    assert Event.objects.get(pk=event.pk).settings == {}
    answer = client.post(url(event), {**data, "reason": "裁判长同意"}, **EN)
    assert answer.status_code == 302
    entry = AuditLog.objects.get(action="event.settings")
    assert entry.reason == "裁判长同意"
    assert entry.data["changes"]["settings.fail_a_limit"] == [None, 2]
    page = client.get(url(event), **EN).content.decode()
    assert "Why: 裁判长同意" in page


def bad_values(form):
    """One bad value per setting of the form, by its kind (None: a setting with no bad value,
    a yes/no or a free title)."""
    from django import forms as django_forms

    from tournaments import forms_parts

    for name in form.setting_names:
        field = form.fields[name]
        if isinstance(field, forms_parts.OrderField | forms_parts.OrdersByKeyField):
            yield name, {f"{name}_0": "luck"}
        elif isinstance(field, forms_parts.PartsField | forms_parts.RowsByKeyField):
            yield name, {f"{name}_0": "x"}
        elif isinstance(field, forms_parts.TableField):
            _object, kinds, _whole = field._shape()
            if kinds != (str,):  # a list of words (the idiom-chain suit ring) takes any words
                yield name, {name: "x y z w v"}
        elif isinstance(field, django_forms.ChoiceField):
            yield name, {name: "nope"}
        elif isinstance(field, django_forms.DecimalField | django_forms.IntegerField):
            yield name, {name: "x"}
        elif name == "partner_return_limit":
            yield name, {name: "Z"}


@pytest.mark.parametrize("language", ["en", "zh-hans"])
def test_every_setting_posted_with_a_bad_value_is_refused_on_its_named_field(
    client, event, organiser, language
):
    """Issue 36: each setting of the page, posted with a bad value, is refused on its own
    field, the error naming the field in words (English and Chinese); nothing is stored."""
    client.force_login(organiser)
    form = EventSettingsForm(instance=event)
    tried = 0
    for name, bad in bad_values(form):
        answer = client.post(url(event), posted(event, **bad), HTTP_ACCEPT_LANGUAGE=language)
        assert answer.status_code in (200, 400), name
        errors = answer.context["form"].errors
        assert name in errors, (name, errors)
        label = answer.context["form"].fields[name].label
        assert f"{escape(label)}: " in answer.content.decode(), name
        tried += 1
    assert tried >= 30
    assert Event.objects.get(pk=event.pk).settings == {}


def test_the_idiom_chain_suit_ring_is_shown_as_suits_and_read_back_unchanged():
    """A table's values in words (token_words): the suit ring as ♦ ♣ ♥ ♠, never the letters
    (S read as a seat); posted back as shown, it is the same setting (no change)."""
    from rules_engine.presets import settings_fields
    from tournaments.forms_settings import form_field

    [ring] = [s for s in settings_fields("chengyu", "chengyu", {}) if s.name == "chengyu_suit_ring"]
    field = form_field(ring)
    shown = field.prepare_value(("D", "C", "H", "S"))
    assert shown == "♦\n♣\n♥\n♠"
    assert field.clean(shown) == ["D", "C", "H", "S"]
    assert not field.has_changed(("D", "C", "H", "S"), shown)
