"""Tables: create, join, leave, start, add bots; see your hand, play, ask for a hint, 托管.

Slash commands are the stable interface; the buttons on the table message and on your
private hand mirror them, so a whole hand can be played without typing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.hall import PERMISSION_KEYS, missing_permissions, user_locale
from bot.host.model import WAITING, HostError
from bot.i18n import normalize, render, t
from bot.render.text import game_name, last_round_text, room_name
from bot.views.components import QuickButton
from engines.base import LEVELS

if TYPE_CHECKING:
    from bot.client import GameHall


DISCORD_DEFAULT_LOCALE = "en-US"
"""What Discord reports as the preferred locale of a server that never chose one."""


async def server_locale(bot: GameHall, interaction: discord.Interaction) -> str:
    """The language of a server's public messages: the one set with /mod language, else the
    server's preferred locale (which only Community servers choose; for the others Discord
    always says en-US), else the hall's ``locale_default``."""
    if interaction.guild_id is None:
        return bot.settings.locale_default
    chosen = await bot.guild_language(interaction.guild_id)
    return chosen if chosen is not None else default_locale(bot, interaction)


def default_locale(bot: GameHall, interaction: discord.Interaction) -> str:
    """A server's public language when none is set: its preferred locale where the server chose
    one (a Community server; other servers always report Discord's default, en-US), else the
    hall's ``locale_default``."""
    guild = interaction.guild
    if guild is not None and ("COMMUNITY" in guild.features
                              or str(guild.preferred_locale) != DISCORD_DEFAULT_LOCALE):
        return normalize(guild.preferred_locale)
    return bot.settings.locale_default


