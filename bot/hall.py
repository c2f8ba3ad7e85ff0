"""The Discord face of the table manager: table messages, private hands, replies.

``DiscordHall`` implements the host's ``Notifier`` (it keeps one table message per table up
to date and DMs hands) and the handlers that buttons and slash commands share. Discord
failures are logged; a table whose message can no longer be shown is closed rather than run
unseen. Its jobs live in the classes it inherits, one module each: the table message
(``TableMessages``, bot/hall_table.py), the DM hands (``PrivateHandViews``, hall_hands.py) and
the edit budget (``MessageBudget``, hall_budget.py); the handlers stay here.
"""

from __future__ import annotations

import asyncio
import io
import logging
from typing import TYPE_CHECKING, Any

import discord

from bot.hall_budget import MessageBudget
from bot.hall_hands import PrivateHandViews, _answering
from bot.hall_table import TableMessages, _pending
from bot.host.model import HostError, Table
from bot.i18n import normalize, t
from bot.render.limits import field_values, fit
from bot.render.pictures import Picture, table_picture
from bot.render.pictures import render_async as render_picture
from bot.render.text import TableText, error_text, notation_help, table_text
from engines.errors import GameError

if TYPE_CHECKING:
    from bot.client import GameHall

log = logging.getLogger(__name__)


COLOUR = discord.Colour.from_rgb(200, 40, 40)

TABLE_PERMISSIONS = ("view_channel", "send_messages", "embed_links", "attach_files")
"""What the bot needs in a channel to keep a table message there (checked at /table create)."""

PERMISSION_KEYS = {
    "view_channel": "perm.view_channel",
    "send_messages": "perm.send_messages",
    "embed_links": "perm.embed_links",
    "attach_files": "perm.attach_files",
}


def user_locale(interaction: discord.Interaction) -> str:
    return normalize(interaction.locale)


def missing_permissions(permissions: discord.Permissions) -> list[str]:
    """The table permissions (``TABLE_PERMISSIONS``) that ``permissions`` lacks, in order."""
    return [name for name in TABLE_PERMISSIONS if not getattr(permissions, name)]


