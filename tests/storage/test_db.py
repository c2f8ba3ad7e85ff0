"""Database: file creation, pragmas, numbered migrations, refusing newer files, transactions
(the backend-neutral ones run on SQLite and PostgreSQL)."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from storage.db import (
    Database,
    Storage,
    _statements,
    database_target,
    migrations,
    open_database,
    schema_version,
)
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


@pytest.mark.parametrize("dialect", ["sqlite", "postgresql"])
def test_migrations_are_numbered_from_one(dialect: str) -> None:
    steps = migrations(dialect)
    assert [m.version for m in steps] == list(range(1, len(steps) + 1))
    assert schema_version(dialect) == len(steps) >= 1
    assert all(m.name.startswith(f"{m.version:04d}_") for m in steps)
    assert schema_version("sqlite") >= 7  # existing files keep their numbers


def test_a_database_is_named_by_a_path_or_a_url(tmp_path: Path) -> None:
    assert database_target("data/hall.db") == Path("data/hall.db")
    assert database_target("sqlite:///data/hall.db") == Path("data/hall.db")
    assert database_target("sqlite:////srv/hall.db") == Path("/srv/hall.db")
    assert database_target("postgresql://u:p@h:5432/hall") == "postgresql://u:p@h:5432/hall"
    assert database_target("postgres://h/hall") == "postgres://h/hall"
    with pytest.raises(ValueError, match="mysql"):
        database_target("mysql://h/hall")


async def test_open_database_picks_sqlite_for_a_path(tmp_path: Path) -> None:
    async with await open_database(f"sqlite:///{tmp_path}/via-url.db") as db:
        assert isinstance(db, Database) and db.dialect == "sqlite"
    assert (tmp_path / "via-url.db").exists()


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


async def test_the_wal_is_folded_back_into_the_file_off_the_commit_path(tmp_path: Path) -> None:
    """A few commits, far below the WAL size at which SQLite checkpoints inside a commit, are
    in the database file itself soon after, with no commit having waited for a checkpoint: the
    database's own checkpointer folds the WAL back in the background."""
    path = tmp_path / "hall.db"
    db = await Database.open(path)
    try:
        await db.run(lambda c: c.execute("CREATE TABLE notes (n INTEGER)"))
        for n in range(20):
            await db.run(lambda c, n=n: c.execute("INSERT INTO notes VALUES (?)", (n,)))

        def in_the_file() -> int:
            # immutable: reads the database file as it is, never the WAL
            with sqlite3.connect(f"file:{path}?immutable=1", uri=True) as conn:
                try:
                    return int(conn.execute("SELECT count(*) FROM notes").fetchone()[0])
                except sqlite3.OperationalError:  # the table itself is still in the WAL
                    return 0

        for _ in range(50):
            if in_the_file() == 20:
                break
            await asyncio.sleep(0.1)
        assert in_the_file() == 20
        assert db.pool_stats()["checkpoints"] >= 1
    finally:
        await db.close()


async def test_full_synchronous_is_an_option(tmp_path: Path) -> None:
    async with await Database.open(tmp_path / "x.db", synchronous="full") as db:
        assert await db.read(lambda c: c.execute("PRAGMA synchronous").fetchone()[0]) == 2
    with pytest.raises(ValueError):
        await Database.open(tmp_path / "y.db", synchronous="off")


async def test_foreign_keys_are_enforced(db: Storage) -> None:
    async def orphan(conn: Any) -> None:  # escrow for a hand and a player that do not exist
        await conn.execute(
            "INSERT INTO holds (hand_id, uid, amount, economy) VALUES (12345, 999, 1, 0)"
        )

    with pytest.raises(db.integrity_error):
        await db.run(orphan)
    assert await db.fetchval("SELECT COUNT(*) FROM holds") == 0


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
    async def half(conn: Any) -> None:
        await conn.execute(
            "INSERT INTO players (id, economy, balance, created_at) VALUES (1, 0, 5, 0)"
        )
        raise RuntimeError("boom")

    with pytest.raises(RuntimeError):
        await db.run(half)
    assert await db.fetchval("SELECT COUNT(*) FROM players") == 1


