"""计时: one scheduler for every table's turn deadline.

A heap of deadlines and a single ``loop.call_at`` handle for the earliest one, rather than a
task per turn: re-arming a table after each action is a heap push. Due expiries run in
deadline order on a few workers, so when many tables time out at once each waits its turn
(the earliest first) and the database can group their writes.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
from collections import deque
from collections.abc import Awaitable, Callable

log = logging.getLogger(__name__)


class TurnClock:
    """Per-table deadlines. ``expire(table_id, window)`` is awaited when a table's deadline
    passes; it must itself check the window is still current (an action may race it)."""

    WORKERS = 16
    """Expiries run at once at most; more wait in deadline order."""

    def __init__(
        self, now: Callable[[], float], expire: Callable[[int, int], Awaitable[None]]
    ) -> None:
        self._now = now
        self._expire = expire
        self._heap: list[tuple[float, int, int, int]] = []  # (loop time, order, table, window)
        self._armed: dict[int, tuple[float, int]] = {}  # table → (loop time, window)
        self._order = itertools.count()
        self._handle: asyncio.TimerHandle | None = None
        self._handle_at: float | None = None
        self._due: deque[tuple[int, int]] = deque()
        self._workers: set[asyncio.Task[None]] = set()
        self.closed = False

    def __len__(self) -> int:
        return len(self._armed)

    def arm(self, table_id: int, deadline: float, window: int) -> None:
        """Time out ``table_id``'s ``window`` at ``deadline`` (host-clock seconds)."""
        if self.closed:
            return
        loop = asyncio.get_running_loop()
        at = loop.time() + max(0.0, deadline - self._now())
        if self._armed.get(table_id) == (at, window):
            return
        self._armed[table_id] = (at, window)
        heapq.heappush(self._heap, (at, next(self._order), table_id, window))
        if len(self._heap) > 2 * len(self._armed) + 64:
            self._compact()
        if self._handle_at is None or at < self._handle_at:
            self._schedule(loop)

    def disarm(self, table_id: int) -> None:
        """Forget ``table_id``'s deadline (its heap entry is skipped when it comes up)."""
        self._armed.pop(table_id, None)

    def armed(self, table_id: int) -> bool:
        return table_id in self._armed

    def _compact(self) -> None:
        """Drop superseded entries so the heap stays the size of the armed tables."""
        self._heap = [
            (at, next(self._order), table_id, window)
            for table_id, (at, window) in self._armed.items()
        ]
        heapq.heapify(self._heap)

    def _schedule(self, loop: asyncio.AbstractEventLoop) -> None:
        if self._handle is not None:
            self._handle.cancel()
            self._handle, self._handle_at = None, None
        while self._heap and self._armed.get(self._heap[0][2]) != (
            self._heap[0][0],
            self._heap[0][3],
        ):
            heapq.heappop(self._heap)  # superseded or disarmed
        if self._heap and not self.closed:
            self._handle_at = self._heap[0][0]
            self._handle = loop.call_at(self._handle_at, self._fire)

    def _fire(self) -> None:
        self._handle, self._handle_at = None, None
        loop = asyncio.get_running_loop()
        now = loop.time()
        while self._heap and self._heap[0][0] <= now:
            at, _, table_id, window = heapq.heappop(self._heap)
            if self._armed.get(table_id) == (at, window):
                del self._armed[table_id]
                self._due.append((table_id, window))
        while self._due and len(self._workers) < self.WORKERS:
            task = loop.create_task(self._work(), name="turn-clock")
            self._workers.add(task)
            task.add_done_callback(self._workers.discard)
        self._schedule(loop)

    async def _work(self) -> None:
        while self._due and not self.closed:
            table_id, window = self._due.popleft()
            try:
                await self._expire(table_id, window)
            except Exception:
                log.exception("table %s: turn timeout failed", table_id)

    async def close(self) -> None:
        """Stop: no more expiries (running ones are cancelled)."""
        self.closed = True
        if self._handle is not None:
            self._handle.cancel()
        self._heap.clear()
        self._armed.clear()
        self._due.clear()
        workers = list(self._workers)
        for task in workers:
            if task is not asyncio.current_task():
                task.cancel()
        await asyncio.gather(
            *(t for t in workers if t is not asyncio.current_task()), return_exceptions=True
        )
