"""create_bot: the discord.py client of the hall, wired to storage and the table manager."""

from __future__ import annotations

import logging
from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

from bot.hall import DiscordHall, user_locale
from bot.host.model import HostError
from bot.host.tables import TableManager
from bot.i18n import t
from bot.i18n.translator import HallTranslator
from bot.render.text import error_text
from bot.settings import Settings
from bot.views.components import dynamic_items
from engines.errors import GameError
from storage.db import Database
from storage.wallet import Wallet

log = logging.getLogger(__name__)


class GameHall(commands.Bot):
    """The bot: one table manager, one database, three cogs (table, wallet, mod)."""

    def __init__(self, settings: Settings, *, seed_source: Callable[[], int] | None = None) -> None:
        intents = discord.Intents.default()
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None)
        self.settings = settings
        self.seed_source = seed_source
        self.db: Database
        self.wallet: Wallet
        self.manager: TableManager
        self.hall = DiscordHall(self)

    async def setup_hook(self) -> None:
        self.db = await Database.open(self.settings.database, synchronous=self.settings.synchronous)
        self.wallet = Wallet.from_settings(self.db, self.settings)
        self.manager = TableManager(
            self.settings, self.db, self.wallet, self.hall,
            clock=lambda: discord.utils.utcnow().timestamp(), seed_source=self.seed_source,
        )
        self.add_dynamic_items(*dynamic_items())
        from bot.cogs import mod, table, wallet

        await table.setup(self)
        await wallet.setup(self)
        await mod.setup(self)
        self.tree.on_error = self.on_app_command_error
        await self.tree.set_translator(HallTranslator())
        for restored, reason in await self.manager.restore():
            if reason is not None:
                await self.hall.table_closed(restored, reason)
        await self.tree.sync()

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Expected errors become one short ephemeral line; the rest are logged."""
        locale = user_locale(interaction)
        original = getattr(error, "original", error)
        if isinstance(original, (HostError, GameError)):
            text = error_text(original, locale)
        elif isinstance(error, app_commands.CheckFailure):
            text = "❌ " + t("err.not_moderator", locale)
        else:
            log.exception("command failed", exc_info=original)
            text = error_text(original, locale)
        await self.hall.reply(interaction, text)

    async def close(self) -> None:
        manager = getattr(self, "manager", None)
        if manager is not None:
            await manager.shutdown()
        db = getattr(self, "db", None)
        if db is not None:
            await db.close()
        await super().close()


def create_bot(settings: Settings, *, seed_source: Callable[[], int] | None = None) -> GameHall:
    """Build the hall's bot for these settings (call ``start``/``run`` with the token)."""
    return GameHall(settings, seed_source=seed_source)

