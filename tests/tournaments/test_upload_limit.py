"""The upload limit is PAISAI_MAX_UPLOAD_BYTES and nothing else: the middleware, the import
form and the import API all read it (tournaments/upload_limit.py), and refuse in words."""

from __future__ import annotations

import io
import os
import zipfile

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from openpyxl import Workbook

from tournaments.models import Team

MB = 1024 * 1024
HEADER = ["队名 Team", "单位 Unit", "队员1 Player 1", "队员2 Player 2", "种子 Seed"]


def xlsx_of_size(size: int) -> bytes:
    """A valid team list (one team) padded to ``size`` bytes by an incompressible member."""
    wb = Workbook()
    wb.active.append(HEADER)
    wb.active.append(["红队", "苏州", "甲", "乙"])
    out = io.BytesIO()
    wb.save(out)
    base = len(out.getvalue())
    with zipfile.ZipFile(out, "a", compression=zipfile.ZIP_STORED) as archive:
        archive.writestr("docProps/padding.bin", os.urandom(max(0, size - base - 300)))
    data = out.getvalue()
    assert abs(len(data) - size) < 1024
    return data


def named(data: bytes) -> io.BytesIO:
    upload = io.BytesIO(data)
    upload.name = "teams.xlsx"
    return upload


@pytest.fixture
def ten_megabytes(settings):
    settings.PAISAI_MAX_UPLOAD_BYTES = 10 * MB


@pytest.fixture
def organiser(make_event, make_user, grant):
    event = make_event(units=0)
    return event, grant(make_user(), event, "organiser")


def test_six_megabytes_accepted_by_the_form_under_a_ten_megabyte_limit(
    ten_megabytes, organiser, client
):
    event, user = organiser
    client.force_login(user)
    response = client.post(
        f"/t/{event.slug}/manage/teams/import/",
        {"file": named(xlsx_of_size(6 * MB))},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code in (200, 302), response.content[:500]
    assert "larger than" not in response.content.decode()
    assert Team.objects.filter(event=event, name="红队").exists()


def test_six_megabytes_accepted_by_the_api_under_a_ten_megabyte_limit(
    ten_megabytes, organiser, api_as
):
    event, user = organiser
    api = api_as(user)
    url = f"/api/tournaments/{event.slug}/teams-import/"
    answer = api.post(url, {"file": named(xlsx_of_size(6 * MB))}, format="multipart")
    assert answer.status_code == 200, answer.content[:500]
    assert Team.objects.filter(event=event, name="红队").exists()


def test_eleven_megabytes_refused_in_words_by_the_page(ten_megabytes, organiser, client):
    event, user = organiser
    client.force_login(user)
    response = client.post(
        f"/t/{event.slug}/manage/teams/import/",
        {"file": named(xlsx_of_size(11 * MB))},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 413
    assert "The file is larger than 10 MB; nothing was uploaded." in response.content.decode()
    assert not Team.objects.filter(event=event).exists()


def test_eleven_megabytes_refused_in_words_by_the_api(ten_megabytes, organiser, api_as):
    event, user = organiser
    api = api_as(user)
    url = f"/api/tournaments/{event.slug}/teams-import/"
    answer = api.post(
        url,
        {"file": named(xlsx_of_size(11 * MB))},
        format="multipart",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert answer.status_code == 413
    assert answer.json() == {
        "error": "The file is larger than 10 MB; nothing was uploaded.",
        "field": "file",
        "code": "too_large",
    }
    assert not Team.objects.filter(event=event).exists()


def test_a_file_just_over_the_limit_reaches_the_form_and_is_refused_there(
    settings, organiser, client
):
    """Within the body's allowance for the form around the file, the form says it."""
    settings.PAISAI_MAX_UPLOAD_BYTES = 1 * MB
    event, user = organiser
    client.force_login(user)
    response = client.post(
        f"/t/{event.slug}/manage/teams/import/",
        {"file": named(xlsx_of_size(MB + 8 * 1024))},
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.status_code == 200
    assert "The file is larger than 1 MB; nothing was uploaded." in response.content.decode()
    assert not Team.objects.filter(event=event).exists()


def test_form_and_api_serializer_read_the_setting(settings):
    from tournaments.api.registration_import import ImportRequestSerializer
    from tournaments.forms import ImportForm

    settings.PAISAI_MAX_UPLOAD_BYTES = 10 * MB
    six = SimpleUploadedFile("teams.xlsx", b"x" * (6 * MB))
    eleven = SimpleUploadedFile("teams.xlsx", b"x" * (11 * MB))
    assert ImportForm(data={}, files={"file": six}).is_valid()
    form = ImportForm(data={}, files={"file": eleven})
    assert not form.is_valid() and "larger than 10 MB" in str(form.errors["file"])
    assert ImportRequestSerializer(data={"file": six}).is_valid()
    serializer = ImportRequestSerializer(data={"file": eleven})
    assert not serializer.is_valid() and "larger than 10 MB" in str(serializer.errors["file"])
