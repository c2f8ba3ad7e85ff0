"""要不起 auto-pass: only when passing is the seat's one legal action, after the same fixed delay
for every seat, never a miss, and not for a player who turned it off."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from bot.host.model import PLAYING, Table
from bot.host.referee import AUTOPASS_DELAY
from bot.host.tables import TableManager
from bot.terminal import TerminalNotifier
from tests.host.waiting import until

CH, GUILD = 556, 77


async def seat_three(manager: TableManager, room: str = "free") -> Table:
    await manager.create(GUILD, CH, "doudizhu", room, 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")
    return await manager.start(CH, 1)


async def until_only_one_action(manager: TableManager, table: Table) -> int:
    """Play hints until the seat to act may only pass; checks on the way that every seat with
    a choice has the phase's full timer. Returns that seat."""
    for _ in range(400):
        assert table.status == PLAYING and table.game is not None
        game = table.game
        seat = game.to_act()[0]
        full = manager.settings.timer(game.phase())
        assert table.deadline is not None
        if game.legal_actions(seat) == ["pass"]:
            return seat
        assert table.deadline - manager.clock() == full, "a choice gets the whole timer"
        uid = table.seats[seat].uid
        assert uid is not None
        await manager.act(CH, uid, manager.hint(CH, uid))
    raise AssertionError("no seat was ever left with a single action")


async def test_a_seat_with_only_a_pass_passes_after_the_fixed_delay_without_a_miss(
    manager: TableManager,
) -> None:
    table = await seat_three(manager)
    seen: set[int] = set()
    for _ in range(3):  # three forced passes, by whichever seats meet them
        seat = await until_only_one_action(manager, table)
        game = table.game
        assert game is not None
        assert table.deadline is not None
        full = manager.settings.timer(game.phase())
        # the countdown shown is the phase's whole timer: it must not tell the table that this
        # seat cannot beat the play (a bug: it showed the auto-pass delay)
        assert table.deadline - manager.clock() == full, f"seat {seat}: the usual countdown"
        seen.add(seat)
        only = game.legal_actions(seat)[0]
        before = len(game.log)
        started = asyncio.get_running_loop().time()
        await until(lambda g=game, n=before: len(g.log) > n or table.game is not g)
        assert asyncio.get_running_loop().time() - started >= AUTOPASS_DELAY - 0.05, "not sooner"
        if table.game is not game:
            break  # the pass ended the hand
        assert game.log[before] == (seat, only), "the one legal action was made for the seat"
        person = table.seats[seat]
        assert person.misses == 0 and not person.trustee, "an auto-pass is never a miss"
        assert not person.covered, "nor the trustee playing the seat"
    assert seen


async def test_a_player_who_turned_it_off_keeps_the_whole_timer_and_a_timeout_is_a_miss(
    manager: TableManager,
) -> None:
    play = AUTOPASS_DELAY + 1  # a timer auto-pass would shorten
    manager.settings = replace(manager.settings, timers={**manager.settings.timers,
                                                         "play": play})
    for uid in (1, 2, 3):
        await manager.referee.set_autopass(uid, False)
    table = await seat_three(manager)
    seat = await until_only_one_action(manager, table)
    game = table.game
    assert game is not None and table.deadline is not None
    assert table.deadline - manager.clock() == manager.settings.timer(game.phase())
    before = len(game.log)
    started = asyncio.get_running_loop().time()
    await until(lambda: len(game.log) > before)
    assert asyncio.get_running_loop().time() - started >= play - 0.05, "the whole timer, not less"
    assert game.log[before][0] == seat
    assert table.seats[seat].misses == 1, "a timeout with auto-pass off is a miss"


async def test_the_preference_survives_a_new_manager(manager: TableManager, settings, db
                                                     ) -> None:
    await manager.referee.set_autopass(2, False)
    fresh = TableManager(settings, db, manager.wallet, manager.notifier, clock=manager.clock)
    await fresh.referee.ready()
    assert not fresh.referee.autopass_on(2) and fresh.referee.autopass_on(1)
    await fresh.shutdown()


async def test_after_a_restart_the_pass_still_comes_after_the_fixed_delay(
    manager: TableManager, settings, db
) -> None:
    """Bug: restore re-armed the window's whole deadline (30 s), not the auto-pass time, so a
    要不起 seat waited the full timer after every restart."""
    table = await seat_three(manager)
    seat = await until_only_one_action(manager, table)
    game = table.game
    assert game is not None and table.deadline is not None
    full = manager.settings.timer(game.phase())
    assert full > 4 * AUTOPASS_DELAY
    log = list(game.log)
    await manager.shutdown()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=[].append)
    again = TableManager(settings, db, manager.wallet, notifier, clock=manager.clock)
    notifier.manager = again
    started = asyncio.get_running_loop().time()
    assert [(t.id, reason) for t, reason in await again.restore()] == [(CH, None)]
    resumed = again.get(CH)
    assert resumed.game is not None and resumed.game.log == log
    assert resumed.deadline == table.deadline, "the table still shows the whole countdown"
    await until(lambda: resumed.game is None or len(resumed.game.log) > len(log),
                within=full / 2)
    waited = asyncio.get_running_loop().time() - started
    assert resumed.game is None or len(resumed.game.log) > len(log), "no pass in half the timer"
    assert AUTOPASS_DELAY - 0.05 <= waited < full / 2, f"passed after {waited:.1f} s"
    assert resumed.game is None or resumed.game.log[len(log)] == (seat, "pass")
    assert resumed.seats[seat].misses == 0
    await again.shutdown()
