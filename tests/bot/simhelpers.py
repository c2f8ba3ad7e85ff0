"""What a player does and reads in Discord, written once for the SimCord scenarios."""

from __future__ import annotations

import itertools
import re
from pathlib import Path
from typing import Any

import discord

from bot.client import GameHall, create_bot
from bot.settings import Settings, load_settings
from engines import registry


def table_message(channel: Any) -> discord.Message:
    """The table message: the last message in the channel with the table embed."""
    for message in reversed(channel.history()):
        if message.embeds and message.author.bot:
            return message
    raise AssertionError("no table message in the channel")


def public_text(message: discord.Message) -> str:
    """Everything the table message shows to anyone in the channel."""
    parts = [message.content or ""]
    for embed in message.embeds:
        parts += [embed.title or "", embed.description or "", embed.footer.text or ""]
        for field in embed.fields:
            parts += [field.name, field.value]
    return "\n".join(parts)


def acting_seats(message: discord.Message) -> list[int]:
    """Seat numbers (0-based) marked ▶ on the table message: who must act now."""
    seats = []
    for field in message.embeds[0].fields:
        found = re.match(r"▶ (\d+)\. ", field.name)
        if found:
            seats.append(int(found[1]) - 1)
    return seats


def button_labels(message: discord.Message) -> list[str]:
    return [
        child.label
        for row in message.components
        for child in getattr(row, "children", [])
        if isinstance(child, discord.Button)
    ]


def hint_of(result: Any) -> str:
    """The action in a /hint reply ("Hint: `33`")."""
    found = re.search(r"`([^`]*)`", result.response.content)
    assert found, result.response.content
    return found[1]


def make_bot(settings: Settings) -> GameHall:
    """The hall's bot with repeatable deals."""
    seeds = itertools.count(7)
    return create_bot(settings, seed_source=lambda: next(seeds))


async def play_hand_with_hints(env: Any, channel: Any, members: list[Any], *, limit: int = 300
                               ) -> int:
    """Each player, when the table shows it is their turn, asks /hint and plays it with /play.

    Returns how many actions the players took.
    """
    taken = 0
    for _ in range(limit):
        message = table_message(channel)
        seats = acting_seats(message)
        if not seats:
            return taken
        player = members[seats[0]]
        assert player is not None, "an escaped seat is played by the trustee"
        hint = await player.slash(channel, "hint")
        assert hint.ephemeral
        result = await player.slash(channel, "play", action=hint_of(hint))
        assert result.ephemeral, "answers to a player's action are private"
        assert "❌" not in (result.response.content or ""), result.response.content
        taken += 1
    raise AssertionError("the hand did not finish")


def replay_code(table: Any) -> str | None:
    """The replay code of the table's last hand, as its settlement shows it (None where the
    host gives hands no code)."""
    return (table.last_result or {}).get("code")


async def level_score(bot: GameHall, guild_id: int, uid: int, game: str) -> int:
    """A player's level score in ``game`` in the economy of server ``guild_id``."""
    from storage import levels

    return await levels.score(bot.db, uid, game, **bot.economy_kw(guild_id))


def wallet_of(bot: GameHall, channel: Any) -> Any:
    """The wallet of the economy the channel's server plays in."""
    return bot.wallet_for(channel.guild.id)


def day_long_settings(tmp_path: Path) -> Settings:
    """The shipped configuration in English, with every turn (and the auto-pass) a day long:
    SimCord fires a pending timer once its time has passed in real time too, and long hands
    on a busy machine could otherwise time out in the middle of a scenario. No health line:
    it would be one more timer every simulated minute of a day-long timeout."""
    base = load_settings(environ={"GAMEHALL_DB": str(tmp_path / "x.db")},
                         known_games=registry.specs().keys())
    config = tmp_path / "test.toml"
    days = "\n".join(f"{phase} = 86400" for phase in (*base.timers, "autopass"))
    config.write_text(f'[hall]\nlocale_default = "en-US"\n[metrics]\nhealth_seconds = 0\n'
                      f'[timers]\n{days}\n', encoding="utf-8")
    return load_settings(
        environ={"GAMEHALL_DB": str(tmp_path / "hall.db"), "GAMEHALL_CONFIG": str(config)},
        known_games=registry.specs().keys(),
    )


def dm_of(member: Any) -> discord.Message:
    """The member's latest DM from the bot (their private hand)."""
    message = member.user.dm_channel.last_message
    assert message is not None
    return message


def dm_cards(member: Any) -> str:
    """The cards in bold on the member's latest DM (their hand, in notation)."""
    found = re.search(r"\*\*(.+?)\*\*", dm_of(member).content)
    assert found
    return found[1]
