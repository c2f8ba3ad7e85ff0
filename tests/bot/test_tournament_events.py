"""比赛 scenarios through Discord, played to the end: a sit-and-go of nine at 斗地主 with the
standings message checked after every hand, a scheduled 血战 event started by the clock with a
no-show and a bot restart in the middle of a round, a Swiss 五子棋 event of six. Players hand
their seats to the trustee (/trustee on) as their DM tells them where they sit, so the hands
play out quickly; the no-show never does, and the table's timers hand their seat over."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
import pytest
from simhelpers import make_bot

from bot.client import GameHall
from bot.settings import Settings, load_settings
from bot.tournament import formats
from engines import registry
from storage import tournaments as store

TURN = 600
"""Seconds of every turn here: long enough that no timer fires by itself while a scenario
runs, short enough that the no-show's turns pass with a few ``advance_time`` steps (the
scheduled events' clock ticks every 30 s in between)."""


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    base = load_settings(environ={"GAMEHALL_DB": str(tmp_path / "x.db")},
                         known_games=registry.specs().keys())
    config = tmp_path / "test.toml"
    turns = "\n".join(f"{phase} = {TURN}" for phase in (*base.timers, "autopass"))
    config.write_text(f'[hall]\nlocale_default = "en-US"\n[metrics]\nhealth_seconds = 0\n'
                      f'[timers]\n{turns}\n', encoding="utf-8")
    return load_settings(
        environ={"GAMEHALL_DB": str(tmp_path / "hall.db"), "GAMEHALL_CONFIG": str(config)},
        known_games=registry.specs().keys())


SEAT_DM = re.compile(r"Event (\d+), round (\d+): you sit at <#(\d+)>, seat (\d+)\.")
SEAT_DM_ZH = re.compile(r"比赛 (\d+) 第 (\d+) 轮：你在 <#(\d+)> 第 (\d+) 座。")
STANDING = re.compile(r"(\d+)\. (\S+) — (-?\d+)")


