"""Issue 31: every HTML form of the site, posted with hostile values by the people who may use
it, answers below 500 and shows no traceback.

The forms are found as a person finds them: every page of the URLconf (filled with the
event's real ids) is opened, anonymously and as a user holding every role of the event, and
each ``<form method="post">`` on it is read (its action, its fields with their values, the
options of its selects). Each form is then posted, as the one who found it:

- every field at once with each hostile value (a lone surrogate as raw UTF-8 bytes and as a
  JSON escape, NUL, "²", 1e999, a 30-digit number, -1, an over-long text, a choice that is
  none of the options, empty);
- each field alone with two of them (rotating), the others as the page filled them.

Bounded: the forms are deduplicated by action and field names, each request runs in a
savepoint rolled back after it (every post meets the same event).
"""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser
from urllib.parse import quote, urljoin, urlsplit

import pytest
from django.db import transaction
from django.test import Client

from tests.config.test_malformed_sweep import everything  # noqa: F401 - the shared event
from tests.config.test_query_path_sweep import fill, patterns

pytestmark = pytest.mark.django_db

SURROGATE_BYTES = "%ED%A0%80"  # U+D800 written as UTF-8: no valid text has it
HOSTILE = [
    ("surrogate", SURROGATE_BYTES),
    ("surrogate-json", quote('{"a": "\\ud800"}')),
    ("nul", "a%00b"),
    ("superscript", quote("²")),
    ("infinity", "1e999"),
    ("huge", "9" * 30),
    ("negative", "-1"),
    ("long", "x" * 20_000),
    ("not-a-choice", "not-a-choice"),
    ("empty", ""),
]
SKIPPED_FIELDS = {"csrfmiddlewaretoken"}
SKIPPED_ACTIONS = ("/accounts/logout/",)  # signing out is no input to fuzz
TRACEBACK = re.compile(rb"Traceback \(most recent call last\)|File \"/[^\"]+\.py\", line \d+")


class FormReader(HTMLParser):
    """The page's POST forms: action, method, enctype and fields [(name, kind, value,
    options)]; a select's value is its selected (or first) option."""

    def __init__(self):
        super().__init__()
        self.forms: list[dict] = []
        self.form: dict | None = None
        self.select: dict | None = None
        self.textarea: dict | None = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form":
            self.form = {
                "action": a.get("action") or "",
                "method": (a.get("method") or "get").lower(),
                "enctype": a.get("enctype") or "",
                "fields": [],
            }
            self.forms.append(self.form)
        elif self.form is None or not a.get("name"):
            return
        elif tag == "input":
            kind = (a.get("type") or "text").lower()
            if kind in ("submit", "button", "image", "reset"):
                if a.get("name"):  # a named button says which action: keep its value
                    self.form["fields"].append([a["name"], "button", a.get("value") or "", []])
                return
            if kind in ("checkbox", "radio") and "checked" not in a:
                value = None  # unchecked: not sent unless fuzzed
            else:
                value = a.get("value") or ("on" if kind == "checkbox" else "")
            self.form["fields"].append([a["name"], kind, value, []])
        elif tag == "button" and a.get("name"):
            self.form["fields"].append([a["name"], "button", a.get("value") or "", []])
        elif tag == "select":
            self.select = [a["name"], "select", None, []]
            self.form["fields"].append(self.select)
        elif tag == "option" and self.select is not None:
            value = a.get("value", "")
            self.select[3].append(value)
            if self.select[2] is None or "selected" in a:
                self.select[2] = value
        elif tag == "textarea":
            self.textarea = [a["name"], "textarea", "", []]
            self.form["fields"].append(self.textarea)

    def handle_data(self, data):
        if self.textarea is not None:
            self.textarea[2] += data

    def handle_endtag(self, tag):
        if tag == "form":
            self.form = None
        elif tag == "select":
            self.select = None
        elif tag == "textarea":
            self.textarea = None


def post_forms(client: Client, urls: list[str]) -> dict[tuple, dict]:
    """The distinct POST forms of the pages at ``urls`` (key: action and field names)."""
    found: dict[tuple, dict] = {}
    for url in urls:
        response = client.get(url)
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        reader = FormReader()
        reader.feed(response.content.decode("utf-8", "replace"))
        for form in reader.forms:
            if form["method"] != "post" or form["action"].endswith(SKIPPED_ACTIONS):
                continue
            action = urlsplit(urljoin(url, form["action"] or url))
            target = action.path + (f"?{action.query}" if action.query else "")
            names = tuple(sorted({f[0] for f in form["fields"]}))
            found.setdefault((target, names), form | {"url": target})
    return found


