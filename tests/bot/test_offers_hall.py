"""Offers in Discord (SimCord): 欢乐斗地主's 明牌 is a button on the private hand that nobody has
to answer; the 记牌器 line in the DM where the room offers it; refusals of how an action was
written point to /help game."""

from __future__ import annotations

import re

from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    dm_cards,
    dm_of,
    hint_of,
    public_text,
    table_message,
)

from bot.client import GameHall


async def happy_table(env, room: str = "novice"):
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")]
    await members[0].slash(channel, "table create", game="doudizhu_happy", room=room)
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    await members[0].click(table_message(channel), label="Start")
    return channel, members


async def test_nobody_clicks_open_hand_and_the_first_play_waits_for_no_timer(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    channel, members = await happy_table(env)
    started = env.now()
    table = simcord_bot.manager.tables[channel.id]
    # every DM offers 明牌 as a button, and the table is already calling the landlord
    for member in members:
        assert "Open hand ×3" in button_labels(dm_of(member))
        assert "show 3" in dm_of(member).content
    assert "Keep closed" not in button_labels(table_message(channel))
    for _ in range(40):  # people answer what the rules require, never the offer
        seats = acting_seats(table_message(channel))
        assert seats, "the table waits on nobody"
        player = members[seats[0]]
        if table.game.phase() == "play":
            hint = await player.slash(channel, "hint")
            result = await player.slash(channel, "play", action=hint_of(hint))
            assert "❌" not in result.response.content
            break
        hint = await player.slash(channel, "hint")
        await player.slash(channel, "play", action=hint_of(hint))
    else:
        raise AssertionError("no card was played")
    assert env.now() == started  # no 明牌 window was waited out
    assert not any(a.startswith("show") for _, a in table.game.log)
    assert all(not seat.trustee for seat in table.seats)


async def test_one_person_opens_their_hand_from_the_dm_and_the_table_shows_it(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    channel, members = await happy_table(env)
    table = simcord_bot.manager.tables[channel.id]
    acting = acting_seats(table_message(channel))
    shower = next(i for i in range(3) if i not in acting)  # not their turn
    cards = dm_cards(members[shower])
    assert cards not in public_text(table_message(channel))
    result = await members[shower].user.click(dm_of(members[shower]), label="Open hand ×3")
    assert result.acknowledged
    shown = public_text(table_message(channel))
    assert f"shows {cards} · open hand ×3" in shown and "Multiplier: ×3" in shown
    assert acting_seats(table_message(channel)) == acting  # nobody's turn moved
    assert "Open hand ×3" not in button_labels(dm_of(members[shower]))
    # the same click again (a stale button): refused with what is open now, nothing changes
    log = list(table.game.log)
    again = await members[shower].user.click(dm_of(members[shower]), label="Refresh")
    assert again.acknowledged
    stale = await members[shower].slash(channel, "play", action="show 3")
    assert stale.ephemeral and "no longer on offer" in stale.response.content
    assert table.game.log == log


async def test_the_card_counter_is_in_the_dm_in_a_free_room_only(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    channel, members = await happy_table(env, room="free")
    table = simcord_bot.manager.tables[channel.id]
    for seat, member in enumerate(members):
        # on the seat's turn: the counter changes with every play, so a waiting DM leaves it
        # to /hand (README, "How private hands refresh")
        lines = [x for x in dm_of(member).content.splitlines() if "Card counter" in x]
        if seat not in table.game.to_act():
            assert lines == []
            continue
        assert re.search(r"R×[01] B×[01] 2×[0-4] .* 3×[0-4]", lines[0])
    assert "Card counter" not in public_text(table_message(channel))
    hand = await members[0].slash(channel, "hand")
    assert "Card counter" in hand.response.content
    other_env_channel, others = await happy_table_elsewhere(env)
    for member in others:  # a bean room: the 记牌器 is off unless the room turns it on
        assert "Card counter" not in dm_of(member).content
    assert "Card counter" not in public_text(table_message(other_env_channel))


async def happy_table_elsewhere(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in ("dan", "eve", "fay")]
    await members[0].slash(channel, "table create", game="doudizhu_happy", room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    await members[0].click(table_message(channel), label="Start")
    return channel, members


async def test_a_badly_written_play_points_to_the_games_notation_help(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    channel, members = await happy_table(env)
    actor = members[acting_seats(table_message(channel))[0]]
    written = await actor.slash(channel, "play", action="33x")  # not an action of 叫地主
    assert written.ephemeral and "/help game:doudizhu_happy" in written.response.content
    other = members[next(i for i in range(3) if i not in acting_seats(table_message(channel)))]
    turn = await other.slash(channel, "play", action="call")  # a rule, not the notation
    assert "/help" not in turn.response.content
