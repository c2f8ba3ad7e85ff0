"""The web table over a real table manager and a real SQLite file, served by aiohttp on a
free loopback port: pages are fetched and WebSockets opened as a browser would."""

from __future__ import annotations

import itertools
import sys
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import aiohttp
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from webhelpers import SECRET

from bot.host.tables import TableManager
from bot.settings import Settings, WebSettings, load_settings
from bot.terminal import TerminalNotifier
from bot.web.server import WebServer
from engines import registry
from storage.db import Database, open_database
from storage.wallet import Wallet


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    base = load_settings(environ={"GAMEHALL_DB": str(tmp_path / "hall.db")},
                         known_games=registry.specs().keys())
    return replace(base, web=WebSettings(enabled=True, port=0, actions_per_second=5))


@pytest.fixture
async def db(settings: Settings) -> AsyncIterator[Database]:
    database = await open_database(settings.database)
    yield database
    await database.close()


@pytest.fixture
async def manager(settings: Settings, db: Database) -> AsyncIterator[TableManager]:
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda line: None)
    seeds = itertools.count(1000)
    mgr = TableManager(settings, db, Wallet.from_settings(db, settings), notifier,
                       clock=time.time, seed_source=lambda: next(seeds))
    notifier.manager = mgr
    yield mgr
    await mgr.shutdown()


@pytest.fixture
async def server(settings: Settings, manager: TableManager) -> AsyncIterator[WebServer]:
    web = WebServer(settings.web, manager, SECRET)
    await web.start()
    yield web
    await web.stop()


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session




sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bot"))

from simhelpers import day_long_settings, make_bot

from bot.client import GameHall


@pytest.fixture
def hall_settings(tmp_path: Path) -> Settings:
    """The SimCord scenarios' settings (day-long turns, English) with the web table on, on a
    free loopback port, its secret in the test's folder."""
    base = day_long_settings(tmp_path)
    # the scenarios click as fast as the bot answers: the rate limit has its own test
    return replace(base, web=WebSettings(enabled=True, port=0, actions_per_second=100,
                                         secret_file=str(tmp_path / "web-secret")))


@pytest.fixture
async def simcord_bot(hall_settings: Settings) -> AsyncIterator[GameHall]:
    bot = make_bot(hall_settings)
    yield bot
    db = getattr(bot, "db", None)
    if db is not None:
        await db.close()
