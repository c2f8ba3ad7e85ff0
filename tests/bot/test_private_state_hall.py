"""Private hands follow the seat's private state: each DM is redrawn when what it shows changed,
however the change came (its own buttons, /hand, /play, another seat, a timer), and never
when it did not. Edits are counted on SimCord's own message store."""

from __future__ import annotations

from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from simgames import (  # type: ignore[import-not-found]
    dm_of,
    menu_labels,
    open_table,
    play_by_menus,
    table_now,
    world,
)
from simhelpers import button_labels, day_long_settings  # type: ignore[import-not-found]

from bot.client import GameHall, create_bot
from bot.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return day_long_settings(tmp_path)


@pytest.fixture
def deals() -> list[int]:
    return []


@pytest.fixture
async def simcord_bot(settings: Settings, deals: list[int]) -> AsyncIterator[GameHall]:
    bot = create_bot(settings, seed_source=lambda: deals.pop(0))
    yield bot
    db = getattr(bot, "db", None)
    if db is not None:
        await db.close()


def count_edits(env: Any) -> Counter[int]:
    """message id → edits SimCord stored from here on (REST edits, interaction updates and
    edits through an interaction's token alike)."""
    edits: Counter[int] = Counter()
    backend = env.backend
    original = backend.edit_message

    def edit_message(channel_id: int, message_id: int, fields: dict[str, Any]) -> Any:
        edits[message_id] += 1
        return original(channel_id, message_id, fields)

    backend.edit_message = edit_message
    return edits


async def test_shengji_dm_stops_offering_the_turn_and_the_card_led_from_hand(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """The bug (issue 24): cat buried from her DM and led from /hand; her DM still said "Your
    turn" and still offered the card led, while the others played."""
    env, bot = simcord_env, simcord_bot
    deals.append(57)  # seat 1 (ann) declares the big-joker pair and takes the kitty
    _guild, channel, members = world(env, 4)
    await open_table(channel, members, "shengji")
    await members[0].click(await table_now(bot, channel), label="Start")
    game = bot.manager.tables[channel.id].game
    while game.phase() == "declare":
        seat = game.to_act()[0]
        labels = button_labels(dm_of(members[seat]))
        label = "Declare R R" if "Declare R R" in labels else "Pass"
        await members[seat].user.click(dm_of(members[seat]), label=label)
    assert game.phase() == "bury" and game.to_act() == (0,)
    buried = await play_by_menus(members[0].user, dm_of(members[0]), game.hint(0).split()[1:])
    assert buried.acknowledged and game.phase() == "play"
    assert "Your turn" in dm_of(members[0]).content, "the answer redrew the DM: she leads"

    reply = await members[0].slash(channel, "hand")
    lead = game.hint(0).split()
    played = await play_by_menus(members[0], reply.response.message, lead)
    assert played.acknowledged and game.turn != 0
    dm = dm_of(members[0])
    assert "Your turn" not in dm.content and "Waiting for others" in dm.content
    held = game.view(0).hand.split()
    assert len(held) == 25 - len(lead)
    assert sorted(menu_labels(dm)) in (sorted(held), []), "only the cards she still holds"
    assert "Hint" not in button_labels(dm), "no controls of a turn she no longer has"

    # the next seat's DM now says it is their turn, without a click of theirs
    nxt = game.turn
    await env.settle()
    assert "Your turn" in dm_of(members[nxt]).content


async def test_an_unchanged_dm_is_never_edited_and_a_changed_one_once(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """斗地主, three people: every play changes the round on the table, but a waiting seat's DM
    shows only its own cards, so it is left alone; the DM acted from is redrawn by the answer
    alone, not edited a second time; the seat whose turn comes is edited once."""
    env, bot = simcord_env, simcord_bot
    deals.append(5)
    _guild, channel, members = world(env, 3)
    await open_table(channel, members, "doudizhu")
    await members[0].click(await table_now(bot, channel), label="Start")
    table = bot.manager.tables[channel.id]
    game = table.game
    while game.phase() != "play":
        seat = game.to_act()[0]
        await members[seat].slash(channel, "play", action=game.trustee(seat))
    lead = game.to_act()[0]  # the first lead also ends the "leads first" line of every DM
    await members[lead].slash(channel, "play", action=game.hint(lead))
    await env.settle()
    dms = {seat: int(table.dms[str(seat)]) for seat in range(3)}
    edits = count_edits(env)
    for _ in range(6):  # six plays: by /play, then by the DM's own menu, by turns
        seat = game.to_act()[0]
        before = dict(edits)
        texts = [dm_of(member).content for member in members]
        action = game.hint(seat)
        if len(game.log) % 2 or action == "pass" or not menu_labels(dm_of(members[seat])):
            await members[seat].slash(channel, "play", action=action)
        else:
            done = await play_by_menus(members[seat].user, dm_of(members[seat]), list(action))
            assert done.acknowledged
        await env.settle()
        if game.is_over():
            break
        nxt = game.to_act()[0]
        third = next(s for s in range(3) if s not in (seat, nxt))
        changed = {m: edits[m] - before.get(m, 0) for m in dms.values()}
        assert changed[dms[third]] == 0, "a waiting DM whose cards did not change"
        assert dm_of(members[third]).content == texts[third]
        assert changed[dms[seat]] == 1 and changed[dms[nxt]] == 1, changed
        assert "Your turn" in dm_of(members[nxt]).content
        assert "Your turn" not in dm_of(members[seat]).content


async def test_every_dm_says_the_hand_is_over_once_it_is_settled(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """斗地主, three people playing from /play: the last play settles the hand, and no DM is
    left saying "Your turn" or offering the controls of a hand that is over; each says the
    hand is over and what its seat won or lost."""
    env, bot = simcord_env, simcord_bot
    deals.append(5)
    _guild, channel, members = world(env, 3)
    await open_table(channel, members, "doudizhu")
    await members[0].click(await table_now(bot, channel), label="Start")
    table = bot.manager.tables[channel.id]
    game = table.game
    hand = table.hand_id
    while not game.is_over():
        seat = game.to_act()[0]
        await members[seat].slash(channel, "play", action=game.hint(seat))
    await env.settle()
    result = table.last_result
    assert result is not None and result["hand_id"] == hand
    for index, member in enumerate(members):
        dm = dm_of(member)
        assert "Your turn" not in dm.content and "Waiting for others" not in dm.content
        assert f"#{hand}" in dm.content and "is over" in dm.content, dm.content
        assert not dm.components, "no controls of a hand that is over"
        delta = result["seats"][index]["delta"]
        assert f"{delta:+,}" in dm.content, (delta, dm.content)
