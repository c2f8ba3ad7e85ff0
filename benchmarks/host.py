"""Benchmark: the table host at hall scale — N concurrent tables of a mix of families
(四川, 血战, 升级, 够级, 斗地主 in turn, each with as many people as it seats).

Everything is real except Discord: the real ``TableManager`` (escrow, timers armed on every
turn, persistence after every action, settlement, levels) over a real SQLite file, shown through
a notifier that does nothing. People play as in a hall (``MixedHall``): each picks a random
legal action for a random seat the game waits for; where every waiting seat may only pass they
wait for the host's 要不起 pass (``--autopass`` seconds); a share ``--away`` of their turns
they let the 15-second clock run out, and the host's timeout acts (a miss; two in a row and the
trustee plays the seat until its person acts again).

For each table count it prints:

- closed loop: every table plays as fast as the host answers (one action in flight per table);
  host actions/s (person actions through ``act``; a ``start`` counts as one too) and the
  actions the host's timers made, p50/p99 of one host call, and host CPU per call (both
  threads, less the CPU the players spent choosing);
- memory: RSS per table before any hand, mid-hand (once staggered, with at most ``FLIGHT``
  host calls under way, as in a hall; and again after the closed loop, which has every
  table's call under way at once) and between hands (every hand let finish, no new deal),
  with what of it Python's allocator holds in objects in use and in free blocks of its
  arenas (``pymalloc``), and per family what a mid-hand game and its whole table hold of
  their own (``bot.host.memory.own_bytes``: what another table of the family does not
  share);
- open loop: actions arrive as a Poisson stream at ``--rate`` per second at random tables (one
  in flight per table; a turn where no action arrives in 15 s times out), made by people in a
  process of their own (``benchmarks/players.py``) so their choosing is not the host's; p50/p99
  from an action's sending to the host's answer (the pipe and the host's queue included), and
  host CPU per call from the first arrival to the last (the people's start, every table's hand
  sent to them, left out);
- database bytes per hand (growth of the checkpointed file over the closed loop, per hand).

Each size first plays every table to a random point of a hand (``MixedHall.stagger``, at
most ``--stagger`` seconds), so the tables are spread over the points of their hands and hands
end at a steady rate through the measurements, as in a running hall. With
``--warmup`` hands the middle size then plays them and measures the closed loop again, so a
cost that grows with uptime shows as a ratio below 1.

    python benchmarks/host.py                     # 100 and 1,000 tables
    python benchmarks/host.py --full              # 100, 1,000 and 5,000 tables, 2,000 hands
    python benchmarks/host.py --tables 5000 --seconds 8 --rate 2000
    python benchmarks/host.py --collector plain   # CPython's default collector thresholds

``Hall`` (斗地主 tables, the longest legal action each turn, no timer firing) is the plain host
loop ``benchmarks/scale.py`` and ``benchmarks/pg_cost.py`` drive.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import os
import random
import re
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.host.memory import own_bytes, tune_collector
from bot.host.model import PLAYING, HostError, Table
from bot.host.tables import HandResult, TableManager
from bot.settings import Settings, load_settings
from engines import registry
from engines.base import Setup, Text
from engines.errors import GameError
from storage.db import Database, open_database
from storage.wallet import Wallet

from benchmarks.players import STALE, RemotePlayers

GAME, ROOM = "doudizhu", "coin_low"
PAGE = os.sysconf("SC_PAGE_SIZE")


class NullNotifier:
    """Shows nothing: the benchmark measures the host, not a platform."""

    async def table_changed(self, table: Table) -> None:
        return None

    async def hand_started(self, table: Table) -> None:
        return None

    async def hand_dealt(self, table: Table, seat: int) -> None:
        return None

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        return None

    async def table_closed(self, table: Table, reason: Text) -> None:
        return None


def rss() -> int:
    """Resident memory of this process in bytes."""
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * PAGE


def pymalloc() -> tuple[int, int]:
    """Python's small-object allocator: bytes in blocks in use (the objects alive), and bytes
    in free blocks of the arenas it holds (taken from the system, not given back while any
    block of their arena is in use), from ``sys._debugmallocstats``."""
    read, write = os.pipe()
    saved = os.dup(2)
    os.dup2(write, 2)  # it writes to the C stderr
    try:
        sys._debugmallocstats()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(write)
    with os.fdopen(read) as f:
        text = f.read()

    def count(name: str) -> int:
        found = re.search(rf"# bytes in {name} blocks\s*=\s*([\d,]+)", text)
        return int(found.group(1).replace(",", "")) if found else 0

    return count("allocated"), count("available")


def percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


class Hall:
    """A host over a fresh database file with ``tables`` tables of three people."""

    def __init__(self, settings: Settings, db: Database, manager: TableManager) -> None:
        self.settings, self.db, self.manager = settings, db, manager
        self.hands = 0
        self.thinking = 0.0
        self.calls = 0
        self.stale = 0
        self.plumbing = 0.0
        self.people_cpu = 0.0  # the open loop's people: their process's share of a core
        self.open_cpu = 0.0  # the open loop: host CPU per call while the arrivals ran
        self.offered: dict[str, Any] = {}  # their arrivals, actions sent, arrivals at busy tables

    @classmethod
    async def open(cls, folder: Path | str, seed: int,
                   tune: Callable[[Settings], Settings] | None = None,
                   **db_options: Any) -> Hall:
        """A hall over ``folder``'s hall.db, or over a database target (``postgresql://…``),
        opened with ``db_options`` (e.g. a pool's size); ``tune`` changes the benchmark's
        settings further (another benchmark's timers or rooms)."""
        target = folder if isinstance(folder, str) else str(folder / "hall.db")
        settings = load_settings(environ={"GAMEHALL_DB": target},
                                 known_games=registry.specs().keys())
        # turn timers never fire here: the clock is armed on every turn all the same
        settings = replace(settings, starting_grant=10_000_000, timers={"default": 10**6})
        if tune is not None:
            settings = tune(settings)
        db = await open_database(settings.database, **db_options)
        seeds = random.Random(seed)
        manager = TableManager(
            settings,
            db,
            Wallet.from_settings(db, settings),
            NullNotifier(),
            clock=time.time,
            seed_source=lambda: seeds.getrandbits(62),
        )
        return cls(settings, db, manager)

    async def seat(self, tables: int, first: int = 0) -> None:
        """Open tables ``first`` … ``first + tables - 1`` (channel = index + 1) and seat three."""

        async def one(i: int) -> None:
            uid = 3 * i + 1
            await self.manager.create(1, i + 1, GAME, ROOM, uid, f"p{uid}")
            await self.manager.join(i + 1, uid + 1, f"p{uid + 1}")
            await self.manager.join(i + 1, uid + 2, f"p{uid + 2}")

        for start in range(first, first + tables, 200):
            await asyncio.gather(*(one(i) for i in range(start, min(first + tables, start + 200))))

    async def deal_if_idle(self, table_id: int) -> float | None:
        """Start the next hand at a table with none running: the seconds that host call took,
        or None while a hand runs."""
        table = self.manager.tables[table_id]
        if table.status == PLAYING and table.game is not None:
            return None
        uid = table.seats[0].uid
        assert uid is not None
        began = time.perf_counter()
        await self.manager.start(table_id, uid)
        return time.perf_counter() - began

    async def step(self, table_id: int) -> float:
        """One host call at the table: start a hand, or the person to act plays the hint.
        Returns the seconds the host call took."""
        dealt = await self.deal_if_idle(table_id)
        if dealt is not None:
            return dealt
        manager = self.manager
        table = manager.tables[table_id]
        seat = table.game.to_act()[0]
        uid = table.seats[seat].uid
        assert uid is not None
        began = time.perf_counter()
        # the longest action: the most cards a play can shed, so hands stay short (about as
        # long as hands played with the hint) and starts and settlements weigh their share
        action = max(table.game.legal_actions(seat), key=len)
        self.thinking += time.perf_counter() - began
        began = time.perf_counter()
        await manager.act(table_id, uid, action)
        took = time.perf_counter() - began
        if table.status != PLAYING:
            self.hands += 1
        return took

    async def closed_loop(
        self, tables: list[int], seconds: float | None = None, hands: int | None = None
    ) -> tuple[int, float, list[float]]:
        """Every table plays back to back until ``seconds`` pass or ``hands`` are settled.
        Returns (host calls answered in the window, the window's seconds, their latencies);
        calls still running when the window closes finish but are not counted."""
        latencies: list[float] = []
        began = time.perf_counter()
        stop_at = began + seconds if seconds is not None else None
        goal = self.hands + hands if hands is not None else None

        def done() -> bool:
            if stop_at is not None and time.perf_counter() >= stop_at:
                return True
            return goal is not None and self.hands >= goal

        async def run(table_id: int) -> None:
            while not done():
                try:
                    took = await self.step(table_id)
                except HostError as exc:  # pragma: no cover - would be a bench bug
                    raise RuntimeError(f"table {table_id}: {exc.text}") from exc
                self.calls += 1
                if stop_at is None or time.perf_counter() <= stop_at:
                    latencies.append(took)

        await asyncio.gather(*(run(t) for t in tables))
        window = seconds if seconds is not None else time.perf_counter() - began
        return len(latencies), window, latencies

    async def open_loop(
        self, tables: list[int], rate: float, seconds: float, seed: int
    ) -> tuple[int, float, list[float]]:
        """Poisson arrivals at ``rate``/s, each at a random table not already answering, made
        by people in a process of their own (``benchmarks/players.py``: random legal actions
        of their copies of the hands). Latency is from the moment a person sent an action to
        the host's answer; ``stale`` counts the actions a timer overtook, and ``plumbing`` the
        host CPU the benchmark's pipe to the people took."""
        players = RemotePlayers.watching(self.manager, tables, self.deal_if_idle)
        try:
            answered = await players.run(rate, seconds, seed)
        finally:
            players.stop_watching()
        self.stale, self.plumbing = players.stale, players.plumbing
        self.open_cpu = players.cpu_per_call
        self.people_cpu = players.people_cpu / max(1e-9, answered[1])
        self.offered = players.offered
        # per second of the arrivals' schedule (the host's own clock also counts the people's
        # start, replaying every table's hand before the first arrival)
        return answered[0], players.offered["seconds"], answered[2]

    def db_bytes(self) -> int:
        """The database file's size once the WAL is checkpointed into it (call when idle)."""
        path = Path(self.settings.database)
        conn = sqlite3.connect(path)
        try:
            conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        finally:
            conn.close()
        return path.stat().st_size

    async def close(self) -> None:
        await self.manager.shutdown()
        await self.db.close()


PASS = "pass"

MIX: tuple[tuple[str, str], ...] = (
    ("sichuan", "regular"),
    ("xuezhan", "regular"),
    ("shengji", "shengji"),
    ("gouji", "gouji"),
    ("doudizhu", "coin_low"),
)
"""The families of a hall and the room each is played in (game, room)."""

TURN = 15
"""Seconds of a turn (``timers.default``): a hall's usual clock. A turn let pass parks its
table that long; in the open loop a turn times out wherever no action arrives in time."""

FLIGHT = 32
"""Host calls under way at once while the stagger plays the tables to their points and the
finish plays their hands out, as in a hall: at 2,000 actions/s answered in a few
milliseconds, a handful are. (The closed loop has every table's call under way at once, and
the allocator keeps the arenas that high water took: ``docs/host.md``.)"""


def tuned(autopass: float, turn: int | None = None) -> Callable[[Settings], Settings]:
    """Settings for a mixed hall: rooms' bean ceilings lifted (people hold the benchmark's large
    grant, so nobody busts out of a room), the 要不起 delay, and a turn clock of ``turn``
    seconds."""

    def tune(settings: Settings) -> Settings:
        rooms = {k: replace(r, max_beans=2_000_000_000) for k, r in settings.rooms.items()}
        changes: dict[str, Any] = {"rooms": rooms, "autopass_delay": autopass}
        if turn is not None:
            changes["timers"] = {"default": turn}
        return replace(settings, **changes)

    return tune


def hand_lengths(games: set[str], hands: int = 5) -> dict[str, int]:
    """Per game, the median number of actions in a hand of random legal actions (the
    benchmark's people), played by the engine alone from seeds 0 … ``hands - 1``."""
    specs, lengths = registry.specs(), {}
    for key in sorted(games):
        spec, counts = specs[key], []
        for seed in range(hands):
            game = spec.new(Setup(seats=spec.seats_default or spec.min_seats, seed=seed,
                                  options=spec.validate({})))
            rng = random.Random(seed)
            while not game.is_over():
                waiting = list(game.to_act())
                rng.shuffle(waiting)
                seat = next(s for s in waiting if game.legal_actions(s))
                game.apply(seat, rng.choice(game.legal_actions(seat)))
            counts.append(len(game.log))
        lengths[key] = int(statistics.median(counts))
    return lengths


class MixedHall(Hall):
    """``Hall`` with tables of several families and people as a hall has them: each chooses a
    random legal action (seeded per table) for a random seat among those the game waits for
    that has a choice; where every waiting seat may only pass they leave it to the host's
    要不起 timer (``timers.autopass``); and at a share ``away`` of their turns (closed loop)
    they let the clock run out, so the host's turn timeout acts for them (a miss; two in a
    row hand the seat to the trustee until its person acts again). The open loop's people
    choose in a process of their own (``Hall.open_loop``, benchmarks/players.py)."""

    draws: dict[int, int]  # per table: its people's seed, then the choices they made
    rng: random.Random  # one stream, seeded afresh per choice from the table's ``draws``
    away: float = 0.0
    short = 0
    asleep: dict[int, float]
    flight: asyncio.Semaphore | None = None  # at most FLIGHT calls under way (stagger, finish)

    def _flying(self) -> contextlib.AbstractAsyncContextManager[Any]:
        return self.flight if self.flight is not None else contextlib.nullcontext()

    async def seat_games(self, games: tuple[tuple[str, str], ...], tables: int, seed: int,
                         first: int = 0) -> list[int]:
        """Tables ``first + 1`` … ``first + tables``, the games of ``games`` in turn, each
        with as many people as the game seats by default; returns their ids."""
        if first == 0:
            self.draws, self.asleep, self.rng = {}, {}, random.Random()
        plan = [(i + 1, *games[i % len(games)]) for i in range(first, first + tables)]

        async def one(table_id: int, game: str, room: str) -> None:
            owner, *others = self.people(table_id, game)
            await self.manager.create(1, table_id, game, room, owner, f"p{owner}")
            for u in others:
                await self.manager.join(table_id, u, f"p{u}")
            # an int, not a Random of its own (2.5 KiB): the people's state is not the host's,
            # and RSS per table counts what a table costs the host
            self.draws[table_id] = (seed * 100_003 + table_id) << 24

        for start in range(0, tables, 200):
            await asyncio.gather(*(one(*p) for p in plan[start:start + 200]))
        return [p[0] for p in plan]

    def people(self, table_id: int, game: str) -> range:
        """The uids of the people of table ``table_id`` (``seat_games``): as many as the game
        seats by default, the first its owner."""
        spec = self.manager.specs[game]
        return range(10 * table_id, 10 * table_id + (spec.seats_default or spec.min_seats))

    def counted(self, name: str, **labels: str) -> float:
        value = self.manager.metrics.registry.get_sample_value(name, labels or None)
        return value or 0.0

    def timer_actions(self) -> float:
        """Actions the host's timers made (要不起 passes and turn timeouts) so far."""
        return self.counted("gamehall_actions_total", source="timeout")

    def settled(self) -> float:
        return self.counted("gamehall_settle_seconds_count")

    async def stagger(self, tables: list[int], most: float) -> float:
        """Play each table to a random point of a hand: a share, drawn uniformly from [0, 1),
        of its game's typical hand (``hand_lengths``), so the tables are spread over the
        points of their hands and hands end at a steady rate, as in a running hall. (Tables
        seated at one moment and played alike end their hands together: a measurement then
        sees either no settlement or a burst of them.) Nobody lets a turn time out meanwhile;
        at most ``most`` seconds (``short``: the tables it left before their point). Returns
        the hands settled.

        The turn clock is stopped meanwhile (a turn of 10**6 seconds), then every hand's
        window armed afresh with the hall's own: a table at its point waits there while the
        rest catch up (the farthest 够级 points take minutes), and on the hall's clock its turns
        would time out, the trustee would take its seats and play its hand out, and the
        measurement would begin with tables between hands and seats the trustee holds."""
        manager = self.manager
        tables_by_id = manager.tables
        lengths = hand_lengths({tables_by_id[t].game_key for t in tables})
        rng = random.Random(len(tables))
        goals = {t: int(rng.random() * lengths[tables_by_id[t].game_key]) for t in tables}
        before, away, self.away = self.settled(), self.away, 0.0
        stop_at = time.perf_counter() + most
        settings, manager.settings = manager.settings, replace(manager.settings,
                                                               timers={"default": 10**6})
        self.flight = asyncio.Semaphore(FLIGHT)

        async def run(table_id: int) -> None:
            table = tables_by_id[table_id]
            while time.perf_counter() < stop_at:
                game = table.game
                if game is not None and len(game.log) >= goals[table_id]:
                    return
                await self.step(table_id)

        try:
            await asyncio.gather(*(run(t) for t in tables))
        finally:
            self.away, manager.settings, self.flight = away, settings, None
            for table in tables_by_id.values():
                if table.status == PLAYING and table.game is not None:
                    table.deadline = None  # a new deadline on the hall's clock
                    manager._arm(table)
        self.short = sum(1 for t in tables if (game := tables_by_id[t].game) is None
                         or len(game.log) < goals[t])
        return self.settled() - before

    async def deal_if_idle(self, table_id: int) -> float | None:
        """``Hall.deal_if_idle``, the table's people seated again first: one the trustee played
        for all hand long stood up at its end (``TableManager._end_hand``) and sits down again
        (where the leaver's cool-down keeps them out, a bot takes the seat)."""
        table = self.manager.tables[table_id]
        if table.status != PLAYING:
            seated = {s.uid for s in table.seats}
            for uid in self.people(table_id, table.game_key):
                if uid not in seated:
                    try:
                        await self.manager.join(table_id, uid, f"p{uid}")
                    except HostError:
                        await self.manager.add_bot(table_id, next(iter(seated - {None})))
        return await super().deal_if_idle(table_id)

    async def step(self, table_id: int) -> float:
        """One host call at the table, or -1.0 when the person leaves the move to the host
        (要不起, or a turn they let pass: closed loop only, where the call waits meanwhile).
        A person the trustee took over after two missed turns takes their seat back first."""
        async with self._flying():
            dealt = await self.deal_if_idle(table_id)
        if dealt is not None:
            return dealt
        manager = self.manager
        table = manager.tables[table_id]
        back = next((s.uid for s in table.seats if s.trustee and s.uid is not None), None)
        if back is not None:
            began = time.perf_counter()
            async with self._flying():
                await manager.set_trustee(table_id, back, False)
            return time.perf_counter() - began
        game = table.game
        assert game is not None
        thought = time.process_time()
        rng, self.draws[table_id] = self.rng, self.draws[table_id] + 1
        rng.seed(self.draws[table_id])
        waiting = list(game.to_act())
        rng.shuffle(waiting)
        choice: tuple[int, str] | None = None
        for seat in waiting:
            legal = game.legal_actions(seat)
            if legal and legal != [PASS]:
                choice = (seat, rng.choice(legal))
                break
        self.thinking += time.process_time() - thought
        let_pass = choice is not None and self.away > 0 and rng.random() < self.away
        if choice is None or let_pass:
            # the host passes (要不起) or times the turn out: the person waits for it
            left = max(0.0, (table.deadline or 0.0) - time.time())
            await asyncio.sleep(left + 0.01 if let_pass else self.settings.autopass_delay / 2)
            return -1.0
        seat, action = choice
        uid = table.seats[seat].uid
        assert uid is not None
        began = time.perf_counter()
        try:
            async with self._flying():
                await manager.act(table_id, uid, action)
        except GameError:
            pass  # a timer acted while the person chose: their stale choice is refused
        except HostError as exc:
            # a timer acted first (and may have ended the hand), or the seat came back from
            # the trustee: still answered
            if exc.text.key not in STALE:
                raise
        took = time.perf_counter() - began
        if table.status != PLAYING:
            self.hands += 1
        return took

    async def closed_loop(
        self, tables: list[int], seconds: float | None = None, hands: int | None = None
    ) -> tuple[int, float, list[float]]:
        """``Hall.closed_loop`` where a step may be no call (-1.0): it is not counted."""
        latencies: list[float] = []
        began = time.perf_counter()
        stop_at = began + (seconds if seconds is not None else 10**9)
        goal = self.hands + hands if hands is not None else None

        async def run(table_id: int) -> None:
            while time.perf_counter() < stop_at and (goal is None or self.hands < goal):
                took = await self.step(table_id)
                if took >= 0:
                    self.calls += 1
                    if time.perf_counter() <= stop_at:
                        latencies.append(took)

        await asyncio.gather(*(run(t) for t in tables))
        window = seconds if seconds is not None else time.perf_counter() - began
        return len(latencies), window, latencies

    async def finish(self, tables: list[int], most: float) -> int:
        """Let every hand under way end (no new deal), at most ``most`` seconds, with at most
        ``FLIGHT`` host calls under way: the tables are then between hands. Returns the tables
        still playing."""
        deal, self.deal_if_idle = self.deal_if_idle, self._no_deal  # type: ignore[method-assign]
        self.flight = asyncio.Semaphore(FLIGHT)
        try:
            stop_at = time.perf_counter() + most

            async def run(table_id: int) -> None:
                table = self.manager.tables[table_id]
                while table.status == PLAYING and time.perf_counter() < stop_at:
                    await self.step(table_id)

            await asyncio.gather(*(run(t) for t in tables))
        finally:
            self.deal_if_idle, self.flight = deal, None  # type: ignore[method-assign]
        return sum(1 for t in tables if self.manager.tables[t].status == PLAYING)

    async def _no_deal(self, table_id: int) -> float | None:
        table = self.manager.tables[table_id]
        return None if table.status == PLAYING else -1.0

    def own_bytes(self, tables: list[int]) -> dict[str, tuple[float, float]]:
        """Per family, the median bytes a mid-hand game and its whole table (seats, notes, the
        host's fields, the game) hold of their own (``bot.host.memory.own_bytes``, against
        another table of the same family)."""
        by: dict[str, list[Table]] = {}
        for t in tables:
            table = self.manager.tables[t]
            if table.status == PLAYING and table.game is not None:
                by.setdefault(table.game_key, []).append(table)
        out = {}
        for key, found in by.items():
            pairs = list(zip(found[:24:2], found[1:24:2]))
            if pairs:
                games = statistics.median(own_bytes(a.game, b.game) for a, b in pairs)
                whole = statistics.median(own_bytes(a, b) for a, b in pairs)
                out[key] = (games, whole)
        return out


def blocks(base: tuple[int, int], tables: int) -> str:
    """What Python's allocator holds per table beyond ``base`` (``pymalloc``), as text."""
    used, free = (now - then for now, then in zip(pymalloc(), base))
    return (f" (Python's objects {used / tables / 1024:.1f} KiB in use, "
            f"{free / tables / 1024:.1f} KiB free in the allocator's arenas)")


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


async def measure(size: int, args: argparse.Namespace, warmup: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder:
        hall = await MixedHall.open(Path(folder), seed=size, tune=tuned(args.autopass, TURN))
        hall.away = args.away
        opened = time.perf_counter()
        # the first tables pay for what the process has once (SQLite's page cache, imports);
        # the rest show what one more table costs
        first = min(size // 10, 100)
        await hall.seat_games(MIX, first, seed=size)
        gc.collect()
        base, base_blocks = rss(), pymalloc()
        tables = await hall.seat_games(MIX, size - first, seed=size, first=first)
        tables = list(range(1, first + 1)) + tables
        gc.collect()
        idle = (rss() - base) / (size - first)
        if args.collector == "tuned":
            tune_collector()  # what the bot does once its tables are restored
        people = sum(len(t.seats) for t in hall.manager.tables.values())
        print(
            f"\n{size} tables ({'/'.join(g for g, _ in MIX)} in turn): seated {people} people "
            f"in {time.perf_counter() - opened:.1f} s; RSS per idle table {idle / 1024:.1f} KiB "
            f"(each table beyond the first {first}, before any hand)"
        )
        began = time.perf_counter()
        staggered = await hall.stagger(tables, args.stagger)
        print(f"  staggered: every table played to a random point of a hand in "
              f"{time.perf_counter() - began:.1f} s ({staggered:.0f} hands settled meanwhile; "
              f"at most {args.stagger:g} s: {hall.short} tables stopped short of their point)")
        gc.collect()
        staggered_rss = (rss() - base) / (size - first)
        playing = sum(1 for t in tables if hall.manager.tables[t].status == PLAYING)
        print(f"  RSS per table mid-hand ({playing} of {size}; brought there with at most "
              f"{FLIGHT} host calls under way): {staggered_rss / 1024:.1f} KiB"
              + blocks(base_blocks, size - first))

        before_bytes, before_hands, thought = hall.db_bytes(), hall.settled(), hall.thinking
        cpu, all_calls, timed = time.process_time(), hall.calls, hall.timer_actions()
        calls, took, lat = await hall.closed_loop(tables, seconds=args.seconds)
        host_cpu = time.process_time() - cpu - (hall.thinking - thought)
        timers = hall.timer_actions() - timed
        cpu_per_call = host_cpu / max(1.0, hall.calls - all_calls + timers)
        hands = hall.settled() - before_hands
        grown = hall.db_bytes() - before_bytes
        per_hand = grown / hands if hands else float("nan")
        closed = calls / took
        print(
            f"  closed loop: {calls} host calls in {took:.1f} s = {closed:,.0f} actions/s "
            f"(+ {timers:.0f} by the host's timers, {timers / max(1, calls + timers):.1%}); "
            f"p50 {ms(percentile(lat, 0.5))}, p99 {ms(percentile(lat, 0.99))}; {hands:.0f} hands, "
            + (f"{per_hand:,.0f} DB bytes per hand; " if hands else f"DB grew {grown:,} bytes; ")
            + f"host CPU {cpu_per_call * 1e6:.0f} µs per call (both threads, the players' "
            f"choosing taken out: {(hall.thinking - thought) / max(1e-9, time.process_time() - cpu):.0%} of the CPU)"
        )
        mid = [t for t in tables if hall.manager.tables[t].status == PLAYING]
        gc.collect()
        live = (rss() - base) / (size - first)
        print(f"  RSS per table after the closed loop, every table's call under way at once "
              f"({len(mid)} of {size} mid-hand): {live / 1024:.1f} KiB"
              + blocks(base_blocks, size - first))
        for key, (games, whole) in sorted(hall.own_bytes(tables).items()):
            print(f"    {key}: a mid-hand game holds {games / 1024:.1f} KiB of its own, its "
                  f"table {whole / 1024:.1f} KiB")

        timed = hall.timer_actions()
        pauses: dict[int, list[float]] = {0: [], 1: [], 2: []}
        began_gc: list[float] = []

        def collected(phase: str, info: dict[str, int]) -> None:
            if phase == "start":
                began_gc[:] = [time.perf_counter()]
            elif began_gc:
                pauses[info["generation"]].append(time.perf_counter() - began_gc[0])

        gc.callbacks.append(collected)
        try:
            calls, took, lat = await hall.open_loop(tables, args.rate, args.seconds, seed=size)
        finally:
            gc.callbacks.remove(collected)
        timers = hall.timer_actions() - timed
        open_cpu = hall.open_cpu  # from the first arrival to the last
        p99_open = percentile(lat, 0.99)
        offered = hall.offered
        print(
            f"  the people: {offered['arrivals'] / offered['seconds']:,.0f} arrivals/s, "
            f"{offered['sent'] / offered['seconds']:,.0f} actions/s sent ({offered['busy']} "
            f"arrivals found 8 tables in a row waiting for an answer; the last arrival "
            f"{offered['late'] * 1000:.0f} ms behind its schedule)"
        )
        print(
            f"  open loop at {args.rate:,.0f}/s offered by players in their own process: "
            f"{calls / took:,.0f} actions/s served (+ {timers:.0f} by the host's timers; "
            f"{hall.stale} overtaken by a timer); p50 {ms(percentile(lat, 0.5))}, "
            f"p99 {ms(p99_open)}; host CPU {open_cpu * 1e6:.0f} µs per call (the pipe to the "
            f"people: {hall.plumbing / max(1, calls) * 1e6:.0f} µs of it; the people's own "
            f"process used {hall.people_cpu:.0%} of a core)"
        )
        print("  the host's collector pauses in the open loop: " + ", ".join(
            f"gen {g}: {len(p)} (longest {max(p, default=0.0) * 1000:.1f} ms)"
            for g, p in pauses.items()))
        left = await hall.finish(tables, args.stagger)
        gc.collect()
        between = (rss() - base) / (size - first)
        print(f"  RSS per table between hands ({left} still playing): {between / 1024:.1f} KiB"
              + blocks(base_blocks, size - first))
        result = {
            "closed": closed,
            "p99_open": p99_open,
            "idle": idle,
            "mid": staggered_rss,
            "mid_closed": live,
            "between": between,
            "per_hand": per_hand,
            "cpu": cpu_per_call,
        }
        if warmup:
            result.update(await _flat(hall, tables, args, warmup, closed, cpu_per_call, base,
                                      size - first))
        await hall.close()
        return result


async def _flat(hall: MixedHall, tables: list[int], args: argparse.Namespace, warmup: int,
                closed: float, cpu_per_call: float, base: int, counted: int) -> dict[str, float]:
    """``warmup`` more hands, then the closed loop again: a cost that grows with uptime shows
    as a ratio below 1."""
    began, done_before, calls_before = time.perf_counter(), hall.hands, hall.calls
    await hall.closed_loop(tables, hands=warmup)
    took = time.perf_counter() - began
    print(
        f"  warm-up: {hall.hands - done_before} more hands, "
        f"{hall.calls - calls_before} host calls in {took:.1f} s "
        f"= {(hall.calls - calls_before) / took:,.0f} actions/s"
    )
    thought, cpu, all_calls, timed = hall.thinking, time.process_time(), hall.calls, \
        hall.timer_actions()
    calls, took, lat = await hall.closed_loop(tables, seconds=args.seconds)
    host_cpu = time.process_time() - cpu - (hall.thinking - thought)
    cpu_after = host_cpu / max(1.0, hall.calls - all_calls + hall.timer_actions() - timed)
    after = calls / took
    gc.collect()
    print(
        f"  after warm-up, closed loop: {after:,.0f} actions/s "
        f"({after / closed:.2f}x the first run; host CPU {cpu_after * 1e6:.0f} µs per call, "
        f"{cpu_per_call / cpu_after:.2f}x); p50 {ms(percentile(lat, 0.5))}, "
        f"p99 {ms(percentile(lat, 0.99))}; RSS per table {(rss() - base) / counted / 1024:.1f} KiB"
    )
    return {"flat": after / closed, "flat_cpu": cpu_per_call / cpu_after}


def one_size(size: int, args: argparse.Namespace, warmup: int) -> dict[str, float]:
    """Measure ``size`` tables in a fresh process, so memory and warm caches of one size do
    not flatter the next; its lines are printed as they come."""
    command = [
        sys.executable,
        __file__,
        "--one",
        str(size),
        "--seconds",
        str(args.seconds),
        "--rate",
        str(args.rate),
        "--warmup",
        str(warmup),
        "--collector",
        args.collector,
        "--autopass",
        str(args.autopass),
        "--away",
        str(args.away),
        "--stagger",
        str(args.stagger),
    ]
    result: dict[str, float] = {}
    with subprocess.Popen(command, stdout=subprocess.PIPE, text=True) as child:
        assert child.stdout is not None
        for line in child.stdout:
            if line.startswith("RESULT "):
                result = json.loads(line[len("RESULT ") :])
            else:
                print(line, end="", flush=True)
    if child.returncode:
        raise SystemExit(f"the run with {size} tables failed ({child.returncode})")
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, nargs="+", default=None)
    parser.add_argument("--seconds", type=float, default=None, help="per measurement")
    parser.add_argument("--rate", type=float, default=2000.0, help="open-loop actions/s")
    parser.add_argument("--warmup", type=int, default=None, help="hands before re-measuring")
    parser.add_argument("--full", action="store_true", help="100, 1,000, 5,000 tables; 2,000")
    parser.add_argument("--autopass", type=float, default=0.5, help="要不起 delay, seconds")
    parser.add_argument("--away", type=float, default=0.01,
                        help="share of turns people let time out (closed loop)")
    parser.add_argument("--stagger", type=float, default=60.0,
                        help="at most this many seconds of play before measuring")
    parser.add_argument(
        "--collector",
        choices=("tuned", "plain"),
        default="tuned",
        help="tuned: bot.host.memory.tune_collector after seating (as the bot does); "
        "plain: CPython's default thresholds",
    )
    parser.add_argument("--one", type=int, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    args.seconds = args.seconds or (8.0 if args.full else 4.0)
    if args.one is not None:
        result = asyncio.run(measure(args.one, args, args.warmup or 0))
        print("RESULT " + json.dumps(result), flush=True)
        return
    sizes = args.tables or ([100, 1000, 5000] if args.full else [100, 1000])
    warmup = args.warmup if args.warmup is not None else (2_000 if args.full else 0)
    print(
        f"host benchmark: a mix of {'/'.join(g for g, _ in MIX)} tables, random legal actions, "
        f"要不起 after {args.autopass:g} s, {args.away:.0%} of turns let time out (closed loop), "
        f"{args.seconds:g} s per measurement, one process per size, {args.collector} collector, "
        f"Python {sys.version.split()[0]}, load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    largest = max(sizes)
    middle = 1000 if 1000 in sizes else sizes[len(sizes) // 2]
    results = {size: one_size(size, args, warmup if size == middle else 0) for size in sizes}
    headline = results[largest]
    print(f"\nload average at the end {os.getloadavg()[0]:.1f} (2 cores shared with others)")
    print(
        f"summary at {largest} tables: {headline['closed']:,.0f} actions/s closed loop "
        f"({1 / headline['cpu']:,.0f} per host CPU-second), "
        f"open-loop p99 {ms(headline['p99_open'])} at {args.rate:,.0f}/s (goal <= 50 ms), "
        f"RSS per table {headline['mid'] / 1024:.1f} KiB mid-hand (goal <= 20; "
        f"{headline['mid_closed'] / 1024:.1f} after the closed loop), "
        f"{headline['between'] / 1024:.1f} KiB between hands, "
        f"{headline['idle'] / 1024:.1f} KiB before any hand"
        + (
            f"; at {middle} tables after warm-up {results[middle]['flat']:.2f}x the actions/s "
            f"and {results[middle]['flat_cpu']:.2f}x the CPU speed per call (goal flat)"
            if "flat" in results[middle]
            else ""
        )
    )
    print(f"host_open_loop_p99_at_{largest}_tables: {headline['p99_open'] * 1000:.1f} ms")


if __name__ == "__main__":
    main()
