"""斗地主's variants in Discord (SimCord): one hand of each, played as people would, with the
beans conserved (Σ balance changes + the rake = 0)."""

from __future__ import annotations

import pytest
from simhelpers import (  # type: ignore[import-not-found]
    play_hand_with_hints,
    public_text,
    table_message,
)

from bot.client import GameHall

NAMES = ("ann", "bob", "cat", "dan", "eve")


@pytest.mark.parametrize(
    ("game", "seats", "room"),
    [
        ("doudizhu_2p", 2, "novice"),
        ("doudizhu", 3, "ddz_double"),  # 三人斗地主 (002): the room turns 加倍 on
        ("doudizhu_hot", 3, "novice"),
        ("doudizhu_four", 4, "novice"),
        ("doudizhu_wild", 3, "novice"),
        ("doudizhu_mala", 3, "novice"),
    ],
)
async def test_one_hand_of_each_variant_conserves_beans(
    simcord_env, simcord_bot: GameHall, game: str, seats: int, room: str
) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in NAMES[:seats]]
    created = await members[0].slash(channel, "table create", game=game, room=room)
    assert created.ephemeral
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    await members[0].click(table_message(channel), label="Start")
    wallet = simcord_bot.manager.wallet_for(guild.id)
    await play_hand_with_hints(env, channel, members)
    assert "settled" in public_text(table_message(channel))
    balances = [(await wallet.account(m.id)).balance for m in members]
    house = await wallet.house_balance()
    grant = simcord_bot.settings.starting_grant
    rake = simcord_bot.settings.rooms[room].rake
    assert house == seats * rake
    assert sum(b - grant for b in balances) + house == 0
    assert any(b != grant - rake for b in balances), "the hand moved beans between the seats"
