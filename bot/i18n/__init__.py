"""One message catalogue for the hall: the host's texts plus every game's own texts.

``render(text, locale)`` turns an engine or host ``Text`` into a string in zh-CN or en-US.
Public table messages follow the server's preferred locale, ephemeral replies the user's.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any

from engines import registry
from engines.base import Text

LOCALES = ("zh-CN", "en-US")
DEFAULT = "zh-CN"
_HERE = Path(__file__).resolve().parent


def normalize(locale: Any) -> str:
    """Map a Discord locale (or None) onto one of the catalogue's locales."""
    value = str(getattr(locale, "value", locale) or "")
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


def render(text: Text | str, locale: str) -> str:
    """The text in ``locale``; a missing key falls back to the other locale, then the key."""
    if isinstance(text, str):
        return text
    table = catalogue()
    locale = normalize(locale)
    template = table[locale].get(text.key)
    if template is None:
        other = "en-US" if locale == "zh-CN" else "zh-CN"
        template = table[other].get(text.key, text.key)
    args = _Args({k: _arg(v, locale) for k, v in text.args.items()})
    return template.format_map(args)


def _arg(value: Any, locale: str) -> Any:
    if isinstance(value, Text):
        return render(value, locale)
    if isinstance(value, Mapping) and "k" in value:
        return render(Text.from_json(value), locale)
    return value


def t(key: str, locale: str, **args: Any) -> str:
    """Render a hall text by key."""
    return render(Text(key, args), locale)
