"""Finding 8 of issue 13: a Content-Security-Policy that every page passes. The browser tests
(tests/e2e) fail on any violation the browser reports; these check the header and that no
template needs an exception."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
HTML_TEMPLATES = [p for p in TEMPLATES.rglob("*.html") if "pdf" not in p.parts]  # PDFs: no browser


def test_pages_send_a_content_security_policy(client, db):
    response = client.get("/")
    policy = response["Content-Security-Policy"]
    for directive in (
        "default-src 'self'",
        "object-src 'none'",
        "frame-ancestors 'none'",
        "base-uri 'self'",
        "form-action 'self'",
    ):
        assert directive in policy
    assert "'unsafe-inline'" not in policy.split("script-src", 1)[1].split(";", 1)[0]


@pytest.mark.parametrize("template", HTML_TEMPLATES, ids=lambda p: str(p.relative_to(TEMPLATES)))
def test_templates_have_no_inline_code_the_policy_would_block(template):
    text = template.read_text(encoding="utf-8")
    for tag in re.findall(r"<(?:script|style)\b[^>]*>", text):
        assert "src=" in tag or 'nonce="{{ request.csp_nonce }}"' in tag, tag
    assert not re.search(r"\son[a-z]+\s*=", text), "inline event handler: use static/js"
    assert "javascript:" not in text


def test_an_inline_style_carries_the_nonce_of_the_header(client, make_event, make_user, grant):
    from tournaments.models import Match, Round

    event = make_event(teams=2)
    home, away = event.teams.order_by("pk")
    rnd = Round.objects.create(event=event, number=1, status="published")
    Match.objects.create(round=rnd, table_number=1, home=home, away=away)
    client.force_login(grant(make_user(), event, "chief_referee"))
    # the table links page sizes its QR codes in a style block of its own
    response = client.get(f"/t/{event.slug}/manage/tables/")
    nonce = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"]).group(1)
    assert f'<style nonce="{nonce}">' in response.content.decode()


def test_cached_public_pages_need_no_nonce(client, make_event):
    """A public page is cached for everybody: no inline code a per-request nonce would allow."""
    from tournaments.models import Round

    event = make_event(teams=2)
    Round.objects.create(event=event, number=1, status="published")
    for page in ("pairings", "standings", "projector", "find"):
        text = client.get(f"/t/{event.slug}/{page}/").content.decode()
        assert "nonce=" not in text, page
        assert all("src=" in tag for tag in re.findall(r"<script\b[^>]*>", text)), page


def test_a_plain_answers_policy_built_once_is_the_one_django_csp_builds(client, db, settings):
    """config.csp reuses the header of a response with no nonce and no directive changed; it
    is django-csp's own, and follows the setting when the setting changes."""
    from csp.utils import build_policy

    answer = client.get("/api/tournaments/")
    assert answer["Content-Security-Policy"] == build_policy()
    assert (
        answer["Content-Security-Policy"]
        == client.get("/api/tournaments/")["Content-Security-Policy"]
    )
    settings.CONTENT_SECURITY_POLICY = {"DIRECTIVES": {"default-src": ["'none'"]}}
    assert client.get("/api/tournaments/")["Content-Security-Policy"] == "default-src 'none'"
    settings.CONTENT_SECURITY_POLICY_REPORT_ONLY = {"DIRECTIVES": {"img-src": ["'self'"]}}
    changed = client.get("/api/tournaments/")
    assert changed["Content-Security-Policy-Report-Only"] == build_policy(report_only=True)
    assert "img-src 'self'" in changed["Content-Security-Policy-Report-Only"]


def test_a_view_that_changes_the_policy_or_uses_a_nonce_gets_django_csps_own_header(rf, db):
    from csp.middleware import CSPMiddleware as Stock
    from django.http import HttpResponse

    from config.csp import CSPMiddleware

    def view(request, update=None, nonce=False):
        response = HttpResponse(str(request.csp_nonce) if nonce else "")
        response._csp_update = update
        return response

    for kwargs in ({"update": {"img-src": ["https://example.org"]}}, {"nonce": True}, {}):
        headers = []
        for middleware in (CSPMiddleware, Stock):
            request = rf.get("/")
            request.csp_nonce = None
            mw = middleware(lambda r, kw=kwargs: view(r, **kw))
            mw.process_request(request)
            headers.append(mw.process_response(request, view(request, **kwargs)))
        ours, stock = (h["Content-Security-Policy"] for h in headers)
        if kwargs.get("nonce"):
            ours, stock = (re.sub(r"'nonce-[^']+'", "N", h) for h in (ours, stock))
            assert ours == stock and "N" in ours
        else:
            assert ours == stock, kwargs
    assert (
        "https://example.org"
        in CSPMiddleware(view).process_response(
            rf.get("/"), view(rf.get("/"), update={"img-src": ["https://example.org"]})
        )["Content-Security-Policy"]
    )
