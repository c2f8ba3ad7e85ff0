"""数据库: one SQLite file, one aiosqlite connection, serialized transactions, numbered migrations.

Rules:

- The file is opened in WAL mode with ``foreign_keys=ON`` and a busy timeout; its parent folder
  is created. ``synchronous`` is "normal" (default: a crash of the bot never loses or
  half-applies a commit; a power loss may drop the last few commits, never half of one) or
  "full" (every commit is synced to disk).
- The schema is built by ``storage/migrations/NNNN_name.sql``, applied in order, each in its own
  transaction together with ``PRAGMA user_version = NNNN``. Opening an older file migrates it;
  a file whose version is newer than the newest migration here raises :class:`SchemaError`.
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
- No background task: SQLite checkpoints the WAL after the commit that makes it pass
  ``Database.WAL_PAGES`` pages, and a group commit is a short task that exists only while
  calls are waiting.
"""

from __future__ import annotations

import asyncio
import os
import re
import sqlite3
import threading
from collections import deque
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


class Database:
    """The hall's database: open with ``await Database.open(path)``, close with ``close()``."""

    WAL_PAGES = 4000
    """SQLite checkpoints (folds the WAL back into the file) after a commit once the WAL holds
    this many pages (16 MiB): a few hundred hands per checkpoint and its fsync, and pages
    rewritten by many commits are copied once."""

    GROUP_MAX = 64
    """Most calls one group commit takes (bounds how long the first of them waits)."""

    def __init__(self, conn: aiosqlite.Connection, raw: sqlite3.Connection, path: Path) -> None:
        self._conn = conn
        self._raw = raw  # only ever used on the connection's own thread (inside ``_call``)
        self.path = path
        # Calls and turns in arrival order; ``_busy`` while a group commit or a turn holds the
        # connection. Only touched on the event loop's thread.
        self._queue: deque[_Job | _Turn] = deque()
        self._busy = False
        self._flusher: asyncio.Task[None] | None = None  # the running group commit (a ref)
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
        """Wait for the calls queued before it, then close the connection (idempotent); calls
        made later raise StorageError."""
        await self._turn()
        try:
            if not self._closed:
                self._closed = True
                await self._conn.close()
        finally:
            self._release()

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

    def _in_transaction(self, mode: str, fn: Callable[..., R], args: tuple[Any, ...]) -> R:
        raw = self._raw
        if raw.in_transaction:  # pragma: no cover - excluded by the queue; never touch another's
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
                    value = job.fn(raw, *job.args)
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
        queue, jobs = self._queue, []
        while queue and isinstance(queue[0], _Job) and len(jobs) < self.GROUP_MAX:
            job = queue.popleft()
            if not job.future.done():
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

    async def run(self, fn: Callable[..., R], *args: Any) -> R:
        """Run ``fn(conn, *args)`` as one transaction; any error it raises undoes all its work.

        ``fn`` is synchronous sqlite3 code and runs on the database thread: it must not touch
        asyncio objects nor end the transaction. Calls waiting at the same time share one
        group commit (see the module's docstring), each with the guarantees of its own
        ``BEGIN IMMEDIATE`` … ``COMMIT``: all or nothing, isolated, and committed when this
        returns ``fn``'s return value. A call cancelled before it started never runs; once
        started it runs to its end (commit or rollback) on the database thread. If a
        disk-full, I/O or interrupt error of another call makes SQLite discard the shared
        transaction, ``fn`` runs again in a new one (its first run left nothing).
        """
        result: R = await self._submit(True, fn, args)
        return result

    async def read(self, fn: Callable[..., R], *args: Any) -> R:
        """Like ``run`` but for reads: one consistent snapshot (``BEGIN DEFERRED`` when no
        write shares its group)."""
        result: R = await self._submit(False, fn, args)
        return result

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """``async with db.transaction() as conn:`` — BEGIN IMMEDIATE … COMMIT, or ROLLBACK on
        any exception (cancellation included), awaiting between statements. It holds the
        connection throughout: do not call other ``Database`` methods inside it (they would
        wait)."""
        await self._turn()
        try:
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
        finally:
            self._release()
