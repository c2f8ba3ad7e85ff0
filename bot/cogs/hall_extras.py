"""大厅附加: checking a hand's fair shuffle (/verify), help on commands and games (/help,
/rules), watching a table without a seat (/table watch, 观战), quick match (/quickplay, 快速加入)
and the rematch (the Again button, 再来一局)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.wallet import chunks
from bot.hall import user_locale
from bot.host.fairness import Verification, read_commitment, verify
from bot.host.model import WAITING, HostError, Table
from bot.i18n import pick_name, render, t
from bot.render.limits import clip
from bot.render.text import cards
from bot.views.rematch import AgainButton
from engines.base import GameSpec, Setup, T
from engines.errors import GameError
from storage import history

if TYPE_CHECKING:
    from bot.client import GameHall
    from bot.host.tables import TableManager
    from bot.settings import Settings


def seat_names(seats: tuple[int | None, ...]) -> list[str]:
    """Players as mentions, bots numbered in seat order as at the table."""
    bots = iter(range(1, len(seats) + 1))
    return [f"<@{uid}>" if uid else f"Bot {next(bots)}" for uid in seats]


def check_hand(specs: dict[str, GameSpec], hand: history.Hand, claimed: str | None
               ) -> Verification:
    """Re-deal a finished hand from its stored record. A running hand keeps its seed secret."""
    if hand.status != "settled" or not hand.record:
        raise HostError("err.hand_not_finished", hand=hand.code)
    digest = None
    if claimed is not None and claimed.strip():
        digest = read_commitment(claimed)
        if digest is None:
            raise HostError("err.bad_commitment", typed=clip(claimed.strip(), 80))
    return verify(specs[hand.game], hand.record, digest)


def verify_lines(specs: dict[str, GameSpec], hand: history.Hand, result: Verification,
                 locale: str, names: list[str] | None = None) -> list[str]:
    """What /verify and ``gamehall verify`` print: the seed, its digest against the claimed
    commitment, each seat's cards as re-dealt, and whether the recorded hand replays."""
    names = names or seat_names(hand.seats)
    spec = specs[hand.game]
    lines = [
        t("verify.head", locale, code=hand.code,
          game=pick_name(spec.name_zh, spec.name_en, locale), seed=result.seed),
        t("verify.digest", locale, digest=result.commitment),
    ]
    if result.matches is None:
        lines.append(t("verify.no_claim", locale))
    elif result.matches:
        lines.append(t("verify.match", locale))
    else:
        lines.append(t("verify.mismatch", locale, claimed=result.claimed))
    for name, dealt in zip(names, result.dealt, strict=False):
        if dealt:
            lines.append(t("replay.dealt", locale, name=name, cards=cards(dealt)))
    if result.replayed:
        lines.append(t("verify.replayed", locale))
    else:
        lines.append(t("verify.broken", locale, problem=clip(result.problem or "", 300)))
    return lines


async def verify_offline(settings: Settings, code: str, claimed: str | None,
                         out: Callable[[str], None] = print) -> int:
    """``gamehall verify CODE``: check a hand in this hall's database; exit 0 when verified,
    1 when the record or the commitment does not match, 2 when there is no such hand."""
    from engines import registry
    from storage.db import open_database

    locale = settings.locale_default
    db = await open_database(settings.database, synchronous=settings.synchronous)
    try:
        hand = await history.hand_by_code(db, code) if 0 < len(code.strip()) <= 64 else None
        if hand is None:
            out(t("err.no_such_hand", locale))
            return 2
        try:
            result = check_hand(registry.specs(), hand, claimed)
        except HostError as exc:
            out(render(exc.text, locale))
            return 2
        names = [n.replace("<@", "uid ").rstrip(">") for n in seat_names(hand.seats)]
        for line in verify_lines(registry.specs(), hand, result, locale, names):
            out(line.replace("`", ""))
        return 0 if result.ok else 1
    finally:
        await db.close()


DOCS = Path(__file__).resolve().parents[2] / "docs" / "games"
"""The games' rule pages (``docs/games/<engine package>.md``)."""

NOTATION_LIMIT = 1500
EXAMPLES = 10


