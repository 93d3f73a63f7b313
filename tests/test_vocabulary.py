"""One vocabulary on every page (issue 18): every page of the demo, read by every role, for all
three games, in Chinese shows no machinery (JSON paths, snake_case or kebab-case codes, the
English codes of version kinds and decisions, E/S/W/N for seats, usernames where a person has a
name); the same walk in English shows no untranslated Chinese (names from the data excepted).

The URL list comes from the URLconf, so a new page is walked without editing this test; a page
that cannot be rendered by GET is skipped here with its reason."""

from __future__ import annotations

import html
import re
from types import SimpleNamespace

import pytest
from django.contrib.auth import get_user_model
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import translation

from tests import factories

# Pages not walked, each with its reason; every other page of the URLconf is walked.
NOT_RENDERED_BY_GET = {
    "set_language": "POST only (the language form)",
    "logout": "POST only (logs out)",
    "tournaments:table-call": "POST only (calls the chief referee)",
    "tournaments:table-key-call": "POST only (calls the chief referee)",
    "tournaments:language": "redirects to the page it came from",
    "tournaments:team-template": "an xlsx file, no page",
    "tournaments:service-worker": "a script (the service worker), no page",
    "tournaments:offline-engine": "a zip (the rules engine for Pyodide), no page",
    "tournaments:role-remove": "POST only",
    "tournaments:invitation-answer": "POST only (accepts or declines a role offered)",
    "tournaments:round-draft": "POST only (draws a round)",
    "tournaments:round-swap": "POST only",
    "tournaments:round-publish": "POST only",
    "tournaments:round-start": "POST only",
    "tournaments:seated": "POST only (marks a table seated)",
    "tournaments:match-action": "POST only (the match page's forms)",
    "tournaments:round-close": "POST only",
    "tournaments:table-key-action": "POST only",
    "tournaments:export": "a public file, or a redirect to the job that makes it",
    "tournaments:export-start": "POST only",
    "tournaments:job-status": "JSON for the job page's script",
    "tournaments:job-file": "the job's file, no page",
    "tournaments:job-retry": "POST only",
    "tournaments:checkin-badge": "POST only (a badge scan)",
    "tournaments:chief-desk-counts": "JSON for the chief's desk script",
    "tournaments:team-search": "JSON for the roles page's team search",
    "tournaments:login-link": "a one-time key (read in tests/tournaments/views/test_accounts.py)",
    "arbitration:revoke": "POST only",
    "arbitration:accept-late": "POST only",
}


def url_patterns(patterns=None, prefix="", namespace=""):
    """(route, name) of every page of the URLconf but the admin and the API."""
    for pattern in get_resolver().url_patterns if patterns is None else patterns:
        if isinstance(pattern, URLResolver):
            space = namespace + (f"{pattern.namespace}:" if pattern.namespace else "")
            yield from url_patterns(pattern.url_patterns, prefix + str(pattern.pattern), space)
        elif isinstance(pattern, URLPattern):
            yield prefix + str(pattern.pattern), namespace + (pattern.name or "")


# --- the visible text of a page -------------------------------------------------------------

_HIDDEN = re.compile(r"<(script|style|template)\b.*?</\1\s*>", re.S | re.I)
# <code> and <pre> show a machine record as it is kept (the audit log's raw data, a desk
# request): shown on purpose, in its own typeface, never as a sentence of the page.
_MACHINE = re.compile(r"<(code|pre)\b.*?</\1\s*>", re.S | re.I)
_TAG = re.compile(r"<[^>]*>")
_URL = re.compile(r"(https?://\S+|/[\w\-./?=&%#]*|\b[\w.-]+@[\w.-]+)")


def visible_text(content: bytes) -> str:
    """The page's text as read: no scripts, styles, comments, tags or attributes."""
    text = content.decode()
    text = re.sub(r"<!--.*?-->", " ", text, flags=re.S)
    text = _HIDDEN.sub(" ", text)
    text = _MACHINE.sub(" ", text)
    text = _TAG.sub("\n", text)
    return html.unescape(text)


# --- what a Chinese page never shows ---------------------------------------------------------

