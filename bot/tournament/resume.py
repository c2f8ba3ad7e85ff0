"""A tournament's owner and its restart: the lease one process holds on each event it runs,
and resuming the events of a restarted process. A part of ``TournamentRunner``
(bot/tournament/runner.py), which inherits it.
"""

from __future__ import annotations

import logging

from bot.host.model import PLAYING
from storage import tournaments as store
from storage.tournaments import Tournaments

log = logging.getLogger("bot.tournament.runner")  # the runner's log, as before the split

LEASE_SECONDS = 120.0
"""How long an event's owner holds it without a write or a renewal (``tick`` renews it every
30 s on Discord): a process that died gives its events up this long after."""


class Resuming:
    """租约与恢复: which process runs an event, and picking events up after a restart."""

    def _let_go(self, event_id: int) -> None:
        """Another process runs the event now, or it ended there (a moderator's cancel): stop
        driving it here (its tables' hands no longer feed it)."""
        log.warning("event %s is no longer run by this process; letting it go", event_id)
        self.states.pop(event_id, None)
        self.events.pop(event_id, None)
        for tid in [t for t, e in self._table_event.items() if e == event_id]:
            self._table_event.pop(tid, None)

    async def renew(self) -> list[int]:
        """Extend this process's lease on every event it runs; let go of those it lost.
        Returns the lost."""
        if not self.states:
            return []
        lost = await Tournaments(self.manager.wallet).renew(sorted(self.states), self.owner,
                                                            LEASE_SECONDS)
        for event_id in lost:
            self._let_go(event_id)
        return lost

    # --- restart ----------------------------------------------------------------------
    async def restore(self) -> list[int]:
        """After ``TableManager.restore``: resume every running event. A table the manager
        restored plays on (its hand's end feeds the event); a hand that ended while the bot
        was down is read from the hand history; a table that never dealt is seated again.
        Returns the events resumed."""
        resumed = []
        running = await store.running_events(self.manager.db)
        self._running_seen = bool(running)
        for event_id, economy, guild_id in running:
            if event_id in self.states or not self.manager.owns(guild_id):
                continue  # running here already, or another process's server
            events = Tournaments(self.manager.wallet.scoped(economy))
            if not await events.claim(event_id, self.owner, LEASE_SECONDS):
                continue  # another process runs it (its lease holds)
            event = await events.get(event_id)
            state = event.state
            self.events[event_id], self.states[event_id] = event, state
            resumed.append(event_id)
            async with self._lock(event_id):
                for tid_text, entry in state["tables"].items():
                    if not entry["done"]:
                        self._table_event[int(tid_text)] = event_id
                again: list[tuple[int, list[int | None]]] = []  # tables never dealt
                for tid_text, entry in list(state["tables"].items()):
                    tid = int(tid_text)
                    if entry["done"]:
                        continue
                    table = self.manager.tables.get(tid)
                    if table is not None and table.status == PLAYING:
                        continue  # plays on
                    settled = [(h, r, c) for h, s, r, c
                               in await store.hand_codes_at(self.manager.db, tid)
                               if s == "settled" and h not in state["applied"]]
                    if settled:
                        hand_id, result, code = settled[-1]
                        await self._record(event_id, tid, hand_id,
                                           [(r["uid"], r["points"]) for r in result], code)
                        self._table_event.pop(tid, None)
                        await self._close(tid)
                    else:
                        await self._close(tid)
                        again.append((tid, entry["seats"]))
                await self._seat_tables(event, again)
                await self._save(event_id)
                if state["tables"] and all(e["done"] for e in state["tables"].values()):
                    await self._round_over(event_id)
        return resumed
