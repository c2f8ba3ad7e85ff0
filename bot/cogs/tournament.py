"""比赛: tournaments in this server — /tournament create, join, leave, list, standings, info,
cancel (moderators). Each event table is a thread of the event's channel; each player is told
their table and seat by DM when a round starts, in their own language (the one Discord reported
when they registered); the standings are one message in the event's channel, in the server's
language, with a picture, kept up to date after every hand; /tournament info lists the replay
codes of a round's hands."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.mod import moderator_only
from bot.hall import user_locale
from bot.i18n import t
from bot.render.standings import render_standings, standings_picture
from bot.tournament import formats
from bot.tournament import runner as run
from bot.tournament.runner import TournamentRunner
from storage.errors import InsufficientBeans, PlayerFrozen
from storage.tournaments import Event, EventSpec, Format, Payout
from storage.tournaments import TournamentError as StoreError

if TYPE_CHECKING:
    from bot.client import GameHall

log = logging.getLogger(__name__)

TICK_SECONDS = 30.0
IDLE_SECONDS = 600.0
"""How long a ticker with nothing to watch waits before looking again (an event created in
this process wakes it at once; one that another process starts is adopted, should that
process die, once its lease lapses and this ticker next looks)."""
"""How often scheduled events are checked for their start time."""

FORMATS = [app_commands.Choice(name=_(f.value), value=f.value) for f in Format]


class DiscordVenue:
    """The runner's venue on Discord: a thread per table, DMs, one standings message."""

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot
        self.messages: dict[int, int] = {}  # event → its standings message

    async def locale(self, event: Event) -> str:
        """The language of the event's public messages: the server's (/mod language), else
        the hall's default."""
        return await self.bot.guild_language(event.guild_id) or self.bot.settings.locale_default

    async def open_table(self, event: Event, round_no: int, index: int) -> int:
        channel = self.bot.get_channel(event.channel_id)
        if isinstance(channel, discord.TextChannel):
            thread = await channel.create_thread(
                name=f"#{event.id} R{round_no} T{index + 1}",
                type=discord.ChannelType.public_thread)
            return thread.id
        return run.TABLE_BASE + event.id * 10**6 + round_no * 10**4 + index

    async def round_started(self, event: Event, state: dict[str, Any],
                            seating: dict[int, tuple[int, int]]) -> None:
        public = await self.locale(event)
        locales = state.get("locales", {})
        for uid, (table, seat) in seating.items():
            locale = locales.get(str(uid), public)  # the player's language where known
            with contextlib.suppress(discord.HTTPException):
                user = self.bot.get_user(uid) or await self.bot.fetch_user(uid)
                await user.send(t("tourney.seat_dm", locale, event=event.id,
                                  round=state["round"], table=table, seat=seat + 1))

    async def standings_changed(self, event: Event, state: dict[str, Any]) -> None:
        locale = await self.locale(event)
        text = standings_text(self.bot.tournaments, event, state, locale)
        rows = standing_rows(state)
        described = standings_picture(
            t("tourney.standings", locale, event=event.id, round=state.get("round", 0)), rows,
            t("tourney.picture_more", locale, count=len(rows) - 24))
        png = await render_standings(described)
        picture = discord.File(io.BytesIO(png), filename=described.filename)
        channel = self.bot.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        try:
            message_id = self.messages.get(event.id) or state.get("message")
            if message_id:
                await channel.get_partial_message(message_id).edit(content=text,
                                                                   attachments=[picture])
            else:
                sent = await channel.send(text, file=picture)
                self.messages[event.id] = state["message"] = sent.id
                await self.bot.tournaments.keep(event.id)  # one message, restarts included
        except discord.HTTPException as exc:
            log.warning("event %s: standings not shown (%s)", event.id, exc)

    async def finished(self, event: Event, state: dict[str, Any], payout: Payout | None) -> None:
        if payout is None:
            return
        names = state.get("names", {})
        prizes = ", ".join(f"{names.get(str(u), u)} {b}" for u, b in payout.prizes.items() if b)
        channel = self.bot.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        with contextlib.suppress(discord.HTTPException):
            await channel.send(t("tourney.finished", await self.locale(event), event=event.id,
                                 prizes=prizes or "—"))


def standing_rows(state: dict[str, Any]) -> list[tuple[int, str, int]]:
    """(place, name, chips) per player, best first; tied players share a place."""
    chips = {int(u): c for u, c in state.get("chips", {}).items()}
    groups = state.get("final_standings") or formats.standings(
        state.get("field", []), chips, state.get("out", []))
    names = state.get("names", {})
    rows, place = [], 1
    for group in groups:
        for uid in group:
            rows.append((place, names.get(str(uid), str(uid)), chips.get(uid, 0)))
        place += len(group)
    return rows


