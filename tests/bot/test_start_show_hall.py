"""明牌开始 ×5 in Discord (SimCord): a second Start button on the waiting table, and an Again with
it after a hand; whoever uses it has chosen blind, the table shows their cards and ×5 from the
deal on, and nobody waits for anything."""

from __future__ import annotations

from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    dm_cards,
    dm_of,
    play_hand_with_hints,
    public_text,
    table_message,
    wallet_of,
)

from bot.client import GameHall

START5 = "Open hand before the deal (×5)"
AGAIN5 = f"Again · {START5}"


async def seated(env, game: str = "doudizhu_happy"):
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")]
    await members[0].slash(channel, "table create", game=game, room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    return guild, channel, members


async def test_a_person_starts_with_an_open_hand_and_the_table_shows_it_from_the_deal(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    _, channel, members = await seated(env)
    labels = button_labels(table_message(channel))
    assert "Start" in labels and START5 in labels
    started = env.now()
    clicked = await members[1].click(table_message(channel), label=START5)
    assert clicked.acknowledged and "❌" not in (clicked.response.content or "")
    table = simcord_bot.manager.tables[channel.id]
    assert table.status == "playing" and table.game is not None
    shown = public_text(table_message(channel))
    cards = dm_cards(members[1])
    # bob's whole hand and the ×5 are on the table message before anyone has acted
    assert f"shows {cards} · open hand ×5" in shown and "Multiplier: ×5" in shown
    assert table.game.log == []
    assert acting_seats(table_message(channel)) == [1], "the first 明牌 player calls first"
    for other in (0, 2):  # the others' hands stay hidden
        assert dm_cards(members[other]) not in shown
    # bob has shown already; the others may still show at ×3 from their DMs
    assert not any("Open hand" in label for label in button_labels(dm_of(members[1])))
    assert "Open hand ×3" in button_labels(dm_of(members[0]))
    assert env.now() == started, "nobody waited for anything"
    assert START5 not in button_labels(table_message(channel))


async def test_a_game_without_open_hands_has_one_start_button(
    simcord_env, simcord_bot: GameHall
) -> None:
    _, channel, _ = await seated(simcord_env, game="doudizhu")
    labels = button_labels(table_message(channel))
    assert "Start" in labels and not any("×5" in label for label in labels)


async def test_someone_not_seated_cannot_start_with_an_open_hand(
    simcord_env, simcord_bot: GameHall
) -> None:
    guild, channel, _ = await seated(simcord_env)
    dan = guild.add_member(simcord_env.create_user("dan"))
    refused = await dan.click(table_message(channel), label=START5)
    assert refused.response.content.startswith("❌")
    assert simcord_bot.manager.tables[channel.id].status == "waiting"


async def test_again_with_an_open_hand_deals_it_into_the_next_hand(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    _, channel, members = await seated(env)
    await members[0].click(table_message(channel), label="Start")
    await play_hand_with_hints(env, channel, members)
    table = simcord_bot.manager.tables[channel.id]
    assert AGAIN5 in button_labels(table_message(channel))
    first = await members[2].click(table_message(channel), label=AGAIN5)
    assert "waiting for: ann, bob" in first.response.content
    assert "cat chose for the next hand: Open hand before the deal (×5)" in public_text(
        table_message(channel))
    await members[0].click(table_message(channel), label="Again")
    assert table.status == "waiting"
    last = await members[1].click(table_message(channel), label="Again")
    assert "❌" not in last.response.content and table.status == "playing"
    assert table.game is not None and table.game.setup.starts == ((2, "show 5"),)
    shown = public_text(table_message(channel))
    assert f"shows {dm_cards(members[2])} · open hand ×5" in shown
    assert acting_seats(table_message(channel)) == [2]
    # the rematch held everyone's beans again, as a plain Again does
    wallet = wallet_of(simcord_bot, channel)
    assert all([(await wallet.account(m.id)).held > 0 for m in members])


async def test_table_start_takes_the_start_choice_by_name(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    _, channel, members = await seated(env)
    bad = await members[2].slash(channel, "table start", choice="show 9")
    assert "❌" in bad.response.content
    assert simcord_bot.manager.tables[channel.id].status == "waiting"  # nothing was dealt
    await members[2].slash(channel, "table start", choice="show 5")
    table = simcord_bot.manager.tables[channel.id]
    assert table.status == "playing"
    assert f"shows {dm_cards(members[2])} · open hand ×5" in public_text(table_message(channel))
