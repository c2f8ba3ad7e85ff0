"""PostgreSQL: the storage adapter for several bot processes sharing one hall (asyncpg).

Selected by a ``postgresql://`` URL (``GAMEHALL_DB`` or ``[hall].database``; see
``storage.open_database``). Every storage function is the same ``async def fn(conn, *args)``
the SQLite adapter runs (``storage.db``); here it runs inside one asyncpg transaction on a
connection from a pool:

- ``run``: ``READ COMMITTED`` with row locks. Functions that read a row and then write from what
  they read lock it first (``SELECT … FOR NO KEY UPDATE``, ``conn.for_update``), always in the
  same order (a hand before its players, players by id), and every balance change stays a
  guarded arithmetic ``UPDATE`` (``SET balance = balance - $1 WHERE … AND balance >= $1``), so
  two processes settling, holding or granting at once serialize on the rows they share and
  never lose an update. A deadlock or serialization failure rolls the transaction back and runs
  the function again (up to ``RETRIES`` times): its first run left nothing.
- ``read``: ``REPEATABLE READ READ ONLY``, one consistent snapshot — except a read of one
  plain SELECT, which is one snapshot by itself and runs with no BEGIN/COMMIT (one round trip;
  a read function that turns out to need more statements is stopped before its second, run
  again in a transaction, and remembered).
- ``run_autocommit``: no transaction around the function (each statement commits on its own),
  for writes that are one statement checked against what was read (``Storage.run_autocommit``).
- The pool's reset of a returned connection is a no-op (``_keep_session``).
- A call whose caller is cancelled once it has started still runs to its end (commit or
  rollback), as on SQLite.
- SQL is written once with ``?``/``?N`` placeholders (``storage.db``); each statement text is
  rewritten to ``$N`` once and cached, and asyncpg caches its prepared statement per
  connection. ``executemany`` of an ``INSERT`` that always writes one row per item is one
  pipelined round trip; any other ``executemany`` runs item by item so its row count is exact.
- The schema is ``storage/migrations/postgresql/NNNN_*.sql`` with a ``schema_version`` table
  (one row per applied step), applied under an advisory lock so processes starting together
  migrate once. A database newer than the code is refused (SchemaError).
- Discord ids and amounts are ``BIGINT``; the house's rake is not a balance row every
  settlement updates (see ``Wallet``: it is ledgered, and counted in ``house_rake`` shards).
"""

from __future__ import annotations

import asyncio
import random
import re
from collections.abc import AsyncIterator, Callable, Iterable, Sequence
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from storage.db import ListRows, Storage, migrations
from storage.errors import SchemaError, StorageError

try:
    import asyncpg
except ImportError:  # pragma: no cover - reported when a PostgreSQL URL is opened
    asyncpg = None

_MIGRATION_LOCK = 0x6761_6D65  # pg_advisory_xact_lock key: "game"
_PLACEHOLDER = re.compile(r"'(?:[^']|'')*'|\"[^\"]*\"|\?(\d*)")


class _Statement:
    """A statement text rewritten for PostgreSQL, with what its execution needs to know."""

    __slots__ = ("one_row_each", "returns_rows", "sql")

    def __init__(self, text: str) -> None:
        counter = 0

        def number(match: re.Match[str]) -> str:
            nonlocal counter
            if not match.group(0).startswith("?"):
                return match.group(0)  # a quoted literal or identifier: unchanged
            if match.group(1):
                return f"${match.group(1)}"
            counter += 1
            return f"${counter}"

        self.sql = _PLACEHOLDER.sub(number, text)
        head = text.lstrip().split(None, 1)[0].upper() if text.strip() else ""
        upper = text.upper()
        self.returns_rows = head in ("SELECT", "WITH", "VALUES") or " RETURNING " in upper
        self.one_row_each = head == "INSERT" and "DO NOTHING" not in upper and "SELECT" not in upper


_STATEMENTS: dict[str, _Statement] = {}


def _statement(text: str) -> _Statement:
    found = _STATEMENTS.get(text)
    if found is None:
        if len(_STATEMENTS) > 4096:  # dynamic texts (IN lists) must not grow it without end
            _STATEMENTS.clear()
        found = _STATEMENTS[text] = _Statement(text)
    return found


def placeholders(sql: str) -> str:
    """``sql`` with ``?``/``?N`` rewritten to PostgreSQL's ``$N`` (literals untouched).

    >>> placeholders("SELECT '?' , ? FROM t WHERE a = ?3 AND b = ?")
    "SELECT '?' , $1 FROM t WHERE a = $3 AND b = $2"
    """
    return _statement(sql).sql


