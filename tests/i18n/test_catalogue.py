"""Every text the hall shows exists in zh-CN and en-US, from one catalogue."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

from bot.i18n import LOCALES, catalogue, normalize, render
from bot.i18n.translator import command_texts
from engines.base import T

ROOT = Path(__file__).resolve().parents[2]
USED = re.compile(r"""\b(?:t|T|HostError|Text)\(\s*f?["']([a-z_]+\.[a-z_.]+|hint)["']""")


def keys_used_in_bot() -> set[str]:
    found: set[str] = set()
    for path in (ROOT / "bot").rglob("*.py"):
        found |= set(USED.findall(path.read_text(encoding="utf-8")))
    return found


def test_both_locales_have_the_same_keys_and_placeholders() -> None:
    """The hall's own texts: same keys, same placeholders (the games' texts are checked by
    tests/engines, which renders each with the arguments the engine passes)."""
    table = catalogue()
    assert set(table["zh-CN"]) == set(table["en-US"])
    hall = {loc: json.loads((ROOT / "bot" / "i18n" / f"{loc}.json").read_text(encoding="utf-8"))
            for loc in LOCALES}
    fields = string.Formatter()
    for key in hall["en-US"]:
        en = {f for _, f, _, _ in fields.parse(hall["en-US"][key]) if f}
        zh = {f for _, f, _, _ in fields.parse(hall["zh-CN"][key]) if f}
        assert en == zh, key


def test_every_key_the_bot_uses_is_in_the_catalogue() -> None:
    used = keys_used_in_bot()
    assert {"err.not_your_turn", "table.title", "result.seat", "mod.granted"} <= used
    for locale in LOCALES:
        missing = sorted(k for k in used if k not in catalogue()[locale])
        assert not missing, (locale, missing)


def test_rendering_follows_the_locale() -> None:
    assert render(T("err.not_your_turn"), "zh-CN") == "还没轮到你。"
    assert render(T("err.not_your_turn"), "en-US") == "It is not your turn."
    assert normalize("zh-TW") == "zh-TW" and normalize("zh-CN") == "zh-CN"
    assert normalize("fr") == "en-US"
    assert render(T("note.joined", name="ann"), normalize(None)) == "ann 入座。"


def test_every_command_string_has_a_chinese_translation() -> None:
    sources = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "bot" / "cogs").glob("*.py"))
    strings = set(re.findall(r"""_\(\s*["']([^"']+)["']\s*\)""", sources))
    assert {"table", "create", "Open a table in this channel"} <= strings
    missing = sorted(s for s in strings if s not in command_texts())
    assert not missing, missing