class DiscordHall(TableMessages, PrivateHandViews, MessageBudget):
    """Notifier + shared interaction handlers."""

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot
        # one redraw at a time per table, drawn inside the lock: a redraw that starts later
        # also lands later, so the message never goes back to an older state
        self._redraws: dict[int, asyncio.Lock] = {}
        # tables with a change not yet drawn; the flusher of a table draws the newest state
        # once the edit in flight (or waiting on Discord's rate limit) is done
        self._dirty: set[int] = set()
        self._flushers: dict[int, asyncio.Task[None]] = {}
        # picks gathered across the menus of a multi-menu picker: (uid, table) → menu → values
        self.picks: dict[tuple[int, int], dict[int, list[str]]] = {}
        # message id → the latest interactions whose answers drew that message, each with
        # when it came and when its token was last used: a token edits the message through
        # an interaction endpoint, which Discord does not count against the bot's global rate
        # limit (docs/discord-budget.md)
        self.tokens: dict[int, list[list[Any]]] = {}
        # message id → the picture file it carries: an edit whose picture did not change keeps
        # the attachment instead of uploading it again (the name holds the content digest)
        self.uploaded: dict[int, str] = {}
        self._images_off: set[int] | None = None

    @property
    def manager(self):  # noqa: ANN201 - TableManager, set in setup_hook
        return self.bot.manager

    # --- drawing -------------------------------------------------------------------------
    async def embed(self, table: Table) -> tuple[discord.Embed, discord.File | None]:
        text: TableText = table_text(self.manager, table, table.locale)
        embed = discord.Embed(title=text.title, description=text.status, colour=COLOUR)
        for seat in text.seats:
            embed.add_field(name=seat.name, value=seat.detail, inline=False)
        if text.lines:
            embed.add_field(name=t("table.info", table.locale), value="\n".join(text.lines),
                            inline=False)
        # a long settlement (many itemized payments) goes on in further fields, not cut off
        for i, value in enumerate(field_values(text.result)):
            embed.add_field(name=t("table.result", table.locale) if i == 0 else "\u200b",
                            value=value, inline=False)
        if text.notes:
            embed.add_field(name=t("table.events", table.locale), value="\n".join(text.notes),
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
        elif text.view is not None:
            picture = await self.table_picture(table, text)
            if picture is not None:
                file = discord.File(io.BytesIO(picture.png), filename=picture.filename)
                embed.set_image(url=f"attachment://{picture.filename}")
        return fit({"embed": embed})["embed"], file

    # --- pictures ---------------------------------------------------------------------------
    async def table_picture(self, table: Table, text: TableText) -> Picture | None:
        """牌桌图: the public table as a picture (``bot.render.pictures``), from the public
        view only; None for a game without faces."""
        assert text.view is not None
        game = table.game
        live = game is not None and not game.is_over()
        described = table_picture(
            self.manager.spec(table).faces, text.view, text.title,
            [seat.name for seat in table.seats],
            game.public_to_act() if live and game is not None else (), table.locale)
        return await render_picture(described) if described is not None else None

    async def images_ready(self) -> None:
        """Load who chose text only (once)."""
        if self._images_off is None:
            self._images_off = await self.manager.referee.conduct.images_off()

    async def embed_for(self, table: Table, uid: int) -> tuple[discord.Embed, discord.File | None]:
        """The public table embed for one person's private answer (/table status, watch): the
        picture unless ``uid`` turned pictures off (``/settings images``)."""
        embed, file = await self.embed(table)
        await self.images_ready()
        if file is not None and not self.images_on(uid):
            embed.set_image(url=None)  # the text alone
            file = None
        return embed, file

    def images_on(self, uid: int) -> bool:
        """Whether ``uid`` gets pictures in private answers (``/settings images``)."""
        return self._images_off is None or uid not in self._images_off

    async def set_images(self, uid: int, on: bool) -> None:
        await self.images_ready()
        await self.manager.referee.conduct.set_images(uid, on)
        assert self._images_off is not None
        if on:
            self._images_off.discard(uid)
        else:
            self._images_off.add(uid)

    # --- shared handlers ---------------------------------------------------------------
    async def reply(self, interaction: discord.Interaction, content: str, **kwargs: Any) -> None:
        """An ephemeral answer (or a followup if the interaction was already answered), cut to
        Discord's limits."""
        kwargs = fit({"content": content, **kwargs})
        if interaction.response.is_done():
            await interaction.followup.send(ephemeral=True, **kwargs)
        else:
            await interaction.response.send_message(ephemeral=True, **kwargs)

    async def safe_reply(self, interaction: discord.Interaction, content: str) -> None:
        """``reply`` for the error handler: it must never raise, whatever Discord answers."""
        try:
            await self.reply(interaction, content)
        except Exception:  # noqa: BLE001 - the last resort: log, never raise
            log.exception("could not answer an interaction")

    async def refusal(self, interaction: discord.Interaction, exc: HostError | GameError,
                      *, help_game: str | None = None) -> None:
        """Answer a refused action: its message, with /daily suggested only to those who may
        claim it now, and ``/help game`` where the action was written wrong (``help_game``);
        taking a seat back from the trustee is a success, not an error."""
        locale = user_locale(interaction)
        if isinstance(exc, HostError) and exc.text.key == "err.back_from_trustee":
            await self.reply(interaction, t("ok.back_from_trustee", locale))
            return
        text = error_text(exc, locale, help_game=help_game)
        if isinstance(exc, HostError) and exc.text.key == "err.too_poor":
            if await self.bot.can_claim_relief(interaction.user.id, interaction.guild_id):
                text += " " + t("hint.daily", locale)
        await self.reply(interaction, text)

    async def guarded(self, interaction: discord.Interaction, coro) -> bool:  # noqa: ANN001
        """Run a manager call; expected errors become an ephemeral reply. True on success."""
        try:
            await coro
            return True
        except (HostError, GameError) as exc:
            await self.refusal(interaction, exc)
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
            await self.show_hand(interaction, table_id, edit=self._private(interaction))
            return
        if verb == "hint":
            try:
                hint = self.manager.hint(table_id, uid)
            except (HostError, GameError) as exc:
                await self.refusal(interaction, exc)
                return
            await self.reply(interaction, t("hint", locale, action=hint))
            return
        if verb == "pick":
            await self.play_picked(interaction, table_id)
            return
        self._on_table_message(interaction, table_id)
        calls = {
            # a click from a DM comes from no server: 0, which is no table's
            "join": lambda: self.manager.join(table_id, uid, name,
                                              server=interaction.guild_id or 0),
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

    @staticmethod
    def _private(interaction: discord.Interaction) -> bool:
        """The interaction came from a private view: an ephemeral /hand or the hand's DM."""
        message = interaction.message
        return message is not None and (message.flags.ephemeral or interaction.guild_id is None)

    async def act(self, interaction: discord.Interaction, table_id: int, action: str) -> None:
        """A game action from a button, a select or /play. The private hands it changed are
        redrawn by the host's refresh (``hand_dealt``), the one it came from by the answer."""
        locale = user_locale(interaction)
        from_hand = self._private(interaction)
        self._on_table_message(interaction, table_id)
        if from_hand:
            _answering.set(interaction)
        try:
            done = await self.manager.act(table_id, interaction.user.id, action)
        except (HostError, GameError) as exc:
            await self.refusal(interaction, exc,
                               help_game=notation_help(self.manager, table_id, exc))
            return
        finally:
            _answering.set(None)
        self.picks.pop((interaction.user.id, table_id), None)
        table = self.manager.tables.get(table_id)
        if not interaction.response.is_done():
            if from_hand and table is not None:
                await self.show_hand(interaction, table_id, edit=True, done=done)
            else:
                await self.reply(interaction, t("ok.act", locale, action=done))

    async def gather(self, interaction: discord.Interaction, table_id: int, menu: int,
                     values: list[str]) -> None:
        """One menu of a multi-menu picker changed: keep its picks until Play is pressed."""
        picks = self.picks.setdefault((interaction.user.id, table_id), {})
        picks[menu] = list(values)
        await interaction.response.defer()
        if interaction.message is not None:  # a deferred update: its token edits the message
            self._answered(interaction, interaction.message.id)

    async def play_picked(self, interaction: discord.Interaction, table_id: int) -> None:
        """Play: the picks of every menu together, in the picker's order, as one action."""
        table = self.manager.tables.get(table_id)
        seat = table.seat_of(interaction.user.id) if table is not None else None
        picker = (table.game.picker(seat) if table is not None and table.game is not None
                  and seat is not None else None)
        picks = self.picks.get((interaction.user.id, table_id), {})
        values = sorted((v for menu in picks.values() for v in menu),
                        key=lambda v: int(v.split(":", 1)[0]))
        if picker is None or not values:
            await self.reply(interaction, "❌ " + t("err.nothing_picked", user_locale(interaction)))
            return
        tokens = [v.split(":", 1)[1] for v in values]
        await self.act(interaction, table_id, picker.action(tokens))

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
        self.picks.pop((interaction.user.id, table_id), None)
        dm = interaction.guild_id is None and edit  # redrawing the DM itself
        content, view = self.private_view(table, seat, locale, dm=dm)
        if done:
            content = t("ok.act", locale, action=done) + "\n" + content
        await self.images_ready()
        file = await self.hand_file(table, seat, interaction.user.id, locale, dm=dm)
        if edit:
            message = interaction.message
            await interaction.response.edit_message(
                **fit({"content": content, "view": view}),
                **self.attachments(file, self._carried(message, None)))
            if message is not None:
                self._uploaded(message.id, file)
                self._answered(interaction, message.id)
            return
        extra: dict[str, Any] = {"file": file} if file is not None else {}
        if view is not None:
            await self.reply(interaction, content, view=view, **extra)
        else:
            await self.reply(interaction, content, **extra)
