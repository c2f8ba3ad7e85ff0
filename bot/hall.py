"""The Discord face of the table manager: table messages, private hands, replies.

``DiscordHall`` implements the host's ``Notifier`` (it keeps one table message per table up
to date and DMs hands) and the handlers that buttons and slash commands share. Discord
failures are logged and retried once; the table carries on regardless.
"""

from __future__ import annotations

import asyncio
import contextvars
import io
import logging
from typing import TYPE_CHECKING

import discord

from bot.host.model import PLAYING, HostError, Table
from bot.host.tables import HandResult
from bot.i18n import normalize, render, t
from bot.render.text import TableText, error_text, hand_text, table_text
from bot.views.components import hand_view, table_view
from engines.base import Text
from engines.errors import GameError

if TYPE_CHECKING:
    from bot.client import GameHall

log = logging.getLogger(__name__)

# The component interaction being handled on this task, if it came from the table message:
# its response can redraw the table message itself, saving a separate edit.
_pending: contextvars.ContextVar[discord.Interaction | None] = contextvars.ContextVar(
    "pending_interaction", default=None)

COLOUR = discord.Colour.from_rgb(200, 40, 40)


def user_locale(interaction: discord.Interaction) -> str:
    return normalize(interaction.locale)


class DiscordHall:
    """Notifier + shared interaction handlers."""

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot
        # one redraw at a time per table, drawn inside the lock: a redraw that starts later
        # also lands later, so the message never goes back to an older state
        self._redraws: dict[int, asyncio.Lock] = {}

    @property
    def manager(self):  # noqa: ANN201 - TableManager, set in setup_hook
        return self.bot.manager

    # --- drawing -------------------------------------------------------------------------
    def embed(self, table: Table) -> tuple[discord.Embed, discord.File | None]:
        text: TableText = table_text(self.manager, table, table.locale)
        embed = discord.Embed(title=text.title, description=text.status, colour=COLOUR)
        for seat in text.seats:
            embed.add_field(name=seat.name, value=seat.detail[:1024], inline=False)
        if text.lines:
            embed.add_field(name=t("table.info", table.locale), value="\n".join(text.lines)[:1024],
                            inline=False)
        if text.result:
            embed.add_field(name=t("table.result", table.locale),
                            value="\n".join(text.result)[:1024], inline=False)
        if text.notes:
            embed.add_field(name=t("table.events", table.locale), value="\n".join(text.notes)[:1024],
                            inline=False)
        embed.set_footer(text=text.footer)
        file = None
        if text.view is not None and text.view.board is not None:
            from bot.render.board import render_board_png, render_board_text

            png = render_board_png(text.view.board)
            file = discord.File(io.BytesIO(png), filename="board.png")
            embed.set_image(url="attachment://board.png")
            embed.description = (embed.description or "") + "\n```\n" + render_board_text(
                text.view.board) + "\n```"
        return embed, file

    async def table_changed(self, table: Table) -> None:
        async with self._redraws.setdefault(table.id, asyncio.Lock()):
            await self._redraw(table)

    async def _redraw(self, table: Table) -> None:
        embed, file = self.embed(table)
        view = table_view(table, table.locale)
        attachments = [file] if file is not None else []
        pending = _pending.get()
        if (pending is not None and not pending.response.is_done() and pending.message is not None
                and pending.message.id == table.message_id):
            _pending.set(None)
            try:
                await pending.response.edit_message(embed=embed, view=view, attachments=attachments)
                return
            except discord.HTTPException:
                log.warning("table %s: redraw through the interaction failed", table.id)
                embed, file = self.embed(table)
                attachments = [file] if file is not None else []
        channel = self.bot.get_partial_messageable(table.id, guild_id=table.guild_id)
        if table.message_id is not None:
            for attempt in range(2):
                try:
                    await channel.get_partial_message(table.message_id).edit(
                        embed=embed, view=view, attachments=attachments)
                    return
                except discord.NotFound:
                    break  # the message was deleted: post a new one
                except discord.HTTPException as exc:
                    log.warning("table %s: edit failed (%s), attempt %d", table.id, exc, attempt + 1)
                    if file is not None:
                        embed, file = self.embed(table)
                        attachments = [file]
            else:
                return
        try:
            message = await channel.send(embed=embed, view=view, files=attachments)
        except discord.HTTPException as exc:
            log.warning("table %s: cannot post the table message (%s)", table.id, exc)
            return
        await self.manager.save_message_id(table, message.id)

    async def hand_started(self, table: Table) -> None:
        """Nothing to send: each person's hand goes out by DM once it is dealt (hand_dealt)."""

    async def hand_dealt(self, table: Table, seat: int) -> None:
        """DM a person their hand; where DMs are closed, say so at the table."""
        uid = table.seats[seat].uid
        assert uid is not None
        locale = table.locale
        content = "\n".join([t("dm.head", locale, channel=f"<#{table.id}>", hand=table.hand_id)]
                            + hand_text(self.manager, table, seat, locale))
        try:
            # create_dm reuses a DM channel it already knows: one call per hand after the first
            channel = await self.bot.create_dm(discord.Object(id=uid))
            await channel.send(content[:2000])
        except discord.HTTPException as exc:
            log.info("table %s: no DM to %s (%s)", table.id, uid, exc)
            table.note(Text("note.dm_closed", {"name": table.seats[seat].name}))

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        """The settlement is drawn on the table message by the redraw that follows every
        host call (the result is kept on the table), so nothing is sent here."""

    async def table_closed(self, table: Table, reason: Text) -> None:
        channel = self.bot.get_partial_messageable(table.id, guild_id=table.guild_id)
        text = t("table.closed", table.locale, reason=render(reason, table.locale))
        try:
            if table.message_id is not None:
                await channel.get_partial_message(table.message_id).edit(
                    content=text, embed=None, view=None, attachments=[])
            else:
                await channel.send(text)
        except discord.HTTPException as exc:
            log.warning("table %s: cannot announce the close (%s)", table.id, exc)

    # --- shared handlers ---------------------------------------------------------------
    async def reply(self, interaction: discord.Interaction, content: str, **kwargs) -> None:
        """An ephemeral answer (or a followup if the interaction was already answered)."""
        if interaction.response.is_done():
            await interaction.followup.send(content, ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(content, ephemeral=True, **kwargs)

    async def guarded(self, interaction: discord.Interaction, coro) -> bool:  # noqa: ANN001
        """Run a manager call; expected errors become an ephemeral reply. True on success."""
        try:
            await coro
            return True
        except (HostError, GameError) as exc:
            await self.reply(interaction, error_text(exc, user_locale(interaction)))
            return False

    def _on_table_message(self, interaction: discord.Interaction, table_id: int) -> None:
        table = self.manager.tables.get(table_id)
        if (table is not None and interaction.message is not None
                and interaction.message.id == table.message_id):
            _pending.set(interaction)

    async def table_verb(self, interaction: discord.Interaction, table_id: int, verb: str) -> None:
        locale = user_locale(interaction)
        uid, name = interaction.user.id, interaction.user.display_name
        if verb == "hand":
            await self.show_hand(interaction, table_id)
            return
        if verb == "hint":
            try:
                hint = self.manager.hint(table_id, uid)
            except (HostError, GameError) as exc:
                await self.reply(interaction, error_text(exc, locale))
                return
            await self.reply(interaction, t("hint", locale, action=hint))
            return
        self._on_table_message(interaction, table_id)
        calls = {
            "join": lambda: self.manager.join(table_id, uid, name),
            "leave": lambda: self.manager.leave(table_id, uid),
            "start": lambda: self.manager.start(table_id, uid),
            "bot": lambda: self.manager.add_bot(table_id, uid),
        }
        if verb not in calls:
            await self.reply(interaction, error_text(HostError("err.unknown_button"), locale))
            return
        ok = await self.guarded(interaction, calls[verb]())
        if ok and not interaction.response.is_done():
            await self.reply(interaction, t(f"ok.{verb}", locale))

    async def act(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """A game action from a button, a select or /play."""
        locale = user_locale(interaction)
        from_hand = (interaction.message is not None and interaction.message.flags.ephemeral)
        self._on_table_message(interaction, table_id)
        try:
            done = await self.manager.act(table_id, interaction.user.id, action)
        except (HostError, GameError) as exc:
            await self.reply(interaction, error_text(exc, locale))
            return
        if interaction.response.is_done():
            return
        table = self.manager.tables.get(table_id)
        if from_hand and table is not None:
            await self.show_hand(interaction, table_id, edit=True, done=done)
        else:
            await self.reply(interaction, t("ok.act", locale, action=done))

    async def show_hand(self, interaction: discord.Interaction, table_id: int, *, edit: bool = False,
                        done: str | None = None) -> None:
        """/hand: your cards and your controls, visible only to you."""
        locale = user_locale(interaction)
        table = self.manager.tables.get(table_id)
        if table is None:
            await self.reply(interaction, error_text(HostError("err.no_table"), locale))
            return
        seat = table.seat_of(interaction.user.id)
        if seat is None:
            await self.reply(interaction, error_text(HostError("err.not_seated"), locale))
            return
        if table.status != PLAYING or table.game is None:
            lines = [t("hand.none", locale)]
            view = None
        else:
            lines = hand_text(self.manager, table, seat, locale)
            view = hand_view(table, table.game, seat, locale)
        if done:
            lines.insert(0, t("ok.act", locale, action=done))
        content = "\n".join(lines)[:2000]
        if edit:
            await interaction.response.edit_message(content=content, view=view)
        elif view is not None:
            await self.reply(interaction, content, view=view)
        else:
            await self.reply(interaction, content)
