"""运行指标: what one bot process is doing, for Prometheus and for a health line in the log.

The table manager counts every action applied at its tables (by whom: a player, the trustee,
a timeout) and times every settlement; the open tables are read when scraped. Each manager has
its own registry, so several managers in one process (tests, benchmarks) never mix figures::

    gamehall_tables_open 12
    gamehall_actions_total{source="player"} 1830
    gamehall_settle_seconds_bucket{le="0.005"} 97

The database's connections (``Storage.pool_stats()``, a mapping of name → number: SQLite's
``queued`` calls, PostgreSQL's pool ``in_use`` and ``size``) become ``gamehall_db_pool_<name>``.

Every ``health_seconds`` the process logs one line with the same figures over the last minute::

    health: tables=12 actions/min=840 settles/min=31 settle_p50=4.2ms settle_p99=18.0ms
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

SOURCES = ("player", "trustee", "timeout")
"""Who applied an action: a person, the trustee (托管, bots, escaped seats), a turn's timeout."""

WINDOW = 60.0
"""Seconds the health line looks back over."""

SETTLE_BUCKETS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)


class _PoolCollector(Collector):
    """The database's pool figures, read at each scrape (``Storage.pool_stats``)."""

    def __init__(self, db: Any) -> None:
        self.db = db

    def collect(self) -> Iterator[GaugeMetricFamily]:
        for name, value in pool_stats(self.db).items():
            yield GaugeMetricFamily(
                f"gamehall_db_pool_{name}", f"Database pool: {name.replace('_', ' ')}",
                value=float(value),
            )


def pool_stats(db: Any) -> Mapping[str, int]:
    """What the storage reports of its connections (``Storage.pool_stats``)."""
    try:
        return dict(db.pool_stats())
    except Exception:  # a scrape must never break the bot
        log.exception("cannot read the database pool's figures")
        return {}


def percentile(values: list[float], fraction: float) -> float:
    """The ``fraction`` quantile of ``values`` (nearest rank), 0.0 for none.

    >>> percentile([3.0, 1.0, 2.0, 4.0], 0.5)
    2.0
    >>> percentile([3.0, 1.0, 2.0, 4.0], 0.99)
    4.0
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


class HostMetrics:
    """The figures of one table manager: tables open (read from ``tables``), actions, and
    settlement latency; ``text()`` is the Prometheus exposition, ``health()`` the log line."""

    def __init__(
        self,
        tables: Callable[[], int],
        db: Any = None,
        *,
        now: Callable[[], float] = time.monotonic,
    ) -> None:
        self.registry = CollectorRegistry(auto_describe=True)
        self._tables = tables
        self._now = now
        self.tables_open = Gauge(
            "gamehall_tables_open", "Tables open in this process", registry=self.registry
        )
        self.tables_open.set_function(lambda: float(self._tables()))
        self.actions = Counter(
            "gamehall_actions", "Actions applied at this process's tables",
            ["source"], registry=self.registry,
        )
        # every series exists from the start, at 0; kept to skip the label lookup per action
        self._by_source = {source: self.actions.labels(source) for source in SOURCES}
        self.settle_seconds = Histogram(
            "gamehall_settle_seconds", "Seconds one hand's settlement took (storage included)",
            buckets=SETTLE_BUCKETS, registry=self.registry,
        )
        if db is not None:
            self.registry.register(_PoolCollector(db))
        self._db = db
        self._actions: deque[list[float]] = deque()  # [second, count], oldest first
        self._settles: deque[tuple[float, float]] = deque()  # (when, seconds)
        self._timer: asyncio.TimerHandle | None = None
        self._server: Any = None

    # --- counting ---------------------------------------------------------------------------
    def action(self, source: str, count: int = 1) -> None:
        """``count`` actions were applied by ``source`` (one of :data:`SOURCES`)."""
        if count <= 0:
            return
        self._by_source[source].inc(count)
        second = math.floor(self._now())
        if self._actions and self._actions[-1][0] == second:
            self._actions[-1][1] += count
        else:  # a new second: drop the seconds that left the window
            self._actions.append([second, count])
            self._prune()

    def settled(self, seconds: float) -> None:
        """A hand's settlement took ``seconds``."""
        self.settle_seconds.observe(seconds)
        self._settles.append((self._now(), seconds))
        self._prune()

    def _prune(self) -> None:
        since = self._now() - WINDOW
        while self._actions and self._actions[0][0] < since - 1:
            self._actions.popleft()
        while self._settles and self._settles[0][0] < since:
            self._settles.popleft()

    # --- reading ----------------------------------------------------------------------------
    def recent_actions(self) -> int:
        """Actions applied in the last minute."""
        self._prune()
        since = self._now() - WINDOW
        return int(sum(n for second, n in self._actions if second >= math.floor(since)))

    def recent_settles(self) -> list[float]:
        """The settlement times (seconds) of the last minute."""
        self._prune()
        return [seconds for _, seconds in self._settles]

    def health(self) -> str:
        """One line: tables open, actions and settlements in the last minute, settle p50/p99."""
        settles = self.recent_settles()
        line = (
            f"health: tables={self._tables()} actions/min={self.recent_actions()} "
            f"settles/min={len(settles)} "
            f"settle_p50={percentile(settles, 0.5) * 1000:.1f}ms "
            f"settle_p99={percentile(settles, 0.99) * 1000:.1f}ms"
        )
        pool = pool_stats(self._db)
        if pool:
            line += " db_pool=" + ",".join(f"{k}:{v}" for k, v in pool.items())
        return line

    def text(self) -> str:
        """The Prometheus text exposition of every figure (what ``/metrics`` serves)."""
        return generate_latest(self.registry).decode()

    # --- running ----------------------------------------------------------------------------
    def start_health(self, seconds: float) -> None:
        """Log :meth:`health` every ``seconds`` (0: never) until :meth:`stop`. A timer re-armed
        after each line rather than a sleeping task: nothing waits on it, so an idle hall (or a
        test waiting for the bot to settle) has no task in flight for the next minute."""
        if seconds <= 0 or self._timer is not None:
            return
        loop = asyncio.get_running_loop()

        def tick() -> None:
            try:
                log.info("%s", self.health())
            except Exception:  # a figure that fails must not stop the line
                log.exception("health line failed")
            if self._timer is not None:
                self._timer = loop.call_later(seconds, tick)

        self._timer = loop.call_later(seconds, tick)

    def serve(self, port: int, addr: str = "0.0.0.0") -> int:
        """Serve ``/metrics`` over HTTP on ``port`` (in a thread, on every interface so a
        scraper elsewhere reaches it); returns the bound port. OSError when it cannot bind."""
        from prometheus_client import start_http_server

        server, _thread = start_http_server(port, addr=addr, registry=self.registry)
        self._server = server
        return int(server.server_address[1])

    async def stop(self) -> None:
        """Stop the health line and the endpoint."""
        timer, self._timer = self._timer, None
        if timer is not None:
            timer.cancel()
        server, self._server = self._server, None
        if server is not None:
            await asyncio.to_thread(server.shutdown)  # waits for the serving thread's loop
            server.server_close()
