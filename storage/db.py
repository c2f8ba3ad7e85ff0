"""数据库: one SQLite file, one aiosqlite connection, serialized transactions, numbered migrations.

Rules:

- The file is opened in WAL mode with ``foreign_keys=ON`` and a busy timeout; its parent folder
  is created. ``synchronous`` is "normal" (default: a crash of the bot never loses or
  half-applies a commit; a power loss may drop the last few commits, never half of one) or
  "full" (every commit is synced to disk).
- The schema is built by ``storage/migrations/NNNN_name.sql``, applied in order, each in its own
  transaction together with ``PRAGMA user_version = NNNN``. Opening an older file migrates it;
  a file whose version is newer than the newest migration here raises :class:`SchemaError`.
- Several asyncio tasks share the one connection, so every transaction holds ``Database``'s
  asyncio lock from ``BEGIN IMMEDIATE`` to ``COMMIT``/``ROLLBACK``; reads hold it too, so no task
  ever sees another task's uncommitted writes.
- ``run(fn, *args)`` executes ``fn(conn, *args)`` — plain synchronous sqlite3 code — inside one
  ``BEGIN IMMEDIATE`` … ``COMMIT`` on the connection's own thread, in a single hop. Any
  exception rolls the whole transaction back. The wallet uses it for every change: one hop per
  operation is what makes a settlement cost a fraction of a millisecond.
- ``transaction()`` is the same guarantee as an ``async with`` block over the aiosqlite
  connection, for code that wants to await between statements.
- No background task: SQLite checkpoints the WAL after the commit that makes it pass
  ``Database.WAL_PAGES`` pages.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import threading
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from storage.errors import SchemaError, StorageError

R = TypeVar("R")

SYNCHRONOUS = {"normal": "NORMAL", "full": "FULL"}
_MIGRATION = re.compile(r"^(\d{4})_[a-z0-9_]+\.sql$")


@dataclass(frozen=True)
class Migration:
    """One numbered schema step: ``version`` (1, 2, ...), file ``name`` and its ``sql``."""

    version: int
    name: str
    sql: str


def migrations() -> tuple[Migration, ...]:
    """The migrations shipped in ``storage/migrations``, in order; SchemaError if misnumbered."""
    found: list[Migration] = []
    for entry in resources.files("storage").joinpath("migrations").iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise SchemaError(f"migration {migration.name}: expected number {expected:04d}")
    return tuple(found)


def schema_version() -> int:
    """The newest schema version this code knows."""
    return len(migrations())


def _statements(sql: str) -> list[str]:
    """Split a script into complete statements (trigger bodies keep their inner ``;``)."""
    statements: list[str] = []
    buffer = ""
    for line in sql.splitlines(keepends=True):
        buffer += line
        if sqlite3.complete_statement(buffer):
            if buffer.strip():
                statements.append(buffer.strip())
            buffer = ""
    if buffer.strip() and not all(
        ln.strip().startswith("--") or not ln.strip() for ln in buffer.splitlines()
    ):
        raise SchemaError(f"incomplete SQL statement at the end of a migration: {buffer[:60]!r}")
    return statements


def _migrate(raw: sqlite3.Connection, path: str, steps: tuple[Migration, ...], target: int) -> int:
    """Apply the pending migrations up to ``target``; returns the resulting user_version."""
    latest = steps[-1].version if steps else 0
    for step in steps:
        if step.version > target:
            break
        raw.execute("BEGIN IMMEDIATE")
        try:
            current = raw.execute("PRAGMA user_version").fetchone()[0]
            if current > latest:
                raise SchemaError(
                    f"{path} has schema version {current}, but this gamehall knows only up to "
                    f"version {latest}: upgrade gamehall, or use another database file"
                )
            if current < step.version:
                if current != step.version - 1:  # pragma: no cover - guarded by the loop order
                    raise SchemaError(f"{path}: cannot apply {step.name} on version {current}")
                for statement in _statements(step.sql):
                    raw.execute(statement)
                raw.execute(f"PRAGMA user_version = {step.version:d}")
            raw.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
    version = int(raw.execute("PRAGMA user_version").fetchone()[0])
    if version > latest:
        raise SchemaError(
            f"{path} has schema version {version}, but this gamehall knows only up to "
            f"version {latest}: upgrade gamehall, or use another database file"
        )
    return version


class Database:
    """The hall's database: open with ``await Database.open(path)``, close with ``close()``."""

    WAL_PAGES = 4000
    """SQLite checkpoints (folds the WAL back into the file) after a commit once the WAL holds
    this many pages (16 MiB): a few hundred hands per checkpoint and its fsync, and pages
    rewritten by many commits are copied once."""

    def __init__(self, conn: aiosqlite.Connection, raw: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self._raw = raw  # only ever used on the connection's own thread (inside ``_call``)
        self.path = path
        self._lock = asyncio.Lock()  # held by every transaction, from BEGIN to COMMIT
        self._closed = False
        self.version = 0

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        synchronous: str = "normal",
        busy_timeout_ms: int = 5000,
        target_version: int | None = None,
    ) -> Database:
        """Open (creating folder and file), configure and migrate the database at ``path``.

        ``target_version`` stops migrating at that version (tools and tests of old files).
        Raises SchemaError for a file newer than this code; ValueError for a bad option.
        """
        if synchronous.lower() not in SYNCHRONOUS:
            raise ValueError(f"synchronous must be one of {sorted(SYNCHRONOUS)}")
        if not hasattr(aiosqlite.Connection, "_execute"):  # pragma: no cover
            raise StorageError("this aiosqlite has no Connection._execute; use aiosqlite 0.20-0.22")
        file = Path(path)
        file.parent.mkdir(parents=True, exist_ok=True)
        holder: list[sqlite3.Connection] = []

        def connector() -> sqlite3.Connection:
            raw = sqlite3.connect(str(file), isolation_level=None)
            holder.append(raw)
            return raw

        conn = aiosqlite.Connection(connector, iter_chunk_size=64)
        # A daemon worker thread: a process that exits without close() must not hang on it
        # (SQLite's WAL discards any transaction that was not committed).
        worker: threading.Thread = getattr(conn, "_thread", None) or conn  # type: ignore[assignment]
        worker.daemon = True  # (before aiosqlite 0.20 the Connection itself was the Thread)
        await conn
        db = cls(conn, holder[0], file)
        try:
            await db._call(db._configure, SYNCHRONOUS[synchronous.lower()], busy_timeout_ms)
            steps = migrations()
            target = steps[-1].version if target_version is None else target_version
            db.version = await db._call(_migrate, db._raw, str(file), steps, target)
        except BaseException:
            await conn.close()
            db._closed = True
            raise
        return db

    def _configure(self, synchronous: str, busy_timeout_ms: int) -> None:
        raw = self._raw
        raw.execute(f"PRAGMA busy_timeout = {int(busy_timeout_ms)}")
        mode = raw.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        if str(mode).lower() != "wal":
            raise StorageError(f"{self.path}: cannot use WAL journal mode (got {mode!r})")
        raw.execute(f"PRAGMA synchronous = {synchronous}")
        raw.execute("PRAGMA foreign_keys = ON")
        raw.execute(f"PRAGMA wal_autocheckpoint = {int(self.WAL_PAGES)}")

    async def close(self) -> None:
        """Wait for the running transaction, then close the connection (idempotent)."""
        async with self._lock:
            if not self._closed:
                self._closed = True
                await self._conn.close()

    async def __aenter__(self) -> Database:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    # --- transactions -----------------------------------------------------------------------

    async def _call(self, fn: Callable[..., R], *args: Any) -> R:
        """Run ``fn(*args)`` on the connection's thread (one hop) and return its result."""
        if self._closed:
            raise StorageError("the database is closed")
        # aiosqlite's Connection._execute queues a callable on its worker thread. aiosqlite has
        # no public "run this function" API; this and marking its thread daemon are the only
        # non-public parts of aiosqlite used (tested with 0.22; present since 0.20 at least).
        result: R = await self._conn._execute(fn, *args)  # type: ignore[no-untyped-call]
        return result

    async def _job(self, fn: Callable[..., R], *args: Any) -> R:
        """Run ``fn(*args)`` on the database thread while holding the lock."""
        async with self._lock:
            return await self._call(fn, *args)

    def _in_transaction(self, mode: str, fn: Callable[..., R], args: tuple[Any, ...]) -> R:
        raw = self._raw
        if raw.in_transaction:  # pragma: no cover - excluded by the lock; never touch another's
            raise StorageError("a transaction is already open on this connection")
        raw.execute(f"BEGIN {mode}")
        try:
            result = fn(raw, *args)
            raw.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
        return result

    async def run(self, fn: Callable[..., R], *args: Any) -> R:
        """Run ``fn(conn, *args)`` in one ``BEGIN IMMEDIATE`` … ``COMMIT``; any error rolls back.

        ``fn`` is synchronous sqlite3 code and runs on the database thread: it must not touch
        asyncio objects. Its return value is returned. If the caller is cancelled, the
        transaction still runs to its end (commit or rollback) on the database thread.
        """
        return await self._job(self._in_transaction, "IMMEDIATE", fn, args)

    async def read(self, fn: Callable[..., R], *args: Any) -> R:
        """Like ``run`` but for reads: one consistent snapshot, no write lock taken."""
        return await self._job(self._in_transaction, "DEFERRED", fn, args)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with db.transaction() as conn:`` — BEGIN IMMEDIATE … COMMIT, or ROLLBACK on
        any exception (cancellation included), awaiting between statements. It holds the lock
        throughout: do not call other ``Database`` methods inside it (they would wait)."""
        async with self._lock:
            if self._closed:
                raise StorageError("the database is closed")
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield self._conn
            except BaseException:
                # shielded: a second cancellation must not leave the transaction open
                await asyncio.shield(self._conn.execute("ROLLBACK"))
                raise
            try:
                await self._conn.execute("COMMIT")
            except BaseException:
                if self._conn.in_transaction:
                    await asyncio.shield(self._conn.execute("ROLLBACK"))
                raise
