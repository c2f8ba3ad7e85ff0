"""One message catalogue for the hall: the host's texts plus every game's own texts.

``render(text, locale)`` turns an engine or host ``Text`` into a string in zh-CN (简体中文),
zh-TW (繁體中文, Taiwan usage) or en-US. Public table messages follow the server's language,
ephemeral replies the user's Discord locale (``normalize``).

Catalogue format: one format for every language, ``{key: str.format template}``. The hall's
texts are JSON files here (``<locale>.json``; command names and descriptions in
``commands.<locale>.json``, keyed by the English source string); each game's texts are Python
dicts ``{locale: {key: template}}`` in ``engines/*/texts.py`` (plus ``engines.base.BASE_TEXTS``,
``engines.cards.CARD_TEXTS`` …), because engines read no files. A third language did not make
these awkward enough to move to gettext ``.po``: each locale is one more block beside the
others, and ``tests/i18n`` checks that every key and placeholder exists in every language.
zh-TW is derived from zh-CN with OpenCC (s2twp) plus a reviewed glossary of Taiwan terms;
``python -m bot.i18n.tw --check`` lists what is missing and ``--fill`` adds it (``bot/i18n/tw.py``).

What players type is read in one script: ``typed`` turns Traditional characters into Simplified
(OpenCC t2s) before a game reads an action, so 搶地主, 槓 and 過 mean 抢地主, 杠 and 过 and the
games keep one set of words.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from engines import registry
from engines.base import Text

LOCALES = ("zh-CN", "en-US", "zh-TW")
DEFAULT = "zh-CN"
FALLBACK = {"zh-CN": ("en-US",), "en-US": ("zh-CN",), "zh-TW": ("zh-CN", "en-US")}
"""Where a missing text is looked up next: zh-TW readers read zh-CN before English."""
_TRADITIONAL = ("zh-tw", "zh-hk", "zh-mo", "zh-hant")
_HERE = Path(__file__).resolve().parent


def normalize(locale: Any) -> str:
    """Map a Discord locale (or None) onto one of the catalogue's locales: Traditional
    Chinese (Discord's ``zh-TW``, also zh-HK/zh-Hant) to zh-TW, other Chinese to zh-CN."""
    value = str(getattr(locale, "value", locale) or "")
    if value.lower().startswith(_TRADITIONAL):
        return "zh-TW"
    if value.startswith("zh"):
        return "zh-CN"
    if not value:
        return DEFAULT
    return "en-US"


@lru_cache(maxsize=1)
def catalogue() -> dict[str, dict[str, str]]:
    """The hall's texts (bot/i18n/<locale>.json) merged with each registered game's."""
    merged: dict[str, dict[str, str]] = {}
    for locale in LOCALES:
        merged[locale] = json.loads((_HERE / f"{locale}.json").read_text(encoding="utf-8"))
    for spec in registry.specs().values():
        for locale in LOCALES:
            for key, value in spec.texts.get(locale, {}).items():
                merged[locale].setdefault(key, value)
    return merged


class _Args(dict[str, Any]):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def render(text: Text | str, locale: str, seats: Sequence[str] | None = None) -> str:
    """The text in ``locale``; a missing key falls back along ``FALLBACK``, then the key.

    With ``seats`` (each seat's name, seat 1 first), a seat the template names by number
    ("{seat} 号位", "{seat}号", "Seat {seat}") is shown with its name, one way everywhere:
    "4号位（Bot 3）", "Seat 4 (Bot 3)" (``seat.named``)."""
    if isinstance(text, str):
        return text
    table = catalogue()
    locale = normalize(locale)
    template = table[locale].get(text.key)
    for other in FALLBACK[locale]:
        if template is not None:
            break
        template = table[other].get(text.key)
    if template is None:
        template = text.key
    args = _Args({k: _arg(v, locale, seats) for k, v in text.args.items()})
    if seats:
        template = _name_seats(template, text.args, seats, args)
    return template.format_map(args)


_SEAT_FORMS = (
    (re.compile(r"\{(?P<arg>\w+)\} ?(?:号位|号(?!座位))"), "zh-CN"),
    (re.compile(r"\{(?P<arg>\w+)\} ?(?:號位|號(?!座位))"), "zh-TW"),
    (re.compile(r"\b[Ss]eat \{(?P<arg>\w+)\}"), "en-US"),
)
"""How templates name a seat by its 1-based number, and the language of each form."""


def _name_seats(template: str, raw: Mapping[str, Any], seats: Sequence[str],
                args: dict[str, Any]) -> str:
    """``template`` with each seat named by number replaced by a placeholder of its label
    (added to ``args``); a value that is not a seat number is left as written."""
    for pattern, language in _SEAT_FORMS:
        def label(match: re.Match[str], language: str = language) -> str:
            value = raw.get(match["arg"])
            if isinstance(value, bool) or not isinstance(value, int) or not (
                    1 <= value <= len(seats)):
                return match[0]
            named = render(Text("seat.named", {"n": value, "name": seats[value - 1]}),
                           language)
            if match[0][0] == "S":
                named = named[:1].upper() + named[1:]
            key = f"_seat_{len(args)}"
            args[key] = named
            return "{" + key + "}"

        template = pattern.sub(label, template)
    return template


def _arg(value: Any, locale: str, seats: Sequence[str] | None = None) -> Any:
    if isinstance(value, Text):
        return render(value, locale, seats)
    if isinstance(value, Mapping) and "k" in value:
        return render(Text.from_json(value), locale, seats)
    return value


@lru_cache(maxsize=1)
def tw_names() -> dict[str, str]:
    """Game and room names in zh-TW, keyed by their zh-CN name (bot/i18n/names.zh-TW.json)."""
    return json.loads((_HERE / "names.zh-TW.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _t2s() -> Any:
    import opencc  # loaded on the first typed Chinese action, not at start-up

    return opencc.OpenCC("t2s")


def typed(text: str) -> str:
    """An action as typed, with Traditional characters read as Simplified.

    >>> typed("搶地主"), typed("33 44"), typed("不出")
    ('抢地主', '33 44', '不出')
    """
    if text.isascii():
        return text
    return str(_t2s().convert(text))


def pick_name(name_zh: str, name_en: str, locale: str) -> str:
    """A game's or room's name in ``locale`` from its zh-CN and en-US names.

    >>> pick_name("斗地主", "Dou Dizhu", "zh-TW"), pick_name("斗地主", "Dou Dizhu", "en-US")
    ('鬥地主', 'Dou Dizhu')
    """
    locale = normalize(locale)
    if locale == "zh-TW":
        return tw_names().get(name_zh, name_zh)
    return name_zh if locale == "zh-CN" else name_en


def t(key: str, locale: str, **args: Any) -> str:
    """Render a hall text by key."""
    return render(Text(key, args), locale)
