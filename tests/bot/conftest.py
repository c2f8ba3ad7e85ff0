"""The real bot against SimCord's simulated Discord, with a real SQLite file per test."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simhelpers import day_long_settings, make_bot

from bot.client import GameHall
from bot.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The shipped configuration in English with every turn a day long (``day_long_settings``).

    SimCord also fires a pending timer once its time has passed in real time, and a settle that
    sees one due within its 5-second window waits for it: a scenario that runs longer than the
    shortest turn (10 s) on a loaded machine would race its own timers. Scenarios about timeouts
    advance the simulated clock by ``settings.timer(phase)``, whatever its length."""
    return day_long_settings(tmp_path)


@pytest.fixture
async def simcord_bot(settings: Settings) -> AsyncIterator[GameHall]:
    bot = make_bot(settings)
    yield bot
    db = getattr(bot, "db", None)
    if db is not None:
        await db.close()  # idempotent: the bot closes it on shutdown too
