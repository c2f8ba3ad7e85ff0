"""Fixtures: a real temp-file database per test (closed afterwards), a wallet, a fake clock."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))  # --import-mode=importlib: make support importable

from storage_support import COOLDOWN, GRANT, RELIEF, THRESHOLD, Clock  # noqa: E402

from storage.db import Database  # noqa: E402
from storage.wallet import Wallet  # noqa: E402


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
async def db(tmp_path: Path) -> AsyncIterator[Database]:
    database = await Database.open(tmp_path / "data" / "hall.db")
    try:
        yield database
    finally:
        await database.close()


@pytest.fixture
def wallet(db: Database, clock: Clock) -> Wallet:
    return Wallet(
        db,
        starting_grant=GRANT,
        relief_amount=RELIEF,
        relief_threshold=THRESHOLD,
        relief_cooldown_s=COOLDOWN,
        clock=clock,
    )