JSON_PATH = re.compile(r"\b[a-z_]+\[\d+\]|\b[a-z_]+\.[a-z_]+\b")
SNAKE = re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b")
KEBAB = re.compile(r"(?<![\w/.-])[a-z]+(?:-[a-z0-9]+)+(?![\w/.-])")
CODES = re.compile(
    r"\b(submission|correction|void|ruling|table-key|api|web|restore|overturn|uphold|vary|"
    r"upheld|overturned|varied|open|decided|stands|dismissed|forfeit|bye|win|loss|draw)\b"
)
SEAT_LETTER = re.compile(r"(?<![A-Za-z0-9♠♥♣♦])(E|S|W|N|EW|NS)(?![A-Za-z0-9])")
CJK = re.compile(r"[\u3400-\u9fff\uff01-\uff5e\u3000-\u303f]+")


def problems_in_chinese(text: str, usernames: set[str], slugs: set[str]) -> list[str]:
    text = _URL.sub(" ", text)
    for slug in slugs:
        text = text.replace(slug, " ")
    found = []
    for name, pattern in (
        ("JSON path", JSON_PATH),
        ("snake_case", SNAKE),
        ("kebab-case", KEBAB),
        ("code", CODES),
        ("seat letter", SEAT_LETTER),
    ):
        found += [f"{name}: {m.group(0)!r} in …{around(text, m)}…" for m in pattern.finditer(text)]
    for username in usernames:
        for m in re.finditer(rf"(?<![\w-]){re.escape(username)}(?![\w-])", text):
            found.append(f"username: {username!r} in …{around(text, m)}…")
    return found


# A Chinese term glossed in parentheses after its English ("Warning (警告)", "Leaves (请假)"):
# the seeds' own word, kept on purpose for referees who know the rules in Chinese.
GLOSS = re.compile(r"(?<=[A-Za-z)]) ?[(（][\u3400-\u9fff·、 ]+[)）]")


def problems_in_english(text: str, names: list[str]) -> list[str]:
    for name in names:  # longest first: a team name before its unit's
        text = text.replace(name, " ")
    text = GLOSS.sub(" ", text)
    return [f"Chinese: {m.group(0)!r} in …{around(text, m)}…" for m in CJK.finditer(text)]


def around(text: str, match) -> str:
    return " ".join(text[max(0, match.start() - 40) : match.end() + 40].split())


# --- the world walked -----------------------------------------------------------------------


def display_names(users) -> None:
    for user in users:
        if not user.first_name:
            user.first_name = f"裁判{user.pk}"
            user.save(update_fields=["first_name"])


def game_event(game: str, record: dict):
    """A tractor or idiom-chain event: 4 teams, round 1 in play, table 1 has a result."""
    event = factories.event(teams=4, game=game, name=f"{game} cup", slug=f"{game}-cup")
    teams = list(event.teams.order_by("name"))
    rnd = factories.round_(event, 1, [(teams[0], teams[1]), (teams[2], teams[3])], status="in_play")
    factories.result(rnd.matches.get(table_number=1), deals=record["deals"])
    return event


def staged_event():
    """A Guandan event run in a stage: a 4-team knockout in one section, the semi-finals in
    play, table 1 decided (the stage pages, the bracket and the section standings)."""
    from tournaments.services import rounds, stage_rounds

    event = factories.event(teams=0, name="淘汰赛 cup", slug="knockout-cup")
    for i in range(1, 5):
        factories.team(event, f"种子{i}队", seed=i)
    stage = factories.stage(
        event, name="决赛阶段", kind="knockout", match_format={"end": "deals", "deals": 1}
    )
    who = factories.organiser_of(event)
    rnd = rounds.publish(stage_rounds.draw_round(stage, who), who)
    factories.result(rnd.matches.exclude(away=None).order_by("table_number").first())
    return event, stage


STAGE_PAGES = (
    "tournaments:stage",
    "tournaments:stage-section-add",
    "tournaments:stage-assign",
    "tournaments:stage-split",
    "tournaments:stage-draw",
    "tournaments:public-bracket",
    "tournaments:stage-edit",
    "tournaments:stage-delete",
)
# the staged event walks only the pages that differ for a stage (the rest are the demo's)
STAGED_EVENT_PAGES = {
    *STAGE_PAGES,
    "tournaments:stages",
    "tournaments:stage-add",
    "tournaments:public-standings",
    "tournaments:projector",
    "tournaments:public-pairings",
    "tournaments:console",
}


