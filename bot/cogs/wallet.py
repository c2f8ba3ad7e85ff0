"""Beans and levels: your balance, daily relief (低保), leaderboards, and hand replays."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.hall import user_locale
from bot.host.model import HostError
from bot.i18n import render, t
from bot.render.text import cards, game_name
from engines.base import ESCAPE, Game, Text
from storage import economy, history, levels
from storage.conduct import CLEAN_PER_STRIKE
from storage.wallet import ReliefError

if TYPE_CHECKING:
    from bot.client import GameHall


class WalletCog(commands.Cog):
    """Your beans, your titles, the leaderboards and the record of every hand."""

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot

    @app_commands.command(name=_("beans"), description=_("Balance, held beans and titles"))
    @app_commands.describe(member=_("Whose wallet (default: yours)"))
    async def beans(self, interaction: discord.Interaction,
                    member: discord.User | None = None) -> None:
        locale = user_locale(interaction)
        who = member or interaction.user
        wallet = self.bot.wallet_for(interaction.guild_id)
        await wallet.ensure_player(who.id)
        account = await wallet.account(who.id)
        lines = [t("beans.head", locale, name=who.display_name, balance=account.balance,
                   held=account.held, free=account.free)]
        if account.frozen:
            lines.append(t("beans.frozen", locale))
        record = await self.bot.manager.referee.conduct.record(
            who.id, economy=self.bot.settings.economy(interaction.guild_id))
        if record.incidents:
            lines.append(t("beans.record", locale, strikes=record.strikes,
                           escapes=record.escapes, absences=record.absences,
                           abandons=record.abandons, clean=record.clean, per=CLEAN_PER_STRIKE))
            left = record.seconds_left(discord.utils.utcnow().timestamp())
            if left > 0:
                lines.append(t("beans.cooldown", locale, minutes=max(1, int(-(-left // 60)))))
        scores = await levels.scores(self.bot.db, who.id, **self.bot.economy_kw(interaction.guild_id))
        for key, spec in self.bot.manager.specs.items():
            ladder = self.bot.settings.levels.get(spec.level_table, ())
            score = scores.get(key, 0)
            title = levels.title(ladder, score) if ladder else "—"
            lines.append(t("beans.level", locale, game=game_name(self.bot.manager, key, locale),
                           score=score, title=title))
        await self.bot.hall.reply(interaction, "\n".join(lines))

    @app_commands.command(name=_("daily"), description=_("低保: claim relief when you are low"))
    async def daily(self, interaction: discord.Interaction) -> None:
        locale = user_locale(interaction)
        wallet = self.bot.wallet_for(interaction.guild_id)
        await wallet.ensure_player(interaction.user.id)
        now = discord.utils.utcnow().timestamp()
        try:
            balance = await wallet.claim_relief(interaction.user.id, now)
        except ReliefError as exc:
            await self.bot.hall.reply(interaction, "❌ " + relief_refusal(exc, locale))
            return
        await self.bot.hall.reply(interaction, t("daily.ok", locale,
                                                 amount=self.bot.settings.relief.amount,
                                                 balance=balance))

    @app_commands.command(name=_("leaderboard"), description=_("Top level scores in a game"))
    @app_commands.describe(game=_("The game"), scope=_("This server or everyone"),
                           season=_("A past season's number (default: the current standings)"))
    @app_commands.choices(scope=[
        app_commands.Choice(name=_("server"), value="server"),
        app_commands.Choice(name=_("global"), value="global"),
    ])
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          scope: str = "server",
                          season: app_commands.Range[int, 1, 10**6] | None = None) -> None:
        locale = user_locale(interaction)
        spec = self.bot.manager.specs.get(game)
        if spec is None:
            raise HostError("err.unknown_game", game=game, games=", ".join(self.bot.manager.specs))
        uids = None
        if scope == "server" and interaction.guild_id is not None:
            uids = await history.players_in_guild(self.bot.db, interaction.guild_id)
        ladder = self.bot.settings.levels.get(spec.level_table, ())
        name = game_name(self.bot.manager, game, locale)
        if season is not None:  # the snapshot kept when that season ended
            kept = await economy.season_board(self.bot.db, season, game,
                                              **self.bot.economy_kw(interaction.guild_id))
            if kept is None:
                raise HostError("board.no_season", season=season)
            rows = [(u, s) for u, s in kept if uids is None or u in uids]
            lines = [t("board.season_head", locale, game=name, season=season)]
        else:
            rows = await levels.leaderboard(self.bot.db, game, uids, 10,
                                            **self.bot.economy_kw(interaction.guild_id))
            lines = [t("board.head", locale, game=name)]
        for rank, (uid, score) in enumerate(rows, 1):
            title = levels.title(ladder, score) if ladder else ""
            lines.append(t("board.row", locale, rank=rank, user=f"<@{uid}>", score=score,
                           title=title))
        if not rows:
            lines.append(t("board.empty", locale))
        await self.bot.hall.reply(interaction, "\n".join(lines),
                                  allowed_mentions=discord.AllowedMentions.none())

    @leaderboard.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str
                     ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=k, value=k) for k in self.bot.manager.specs
                if current.lower() in k][:25]

    @app_commands.command(name=_("replay"), description=_("A finished hand, step by step"))
    @app_commands.describe(code=_("The hand's replay code, shown in its settlement"))
    async def replay(self, interaction: discord.Interaction, code: str) -> None:
        locale = user_locale(interaction)
        hand = await self.visible_hand(interaction, code)
        for part in chunks(replay_lines(self.bot, hand, locale)):
            await self.bot.hall.reply(interaction, part)  # the first answers, the rest follow up

    async def visible_hand(self, interaction: discord.Interaction, code: str):  # noqa: ANN201
        """The hand with this code if the caller may see it: in the server where it was played,
        or in DMs to its players. Anything else, an unknown code included, is "no such hand"
        (the same answer, so codes cannot be probed)."""
        code = code.strip()
        hand = await history.hand_by_code(self.bot.db, code) if 0 < len(code) <= 64 else None
        if hand is not None:
            if interaction.guild_id is not None:
                visible = hand.guild_id == interaction.guild_id
            else:
                visible = interaction.user.id in hand.seats
            if visible:
                return hand
        raise HostError("err.no_such_hand")


def chunks(lines: list[str], limit: int = 2000) -> list[str]:
    """Join lines into messages of at most ``limit`` characters, never splitting a line."""
    parts: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            parts.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current:
        parts.append(current)
    return parts


def relief_refusal(exc: ReliefError, locale: str) -> str:
    """Why /daily paid nothing: a frozen account, the cool-down, or a balance too high."""
    if exc.reason == "frozen":
        return t("daily.frozen", locale)
    if exc.seconds_left:
        return t("daily.wait", locale, hours=max(1, round(exc.seconds_left / 3600)))
    return t("daily.rich", locale)


def replay_lines(bot: GameHall, hand, locale: str) -> list[str]:  # noqa: ANN001
    """Every action of a settled hand, with the hands as dealt revealed (only after the end)."""
    code = hand.code
    if hand.status != "settled" or not hand.record:
        raise HostError("err.hand_not_finished", hand=code)
    spec = bot.manager.specs[hand.game]
    record = json.loads(hand.record)
    bots = iter(range(1, len(hand.seats) + 1))  # bots are numbered in seat order, as at the table
    names = [f"<@{uid}>" if uid else f"Bot {next(bots)}" for uid in hand.seats]
    lines = [t("replay.head_code", locale, code=code,
               game=game_name(bot.manager, hand.game, locale))]
    for name, dealt in zip(names, first_hands(spec.game, record), strict=True):
        if dealt:  # board games deal nothing
            lines.append(t("replay.dealt", locale, name=name, cards=cards(dealt)))
    for step, (seat, action) in enumerate(record["log"], 1):
        shown = t("replay.escape", locale) if action == ESCAPE else f"`{action}`"
        lines.append(t("replay.step", locale, n=step, name=names[seat], action=shown))
    if hand.outcome:
        outcome = json.loads(hand.outcome)
        for line in outcome.get("lines", []):
            lines.append(render(Text.from_json(line), locale))
        lines.append(t("replay.points", locale, points=", ".join(
            f"{n} {p:+d}" for n, p in zip(names, outcome["points"], strict=False))))
    return lines


def first_hands(game_type: type[Game], record: dict) -> list[str | None]:
    """Each seat's cards as first dealt to it: replays the log and keeps the first private hand
    each seat could see (some games deal or reveal a seat's cards only after a phase)."""
    game = game_type.from_record({"setup": record["setup"], "log": []})
    seats = game.setup.seats
    dealt: list[str | None] = [None] * seats
    for seat_action in [*record["log"], None]:
        for seat in range(seats):
            if dealt[seat] is None:
                dealt[seat] = game.view(seat).hand or None
        if seat_action is None:
            break
        seat, action = seat_action
        if action == ESCAPE:
            game.escape(seat)
        else:
            game.apply(seat, action)
    return dealt


async def setup(bot: GameHall) -> None:
    await bot.add_cog(WalletCog(bot))
