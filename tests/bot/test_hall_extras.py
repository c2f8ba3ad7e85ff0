"""Around the tables, as players meet it in Discord: checking a fair shuffle with /verify."""

from __future__ import annotations

import hashlib
import json
import re

from simhelpers import (  # type: ignore[import-not-found]
    button_labels,
    play_hand_with_hints,
    public_text,
    replay_code,
    table_message,
    wallet_of,
)

from bot.client import GameHall
from bot.render.text import cards
from storage.db import Connection


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

    async def tamper(conn: Connection) -> None:
        rows = await conn.execute("SELECT record FROM hands WHERE id = ?", (hand_id,))
        record = json.loads(rows.fetchone()[0])
        record["setup"]["seed"] += 1
        await conn.execute(
            "UPDATE hands SET record = ? WHERE id = ?", (json.dumps(record), hand_id)
        )

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


# --- /help and /rules ----------------------------------------------------------------------
async def test_help_lists_the_commands_and_every_game(simcord_env, simcord_bot: GameHall) -> None:
    _, channel, members = world(simcord_env, 1)
    answer = await members[0].slash(channel, "help")
    assert answer.ephemeral
    text = "\n".join(m.content for m in [answer.response, *answer.followups])
    assert "/table create" in text and "/play" in text and "/verify" in text
    for key, spec in simcord_bot.manager.specs.items():
        assert f"`{key}` {spec.name_en}" in text


async def test_rules_show_the_notation_with_examples_and_the_rules_page(
    simcord_env, simcord_bot: GameHall
) -> None:
    _, channel, members = world(simcord_env, 1)
    answer = await members[0].slash(channel, "rules", game="doudizhu")
    text = "\n".join(m.content for m in [answer.response, *answer.followups])
    assert "`bid 1`" in text, text  # the bidding step of the hand, in /play's notation
    assert "`BR` = the rocket" in text  # the rules page's notation section
    assert "docs/games/doudizhu.md" in text
    mahjong = await members[0].slash(channel, "help", game="sichuan")
    text = "\n".join(m.content for m in [mahjong.response, *mahjong.followups])
    assert "/table create" in text and "`que m`" in text and "docs/games/mahjong.md" in text
    unknown = await members[0].slash(channel, "rules", game="poker")
    assert unknown.response.content.startswith("❌") and "`poker`" in unknown.response.content


def test_every_game_has_examples_a_rules_page_and_answers_that_fit_discord() -> None:
    from pathlib import Path

    from bot.cogs.hall_extras import help_lines, rules_lines
    from bot.cogs.wallet import chunks
    from engines import registry

    root = Path(__file__).resolve().parents[2]
    specs = registry.specs()
    for locale in ("zh-CN", "en-US"):
        assert all(len(part) <= 2000 for part in chunks(help_lines(specs, locale)))
        for key, spec in specs.items():
            lines = rules_lines(specs, key, locale)
            path = re.search(r"`(docs/games/\w+\.md)`", lines[-1])
            assert path and (root / path[1]).is_file(), (key, lines[-1])
            assert any("`" in line for line in lines[1:-1]), (key, "no notation example")
            assert all(len(part) <= 2000 for part in chunks(lines))
            assert (spec.name_zh if locale == "zh-CN" else spec.name_en) in lines[0]
    assert "记法" in "\n".join(rules_lines(specs, "gomoku", "zh-CN"))


# --- spectators ----------------------------------------------------------------------------
async def test_a_spectator_sees_the_public_table_and_never_a_hidden_card(
    simcord_env, simcord_bot: GameHall
) -> None:
    guild, channel, members = world(simcord_env)
    await members[0].click(await seat_three(channel, members), label="Start")
    table = simcord_bot.manager.tables[channel.id]
    assert table.game is not None
    dan = guild.add_member(simcord_env.create_user("dan"))
    answer = await dan.slash(channel, "table watch")
    assert answer.ephemeral
    content = answer.response.content
    assert "You are watching" in content and "dan" in content
    shown = answer.response.embeds[0]
    snapshot = "\n".join([shown.title or "", shown.description or "", shown.footer.text or "",
                          *(f"{f.name}\n{f.value}" for f in shown.fields)])
    for seat in range(3):
        hidden = table.game.view(seat).hand
        assert hidden and cards(hidden) not in snapshot and hidden not in snapshot
    # the snapshot is the table message everyone sees, which now lists the watcher
    public = table_message(channel).embeds[0]
    assert [f.value for f in shown.fields] == [f.value for f in public.fields]
    assert "👀 dan is watching." in public_text(table_message(channel))
    # the spectator has no seat: no private hand, no actions
    hand = await dan.slash(channel, "hand")
    assert hand.response.content.startswith("❌")
    again = await dan.slash(channel, "table watch")
    assert public_text(table_message(channel)).count("dan is watching") == 1
    assert "Watching: dan" in again.response.content
    seated = await members[1].slash(channel, "table watch")
    assert seated.response.content.startswith("❌") and "/hand" in seated.response.content