@pytest.fixture
def world(db, media, settings):
    from arbitration.services.appeals import file_appeal, vote
    from arbitration.services.incidents import log_incident
    from arbitration.services.rulings import rule
    from tournaments.models import Event, Job
    from tournaments.services import demo, table_keys

    settings.CELERY_TASK_ALWAYS_EAGER = False
    demo.load_demo()
    guandan = Event.objects.get(slug=demo.DEMO_SLUG)
    users = {u.username: u for u in get_user_model().objects.all()}
    from datetime import timedelta

    from tournaments.permissions import captain_team_ids

    first = guandan.rounds.get(number=1)
    rulings = []
    for captain in ("captain1", "captain2"):
        [team_id] = captain_team_ids(users[captain], guandan)
        match = (
            first.matches.get(home_id=team_id)
            if first.matches.filter(home_id=team_id)
            else first.matches.get(away_id=team_id)
        )
        incident = log_incident(
            guandan,
            users["chief"],
            category="signalling",
            description="敲桌子",
            match=match,
            team=guandan.teams.get(pk=team_id),
        )
        [ruling] = rule(incident, users["chief"], step="warning", reason="第一次警告")
        rulings.append((ruling, file_appeal(ruling, users[captain], "只是咳嗽")))
    with translation.override("zh-hans"):  # the committee works in Chinese
        for member in ("committee1", "committee2"):  # the second appeal is decided: overturned
            vote(rulings[1][1], users[member], "overturn", "咳嗽不算暗号")
    log_incident(
        guandan,
        users["referee1"],
        category="slow_play",
        description="出牌太慢",
        match=first.matches.get(table_number=1),
        team=first.matches.get(table_number=1).home,
    )  # open: the next step is shown
    late = log_incident(
        guandan,
        users["chief"],
        category="late_arrival",
        description="迟到",
        match=first.matches.get(table_number=3),
        team=first.matches.get(table_number=3).home,
        arrived_at=first.started_at + timedelta(minutes=11, seconds=30),
    )
    tractor = game_event(
        "tractor",
        {
            "deals": [
                {"dealer": "EW", "defender_points": 90, "bottom_points": 0, "bottom_multiplier": 2}
            ]
        },
    )
    chengyu = game_event("chengyu", {"deals": [{"tricks": {"EW": 8, "NS": 5}}] * 3})
    staged, stage = staged_event()
    for event in (tractor, chengyu, staged):
        for role, username in (
            ("organiser", "organiser"),
            ("chief_referee", "chief"),
            ("committee", "committee1"),
        ):
            factories.grant(users[username], event, role)
        factories.grant(users["referee1"], event, "table_referee", tables=[1, 2])
        factories.grant(users["captain1"], event, "captain", team=event.teams.order_by("name")[0])
    key = table_keys.issue(guandan, 1, users["organiser"])
    revoked = table_keys.issue(guandan, 2, users["organiser"])
    table_keys.revoke(revoked, users["organiser"], reason="丢失")
    job = Job.objects.create(event=guandan, kind="scoresheets", created_by=users["organiser"])
    display_names(get_user_model().objects.all())
    return SimpleNamespace(
        events=[guandan, tractor, chengyu, staged],
        users=users,
        staged=staged,
        stage=stage,
        incident=incident,
        late=late,
        rulings=[r for r, _ in rulings],
        appeals=[a for _, a in rulings],
        key=key,
        revoked=revoked,
        job=job,
    )


