"""Fixtures: a real database per test on each backend (``db``, from the suite's ``open_db``:
a temp SQLite file, and a fresh PostgreSQL database on the session's server), a wallet, a fake
clock. Every test that takes ``db`` (or ``backend``/``db_target``/``open_db``) runs once per
backend: the same storage suite, the same assertions, on both.
"""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: make support importable

from storage_support import COOLDOWN, GRANT, RELIEF, THRESHOLD, Clock  # noqa: E402

from storage.db import Storage, open_database  # noqa: E402
from storage.wallet import Wallet  # noqa: E402



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
