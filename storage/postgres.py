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
  Its statements are *group-committed*: the same statement text sent by several calls at once
  (the action log of many tables, the settlements of many tables) goes to the server in ONE
  round trip and ONE commit (``_Lane``: the calls waiting when the previous group is back, up
  to ``GROUP_MAX``), and each call is answered once that commit is done. If the group fails
  as a whole, nothing of it stays and every call runs its statement again on its own, so each
  gets its own result or error, as if it had run alone.
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

    __slots__ = ("groups_rows", "one_row_each", "returns_rows", "single_row", "sql", "text")

    def __init__(self, text: str) -> None:
        self.text = text
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
        # a SELECT whose rows several calls may fetch together (``fetchmany``: one row each,
        # told apart by their order): a function call alone (always one row), or a read of
        # tables that calls no function of ours (running it again, if the group's rows do not
        # come one per call, changes nothing)
        self.groups_rows = head == "SELECT" and (
            " FROM " not in upper or "GAMEHALL_" not in upper
        )
        self.single_row: bool | None = None
        """Whether its first run returned exactly one row (only those are grouped)."""


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
            if statement.single_row is None:
                statement.single_row = len(rows) == 1
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


class _Alone(Exception):
    """A group failed as a whole: the call runs its statement again by itself."""


class _Call:
    """One call's statement waiting in a ``_Lane``: its parameter rows (one for ``execute``)."""

    __slots__ = ("future", "rows")

    def __init__(self, rows: list[Sequence[Any]]) -> None:
        self.rows = rows
        self.future: asyncio.Future[ListRows] = asyncio.get_running_loop().create_future()


class _Lane:
    """Group commit of one statement text: the calls that arrive while the previous group is
    at the server wait here, then go together in one round trip on one pooled connection —
    ``executemany`` for rows written one per parameter row, ``fetchmany`` for a one-row
    SELECT (one row back per call, in order). asyncpg sends either as ONE implicit
    transaction: one commit for the group, and a group that fails leaves nothing. A failed
    group is split in two and each half sent again, down to single calls, which get their own
    result or error (two settlements of one player in one group: the second finds the
    balance the first moved; so the first settles with its half and the second alone gets
    its serialization failure, and is run again by its caller). A group whose rows do not
    come one per call answers every call with ``_Alone`` (it runs its statement itself)."""

    GROUP_MAX = 64
    """Most calls in one group (bounds the first call's wait behind the others)."""
    PARALLEL = 2
    """Most groups of one lane at the server at once, each on its own connection (so the
    server's work on them runs on two of its processes, and a group does not wait for the
    whole previous one to come back)."""

    def __init__(self, pool: Any, statement: _Statement) -> None:
        self._pool = pool
        self._statement = statement
        self._waiting: list[_Call] = []
        self._tasks: set[asyncio.Task[None]] = set()  # the flushers running (references)
        self._starting = False  # a flusher is made and has not taken its group yet

    @property
    def busy(self) -> bool:
        return bool(self._tasks)

    async def submit(self, rows: list[Sequence[Any]]) -> ListRows:
        call = _Call(rows)
        self._waiting.append(call)
        self._start()
        return await call.future

    def _start(self) -> None:
        if self._waiting and not self._starting and len(self._tasks) < self.PARALLEL:
            # it takes its group on the loop's next turn: the calls of this turn are in then
            self._starting = True
            self._tasks.add(asyncio.get_running_loop().create_task(self._flush()))

    async def _flush(self) -> None:
        group: list[_Call] = []
        self._starting = False
        try:
            while self._waiting:
                group = self._waiting[: self.GROUP_MAX]
                del self._waiting[: self.GROUP_MAX]
                try:
                    async with self._pool.acquire() as raw:
                        await self._send(raw, group)
                except Exception as exc:  # noqa: BLE001 - no connection: each call hears why
                    _answer(group, exc)
        except BaseException as exc:  # cancelled (the pool closing): nobody may wait forever
            _answer([*group, *self._waiting], StorageError(f"the group commit stopped: {exc!r}"))
            self._waiting.clear()
            raise
        finally:
            task = asyncio.current_task()
            self._tasks.discard(task)  # type: ignore[arg-type]
            self._start()  # calls that came as it stopped

    async def _send(self, raw: Any, group: list[_Call]) -> None:
        statement = self._statement
        if len(group) == 1:
            call = group[0]
            conn = PgConnection(raw)
            try:
                if len(call.rows) == 1:
                    result = await conn.execute(statement.text, call.rows[0])
                else:
                    result = await conn.executemany(statement.text, call.rows)
            except Exception as exc:  # noqa: BLE001 - its own error, as if it ran alone
                call.future.set_exception(exc)
            else:
                call.future.set_result(result)
            return
        rows = [row for call in group for row in call.rows]
        try:
            if statement.returns_rows:
                fetched = await raw.fetchmany(statement.sql, rows)
            else:
                await raw.executemany(statement.sql, rows)
        except Exception:  # noqa: BLE001 - nothing of the group stayed: each half again
            half = len(group) // 2
            await self._send(raw, group[:half])
            await self._send(raw, group[half:])
            return
        if not statement.returns_rows:
            for call in group:
                call.future.set_result(ListRows([], len(call.rows)))
        elif len(fetched) != len(group):  # not one row each: nothing to tell them apart by
            statement.single_row = False
            _answer(group, _Alone())
        else:
            for call, row in zip(group, fetched, strict=True):
                call.future.set_result(ListRows([tuple(row)], 1))


