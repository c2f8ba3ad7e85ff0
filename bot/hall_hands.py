"""Private hands of ``DiscordHall``: each person's DM hand, sent once and then redrawn whenever
the host says what it shows changed (through the answer to the click from it, an interaction
token, or an edit), and the picture and text a private hand draws (DM, /hand).

A part of ``DiscordHall`` (bot/hall.py), which inherits it.
"""

from __future__ import annotations

import contextvars
import io
import logging

import discord

from bot.host.cashier import HandResult
from bot.host.model import PLAYING, Table, dm_view
from bot.i18n import t
from bot.render.limits import fit
from bot.render.pictures import hand_picture
from bot.render.pictures import render_async as render_picture
from bot.render.text import hand_text
from bot.views.components import hand_view
from engines.base import Text

log = logging.getLogger("bot.hall")  # the hall's log, as before the split

# The component interaction being handled on this task if it came from a private hand (a DM
# or /hand): its answer redraws that message, so the host's refresh of it is left to it.
_answering: contextvars.ContextVar[discord.Interaction | None] = contextvars.ContextVar(
    "answering_interaction", default=None)


class PrivateHandViews:
    """私信手牌: the DM hands and what a private hand draws."""

    async def hand_file(self, table: Table, seat: int, uid: int, locale: str, *,
                        dm: bool = False) -> discord.File | None:
        """手牌图: the seat's private picture as a file, or None (no hand, a game without
        faces, or the person chose text only with /settings images off); ``dm``: the part a
        DM shows (``dm_view``)."""
        if not self.images_on(uid) or table.status != PLAYING or table.game is None:
            return None
        game = table.game
        shown = (dm_view(game, seat, acting=seat in self.manager.private_acting(table)) if dm
                 else game.view(seat))
        described = hand_picture(self.manager.spec(table).faces, shown, seat,
                                 [s.name for s in table.seats], locale)
        if described is None:
            return None
        picture = await render_picture(described)
        return discord.File(io.BytesIO(picture.png), filename=picture.filename)

    async def hand_dealt(self, table: Table, seat: int) -> None:
        """DM a person their hand, or redraw the DM already sent this hand (the host calls
        this whenever what the DM shows changed): through the answer to the click being
        handled when it came from that DM, else through the token of the latest interaction
        that drew the DM, else by an edit of the DM; where DMs are closed, say so."""
        uid = table.seats[seat].uid
        assert uid is not None
        known = table.dms.get(str(seat))
        answering = _answering.get()
        if (known is not None and answering is not None and not answering.response.is_done()
                and answering.message is not None and answering.message.id == known):
            return  # the answer to this click redraws the DM (act → show_hand)
        locale = table.locale
        content, view = self.private_view(table, seat, locale, dm=True)
        await self.images_ready()
        file = await self.hand_file(table, seat, uid, locale, dm=True)
        if known is not None and await self._edit_by_token(
                known, **fit({"content": content, "view": view}),
                **self.attachments(file, self._carried(None, known))):
            self._uploaded(known, file)
            return
        if file is not None and known in self.tokens:
            file = await self.hand_file(table, seat, uid, locale, dm=True)
        try:
            # create_dm reuses a DM channel it already knows: one call per player per run
            channel = await self.bot.create_dm(discord.Object(id=uid))
            if known is not None:
                try:
                    await channel.get_partial_message(known).edit(
                        **fit({"content": content, "view": view}),
                        **self.attachments(file, self._carried(None, known)))
                    self._uploaded(known, file)
                    return
                except discord.NotFound:
                    pass  # the DM was deleted: send it again
            message = await channel.send(**fit({"content": content, "view": view}),
                                         files=[file] if file is not None else [])
            self._uploaded(message.id, file)
        except discord.HTTPException as exc:
            log.info("table %s: no DM to %s (%s)", table.id, uid, exc)
            table.note(Text("note.dm_closed", {"name": table.seats[seat].name}))
            return
        await self.manager.save_dm(table, seat, message.id)

    async def hand_over(self, table: Table, result: HandResult) -> None:
        """Redraw every DM of the hand just settled: the hand is over and what that seat won
        or lost, with no controls left (the table message carries the settlement). Through an
        interaction token where one is valid, else one DM edit each; a DM that is gone is
        left alone (nothing is sent anew for a finished hand). A seat with its page open keeps
        its DM until the page closes (docs/web.md), as for any redraw."""
        web = getattr(self.bot, "web", None)
        for seat in result.seats:
            known = table.dms.get(str(seat.seat))
            if known is None or seat.uid is None:
                continue
            if web is not None and web.hub.hold(table.id, seat.seat):
                continue
            content = t("dm.over", table.locale, channel=f"<#{table.id}>",
                        hand=result.hand_id, delta=f"{seat.delta:+,}")
            fields = fit({"content": content, "view": None})
            if await self._edit_by_token(known, **fields):
                continue
            try:
                channel = await self.bot.create_dm(discord.Object(id=seat.uid))
                await channel.get_partial_message(known).edit(**fields)
            except discord.HTTPException as exc:
                log.info("table %s: DM %s not redrawn at the end (%s)", table.id, known, exc)

    def private_view(self, table: Table, seat: int, locale: str, *, dm: bool = False
                     ) -> tuple[str, discord.ui.View | None]:
        """A seat's private picture and controls (the DM, /hand, the answer to a private act)."""
        lines = []
        if dm and table.hand_id is not None:
            lines.append(t("dm.head", locale, channel=f"<#{table.id}>", hand=table.hand_id))
        if table.status != PLAYING or table.game is None:
            return "\n".join([*lines, t("hand.none", locale)]), None
        # a DM shows what its digest covers (dm_view): the host redraws it when that changes
        turn = seat in self.manager.private_acting(table) if dm else None
        view = dm_view(table.game, seat, acting=turn) if dm else None
        lines += hand_text(self.manager, table, seat, locale, view, turn=turn)
        web = getattr(self.bot, "web", None)
        if web is not None:  # 网页牌桌: the same seat in a page (bot/web)
            lines.append(t("web.open", locale, url=web.seat_url(table, seat)))
        return "\n".join(lines), hand_view(table, table.game, seat, locale, turn=turn)
