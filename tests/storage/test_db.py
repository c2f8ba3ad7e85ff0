"""Database: file creation, pragmas, numbered migrations, refusing newer files, transactions."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from storage.db import Database, _statements, migrations, schema_version
from storage.errors import SchemaError, StorageError


def tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        return {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}


def user_version(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("PRAGMA user_version").fetchone()[0])
    finally:
        conn.close()


def test_migrations_are_numbered_from_one() -> None:
    steps = migrations()
    assert [m.version for m in steps] == list(range(1, len(steps) + 1))
    assert schema_version() == len(steps) >= 2
    assert all(m.name.startswith(f"{m.version:04d}_") for m in steps)


def test_statement_splitter_keeps_trigger_bodies() -> None:
    sql = (
        "CREATE TABLE a (x);\nCREATE TRIGGER t BEFORE DELETE ON a\nBEGIN\n  SELECT 1;\nEND;\n-- c\n"
    )
    assert _statements(sql) == [
        "CREATE TABLE a (x);",
        "CREATE TRIGGER t BEFORE DELETE ON a\nBEGIN\n  SELECT 1;\nEND;",
    ]
    with pytest.raises(SchemaError):
        _statements("CREATE TABLE a (x)")


async def test_fresh_database_is_created_with_folder_wal_and_foreign_keys(tmp_path: Path) -> None:
    path = tmp_path / "nested" / "deeper" / "hall.db"
    db = await Database.open(path)
    try:
        assert path.exists()
        assert db.version == schema_version()

        def pragmas(conn: sqlite3.Connection) -> tuple[str, int, int]:
            return (
                conn.execute("PRAGMA journal_mode").fetchone()[0],
                conn.execute("PRAGMA foreign_keys").fetchone()[0],
                conn.execute("PRAGMA synchronous").fetchone()[0],
            )

        assert await db.read(pragmas) == ("wal", 1, 1)  # synchronous 1 = NORMAL
    finally:
        await db.close()
    assert {
        "players",
        "ledger",
        "audit",
        "hands",
        "holds",
        "scores",
        "tables",
        "guilds",
        "guild_players",
    } <= tables(path)
    assert user_version(path) == schema_version()


async def test_full_synchronous_is_an_option(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "x.db", synchronous="full") as db:
        assert await db.read(lambda c: c.execute("PRAGMA synchronous").fetchone()[0]) == 2
    with pytest.raises(ValueError):
        await Database.open(tmp_path / "y.db", synchronous="off")


async def test_foreign_keys_are_enforced(db: Storage) -> None:
    def orphan(conn: sqlite3.Connection) -> None:
        conn.execute(
            "INSERT INTO ledger (uid, delta, balance_after, reason, at, economy) "
            "VALUES (999, 1, 1, 'x', 0, 0)"
        )

    with pytest.raises(sqlite3.IntegrityError):
        await db.run(orphan)


async def test_older_database_is_migrated_and_keeps_its_data(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    old = await Database.open(path, target_version=1)
    assert old.version == 1
    await old.run(
        lambda c: c.execute("INSERT INTO players (id, balance, created_at) VALUES (7, 500, 0)")
    )
    await old.close()
    assert "tables" not in tables(path) and user_version(path) == 1

    db = await Database.open(path)
    try:
        assert db.version == schema_version()
        assert (
            await db.read(
                lambda c: c.execute(
                    "SELECT balance FROM players WHERE economy = 0 AND id = 7"
                ).fetchone()[0]
            )
            == 500
        )
    finally:
        await db.close()
    assert "tables" in tables(path) and "guilds" in tables(path)


async def test_newer_database_is_refused_with_a_clear_message(tmp_path: Path) -> None:
    path = tmp_path / "future.db"
    await (await Database.open(path)).close()  # create it
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {schema_version() + 5}")
    conn.close()
    with pytest.raises(SchemaError) as err:
        await Database.open(path)
    message = str(err.value)
    assert f"schema version {schema_version() + 5}" in message
    assert f"only up to version {schema_version()}" in message and "upgrade gamehall" in message
    assert user_version(path) == schema_version() + 5  # untouched


async def test_run_rolls_back_everything_on_error(db: Storage) -> None:
    def half(conn: sqlite3.Connection) -> None:
        conn.execute("INSERT INTO players (id, economy, balance, created_at) VALUES (1, 0, 5, 0)")
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await db.run(half)
    assert await db.read(lambda c: c.execute("SELECT COUNT(*) FROM players").fetchone()[0]) == 1


async def test_transaction_context_commits_or_rolls_back(db: Storage) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guilds (id, mod_role_id) VALUES (1, 2)")
    with pytest.raises(KeyError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guilds (id, mod_role_id) VALUES (3, 4)")
            raise KeyError("boom")
    ids = await db.read(lambda c: [r[0] for r in c.execute("SELECT id FROM guilds")])
    assert ids == [1]


async def test_a_reader_never_sees_another_tasks_uncommitted_writes(db: Storage) -> None:
    inside = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        with pytest.raises(RuntimeError):
            async with db.transaction() as conn:
                await conn.execute("INSERT INTO guilds (id) VALUES (42)")
                inside.set()
                await release.wait()
                raise RuntimeError("abort")

    async def reader() -> int:
        await inside.wait()
        task = asyncio.ensure_future(
            db.read(lambda c: c.execute("SELECT COUNT(*) FROM guilds").fetchone()[0])
        )
        await asyncio.sleep(0.01)
        assert not task.done()  # waits for the open transaction
        release.set()
        return int(await task)

    _, seen = await asyncio.gather(writer(), reader())
    assert seen == 0


async def test_cancelled_transaction_rolls_back(db: Storage) -> None:
    started = asyncio.Event()

    async def slow() -> None:
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guilds (id) VALUES (5)")
            started.set()
            await asyncio.sleep(10)

    task = asyncio.ensure_future(slow())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert await db.read(lambda c: c.execute("SELECT COUNT(*) FROM guilds").fetchone()[0]) == 0


async def test_closed_database_refuses_work(tmp_path: Path) -> None:
    db = await Database.open(tmp_path / "c.db")
    await db.close()
    await db.close()  # idempotent
    with pytest.raises(StorageError):
        await db.read(lambda c: 1)


async def test_the_wal_is_checkpointed_and_stays_bounded(tmp_path: Path) -> None:
    path = tmp_path / "w.db"
    db = await Database.open(path)
    blob = b"x" * 12_000  # each commit writes a few pages
    try:
        for i in range(Database.WAL_PAGES // 3 + 200):
            await db.run(
                lambda c, i=i: c.execute(
                    "INSERT INTO tables VALUES (?, 1, 1, ?, 0)", (i, blob.decode())
                )
            )
        wal = path.with_name(path.name + "-wal").stat().st_size
        assert wal < (Database.WAL_PAGES + 100) * 4_200  # never grows past the threshold
        # the main file alone (without its -wal) already holds the checkpointed commits
        copy = tmp_path / "copy.db"
        shutil.copyfile(path, copy)
        with sqlite3.connect(copy) as conn:
            assert conn.execute("SELECT COUNT(*) FROM tables").fetchone()[0] > 300
    finally:
        await db.close()


def test_a_process_that_forgets_close_still_exits() -> None:
    """The worker thread is a daemon: exiting without close() must not hang the process."""
    script = (
        "import asyncio, sys, tempfile, pathlib\n"
        "from storage.db import Database\n"
        "async def main():\n"
        "    db = await Database.open(pathlib.Path(tempfile.mkdtemp()) / 'x.db')\n"
        "    await db.run(lambda c: c.execute('INSERT INTO guilds (id) VALUES (1)'))\n"
        "asyncio.run(main())\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", script],
        cwd=Path(__file__).resolve().parents[2],
        capture_output=True,
        timeout=60,
    )
    assert proc.returncode == 0, proc.stderr.decode()
