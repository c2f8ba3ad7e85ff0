"""create_bot: the discord.py client of the hall, wired to storage and the table manager.

One process serves every server (``GameHall``), or, split into shards (分片), the servers of its
shard range (``ShardedGameHall``, discord.py's ``AutoShardedBot``): several processes then share
one database and one hall, each restoring and running only its own servers' tables.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

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
from bot.tournament.runner import TournamentRunner
from bot.views.components import dynamic_items
from engines.errors import GameError
from storage import guilds
from storage.db import Database, open_database
from storage.wallet import Wallet

log = logging.getLogger(__name__)


class NotOwner(app_commands.CheckFailure):
    """Only the bot's owners may change balances in the one global economy."""


class GameHall(commands.Bot):
    """The bot: one table manager, one database, three cogs (table, wallet, mod)."""

    def __init__(
        self, settings: Settings, *, seed_source: Callable[[], int] | None = None,
        member_events: bool = True, **options: Any
    ) -> None:
        intents = discord.Intents.default()
        # Server Members (privileged): the only way Discord tells a bot that someone left a
        # server (``on_raw_member_remove``); no member list is cached or downloaded. Without it
        # (``member_events=False``) a removal is found when the person next acts from elsewhere
        intents.members = member_events
        options.setdefault("member_cache_flags", discord.MemberCacheFlags.none())
        options.setdefault("chunk_guilds_at_startup", False)
        super().__init__(command_prefix=commands.when_mentioned, intents=intents, help_command=None,
                         **options)
        self.settings = settings
        self.seed_source = seed_source
        self.db: Database
        self.wallet: Wallet
        self.manager: TableManager
        self.tournaments: TournamentRunner
        self.hall = DiscordHall(self)
        self.web: Any = None  # the web table's server (bot.web.server.WebServer) when enabled
        self.tunes_collector = False
        """Whether start-up ends by freezing its heap for the collector (``tune_collector``):
        set by ``gamehall run``, whose process is the hall's alone."""
        # per-server language where the storage has no column for it (kept until a restart)

    async def setup_hook(self) -> None:
        self.db = await open_database(self.settings.database, synchronous=self.settings.synchronous)
        self.wallet = Wallet.from_settings(self.db, self.settings)
        self.manager = TableManager(
            self.settings, self.db, self.wallet, self.hall,
            clock=lambda: discord.utils.utcnow().timestamp(), seed_source=self.seed_source,
            owns=self.settings.owns,
        )
        self._start_metrics()
        if self.settings.web.enabled:  # 网页牌桌, on this event loop (bot/web)
            from bot.web.server import start_web

            self.web = await start_web(self.settings, self.manager)
            self.web.names = lambda uid: getattr(self.get_user(uid), "display_name", None)
        self.add_dynamic_items(*dynamic_items())
        from bot.cogs import fair, hall_extras, mod, table, tournament, wallet

        await table.setup(self)
        await wallet.setup(self)
        await mod.setup(self)
        await fair.setup(self)
        await hall_extras.setup(self)
        await tournament.setup(self)
        self.tree.on_error = self.on_app_command_error
        await self.tree.set_translator(HallTranslator())
        for restored, reason in await self.manager.restore():
            if reason is not None:
                await self.hall.table_closed(restored, reason)
        await self.tournaments.restore()
        await self.tree.sync()
        if self.tunes_collector:  # ``gamehall run``: the process is the hall's (docs/web.md)
            from bot.host.memory import tune_collector

            tune_collector()

    def _start_metrics(self) -> None:
        """The health line every ``metrics.health_seconds``; the Prometheus endpoint on
        ``metrics.port`` (none when 0)."""
        metrics = self.manager.metrics
        metrics.start_health(self.settings.health_seconds)
        if self.settings.metrics_port:
            port = metrics.serve(self.settings.metrics_port)
            log.info("metrics served at http://0.0.0.0:%s/metrics", port)

    async def on_app_command_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """Expected errors become one short ephemeral line; the rest are logged. Never raises:
        an answer Discord refuses is logged too."""
        locale = user_locale(interaction)
        original = getattr(error, "original", error)
        if isinstance(original, (HostError, GameError)):
            try:
                await self.hall.refusal(interaction, original)
                return
            except Exception:  # noqa: BLE001 - fall back to the plain line below
                log.exception("could not answer a refusal")
            text = error_text(original, locale)
        elif isinstance(error, app_commands.CheckFailure):
            key = "err.not_owner" if isinstance(error, NotOwner) else "err.not_moderator"
            text = "❌ " + t(key, locale)
        else:
            log.exception("command failed", exc_info=original)
            text = error_text(original, locale)
        await self.hall.safe_reply(interaction, text)

    async def on_raw_member_remove(self, payload: discord.RawMemberRemoveEvent) -> None:
        """Someone left a server or was removed from it: at that server's table where they
        sit, the trustee plays their seat to the end of the hand (``TableManager.member_left``)."""
        manager = getattr(self, "manager", None)
        if manager is not None and self.settings.owns(payload.guild_id):
            await manager.member_left(payload.guild_id, payload.user.id)

    async def is_member(self, guild_id: int, uid: int) -> bool:
        """Whether ``uid`` is a member of server ``guild_id`` now, asked of Discord (one
        request, no member list needed). False if the hall is no longer in that server; True
        when Discord cannot be asked (a refusal must be sure)."""
        guild = self.get_guild(guild_id)
        if guild is None:
            return False
        if guild.get_member(uid) is not None:
            return True
        try:
            await guild.fetch_member(uid)
        except discord.NotFound:
            return False
        except discord.HTTPException:
            log.warning("could not check that %s is a member of server %s", uid, guild_id)
        return True

    def wallet_for(self, guild_id: int | None) -> Wallet:
        """The wallet of the economy a server's players use (``Settings.wallet_scope``): the
        server's own, or the one global economy."""
        return self.wallet.scoped(self.settings.economy(guild_id))

    def economy_kw(self, guild_id: int | None) -> dict[str, int]:
        """The ``economy=`` argument of ``storage.levels`` calls for a server (levels and
        leaderboards are kept per economy)."""
        return {"economy": self.settings.economy(guild_id)}

    async def guild_language(self, guild_id: int) -> str | None:
        """The language set for a server's public messages with /mod language, or None."""
        return (await guilds.get_guild(self.db, guild_id)).language

    async def set_guild_language(self, guild_id: int, language: str | None, public: str) -> None:
        """Set (None: clear) a server's language; its open tables are redrawn in ``public``,
        the language its public messages now follow."""
        await guilds.set_language(self.db, guild_id, language)
        for table in list(self.manager.tables.values()):
            if table.guild_id == guild_id:
                table.locale = public
                await self.hall.table_changed(table)

    async def can_claim_relief(self, uid: int, guild_id: int | None) -> bool:
        """Whether ``uid`` could claim 低保 with /daily right now (below the threshold, not
        frozen, the cooldown since the last claim passed)."""
        wallet = self.wallet_for(guild_id)
        relief = self.settings.relief
        account = await wallet.account(uid)
        if account.frozen or account.balance >= relief.threshold:
            return False
        now = discord.utils.utcnow().timestamp()
        for row in await wallet.ledger(uid, 100):
            if row.reason == "relief":
                return row.at + relief.cooldown_seconds <= now
        return True

    async def close(self) -> None:
        if getattr(self, "web", None) is not None:
            await self.web.stop()
        manager = getattr(self, "manager", None)
        if manager is not None:
            await manager.shutdown()
        db = getattr(self, "db", None)
        if db is not None:
            await db.close()
        await super().close()


class ShardedGameHall(GameHall, commands.AutoShardedBot):
    """The bot as one process of a sharded hall: it runs shards ``settings.shard_ids`` of
    ``settings.shard_count`` and owns the servers Discord routes to them
    (``Settings.owns``)."""


def create_bot(settings: Settings, *, seed_source: Callable[[], int] | None = None,
               member_events: bool = True) -> GameHall:
    """Build the hall's bot for these settings (call ``start``/``run`` with the token): sharded
    when ``settings.shard_count`` is set, else one unsharded process for every server.
    ``member_events=False`` asks Discord for no privileged intent."""
    if settings.shard_count is None:
        return GameHall(settings, seed_source=seed_source, member_events=member_events)
    return ShardedGameHall(
        settings, seed_source=seed_source, member_events=member_events,
        shard_count=settings.shard_count,
        shard_ids=list(settings.shard_ids or range(settings.shard_count)),
    )