def hall(env: Any, names: list[str]) -> tuple[Any, Any, list[Any], Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("events")
    members = [guild.add_member(env.create_user(name)) for name in names]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    return guild, channel, members, boss


def seat_dms(member: Any) -> dict[int, tuple[int, int]]:
    """round → (table, seat) as the player's DMs told them."""
    found = {}
    for message in member.user.dm_channel.history():
        match = SEAT_DM.search(message.content or "") or SEAT_DM_ZH.search(message.content or "")
        if match:
            found[int(match[2])] = (int(match[3]), int(match[4]))
    return found


def standings_messages(channel: Any) -> list[discord.Message]:
    return [m for m in channel.history() if m.author.bot
            and (m.content or "").startswith("Event ") and " standings " in m.content]


def shown_standings(message: discord.Message) -> list[tuple[int, str, int]]:
    return [(int(p), name, int(c)) for p, name, c in STANDING.findall(message.content)]


def places(chips: dict[str, int], finalists: set[str] | None = None
           ) -> list[tuple[int, str, int]]:
    """Standings as a player works them out: most chips first, equal chips share a place;
    once the final table is seated, those left out of it rank below every finalist."""
    def group(name: str) -> int:
        return 0 if finalists is None or name in finalists else 1

    ordered = sorted(chips.items(), key=lambda i: (group(i[0]), -i[1]))
    rows, place = [], 0
    for n, (name, value) in enumerate(ordered):
        if n == 0 or (group(name), value) != (group(ordered[n - 1][0]), ordered[n - 1][1]):
            place = n + 1
        rows.append((place, name, value))
    return rows


async def table_points(bot: GameHall, table_id: int) -> dict[int, int]:
    """A table's settled hand as the hall recorded it (the hand history): uid → points."""
    hands = await store.hands_at(bot.db, table_id)
    settled = [r for _, status, r in hands if status == "settled"]
    assert len(settled) == 1, hands
    return {r["uid"]: r["points"] for r in settled[0] if r["uid"] is not None}


async def test_a_sit_and_go_of_nine_plays_to_the_final_table_hand_by_hand(
        simcord_env, simcord_bot: GameHall) -> None:
    env = simcord_env
    names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy"]
    guild, channel, members, boss = hall(env, names)
    by_id = {m.id: m for m in members}
    made = await boss.slash(channel, "tournament create", game="doudizhu", format="sitngo",
                            size=9, rounds=3, fee=100, rake=10)
    assert "Event 1 created" in made.response.content
    wallet = simcord_bot.wallet_for(guild.id)
    for member in members:
        await wallet.ensure_player(member.id)
    before = sum([(await wallet.account(m.id)).balance for m in members])
    for member in members:
        await member.slash(channel, "tournament join", event=1)
    chips = {name: formats.START_CHIPS for name in names}
    hands = 0
    finalists: set[str] | None = None
    for round_no, seated in ((1, 9), (2, 9), (3, 3)):
        sitting = {m.id: seat_dms(m)[round_no] for m in members if round_no in seat_dms(m)}
        assert len(sitting) == seated, f"round {round_no}: {len(sitting)} told where to sit"
        tables: dict[int, list[int]] = {}
        for uid, (table, _seat) in sitting.items():
            tables.setdefault(table, []).append(uid)
        assert all(len(p) == 3 for p in tables.values())
        if round_no > 1:  # seated by standings: the leaders together at the first table
            ranked = [name for _, name, _ in places(chips)]
            first = min(tables, key=lambda t: min(ranked.index(by_id[u].name)
                                                  for u in tables[t]))
            assert sorted(by_id[u].name for u in tables[first]) == sorted(ranked[:3])
        for n, (table, uids) in enumerate(sorted(tables.items()), start=1):
            for uid in uids:
                answer = await by_id[uid].slash(channel, "trustee on")
                assert "❌" not in (answer.response.content or "")
            hands += 1
            for uid, points in (await table_points(simcord_bot, table)).items():
                chips[by_id[uid].name] += points
            if round_no == 2 and n == len(tables):  # the final table: the top three
                finalists = {m.name for m in members if 3 in seat_dms(m)}
                assert finalists == {name for _, name, _ in places(chips)[:3]}
            # the one standings message, edited after this hand, shows every player's chips
            kept = standings_messages(channel)
            assert len(kept) == 1, [m.content for m in kept]
            # the last hand of a round seats the next one at once
            shown_round = round_no + 1 if n == len(tables) and round_no < 3 else round_no
            assert f"(round {shown_round})" in kept[0].content
            assert shown_standings(kept[0]) == places(chips, finalists), (hands, kept[0].content)
    assert hands == 7  # 3 + 3 tables, then the final table
    over = [m.content for m in channel.history() if "Event 1 is over" in (m.content or "")]
    assert len(over) == 1
    paid = sum([(await wallet.account(m.id)).balance for m in members])
    assert before - paid == 900 * 10 // 100  # the rake; every other bean went to the prizes
    assert sum(chips.values()) == 9 * formats.START_CHIPS


async def hand_over(channel: Any, members: list[Any], done: set[tuple[int, int]]) -> None:
    """Each present player told of a new seat hands it to the trustee."""
    for member in members:
        for round_no in seat_dms(member):
            if (member.id, round_no) not in done:
                done.add((member.id, round_no))
                answer = await member.slash(channel, "trustee on")
                assert "❌" not in (answer.response.content or ""), answer.response.content


async def test_a_scheduled_xuezhan_starts_on_time_and_survives_a_restart_with_a_no_show(
        simcord_env, simcord_bot: GameHall, settings: Settings) -> None:
    env = simcord_env
    guild, channel, members, boss = hall(env, ["nat", "ann", "bob", "cat", "dan"])
    no_show, present = members[0], members[1:]
    made = await boss.slash(channel, "tournament create", game="xuezhan", format="scheduled",
                            size=8, rounds=2, fee=200, start_in=2)
    assert "Event 1 created" in made.response.content
    wallet = simcord_bot.wallet_for(guild.id)
    for member in members:
        await wallet.ensure_player(member.id)
    before = sum([(await wallet.account(m.id)).balance for m in members])
    for member in members:
        await member.slash(channel, "tournament join", event=1)
    await env.advance_time(60)
    listed = await boss.slash(channel, "tournament list")
    assert "#1 xuezhan · scheduled · 5/8 · open" in listed.response.content
    await env.advance_time(61)  # the start: registration closes, round 1 is seated
    late = await guild.add_member(env.create_user("zed")).slash(channel, "tournament join",
                                                                  event=1)
    assert "no longer takes registrations" in late.response.content
    seats = {m.name: seat_dms(m).get(1) for m in members}
    assert all(seats.values()), seats
    tables = {table for table, _ in seats.values()}
    assert len(tables) == 2  # four at one table, one with three bots at the other
    done: set[tuple[int, int]] = set()
    await hand_over(channel, present, done)
    # the table without the no-show is over; the no-show's table waits for their turn
    runner = simcord_bot.tournaments
    state = runner.states[1]
    waiting = [int(t) for t, e in state["tables"].items() if not e["done"]]
    assert waiting == [seats["nat"][0]]
    standing = standings_messages(channel)
    assert len(standing) == 1
    # the bot restarts in the middle of the round
    new_bot = make_bot(settings)
    await env.restart_bot(new_bot)
    assert new_bot.tournaments.states[1]["round"] == 1
    for _ in range(40):
        if 1 not in new_bot.tournaments.states:
            break
        await env.advance_time(TURN + 1)  # the no-show's turn passes; twice: the trustee
        await hand_over(channel, present, done)
    event = await new_bot.tournaments.store(guild.id).get(1)
    assert event.status is store.Status.FINISHED
    assert [h["round"] for h in event.state["hands"]] == [1, 1, 2, 2]
    # the no-show's seat was played to the end of both their hands
    for hand in event.state["hands"]:
        assert len(hand["points"]) == 4
    assert {u for h in event.state["hands"] for u, _ in h["points"]} >= {no_show.id}
    # one standings message all along, restart included; the end announced once
    assert [m.id for m in standings_messages(channel)] == [standing[0].id]
    assert len([m for m in channel.history() if "Event 1 is over" in (m.content or "")]) == 1
    new_wallet = new_bot.wallet_for(guild.id)
    after = sum([(await new_wallet.account(m.id)).balance for m in members])
    assert before - after == event.result["house"]  # prizes + the house = the pool exactly
    assert [(await new_wallet.account(m.id)).held for m in members] == [0] * 5


async def test_a_swiss_gomoku_event_of_six_never_pairs_anyone_twice(
        simcord_env, simcord_bot: GameHall) -> None:
    env = simcord_env
    _guild, channel, members, boss = hall(env, ["ann", "bob", "cat", "dan", "eve", "fay"])
    made = await boss.slash(channel, "tournament create", game="gomoku", format="swiss",
                            size=6, rounds=5)
    assert "Event 1 created" in made.response.content
    too_many = await boss.slash(channel, "tournament create", game="gomoku", format="swiss",
                                size=6, rounds=6)
    assert "at most the field less one rounds (5)" in too_many.response.content
    for member in members:
        await member.slash(channel, "tournament join", event=1)
    done: set[tuple[int, int]] = set()
    for _ in range(5):
        await hand_over(channel, members, done)
    # what each player was told: one opponent a round, never the same one twice
    met: dict[str, list[str]] = {m.name: [] for m in members}
    for round_no in range(1, 6):
        tables: dict[int, list[str]] = {}
        for member in members:
            table, _seat = seat_dms(member)[round_no]
            tables.setdefault(table, []).append(member.name)
        assert sorted(len(p) for p in tables.values()) == [2, 2, 2]
        for a, b in tables.values():
            met[a].append(b)
            met[b].append(a)
    for name, opponents in met.items():
        assert len(opponents) == len(set(opponents)) == 5, (name, opponents)
    assert len([m for m in channel.history() if "Event 1 is over" in (m.content or "")]) == 1
    final = shown_standings(standings_messages(channel)[0])
    assert sorted(name for _, name, _ in final) == sorted(met)
    assert sum(points for _, _, points in final) == 15 * formats.WIN  # 2 a game, shared if drawn


async def test_standings_come_with_a_picture_in_the_servers_language_and_hands_with_codes(
        simcord_env, simcord_bot: GameHall) -> None:
    env = simcord_env
    guild, channel, members, boss = hall(env, ["ann", "bob", "cat"])
    await boss.slash(channel, "mod language", language="zh-CN")
    await boss.slash(channel, "tournament create", game="doudizhu", format="sitngo", size=3,
                     rounds=2)
    before = await members[0].slash(channel, "tournament info", event=1)
    assert "No hand of this event has ended yet." in before.response.content
    for member in members[:2]:
        await member.slash(channel, "tournament join", event=1)
    # SimCord's interactions all report en-US: cat registers as a zh-CN client would, through
    # the runner the command calls, with the language Discord would report for her
    cat = members[2]
    await simcord_bot.tournaments.join(guild.id, 1, cat.id, "cat", "zh-CN")
    # each player's DM in their own language, the server's public messages in the server's
    for member in members[:2]:
        assert any(SEAT_DM.search(m.content or "") for m in member.user.dm_channel.history())
    assert any(SEAT_DM_ZH.search(m.content or "") for m in cat.user.dm_channel.history())
    done: set[tuple[int, int]] = set()
    await hand_over(channel, members, done)
    kept = [m for m in channel.history() if m.author.bot and (m.content or "").startswith("比赛 1")
            and "排名" in m.content]
    assert len(kept) == 1, [m.content for m in channel.history()]
    message = kept[0]
    assert "比赛 1 排名（第 2 轮）" in message.content
    pictures = [a for a in message.attachments if a.filename.startswith("standings-")]
    assert len(pictures) == 1
    png = await pictures[0].read()
    assert png.startswith(b"\x89PNG")
    shown = pictures[0].filename
    await hand_over(channel, members, done)
    message = next(m for m in channel.history() if m.id == kept[0].id)
    assert [a.filename for a in message.attachments] != [shown]  # redrawn after the hand
    assert len([m for m in channel.history() if (m.content or "").startswith("比赛 1 结束")]) == 1
    # every hand's replay code is in /tournament info, and /replay opens it
    info = await members[1].slash(channel, "tournament info", event=1, round=1)
    codes = re.findall(r"hand #(\d+), replay `([^`]+)`", info.response.content)
    assert len(codes) == 1, info.response.content
    latest = await members[1].slash(channel, "tournament info", event=1)
    assert len(re.findall(r"replay `([^`]+)`", latest.response.content)) == 1
    assert latest.response.content != info.response.content  # round 2's hand
    replay = await members[2].slash(channel, "replay", code=codes[0][1])
    assert f"Replay of hand `{codes[0][1]}`" in replay.response.content
