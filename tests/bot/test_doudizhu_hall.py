"""A 斗地主 table in Discord, driven through SimCord as players would use it."""

from __future__ import annotations

import re

import discord
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    hint_of,
    make_bot,
    play_hand_with_hints,
    public_text,
    replay_code,
    table_message,
    wallet_of,
)

from bot.client import GameHall


def world(env, n: int = 3, locale: str | None = None):
    guild = env.create_guild(preferred_locale=locale) if locale else env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")[:n]]
    return guild, channel, members


async def seat_three(channel, members, room: str = "novice"):
    ann, bob, cat = members
    created = await ann.slash(channel, "table create", game="doudizhu", room=room)
    assert created.ephemeral
    message = table_message(channel)
    await bob.click(message, label="Join")
    await cat.click(table_message(channel), label="Join")
    return table_message(channel)


async def test_create_join_start_dm_play_settle(simcord_env, simcord_bot: GameHall) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    assert {"Join", "Leave", "Start", "Add bot"} <= set(button_labels(message))
    assert "ann" in public_text(message) and "cat" in public_text(message)
    started = await members[0].click(message, label="Start")
    assert started.acknowledged
    hands = []
    for member in members:
        dm = member.user.dm_channel.last_message
        assert dm is not None and "hand #" in dm.content.lower()
        found = re.search(r"\*\*(.+?)\*\*", dm.content)
        assert found
        hands.append(found[1])
        assert len(found[1].split()) == 17
    shown = public_text(table_message(channel))
    for cards in hands:
        assert cards not in shown, "the table message never shows a hand"
    await play_hand_with_hints(env, channel, members)
    final = public_text(table_message(channel))
    assert "settled" in final
    wallet = wallet_of(simcord_bot, channel)
    balances = [(await wallet.account(m.id)).balance for m in members]
    house = await wallet.house_balance()
    assert sum(balances) + house == 3 * simcord_bot.settings.starting_grant
    assert house == 3 * simcord_bot.settings.rooms["novice"].rake
    for seat, (member, balance) in enumerate(zip(members, balances, strict=True)):
        assert f"Seat {seat + 1} ({member.name}): " in final and f"balance {balance}" in final


