"""分片: the hall as one process of a sharded bot, in SimCord (which runs discord.py's
``AutoShardedBot`` with the shards a process owns), next to another process's table manager on
the same database; and the ``gamehall run --shards A-B --shard-count N`` flags."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import discord
import pytest
from simhelpers import make_bot, public_text, table_message  # type: ignore[import-not-found]

from bot.__main__ import main
from bot.client import GameHall, ShardedGameHall, create_bot
from bot.host.tables import TableManager
from bot.settings import Settings, parse_shards, shard_of
from bot.terminal import TerminalNotifier
from storage import seats as seat_store
from storage.db import Database
from storage.wallet import Wallet

# --- the flags ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("shards", "count", "expected"),
    [
        (None, None, (None, None)),
        (None, 1, (1, (0,))),
        (None, 3, (3, (0, 1, 2))),
        ("0-3", 8, (8, (0, 1, 2, 3))),
        ("4-7", 8, (8, (4, 5, 6, 7))),
        ("5", 8, (8, (5,))),
        (" 2 - 3 ", 4, (4, (2, 3))),
    ],
)
def test_shard_flags_name_the_shards_this_process_runs(
    shards: str | None, count: int | None, expected: tuple[int | None, tuple[int, ...] | None]
) -> None:
    assert parse_shards(shards, count) == expected


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--shards", "0-8", "--shard-count", "8"], "shards are numbered 0 to 7"),
        (["--shards", "3-1", "--shard-count", "8"], "backwards (3 > 1)"),
        (["--shards", "8", "--shard-count", "8"], "shards are numbered 0 to 7"),
        (["--shards", "a-b", "--shard-count", "8"], "must be a range like 0-3"),
        (["--shards=-1-3", "--shard-count", "8"], "must be a range like 0-3"),
        (["--shards", "0-3"], "--shards needs --shard-count"),
        (["--shard-count", "0"], "--shard-count must be 1 to"),
        (["--shard-count", "-4"], "--shard-count must be 1 to"),
    ],
)
def test_bad_shard_flags_stop_start_up_with_one_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.setenv("DISCORD_TOKEN", "not-used")  # refused before the bot would connect
    monkeypatch.setenv("GAMEHALL_DB", str(tmp_path / "hall.db"))
    assert main(["run", *argv]) == 2
    lines = capsys.readouterr().err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("gamehall: ")
    assert message in lines[0]
    assert not (tmp_path / "hall.db").exists(), "nothing was opened"


def test_good_shard_flags_get_as_far_as_the_token(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
) -> None:
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    monkeypatch.setenv("GAMEHALL_DB", str(tmp_path / "hall.db"))
    assert main(["run", "--shards", "0-3", "--shard-count", "8"]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err


def test_the_bot_is_built_with_the_shards_of_its_flags(settings: Settings) -> None:
    plain = create_bot(settings)
    assert type(plain) is GameHall and not isinstance(plain, discord.AutoShardedClient)
    sharded = create_bot(replace(settings, shard_count=8, shard_ids=(4, 5, 6, 7)))
    assert isinstance(sharded, ShardedGameHall)
    assert isinstance(sharded, discord.AutoShardedClient)
    assert sharded.shard_count == 8 and sharded.shard_ids == [4, 5, 6, 7]


def test_a_server_belongs_to_the_shard_of_discords_formula(settings: Settings) -> None:
    mine = replace(settings, shard_count=4, shard_ids=(1, 2))
    for guild_id in (0, 1 << 22, 2 << 22, 3 << 22, (5 << 22) + 4_194_303, 41771983423143937):
        assert mine.owns(guild_id) == ((guild_id >> 22) % 4 in (1, 2))
    assert shard_of(41771983423143937, 4) == 2
    assert settings.owns(12345), "without shards one process owns every server"


# --- one process of two, in SimCord ---------------------------------------------------------

SHARDS = 2


@pytest.fixture
async def simcord_bot(settings: Settings) -> AsyncIterator[GameHall]:
    """The process that runs shard 0 of 2."""
    bot = make_bot(replace(settings, shard_count=SHARDS, shard_ids=(0,)))
    yield bot
    db = getattr(bot, "db", None)
    if db is not None:
        await db.close()


@pytest.fixture
async def other_process(settings: Settings) -> AsyncIterator[TableManager]:
    """The process that runs shard 1: its own connection to the same database file."""
    mine = replace(settings, shard_count=SHARDS, shard_ids=(1,))
    db = await Database.open(mine.database)
    notifier = TerminalNotifier(uid=0, locale="en-US", out=lambda line: None)
    seeds = itertools.count(50)
    manager = TableManager(mine, db, Wallet.from_settings(db, mine), notifier, clock=time.time,
                           seed_source=lambda: next(seeds), owns=mine.owns)
    notifier.manager = manager
    await manager.restore()
    yield manager
    await manager.shutdown()
    await db.close()


async def test_a_player_at_the_other_processs_table_is_sent_there(
    simcord_env, simcord_bot: GameHall, other_process: TableManager,
) -> None:
    env = simcord_env
    here = env.create_guild("here", shard_id=0)
    there = env.create_guild("there", shard_id=1)
    assert simcord_bot.settings.owns(here.id) and not simcord_bot.settings.owns(there.id)
    hall, far = here.create_text_channel("hall"), there.create_text_channel("far-hall")
    ann = env.create_user("ann")
    ann_here, ann_there = here.add_member(ann), there.add_member(ann)
    bob = here.add_member(env.create_user("bob"))
    # ann sits down at a table the other process serves
    await other_process.create(there.id, far.id, "doudizhu", "novice", ann.id, "ann")
    # her click in this process's server is answered here, with a link to that table
    await bob.slash(hall, "table create", game="doudizhu", room="novice")
    refused = await ann_here.click(table_message(hall), label="Join")
    assert refused.ephemeral and refused.response.content.startswith("❌")
    assert f"https://discord.com/channels/{there.id}/{far.id}" in refused.response.content
    assert "ann" not in public_text(table_message(hall))
    created = await ann_here.slash(here.create_text_channel("second"), "table create",
                                   game="doudizhu", room="novice")
    assert f"/channels/{there.id}/{far.id}" in created.response.content
    # the other shard's server is not this process's: Discord sends its commands elsewhere
    elsewhere = await ann_there.slash(far, "table create", game="doudizhu", room="novice")
    assert elsewhere.response is None and far.id not in simcord_bot.manager.tables
    # once she stands up there, she may sit here
    await other_process.leave(far.id, ann.id)
    joined = await ann_here.click(table_message(hall), label="Join")
    assert not joined.response.content.startswith("❌")
    claim = await seat_store.where(simcord_bot.db, ann.id)
    assert claim == seat_store.SeatClaim(ann.id, hall.id, here.id)


async def test_a_restart_of_this_process_restores_its_own_tables_only(
    simcord_env, simcord_bot: GameHall, other_process: TableManager, settings: Settings,
) -> None:
    env = simcord_env
    here = env.create_guild("here", shard_id=0)
    there = env.create_guild("there", shard_id=1)
    hall, far = here.create_text_channel("hall"), there.create_text_channel("far-hall")
    ann, bob, cat = (here.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    await ann.slash(hall, "table create", game="doudizhu", room="novice")
    for member in (bob, cat):
        await member.click(table_message(hall), label="Join")
    for uid in (101, 102, 103):
        await other_process.wallet_for(there.id).ensure_player(uid)
    await other_process.create(there.id, far.id, "doudizhu", "novice", 101, "x")
    await other_process.join(far.id, 102, "y")
    await other_process.join(far.id, 103, "z")
    far_table = await other_process.start(far.id, 101)
    held = (await other_process.wallet_for(there.id).account(101)).held
    assert held > 0

    await env.restart_bot(make_bot(replace(settings, shard_count=SHARDS, shard_ids=(0,))))
    restarted = env.bot
    assert isinstance(restarted, ShardedGameHall) and restarted.shard_ids == [0]
    assert set(restarted.manager.tables) == {hall.id}
    assert far_table.hand_id is not None
    assert (await other_process.wallet_for(there.id).account(101)).held == held
    assert other_process.get(far.id).status == "playing"
    claim = await seat_store.where(restarted.db, 102)
    assert claim is not None and claim.table_id == far.id
    assert "ann" in public_text(table_message(hall))


async def test_closing_the_bot_mid_hand_saves_it_and_the_next_start_resumes_its_timer(
    simcord_env, simcord_bot: GameHall, settings: Settings,
) -> None:
    env = simcord_env
    here = env.create_guild("here", shard_id=0)
    hall = here.create_text_channel("hall")
    ann, bob, cat = (here.add_member(env.create_user(n)) for n in ("ann", "bob", "cat"))
    await ann.slash(hall, "table create", game="doudizhu", room="novice")
    for member in (bob, cat):
        await member.click(table_message(hall), label="Join")
    await ann.click(table_message(hall), label="Start")
    table = simcord_bot.manager.tables[hall.id]
    assert table.game is not None and table.deadline is not None
    log = list(table.game.log)
    await simcord_bot.close()  # what SIGTERM does
    assert not simcord_bot.manager.turns.armed(hall.id), "every timer stopped"
    await env.advance_time(settings.timer(table.game.phase()) + 5)
    assert table.game.log == log, "a closed bot plays nothing"

    new_bot = make_bot(replace(settings, shard_count=SHARDS, shard_ids=(0,)))
    await env.restart_bot(new_bot)
    resumed = new_bot.manager.tables[hall.id]
    assert resumed.game is not None and resumed.game.log[: len(log)] == log
    await env.advance_time(1)
    assert len(resumed.game.log) > len(log), "the overdue turn timed out after the restart"


@pytest.mark.parametrize(
    ("toml", "key", "problem"),
    [
        ("[metrics]\nport = 70000\n", "metrics.port", "must be <= 65535"),
        ("[metrics]\nport = \"9100\"\n", "metrics.port", "must be an integer"),
        ("[metrics]\nhealth_seconds = -1\n", "metrics.health_seconds", "must be >= 0"),
        ("[metrics]\nprot = 9100\n", "metrics.prot", "unknown key"),
    ],
)
def test_bad_metrics_settings_name_the_key(
    tmp_path: Path, toml: str, key: str, problem: str,
) -> None:
    from bot.settings import SettingsError, load_settings

    config = tmp_path / "mine.toml"
    config.write_text(toml, encoding="utf-8")
    with pytest.raises(SettingsError) as exc:
        load_settings(config, environ={})
    assert str(exc.value).startswith(f"{key}: ") and problem in str(exc.value)


def test_metrics_settings_default_to_no_endpoint_and_a_line_a_minute(tmp_path: Path) -> None:
    from bot.settings import load_settings

    assert (load_settings(environ={}).metrics_port, load_settings(environ={}).health_seconds) == (
        0, 60)
    config = tmp_path / "mine.toml"
    config.write_text("[metrics]\nport = 9100\nhealth_seconds = 15\n", encoding="utf-8")
    mine = load_settings(config, environ={})
    assert (mine.metrics_port, mine.health_seconds) == (9100, 15)
