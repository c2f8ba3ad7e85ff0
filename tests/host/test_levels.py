"""托管水平 at the host: a bot keeps the level it was added with (saved and restored), a
person's seat plays at the room's level when the trustee covers it, and a hard trustee thinks
off the event loop, so another table's action goes through meanwhile."""

from __future__ import annotations

import asyncio
import itertools
import threading
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import ClassVar

import pytest

from bot.host.model import Seat
from bot.host.tables import TableManager
from bot.settings import Settings
from bot.terminal import TerminalNotifier
from engines.base import HARD, GameSpec
from storage.db import Database
from storage.wallet import Wallet
from tests.host.claimgame import SPEC, ClaimGame
from tests.host.waiting import until

GUILD = 77


class Pondering(ClaimGame):
    """认牌 whose hard trustee thinks until the test lets it answer (a long search)."""

    thinking = threading.Event()
    answer = threading.Event()
    levels: ClassVar[list[str]] = []

    def _trustee(self, seat: int, level: str = "normal") -> str:
        Pondering.levels.append(level)
        if level == HARD:
            Pondering.thinking.set()
            assert Pondering.answer.wait(10), "the test never let the trustee answer"
        return super()._trustee(seat, level)


PONDER = replace(SPEC, key="ponder", game=Pondering)


def with_games(settings: Settings, *specs: GameSpec, level: str = "normal") -> Settings:
    novice = settings.rooms["novice"]
    keys = tuple(s.key for s in specs)
    rooms = {**settings.rooms,
             "novice": replace(novice, games=(*novice.games, *keys), trustee_level=level)}
    return replace(settings, rooms=rooms, timers={**settings.timers, "discard": 30, "claim": 30})


@pytest.fixture
async def hall(settings: Settings, db: Database) -> AsyncIterator[TableManager]:
    Pondering.thinking.clear()
    Pondering.answer.clear()
    Pondering.levels.clear()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda _: None)
    manager = TableManager(with_games(settings, SPEC, PONDER), db,
                           Wallet.from_settings(db, settings), notifier,
                           clock=lambda: 1_000.0, seed_source=itertools.count(1).__next__)
    manager.specs[SPEC.key] = SPEC
    manager.specs[PONDER.key] = PONDER
    notifier.manager = manager
    yield manager
    Pondering.answer.set()
    await manager.shutdown()


async def test_a_bot_keeps_its_level_and_a_bad_level_is_refused(hall: TableManager) -> None:
    await hall.create(GUILD, 10, PONDER.key, "novice", 1, "ann")
    with pytest.raises(Exception, match="err.bad_level") as caught:
        await hall.add_bot(10, 1, level="expert")
    assert caught.value.text.args["levels"] == "easy, normal, hard"  # type: ignore[attr-defined]
    assert len(hall.get(10).seats) == 1, "nothing changed"
    await hall.add_bot(10, 1, level="easy")
    await hall.add_bot(10, 1)
    seats = hall.get(10).seats
    assert [s.level for s in seats[1:]] == ["easy", "normal"]
    # the seat is saved with its level and read back
    assert Seat.from_json(seats[1].to_json()).level == "easy"
    with pytest.raises(ValueError, match="level"):
        Seat.from_json({**seats[1].to_json(), "level": "expert"})
    assert Seat.from_json({k: v for k, v in seats[1].to_json().items() if k != "level"}
                          ).level == "normal", "a save from before levels plays normal"


async def test_a_hard_trustee_thinks_while_another_table_plays(hall: TableManager) -> None:
    """Table 10: ann, then a hard bot to discard next, which thinks until released. Table 20:
    three people; bob's discard there goes through while the bot still thinks."""
    await hall.create(GUILD, 10, PONDER.key, "novice", 1, "ann")
    await hall.add_bot(10, 1, level=HARD)
    await hall.add_bot(10, 1, level=HARD)
    await hall.create(GUILD, 20, SPEC.key, "novice", 2, "bob")
    await hall.join(20, 3, "cat")
    await hall.join(20, 4, "dan")
    await hall.start(20, 2)
    await hall.start(10, 1)
    # ann discards: both bots may claim it, and the first one's trustee thinks
    discard = asyncio.create_task(hall.act(10, 1, "discard"))
    await until(Pondering.thinking.is_set)
    assert Pondering.thinking.is_set(), "the hard bot never started thinking"
    other = hall.get(20)
    assert other.game is not None and other.game.to_act() == (0,)
    await asyncio.wait_for(hall.act(20, 2, "discard"), 5)
    assert other.game.to_act() == (1, 2), "table 20 moved on while table 10's bot thinks"
    assert not discard.done() and not Pondering.answer.is_set()
    Pondering.answer.set()
    await asyncio.wait_for(discard, 10)
    table = hall.get(10)
    assert table.game is None or 1 not in table.game.to_act(), "the bots answered"
    assert HARD in Pondering.levels


async def test_a_restart_keeps_each_bot_s_level_mid_hand(
    hall: TableManager, db: Database
) -> None:
    """A hand with an easy and a hard bot, the hall restarted mid-hand: the restored seats
    keep their levels, and the hard bot still thinks at hard."""
    await hall.create(GUILD, 10, SPEC.key, "novice", 1, "ann")
    await hall.add_bot(10, 1, level="easy")
    await hall.add_bot(10, 1, level=HARD)
    await hall.start(10, 1)
    await hall.shutdown()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda _: None)
    again = TableManager(hall.settings, db, hall.wallet, notifier, clock=hall.clock)
    again.specs[SPEC.key] = SPEC
    notifier.manager = again
    await again.restore()
    try:
        assert [s.level for s in again.get(10).seats] == ["normal", "easy", "hard"]
        assert again.trustee_level(again.get(10), 2) == HARD
        assert again.trustee_level(again.get(10), 0) == "normal", "ann: the room's level"
    finally:
        await again.shutdown()


async def test_a_person_s_timeout_plays_at_the_room_s_level(
    settings: Settings, db: Database
) -> None:
    """A room with trustee_level hard: ann's turn times out and the trustee answers for her
    at hard (and thinks off the loop)."""
    Pondering.answer.set()  # let it answer at once
    Pondering.levels.clear()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda _: None)
    manager = TableManager(with_games(settings, PONDER, level=HARD), db,
                           Wallet.from_settings(db, settings), notifier,
                           clock=lambda: 1_000.0, seed_source=itertools.count(1).__next__)
    manager.specs[PONDER.key] = PONDER
    notifier.manager = manager
    try:
        await manager.create(GUILD, 30, PONDER.key, "novice", 1, "ann")
        await manager.join(30, 2, "bob")
        await manager.join(30, 3, "cat")
        table = await manager.start(30, 1)
        assert manager.trustee_level(table, 0) == HARD
        assert table.window is not None
        await manager._expire(30, table.window)
        assert table.seats[0].misses == 1
        assert Pondering.levels[:1] == [HARD]
    finally:
        await manager.shutdown()
