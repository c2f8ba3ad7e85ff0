"""王炸跑胡子 at a Discord table, three people acting through SimCord as players would: /hint,
/play and the discard menu, claim buttons in their DMs.

The deal is real (``Setup(seed=...)``); the seed was found offline by playing the engine with
the trustee's choices (what /hint suggests), looking for a 跑 and a forced 啸 or 倾.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    public_text,
    table_message,
)

from bot.client import GameHall, create_bot
from bot.settings import Settings
from engines import registry
from engines.base import Setup
from engines.paohuzi.groups import Kind
from storage import history

NAMES = ("ann", "bob", "cat")

SEED = 4
"""Seat 1 makes a 跑 on a tile on offer; seat 2 makes a 啸 by itself when it draws the third of
a pair; seat 1 wins on seat 3's tile."""


@pytest.fixture
async def simcord_bot(settings: Settings) -> AsyncIterator[GameHall]:
    """The hall's bot dealing every hand from ``SEED``."""
    bot = create_bot(settings, seed_source=lambda: SEED)
    yield bot
    if getattr(bot, "db", None) is not None:
        await bot.db.close()


def dm(member: Any) -> discord.Message:
    message = member.user.dm_channel.last_message
    assert message is not None, f"{member.name} got no DM"
    return message


def action_ids(message: discord.Message) -> list[str]:
    """The game actions a message offers as buttons."""
    return [child.custom_id.split(":", 3)[3]
            for row in message.components for child in getattr(row, "children", [])
            if isinstance(child, discord.Button) and (child.custom_id or "").startswith("gh:a:")]


def menu(message: discord.Message) -> Any:
    found = [child for row in message.components for child in getattr(row, "children", [])
             if isinstance(child, discord.SelectMenu)]
    assert len(found) == 1, "one discard menu"
    return found[0]


async def hint(member: Any, channel: Any) -> str:
    result = await member.slash(channel, "hint")
    assert result.ephemeral
    found = re.search(r"`([^`]*)`", result.response.content)
    assert found, result.response.content
    return found[1]


async def balances(bot: GameHall, channel: Any, members: list[Any]) -> tuple[dict[int, int], int]:
    wallet = bot.wallet_for(channel.guild.id)
    for member in members:
        await wallet.ensure_player(member.id)
    return ({m.id: (await wallet.account(m.id)).balance for m in members},
            await wallet.house_balance())


FORCED = (Kind.WEI, Kind.CHOU_WEI, Kind.QING)
"""啸, 臭啸 and 倾/提: made by the rules, never chosen."""


def forced_groups(game: Any) -> list[int]:
    """How many forced groups each seat has laid down."""
    return [sum(g.kind in FORCED for g in groups) for groups in game.groups]