def doc_path(spec: GameSpec) -> str:
    """The game's rule page, named after its engine's package (``engines/<package>/``)."""
    package = spec.game.__module__.split(".")[1]
    return f"docs/games/{package}.md"


def notation_section(spec: GameSpec, docs: Path = DOCS) -> str | None:
    """The first section of the game's rule page whose heading names its notation (else its
    actions), cut to ``NOTATION_LIMIT`` characters; None where the page or section is missing."""
    page = docs / Path(doc_path(spec)).name
    try:
        lines = page.read_text(encoding="utf-8").splitlines()
    except OSError:
        return None
    for word in ("notation", "actions"):  # a page without a notation section lists actions
        body: list[str] = []
        level = 0
        for line in lines:
            if line.startswith("#"):
                depth = len(line) - len(line.lstrip("#"))
                if level and depth <= level:
                    break
                if not level and word in line.lower():
                    level = depth
                continue
            if level:
                body.append(line)
        text = "\n".join(body).strip()
        if text:
            return clip(text, NOTATION_LIMIT)
    return None


def notation_examples(spec: GameSpec, limit: int = EXAMPLES) -> list[str]:
    """Actions in the game's notation, as a fresh hand offers them: the first seat to act
    is shown its legal actions while the trustee plays the hand forward."""
    seats = spec.seats_default or spec.min_seats
    game = spec.new(Setup(seats=seats, seed=1, options=spec.validate({}),
                          stakes=(None,) * seats, ratings=(0,) * seats))
    examples: list[str] = []
    for _step in range(60):
        acting = game.to_act()
        if game.is_over() or not acting or len(examples) >= limit:
            break
        seat = acting[0]
        for action in [*game.legal_actions(seat)[:2], game.hint(seat)]:
            if action not in examples and len(examples) < limit:
                examples.append(action)
        try:
            game.apply(seat, game.trustee(seat))
        except GameError:
            break
    return examples


def game_choices(specs: dict[str, GameSpec], current: str) -> list[app_commands.Choice[str]]:
    """Autocomplete: game keys containing what was typed, or whose names do."""
    typed = current.strip().lower()
    return [app_commands.Choice(name=f"{key} · {spec.name_zh} / {spec.name_en}", value=key)
            for key, spec in specs.items()
            if typed in key or typed in spec.name_zh or typed in spec.name_en.lower()][:25]


def help_lines(specs: dict[str, GameSpec], locale: str) -> list[str]:
    """/help: the commands, then the games with their keys."""
    lines = [t("help.head", locale), *t("help.commands", locale).split("\n"),
             t("help.games", locale)]
    for key, spec in specs.items():
        lines.append(t("help.game", locale, game=key, name=pick_name(spec.name_zh, spec.name_en, locale), low=spec.min_seats, high=spec.max_seats))
    lines.append(t("help.more", locale))
    return lines


def rules_lines(specs: dict[str, GameSpec], key: str, locale: str) -> list[str]:
    """/rules game: seats, notation with live examples, and where the full rules are."""
    spec = specs.get(key.strip().lower())
    if spec is None:
        raise HostError("err.unknown_game", game=clip(key, 40), games=", ".join(specs))
    lines = [t("rules.head", locale, zh=pick_name(spec.name_zh, spec.name_zh, locale), en=spec.name_en, game=spec.key,
               low=spec.min_seats, high=spec.max_seats)]
    examples = notation_examples(spec)
    if examples:
        lines.append(t("rules.examples", locale,
                       actions=" · ".join(f"`{a}`" for a in examples)))
    section = notation_section(spec)
    if section:
        lines.append(t("rules.notation", locale))
        lines.extend(section.splitlines())
    lines.append(t("rules.doc", locale, path=f"`{doc_path(spec)}`"))
    return lines


