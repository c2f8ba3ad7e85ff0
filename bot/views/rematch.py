"""再来一局 (rematch): the "Again" button under a settled table; its custom id carries the table,
so it keeps working after a restart (discord.py DynamicItem)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.host.model import Table
from bot.i18n import render, t

if TYPE_CHECKING:
    from bot.client import GameHall


class AgainButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"gh:r:(?P<table>\d+)(?::(?P<start>.+))?"):
    """Again: each person at the table confirms; the last confirmation deals the next hand.
    With a start choice (``Game.start_offers``: 明牌开始 ×5) the person confirms having chosen
    it, blind, for the next hand; the plain button confirms without one (dropping one made
    before)."""

    def __init__(self, table: int, label: str = "Again", start: str | None = None) -> None:
        custom_id = f"gh:r:{table}" if start is None else f"gh:r:{table}:{start}"[:100]
        super().__init__(discord.ui.Button(
            label=label[:80], style=discord.ButtonStyle.success, custom_id=custom_id))
        self.table, self.start = table, start

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> AgainButton:
        return cls(int(match["table"]), start=match["start"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameHall = interaction.client  # type: ignore[assignment]
        await bot.hall.guarded(interaction, self._confirm(bot, interaction))

    async def _confirm(self, bot: GameHall, interaction: discord.Interaction) -> None:
        extras: Any = bot.get_cog("HallExtrasCog")
        # the choice is kept on the seat first: the last confirmation deals at once
        await bot.manager.choose_start(self.table, interaction.user.id, self.start)
        await extras.again(interaction, self.table)


def again_item(table: Table, locale: str) -> AgainButton | None:
    """The Again button while a settled table waits with its seats (None before any hand)."""
    if table.last_result is None:
        return None
    return AgainButton(table.id, t("btn.again", locale))


def again_with_items(table: Table, locale: str) -> list[AgainButton]:
    """Again with each start choice the game offers here (明牌开始 ×5), beside Again."""
    if table.last_result is None:
        return []
    return [
        AgainButton(table.id, t("btn.again_with", locale, choice=render(c.label, locale)),
                    c.action)
        for c in table.start_offers
    ]
