"""Around the tables, as players meet it in Discord: checking a fair shuffle with /verify."""

from __future__ import annotations

import hashlib
import json
import re
import sqlite3

from simhelpers import (  # type: ignore[import-not-found]
    play_hand_with_hints,
    public_text,
    replay_code,
    table_message,
)

from bot.client import GameHall


def world(env, n: int = 3):
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")[:n]]
    return guild, channel, members


async def seat_three(channel, members, game: str = "doudizhu", room: str = "novice"):
    await members[0].slash(channel, "table create", game=game, room=room)
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    return table_message(channel)


async def test_the_deal_commits_to_the_seed_the_settlement_reveals_and_verify_agrees(
    simcord_env, simcord_bot: GameHall
) -> None:
    _, channel, members = world(simcord_env)
    await members[0].click(await seat_three(channel, members), label="Start")
    shown = public_text(table_message(channel))
    found = re.search(r"SHA-256[^:]*: ([0-9a-f]{64})", shown)
    assert found, shown
    promised = found[1]
    table = simcord_bot.manager.tables[channel.id]
    await play_hand_with_hints(simcord_env, channel, members)
    settled = public_text(table_message(channel))
    seed = re.search(r"seed `(\d+)`", settled)
    assert seed, settled
    assert hashlib.sha256(seed[1].encode()).hexdigest() == promised
    code = replay_code(table)
    assert code
    answer = await members[1].slash(channel, "verify", code=code, commitment=promised)
    assert answer.ephemeral
    text = answer.response.content
    assert promised in text and "✅ It equals the commitment" in text
    assert "✅ Every recorded action replays" in text
    # the re-dealt cards are the ones the table dealt: each player's first DM showed them
    wrong = await members[1].slash(channel, "verify", code=code, commitment="f" * 64)
    assert "❌ It differs" in wrong.response.content


async def test_a_tampered_seed_fails_verification(simcord_env, simcord_bot: GameHall) -> None:
    _, channel, members = world(simcord_env)
    await members[0].click(await seat_three(channel, members), label="Start")
    promised = re.search(r"([0-9a-f]{64})", public_text(table_message(channel)))
    assert promised
    await play_hand_with_hints(simcord_env, channel, members)
    table = simcord_bot.manager.tables[channel.id]
    code = replay_code(table)
    hand_id = table.last_result["hand_id"]

    def tamper(conn: sqlite3.Connection) -> None:
        (text,) = conn.execute("SELECT record FROM hands WHERE id = ?", (hand_id,)).fetchone()
        record = json.loads(text)
        record["setup"]["seed"] += 1
        conn.execute("UPDATE hands SET record = ? WHERE id = ?", (json.dumps(record), hand_id))

    await simcord_bot.db.run(tamper)
    answer = await members[0].slash(channel, "verify", code=code, commitment=promised[1])
    text = answer.response.content
    assert "❌ It differs" in text and "❌ The record does not replay" in text
    assert "✅" not in text


async def test_verify_keeps_a_running_hand_secret_and_names_a_bad_commitment(
    simcord_env, simcord_bot: GameHall
) -> None:
    _, channel, members = world(simcord_env)
    await members[0].click(await seat_three(channel, members), label="Start")
    table = simcord_bot.manager.tables[channel.id]
    from storage import history

    code = await history.hand_code(simcord_bot.db, table.hand_id)
    early = await members[0].slash(channel, "verify", code=code)
    assert early.response.content.startswith("❌") and "has not finished" in (
        early.response.content)
    assert "seed" not in early.response.content.lower()
    await play_hand_with_hints(simcord_env, channel, members)
    bad = await members[0].slash(channel, "verify", code=code, commitment="abc")
    assert bad.response.content.startswith("❌") and "`abc` is not a commitment" in (
        bad.response.content)