def quick_match(manager: TableManager, guild_id: int, channel_id: int, game: str, room: str,
                uid: int) -> Table | None:
    """快速加入: a waiting table of this game and room in this server with a free seat that
    would seat ``uid`` (a private table only if invited) — the one in this channel first, then
    the one closest to full (it starts soonest)."""
    spec = manager.specs.get(game)
    if spec is None:
        return None
    found = [tb for tb in manager.tables.values()
             if tb.guild_id == guild_id and tb.game_key == game and tb.room == room
             and tb.status == WAITING and len(tb.seats) < spec.max_seats
             and tb.seat_of(uid) is None
             and (not tb.private or uid == tb.owner or uid in tb.invited)]
    found.sort(key=lambda tb: (tb.id != channel_id, -len(tb.seats), tb.id))
    return found[0] if found else None


def table_link(table: Table) -> str:
    """The table message, or the table's channel before the message exists."""
    if table.message_id:
        return f"https://discord.com/channels/{table.guild_id}/{table.id}/{table.message_id}"
    return f"<#{table.id}>"


class HallExtrasCog(commands.Cog):
    """Around the tables: checking a shuffle, help, watching, quick match and the rematch."""

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot
        self.watchers: dict[int, tuple[Table, dict[int, str]]] = {}
        """观战: per channel, its table and who follows it without a seat (uid → name), while
        the bot runs; a new table in the channel starts with nobody watching."""
        self.agreed: dict[int, tuple[str, set[int]]] = {}
        """再来一局: per table, the settled hand's code and who has asked for another hand."""

    async def again(self, interaction: discord.Interaction, table_id: int) -> None:
        """The Again button: the clicker confirms; when every person at the table has, the next
        hand is dealt through the normal Start (which holds everyone's beans again)."""
        locale = user_locale(interaction)
        manager = self.bot.manager
        table = manager.get(table_id)
        uid = interaction.user.id
        manager.seat_index(table, uid)  # only those at the table
        if table.status != WAITING or not table.last_result:
            raise HostError("err.hand_running" if table.status != WAITING else "err.no_rematch")
        code = str(table.last_result.get("code") or table.last_result.get("hand_id"))
        kept = self.agreed.get(table_id)
        if kept is None or kept[0] != code:
            kept = self.agreed[table_id] = (code, set())
        agreed = kept[1]
        agreed.add(uid)
        people = [s for s in table.seats if s.uid is not None]
        waiting = [s.name for s in people if s.uid not in agreed]
        if waiting:
            table.note(T("note.again", name=interaction.user.display_name,
                         n=len(people) - len(waiting), of=len(people)))
            await self.bot.hall.table_changed(table)
            await self.bot.hall.reply(interaction, t("again.waiting", locale,
                                                     names=", ".join(waiting)))
            return
        del self.agreed[table_id]
        await manager.start(table_id, uid)
        await self.bot.hall.reply(interaction, t("again.dealt", locale))

    async def watch(self, interaction: discord.Interaction) -> None:
        """/table watch: the table's public picture (the table message, never a hidden card),
        and the watcher listed on the table."""
        assert interaction.channel_id is not None
        locale = user_locale(interaction)
        table = self.bot.manager.get(interaction.channel_id)
        if table.seat_of(interaction.user.id) is not None:
            raise HostError("err.watch_seated")
        kept = self.watchers.get(table.id)
        if kept is None or kept[0] is not table:
            kept = self.watchers[table.id] = (table, {})
        watching = kept[1]
        if interaction.user.id not in watching:
            watching[interaction.user.id] = interaction.user.display_name
            table.note(T("note.watching", name=interaction.user.display_name))
            await self.bot.hall.table_changed(table)
        # what everyone in the channel sees (as text with /settings images off)
        embed, file = await self.bot.hall.embed_for(table, interaction.user.id)
        text = t("watch.ok", locale, link=table_link(table), names=", ".join(watching.values()))
        if self.bot.web is not None:  # 网页观战: the same public view in a page (bot/web)
            text += "\n" + t("web.watch_link", locale, url=self.bot.web.watch_url(table))
        kwargs: dict[str, Any] = {"file": file} if file is not None else {}
        await self.bot.hall.reply(interaction, text, embed=embed, **kwargs)

    @app_commands.command(name=_("verify"),
                          description=_("Check a finished hand's shuffle against its commitment"))
    @app_commands.describe(code=_("The hand's replay code, shown in its settlement"),
                           commitment=_("The commitment the table showed at the deal"))
    async def verify(self, interaction: discord.Interaction, code: str,
                     commitment: str | None = None) -> None:
        locale = user_locale(interaction)
        wallet_cog: Any = self.bot.get_cog("WalletCog")
        hand = await wallet_cog.visible_hand(interaction, code)  # same visibility as /replay
        result = check_hand(self.bot.manager.specs, hand, commitment)
        lines = verify_lines(self.bot.manager.specs, hand, result, locale)
        for part in chunks(lines):
            await self.bot.hall.reply(interaction, part)

    @app_commands.command(name=_("quickplay"),
                          description=_("Sit at a waiting table of a game and room, or open one"))
    @app_commands.describe(game=_("The game to play"), room=_("The room: stakes and limits"))
    @app_commands.guild_only()
    async def quickplay(self, interaction: discord.Interaction, game: str, room: str) -> None:
        await self.quick(interaction, game, room)

    async def quick(self, interaction: discord.Interaction, game: str, room: str) -> None:
        """/quickplay and the Quick-match buttons of /table list."""
        assert interaction.guild_id is not None and interaction.channel_id is not None
        locale = user_locale(interaction)
        game, room = game.strip().lower(), room.strip().lower()
        manager = self.bot.manager
        if game not in manager.specs:
            raise HostError("err.unknown_game", game=clip(game, 40), games=", ".join(manager.specs))
        rooms = self.bot.settings.rooms
        if room not in rooms:
            raise HostError("err.unknown_room", room=clip(room, 40), rooms=", ".join(rooms))
        if game not in rooms[room].games:
            raise HostError("err.game_not_in_room", game=game, room=room)
        match = quick_match(self.bot.manager, interaction.guild_id, interaction.channel_id,
                            game, room, interaction.user.id)
        if match is None:  # open one here, with /table create's checks and answers
            tables: Any = self.bot.get_cog("TableCog")
            await tables.create.callback(tables, interaction, game, room)
            return
        await self.bot.manager.join(match.id, interaction.user.id,
                                    interaction.user.display_name, server=interaction.guild_id)
        await self.bot.hall.reply(interaction, t("quick.joined", locale, link=table_link(match)))

    @quickplay.autocomplete("game")
    async def _quick_games(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return game_choices(self.bot.manager.specs, current)

    @quickplay.autocomplete("room")
    async def _quick_rooms(self, interaction: discord.Interaction, current: str
                           ) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=key, value=key) for key in self.bot.settings.rooms
                if current.strip().lower() in key][:25]

    @app_commands.command(name=_("help"), description=_("The hall's commands and games"))
    @app_commands.describe(game=_("A game: its notation and rules"))
    async def help(self, interaction: discord.Interaction, game: str | None = None) -> None:
        locale = user_locale(interaction)
        specs = self.bot.manager.specs
        lines = help_lines(specs, locale)
        if game:
            lines = [*lines[:-1], *rules_lines(specs, game, locale)]
        for part in chunks(lines):
            await self.bot.hall.reply(interaction, part)

    @app_commands.command(name=_("rules"), description=_("A game's notation and rules"))
    @app_commands.describe(game=_("The game"))
    async def rules(self, interaction: discord.Interaction, game: str) -> None:
        locale = user_locale(interaction)
        for part in chunks(rules_lines(self.bot.manager.specs, game, locale)):
            await self.bot.hall.reply(interaction, part)

    @help.autocomplete("game")
    @rules.autocomplete("game")
    async def _games(self, interaction: discord.Interaction, current: str
                     ) -> list[app_commands.Choice[str]]:
        return game_choices(self.bot.manager.specs, current)


async def setup(bot: GameHall) -> None:
    cog = HallExtrasCog(bot)
    await bot.add_cog(cog)
    bot.add_dynamic_items(AgainButton)

    async def watch(interaction: discord.Interaction) -> None:
        await cog.watch(interaction)

    # a subcommand of the table cog's /table group, registered from here
    group = bot.tree.get_command("table")
    assert isinstance(group, app_commands.Group)
    group.add_command(app_commands.Command(
        name=_("watch"), description=_("Follow this channel's table without a seat"),
        callback=watch))
