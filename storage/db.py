"""数据库: one storage interface, two adapters — SQLite (the embedded default) and PostgreSQL.

``open_database(target)`` picks the adapter: a path or ``sqlite:///path`` opens the SQLite file
(:class:`Database`, nothing to install); ``postgresql://…`` opens a PostgreSQL pool
(:class:`storage.postgres.PostgresDatabase`, needs ``asyncpg``). Both are a :class:`Storage`.

**One function per operation, for both.** Every storage operation is ONE ``async def
fn(conn, *args)`` over a small connection protocol (:class:`Connection`): ``await
conn.execute(sql, params)`` giving ``rowcount``, ``fetchone()``, ``fetchall()`` and iteration,
``await conn.executemany(sql, rows)`` (``rowcount``), and ``conn.dialect`` ("sqlite" or
"postgresql") with ``conn.for_update`` (the row-lock suffix: ``" FOR UPDATE"`` on PostgreSQL,
empty on SQLite, whose writers are serialized anyway). ``Storage.run(fn, *args)`` runs it as one
transaction, ``Storage.read`` as one consistent snapshot. The SQL is written once in the dialect
both speak: ``?`` (or ``?N``) placeholders, which the PostgreSQL adapter rewrites to ``$N`` once
per statement text and caches; ``INSERT … ON CONFLICT … DO NOTHING/UPDATE`` (qualified columns
in ``DO UPDATE``); ``CASE`` instead of two-argument ``MAX``/``MIN``; ``RETURNING id`` instead of
``lastrowid``; explicit ``CAST`` where PostgreSQL cannot infer a parameter's type. The few
places that differ (a leaderboard's id list, the house's rake) branch on ``conn.dialect``.

Why ``async def`` even for SQLite: PostgreSQL's driver is asynchronous, so a function that must
serve both awaits each statement. The SQLite adapter still runs the whole function on its
connection thread, inside group commit, without an event loop: its ``execute`` never suspends,
so the coroutine is driven to completion by ``coro.send(None)`` until StopIteration (one thread
hop per group as before; the benchmark ``benchmarks/settle.py`` measures the cost). The SQLite
cursor is itself awaitable (it returns itself), so SQLite-only code (tools, tests) may also call
``conn.execute(...)`` without ``await``.

SQLite rules:

- The file is opened in WAL mode with ``foreign_keys=ON`` and a busy timeout; its parent folder
  is created. ``synchronous`` is "normal" (default: a crash of the bot never loses or
  half-applies a commit; a power loss may drop the last few commits, never half of one) or
  "full" (every commit is synced to disk).
- The schema is built by ``storage/migrations/sqlite/NNNN_name.sql``, applied in order, each in
  its own transaction together with ``PRAGMA user_version = NNNN``. Opening an older file
  migrates it; a file whose version is newer than the newest migration here raises
  :class:`SchemaError`. (PostgreSQL has its own numbered files in
  ``storage/migrations/postgresql`` and a ``schema_version`` table.)
- Several asyncio tasks share the one connection; their transactions never interleave. ``run``
  and ``read`` calls are queued in arrival order and executed on the connection's own thread by
  *group commit*: the calls waiting when the thread becomes free (up to ``GROUP_MAX``) run in ONE
  ``BEGIN IMMEDIATE`` … ``COMMIT`` (``BEGIN DEFERRED`` if they are all reads), in one hop, each
  inside its own ``SAVEPOINT``. A call that raises is rolled back to its savepoint and gets its
  own exception while the others commit; results are delivered only after the ``COMMIT``
  succeeded, and if anything fails outside the calls themselves (``BEGIN``, ``COMMIT``) the
  whole group is rolled back and every call in it gets that error. So each call keeps the
  guarantees of its own transaction: all or nothing, never seen half done by another call,
  committed when it returns. A lone call runs exactly as ``BEGIN`` … ``fn`` … ``COMMIT``.
  Grouping is what makes many tables settling at once cheap: one thread hop, one ``COMMIT``
  and one write of each shared page (the house, the indexes) per group instead of per hand.
- ``transaction()`` takes the connection for itself, as an ``async with`` block over the
  aiosqlite connection, for code that wants to await between statements; calls queued after it
  wait for it to end.
- Checkpoints off the commit path: a thread of the database's own (``_Checkpointer``, its
  own connection) folds the WAL back into the file every ``Database.CHECKPOINT_SECONDS``
  (PASSIVE: it never waits for a lock, never blocks a reader or a writer). SQLite's own
  checkpoint runs inside the commit that makes the WAL pass its threshold, and every call of
  that group commit would wait for it (tens of ms: the WAL's pages copied and the file
  synced); ``Database.WAL_PAGES`` stays SQLite's threshold, a safety net the background
  checkpoints keep the WAL below. A group commit is a short task that exists only while calls
  are waiting.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import threading
from collections import deque
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Generator,
    Iterable,
    Iterator,
    Sequence,
)
from contextlib import asynccontextmanager
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from types import CoroutineType
from typing import Any, Protocol, Self, TypeVar, overload

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


DIALECTS = ("sqlite", "postgresql")


def migrations(dialect: str = "sqlite") -> tuple[Migration, ...]:
    """The migrations shipped in ``storage/migrations/<dialect>``, in order; SchemaError if
    misnumbered, ValueError for an unknown dialect."""
    if dialect not in DIALECTS:
        raise ValueError(f"a dialect is one of {DIALECTS}, got {dialect!r}")
    found: list[Migration] = []
    folder = resources.files("storage").joinpath("migrations").joinpath(dialect)
    for entry in folder.iterdir():
        match = _MIGRATION.match(entry.name)
        if match:
            found.append(Migration(int(match[1]), entry.name, entry.read_text("utf-8")))
    found.sort(key=lambda m: m.version)
    for expected, migration in enumerate(found, start=1):
        if migration.version != expected:
            raise SchemaError(f"migration {migration.name}: expected number {expected:04d}")
    return tuple(found)


def schema_version(dialect: str = "sqlite") -> int:
    """The newest schema version this code knows for ``dialect``."""
    return len(migrations(dialect))


# --- the connection protocol every storage function is written against ------------------------


class Rows(Protocol):
    """What ``await conn.execute(...)`` gives: a statement's rows and row count."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def fetchall(self) -> list[Any]: ...

    def __iter__(self) -> Iterator[Any]: ...