def kwargs_for(name: str, route: str, world, event) -> list[dict] | None:
    """The URL arguments of a page in ``event``; None when the page has no instance there."""
    first_round = event.rounds.order_by("number").first()
    match = first_round.matches.exclude(away=None).order_by("table_number").first()
    team = event.teams.order_by("pk").first()
    demo = event == world.events[0]
    by_name = {
        "tournaments:team-edit": [{"pk": team.pk}],
        "arbitration:team-record": [{"pk": team.pk}],
        "tournaments:public-team": [{"pk": team.pk}],
        "tournaments:match-result": [
            {"pk": m.pk}
            for m in first_round.matches.exclude(away=None)
            .filter(versions__isnull=False)
            .distinct()[:2]
        ],
        "arbitration:incident": [{"pk": i.pk} for i in (world.incident, world.late)],
        "arbitration:ruling": [{"pk": r.pk} for r in world.rulings],
        "arbitration:appeal-add": [{"pk": world.rulings[0].pk}],
        "arbitration:appeal": [{"pk": a.pk} for a in world.appeals],
        "tournaments:job": [{"pk": world.job.pk}],
        "tournaments:table-key-entry": [{"key": world.key.key}, {"key": world.revoked.key}],
    }
    demo_only = {
        "arbitration:incident",
        "arbitration:ruling",
        "arbitration:appeal-add",
        "arbitration:appeal",
        "tournaments:job",
        "tournaments:table-key-entry",
    }
    if name in demo_only and not demo:
        return None
    if event == world.staged and name not in STAGED_EVENT_PAGES:
        return None
    if name in STAGE_PAGES:
        if event != world.staged:
            return None
        by_name[name] = [{"pk": world.stage.pk}]
    if name == "password_reset_confirm":
        return [{"uidb64": "MQ", "token": "expired-token"}]
    answers = []
    for extra in by_name.get(name, [{}]):
        args = dict(extra)
        if "<slug:slug>" in route:
            args["slug"] = event.slug
        if "<int:number>" in route:
            args["number"] = first_round.number
        if "<int:table>" in route:
            args["table"] = match.table_number
        missing = set(re.findall(r"<(?:\w+:)?(\w+)>", route)) - set(args)
        assert not missing, f"{name}: say how to fill {missing} in tests/test_vocabulary.py"
        answers.append(args)
    return answers


ROLES = ("organiser", "chief", "referee1", "committee1", "captain1", None)


def pages(world):
    """(url, who) of every page of every event for every role, and the pages of no event."""
    seen = set()
    for route, name in url_patterns():
        if route.startswith(("admin/", "api/")) or name in NOT_RENDERED_BY_GET:
            continue
        events = world.events if "<slug:slug>" in route or "<str:key>" in route else [None]
        for event in events:
            for kwargs in kwargs_for(name, route, world, event or world.events[0]) or []:
                url = reverse(name, kwargs=kwargs)
                if url not in seen:
                    seen.add(url)
                    yield url


def walk(client, world, language):
    """(url, role, visible text) of every page each role may read."""
    read = 0
    for url in pages(world):
        for username in ROLES:
            client.logout()
            if username:
                client.force_login(world.users[username])
            response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
            assert response.status_code < 500, url
            if response.status_code in (301, 302, 403, 404, 405):
                continue
            if "html" not in response.get("Content-Type", ""):
                continue
            read += 1
            yield url, username, visible_text(response.content)
    assert read > 100, f"only {read} pages read"


def usernames_with_names():
    return {u.username for u in get_user_model().objects.exclude(first_name="")}


# Pages where the username is shown by rule next to the name: the audit log keeps it as text;
# the pages that manage logins (roles on the console, table assignments, lockouts, event
# creators, the account pages) name the login to type.
USERNAME_PAGES = (
    "/manage/audit/",
    "/manage/lockouts/",
    "/accounts/",
    "/manage/assignments/",
    "/event-creators/",
    "/manage/roles/",  # the person to give a role: name and login, two namesakes told apart
    "/manage/accounts/",  # the logins made for invited officials and captains
)
USERNAME_PAGE_EXACT = ("/manage/",)  # the console's roles


def test_chinese_pages_show_no_raw_identifiers(world, client):
    usernames = usernames_with_names()
    slugs = {e.slug for e in world.events}
    found = []
    for url, who, text in walk(client, world, "zh-hans"):
        login_page = any(p in url for p in USERNAME_PAGES) or url.endswith(USERNAME_PAGE_EXACT)
        names = set() if login_page else usernames
        if login_page:  # the login as typed, whatever its form (e.g. event-chief-3)
            for username in get_user_model().objects.values_list("username", flat=True):
                text = re.sub(rf"(?<![\w-]){re.escape(username)}(?![\w-])", " ", text)
        found += [
            f"{url} ({who or 'public'}): {p}" for p in problems_in_chinese(text, names, slugs)
        ]
    assert not found, "\n".join(sorted(set(found)))


