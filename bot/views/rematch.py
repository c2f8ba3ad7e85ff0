"""再来一局 (rematch): the "Again" button under a settled table; its custom id carries the table,
so it keeps working after a restart (discord.py DynamicItem)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.host.model import Table
from bot.i18n import t

if TYPE_CHECKING:
    from bot.client import GameHall


class AgainButton(discord.ui.DynamicItem[discord.ui.Button], template=r"gh:r:(?P<table>\d+)"):
    """Again: each person at the table confirms; the last confirmation deals the next hand."""

    def __init__(self, table: int, label: str = "Again") -> None:
        super().__init__(discord.ui.Button(
            label=label, style=discord.ButtonStyle.success, custom_id=f"gh:r:{table}"))
        self.table = table

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> AgainButton:
        return cls(int(match["table"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameHall = interaction.client  # type: ignore[assignment]
        extras: Any = bot.get_cog("HallExtrasCog")
        await bot.hall.guarded(interaction, extras.again(interaction, self.table))


def again_item(table: Table, locale: str) -> AgainButton | None:
    """The Again button while a settled table waits with its seats (None before any hand)."""
    if table.last_result is None:
        return None
    return AgainButton(table.id, t("btn.again", locale))
