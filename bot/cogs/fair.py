"""Your own settings: 要不起 auto-pass (pass for me when passing is my only move), and
pictures or text only (for screen readers and slow links)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.mod import moderator_only
from bot.hall import user_locale
from bot.i18n import t
from storage import guilds

if TYPE_CHECKING:
    from bot.client import GameHall


ON_OFF = [app_commands.Choice(name=_("on"), value="on"),
          app_commands.Choice(name=_("off"), value="off")]
"""The one choice every /settings command takes."""


class FairCog(commands.Cog):
    """Preferences that keep play moving without telling the table anything."""

    settings = app_commands.Group(name=_("settings"), description=_("Your own preferences"))

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot

    @settings.command(name=_("autopass"),
                      description=_("要不起 auto-pass: pass for me when passing is my only move"))
    @app_commands.describe(state=_("on or off"))
    @app_commands.choices(state=ON_OFF)
    async def autopass(self, interaction: discord.Interaction, state: str) -> None:
        on = state == "on"
        await self.bot.manager.referee.set_autopass(interaction.user.id, on)
        key = "settings.autopass_on" if on else "settings.autopass_off"
        await self.bot.hall.reply(interaction, t(key, user_locale(interaction),
                                                 seconds=f"{self.bot.manager.referee.delay:g}"))

    @settings.command(name=_("images"),
                      description=_("Pictures of cards and tables, or text only"))
    @app_commands.describe(state=_("on or off"))
    @app_commands.choices(state=ON_OFF)
    async def images(self, interaction: discord.Interaction, state: str) -> None:
        """Your hand and /table status with pictures (on, the default) or as text only."""
        on = state == "on"
        await self.bot.hall.set_images(interaction.user.id, on)
        key = "settings.images_on" if on else "settings.images_off"
        await self.bot.hall.reply(interaction, t(key, user_locale(interaction)))

    @settings.command(name=_("leaderboard"),
                      description=_("This server's leaderboard page in a browser (moderators)"))
    @app_commands.describe(state=_("on or off"))
    @app_commands.choices(state=ON_OFF)
    @app_commands.guild_only()
    @moderator_only()
    async def leaderboard(self, interaction: discord.Interaction, state: str) -> None:
        """网页排行榜: the server's leaderboard page (bot/web), off until a moderator turns it on."""
        assert interaction.guild_id is not None
        on = state == "on"
        await guilds.set_web_board(self.bot.db, interaction.guild_id, on)
        locale = user_locale(interaction)
        if not on:
            text = t("web.board_off", locale)
        elif self.bot.web is None:
            text = t("web.board_on_no_web", locale)
        else:
            text = t("web.board_on", locale, url=self.bot.web.board_url(interaction.guild_id))
        await self.bot.hall.reply(interaction, text)


async def setup(bot: GameHall) -> None:
    await bot.add_cog(FairCog(bot))