class Connection(Protocol):
    """A connection inside one transaction, as a storage function sees it (either backend)."""

    dialect: str
    for_update: str

    async def execute(self, sql: str, params: Sequence[Any] = ...) -> Rows: ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> Rows: ...


class _Cursor(sqlite3.Cursor):
    """A SQLite cursor that may also be awaited (it is ready at once: awaiting returns it)."""

    def __await__(self) -> Generator[Any, None, _Cursor]:
        return self
        yield  # pragma: no cover - makes this a generator that never suspends


class SqliteConnection:
    """The :class:`Connection` protocol over a ``sqlite3.Connection`` (on its own thread).

    ``execute``/``executemany`` run at once and return the (awaitable) cursor, so a storage
    coroutine never suspends on SQLite; other attributes reach the raw connection.
    """

    dialect = "sqlite"
    for_update = ""

    def __init__(self, raw: sqlite3.Connection) -> None:
        self.raw = raw
        self._cursor = raw.cursor  # bound once: a statement is the hot path of settlement

    def execute(self, sql: str, params: Sequence[Any] = ()) -> _Cursor:
        return self._cursor(_Cursor).execute(sql, params)

    def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> _Cursor:
        return self._cursor(_Cursor).executemany(sql, rows)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.raw, name)


class ListRows:
    """A statement's result fetched whole: its rows (tuples) and row count (the PostgreSQL
    adapter's, and SQLite's inside ``transaction()``)."""

    __slots__ = ("_next", "_rows", "rowcount")

    def __init__(self, rows: list[tuple[Any, ...]], rowcount: int) -> None:
        self._rows = rows
        self.rowcount = rowcount
        self._next = 0

    def fetchone(self) -> tuple[Any, ...] | None:
        if self._next >= len(self._rows):
            return None
        self._next += 1
        return self._rows[self._next - 1]

    def fetchall(self) -> list[tuple[Any, ...]]:
        rest, self._next = self._rows[self._next :], len(self._rows)
        return rest

    def __iter__(self) -> Iterator[tuple[Any, ...]]:
        return iter(self.fetchall())


def _fetched(cursor: sqlite3.Cursor) -> ListRows:
    rows = [tuple(r) for r in cursor.fetchall()] if cursor.description else []
    return ListRows(rows, cursor.rowcount if cursor.rowcount >= 0 else len(rows))