def standings_text(runner: TournamentRunner, event: Event, state: dict[str, Any],
                   locale: str) -> str:
    """The standings message: one line per player, tied players sharing a place."""
    lines = [t("tourney.standings", locale, event=event.id, round=state.get("round", 0))]
    lines += [t("tourney.standing", locale, place=place, name=name, chips=chips)
              for place, name, chips in standing_rows(state)]
    return "\n".join(lines)[:2000]


def hands_text(state: dict[str, Any], round_no: int | None, locale: str) -> str:
    """The replay codes of a round's hands (the latest round with a hand by default)."""
    hands = run.hand_codes(state)
    if not hands:
        return t("tourney.hands_none", locale)
    wanted = round_no if round_no is not None else hands[-1]["round"]
    lines = [t("tourney.hand", locale, round=h["round"], table=h["table"], hand=h["hand"],
               code=h["code"] or "—") for h in run.hand_codes(state, wanted)]
    return "\n".join(lines) or t("tourney.hands_none_round", locale, round=wanted)


class TournamentCog(commands.Cog):
    """比赛: sit-and-go, scheduled, 打立出局 and Swiss events with entry fees and prizes."""

    tournament = app_commands.Group(name=_("tournament"), description=_("Tournaments"),
                                    guild_only=True)

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot
        self.runner = bot.tournaments
        self._ticker: asyncio.Task[None] | None = None

    async def cog_load(self) -> None:
        self._ticker = asyncio.get_running_loop().create_task(self._tick())

    async def cog_unload(self) -> None:
        if self._ticker is not None:
            self._ticker.cancel()

    async def _tick(self) -> None:
        idle = 0.0
        while True:
            await asyncio.sleep(TICK_SECONDS)
            # with nothing to watch, a look every 30 s would only cost queries (and, in
            # simulated time, a long advance thousands of them)
            idle += TICK_SECONDS
            if self.runner.quiet and not self.runner.woken and idle < IDLE_SECONDS:
                continue
            idle, self.runner.woken = 0.0, False
            try:
                await self.runner.tick()
            except Exception:
                log.exception("scheduled events could not be started")

    async def _answer(self, interaction: discord.Interaction, key: str, **args: Any) -> None:
        await self.bot.hall.reply(interaction, t(key, user_locale(interaction), **args))

    async def _refuse(self, interaction: discord.Interaction, exc: Exception, event: int) -> None:
        locale = user_locale(interaction)
        if isinstance(exc, run.TournamentError):
            text = t(exc.key, locale, **exc.fields)
        elif isinstance(exc, StoreError):
            text = t(f"tourney.err.{exc.reason}", locale, event=event)
        elif isinstance(exc, InsufficientBeans):
            text = t("tourney.err.poor", locale, need=exc.needed, free=exc.free)
        elif isinstance(exc, PlayerFrozen):
            text = t("tourney.err.frozen", locale)
        else:
            raise exc
        await self.bot.hall.reply(interaction, "❌ " + text)

    @tournament.command(name=_("create"), description=_("Open an event (moderators)"))
    @app_commands.describe(game=_("The game to play"), format=_("The event's format"),
                           size=_("Players (the field)"), rounds=_("Rounds"),
                           fee=_("Entry fee in beans"), rake=_("House rake, per cent"),
                           start_in=_("Scheduled: minutes until the start"),
                           room=_("A score-only room"))
    @app_commands.choices(format=FORMATS)
    @moderator_only()
    async def create(self, interaction: discord.Interaction, game: str, format: str,
                     size: int, rounds: int, fee: int = 0, rake: int = 0,
                     start_in: int | None = None, room: str = "free") -> None:
        assert interaction.guild_id is not None and interaction.channel_id is not None
        start_at = None if start_in is None else self.bot.manager.clock() + 60 * start_in
        spec = EventSpec(game, room, Format(format), size, rounds, fee, rake, start_at=start_at)
        try:
            eid = await self.runner.create(interaction.guild_id, interaction.channel_id, spec,
                                           interaction.user.id)
        except (run.TournamentError, StoreError) as exc:
            await self._refuse(interaction, exc, 0)
            return
        await self._answer(interaction, "tourney.created", event=eid, game=game, format=format,
                           size=size, fee=fee)

    @tournament.command(name=_("join"), description=_("Register for an event"))
    @app_commands.describe(event=_("The event's number"))
    async def join(self, interaction: discord.Interaction, event: int) -> None:
        assert interaction.guild_id is not None
        try:
            found = await self.runner.join(interaction.guild_id, event, interaction.user.id,
                                           interaction.user.display_name,
                                           user_locale(interaction))
        except (run.TournamentError, StoreError, InsufficientBeans, PlayerFrozen) as exc:
            await self._refuse(interaction, exc, event)
            return
        await self._answer(interaction, "tourney.joined", event=event,
                           count=len(found.entrants), size=found.spec.size, fee=found.spec.fee)

    @tournament.command(name=_("leave"), description=_("Withdraw from an event"))
    @app_commands.describe(event=_("The event's number"))
    async def leave(self, interaction: discord.Interaction, event: int) -> None:
        assert interaction.guild_id is not None
        try:
            fee = await self.runner.leave(interaction.guild_id, event, interaction.user.id)
        except (run.TournamentError, StoreError) as exc:
            await self._refuse(interaction, exc, event)
            return
        if fee is None:
            await self._answer(interaction, "tourney.left", event=event)
        else:
            await self._answer(interaction, "tourney.withdrawn", event=event, fee=fee)

    @tournament.command(name=_("list"), description=_("Events in this server"))
    async def list_(self, interaction: discord.Interaction) -> None:
        assert interaction.guild_id is not None
        locale = user_locale(interaction)
        events = await self.runner.store(interaction.guild_id).events(
            guild_id=interaction.guild_id)
        lines = [t("tourney.line", locale, event=e.id, game=e.spec.game,
                   format=e.spec.format.value, count=len(e.entrants), size=e.spec.size,
                   status=e.status.value) for e in events]
        await self.bot.hall.reply(interaction, "\n".join(lines) or t("tourney.none", locale))

    @tournament.command(name=_("standings"), description=_("An event's standings"))
    @app_commands.describe(event=_("The event's number"))
    async def standings(self, interaction: discord.Interaction, event: int) -> None:
        assert interaction.guild_id is not None
        try:
            found = await self.runner.store(interaction.guild_id).get(event)
        except StoreError as exc:
            await self._refuse(interaction, exc, event)
            return
        state = self.runner.states.get(event, found.state)
        await self.bot.hall.reply(interaction, standings_text(
            self.runner, found, state, user_locale(interaction)))

    @tournament.command(name=_("info"),
                        description=_("An event's rules, prizes and the replay codes of its hands"))
    @app_commands.describe(event=_("The event's number"),
                           round=_("Whose hands' replay codes (default: the latest round)"))
    async def info(self, interaction: discord.Interaction, event: int,
                   round: int | None = None) -> None:
        assert interaction.guild_id is not None
        try:
            found = await self.runner.store(interaction.guild_id).get(event)
        except StoreError as exc:
            await self._refuse(interaction, exc, event)
            return
        spec, locale = found.spec, user_locale(interaction)
        state = self.runner.states.get(event, found.state)
        text = t("tourney.info", locale, event=event, game=spec.game, format=spec.format.value,
                 rounds=spec.rounds, fee=spec.fee, rake=spec.rake,
                 prizes="/".join(f"{p}%" for p in spec.prizes))
        if self.bot.web is not None:  # the event's page in the web table
            text += "\n" + t("tourney.page", locale,
                             url=self.bot.web.event_url(interaction.guild_id, event))
        await self.bot.hall.reply(interaction,
                                  (text + "\n" + hands_text(state, round, locale))[:2000])

    @tournament.command(name=_("cancel"), description=_("Cancel an event, refunding every fee"))
    @app_commands.describe(event=_("The event's number"), reason=_("Why"))
    @moderator_only()
    async def cancel(self, interaction: discord.Interaction, event: int,
                     reason: str = "") -> None:
        assert interaction.guild_id is not None
        try:
            refunds = await self.runner.cancel(interaction.guild_id, event,
                                               interaction.user.id, reason)
        except StoreError as exc:
            await self._refuse(interaction, exc, event)
            return
        await self._answer(interaction, "tourney.cancelled", event=event,
                           total=sum(refunds.values()))


async def setup(bot: GameHall) -> None:
    bot.tournaments = TournamentRunner(bot.manager, DiscordVenue(bot))
    if bot.web is not None:
        bot.web.events = bot.tournaments  # the event pages (bot/web/pages.py)
    await bot.add_cog(TournamentCog(bot))