def _answer(calls: list[_Call], exc: BaseException) -> None:
    for call in calls:
        if not call.future.done():
            call.future.set_exception(exc)


class _Grouped(PgConnection):
    """``run_autocommit``'s connection: each statement that may be grouped (see ``_Lane``)
    waits in its text's lane; any other statement, and every statement after one that was not
    grouped, runs on a pooled connection this call holds to its end (a call that holds a
    connection never waits for a lane, so the lanes always find one free)."""

    def __init__(self, db: PostgresDatabase) -> None:
        super().__init__(None)
        self._db = db

    async def _own(self) -> None:
        if self.raw is None:
            self.raw = await self._db._pool.acquire()

    async def release(self) -> None:
        if self.raw is not None:
            raw, self.raw = self.raw, None
            await self._db._pool.release(raw)

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> ListRows:
        statement = _statement(sql)
        if self.raw is None:
            if statement.returns_rows:
                grouped = statement.groups_rows and statement.single_row
            else:
                grouped = statement.one_row_each
            if grouped:
                try:
                    return await self._db._lane(statement).submit([params])
                except _Alone:
                    pass
        await self._own()
        return await super().execute(sql, params)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> ListRows:
        statement = _statement(sql)
        items = list(rows)
        if self.raw is None and items and statement.one_row_each and not statement.returns_rows:
            try:
                return await self._db._lane(statement).submit(items)
            except _Alone:
                pass
        await self._own()
        return await super().executemany(sql, items)


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
        self._lanes: dict[str, _Lane] = {}
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

    def _lane(self, statement: _Statement) -> _Lane:
        """The group commit of ``statement``'s text (one per text, made on first use)."""
        lane = self._lanes.get(statement.text)
        if lane is None:
            if len(self._lanes) > 1024:  # dynamic texts must not grow it without end
                self._lanes = {k: v for k, v in self._lanes.items() if v.busy}
            lane = self._lanes[statement.text] = _Lane(self._pool, statement)
        return lane

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
        if autocommit:
            return await self._autocommit(fn, args)
        async with self._pool.acquire() as raw:
            conn = PgConnection(raw)
            for attempt in range(self.RETRIES):
                try:
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

    async def _autocommit(self, fn: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``fn`` on a ``_Grouped`` connection (statements group-committed with other calls'),
        run again on deadlocks and serialization failures."""
        for attempt in range(self.RETRIES):
            conn = _Grouped(self)
            try:
                result = fn(conn, *args)
                return await result if asyncio.iscoroutine(result) else result
            except self._retryable:
                if attempt == self.RETRIES - 1:
                    raise
            finally:
                await conn.release()
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
