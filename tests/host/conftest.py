"""A real table manager over a real SQLite file, shown through the terminal notifier."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host.tables import TableManager
from bot.settings import Settings, load_settings
from bot.terminal import TerminalNotifier
from engines import registry
from storage.db import Database, open_database
from storage.wallet import Wallet


class Clock:
    """Wall-clock stand-in the tests move by hand (timers use asyncio time)."""

    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return load_settings(
        environ={"GAMEHALL_DB": str(tmp_path / "hall.db")}, known_games=registry.specs().keys()
    )


@pytest.fixture
async def db(settings: Settings) -> AsyncIterator[Database]:
    database = await open_database(settings.database)
    yield database
    await database.close()


@pytest.fixture
def printed() -> list[str]:
    return []


@pytest.fixture
async def manager(settings: Settings, db: Database, printed: list[str]
                  ) -> AsyncIterator[TableManager]:
    notifier = TerminalNotifier(uid=1, locale="en-US", out=printed.append)
    seeds = itertools.count(1000)
    mgr = TableManager(settings, db, Wallet.from_settings(db, settings), notifier,
                       clock=Clock(), seed_source=lambda: next(seeds))
    notifier.manager = mgr
    yield mgr
    await mgr.shutdown()