async def test_hand_is_private_and_shows_only_your_cards(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    replies = {}
    for seat, member in enumerate(members):
        result = await member.slash(channel, "hand")
        assert result.ephemeral
        replies[seat] = result.response.content
        own = table.game.view(seat).hand
        assert " ".join(own) in result.response.content
    for seat in range(3):
        for other in range(3):
            if other != seat:
                assert " ".join(table.game.view(other).hand) not in replies[seat]
    outsider = _guild.add_member(env.create_user("dan"))
    result = await outsider.slash(channel, "hand")
    assert result.ephemeral and "not seated" in result.response.content


async def test_bids_and_plays_through_buttons_and_the_card_picker(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    # bidding: the bidder clicks a bid button on the table message
    bidder = acting_seats(table_message(channel))[0]
    labels = button_labels(table_message(channel))
    bid_label = next(label for label in labels if "3" in label)
    await members[bidder].click(table_message(channel), label=bid_label)
    assert table.game.phase() != "bid" or len(table.game.log) >= 1
    # play: the landlord opens their private hand and picks cards in the select menu
    for _ in range(40):
        seats = acting_seats(table_message(channel))
        if not seats or table.game is None:
            break
        seat = seats[0]
        hand = await members[seat].slash(channel, "hand")
        assert hand.ephemeral
        picker = table.game.picker(seat)
        if picker is None:
            await members[seat].click(table_message(channel), label=button_labels(
                table_message(channel))[1])
            continue
        hint = table.game.hint(seat)
        if hint == "pass":
            await members[seat].click(hand.response.message, label="Pass")
            continue
        values, pool = [], list(enumerate(picker.tokens))
        for card in hint:  # tokens carry a suit tag so that each card is a distinct value
            index = next(i for i, token in pool if token[0] == card)
            pool = [(i, tk) for i, tk in pool if i != index]
            values.append(f"{index}:{picker.tokens[index]}")
        result = await members[seat].select(hand.response.message, values)
        assert result.acknowledged
    assert len(table.game.log if table.game else [1]) > 0


async def test_bad_input_gets_a_clear_error_and_changes_nothing(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    log = list(table.game.log)
    actor = acting_seats(table_message(channel))[0]
    waiting = next(i for i in range(3) if i != actor)
    before = public_text(table_message(channel))
    result = await members[waiting].slash(channel, "play", action="bid 3")
    assert result.ephemeral and "not your turn" in result.response.content
    result = await members[actor].slash(channel, "play", action="bid 9")
    assert result.ephemeral and result.response.content.startswith("❌")
    result = await members[actor].slash(channel, "play", action="33@@")
    assert result.ephemeral and result.response.content.startswith("❌")
    assert table.game.log == log
    assert public_text(table_message(channel)) == before
    result = await members[0].slash(channel, "table start")
    assert "A hand is in progress" in result.response.content


async def test_timeout_lets_the_trustee_act_and_two_misses_keep_it(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    first = acting_seats(table_message(channel))[0]
    steps = len(table.game.log)
    await env.advance_time(simcord_bot.settings.timer(table.game.phase()) + 1)
    assert len(table.game.log) > steps, "the trustee acted when the time ran out"
    assert table.seats[first].misses == 1 and not table.seats[first].trustee
    # let the clock run until the same seat misses twice
    for _ in range(12):
        if table.game is None or table.seats[first].trustee:
            break
        await env.advance_time(simcord_bot.settings.timer(table.game.phase()) + 1)
    assert table.game is None or table.seats[first].trustee
    if table.game is not None:
        assert "trustee" in public_text(table_message(channel))
        result = await members[first].slash(channel, "trustee off")
        assert result.ephemeral
        assert not table.seats[first].trustee


async def test_leaving_mid_hand_is_an_escape_settled_with_the_penalty(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    hand_id = simcord_bot.manager.tables[channel.id].hand_id
    result = await members[1].slash(channel, "table leave")
    assert result.ephemeral
    assert "escape" in public_text(table_message(channel))
    await play_hand_with_hints(env, channel, [members[0], None, members[2]])
    text = public_text(table_message(channel))
    assert f"Hand #{hand_id} settled" in text
    bob = (await wallet_of(simcord_bot, channel).account(members[1].id))
    assert bob.held == 0 and bob.balance < simcord_bot.settings.starting_grant


async def test_restart_mid_hand_keeps_the_table_and_its_buttons(simcord_env, simcord_bot, settings) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    log = list(table.game.log)
    new_bot = make_bot(settings)
    await env.restart_bot(new_bot)
    resumed = new_bot.manager.tables[channel.id]
    assert resumed.game is not None and resumed.game.log == log
    # a button on the message posted before the restart still works
    actor = acting_seats(table_message(channel))[0]
    labels = button_labels(table_message(channel))
    result = await members[actor].click(table_message(channel), label=labels[-1])
    assert result.acknowledged
    assert len(resumed.game.log) == len(log) + 1 or resumed.game is None
    # the turn timer runs again after the restart
    steps = len(resumed.game.log)
    await env.advance_time(new_bot.settings.timer(resumed.game.phase()) + 1)
    assert resumed.game is None or len(resumed.game.log) > steps
    await play_hand_with_hints(env, channel, members)
    total = sum([(await wallet_of(new_bot, channel).account(m.id)).balance for m in members])
    assert total + await wallet_of(new_bot, channel).house_balance() == 3 * settings.starting_grant


async def test_discord_failures_are_survived(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    # bob's DMs are closed: the table says so and bob plays with /hand
    env.inject_error("POST", "/users/@me/channels", status=403, code=50007,
                     message="Cannot send messages to this user", times=1)
    await members[0].click(message, label="Start")
    assert "use /hand" in public_text(table_message(channel))
    table = simcord_bot.manager.tables[channel.id]
    # the table message edit fails once with a 500: the action still counts, the table goes on
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=500, times=1)
    actor = acting_seats(table_message(channel))[0]
    steps = len(table.game.log)
    hint = await members[actor].slash(channel, "hint")
    await members[actor].slash(channel, "play", action=hint_of(hint))
    assert len(table.game.log) > steps
    await play_hand_with_hints(env, channel, members)
    assert "settled" in public_text(table_message(channel))


async def test_moderators_and_only_moderators_manage(simcord_env, simcord_bot) -> None:
    env = simcord_env
    guild, channel, members = world(env)
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    ann, bob, _cat = members
    wallet = wallet_of(simcord_bot, channel)
    await wallet.ensure_player(bob.id)
    before = (await wallet.account(bob.id)).balance
    refused = await ann.slash(channel, "mod grant", member=bob, amount=500, reason="gift")
    assert refused.ephemeral and "Only moderators" in refused.response.content
    assert (await wallet.account(bob.id)).balance == before
    granted = await boss.slash(channel, "mod grant", member=bob, amount=500, reason="prize")
    assert granted.ephemeral and "500" in granted.response.content
    assert (await wallet.account(bob.id)).balance == before + 500
    row = (await wallet.ledger(bob.id, 1))[0]
    assert row.delta == 500 and row.moderator_id == boss.id
    await boss.slash(channel, "mod revoke", member=bob, amount=200, reason="oops")
    assert (await wallet.account(bob.id)).balance == before + 300
    too_much = await boss.slash(channel, "mod revoke", member=bob, amount=10**9, reason="x")
    assert too_much.response.content.startswith("❌")
    # a role set with /mod role makes its members moderators
    helpers = guild.create_role("Helpers")
    await boss.slash(channel, "mod role", role=helpers)
    helper = guild.add_member(env.create_user("helper"), roles=[helpers])
    frozen = await helper.slash(channel, "mod freeze", member=bob)
    assert "frozen" in frozen.response.content
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    join = await bob.click(table_message(channel), label="Join")
    assert "frozen" in join.response.content
    await helper.slash(channel, "mod unfreeze", member=bob)
    await bob.click(table_message(channel), label="Join")
    assert simcord_bot.manager.tables[channel.id].seat_of(bob.id) == 1
    # kick and close
    kicked = await helper.slash(channel, "mod kick", member=bob)
    assert kicked.ephemeral
    closed = await boss.slash(channel, "mod close")
    assert closed.ephemeral and channel.id not in simcord_bot.manager.tables
    actions = [(row.moderator_id, row.action) for row in await wallet.audit(20)]
    for expected in [(boss.id, "grant"), (boss.id, "revoke"), (boss.id, "mod_role"),
                     (helper.id, "freeze"), (helper.id, "unfreeze"), (helper.id, "kick"),
                     (boss.id, "close_table")]:
        assert expected in actions
    assert "closed" in channel.last_message.content.lower() or "closed" in public_text(
        table_message(channel)).lower()


async def test_wallet_commands_and_replay(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members, room="free")
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    await play_hand_with_hints(env, channel, members)
    beans = await members[0].slash(channel, "beans")
    assert beans.ephemeral and "10000 beans" in beans.response.content
    code = replay_code(table)
    if code is not None:
        replay = await members[1].slash(channel, "replay", code=code)
        assert replay.ephemeral
        assert "was dealt" in replay.response.content and "1. " in replay.response.content
    board = await members[2].slash(channel, "leaderboard", game="doudizhu")
    assert board.ephemeral and "1. " in board.response.content
    daily = await members[0].slash(channel, "daily")
    assert "only for players below" in daily.response.content


async def test_second_create_points_to_the_open_table(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    await members[0].slash(channel, "table create", game="doudizhu", room="free")
    again = await members[1].slash(channel, "table create", game="doudizhu", room="free")
    assert again.ephemeral and "already has a table" in again.response.content
    listed = await members[1].slash(channel, "table list")
    assert f"<#{channel.id}>" in listed.response.content
    elsewhere = _guild.create_text_channel("other")
    nothing = await members[1].slash(elsewhere, "table create", game="chess", room="free")
    assert "Unknown game" in nothing.response.content


async def test_public_table_follows_the_server_locale(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env, locale="zh-CN")
    reply = await members[0].slash(channel, "table create", game="doudizhu", room="free")
    assert "Table opened" in reply.response.content  # the user's locale (en-US) for ephemerals
    text = public_text(table_message(channel))
    assert "斗地主" in text and "等待玩家" in text
    assert "加入" in button_labels(table_message(channel))


async def test_a_table_that_cannot_resume_is_aborted_and_the_channel_told(
    simcord_env, simcord_bot, settings
) -> None:
    import json

    from storage import tables as table_store

    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    assert (await wallet_of(simcord_bot, channel).account(members[0].id)).held > 0
    # the saved hand no longer replays (as if the rules changed under it)
    rows = await table_store.load_tables(simcord_bot.db)
    state = json.loads(rows[0][3])
    state["record"]["log"].append([0, "33@@"])
    await table_store.save_table(simcord_bot.db, channel.id, rows[0][1], channel.id,
                                 json.dumps(state))
    new_bot = make_bot(settings)
    await env.restart_bot(new_bot)
    assert channel.id not in new_bot.manager.tables
    assert "could not resume" in channel.last_message.content
    for member in members:
        account = await wallet_of(new_bot, channel).account(member.id)
        assert account.held == 0 and account.balance == settings.starting_grant
