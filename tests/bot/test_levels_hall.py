"""托管水平 in Discord: /table addbot level: seats a bot at easy, normal or hard, the table
message shows the level on the bot's seat, and a hand against hard bots plays to the end."""

from __future__ import annotations

from simhelpers import (  # type: ignore[import-not-found]
    play_hand_with_hints,
    public_text,
    table_message,
)

from bot.client import GameHall


async def test_hard_bots_show_their_level_and_play_the_hand_out(
    simcord_env, simcord_bot: GameHall
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("hall")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    added = await ann.slash(channel, "table addbot", level="hard")
    assert added.ephemeral and "❌" not in (added.response.content or "")
    await ann.slash(channel, "table addbot", level="easy")
    shown = public_text(table_message(channel))
    assert "2. Bot 1 (bot, hard)" in shown and "3. Bot 2 (bot, easy)" in shown, shown
    await ann.click(table_message(channel), label="Start")
    await play_hand_with_hints(simcord_env, channel, [ann, None, None])
    assert "settled" in public_text(table_message(channel))


async def test_addbot_without_a_level_seats_a_normal_bot(
    simcord_env, simcord_bot: GameHall
) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("hall")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    await ann.slash(channel, "table addbot")
    assert "2. Bot 1 (bot, normal)" in public_text(table_message(channel))
