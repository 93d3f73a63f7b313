"""Each event setting is declared once (rules_engine.schema.setting): the README's table, the
form's words and the validation are made from it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from rules_engine import ladder
from rules_engine.errors import RulesError
from rules_engine.presets import FIXED_FIELDS, PRESETS, Preset, settings_table
from rules_engine.schema import fields_of

README = Path(__file__).resolve().parents[2] / "README.md"
START = "<!-- settings table: made by rules_engine.presets.settings_table() -->\n"
END = "<!-- end of the settings table -->"


def test_the_readme_table_is_the_generated_one():
    text = README.read_text("utf-8")
    assert START in text and END in text
    shown = text.split(START, 1)[1].split(END, 1)[0]
    assert shown == settings_table(), (
        "README.md's settings table differs from the declarations; paste the output of "
        'python -c "from rules_engine.presets import settings_table; print(settings_table())"'
    )


def test_every_setting_has_its_words_in_its_declaration():
    for cls in (Preset, ladder.LadderSettings):
        for name, (spec, _hint) in fields_of(cls).items():
            if cls is Preset and name in FIXED_FIELDS:
                continue
            assert spec.metadata.get("label"), name
            if "choices" in spec.metadata:
                assert set(spec.metadata["choice_words"]) == set(spec.metadata["choices"]), name


def test_every_preset_passes_its_own_declarations():
    for preset in PRESETS.values():
        preset.validate()
    broken = dataclasses.replace(PRESETS["tractor"], time_up="never")
    with pytest.raises(RulesError) as refused:
        broken.validate()
    assert refused.value.field == "time_up"


def test_the_settings_form_takes_its_words_from_the_declaration(db):
    from django.utils import translation

    from tests import factories
    from tournaments.forms_settings import EventSettingsForm

    event = factories.event(preset="guandan-national")
    with translation.override("en"):
        form = EventSettingsForm(instance=event)
        assert form.fields["appeal_minutes"].label == "appeal within (minutes)"
        assert dict(form.fields["time_up"].choices)["one_more_deal"] == "play one more deal"
    with translation.override("zh-hans"):
        form = EventSettingsForm(instance=event)
        assert form.fields["appeal_minutes"].label != "appeal within (minutes)"
