"""Benchmark: a 1,000-player 斗地主 sit-and-go field through the real host.

Everything is real except Discord: ``TableManager`` over a real SQLite file, the event runner,
its storage (escrow at registration, state saved after every hand). Every player is on the
trustee, so a round is 333 tables dealt and played out by the host (999 players: a sit-and-go
field must divide into tables of three).
Prints host CPU per round (re-seating by standings included) and the standings update time per
hand (applying a hand's points to the event and saving it), with the goals of issue 29 (under a
second of host CPU per round, at most 50 ms per hand).

Host CPU is ``time.process_time`` (both threads) less the CPU the trustee spent choosing its
plays (``Game.trustee``/``trustee_offer``: the players' thinking, as ``benchmarks/mix.py``
leaves out the players' choosing); the whole CPU is printed next to it, and the round's
per-table costs: opening and seating (``TableManager.open_tables``), the deal to the
settlement (every table's hand, dealt together), and the rest (the event's own work: the
standings, closing the tables, re-seating). The summary is the median of ``--events`` events
run one after another (the machine is shared: one run is noisy).

    python benchmarks/tournament.py               # 999 players (333 tables), 2 rounds, 3 events
    python benchmarks/tournament.py --players 99 --rounds 2 --events 1
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bot.host.tables import TableManager  # noqa: E402
from bot.settings import load_settings  # noqa: E402
from bot.tournament.runner import HostVenue, TournamentRunner  # noqa: E402
from engines import registry  # noqa: E402
from engines.base import Game  # noqa: E402
from storage.db import open_database  # noqa: E402
from storage.tournaments import EventSpec, Format  # noqa: E402
from storage.wallet import Wallet  # noqa: E402


class Silent:
    async def table_changed(self, table): ...
    async def hand_started(self, table): ...
    async def hand_dealt(self, table, seat): ...
    async def hand_settled(self, table, result): ...
    async def table_closed(self, table, reason): ...


class Thinking:
    """The CPU spent inside the trustee's choices (outermost calls only)."""

    def __init__(self) -> None:
        self.seconds = 0.0
        self.depth = 0
        todo, classes = [Game], []
        while todo:
            cls = todo.pop()
            classes.append(cls)
            todo += cls.__subclasses__()
        for cls in classes:
            for name in ("trustee", "trustee_offer"):
                if name in cls.__dict__:
                    setattr(cls, name, self.timed(cls.__dict__[name]))

    def timed(self, method):
        def wrapper(game, *args, **kwargs):
            if self.depth:
                return method(game, *args, **kwargs)
            self.depth, began = 1, time.process_time()
            try:
                return method(game, *args, **kwargs)
            finally:
                self.depth = 0
                self.seconds += time.process_time() - began
        return wrapper


class Parts:
    """CPU (less the trustee's thinking) of each round's table opening (``open_tables``) and of
    seating the round in all (opening, then dealing, playing and settling every table)."""

    def __init__(self, thinking: Thinking) -> None:
        self.thinking = thinking
        self.opening: list[float] = []
        self.seating: list[float] = []

    def cpu(self) -> float:
        return time.process_time() - self.thinking.seconds


class TimedManager(TableManager):
    parts: Parts

    async def open_tables(self, *args, **kwargs):
        began = self.parts.cpu()
        try:
            return await super().open_tables(*args, **kwargs)
        finally:
            self.parts.opening.append(self.parts.cpu() - began)


class TimedRunner(TournamentRunner):
    parts: Parts

    async def _seat_tables(self, event, tables):
        began = self.parts.cpu()
        try:
            await super()._seat_tables(event, tables)
        finally:
            self.parts.seating.append(self.parts.cpu() - began)


class Timed(HostVenue):
    """Marks each round's start (CPU time, and the trustee's thinking so far)."""

    def __init__(self, thinking: Thinking) -> None:
        super().__init__()
        self.thinking = thinking
        self.rounds: list[tuple[float, float]] = []

    async def round_started(self, event, state, seating) -> None:
        self.rounds.append((time.process_time(), self.thinking.seconds))


async def run(players: int, rounds: int) -> float:
    """One event; prints its figures and returns its worst round's host CPU (the final table
    aside)."""
    with tempfile.TemporaryDirectory() as folder:
        settings = load_settings(environ={"GAMEHALL_DB": str(Path(folder) / "hall.db")},
                                 known_games=registry.specs().keys())
        db = await open_database(settings.database)
        seeds = itertools.count(1)
        manager = TimedManager(settings, db, Wallet.from_settings(db, settings), Silent(),
                               clock=time.time, seed_source=lambda: next(seeds))
        thinking = Thinking()
        parts = manager.parts = Parts(thinking)
        venue = Timed(thinking)
        runner = TimedRunner(manager, venue, auto=lambda uid: True)
        runner.parts = parts
        spec = EventSpec("doudizhu", "free", Format.SIT_AND_GO, players, rounds, fee=100)
        eid = await runner.create(1, 1, spec, 1)
        for uid in range(1, players):
            await runner.join(1, eid, uid, f"P{uid}")
        began = time.process_time()
        await runner.join(1, eid, players, f"P{players}")  # full: the event runs to its end
        await runner.idle()
        ended = time.process_time()
        marks = [*venue.rounds, (ended, thinking.seconds)]
        spans = list(itertools.pairwise(marks))
        per_round = [(b[0] - a[0]) - (b[1] - a[1]) for a, b in spans]
        whole_cpu = [b[0] - a[0] for a, b in spans]
        hands = runner.hand_seconds
        status = (await runner.store(1).get(eid)).status.value
        await manager.shutdown()
        await db.close()
    whole = per_round[:-1] or per_round  # the last round is the final table (one table)
    worst = max(whole)
    print(f"{players} players, {players // 3} tables, {rounds} rounds: event {status}")
    for n, (seconds, cpu) in enumerate(zip(per_round, whole_cpu, strict=True), start=1):
        tables = players // 3 if n < rounds else 1
        opening, seating = parts.opening[n - 1], parts.seating[n - 1]
        print(f"  round {n}: {seconds:.3f} s host CPU ({cpu:.3f} s with the trustee's thinking)"
              f"; per table: opening and seating {opening / tables * 1000:.2f} ms, deal, play, "
              f"saves and settlement {(seating - opening) / tables * 1000:.2f} ms, the rest "
              f"(the event's own work, re-seating) {(seconds - seating) / tables * 1000:.2f} ms")
    ordered = sorted(hands)
    print(f"  total {ended - began:.2f} s CPU, {thinking.seconds:.2f} s of it the trustee's "
          f"thinking; standings update per hand (wall time, saved): "
          f"p50 {ordered[len(hands) // 2] * 1000:.2f} ms, p99 "
          f"{ordered[min(len(hands) - 1, len(hands) * 99 // 100)] * 1000:.2f} ms, max "
          f"{ordered[-1] * 1000:.2f} ms over {len(hands)} hands (goal <= 50 ms)")
    return worst


async def runs(players: int, rounds: int, count: int) -> None:
    worst = []
    for n in range(count):
        print(f"event {n + 1} of {count}:")
        worst.append(await run(players, rounds))
    median = sorted(worst)[len(worst) // 2]
    print(f"host CPU of the round, {count} events: "
          + ", ".join(f"{w:.3f}" for w in worst) + f" s; median {median:.3f} s (goal < 1 s)")
    print(f"tournament: {median:.3f} s_host_cpu_per_round")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=999)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--events", type=int, default=3,
                        help="events run one after another; the summary is their median")
    args = parser.parse_args()
    asyncio.run(runs(args.players, args.rounds, args.events))


if __name__ == "__main__":
    main()
