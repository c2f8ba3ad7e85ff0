"""Localized command names and descriptions (zh-CN) through discord.py's translator."""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import discord
from discord import app_commands

_HERE = Path(__file__).resolve().parent


@lru_cache(maxsize=1)
def command_texts() -> dict[str, str]:
    """English command string → Chinese, from bot/i18n/commands.zh-CN.json."""
    return json.loads((_HERE / "commands.zh-CN.json").read_text(encoding="utf-8"))


class HallTranslator(app_commands.Translator):
    """Chinese names and descriptions for Chinese clients; English is the source text."""

    async def translate(
        self, string: app_commands.locale_str, locale: discord.Locale,
        context: app_commands.TranslationContext,
    ) -> str | None:
        if locale is not discord.Locale.chinese:
            return None
        return command_texts().get(string.message)