class TableCog(commands.Cog):
    """Play at a table in this channel."""

    table = app_commands.Group(name=_("table"), description=_("Game tables in this channel"),
                               guild_only=True)
    trustee = app_commands.Group(name=_("trustee"), description=_("托管: let the hall play your seat"),
                                 guild_only=True)

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot

    @property
    def manager(self):  # noqa: ANN201
        return self.bot.manager

    async def game_choices(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        locale = user_locale(interaction)
        return [
            app_commands.Choice(name=f"{game_name(self.manager, k, locale)} ({k})", value=k)
            for k in self.manager.specs if current.lower() in k
        ][:25]

    async def room_choices(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        locale = user_locale(interaction)
        return [
            app_commands.Choice(name=f"{room_name(self.manager, k, locale)} ({k})", value=k)
            for k in self.bot.settings.rooms if current.lower() in k
        ][:25]

    @table.command(name=_("create"), description=_("Open a table in this channel"))
    @app_commands.describe(game=_("The game to play"), room=_("The room: stakes and limits"))
    @app_commands.autocomplete(game=game_choices, room=room_choices)
    async def create(self, interaction: discord.Interaction, game: str, room: str) -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        locale = user_locale(interaction)
        missing = missing_permissions(interaction.app_permissions)
        if missing:
            names = ", ".join(t(PERMISSION_KEYS[name], locale) for name in missing)
            await self.bot.hall.reply(interaction, "❌ " + t("err.missing_permission", locale,
                                                            permissions=names))
            return
        existing = self.manager.tables.get(interaction.channel_id)
        if existing is not None:
            link = (f"https://discord.com/channels/{existing.guild_id}/{existing.id}/"
                    f"{existing.message_id}" if existing.message_id else f"<#{existing.id}>")
            await self.bot.hall.reply(interaction, "❌ " + t("err.table_exists_here", locale,
                                                            link=link))
            return
        await self.manager.create(
            interaction.guild_id, interaction.channel_id, game, room, interaction.user.id,
            interaction.user.display_name, locale=await server_locale(self.bot, interaction),
        )
        await self.bot.hall.reply(interaction, t("ok.create", locale))

    @table.command(name=_("join"), description=_("Sit down at this channel's table"))
    async def join(self, interaction: discord.Interaction) -> None:
        await self._verb(interaction, "join")

    @table.command(name=_("leave"), description=_("Stand up; during a hand this is an escape"))
    async def leave(self, interaction: discord.Interaction) -> None:
        await self._verb(interaction, "leave")

    @table.command(name=_("start"), description=_("Deal a hand"))
    @app_commands.describe(choice=_("A choice made before the deal, where the game offers one"))
    async def start(self, interaction: discord.Interaction, choice: str | None = None) -> None:
        """Deal; ``choice`` is one of the game's start offers (明牌开始 ×5), as on the button."""
        if choice is None:
            await self._verb(interaction, "start")
            return
        assert interaction.channel_id is not None
        started = self.manager.start(interaction.channel_id, interaction.user.id, start=choice)
        if await self.bot.hall.guarded(interaction, started) and not interaction.response.is_done():
            await self.bot.hall.reply(interaction, t("ok.start", user_locale(interaction)))

    @start.autocomplete("choice")
    async def start_choices(self, interaction: discord.Interaction, typed: str
                            ) -> list[app_commands.Choice[str]]:
        table = self.manager.tables.get(interaction.channel_id or 0)
        if table is None:
            return []
        locale = user_locale(interaction)
        named = [(render(c.label, locale), c.action) for c in self.manager.start_offers(table)]
        return [app_commands.Choice(name=name[:100], value=action) for name, action in named
                if typed.lower() in action.lower() or typed in name][:25]

    @table.command(name=_("addbot"), description=_("Fill a free seat with a bot"))
    @app_commands.describe(level=_("The bot's trustee level: easy, normal or hard"))
    @app_commands.choices(level=[app_commands.Choice(name=_(name), value=name)
                                 for name in LEVELS])
    async def addbot(self, interaction: discord.Interaction,
                     level: app_commands.Choice[str] | None = None) -> None:
        """A bot at ``level`` (default normal, as the table's Bot button adds)."""
        if level is None:
            await self._verb(interaction, "bot")
            return
        assert interaction.channel_id is not None
        added = self.manager.add_bot(interaction.channel_id, interaction.user.id,
                                     level=level.value)
        if await self.bot.hall.guarded(interaction, added) and not interaction.response.is_done():
            await self.bot.hall.reply(interaction, t("ok.bot", user_locale(interaction)))

    @table.command(name=_("settings"), description=_("Table settings (the creator, between hands)"))
    @app_commands.describe(timer=_("Every turn's time, in percent of the hall's"),
                           bots=_("Whether bots may be added"),
                           private=_("Only invited people may sit down"))
    async def settings(self, interaction: discord.Interaction, timer: int | None = None,
                       bots: bool | None = None, private: bool | None = None) -> None:
        """The creator's settings; with no option given, the table's current settings."""
        assert interaction.channel_id is not None
        locale = user_locale(interaction)
        table = self.manager.get(interaction.channel_id)
        if (timer, bots, private) != (None, None, None):
            table = await self.manager.configure(table.id, interaction.user.id,
                                                 timer_scale=timer, bots=bots, private=private)
        await self.bot.hall.reply(interaction, t(
            "ok.settings", locale, timer=table.timer_scale,
            bots=t("settings.bots_on" if table.bots else "settings.bots_off", locale),
            private=t("settings.private" if table.private else "settings.public", locale)))

    @table.command(name=_("invite"), description=_("Let someone sit at your private table"))
    @app_commands.describe(member=_("The person to invite"))
    async def invite(self, interaction: discord.Interaction, member: discord.Member) -> None:
        assert interaction.channel_id is not None
        await self.manager.invite(interaction.channel_id, interaction.user.id, member.id,
                                  member.display_name)
        await self.bot.hall.reply(interaction, t("ok.invite", user_locale(interaction),
                                                 name=member.mention))

    async def _verb(self, interaction: discord.Interaction, verb: str) -> None:
        assert interaction.channel_id is not None
        await self.bot.hall.table_verb(interaction, interaction.channel_id, verb)

    @table.command(name=_("status"), description=_("Show this channel's table"))
    async def status(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        table = self.manager.get(interaction.channel_id)
        embed, file = await self.bot.hall.embed_for(table, interaction.user.id)
        kwargs = {"file": file} if file is not None else {}
        await interaction.response.send_message(embed=embed, ephemeral=True, **kwargs)

    @table.command(name=_("last"), description=_("The previous trick or round (only you see it)"))
    async def last(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        table = self.manager.get(interaction.channel_id)
        await self.bot.hall.reply(interaction, last_round_text(table, user_locale(interaction)))

    @table.command(name=_("list"), description=_("Open tables in this server"))
    async def list_(self, interaction: discord.Interaction) -> None:
        locale = user_locale(interaction)
        rows = [
            t("list.row", locale, channel=f"<#{tb.id}>", game=game_name(self.manager, tb.game_key,
                                                                        locale),
              room=room_name(self.manager, tb.room, locale), n=len(tb.seats),
              most=self.manager.spec(tb).max_seats,
              status=t(f"status.{tb.status}", locale))
            for tb in self.manager.tables.values() if tb.guild_id == interaction.guild_id
        ]
        view = discord.ui.View(timeout=None)
        for game, room in self._quick_pairs(interaction):
            label = (f"{t('button.quick', locale)}: {game_name(self.manager, game, locale)}"
                     f" · {room_name(self.manager, room, locale)}")
            view.add_item(QuickButton(game, room, label))
        kwargs = {"view": view} if view.children else {}
        await self.bot.hall.reply(interaction, "\n".join(rows) or t("list.none", locale),
                                  **kwargs)

    def _quick_pairs(self, interaction: discord.Interaction) -> list[tuple[str, str]]:
        """快速加入: each game and room with a waiting table the caller could sit at (a
        private one only if invited), the fullest first, at most one button row's worth."""
        uid = interaction.user.id
        found = sorted(
            (tb for tb in self.manager.tables.values()
             if tb.guild_id == interaction.guild_id and tb.status == WAITING
             and len(tb.seats) < self.manager.spec(tb).max_seats and tb.seat_of(uid) is None
             and (not tb.private or uid == tb.owner or uid in tb.invited)),
            key=lambda tb: (-len(tb.seats), tb.id))
        pairs: list[tuple[str, str]] = []
        for tb in found:
            if (tb.game_key, tb.room) not in pairs:
                pairs.append((tb.game_key, tb.room))
        return pairs[:5]

    @app_commands.command(name=_("hand"), description=_("Your cards and your controls (only you see them)"))
    @app_commands.guild_only()
    async def hand(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await self.bot.hall.show_hand(interaction, await self._my_table(interaction))

    @app_commands.command(name=_("play"), description=_("Take an action: cards like 33344, pass, bid 3 ..."))
    @app_commands.describe(action=_("The action in the game's notation"))
    @app_commands.guild_only()
    async def play(self, interaction: discord.Interaction, action: str) -> None:
        await self.bot.hall.act(interaction, await self._my_table(interaction), action)

    @app_commands.command(name=_("hint"), description=_("提示: what the trustee would do"))
    @app_commands.guild_only()
    async def hint(self, interaction: discord.Interaction) -> None:
        await self.bot.hall.table_verb(interaction, await self._my_table(interaction), "hint")

    async def _my_table(self, interaction: discord.Interaction) -> int:
        """The table in this channel, or else the one where the caller sits — if they are
        still a member of its server. Someone who is not (the server removed them, or they
        left it while the hall did not hear of it) is refused, and their seat goes to the
        trustee as when Discord tells the hall (``TableManager.member_left``)."""
        assert interaction.channel_id is not None
        if interaction.channel_id in self.manager.tables:
            return interaction.channel_id
        uid = interaction.user.id
        mine = self.manager.table_of(uid)
        if mine is None:
            raise HostError("err.no_table")
        if mine.guild_id != interaction.guild_id and not await self.bot.is_member(
                mine.guild_id, uid):
            await self.manager.member_left(mine.guild_id, uid)
            raise HostError("err.not_member", channel=mine.id)
        return mine.id

    @trustee.command(name=_("on"), description=_("Hand your seat to the trustee"))
    async def trustee_on(self, interaction: discord.Interaction) -> None:
        await self._trustee(interaction, True)

    @trustee.command(name=_("off"), description=_("Take your seat back from the trustee"))
    async def trustee_off(self, interaction: discord.Interaction) -> None:
        await self._trustee(interaction, False)

    async def _trustee(self, interaction: discord.Interaction, on: bool) -> None:
        table_id = await self._my_table(interaction)
        await self.manager.set_trustee(table_id, interaction.user.id, on)
        await self.bot.hall.reply(interaction, t("ok.trustee_on" if on else "ok.trustee_off",
                                                 user_locale(interaction)))


async def setup(bot: GameHall) -> None:
    await bot.add_cog(TableCog(bot))
