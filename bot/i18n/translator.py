"""Localized command names and descriptions (zh-CN, zh-TW) through discord.py's translator."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import discord
from discord import app_commands

_HERE = Path(__file__).resolve().parent

DISCORD_LOCALES = {discord.Locale.chinese: "zh-CN", discord.Locale.taiwan_chinese: "zh-TW"}
"""The Discord client languages that get localized command names, and their catalogue."""


@lru_cache(maxsize=2)
def command_texts(locale: str = "zh-CN") -> dict[str, str]:
    """English command string → its text in ``locale``, from bot/i18n/commands.<locale>.json."""
    return json.loads((_HERE / f"commands.{locale}.json").read_text(encoding="utf-8"))


class HallTranslator(app_commands.Translator):
    """Chinese names and descriptions for Chinese clients (简体 zh-CN, 繁體 zh-TW); English is
    the source text."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        catalogue = DISCORD_LOCALES.get(locale)
        if catalogue is None:
            return None
        return command_texts(catalogue).get(string.message)