def data_names():
    """Names from the data (teams, players, units, events, notes typed in): not UI text."""
    from arbitration.models import Appeal, Incident, Revocation, Ruling
    from tournaments.models import Event, Player, Section, Stage, Team, Unit

    names = set()
    for model, fields in (
        (Team, ("name",)),
        (Player, ("name",)),
        (Unit, ("name",)),
        (Stage, ("name",)),
        (Section, ("name",)),
        (Event, ("name", "venue")),
        (Incident, ("description",)),
        (Ruling, ("reason",)),
        (Appeal, ("grounds",)),
        (Revocation, ("reason",)),
    ):
        for row in model.objects.values_list(*fields):
            names |= {v for v in row if v}
    names |= set(
        get_user_model().objects.exclude(first_name="").values_list("first_name", flat=True)
    )
    from arbitration.models import Vote
    from tournaments.models import ResultDispute, ResultVersion

    for model, field in ((Vote, "reason"), (ResultDispute, "reason"), (ResultVersion, "note")):
        names |= set(model.objects.exclude(**{field: ""}).values_list(field, flat=True))
    names |= {"中文", "简体中文"}  # the language switcher names each language in itself
    names |= {"牌赛"}  # the product's name, shown with "paisai" in the header
    names |= {
        "掼蛋",
        "拖拉机",
        "成语接龙扑克",
        "成语接龙",
    }  # the games' own names beside the English
    from tournaments.models import AuditLog

    names |= set(AuditLog.objects.exclude(reason="").values_list("reason", flat=True))
    names |= {
        "张卫军",
        "黑桃",
        "一等奖",
    }  # examples of Chinese input the search and the card fields accept
    return sorted(names, key=len, reverse=True)


def test_english_pages_show_no_untranslated_chinese(world, client):
    names = data_names()
    found = []
    for url, who, text in walk(client, world, "en"):
        found += [f"{url} ({who or 'public'}): {p}" for p in problems_in_english(text, names)]
    assert not found, "\n".join(sorted(set(found)))


def api_post(user, url, body, key=None):
    from rest_framework.test import APIClient

    api = APIClient(HTTP_ACCEPT_LANGUAGE="zh-hans")
    if user is not None:
        api.force_authenticate(user)
    extra = {"HTTP_X_TABLE_KEY": key} if key else {}
    return api.post(url, body, format="json", **extra)


def test_error_states_read_in_chinese_words(world, client):
    """A refused deal, a conflict and a revoked table key: the API keeps the machine ``field``;
    the ``error`` a referee reads names the deal from 1 and the seat in words."""
    guandan = world.events[0]
    first = guandan.rounds.get(number=1)
    table1 = first.matches.get(table_number=1)
    url = f"/api/tournaments/{guandan.slug}/matches/{table1.pk}/result/"
    deals = [
        {"finish": ["E", "W", "S", "N"]},
        {"finish": ["S", "E", "N", "W"]},
        {"finish": ["S", "S", "E"]},
    ]
    refused = api_post(
        world.users["referee1"],
        url,
        {"record": {"game": "guandan", "deals": deals}, "base_version": 0},
    )
    assert refused.status_code == 400
    body = refused.json()
    assert body["field"] == "record.deals[2].finish"
    assert body["error"] == "第 3 副的出完顺序：座位 南 出现了两次"
    table7 = first.matches.get(table_number=7)  # the chief's confirmed version 1
    conflict = api_post(
        world.users["referee2"],
        f"/api/tournaments/{guandan.slug}/matches/{table7.pk}/result/",
        {"record": {"game": "guandan", "deals": deals[:2]}, "base_version": 0},
    )
    assert conflict.status_code == 409
    assert "已被他人更改" in conflict.json()["error"]
    assert world.users["chief"].first_name in conflict.json()["error"]
    own = api_post(
        world.users["chief"],
        f"/api/tournaments/{guandan.slug}/matches/{table7.pk}/result/",
        {"record": {"game": "guandan", "deals": deals[:2]}, "base_version": 0},
    )
    assert own.status_code == 409
    assert "他人" not in own.json()["error"] and "您自己之前的保存" in own.json()["error"]
    revoked = api_post(
        None,
        f"/api/tournaments/{guandan.slug}/matches/{table1.pk}/result/",
        {"record": {"game": "guandan", "deals": deals[:2]}, "base_version": 0},
        key=world.revoked.key,
    )
    assert revoked.status_code in (401, 403)
    assert revoked.json()["error"] == "本桌链接已被收回，请向裁判长索取新链接。"
    # the page answers of the same refusals (the chief's form on the match page)
    client.force_login(world.users["chief"])
    page = client.post(
        reverse("tournaments:match-action", args=[guandan.slug, table7.pk]),
        {"action": "void", "base_version": 0, "reason": "重复"},
        HTTP_ACCEPT_LANGUAGE="zh-hans",
        follow=True,
    )
    text = visible_text(page.content)
    assert "您自己之前的保存" in text
    usernames = usernames_with_names()
    assert not problems_in_chinese(text, usernames, {guandan.slug})
    for answer in (body, conflict.json(), own.json(), revoked.json()):
        assert not problems_in_chinese(answer["error"], usernames, set()), answer


