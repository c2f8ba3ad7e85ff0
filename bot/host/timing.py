"""Timers of the ``TableManager``: one deadline per decision window, the 要不起 pass, and what
happens when time is up (``TurnClock`` fires them).

A part of ``TableManager`` (bot/host/tables.py), which inherits it.
"""

from __future__ import annotations

from bot.host.model import Table
from engines.base import T


class Timers:
    """计时: a table's deadline armed after every change, and the timeout answers when it
    passes."""

    # --- timers ------------------------------------------------------------------------
    def _arm(self, table: Table) -> None:
        """Keep one deadline per decision window (``Game.window``): a new window gets a new
        deadline; an answer inside the same window does not restart anyone's clock."""
        game = table.game
        assert game is not None
        window = game.window()
        if table.deadline is None or table.window != window:
            table.deadline = self.clock() + self.timer(table, game.phase())
            table.window = window
        fire = table.deadline
        # 要不起: the pass is made soon, but the table keeps showing the phase's whole timer, so
        # the countdown tells nobody that the seat cannot beat the play
        if self.referee.autopass_due(table, game, table.deadline - self.clock()):
            fire = min(fire, self.clock() + self.referee.delay)
        self.turns.arm(table.id, fire, window)

    async def _expire(self, table_id: int, window: int) -> None:
        """Time is up for ``window``: each seat still to act gets its timeout action."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with self.lock(table_id):
            game = table.game
            if (
                self.tables.get(table_id) is not table
                or game is None
                or game.is_over()
                or game.window() != window
            ):
                return  # someone acted in time, or the table closed
            game.remember()  # each state's answers once (``_advance`` forgets them)
            limit = self.settings.trustee_after_misses
            for index in list(game.to_act()):
                if game.is_over() or index not in game.to_act():
                    continue
                seat = table.seats[index]
                only = self.referee.only_action(
                    table, game, index, self.timer(table, game.phase())
                )
                if only is not None:  # auto-pass: never a miss, nor the trustee's
                    game.apply(index, only)
                    self.metrics.action("timeout")
                    continue
                timeout = await self._think(table, index, game.timeout_action)
                game.apply(index, timeout.action)
                self.metrics.action("timeout")
                seat.covered = True
                if timeout.miss:
                    seat.misses += 1
                    if seat.misses >= limit and not seat.trustee:
                        seat.trustee = True
                        table.note(T("note.auto_trustee", name=seat.name))
            table.deadline = None  # a fresh deadline for whatever comes next
            await self._advance(table)
        await self.notifier.table_changed(table)