async def test_three_people_play_a_hand_with_a_pao(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    env, bot = simcord_env, simcord_bot
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in NAMES]
    before = await balances(bot, channel, members)
    await members[0].slash(channel, "table create", game="paohuzi", room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    await members[0].click(table_message(channel), label="Start")
    table = bot.manager.tables[channel.id]
    game = table.game
    forced: list[tuple[int, str]] = []
    paos: list[tuple[int, str]] = []
    discards = 0
    for _ in range(200):
        if table.game is None:
            break
        message = table_message(channel)
        text = public_text(message)
        # the table shows every seat's open groups and open 胡息
        for seat in range(3):
            assert f"Seat {seat + 1}: open 胡息 {game.open_huxi(seat, None)}" in text
            melds = game.melds_text(seat, None)
            if melds:
                assert f"melds {melds}" in text
        groups = forced_groups(game)
        for seat, member in enumerate(members):  # nobody's DM shows another's concealed tiles
            private = dm(member).content
            for other in range(3):
                if other != seat:
                    assert f"**{game.hand_text(other)}**" not in private
                    assert game.hand_text(other) not in private.replace(
                        game.hand_text(seat), "")
        clicked_by: set[int] = set()
        if game.phase() == "claim":
            assert acting_seats(message) == [] and button_labels(message) == ["My hand"]
            assert "Waiting for claims" in text and "<t:" in text
            claimants = [s for s, m in enumerate(members) if action_ids(dm(m))]
            assert claimants == sorted(game.to_act()), "claims only to those who have them"
            for seat in claimants:
                action = await hint(members[seat], channel)
                assert action in action_ids(dm(members[seat]))
                clicked = await members[seat].user.click(
                    dm(members[seat]), custom_id=f"gh:a:{channel.id}:{action}")
                assert "❌" not in (clicked.response.content or ""), clicked.response.content
                clicked_by.add(seat)
                if action == "pao":
                    paos.append((seat, public_text(table_message(channel))))
        else:
            seats = acting_seats(message)
            assert seats == list(game.to_act())
            seat = seats[0]
            action = await hint(members[seat], channel)
            clicked_by.add(seat)
            if action not in ("hu", "pass") and discards % 2 == 0:
                # the discard menu in the DM: the pick discards at once
                picker = menu(dm(members[seat]))
                value = next(o.value for o in picker.options if o.value.endswith(f":{action}"))
                picked = await members[seat].user.select(dm(members[seat]), [value],
                                                         custom_id=picker.custom_id)
                assert "❌" not in (picked.response.content or "")
            else:
                played = await members[seat].slash(channel, "play", action=action)
                assert "❌" not in played.response.content, played.response.content
            discards += action not in ("hu", "pass")
        if table.game is None:
            break
        for seat, count in enumerate(forced_groups(game)):
            if count > groups[seat] and seat not in clicked_by:
                forced.append((seat, public_text(table_message(channel))))
    else:
        raise AssertionError("the hand did not finish")
    assert paos, "a 跑 was made"
    seat, shown = paos[0]
    assert re.search(rf"Seat {seat + 1} 跑 (.)\n", shown), "the table says who made a 跑"
    tile = re.search(rf"Seat {seat + 1} 跑 (.)\n", shown)[1]
    assert re.search(rf"{NAMES[seat]}\n.*melds [^·\n]*{tile * 4}", shown), "the 跑 lies open"
    assert forced, "a forced 啸/倾 happened with nobody clicking"
    seat, shown = forced[0]
    assert re.search(rf"Seat {seat + 1} made a 啸 \(face down\)|Seat {seat + 1}: 倾", shown)
    # the settlement, from the hand as stored
    result = table.last_result
    assert result is not None
    hand = await history.get_hand(bot.db, result["hand_id"])
    assert hand is not None and hand.status == "settled"
    spec = registry.specs()["paohuzi"]
    replay = spec.new(Setup(seats=3, seed=SEED, options=spec.validate({})))
    for who, action in json.loads(hand.record)["log"]:
        replay.apply(who, action)
    assert replay.is_over() and replay.win is not None
    outcome = replay.outcome()
    after = await balances(bot, channel, members)
    room = bot.settings.rooms["novice"]
    rake = after[1] - before[1]
    assert rake == 3 * room.rake
    changes = {m.id: after[0][m.id] - before[0][m.id] for m in members}
    assert sum(changes.values()) + rake == 0, "beans are neither created nor lost"
    final = public_text(table_message(channel))
    moved = dict.fromkeys(range(3), 0)
    assert outcome.transfers
    for transfer in outcome.transfers:
        found = re.search(rf"Seat {transfer.payer + 1} \({NAMES[transfer.payer]}\) → "
                          rf"seat {transfer.payee + 1} \({NAMES[transfer.payee]}\): "
                          rf"{transfer.points} points, (\d+) beans", final)
        assert found, (transfer, final)
        moved[transfer.payer] -= int(found[1])
        moved[transfer.payee] += int(found[1])
    for seat, member in enumerate(members):
        assert changes[member.id] == moved[seat] - room.rake
        assert f"balance {after[0][member.id]}" in final
    assert f"Seat {replay.win.seat + 1} ({NAMES[replay.win.seat]}): +" in final