def encode(pairs: list[tuple[str, str]]) -> str:
    """A form body; values already percent-encoded where they must stay raw bytes."""
    return "&".join(f"{quote(name)}={value}" for name, value in pairs)


def plain(field) -> str:
    return quote(field[2] or "")


def bodies(form: dict) -> list[tuple[str, str]]:
    """(label, form-encoded body) to post: every field hostile at once, then one at a time."""
    fields = [f for f in form["fields"] if f[0] not in SKIPPED_FIELDS]
    kept = [(f[0], plain(f)) for f in fields if f[2] is not None]
    out = []
    for label, value in HOSTILE:
        out.append((f"all={label}", encode([(f[0], value) for f in fields])))
    for i, field in enumerate(fields):
        if field[1] == "button":
            continue
        for label, value in (HOSTILE[i % len(HOSTILE)], HOSTILE[(i + 5) % len(HOSTILE)]):
            pairs = [(n, v) for n, v in kept if n != field[0]] + [(field[0], value)]
            out.append((f"{field[0]}={label}", encode(pairs)))
    return out


def multipart(form: dict, body: str) -> dict:
    """The same fields as a multipart body (a form with a file input): values decoded, and
    each file input sent a small file that is no spreadsheet."""
    from io import BytesIO
    from urllib.parse import parse_qsl

    data: dict = {}
    for name, value in parse_qsl(body, keep_blank_values=True, errors="replace"):
        data.setdefault(name, value)
    for field in form["fields"]:
        if field[1] == "file":
            upload = BytesIO(b"PK\x03\x04 not a spreadsheet")
            upload.name = "teams.xlsx"
            data[field[0]] = upload
    return data


def fuzz(client: Client, forms: dict, counts: Counter, failures: list, user=None) -> None:
    for form in forms.values():
        is_multipart = form["enctype"].startswith("multipart/")
        for label, body in bodies(form):
            with transaction.atomic():
                if is_multipart:
                    response = client.post(form["url"], multipart(form, body))
                else:
                    response = client.post(
                        form["url"], body, content_type="application/x-www-form-urlencoded"
                    )
                transaction.set_rollback(True)
            counts["requests"] += 1
            counts[f"{response.status_code // 100}xx"] += 1
            if user is not None and "_auth_user_id" not in client.session:
                client.force_login(user)  # a form that signs in as someone else, or out
            if response.status_code >= 500 or TRACEBACK.search(response.content):
                failures.append((form["url"], label, response.status_code))


@pytest.mark.parametrize("who", ["anonymous", "every-role"])
def test_every_form_posted_with_hostile_values_answers_below_500(everything, who):  # noqa: F811
    from tests import factories
    from tournaments.models import Event, Section, Stage

    event = Event.objects.get(slug=everything["slug"])
    stage = Stage.objects.create(event=event, order=1, name="Stage", kind="swiss", num_rounds=3)
    Section.objects.create(stage=stage, name="A", order=1)
    event.rounds.update(stage=stage)  # the round in play is the stage's
    other = factories.grant(factories.user("fuzz-other"), event, "committee")
    client = Client(HTTP_ACCEPT_LANGUAGE="zh-hans")
    client.raise_request_exception = False
    if who == "every-role":
        client.force_login(everything["user"])
    values = {
        "slug": everything["slug"],
        "number": "1",
        "table": "1",
        "key": everything["key"],
        "match_id": str(everything["match_id"]),
        "team_id": str(everything["team"]),
        "identifier": "standings-pdf",
        "code": "en",
    }
    ids = everything["ids"] | {
        "stages": stage.pk,
        "match": everything["match_id"],
        "team": everything["team"],
        "roles": event.roles.get(user=other).pk,
    }
    urls = []
    for route in patterns():
        if route.startswith("api/") or route.endswith(".xlsx"):
            continue
        owner = route.split("<int:pk>")[0].rstrip("/").rsplit("/", 1)[-1]
        url = fill(route, values | {"pk": str(ids.get(owner, everything["team"]))})
        if url is not None:
            urls.append(url)
    forms = post_forms(client, urls)
    counts, failures = Counter(), []
    fuzz(client, forms, counts, failures, everything["user"] if who == "every-role" else None)
    print(f"\nform fuzz ({who}): {len(forms)} forms, {dict(counts)}")
    assert len(forms) >= (2 if who == "anonymous" else 30), sorted(forms)
    assert failures == [], f"{len(failures)} of {counts['requests']}: {failures[:20]}"
