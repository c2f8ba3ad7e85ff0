"""The bot starts (``setup_hook``) with a damaged saved table in its database (issue 23): the
damaged table is closed and its own channel told, the healthy table resumes with its buttons,
nobody's beans stay held."""

from __future__ import annotations

import json

import pytest
from simhelpers import (  # type: ignore[import-not-found]
    button_labels,
    make_bot,
    play_hand_with_hints,
    public_text,
    table_message,
    wallet_of,
)

from storage import tables as table_store


async def seat_three(channel, members):
    await members[0].slash(channel, "table create", game="doudizhu", room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    await members[0].click(table_message(channel), label="Start")


@pytest.mark.parametrize("damage", ["seat uid past 2^63", "id flipped to the neighbour's"])
async def test_the_bot_starts_with_a_damaged_row_and_the_healthy_table_plays_on(
    simcord_env, simcord_bot, settings, damage: str
) -> None:
    env = simcord_env
    guild = env.create_guild()
    damaged, healthy = guild.create_text_channel("one"), guild.create_text_channel("two")
    names = ("ann", "bob", "cat", "dan", "eve", "fay")
    people = [guild.add_member(env.create_user(name)) for name in names]
    await seat_three(damaged, people[:3])
    await seat_three(healthy, people[3:])
    healthy_log = list(simcord_bot.manager.tables[healthy.id].game.log)
    healthy_text = public_text(table_message(healthy))
    # a disk fault flips a bit of the damaged table's saved row
    rows = {t: s for t, _g, _c, s in await table_store.load_tables(simcord_bot.db)}
    state = json.loads(rows[damaged.id])
    if damage == "seat uid past 2^63":
        state["seats"][1]["uid"] = 2**63 + people[1].id
    else:
        state["id"] = healthy.id
    await simcord_bot.db.execute("UPDATE tables SET state = ? WHERE id = ?",
                                 (json.dumps(state), damaged.id))

    new_bot = make_bot(settings)
    await env.restart_bot(new_bot)  # setup_hook restores; it must not raise

    assert damaged.id not in new_bot.manager.tables
    assert "could not resume" in damaged.last_message.content, "the damaged table's channel"
    assert "could not resume" not in healthy.last_message.content
    resumed = new_bot.manager.tables[healthy.id]
    assert resumed.game is not None and resumed.game.log == healthy_log
    assert public_text(table_message(healthy)) == healthy_text
    for member in people[:3]:
        account = await wallet_of(new_bot, damaged).account(member.id)
        assert account.held == 0 and account.balance == settings.starting_grant
    assert "Join" not in button_labels(table_message(healthy))
    await play_hand_with_hints(env, healthy, people[3:])
    assert "settled" in public_text(table_message(healthy))
