"""Settings have one home (issue 37): the system check tournaments/checks.py reports a setting
read with a default of its own and a setting read but never declared, with file and line."""

from __future__ import annotations

import shutil
from pathlib import Path

from django.core import management

from tournaments.checks import ROOT, setting_reads


def test_the_product_reads_every_setting_from_its_one_declaration():
    assert setting_reads() == []
    management.call_command("check")  # registered: the check runs with every command


def planted(tmp_path: Path, line: str) -> list[str]:
    copy = tmp_path / "tree"
    shutil.copytree(ROOT / "tournaments", copy / "tournaments")
    path = copy / "tournaments" / "services" / "accounts.py"
    path.write_text(path.read_text() + "\n\ndef planted():\n    " + line + "\n")
    return [f"{m.id} {m.msg}" for m in setting_reads(copy, ("tournaments",))]


def test_a_second_default_where_a_setting_is_read_is_reported(tmp_path):
    found = planted(tmp_path, 'return int(getattr(settings, "PAISAI_LOGIN_LINK_DAYS", 14))')
    assert len(found) == 1
    assert found[0].startswith("paisai.E002 tournaments/services/accounts.py:")
    assert "PAISAI_LOGIN_LINK_DAYS" in found[0]


def test_a_setting_read_but_never_declared_is_reported(tmp_path):
    found = planted(tmp_path, "return settings.PAISAI_LOGIN_LINK_DAYZ")
    assert len(found) == 1 and found[0].startswith("paisai.E001")
    assert "PAISAI_LOGIN_LINK_DAYZ" in found[0]
