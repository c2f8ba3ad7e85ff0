"""The creator's table settings as players meet them in Discord: /table settings, /table invite."""

from __future__ import annotations

from simhelpers import public_text, table_message  # type: ignore[import-not-found]

from bot.client import GameHall


def world(env, names=("ann", "bob", "cat")):
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    return channel, [guild.add_member(env.create_user(n)) for n in names]


async def test_the_creator_sets_a_longer_timer_and_the_turn_waits_for_it(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    channel, (ann, bob, cat) = world(env)
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    for member in (bob, cat):
        await member.click(table_message(channel), label="Join")
    refused = await bob.slash(channel, "table settings", timer=200)
    assert refused.ephemeral and refused.response.content.startswith("❌")
    assert "creator" in refused.response.content
    too_long = await ann.slash(channel, "table settings", timer=5000)
    assert too_long.response.content.startswith("❌") and "5000" in too_long.response.content
    saved = await ann.slash(channel, "table settings", timer=200)
    assert "200%" in saved.response.content
    assert "200%" in public_text(table_message(channel))
    await ann.click(table_message(channel), label="Start")
    table = simcord_bot.manager.tables[channel.id]
    assert table.game is not None
    normal = simcord_bot.settings.timer(table.game.phase())
    steps = len(table.game.log)
    await env.advance_time(normal + 1)
    assert len(table.game.log) == steps, "the hall's time is not up at this table yet"
    await env.advance_time(normal)
    assert len(table.game.log) > steps, "the doubled time ran out: the trustee acted"
    running = await ann.slash(channel, "table settings", bots=False)
    assert running.response.content.startswith("❌") and table.bots


async def test_a_private_table_without_bots_seats_only_invited_people(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    channel, (ann, bob, cat) = world(env)
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    await ann.slash(channel, "table settings", bots=False, private=True)
    table = simcord_bot.manager.tables[channel.id]
    no_bot = await ann.click(table_message(channel), label="Add bot")
    assert "does not allow bots" in no_bot.response.content
    shut = await bob.click(table_message(channel), label="Join")
    assert shut.response.content.startswith("❌") and "invited" in shut.response.content
    by_guest = await bob.slash(channel, "table invite", member=cat)
    assert by_guest.response.content.startswith("❌")
    invited = await ann.slash(channel, "table invite", member=bob)
    assert "may now sit" in invited.response.content
    await bob.click(table_message(channel), label="Join")
    # quick match passes over a private table for anyone not invited: cat opens a new one
    side = channel.guild.create_text_channel("side")
    await cat.slash(side, "quickplay", game="doudizhu", room="novice")
    assert [s.name for s in table.seats] == ["ann", "bob"]
    assert simcord_bot.manager.tables[side.id].owner == cat.id
