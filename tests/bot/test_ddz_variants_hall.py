"""斗地主's variants in Discord (SimCord): one hand of each, played as people would, with the
beans conserved (Σ balance changes + the rake = 0)."""

from __future__ import annotations

import pytest
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    hint_of,
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


async def test_five_player_hand_hides_the_partner_and_conserves_beans(
    simcord_env, simcord_bot: GameHall
) -> None:
    """五人斗地主: five people play one hand; until the 暗地主 is known the table names one
    landlord only (the hidden one's 亮出身份 is an offer on its own hand), and the beans are
    conserved."""
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in NAMES]
    await members[0].slash(channel, "table create", game="doudizhu_five", room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    await members[0].click(table_message(channel), label="Start")
    game = simcord_bot.manager.tables[channel.id].game
    partner = game.partner
    assert partner is not None, "the seeded deal has a 暗地主"
    hidden_checked = 0
    for _ in range(400):
        message = table_message(channel)
        if game.is_over():
            break
        if partner is not None and not game.known:
            fields = message.embeds[0].fields
            assert "Landlord" in fields[game.landlord].value
            assert "Landlord" not in fields[partner].value
            assert public_text(message).count("Landlord") == 1
            hidden_checked += 1
        seats = acting_seats(message) or list(game.to_act())
        player = members[seats[0]]
        hint = await player.slash(channel, "hint")
        result = await player.slash(channel, "play", action=hint_of(hint))
        assert result.ephemeral and "❌" not in (result.response.content or "")
    assert game.is_over() and hidden_checked
    assert "settled" in public_text(table_message(channel))
    wallet = simcord_bot.manager.wallet_for(guild.id)
    balances = [(await wallet.account(m.id)).balance for m in members]
    house = await wallet.house_balance()
    grant = simcord_bot.settings.starting_grant
    rake = simcord_bot.settings.rooms["novice"].rake
    assert house == 5 * rake
    assert sum(b - grant for b in balances) + house == 0
    assert any(b != grant - rake for b in balances)
