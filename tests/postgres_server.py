"""A real PostgreSQL server for the tests: one per test session, a fresh database per test.

The server comes from the ``pgserver`` package (PostgreSQL's own binaries in a wheel, started
in a temporary folder, stopped at the end of the session). The schema is migrated once into a
template database; each test gets ``CREATE DATABASE … TEMPLATE`` (a file copy, milliseconds)
and drops it afterwards.

If no server can be started, the PostgreSQL tests are skipped with the reason, a warning and a
line in the summary; with ``GAMEHALL_REQUIRE_POSTGRES=1`` (CI) that is an error instead.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import itertools
import os
import tempfile
import warnings
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

import pytest

from storage.postgres import PostgresDatabase

REQUIRE = "GAMEHALL_REQUIRE_POSTGRES"
TEMPLATE = "gamehall_template"


class PostgresUnavailable(pytest.PytestWarning):
    """No PostgreSQL server could be started: the PostgreSQL tests were skipped."""


@dataclass
class Server:
    """A running server: ``url(name)`` of a database on it; ``problem`` when none runs."""

    handle: Any = None
    problem: str | None = None
    counter: itertools.count[int] = field(default_factory=lambda: itertools.count(1))

    def url(self, database: str) -> str:
        return str(self.handle.get_uri(database))

    async def admin(self) -> Any:
        import asyncpg

        return await asyncpg.connect(self.url("postgres"))

    async def new_database(self) -> str:
        """A fresh, migrated database (a copy of the template); its URL."""
        name = f"hall_{os.getpid()}_{next(self.counter)}"
        conn = await self.admin()
        try:
            await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE {TEMPLATE}')
        finally:
            await conn.close()
        return self.url(name)

    async def drop(self, url: str) -> None:
        name = urlsplit(url).path.lstrip("/")
        conn = await self.admin()
        try:
            await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await conn.close()


async def _template(server: Server) -> None:
    conn = await server.admin()
    try:
        await conn.execute(f"DROP DATABASE IF EXISTS {TEMPLATE}")
        await conn.execute(f"CREATE DATABASE {TEMPLATE}")
    finally:
        await conn.close()
    db = await PostgresDatabase.open(server.url(TEMPLATE), min_size=1, max_size=1)
    await db.close()


def start() -> Server:
    """Start the session's server (or describe why not)."""
    try:
        import asyncpg  # noqa: F401
        import pgserver
    except ImportError as exc:
        return Server(problem=f"{exc.name} is not installed (pip install -e '.[test]')")
    try:
        folder = tempfile.mkdtemp(prefix="gamehall-pg-")
        with warnings.catch_warnings():  # platformdirs: XDG_RUNTIME_DIR unset (harmless)
            warnings.simplefilter("ignore")
            handle = pgserver.get_server(folder, cleanup_mode="delete")
        server = Server(handle=handle)
        # the fixture may be first asked for inside a running event loop: migrate the template
        # on a thread of its own
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            pool.submit(asyncio.run, _template(server)).result(timeout=120)
        return server
    except Exception as exc:  # any failure to start is reported the same way
        return Server(problem=f"cannot start PostgreSQL with pgserver: {exc!r}"[:400])


def unavailable(server: Server) -> None:
    """Skip (loudly) or fail the calling test because no server runs."""
    message = f"PostgreSQL tests skipped: {server.problem}"
    if os.environ.get(REQUIRE) == "1":
        pytest.fail(f"{REQUIRE}=1 but {message}", pytrace=False)
    warnings.warn(message, PostgresUnavailable, stacklevel=2)
    pytest.skip(message)


def stop(server: Server) -> None:
    if server.handle is not None:
        server.handle.cleanup()
