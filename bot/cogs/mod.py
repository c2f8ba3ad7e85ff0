"""Moderators: close tables, kick seats, grant and revoke beans, freeze players, clear leaver
records, end seasons — all audited — and the fair-play views: one-way pairs of players, a
player's partners, the money supply.

A moderator has the Manage Server permission or the role set with /mod role. Everyone else
gets a clear refusal and nothing changes.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.client import NotOwner
from bot.hall import user_locale
from bot.host.model import HostError
from bot.i18n import t
from bot.render.economy_chart import supply_chart
from bot.render.limits import clip
from engines.base import T
from storage import economy, guilds
from storage.conduct import Conduct
from storage.economy import SeasonError
from storage.wallet import BalanceLimit, InsufficientBeans

if TYPE_CHECKING:
    from bot.client import GameHall

LANGUAGES = ("zh-CN", "en-US", "zh-TW")
MAX_MOD_AMOUNT = 10**12
"""The most beans one /mod grant or /mod revoke moves (the commands' option range)."""


async def is_moderator(interaction: discord.Interaction) -> bool:
    """Manage Server, or the server's moderator role."""
    member = interaction.user
    if not isinstance(member, discord.Member) or interaction.guild_id is None:
        return False
    if member.guild_permissions.manage_guild:
        return True
    bot: GameHall = interaction.client  # type: ignore[assignment]
    role_id = await guilds.get_mod_role(bot.db, interaction.guild_id)
    return role_id is not None and any(r.id == role_id for r in member.roles)


def check_amount(amount: int) -> None:
    """A /mod grant or revoke amount: Discord keeps it within the option's range only as the
    command was last registered there, so the range is checked here too (HostError naming
    it, before anything is written)."""
    if not 1 <= amount <= MAX_MOD_AMOUNT:
        raise HostError("mod.bad_amount", amount=amount, low=1, high=MAX_MOD_AMOUNT)


def moderator_only():  # noqa: ANN201
    return app_commands.check(is_moderator)


async def may_change_balances(interaction: discord.Interaction) -> bool:
    """Grant, revoke, freeze: a moderator of this server for its own economy; in the one global
    economy (``wallet_scope = "global"``) only the bot's owners (application owner or team)."""
    bot: GameHall = interaction.client  # type: ignore[assignment]
    if bot.settings.wallet_scope == "global":
        if not await bot.is_owner(interaction.user):
            raise NotOwner()
        return True
    return await is_moderator(interaction)


def economy_keeper():  # noqa: ANN201
    return app_commands.check(may_change_balances)


class ModCog(commands.Cog):
    """Table and wallet moderation for a server."""

    mod = app_commands.Group(name=_("mod"), description=_("Moderator tools"), guild_only=True)

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot

    async def audit(self, interaction: discord.Interaction, action: str, target: int | None,
                    note: str) -> None:
        """Ledger a moderator's action in the audit of the server's economy."""
        await self.bot.wallet_for(interaction.guild_id).log_moderation(
            interaction.user.id, action, target, note)

    @mod.command(name=_("role"), description=_("Set the moderator role (Manage Server only)"))
    @app_commands.checks.has_permissions(manage_guild=True)
    async def role(self, interaction: discord.Interaction, role: discord.Role) -> None:
        assert interaction.guild_id is not None
        await guilds.set_mod_role(self.bot.db, interaction.guild_id, role.id)
        await self.audit(interaction, "mod_role", None,
                         f"guild {interaction.guild_id} role {role.id}")
        await self.bot.hall.reply(interaction, t("mod.role_set", user_locale(interaction),
                                                 role=role.name))

    @mod.command(name=_("close"), description=_("Abort this channel's table; escrow is released"))
    @moderator_only()
    async def close(self, interaction: discord.Interaction) -> None:
        assert interaction.channel_id is not None
        await self.bot.manager.close(interaction.channel_id,
                                     T("note.closed_by", moderator=interaction.user.display_name))
        await self.audit(interaction, "close_table", None, f"channel {interaction.channel_id}")
        await self.bot.hall.reply(interaction, t("mod.closed", user_locale(interaction)))

    @mod.command(name=_("kick"), description=_("Hand a member's seat to the trustee, no penalty"))
    @moderator_only()
    async def kick(self, interaction: discord.Interaction, member: discord.Member) -> None:
        table = self.bot.manager.table_of(member.id)
        if table is None or table.guild_id != interaction.guild_id:
            raise HostError("err.target_not_seated")
        await self.bot.manager.kick(table.id, member.id)
        await self.audit(interaction, "kick", member.id, f"channel {table.id}")
        await self.bot.hall.reply(interaction, t("mod.kicked", user_locale(interaction),
                                                 name=member.display_name))

    @mod.command(name=_("grant"), description=_("Give beans to a member"))
    @economy_keeper()
    async def grant(self, interaction: discord.Interaction, member: discord.Member,
                    amount: app_commands.Range[int, 1, MAX_MOD_AMOUNT], reason: str) -> None:
        check_amount(amount)
        wallet = self.bot.wallet_for(interaction.guild_id)
        await wallet.ensure_player(member.id)
        try:
            await wallet.grant(member.id, amount, clip(reason, 200), interaction.user.id)
        except BalanceLimit as exc:
            raise HostError("mod.grant_past_limit", name=member.display_name,
                            balance=exc.balance, limit=exc.limit) from None
        account = await wallet.account(member.id)
        await self.bot.hall.reply(interaction, t("mod.granted", user_locale(interaction),
                                                 name=member.display_name, amount=amount,
                                                 balance=account.balance))

    @mod.command(name=_("revoke"), description=_("Take beans from a member (free beans only)"))
    @economy_keeper()
    async def revoke(self, interaction: discord.Interaction, member: discord.Member,
                     amount: app_commands.Range[int, 1, MAX_MOD_AMOUNT], reason: str) -> None:
        check_amount(amount)
        wallet = self.bot.wallet_for(interaction.guild_id)
        await wallet.ensure_player(member.id)
        locale = user_locale(interaction)
        try:
            await wallet.revoke(member.id, amount, clip(reason, 200), interaction.user.id)
        except InsufficientBeans:
            account = await wallet.account(member.id)
            await self.bot.hall.reply(interaction, "❌ " + t("mod.revoke_too_much", locale,
                                                            free=account.free))
            return
        account = await wallet.account(member.id)
        await self.bot.hall.reply(interaction, t("mod.revoked", locale, name=member.display_name,
                                                 amount=amount, balance=account.balance))

    @mod.command(name=_("freeze"), description=_("Stop a member from joining tables"))
    @economy_keeper()
    async def freeze(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await self._freeze(interaction, member, True)

    @mod.command(name=_("unfreeze"), description=_("Let a frozen member join tables again"))
    @economy_keeper()
    async def unfreeze(self, interaction: discord.Interaction, member: discord.Member) -> None:
        await self._freeze(interaction, member, False)

    async def _freeze(self, interaction: discord.Interaction, member: discord.Member,
                      frozen: bool) -> None:
        wallet = self.bot.wallet_for(interaction.guild_id)
        await wallet.ensure_player(member.id)
        await wallet.set_frozen(member.id, frozen, interaction.user.id)
        await self.bot.hall.reply(interaction, t("mod.frozen" if frozen else "mod.unfrozen",
                                                 user_locale(interaction),
                                                 name=member.display_name))

    @mod.command(name=_("language"),
                 description=_("The language of this server's public table messages"))
    @app_commands.describe(
        language=_("zh-CN, zh-TW or en-US; leave empty to follow the server's locale"))
    @app_commands.choices(language=[app_commands.Choice(name=name, value=name)
                                    for name in LANGUAGES])
    @moderator_only()
    async def language(self, interaction: discord.Interaction, language: str | None = None
                       ) -> None:
        from bot.cogs.table import default_locale

        assert interaction.guild_id is not None
        locale = user_locale(interaction)
        public = language or default_locale(self.bot, interaction)
        await self.bot.set_guild_language(interaction.guild_id, language, public)
        await self.audit(interaction, "language", None,
                         f"guild {interaction.guild_id} {language or '-'}")
        key = "mod.language" if language else "mod.language_reset"
        await self.bot.hall.reply(interaction, t(key, locale,
                                                 language=t(f"language.{public}", locale)))

    # --- fair play ------------------------------------------------------------------------
    def _conduct(self) -> Conduct:
        return self.bot.manager.referee.conduct

    @mod.command(name=_("pairs"),
                 description=_("The most one-way pairs of players in this server"))
    @moderator_only()
    async def pairs(self, interaction: discord.Interaction) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        locale = user_locale(interaction)
        found = await self._conduct().pairs(economy=self.bot.settings.economy(guild_id),
                                            guild_id=guild_id, limit=15)
        lines = [t("mod.pairs_head" if found else "mod.pairs_empty", locale)]
        for pair in found:
            a, b = f"<@{pair.a}>", f"<@{pair.b}>"
            lines.append(t("mod.pairs_row", locale, a=a, b=b, hands=pair.hands,
                           net=abs(pair.net), winner=a if pair.net >= 0 else b,
                           a_into_b=pair.a_into_b, b_into_a=pair.b_into_a))
        await self.bot.hall.reply(interaction, "\n".join(lines),
                                  allowed_mentions=discord.AllowedMentions.none())

    @mod.command(name=_("player"),
                 description=_("One player's partners: hands together, beans, escapes"))
    @moderator_only()
    async def player(self, interaction: discord.Interaction, member: discord.Member) -> None:
        guild_id = interaction.guild_id
        assert guild_id is not None
        locale = user_locale(interaction)
        name = member.display_name
        found = await self._conduct().partners(
            member.id, economy=self.bot.settings.economy(guild_id), guild_id=guild_id, limit=15)
        lines = [t("mod.player_head" if found else "mod.player_empty", locale, name=name)]
        lines += [t("mod.player_row", locale, user=f"<@{p.uid}>", name=name, hands=p.hands,
                    gained=p.gained, theirs=p.their_escapes, mine=p.my_escapes) for p in found]
        await self.bot.hall.reply(interaction, "\n".join(lines),
                                  allowed_mentions=discord.AllowedMentions.none())

    @mod.command(name=_("economy"),
                 description=_("Money supply: over time, top 1%, Gini, this week by source"))
    @moderator_only()
    async def economy(self, interaction: discord.Interaction) -> None:
        locale = user_locale(interaction)
        now = self.bot.wallet.clock()  # the ledger's own clock
        report = await economy.supply(self.bot.db, now,
                                      economy=self.bot.settings.economy(interaction.guild_id))

        def listed(amounts: dict[str, int]) -> str:
            shown = [f"{t('source.' + k, locale) if k in SOURCES else k} {v}"
                     for k, v in sorted(amounts.items(), key=lambda kv: -kv[1])]
            return ", ".join(shown) or t("mod.economy_none", locale)

        lines = [
            t("mod.economy_head", locale, supply=report.supply, players=report.players,
              top1=f"{report.top1_share:.1%}", gini=f"{report.gini:.3f}"),
            t("mod.economy_week", locale, before=report.supply_since, supply=report.supply,
              entered=listed(report.entered), left=listed(report.left)),
        ]
        chart = discord.File(io.BytesIO(supply_chart(report.series)), filename="supply.png")
        await self.bot.hall.reply(interaction, "\n".join(lines), file=chart)

    @mod.command(name=_("season"),
                 description=_("End the season: snapshot the leaderboards, reset balances"))
    @app_commands.describe(levels=_("Keep or reset level scores"))
    @app_commands.choices(levels=[app_commands.Choice(name=_("keep"), value="keep"),
                                  app_commands.Choice(name=_("reset"), value="reset")])
    @economy_keeper()
    async def season(self, interaction: discord.Interaction, levels: str = "keep") -> None:
        locale = user_locale(interaction)
        settings = self.bot.settings
        try:
            ended = await economy.end_season(
                self.bot.db, interaction.user.id, self.bot.wallet.clock(),
                economy=settings.economy(interaction.guild_id),
                starting_grant=settings.starting_grant, reset_levels=levels == "reset",
                reason=f"guild {interaction.guild_id} levels {levels}")
        except SeasonError as exc:
            await self.bot.hall.reply(interaction, "❌ " + t("mod.season_running", locale,
                                                            running=exc.running))
            return
        await self.bot.hall.reply(interaction, t(
            "mod.season_ended", locale, number=ended.number, supply=ended.supply,
            grant=settings.starting_grant,
            levels=t("mod.season_levels_reset" if ended.levels_reset else "mod.season_levels_kept",
                     locale)))

    @mod.command(name=_("clearrecord"), description=_("Clear a member's leaver record (audited)"))
    @economy_keeper()
    async def clearrecord(self, interaction: discord.Interaction, member: discord.Member,
                          reason: str) -> None:
        before = await self._conduct().clear(
            member.id, interaction.user.id, clip(reason, 200),
            discord.utils.utcnow().timestamp(),
            economy=self.bot.settings.economy(interaction.guild_id))
        await self.bot.hall.reply(interaction, t("mod.record_cleared", user_locale(interaction),
                                                 name=member.display_name,
                                                 strikes=before.strikes))


SOURCES = ("start", "relief", "grant", "revoke", "rake", "season")
"""Ledger sources with a name of their own (``storage.economy``)."""


async def setup(bot: GameHall) -> None:
    await bot.add_cog(ModCog(bot))