# --- issue 35: the words of the glossary, where they were wrong -------------------------------


def test_words_the_deck_count_is_not_the_deal_count_and_a_deal_count_is_not_the_deals():
    """副数 is a number of deals: the deck count reads 几副牌; a stage's number of deals
    reads 副数 (it read 各副结果, the heading of the deals entered)."""
    from tournaments.views.stages import StageForm

    with translation.override("zh-hans"):
        assert translation.gettext("decks") == "几副牌"
        label = str(StageForm().fields["deals"].label)
        assert label == "副数" and "结果" not in label
        assert translation.gettext("Deals") == "各副结果"  # the table page's list of deals
        assert "副数" not in translation.gettext("Deal (wrong tribute)")


def test_words_match_points_read_场分_never_积分():
    from tournaments import glossary

    with translation.override("zh-hans"):
        assert str(glossary.METRICS["points"]) == "场分"
        assert translation.gettext("Points") == "场分"
        assert translation.gettext("Carry the points") == "带入场分"
        assert "积分" not in translation.gettext("A knockout does not carry points.")


def test_words_an_engine_refusal_is_spaced_as_chinese():
    """ "…闲家得分须为 0 到 300…", never "…得分 须为0 到 300…"."""
    from rules_engine import api as rules_api
    from rules_engine.errors import RulesError
    from rules_engine.i18n import localize

    with pytest.raises(RulesError) as refused:
        rules_api.score({"game": "tractor", "deals": [{"dealer": "EW", "defender_points": 305}]})
    words = localize(refused.value.message, "zh-hans", words=True)
    assert "得分须为 0 到 300" in words, words
    assert "得分 须为" not in words and "须为0" not in words
    cli = localize(refused.value.message, "zh-hans")  # the CLI keeps the path as it is
    assert cli.startswith("deals[0].defender_points 须为 0 到 300"), cli


@pytest.mark.django_db
def test_words_the_finals_and_third_place_winners_are_not_晋级(client):
    """The final's winner is 冠军 and the third-place match's 季军; 晋级 (through) only
    before the final."""
    event = factories.event(teams=0)
    for i in range(1, 7):
        factories.team(event, f"S{i}", seed=i)
    stage = factories.stage(
        event,
        name="决赛阶段",
        kind="knockout",
        third_place=True,
        match_format={"end": "deals", "deals": 1},
    )
    for _ in range(3):  # quarter-finals, semi-finals, final and third-place match
        factories.play_stage_round(stage)
    html = client.get(
        f"/t/{event.slug}/stages/{stage.pk}/bracket/", HTTP_ACCEPT_LANGUAGE="zh-hans"
    ).content.decode()
    badges = re.findall(r'<span class="badge ok" data-outcome="(\w+)">([^<]*)</span>', html)
    assert ("champion", "冠军") in badges and ("third", "季军") in badges, badges
    assert [b for b in badges if b[0] in ("champion", "third")] == [
        ("champion", "冠军"),
        ("third", "季军"),
    ]
    assert all(word == "晋级" for kind, word in badges if kind == "through")