# --- quick match ---------------------------------------------------------------------------
async def test_quickplay_seats_you_at_a_waiting_table_or_opens_one_here(
    simcord_env, simcord_bot: GameHall
) -> None:
    env = simcord_env
    guild = env.create_guild()
    lobby, hall, side = (guild.create_text_channel(n) for n in ("lobby", "hall", "side"))
    ann, bob, cat, dan, eve = (guild.add_member(env.create_user(n))
                               for n in ("ann", "bob", "cat", "dan", "eve"))
    tables = simcord_bot.manager.tables
    await ann.slash(lobby, "table create", game="doudizhu", room="novice")
    joined = await bob.slash(hall, "quickplay", game="doudizhu", room="novice")
    assert joined.ephemeral and "You sat down at a waiting table" in joined.response.content
    assert [s.name for s in tables[lobby.id].seats] == ["ann", "bob"]
    assert "bob sat down." in public_text(table_message(lobby))
    # another room is another match: none waits, so one opens in this channel
    opened = await cat.slash(hall, "quickplay", game="doudizhu", room="free")
    assert "❌" not in opened.response.content
    assert tables[hall.id].room == "free" and [s.name for s in tables[hall.id].seats] == ["cat"]
    await dan.slash(side, "quickplay", game="doudizhu", room="novice")
    assert [s.name for s in tables[lobby.id].seats] == ["ann", "bob", "dan"]
    # the table is full now: the next player opens a table in their own channel
    await eve.slash(side, "quickplay", game="doudizhu", room="novice")
    assert tables[side.id].owner == eve.id and tables[side.id].room == "novice"
    # a player already at a table is told where, and nothing moves
    again = await bob.slash(side, "quickplay", game="doudizhu", room="novice")
    assert again.response.content.startswith("❌")
    assert [s.name for s in tables[side.id].seats] == ["eve"]
    unknown = await eve.slash(lobby, "quickplay", game="poker", room="novice")
    assert unknown.response.content.startswith("❌") and "poker" in unknown.response.content
    wrong_room = await eve.slash(lobby, "quickplay", game="doudizhu", room="renju_free")
    assert wrong_room.response.content.startswith("❌") and "renju_free" in (
        wrong_room.response.content)


# --- rematch -------------------------------------------------------------------------------
async def test_again_keeps_the_seats_and_deals_when_everyone_confirms_with_beans_held(
    simcord_env, simcord_bot: GameHall
) -> None:
    guild, channel, members = world(simcord_env)
    message = await seat_three(channel, members)
    assert "Again" not in button_labels(message), "no hand to play again yet"
    await members[0].click(message, label="Start")
    await play_hand_with_hints(simcord_env, channel, members)
    table = simcord_bot.manager.tables[channel.id]
    first_hand = table.last_result["hand_id"]
    wallet = wallet_of(simcord_bot, channel)
    assert "Again" in button_labels(table_message(channel))
    dan = guild.add_member(simcord_env.create_user("dan"))
    stranger = await dan.click(table_message(channel), label="Again")
    assert stranger.response.content.startswith("❌")
    first = await members[0].click(table_message(channel), label="Again")
    assert "waiting for: bob, cat" in first.response.content
    await members[0].click(table_message(channel), label="Again")  # twice counts once
    await members[1].click(table_message(channel), label="Again")
    assert table.status == "waiting"
    assert "bob wants another hand (2/3)." in public_text(table_message(channel))
    assert [(await wallet.account(m.id)).held for m in members] == [0, 0, 0]
    last = await members[2].click(table_message(channel), label="Again")
    assert "❌" not in last.response.content
    assert table.status == "playing" and table.hand_id not in (None, first_hand)
    assert [s.uid for s in table.seats] == [m.id for m in members], "the same seats"
    # the normal Start path held each person's beans again for the new hand
    assert all([(await wallet.account(m.id)).held > 0 for m in members])
