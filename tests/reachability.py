"""The crawl behind the reachability tests (issue 24): each role logs in, starts from the
front page and follows links only (``<a href>`` of the same site, GET), breadth first; what it
reaches is compared with the pages that role works on (:data:`ROLE_PAGES`, by URL name).

Used by tests/test_reachability.py (the Django test client: breadth, words) and
tests/e2e/test_reachability_sizes.py (the pages reached, on a 390×844 phone: sizes).
"""

from __future__ import annotations

import re
from collections import deque
from urllib.parse import urldefrag, urlsplit

from django.urls import Resolver404, resolve

# The pages each role works on, by URL name: every one must be reachable from the role's
# front page by links alone. (Public pages every role reaches are listed for the captain,
# whose work is on them; the organiser's list is the console's.)
ROLE_PAGES: dict[str, set[str]] = {
    "organiser": {
        "tournaments:home",
        "tournaments:detail",
        "tournaments:console",
        "tournaments:event-status",
        "tournaments:event-settings",
        "tournaments:team-add",
        "tournaments:team-edit",
        "tournaments:team-import",
        "tournaments:role-add",
        "tournaments:accounts",
        "tournaments:captain-links",
        "tournaments:lockouts",
        "tournaments:rounds",
        "tournaments:round",
        "tournaments:checkin",
        "tournaments:assignments",
        "tournaments:audit",
        "tournaments:prizes",
        "tournaments:stages",
        "tournaments:manage-standings",
        "tournaments:exports",
        "tournaments:table-links",
        "tournaments:results",
        "tournaments:match-result",
        "tournaments:board",
        "tournaments:attendance",
        "tournaments:chief-desk",
        "arbitration:chief",
        "arbitration:index",
        "api-token",
    },
    "chief": {
        "tournaments:home",
        "tournaments:detail",
        "tournaments:chief-desk",
        "tournaments:board",
        "tournaments:attendance",
        "tournaments:results",
        "tournaments:match-result",
        "tournaments:event-status",
        "tournaments:audit",
        "tournaments:manage-standings",
        "tournaments:exports",
        "tournaments:table-links",
        "tournaments:lockouts",
        "tournaments:stages",
        "arbitration:index",
        "arbitration:chief",
        "arbitration:committee",
        "arbitration:desk",
        "arbitration:incident-add",
        "arbitration:incident",
        "arbitration:ruling",
        "arbitration:appeal",
        "arbitration:team-record",
    },
    "referee1": {
        "tournaments:home",
        "tournaments:detail",
        "tournaments:my-tables",
        "tournaments:table-entry",
        "tournaments:match-result",
        "tournaments:results",
        "arbitration:index",
        "arbitration:incident-add",
        "arbitration:desk",
        "arbitration:team-record",
    },
    "captain1": {
        "tournaments:home",
        "tournaments:detail",
        "tournaments:my-match",
        "tournaments:match-result",
        "tournaments:results",
        "tournaments:public-team",
        "tournaments:public-pairings",
        "tournaments:public-standings",
        "arbitration:ruling",
        "arbitration:appeal-add",
        "arbitration:appeal",
        "arbitration:team-record",
    },
    "committee1": {
        "tournaments:home",
        "tournaments:detail",
        "arbitration:committee",
        "arbitration:appeal",
        "arbitration:ruling",
        "arbitration:index",
        "arbitration:team-record",
    },
}

# Links the crawl does not follow: they leave the site's pages or change the session.
NOT_FOLLOWED = (
    "tournaments:language",  # switches the language: the walk stays in Chinese
    "tournaments:export",  # a file
    "tournaments:job-file",
    "tournaments:team-template",
    "tournaments:chief-desk-counts",
    "tournaments:team-search",
    "tournaments:login-link",  # one-time
    "logout",
    "set_language",
)
EVENT = re.compile(r"/t/([^/]+)/")
PER_NAME = 3  # distinct addresses read per URL name (the words of a page kind are alike)
HREF = re.compile(r"""<a\b[^>]*?\bhref\s*=\s*["']([^"'#][^"']*)["']""", re.I)


def url_name(path: str) -> str | None:
    try:
        match = resolve(path)
    except Resolver404:
        return None
    return match.view_name


def links(html: str) -> list[str]:
    import html as html_lib

    found = []
    for href in HREF.findall(html):
        href = html_lib.unescape(href)
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:  # another site (or the absolute QR addresses)
            if parts.netloc not in ("", "testserver"):
                continue
        path = urldefrag(parts.path)[0]
        if path.startswith(("/admin/", "/api/", "/static/", "/media/")):
            continue
        found.append(path)
    return found


def crawl(client, start: str = "/", language: str = "zh-hans", slugs=None, limit: int = 400):
    """(path, URL name, status, html) of every page reached from ``start`` by links, breadth
    first; only pages of the events in ``slugs`` (and of no event)."""
    seen, per_name = {start}, {}
    queue, pages = deque([start]), []
    while queue and len(pages) < limit:
        path = queue.popleft()
        name = url_name(path)
        response = client.get(path, HTTP_ACCEPT_LANGUAGE=language)
        kind = response.get("Content-Type", "")
        html = response.content.decode() if "html" in kind else ""
        pages.append((path, name, response.status_code, html))
        if response.status_code != 200 or not html:
            continue
        for link in links(html):
            if link in seen:
                continue
            seen.add(link)
            target = url_name(link)
            if target is None or target in NOT_FOLLOWED:
                continue
            event = EVENT.search(link)
            if slugs is not None and event and event.group(1) not in slugs:
                continue
            if per_name.get(target, 0) >= PER_NAME:
                continue
            per_name[target] = per_name.get(target, 0) + 1
            queue.append(link)
    return pages


def reached_names(pages) -> set[str]:
    return {name for _path, name, status, _html in pages if status == 200 and name}
