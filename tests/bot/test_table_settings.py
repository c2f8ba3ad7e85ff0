"""The creator's table settings as players meet them in Discord: /table settings, /table invite."""

from __future__ import annotations

from simhelpers import (  # type: ignore[import-not-found]
    button_labels,
    public_text,
    table_message,
)

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


async def test_the_table_list_offers_quick_match_for_the_tables_you_could_join(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    guild = env.create_guild()
    lobby, hall, side = (guild.create_text_channel(n) for n in ("lobby", "hall", "side"))
    ann, bob, cat, dan = (guild.add_member(env.create_user(n))
                          for n in ("ann", "bob", "cat", "dan"))
    tables = simcord_bot.manager.tables
    empty = await bob.slash(side, "table list")
    assert "No open tables" in empty.response.content
    assert button_labels(empty.response.message) == []
    await ann.slash(lobby, "table create", game="doudizhu", room="novice")
    await cat.slash(hall, "table create", game="doudizhu", room="free")
    await cat.slash(hall, "table settings", private=True)
    listed = await bob.slash(side, "table list")
    labels = button_labels(listed.response.message)
    # cat's private table is listed but offers bob no quick match
    assert len(labels) == 1 and "Quick match" in labels[0] and "novice" in labels[0].lower()
    joined = await bob.click(listed.response.message, label=labels[0])
    assert "You sat down at a waiting table" in joined.response.content
    assert [s.name for s in tables[lobby.id].seats] == ["ann", "bob"]
    # eve looks at the list while one seat is left; dan takes it from his own list
    eve = guild.add_member(env.create_user("eve"))
    stale = (await eve.slash(side, "table list")).response.message
    mine = (await dan.slash(side, "table list")).response.message
    await dan.click(mine, label=button_labels(mine)[0])
    assert [s.name for s in tables[lobby.id].seats] == ["ann", "bob", "dan"]
    # the table is full now: eve's button opens a table of that game and room where she is
    await eve.click(stale, label=labels[0])
    assert tables[side.id].owner == eve.id and tables[side.id].room == "novice"
    again = await bob.click(listed.response.message, label=labels[0])
    assert again.response.content.startswith("❌"), "bob already sits at a table"
