"""The table message of ``DiscordHall``: one message per table, redrawn after every change
(through the interaction that caused it where it can, else by an edit that follows the
answer), closed with the table; a table whose message can no longer be shown is closed.

A part of ``DiscordHall`` (bot/hall.py), which inherits it.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging

import discord

from bot.host.model import PLAYING, HostError, Table
from bot.host.tables import HandResult
from bot.i18n import render, t
from bot.render.limits import fit
from bot.views.components import table_view
from engines.base import T, Text

log = logging.getLogger("bot.hall")  # the hall's log, as before the split

# The component interaction being handled on this task, if it came from the table message:
# its response can redraw the table message itself, saving a separate edit.
_pending: contextvars.ContextVar[discord.Interaction | None] = contextvars.ContextVar(
    "pending_interaction", default=None)


class TableMessages:
    """牌桌消息: the table message kept up to date, and closed with the table."""

    async def table_changed(self, table: Table) -> None:
        """Redraw the table message: through the interaction that changed it when it came from
        the table message (no extra call), else by an edit that follows the answer.

        Edits of one table message are coalesced: while one is in flight (or held back by
        Discord's per-channel rate limit), further changes wait and are drawn together, in
        their newest state, by the next edit. The message is never more than one edit behind.
        """
        pending = _pending.get()
        if (pending is not None and not pending.response.is_done() and pending.message is not None
                and pending.message.id == table.message_id):
            _pending.set(None)
            lock = self._redraw_lock(table.id)
            if not lock.locked():
                self._dirty.discard(table.id)
                async with lock:
                    await self._redraw(table, pending)
                return
            # an edit is in flight (perhaps waiting on the rate limit): answer now, within
            # the interaction's 3 seconds, and draw once more after that edit, which may land
            # later with an older state
            await self._redraw(table, pending)
        self._dirty.add(table.id)
        flusher = self._flushers.get(table.id)
        if flusher is None or flusher.done():
            self._flushers[table.id] = asyncio.get_running_loop().create_task(
                self._flush(table), name=f"table-redraw-{table.id}")

    def _redraw_lock(self, table_id: int) -> asyncio.Lock:
        return self._redraws.setdefault(table_id, asyncio.Lock())

    async def _flush(self, table: Table) -> None:
        while table.id in self._dirty:
            async with self._redraw_lock(table.id):
                if table.id not in self._dirty:
                    break
                self._dirty.discard(table.id)
                if self.manager.tables.get(table.id) is not table:
                    break  # closed meanwhile: table_closed has said so
                try:
                    await self._redraw(table, None)
                except Exception:  # noqa: BLE001 - a redraw must not end the flusher silently
                    log.exception("table %s: redraw failed", table.id)

    async def flush(self, table_id: int) -> None:
        """Wait until the table message shows the latest change (tests, shutdown)."""
        flusher = self._flushers.get(table_id)
        if flusher is not None:
            await asyncio.shield(flusher)

    async def _redraw(self, table: Table, pending: discord.Interaction | None) -> None:
        embed, file = await self.embed(table)
        view = table_view(table, table.locale)
        attachments = [file] if file is not None else []
        if pending is not None:
            try:
                await pending.response.edit_message(**fit({"embed": embed, "view": view}),
                                                    **self.attachments(file, self._carried(
                                                        pending.message, table.message_id)))
                self._uploaded(table.message_id, file)
                self._answered(pending, table.message_id)
                return
            except discord.HTTPException:
                log.warning("table %s: redraw through the interaction failed", table.id)
                embed, file = await self.embed(table)
                attachments = [file] if file is not None else []
        channel = self.bot.get_partial_messageable(table.id, guild_id=table.guild_id)
        if table.message_id is not None and await self._edit_by_token(
                table.message_id, **fit({"embed": embed, "view": view}),
                **self.attachments(file, self._carried(None, table.message_id))):
            self._uploaded(table.message_id, file)
            return
        if file is not None and table.message_id in self.tokens:
            embed, file = await self.embed(table)  # the refused edit used up the file
            attachments = [file] if file is not None else []
        if table.message_id is not None:
            for attempt in range(2):
                try:
                    await channel.get_partial_message(table.message_id).edit(
                        **fit({"embed": embed, "view": view}),
                        **self.attachments(file, self._carried(None, table.message_id)))
                    self._uploaded(table.message_id, file)
                    return
                except (discord.NotFound, discord.Forbidden):
                    break  # deleted, or no longer ours to edit: post a new one
                except discord.HTTPException as exc:
                    log.warning("table %s: edit failed (%s), attempt %d", table.id, exc,
                                attempt + 1)
                    if file is not None:
                        embed, file = await self.embed(table)
                        attachments = [file]
            else:
                return
            if file is not None:
                embed, file = await self.embed(table)
                attachments = [file]
        try:
            message = await channel.send(**fit({"embed": embed, "view": view}), files=attachments)
        except discord.HTTPException as exc:
            log.warning("table %s: cannot post the table message (%s)", table.id, exc)
            await self._close_unseen(table)
            return
        self._uploaded(message.id, file)
        await self.manager.save_message_id(table, message.id)

    async def _close_unseen(self, table: Table) -> None:
        """A table nobody can see must not go on holding beans: close it (escrow released).
        Closed from a task of its own, since this may run inside a host call on the table."""
        if self.manager.tables.get(table.id) is table:
            asyncio.get_running_loop().create_task(self._close(table.id, T("note.unseen")))

    async def _close(self, table_id: int, reason: Text) -> None:
        try:
            await self.manager.close(table_id, reason)
        except HostError:
            pass  # closed meanwhile

    async def hand_started(self, table: Table) -> None:
        """Nothing to send: each person's hand goes out by DM once it is dealt (hand_dealt)."""

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        """The settlement is drawn on the table message by the redraw that follows every
        host call (the result is kept on the table); each DM of the hand says it is over."""
        await self.hand_over(table, result)

    async def table_closed(self, table: Table, reason: Text) -> None:
        self._dirty.discard(table.id)
        self._flushers.pop(table.id, None)
        for key in [k for k in self.picks if k[1] == table.id]:
            del self.picks[key]
        channel = self.bot.get_partial_messageable(table.id, guild_id=table.guild_id)
        text = t("table.closed", table.locale, reason=render(reason, table.locale))
        # after any edit in flight, so that the closing is what stays on the message
        # the last hand's settlement stays readable under the closing; a hand cut short is not
        embed, file = (await self.embed(table) if table.status != PLAYING and table.last_result
                       else (None, None))
        # the settlement's picture stays when the message already carries it
        carried = self._carried(None, table.message_id)
        kept = self.attachments(file, carried) if embed is not None else {"attachments": []}
        if kept and embed is not None and file is not None:
            embed.set_image(url=None)
            kept = {"attachments": []}
        for message_id in (table.message_id, *table.dms.values()):
            self.uploaded.pop(message_id, None)  # type: ignore[arg-type]
            self.tokens.pop(message_id, None)  # type: ignore[arg-type]
        async with self._redraws.pop(table.id, asyncio.Lock()):
            try:
                if table.message_id is not None:
                    try:
                        await channel.get_partial_message(table.message_id).edit(
                            **fit({"content": text}), embed=embed, view=None, **kept)
                        return
                    except (discord.NotFound, discord.Forbidden):
                        pass
                await channel.send(**fit({"content": text}))
            except discord.HTTPException as exc:
                log.warning("table %s: cannot announce the close (%s)", table.id, exc)
