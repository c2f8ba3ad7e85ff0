"""The real bot against SimCord's simulated Discord, with a real SQLite file per test."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

from simhelpers import make_bot  # noqa: E402

from bot.client import GameHall  # noqa: E402
from bot.settings import Settings, load_settings  # noqa: E402
from engines import registry  # noqa: E402


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The shipped configuration, with English as the public language of servers that choose
    none (SimCord's servers are not Community servers), so scenarios read English tables."""
    config = tmp_path / "test.toml"
    # Scenarios act at the speed of a loaded test machine, and SimCord's timers also fire in
    # real time: a 2-second auto-pass would race the scripted players (tests/host covers it).
    config.write_text('[hall]\nlocale_default = "en-US"\n[timers]\nautopass = 3600\n',
                      encoding="utf-8")
    return load_settings(
        environ={"GAMEHALL_DB": str(tmp_path / "hall.db"), "GAMEHALL_CONFIG": str(config)},
        known_games=registry.specs().keys(),
    )


@pytest.fixture
async def simcord_bot(settings: Settings) -> AsyncIterator[GameHall]:
    bot = make_bot(settings)
    yield bot
    db = getattr(bot, "db", None)
    if db is not None:
        await db.close()  # idempotent: the bot closes it on shutdown too
