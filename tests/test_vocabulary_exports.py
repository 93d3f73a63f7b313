"""One vocabulary in the exports too (issue 18): every spreadsheet and PDF of a typical event
(the demo), a staged one (a knockout stage), a tractor and an idiom-chain event and an event
with a bye and a withdrawn team, read back in Chinese (openpyxl, pypdf), shows no machinery
(the checks of tests/test_vocabulary.py: codes, snake_case, seat letters, usernames), no
English words, and says things with the glossary's words (seats, sides, tables, deals, a bye).
"""

from __future__ import annotations

import re

import pytest
from django.contrib.auth import get_user_model
from django.utils import translation

from tests import factories
from tests.readers import pdf_text, workbook
from tests.test_vocabulary import (
    data_names,
    display_names,
    game_event,
    problems_in_chinese,
    staged_event,
    usernames_with_names,
)
from tournaments import glossary
from tournaments.exporters import exporters
from tournaments.models import Team

ROUND_EXPORTS = ("pairings-pdf", "pairings-xlsx", "scoresheets", "table-cards-pdf")
ENGLISH_WORD = re.compile(r"[A-Za-z]{2,}")
URL = re.compile(r"https?://\S+")
PRODUCT = "paisai"  # the product's name, in the scoresheets' footer as on every page's


def sheet_text(data: bytes) -> str:
    """Every cell of every sheet (and the sheets' names), a line a row."""
    book = workbook(data)
    lines = []
    for sheet in book.worksheets:
        lines.append(sheet.title)
        for row in sheet.iter_rows(values_only=True):
            lines.append(" | ".join("" if value is None else str(value) for value in row))
    return "\n".join(lines)


def export_texts(event, stage=None, only=None) -> dict[str, str]:
    """identifier → the text of each export of ``event`` (its first round's, where asked),
    or of the exports ``only``."""
    from tournaments.exporters import exports

    first = event.rounds.order_by("number").first()
    texts = {}
    for identifier in only or exporters():
        if identifier in ("archive", "event-file", "table-links-pdf"):
            continue  # JSON for machines; the table links: the page test reads their words
        params = {"round": str(first.number)} if identifier in ROUND_EXPORTS else {}
        if identifier == "bracket-pdf":
            if stage is None:
                continue
            params = {"stage": str(stage.pk)}
        status = event.status
        if identifier == "certificates-pdf":  # printed once the event is finished
            event.status = event.Status.FINISHED
        try:
            export = exports.render_now(event, identifier, params)
        finally:
            event.status = status
        if export.filename.endswith(".xlsx"):
            texts[identifier] = sheet_text(export.data)
        else:
            texts[identifier] = pdf_text(export.data)
    return texts


def english_words(text: str, names: list[str]) -> list[str]:
    """Latin words left once the data's names (teams, events, players) are taken out."""
    text = URL.sub(" ", text)  # a badge's check-in link
    for name in names:
        text = text.replace(name, " ")
    return ENGLISH_WORD.findall(text)


def settle_prize_lots(event) -> None:
    """Draw lots for every tie across a prize band (the certificates wait for them)."""
    from tournaments.services import lots

    while ties := lots.prize_cut_ties(event):
        lots.draw_cut(event, factories.chief_of(event), ties[0].teams, seed=1)


@pytest.fixture
def events(db, media):
    from tournaments.models import Event
    from tournaments.services import demo

    demo.load_demo()
    guandan = Event.objects.get(slug=demo.DEMO_SLUG)
    staged, stage = staged_event()
    tractor = game_event(
        "tractor",
        {
            "deals": [
                {"dealer": "EW", "defender_points": 90, "bottom_points": 0, "bottom_multiplier": 2}
            ]
        },
    )
    chengyu = game_event("chengyu", {"deals": [{"tricks": {"EW": 8, "NS": 5}}] * 3})
    odd = factories.event(teams=5, name="轮空赛", slug="bye-cup")
    teams = list(odd.teams.order_by("name"))
    rnd = factories.round_(
        odd, 1, [(teams[0], teams[1]), (teams[2], teams[3])], byes=[teams[4]], status="finalised"
    )
    factories.result(rnd.matches.get(table_number=1))
    Team.objects.filter(pk=teams[3].pk).update(status=Team.Status.WITHDRAWN)
    display_names(get_user_model().objects.all())
    for event in (guandan, staged, tractor, chengyu, odd):  # ties at a prize band: lots drawn
        settle_prize_lots(event)
    # every export of the demo and of the staged event; of the others what differs for them
    return {
        "guandan": (guandan, None, None),
        "staged": (staged, stage, None),
        "tractor": (tractor, None, GAME_EXPORTS),
        "chengyu": (chengyu, None, GAME_EXPORTS),
        "bye": (odd, None, BYE_EXPORTS),
    }


GAME_EXPORTS = ("scoresheets", "table-cards-pdf", "pairings-xlsx")  # the game's grid
BYE_EXPORTS = (
    "pairings-pdf",
    "pairings-xlsx",
    "standings-pdf",
    "standings-xlsx",
    "table-cards-pdf",
)  # a bye and a withdrawn team


def read_all(events) -> dict[tuple[str, str], str]:
    with translation.override("zh-hans"):
        return {
            (label, identifier): text
            for label, (event, stage, only) in events.items()
            for identifier, text in export_texts(event, stage, only).items()
        }


def test_chinese_exports_show_no_codes_no_english_and_the_glossary_words(events):
    texts = read_all(events)
    assert len(texts) == 2 * (len(exporters()) - 3) - 1 + 2 * 3 + 5, sorted(texts)
    usernames = usernames_with_names()
    slugs = {event.slug for event, _stage, _only in events.values()}
    names = [*data_names(), PRODUCT]
    found = []
    for (label, identifier), text in sorted(texts.items()):
        found += [f"{label} {identifier}: {p}" for p in problems_in_chinese(text, usernames, slugs)]
        found += [f"{label} {identifier}: English {w!r}" for w in english_words(text, names)]
    assert not found, "\n".join(found)

    with translation.override("zh-hans"):
        seats = [glossary.seat(code) for code in "ESWN"]
        sides = [glossary.side(code) for code in ("EW", "NS")]
        deal, bye = str(glossary.DEAL), glossary.word(glossary.RESULTS, "bye")
        table_1 = glossary.table_label(1)
        level = str(glossary.LEVEL_PLAYED)
        draw = glossary.word(glossary.RESULTS, "draw")
        withdrawn = str(Team.Status.WITHDRAWN.label)
        assert deal in glossary.deal_label(1)  # one word for a deal: its column, "第 1 副"
    for label in ("guandan", "tractor", "chengyu"):
        sheets = texts[(label, "scoresheets")]
        grid = next(line for line in sheets.splitlines() if line.startswith(deal + " "))
        assert all(seat in sheets for seat in seats), (label, sheets[:300])
        assert all(side in sheets for side in sides), label
        if label != "chengyu":  # the level played (a draw is no column of a deal)
            assert level in grid.split() and draw not in grid, (label, grid)
    for label in events:
        assert table_1 in texts[(label, "table-cards-pdf")], label
        assert all(side in texts[(label, "pairings-xlsx")] for side in sides), label
    assert bye in texts[("bye", "pairings-pdf")] and bye in texts[("bye", "pairings-xlsx")]
    assert withdrawn in texts[("bye", "standings-xlsx")]
    assert withdrawn in texts[("bye", "standings-pdf")]