async def test_transaction_context_commits_or_rolls_back(db: Storage) -> None:
    async with db.transaction() as conn:
        await conn.execute("INSERT INTO guilds (id, mod_role_id) VALUES (1, 2)")
    with pytest.raises(KeyError):
        async with db.transaction() as conn:
            await conn.execute("INSERT INTO guilds (id, mod_role_id) VALUES (3, 4)")
            raise KeyError("boom")
    assert await db.fetchall("SELECT id FROM guilds") == [(1,)]


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
        task = asyncio.ensure_future(db.fetchval("SELECT COUNT(*) FROM guilds"))
        await asyncio.sleep(0.01)
        if db.dialect == "sqlite":
            assert not task.done()  # waits for the open transaction (PostgreSQL: a snapshot)
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
    assert await db.fetchval("SELECT COUNT(*) FROM guilds") == 0


async def test_closed_database_refuses_work(open_db: Any) -> None:
    db = await open_db()
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


async def test_postgresql_newer_schema_is_refused_and_reopening_changes_nothing(
    backend: str, db_target: Any
) -> None:
    """The same rules as for SQLite files, kept in PostgreSQL's ``schema_version`` table."""
    if backend != "postgresql":
        pytest.skip("SQLite's own tests above use PRAGMA user_version")
    import asyncpg

    from storage.postgres import PostgresDatabase

    latest = schema_version("postgresql")
    async with await PostgresDatabase.open(db_target) as db:
        assert db.version == latest
        await db.execute("INSERT INTO guilds (id, mod_role_id) VALUES (1, 2)")
    async with await PostgresDatabase.open(db_target) as db:  # opening again changes nothing
        assert db.version == latest and await db.fetchall("SELECT id FROM guilds") == [(1,)]
    conn = await asyncpg.connect(db_target)
    try:
        await conn.execute("INSERT INTO schema_version (version) VALUES ($1)", latest + 5)
    finally:
        await conn.close()
    with pytest.raises(SchemaError) as err:
        await PostgresDatabase.open(db_target)
    message = str(err.value)
    assert f"schema version {latest + 5}" in message and "upgrade gamehall" in message


async def test_postgresql_processes_starting_together_migrate_once(
    backend: str, pg_server: Any
) -> None:
    if backend != "postgresql":
        pytest.skip("a PostgreSQL rule")
    if pg_server.problem:
        pytest.skip(pg_server.problem)
    from storage.postgres import PostgresDatabase

    admin = await pg_server.admin()
    try:
        await admin.execute("CREATE DATABASE fresh_start")
    finally:
        await admin.close()
    url = pg_server.url("fresh_start")
    try:
        dbs = await asyncio.gather(*(PostgresDatabase.open(url) for _ in range(4)))
        assert {db.version for db in dbs} == {schema_version("postgresql")}
        applied = await dbs[0].fetchval("SELECT COUNT(*) FROM schema_version")
        assert applied == len(migrations("postgresql"))
        for db in dbs:
            await db.close()
    finally:
        await pg_server.drop(url)


def test_the_halls_settings_name_a_file_or_a_server() -> None:
    from bot.settings import SettingsError, load_settings

    url = "postgresql://hall:secret@db.internal:5432/gamehall"
    assert load_settings(environ={"GAMEHALL_DB": url}).database == url
    assert load_settings(environ={"GAMEHALL_DB": "sqlite:////srv/h.db"}).database == Path("/srv/h.db")
    assert load_settings(environ={"GAMEHALL_DB": "x/h.db"}).database == Path("x/h.db")
    with pytest.raises(SettingsError, match="GAMEHALL_DB.*mysql"):
        load_settings(environ={"GAMEHALL_DB": "mysql://h/db"})


async def test_gamehall_names_an_unreachable_server_before_starting(
    backend: str, db_target: Any
) -> None:
    """``gamehall run`` checks the server first: one line naming the problem, or nothing."""
    if backend != "postgresql":
        pytest.skip("SQLite files are checked by tests/test_cli.py")
    from bot.__main__ import _server_problem

    assert await asyncio.to_thread(_server_problem, str(db_target)) is None
    problem = await asyncio.to_thread(_server_problem, "postgresql://hall:pw@127.0.0.1:1/none")
    assert problem and "pw" not in problem


def test_no_postgresql_is_a_loud_skip_or_in_ci_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import postgres_server

    down = postgres_server.Server(problem="pgserver is not installed")
    monkeypatch.delenv(postgres_server.REQUIRE, raising=False)
    with pytest.warns(postgres_server.PostgresUnavailable, match="pgserver is not installed"):
        with pytest.raises(pytest.skip.Exception, match="PostgreSQL tests skipped"):
            postgres_server.unavailable(down)
    monkeypatch.setenv(postgres_server.REQUIRE, "1")
    with pytest.raises(pytest.fail.Exception, match="GAMEHALL_REQUIRE_POSTGRES=1"):
        postgres_server.unavailable(down)