def _count(status: str) -> int:
    """The row count in a command tag ("UPDATE 3", "INSERT 0 1"), or -1."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else -1


class PgConnection:
    """The storage ``Connection`` protocol over one asyncpg connection in a transaction."""

    dialect = "postgresql"
    for_update = " FOR NO KEY UPDATE"
    refused: type[Exception] = asyncpg.RaiseError if asyncpg is not None else Exception
    """What a server function's ``RAISE EXCEPTION`` (SQLSTATE P0001: a refusal whose reason
    is in ``hint``) raises here."""

    def __init__(self, conn: Any) -> None:
        self.raw = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> ListRows:
        statement = _statement(sql)
        if statement.returns_rows:
            rows = [tuple(r) for r in await self.raw.fetch(statement.sql, *params)]
            return ListRows(rows, len(rows))
        status = await self.raw.execute(statement.sql, *params)
        return ListRows([], _count(status))

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> ListRows:
        statement = _statement(sql)
        items = list(rows)
        if not items:
            return ListRows([], 0)
        if statement.one_row_each and not statement.returns_rows:
            await self.raw.executemany(statement.sql, items)
            return ListRows([], len(items))
        total = 0
        for item in items:
            total += (await self.execute(sql, item)).rowcount
        return ListRows([], total)


async def _keep_session(conn: Any) -> None:
    """The pool's reset of a connection given back: nothing to undo. asyncpg's default sends
    ``RESET ALL``, ``UNLISTEN *``, ``CLOSE ALL`` and an advisory unlock — one more round trip
    per operation — but the storage never changes a session: no SET, no LISTEN, no cursor
    left open, only transaction-scoped advisory locks. (asyncpg still rolls back a
    transaction left open before calling this.)"""


class _NeedsSnapshot(BaseException):  # a signal, not an error: no read catches it
    """A read asked for a second statement (or one that is not a plain SELECT)."""


_SNAPSHOT_READS: set[Any] = set()
"""The code of every read function that issued more than one statement: those run in a
``REPEATABLE READ READ ONLY`` transaction from then on (a set of code objects, which live as
long as their functions' module)."""


class _OneSelect(PgConnection):
    """A read's connection outside any transaction: it runs the read's first statement, if a
    plain SELECT (one statement sees one snapshot, and a SELECT writes nothing), and stops the
    read at anything more (``_NeedsSnapshot``: the read runs again in a transaction). Reads of
    one statement so cost one round trip instead of three (BEGIN, SELECT, COMMIT)."""

    def __init__(self, conn: Any) -> None:
        super().__init__(conn)
        self._used = False

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> ListRows:
        if self._used or not sql.lstrip()[:6].upper() == "SELECT":
            raise _NeedsSnapshot
        self._used = True
        return await super().execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> ListRows:
        raise _NeedsSnapshot


def _redacted(url: str) -> str:
    """``url`` without its password, for messages and ``repr``."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.replace(f":{parts.password}@", ":***@", 1)
    return urlunsplit(parts._replace(netloc=netloc))


class PostgresDatabase(Storage):
    """The hall's PostgreSQL database: ``await PostgresDatabase.open(url)``, ``close()``."""

    dialect = "postgresql"
    RETRIES = 20
    """Runs of one function after deadlocks or serialization failures before giving up."""

    def __init__(self, pool: Any, url: str) -> None:
        self._pool = pool
        self.url = url
        self.path = _redacted(url)  # what messages and reprs show
        self._closed = False
        self.version = 0
        self.integrity_error = asyncpg.IntegrityConstraintViolationError
        self._retryable = (asyncpg.DeadlockDetectedError, asyncpg.SerializationError)

    @classmethod
    async def open(
        cls,
        url: str,
        *,
        min_size: int = 2,
        max_size: int = 10,
        target_version: int | None = None,
        server_settings: dict[str, str] | None = None,
        connection_class: type[Any] | None = None,
    ) -> PostgresDatabase:
        """Connect a pool of ``min_size``..``max_size`` connections to ``url`` and migrate the
        schema (``target_version``: stop there). ``server_settings``: PostgreSQL settings for
        the pool's sessions (e.g. ``{"synchronous_commit": "off"}``). ``connection_class``:
        the pool's connection class, a subclass of ``asyncpg.Connection`` (default: that).

        StorageError if asyncpg is not installed or the server cannot be reached; SchemaError
        for a database newer than this code.
        """
        if asyncpg is None:
            raise StorageError(
                "a postgresql:// database needs asyncpg: pip install 'gamehall[postgresql]'"
            )
        try:
            pool = await asyncpg.create_pool(
                url,
                min_size=min_size,
                max_size=max_size,
                server_settings=server_settings,
                reset=_keep_session,
                **({"connection_class": connection_class} if connection_class else {}),
            )
        except (OSError, asyncpg.PostgresError) as exc:
            raise StorageError(f"cannot connect to {_redacted(url)}: {exc}") from exc
        db = cls(pool, url)
        try:
            steps = migrations("postgresql")
            target = steps[-1].version if target_version is None else target_version
            db.version = await db._migrate(steps, target)
        except BaseException:
            await pool.close()
            db._closed = True
            raise
        return db

    async def _migrate(self, steps: Sequence[Any], target: int) -> int:
        latest = steps[-1].version if steps else 0

        def newer(current: int) -> SchemaError:
            return SchemaError(
                f"{self.path} has schema version {current}, but this gamehall knows only up to "
                f"version {latest}: upgrade gamehall, or use another database"
            )

        async with self._pool.acquire() as conn:
            for step in (*steps, None):
                async with conn.transaction():
                    await conn.execute("SELECT pg_advisory_xact_lock($1)", _MIGRATION_LOCK)
                    await conn.execute(
                        "CREATE TABLE IF NOT EXISTS schema_version ("
                        "version INTEGER PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL "
                        "DEFAULT now())"
                    )
                    current = int(
                        await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version")
                    )
                    if current > latest:
                        raise newer(current)
                    if step is None:
                        return current
                    if step.version > target or current >= step.version:
                        continue
                    await conn.execute(step.sql)
                    await conn.execute(
                        "INSERT INTO schema_version (version) VALUES ($1)", step.version
                    )
        raise AssertionError("unreachable")  # pragma: no cover

    def __repr__(self) -> str:
        return f"<PostgresDatabase {self.path}>"

    async def close(self) -> None:
        """Close the pool (idempotent); calls made later raise StorageError."""
        if not self._closed:
            self._closed = True
            await self._pool.close()

    def pool_stats(self) -> dict[str, int]:
        """The pool's connections: ``in_use`` and ``size``."""
        size = self._pool.get_size()
        return {"in_use": size - self._pool.get_idle_size(), "size": size}

    async def _transaction(self, write: bool, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """Run ``fn`` in one transaction (see the module's docstring); a write runs to its end
        even if its caller is cancelled, as on SQLite."""
        if write:
            return await asyncio.shield(self._attempts(write, fn, args))
        return await self._attempts(write, fn, args)

    async def run_autocommit(self, fn: Callable[..., Any], *args: Any) -> Any:
        """Run ``fn`` with no BEGIN/COMMIT: each of its statements commits on its own (see
        ``Storage.run_autocommit``); retried on deadlocks and serialization failures, and
        run to its end even if its caller is cancelled."""
        return await asyncio.shield(self._attempts(True, fn, args, autocommit=True))

    async def _attempts(
        self, write: bool, fn: Callable[..., Any], args: tuple[Any, ...], *,
        autocommit: bool = False,
    ) -> Any:
        if self._closed:
            raise StorageError("the database is closed")
        async with self._pool.acquire() as raw:
            conn = PgConnection(raw)
            for attempt in range(self.RETRIES):
                try:
                    if autocommit:
                        result = fn(conn, *args)
                        return await result if asyncio.iscoroutine(result) else result
                    if write:
                        async with raw.transaction():
                            result = fn(conn, *args)
                            return await result if asyncio.iscoroutine(result) else result
                    code = getattr(fn, "__code__", None)
                    if code is not None and code not in _SNAPSHOT_READS:
                        try:  # one SELECT is one snapshot by itself: no BEGIN/COMMIT needed
                            result = fn(_OneSelect(raw), *args)
                            return await result if asyncio.iscoroutine(result) else result
                        except _NeedsSnapshot:
                            _SNAPSHOT_READS.add(code)  # this read runs in a transaction now on
                    async with raw.transaction(isolation="repeatable_read", readonly=True):
                        result = fn(conn, *args)
                        return await result if asyncio.iscoroutine(result) else result
                except self._retryable:
                    if attempt == self.RETRIES - 1:
                        raise
                    await asyncio.sleep(random.uniform(0, 0.002 * (attempt + 1)))
        raise AssertionError("unreachable")  # pragma: no cover

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[PgConnection]:
        """``async with db.transaction() as conn:`` — one transaction on one pooled connection,
        awaiting between statements; rolled back on any exception (cancellation included)."""
        if self._closed:
            raise StorageError("the database is closed")
        async with self._pool.acquire() as raw, raw.transaction():
            yield PgConnection(raw)