class _HopConnection:
    """The :class:`Connection` protocol for ``Database.transaction()``: each statement hops to
    the connection's thread and comes back fetched."""

    dialect = "sqlite"
    for_update = ""

    def __init__(self, db: Database) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> ListRows:
        raw = self._db._raw
        result: ListRows = await self._db._call(lambda: _fetched(raw.execute(sql, params)))
        return result

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> ListRows:
        raw, items = self._db._raw, list(rows)
        result: ListRows = await self._db._call(lambda: _fetched(raw.executemany(sql, items)))
        return result


def drive(value: Any) -> Any:
    """The result of a storage function's return ``value`` on SQLite: a coroutine is run to its
    end without an event loop (its awaits never suspend there); anything else is returned.

    Raises StorageError if the coroutine awaits something that does suspend (asyncio objects
    cannot be used inside a storage function).
    """
    if type(value) is not CoroutineType:
        return value
    try:
        value.send(None)
    except StopIteration as done:
        return done.value
    value.close()
    raise StorageError("a storage function awaited something other than the connection")


class Storage:
    """What every backend offers: ``run``/``read`` a storage function as one transaction, a few
    one-statement shortcuts, ``close``. ``dialect`` names the backend; ``version`` is the schema
    version; ``integrity_error`` the backend's exception for a violated constraint."""

    dialect: str = ""
    version: int = 0
    integrity_error: type[Exception] = Exception
    path: Path | str = ""  # what messages show: the file, or the URL without its password

    @overload
    async def run(self, fn: Callable[..., Awaitable[R]], *args: Any) -> R: ...

    @overload
    async def run(self, fn: Callable[..., R], *args: Any) -> R: ...

    async def run(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run the storage function ``fn(conn, *args)`` as one transaction and return its
        result once committed; any error it raises undoes all its work. (The adapter's
        ``_transaction`` says how: group commit on SQLite, a pooled connection on PostgreSQL.)"""
        return await self._transaction(True, fn, args)

    @overload
    async def run_autocommit(self, fn: Callable[..., Awaitable[R]], *args: Any) -> R: ...

    @overload
    async def run_autocommit(self, fn: Callable[..., R], *args: Any) -> R: ...

    async def run_autocommit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn(conn, *args)`` with no transaction around it where the backend can: on
        PostgreSQL each statement is then its own transaction, and the round trips of BEGIN
        and COMMIT are saved; SQLite runs it as ``run`` does (its transactions cost no round
        trip). For functions that stay atomic without one: they write in ONE statement, and
        that statement checks, under its own locks, what the reads before it saw (raising a
        serialization failure, which runs ``fn`` again, if anything moved)."""
        return await self.run(fn, *args)

    @overload
    async def read(self, fn: Callable[..., Awaitable[R]], *args: Any) -> R: ...

    @overload
    async def read(self, fn: Callable[..., R], *args: Any) -> R: ...

    async def read(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Like ``run`` for reads: one consistent snapshot."""
        return await self._transaction(False, fn, args)

    async def _transaction(
        self, write: bool, fn: Callable[..., Any], args: tuple[Any, ...]
    ) -> Any:  # pragma: no cover - every adapter has its own
        raise NotImplementedError

    async def close(self) -> None:  # pragma: no cover
        raise NotImplementedError

    def pool_stats(self) -> dict[str, int]:
        """Figures of the connections for metrics and the health line, e.g. ``{"in_use": 2,
        "size": 10}``; none by default."""
        return {}

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement as its own transaction; its row count."""

        async def tx(conn: Connection) -> int:
            return int((await conn.execute(sql, params)).rowcount)

        result: int = await self.run(tx)
        return result

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[tuple[Any, ...]]:
        """One query's rows (tuples), read in one snapshot."""

        async def read(conn: Connection) -> list[tuple[Any, ...]]:
            return [tuple(row) for row in (await conn.execute(sql, params)).fetchall()]

        result: list[tuple[Any, ...]] = await self.read(read)
        return result

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        """The first column of a query's first row (None without rows)."""
        rows = await self.fetchall(sql, params)
        return rows[0][0] if rows else None


def database_target(value: str | os.PathLike[str]) -> Path | str:
    """What ``[hall].database`` / ``GAMEHALL_DB`` names: a ``Path`` of a SQLite file (a plain
    path, or ``sqlite:///path``), or a ``postgresql://`` URL (``postgres://`` too) kept as text.

    >>> database_target("sqlite:///data/hall.db"), database_target("postgresql://h/db")
    (PosixPath('data/hall.db'), 'postgresql://h/db')
    """
    if isinstance(value, Path):
        return value
    text = os.fspath(value)
    scheme = text.split(":", 1)[0].lower() if "://" in text else ""
    if scheme in ("postgresql", "postgres"):
        return text
    if scheme == "sqlite":
        return Path(text.split("://", 1)[1].removeprefix("/") if text.startswith("sqlite:///")
                    else text.split("://", 1)[1])
    if scheme:
        raise ValueError(f"unknown database URL scheme {scheme!r}: use a path, sqlite:/// or "
                         "postgresql://")
    return Path(text)


async def open_database(
    target: str | os.PathLike[str], *, synchronous: str = "normal", **options: Any
) -> Storage:
    """Open the hall's database named by ``target`` (see ``database_target``): SQLite for a
    path, PostgreSQL for a ``postgresql://`` URL (``synchronous`` is SQLite's alone; other
    ``options`` go to the adapter's ``open``)."""
    where = database_target(target)
    if isinstance(where, str):
        from storage.postgres import PostgresDatabase

        return await PostgresDatabase.open(where, **options)
    return await Database.open(where, synchronous=synchronous, **options)


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


@dataclass(eq=False)
class _Job:
    """A ``run`` (``write``) or ``read`` call waiting for, or inside, a group commit."""

    write: bool
    fn: Callable[..., Any]
    args: tuple[Any, ...]
    future: asyncio.Future[Any]


@dataclass(eq=False)
class _Turn:
    """A wait for the whole connection (``transaction()``, ``close()``)."""

    future: asyncio.Future[None]


_SAVEPOINT = "gamehall_call"
_Outcome = tuple[bool, Any]  # (True, result) or (False, exception)


class _Checkpointer:
    """折回 WAL: every ``seconds``, on a thread and a connection of its own, a PASSIVE
    checkpoint of the database at ``path`` — it copies the WAL's committed pages into the file
    as far as no reader still needs them, never waiting for a lock; the next write restarts the
    WAL once a checkpoint reached its end. ``done`` counts the checkpoints that moved pages."""

    def __init__(self, path: Path, seconds: float) -> None:
        self.done = 0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, args=(str(path), seconds),
                                        name="gamehall-checkpoint", daemon=True)
        self._thread.start()

    def _run(self, path: str, seconds: float) -> None:
        conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        last: tuple[int, int] | None = None
        try:
            while not self._stop.wait(seconds):
                try:
                    _busy, log, moved = conn.execute("PRAGMA wal_checkpoint(PASSIVE)").fetchone()
                except sqlite3.Error:  # pragma: no cover - e.g. the file went away; try again
                    continue
                if moved > 0 and (log, moved) != last:
                    self.done += 1
                last = (log, moved)
        finally:
            conn.close()

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()


class Database(Storage):
    """The hall's SQLite database: open with ``await Database.open(path)`` (or
    ``open_database``), close with ``close()``."""

    dialect = "sqlite"
    integrity_error = sqlite3.IntegrityError

    WAL_PAGES = 4000
    """SQLite checkpoints (folds the WAL back into the file) after a commit once the WAL holds
    this many pages (16 MiB): a few hundred hands per checkpoint and its fsync, and pages
    rewritten by many commits are copied once."""

    GROUP_MAX = 64
    """Most calls one group commit takes (bounds how long the first of them waits)."""

    CHECKPOINT_SECONDS = 0.5
    """How often the checkpointer folds the WAL back into the file (``_Checkpointer``): the
    WAL then holds about half a second of commits, far below ``WAL_PAGES``."""

    def __init__(self, conn: aiosqlite.Connection, raw: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self._raw = raw  # only ever used on the connection's own thread (inside ``_call``)
        self._wrapped = SqliteConnection(raw)
        self.path = path
        # Calls and turns in arrival order; ``_busy`` while a group commit or a turn holds the
        # connection. Only touched on the event loop's thread.
        self._queue: deque[_Job | _Turn] = deque()
        self._busy = False
        self._flusher: asyncio.Task[None] | None = None  # the running group commit (a ref)
        self._closed = False
        self.version = 0
        self._checkpointer: _Checkpointer | None = None

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
            steps = migrations("sqlite")
            target = steps[-1].version if target_version is None else target_version
            db.version = await db._call(_migrate, db._raw, str(file), steps, target)
            db._checkpointer = _Checkpointer(file, cls.CHECKPOINT_SECONDS)
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

    def pool_stats(self) -> dict[str, int]:
        """The one connection's queue: calls waiting for it (``queued``); and the WAL
        checkpoints made off the commit path so far (``checkpoints``)."""
        done = self._checkpointer.done if self._checkpointer is not None else 0
        return {"queued": len(self._queue), "checkpoints": done}

    async def close(self) -> None:
        """Wait for the calls queued before it, then close the connection (idempotent); calls
        made later raise StorageError."""
        await self._turn()
        try:
            if self._checkpointer is not None:
                await asyncio.to_thread(self._checkpointer.stop)
                self._checkpointer = None
            if not self._closed:
                self._closed = True
                await self._conn.close()
        finally:
            self._release()

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

    def _in_transaction(self, mode: str, fn: Callable[..., R], args: tuple[Any, ...]) -> R:
        raw = self._raw
        if raw.in_transaction:  # pragma: no cover - excluded by the queue; never touch another's
            raise StorageError("a transaction is already open on this connection")
        raw.execute(f"BEGIN {mode}")
        try:
            result: R = drive(fn(self._wrapped, *args))
            raw.execute("COMMIT")
        except BaseException:
            if raw.in_transaction:
                raw.execute("ROLLBACK")
            raise
        return result

    def _group(self, jobs: list[_Job]) -> list[_Outcome]:
        """Run ``jobs`` on the database thread as one group commit; one outcome per job."""
        if len(jobs) == 1:  # alone: exactly its own transaction, no savepoint
            job = jobs[0]
            try:
                mode = "IMMEDIATE" if job.write else "DEFERRED"
                return [(True, self._in_transaction(mode, job.fn, job.args))]
            except BaseException as exc:
                return [(False, exc)]
        outcomes: list[_Outcome | None] = [None] * len(jobs)
        todo = list(range(len(jobs)))
        while todo:
            todo = self._grouped_transaction(jobs, todo, outcomes)
        return outcomes  # type: ignore[return-value]  # every slot is filled by now

    def _grouped_transaction(
        self, jobs: list[_Job], todo: list[int], outcomes: list[_Outcome | None]
    ) -> list[int]:
        """One transaction over ``jobs[i] for i in todo``, each in a savepoint; fills
        ``outcomes`` and returns the jobs that must run again in a new transaction.

        A job that raises is rolled back to its savepoint and keeps its exception. If SQLite
        itself discarded the transaction when a job failed (it does after disk-full, I/O,
        out-of-memory and interrupt errors), the jobs that had run before it lost their work
        and run again. If a job ends the transaction itself (a misuse), it and the jobs before
        it get a StorageError. Any other failure (BEGIN, a savepoint, COMMIT) rolls everything
        back and is every remaining job's outcome, save those that failed on their own.
        """
        raw = self._raw
        ran: list[int] = []  # released into the transaction, waiting for the COMMIT
        try:
            if raw.in_transaction:  # pragma: no cover - excluded by the queue
                raise StorageError("a transaction is already open on this connection")
            write = any(jobs[i].write for i in todo)
            raw.execute("BEGIN IMMEDIATE" if write else "BEGIN DEFERRED")
            for n, i in enumerate(todo):
                job = jobs[i]
                raw.execute(f"SAVEPOINT {_SAVEPOINT}")
                try:
                    value = drive(job.fn(self._wrapped, *job.args))
                except BaseException as exc:
                    outcomes[i] = (False, exc)
                    if not raw.in_transaction:  # SQLite rolled the whole transaction back
                        return ran + todo[n + 1 :]
                    raw.execute(f"ROLLBACK TO {_SAVEPOINT}")
                    raw.execute(f"RELEASE {_SAVEPOINT}")
                    continue
                if not raw.in_transaction:
                    ended = StorageError("a database call ended its own transaction")
                    for k in (*ran, i):
                        outcomes[k] = (False, ended)
                    return todo[n + 1 :]
                raw.execute(f"RELEASE {_SAVEPOINT}")
                outcomes[i] = (True, value)
                ran.append(i)
            raw.execute("COMMIT")
        except BaseException as exc:
            try:
                if raw.in_transaction:
                    raw.execute("ROLLBACK")
            finally:
                for i in todo:
                    outcome = outcomes[i]
                    if outcome is None or outcome[0]:
                        outcomes[i] = (False, exc)
        return []

    def _submit(self, write: bool, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        if self._closed:
            raise StorageError("the database is closed")
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._queue.append(_Job(write, fn, args, future))
        self._pump()
        return future

    def _pump(self) -> None:
        """If the connection is free, start a group commit of the calls at the head of the
        queue or hand it to the turn at the head (event loop thread)."""
        queue = self._queue
        while queue and not self._busy:
            head = queue[0]
            if head.future.done():  # its caller was cancelled while it waited
                queue.popleft()
            elif isinstance(head, _Turn):
                queue.popleft()
                self._busy = True
                head.future.set_result(None)
            else:
                self._busy = True
                self._flusher = asyncio.get_running_loop().create_task(self._flush())

    async def _flush(self) -> None:
        """One group commit: the calls at the head of the queue (those that arrived until now,
        up to GROUP_MAX), in one hop to the database thread; then the next group, if any."""
        queue = self._queue
        jobs: list[_Job] = []
        while queue and isinstance(queue[0], _Job) and len(jobs) < self.GROUP_MAX:
            job = queue.popleft()
            if isinstance(job, _Job) and not job.future.done():
                jobs.append(job)
        try:
            if self._closed:
                raise StorageError("the database is closed")
            outcomes = await self._call(self._group, jobs) if jobs else []
        except asyncio.CancelledError:  # the event loop is shutting down: stop here
            for entry in (*jobs, *queue):
                entry.future.cancel()
            queue.clear()
            self._flusher, self._busy = None, False
            raise
        except BaseException as exc:
            outcomes = [(False, exc)] * len(jobs)
        for job, (ok, value) in zip(jobs, outcomes, strict=True):
            if job.future.done():  # cancelled after it started: the work was still done
                continue
            if ok:
                job.future.set_result(value)
            elif isinstance(value, StopIteration):  # a future cannot carry one (PEP 479)
                job.future.set_exception(RuntimeError(f"{value!r} raised in a database call"))
            else:
                job.future.set_exception(value)
        self._flusher, self._busy = None, False
        self._pump()

    async def _turn(self) -> None:
        """Wait until the connection is free and take it; ``_release()`` gives it back."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queue.append(_Turn(future))
        self._pump()
        try:
            await future
        except BaseException:
            if future.done() and not future.cancelled():  # granted, but we were cancelled
                self._release()
            raise

    def _release(self) -> None:
        self._busy = False
        self._pump()

    async def _transaction(self, write: bool, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """Run ``fn(conn, *args)`` as one transaction (``write``) or snapshot (a read); any error
        it raises undoes all its work.

        ``fn`` is a storage function (``async def`` over :class:`Connection`; SQLite-only code
        may be a plain function) and runs on the database thread: it must not touch asyncio
        objects nor end the transaction. Calls waiting at the same time share one
        group commit (see the module's docstring), each with the guarantees of its own
        ``BEGIN IMMEDIATE`` … ``COMMIT``: all or nothing, isolated, and committed when this
        returns ``fn``'s return value. A call cancelled before it started never runs; once
        started it runs to its end (commit or rollback) on the database thread. If a
        disk-full, I/O or interrupt error of another call makes SQLite discard the shared
        transaction, ``fn`` runs again in a new one (its first run left nothing). A read is
        one consistent snapshot (``BEGIN DEFERRED`` when no write shares its group).
        """
        return await self._submit(write, fn, args)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """``async with db.transaction() as conn:`` — BEGIN IMMEDIATE … COMMIT, or ROLLBACK on
        any exception (cancellation included), awaiting between statements (``conn`` speaks
        the :class:`Connection` protocol). It holds the connection throughout: do not call
        other ``Database`` methods inside it (they would wait)."""
        await self._turn()
        try:
            if self._closed:
                raise StorageError("the database is closed")
            await self._conn.execute("BEGIN IMMEDIATE")
            try:
                yield _HopConnection(self)
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
        finally:
            self._release()
