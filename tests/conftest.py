"""Fixtures every part of the suite may take: a real database on each storage backend.

``backend`` is "sqlite" or "postgresql" (a test taking it, or ``db_target``/``open_db``, runs
once per backend); ``db_target`` is what ``open_database`` takes for that test — a temp SQLite
file, or a fresh database on the session's PostgreSQL server (``tests/postgres_server.py``).
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: make support importable

import postgres_server  # noqa: E402

from storage.db import Storage, open_database  # noqa: E402

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


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if _skipped:
        terminalreporter.write_sep(
            "!", f"PostgreSQL UNAVAILABLE: {len(_skipped)} PostgreSQL tests skipped", red=True
        )
