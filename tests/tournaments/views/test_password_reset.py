"""Finding 8 of issue 13: a password can be reset by e-mail (console backend unless SMTP is
configured by the environment)."""

from __future__ import annotations

import re

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db


def test_password_reset_by_email(client, make_user):
    user = make_user("referee1", email="ref1@example.org")
    login = client.get("/accounts/login/").content.decode()
    assert 'href="/accounts/password_reset/"' in login
    response = client.post("/accounts/password_reset/", {"email": "ref1@example.org"})
    assert response.status_code == 302 and response["Location"] == "/accounts/password_reset/done/"
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["ref1@example.org"]
    link = re.search(r"http://testserver(/accounts/reset/\S+/)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and 'name="new_password1"' in form.content.decode()
    response = client.post(
        form.redirect_chain[-1][0],
        {"new_password1": "a-new-long-passphrase", "new_password2": "a-new-long-passphrase"},
    )
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.check_password("a-new-long-passphrase")
    # The link works once.
    assert "reset-invalid" in client.get(link, follow=True).content.decode()


def test_a_deactivated_or_unknown_account_gets_no_mail(client, make_user):
    make_user("gone", email="gone@example.org", is_active=False)
    for email in ("gone@example.org", "nobody@example.org"):
        response = client.post("/accounts/password_reset/", {"email": email})
        assert response.status_code == 302  # the same answer: no account is revealed
    assert mail.outbox == []


def test_email_backend_is_the_console_unless_smtp_is_configured():
    import subprocess
    import sys

    code = (
        "import os;os.environ['DJANGO_SETTINGS_MODULE']='config.settings';"
        "from django.conf import settings;print(settings.EMAIL_BACKEND)"
    )
    env = {"SECRET_KEY": "k" * 60, "PATH": "/usr/bin:/bin"}
    console = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert console.stdout.strip().endswith("console.EmailBackend"), console.stderr
    smtp = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=env | {"EMAIL_HOST": "smtp.example.org"},
    )
    assert smtp.stdout.strip().endswith("smtp.EmailBackend")
