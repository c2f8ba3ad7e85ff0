"""Fixtures: a real database per test — a temp SQLite file, and a fresh PostgreSQL database on
the session's server (``postgres_server``) — a wallet, a fake clock.

Every test that takes ``db`` (or ``backend``/``db_target``) runs once per backend: the same
storage suite, the same assertions, on both.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: make support importable

import postgres_server  # noqa: E402
from storage_support import COOLDOWN, GRANT, RELIEF, THRESHOLD, Clock  # noqa: E402

from storage.db import Storage, open_database  # noqa: E402
from storage.wallet import Wallet  # noqa: E402

BACKENDS = ("sqlite", "postgresql")
_skipped: list[str] = []


@pytest.fixture(scope="session")
def pg_server() -> Iterator[postgres_server.Server]:
    server = postgres_server.start()
    try:
        yield server
    finally:
        postgres_server.stop(server)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest) -> str:
    """The storage backend this run of the test uses."""
    return str(request.param)


@pytest.fixture
async def db_target(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> AsyncIterator[Path | str]:
    """What ``open_database`` takes for this test: a SQLite path, or a fresh PostgreSQL
    database's URL (dropped afterwards)."""
    if backend == "sqlite":
        yield tmp_path / "data" / "hall.db"
        return
    server: postgres_server.Server = request.getfixturevalue("pg_server")
    if server.problem:
        _skipped.append(request.node.nodeid)
        postgres_server.unavailable(server)
    url = await server.new_database()
    try:
        yield url
    finally:
        await server.drop(url)


@pytest.fixture
def open_db(db_target: Path | str) -> Callable[..., Awaitable[Storage]]:
    """Open (again) this test's database: ``await open_db()``."""

    async def opener(**options: Any) -> Storage:
        return await open_database(db_target, **options)

    return opener


@pytest.fixture
async def db(open_db: Callable[..., Awaitable[Storage]]) -> AsyncIterator[Storage]:
    database = await open_db()
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def wallet(db: Storage, clock: Clock) -> Wallet:
    return Wallet(
        db,
        starting_grant=GRANT,
        relief_amount=RELIEF,
        relief_threshold=THRESHOLD,
        relief_cooldown_s=COOLDOWN,
        clock=clock,
    )


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _skipped:
        terminalreporter.write_sep(
            "!", f"PostgreSQL UNAVAILABLE: {len(_skipped)} PostgreSQL storage tests skipped", red=True
        )
