"""Field paths and seats of the engine's messages in words, for people (issue 18).

The engine names the field at fault by its JSON path (``deals[2].finish``) and seats by their
codes (``S``): what the API's machine ``field`` and the CLI keep. A referee reads the same
refusal with the deal counted from 1 and the field and seats in words —
"第 3 副的出完顺序：座位 南 出现了两次" / "deal 3, finish order: seat South appears twice" —
through :func:`rules_engine.i18n.localize` with ``words=True``.
"""

from __future__ import annotations

import re

SEATS = {
    "zh": {"E": "东", "S": "南", "W": "西", "N": "北", "EW": "东西", "NS": "南北"},
    "en": {
        "E": "East",
        "S": "South",
        "W": "West",
        "N": "North",
        "EW": "East–West",
        "NS": "North–South",
    },
}

# Items of a list: the word for item n (counted from 1).
ITEMS = {
    "zh": {
        "deals": "第 {n} 副",
        "games": "第 {n} 局",
        "failed_throws": "第 {n} 次甩牌失败",
        "adjustments": "第 {n} 项判罚",
        "penalties": "第 {n} 项判罚",
        "play_log": "第 {n} 手出牌",
        "tricks": "第 {n} 墩",
        "trick": "第 {n} 手",
        "declarations": "第 {n} 次亮主",
        "finish": "第 {n} 位",
        "cards": "第 {n} 张牌",
        "play": "所出的第 {n} 张牌",
        "hand": "手牌第 {n} 张",
        "previous": "上家的第 {n} 张牌",
        "lead": "首出的第 {n} 张牌",
        "throw": "甩牌第 {n} 张",
    },
    "en": {
        "deals": "deal {n}",
        "games": "game {n}",
        "failed_throws": "failed throw {n}",
        "adjustments": "adjustment {n}",
        "penalties": "penalty {n}",
        "play_log": "play {n}",
        "tricks": "trick {n}",
        "trick": "play {n}",
        "declarations": "declaration {n}",
        "finish": "place {n}",
        "cards": "card {n}",
        "play": "card {n} of the play",
        "hand": "card {n} of the hand",
        "previous": "card {n} of the previous play",
        "lead": "card {n} of the lead",
        "throw": "card {n} of the throw",
    },
}

# Fields by name; a name not listed is shown as it is.
FIELDS = {
    "zh": {
        "record": "",
        "finish": "出完顺序",
        "dealer": "庄家",
        "defender_points": "闲家得分",
        "bottom_points": "底牌分",
        "bottom_multiplier": "底牌倍数",
        "failed_throws": "甩牌失败",
        "tricks": "墩数",
        "final_levels": "最终级数",
        "forfeit": "弃权",
        "deals": "牌局",
        "games": "各局",
        "adjustments": "判罚",
        "penalties": "判罚",
        "hand": "手牌",
        "hands": "手牌",
        "play": "所出的牌",
        "previous": "上家的牌",
        "previous and play": "上家的牌和所出的牌",
        "play_log": "出牌记录",
        "cards": "牌",
        "seat": "座位",
        "side": "一方",
        "type": "类型",
        "deal": "副数",
        "trump": "主牌",
        "level": "所打级数",
        "lead": "首出的牌",
        "throw": "甩牌",
        "leader": "首出者",
        "format": "赛制",
        "time_up_deal": "到时的那一副",
        "levels": "级数",
        "EW": "东西",
        "NS": "南北",
    },
    "en": {
        "record": "",
        "finish": "finish order",
        "dealer": "dealer side",
        "defender_points": "defenders' points",
        "bottom_points": "bottom points",
        "bottom_multiplier": "bottom multiplier",
        "failed_throws": "failed throws",
        "tricks": "tricks",
        "final_levels": "final levels",
        "deals": "deals",
        "games": "games",
        "adjustments": "adjustments",
        "penalties": "penalties",
        "hand": "hand",
        "hands": "hands",
        "play": "play",
        "previous": "previous play",
        "previous and play": "the previous play and the play",
        "play_log": "play log",
        "seat": "seat",
        "side": "side",
        "type": "type",
        "deal": "deal number",
        "trump": "trump",
        "level": "level",
        "leader": "leader",
        "format": "match format",
        "time_up_deal": "deal in play at time",
        "levels": "levels",
        "EW": "East–West",
        "NS": "North–South",
    },
}
JOIN = {"zh": "的", "en": ", "}

