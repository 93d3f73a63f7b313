"""Messages of the engine in English and Chinese, without Django.

Every message the engine gives (a :class:`~rules_engine.errors.RulesError` or the
``"reason"`` of a ``check`` answer) is built by :func:`t` from an English template and its
parameters. The result is a :class:`Text`: a ``str`` equal to the English sentence (what
the JSON contract and the CLI give), which also remembers its template
and parameters so that :func:`localize` can render it in Chinese from
:data:`rules_engine.locale_zh.ZH`. Field paths, seats and card codes stay as they are.
"""

from __future__ import annotations

import re
import string
from collections.abc import Mapping

_FORMATTER = string.Formatter()

# Keys of an answer that hold words: a check answer's reason and a tractor follow's lead
# form; an error item's error.
MESSAGE_KEYS = ("reason", "error", "lead_form")


class Text(str):
    """An English message that can also be rendered in another language."""

    template: str
    params: dict

    def __new__(cls, template: str, params: Mapping | None = None) -> Text:
        params = dict(params or {})
        obj = super().__new__(cls, template.format(**params))
        obj.template = template
        obj.params = params
        return obj

    def __reduce__(self):  # pickle and deepcopy rebuild it from its template
        return (Text, (self.template, self.params))


def t(template: str, **params: object) -> Text:
    """The message ``template.format(**params)``, ready to be localized."""
    return Text(template, params)


def gettext_noop(text: str) -> str:
    """A word the pages show (an event setting's label, help and choices): kept in English
    here; the pages translate it through their catalogue, where ``makemessages`` puts it (it
    reads calls by this name). The engine's own messages are :func:`t`'s."""
    return text


def placeholders(template: str) -> set[str]:
    """The names of the ``{placeholders}`` of a template."""
    return {name for _, name, _, _ in _FORMATTER.parse(template) if name}


def _catalogue(lang: str | None) -> Mapping[str, str] | None:
    if not lang or not lang.lower().startswith("zh"):
        return None
    from rules_engine.locale_zh import ZH

    return ZH


def localize(text: object, lang: str | None, words: bool = False) -> str:
    """``text`` in language ``lang`` (``"zh-hans"``, ``"en"``…); English when untranslated.

    With ``words`` (what people read: pages and the API's ``error``), field paths and seats
    are put in words (``deals[2].finish`` → 第 3 副的出完顺序, ``S`` → 南; see
    :mod:`rules_engine.words`); without it, as the engine gives them (the CLI)."""
    if not isinstance(text, Text):
        return text if isinstance(text, str) else str(text)
    catalogue = _catalogue(lang)
    translated = catalogue is not None and text.template in catalogue
    if not translated and not words:
        return str.__str__(text)
    template = catalogue[text.template] if translated else text.template
    params = {
        key: localize(value, lang, words) if isinstance(value, Text) else value
        for key, value in text.params.items()
    }
    if words:
        template, params = _in_words(template, params, lang)
    elif translated:
        template = _spaced(template, params)
    return template.format(**params)


_SUB_PATH = re.compile(r"\{(field|where|field_name)\}((?:\.[a-z_]+)+)")


def _in_words(template: str, params: dict, lang: str | None) -> tuple[str, dict]:
    """The template and parameters with paths and seats in words."""
    from rules_engine.words import (
        CARD_PARAMS,
        GAME_PARAMS,
        PATH_PARAMS,
        SEAT_PARAMS,
        card_words,
        game_word,
        path_words,
        seat_word,
    )

    params = dict(params)

    def whole_path(match: re.Match) -> str:  # "{field}.type" names one field: one path
        name = f"{match.group(1)}__{len(params)}"
        params[name] = f"{params.get(match.group(1), '')}{match.group(2)}"
        return "{" + name + "}"

    template = _SUB_PATH.sub(whole_path, template)
    for key, value in params.items():
        base = key.split("__")[0]
        if base in PATH_PARAMS:
            params[key] = path_words(value, lang)
        elif base in SEAT_PARAMS:
            params[key] = seat_word(value, lang)
        elif base in GAME_PARAMS:
            params[key] = game_word(value, lang)
        elif base in CARD_PARAMS:
            params[key] = card_words(value, lang)
    paths = {key for key in params if key.split("__")[0] in PATH_PARAMS}
    return _spaced(template, params, paths), params


_HAN = re.compile(r"[\u3400-\u9fff]")
_PLACE = re.compile(r"\{(\w+)\}")


def _spaced(template: str, params: dict, paths: set[str] = frozenset()) -> str:
    """Chinese spacing at the joins of a template and its values in words: no space between
    a field path in words (``paths``) and the Chinese after it (a path is written ``{field}
    须为…`` for the paths the CLI shows as they are), and one space between 须为 and a value
    starting with a digit: "闲家得分须为 0 到 300 之间…", never "闲家得分 须为0 到 300"
    (issue 35)."""
    out, last = [], 0
    for match in _PLACE.finditer(template):
        value = params.get(match.group(1))
        text = str(value) if isinstance(value, str | int) else ""
        start, end = match.span()
        before = template[last:start]
        if text[:1].isdigit() and before.endswith("须为"):  # 须为 0 到 300, as 须为 1 到 12
            before += " "
        out.append(before + match.group(0))
        last = end
        after = template[end : end + 2]
        if match.group(1) in paths and text and _HAN.match(text[-1]) and after[:1] == " ":
            if len(after) == 2 and _HAN.match(after[1]):
                last = end + 1  # drop the space between two Chinese words
    out.append(template[last:])
    return "".join(out)


def localize_answer(answer: object, lang: str | None) -> object:
    """A copy of an engine answer (a dict, or a list of them) with its messages localized.

    Only ``Text`` values are rendered anew, so an answer that went through JSON (plain
    strings) comes back unchanged."""
    if isinstance(answer, list):
        return [localize_answer(item, lang) for item in answer]
    if not isinstance(answer, dict):
        return answer
    copy = {}
    for key, value in answer.items():
        if key in MESSAGE_KEYS and isinstance(value, Text):
            copy[key] = localize(value, lang)
        elif isinstance(value, dict | list):
            copy[key] = localize_answer(value, lang)
        else:
            copy[key] = value
    return copy


def term(code: str) -> Text:
    """A word of the games (a kind of combination, a suit name…) as a translatable Text."""
    return Text(code.replace("{", "{{").replace("}", "}}"))


def joined(items, conjunction: str = "and") -> Text | str:
    """``"a and b and c"`` (or ``"a or b"``) as a Text whose words are translated."""
    items = list(items)
    if not items:
        return ""
    result = items[0]
    for item in items[1:]:
        if conjunction == "or":
            result = t("{first} or {second}", first=result, second=item)
        else:
            result = t("{first} and {second}", first=result, second=item)
    return result
