"""The embedded beat's schedule file (issue 35): `celery -A config worker -B` from a fresh
clone without ``var/`` crashed the beat thread silently, so the stuck-job sweep never ran."""

import pytest

from config.celery import BeatScheduleError, _check_beat_schedule, prepare_beat_schedule


def test_beat_schedule_folder_is_made_at_startup(tmp_path):
    target = tmp_path / "fresh-clone" / "var" / "celerybeat-schedule"
    path = prepare_beat_schedule(target)
    assert path == target.resolve()
    assert target.parent.is_dir()
    assert list(target.parent.iterdir()) == []  # the probe leaves nothing behind


def test_beat_schedule_unwritable_is_refused_with_its_path(tmp_path):
    blocker = tmp_path / "var"
    blocker.write_text("a file where the folder should be")
    with pytest.raises(BeatScheduleError) as caught:
        prepare_beat_schedule(blocker / "celerybeat-schedule")
    assert str(blocker / "celerybeat-schedule") in str(caught.value)
    assert "CELERY_BEAT_SCHEDULE_FILENAME" in str(caught.value)


def test_worker_with_beat_refuses_to_start_when_schedule_unwritable(tmp_path, capsys):
    blocker = tmp_path / "var"
    blocker.write_text("")
    options = {"beat": True, "schedule_filename": str(blocker / "celerybeat-schedule")}
    with pytest.raises(SystemExit) as caught:
        _check_beat_schedule(sender="w@h", conf=None, options=options)
    assert caught.value.code == 1
    assert "cannot write its schedule file" in capsys.readouterr().err


def test_worker_without_beat_starts_whatever_the_schedule_path(tmp_path):
    blocker = tmp_path / "var"
    blocker.write_text("")
    options = {"beat": False, "schedule_filename": str(blocker / "x")}
    _check_beat_schedule(sender="w@h", conf=None, options=options)


def test_worker_with_beat_makes_the_default_schedule_folder(tmp_path, settings):
    class Conf:
        beat_schedule_filename = str(tmp_path / "made" / "celerybeat-schedule")

    _check_beat_schedule(sender="w@h", conf=Conf(), options={"beat": True})
    assert (tmp_path / "made").is_dir()
