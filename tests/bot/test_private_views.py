"""Private choices in Discord: pickers of several menus, claim windows the table must not reveal,
and table edits that are coalesced without falling behind."""

from __future__ import annotations

from dataclasses import replace

from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    public_text,
    table_message,
)

from bot.client import GameHall


def world(env):  # noqa: ANN001, ANN201
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")]
    return guild, channel, members


async def started(channel, members):  # noqa: ANN001, ANN201
    await members[0].slash(channel, "table create", game="doudizhu", room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    await members[0].click(table_message(channel), label="Start")


def selects(message) -> list:  # noqa: ANN001
    return [child for row in message.components for child in getattr(row, "children", [])
            if child.type.name == "select"]


async def test_picks_from_several_menus_are_played_together(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    _guild, channel, members = world(env)
    await started(channel, members)
    table = simcord_bot.manager.tables[channel.id]
    game = table.game
    while game.picker(game.to_act()[0]) is None:  # bid until someone leads
        seat = game.to_act()[0]
        await members[seat].slash(channel, "play", action=game.trustee(seat))
    seat = game.to_act()[0]
    real = game.picker
    # the same game offering its hand in two menus, as a game with a larger hand does
    game.picker = lambda s: (lambda p: p and replace(
        p, groups=(len(p.tokens) - 7, 7)))(real(s))
    hand = await members[seat].slash(channel, "hand")
    menus = selects(hand.response.message)
    assert len(menus) == 2 and "Play" in button_labels(hand.response.message)
    picker = game.picker(seat)
    lead = game.hint(seat)
    wanted, pool = [], list(enumerate(picker.tokens))
    for card in lead:
        index = next(i for i, token in pool if token[0] == card)
        pool = [(i, tk) for i, tk in pool if i != index]
        wanted.append(index)
    first = len(picker.tokens) - 7
    log = len(game.log)
    empty = await members[seat].click(hand.response.message, label="Play")
    assert empty.response.content.startswith("❌") and len(game.log) == log
    for number, menu in enumerate(menus):
        values = [f"{i}:{picker.tokens[i]}" for i in wanted if (i < first) == (number == 0)]
        if values:
            await members[seat].select(hand.response.message, values,
                                       custom_id=menu.custom_id)
    assert len(game.log) == log, "picking alone plays nothing"
    played = await members[seat].click(hand.response.message, label="Play")
    assert played.acknowledged
    assert game.log[log] == (seat, lead) or sorted(game.log[log][1]) == sorted(lead)


async def test_a_private_claim_window_shows_no_claimant(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    _guild, channel, members = world(env)
    await started(channel, members)
    table = simcord_bot.manager.tables[channel.id]
    game = table.game
    bidder = game.to_act()[0]
    before = button_labels(table_message(channel))
    assert acting_seats(table_message(channel)) == [bidder] and len(before) > 1
    # the same decision as a window the table must not reveal (mahjong's claims after a discard)
    game.public_to_act = lambda: ()
    await simcord_bot.hall.table_changed(table)
    await simcord_bot.hall.flush(table.id)
    shown = table_message(channel)
    assert acting_seats(shown) == [], "no ▶ for a private decision"
    assert button_labels(shown) == ["My hand"], "no public buttons for it"
    assert "<t:" in public_text(shown), "the countdown still runs"
    hand = await members[bidder].slash(channel, "hand")
    assert set(before) - {"My hand"} <= set(button_labels(hand.response.message))
    others = [await members[s].slash(channel, "hand") for s in range(3) if s != bidder]
    for other in others:
        assert not set(before) - {"My hand"} & set(button_labels(other.response.message))


async def test_table_edits_are_coalesced_and_show_the_newest_state(
    simcord_env, simcord_bot: GameHall  # noqa: ANN001
) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    await started(channel, members)
    table = simcord_bot.manager.tables[channel.id]
    game = table.game
    start = len(env.http_requests)
    # three changes arrive while the first edit is still to be made: one edit shows them all
    for _ in range(3):
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
        await simcord_bot.hall.table_changed(table)
    await simcord_bot.hall.flush(table.id)
    edits = [c for c in env.http_requests[start:] if c.method == "PATCH"]
    assert len(edits) == 1
    assert acting_seats(table_message(channel)) == list(game.public_to_act())