# Parameters of the engine's messages that hold a seat or a side code.
SEAT_PARAMS = frozenset(
    {
        "seat",
        "turn",
        "missing",
        "partner",
        "payer",
        "receiver",
        "receiver2",
        "expected",
        "before",
        "leader",
        "passed_a",
        "side",
        "dealer",
        "winner",
        "seats",
        "payers",
        "receivers",
        "first",
        "second",
    }
)
PATH_PARAMS = frozenset({"field", "where", "field_name"})
# Cards and games named in a message: in words for people (S8 → ♠8, BJ → 大王, guandan → 掼蛋).
CARD_PARAMS = frozenset({"card", "card2", "cards", "names", "chains", "same_suit"})
GAME_PARAMS = frozenset({"game", "game2"})
GAMES = {
    "zh": {"guandan": "掼蛋", "tractor": "拖拉机", "chengyu": "成语接龙扑克"},
    "en": {"guandan": "Guandan", "tractor": "Tractor", "chengyu": "idiom-chain poker"},
}
SUIT_SIGNS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}
JOKER_WORDS = {"zh": {"BJ": "大王", "LJ": "小王"}, "en": {"BJ": "big joker", "LJ": "small joker"}}
_CARD = re.compile(r"(?<![A-Za-z0-9])(?:([SHCD])(10|[2-9TJQKA])|(BJ|LJ))(?![A-Za-z0-9])")

_SEGMENT = re.compile(r"([^.\[\]]+)|\[(\d+)\]")


def language(lang: str | None) -> str:
    return "zh" if lang and lang.lower().startswith("zh") else "en"


def seat_word(code: object, lang: str | None) -> object:
    """A seat or side code in words; anything else unchanged."""
    if isinstance(code, str):
        return SEATS[language(lang)].get(code, code)
    return code


def path_words(path: object, lang: str | None) -> object:
    """A JSON path in words: ``deals[2].finish`` → 第 3 副的出完顺序 (items counted from 1)."""
    if not isinstance(path, str) or not path:
        return path
    lang_key = language(lang)
    if path in FIELDS[lang_key]:
        return FIELDS[lang_key][path] or path
    items, fields = ITEMS[lang_key], FIELDS[lang_key]
    parts: list[str] = []
    last = None
    for name, index in _SEGMENT.findall(path):
        if index:
            label = items.get(last or "")
            if label and parts and parts[-1] == fields.get(last or "", last):
                parts.pop()
            parts.append(label.format(n=int(index) + 1) if label else f"[{int(index) + 1}]")
        else:
            last = name
            word = fields.get(name, name)
            if word:
                parts.append(word)
    return JOIN[lang_key].join(parts) if parts else path


def game_word(code: object, lang: str | None) -> object:
    """A game's code in words (``guandan`` → 掼蛋); anything else unchanged."""
    if isinstance(code, str):
        return GAMES[language(lang)].get(code, code)
    return code


def card_words(value: object, lang: str | None) -> object:
    """Card codes in a message in words: ``S8`` → ♠8, ``CA`` → ♣A, ``BJ`` → 大王 (a card,
    a list of cards or a text holding them); anything else unchanged."""
    if isinstance(value, list | tuple):
        return " ".join(str(card_words(item, lang)) for item in value)
    if value is None or isinstance(value, bool | int | float):
        return value
    jokers = JOKER_WORDS[language(lang)]

    def word(match: re.Match) -> str:
        suit, rank, joker = match.groups()
        if joker:
            return jokers[joker]
        return SUIT_SIGNS[suit] + ("10" if rank == "T" else rank)

    return _CARD.sub(word, str(value))
