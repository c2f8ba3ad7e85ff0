"""People in a process of their own, for the open-loop host benchmarks.

In a hall the people think on their own machines and their actions reach the host over the
network; a benchmark that chose their actions in the host's process would charge the host's
event loop with their thinking (every waiting seat's legal actions, for every arrival) and
measure that as the host's latency. Here the people run in a child process (``serve``) with
a copy of every table's hand, replayed from the host's own record:

- the host sends each table's hand as it is dealt (its setup and log) and every action added
  to it afterwards, whoever made it (a person, a 要不起 pass or a timeout by the host's
  timers, the trustee), as soon as the host tells its platform that the table changed;
- the child makes actions arrive as a Poisson stream at ``rate`` per second, each at a random
  table that is not waiting for an answer: a random legal action of a random waiting seat with
  a choice (where every waiting seat may only pass, the pass: a person who acts first simply
  acts), or the start of the next hand where none runs; it stamps each with the moment it was
  made (``time.monotonic``: the same clock in both processes);
- the host answers it through the real ``TableManager`` and reports the time from that stamp
  to its answer (the pipe's hop and the host's queue included).

An action the host refuses because a timer acted first (the person's copy was behind) is an
answer all the same, counted as stale.

The protocol is one JSON object per line over the child's stdin and stdout; the host sends
the news of a moment's changed tables and its answers as one batch (one write per turn of
its event loop, not one per answer).
"""

from __future__ import annotations

import asyncio
import json
import random
import resource
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from engines import registry  # noqa: E402
from engines.base import ESCAPE, FORCED_PASS, Game, Setup  # noqa: E402

if TYPE_CHECKING:
    from bot.host.model import Table
    from bot.host.tables import HandResult, TableManager

STALE = ("err.not_your_turn", "err.back_from_trustee", "err.no_hand")
"""A host's refusals that mean a timer acted before the person's action arrived (and may have
ended the hand: the table waits for the next deal)."""


class _Watching:
    """The hall's notifier, also marking each changed table for the people's copies."""

    def __init__(self, inner: Any, players: RemotePlayers) -> None:
        self.inner, self.players = inner, players

    async def table_changed(self, table: Table) -> None:
        self.players.changed(table.id)
        await self.inner.table_changed(table)

    async def hand_started(self, table: Table) -> None:
        self.players.changed(table.id)
        await self.inner.hand_started(table)

    async def hand_dealt(self, table: Table, seat: int) -> None:
        await self.inner.hand_dealt(table, seat)

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        self.players.changed(table.id)
        await self.inner.hand_settled(table, result)

    async def table_closed(self, table: Table, reason: Any) -> None:
        await self.inner.table_closed(table, reason)


class RemotePlayers:
    """The host's side: sends the tables' news to the people's process and answers their
    actions. ``start`` deals the next hand at a table with none running (a coroutine taking
    the table id)."""

    def __init__(self, manager: TableManager, tables: list[int], start: Any) -> None:
        self.manager, self.tables, self.start_hand = manager, tables, start
        self.sent: dict[int, tuple[int, int]] = {}  # table: (id of its game, log entries sent)
        self.dirty: set[int] = set()
        self.acks: list[int] = []  # tables answered since the last line to the people
        self.latencies: list[float] = []
        self.stale = 0
        self.plumbing = 0.0  # the host's CPU spent on this benchmark's pipe, not the host's
        self.people_cpu = 0.0  # the people's process's CPU seconds
        self.cpu_per_call = 0.0  # the host process's CPU per call, arrivals' window only
        self.offered: dict[str, Any] = {}  # the people's count of their arrivals
        self._closing = False
        self._child: asyncio.subprocess.Process | None = None
        self._flush: asyncio.Handle | None = None

    def timer_actions(self) -> float:
        """Actions the host's timers made so far (要不起 passes and timeouts)."""
        value = self.manager.metrics.registry.get_sample_value(
            "gamehall_actions_total", {"source": "timeout"})
        return value or 0.0

    def changed(self, table_id: int) -> None:
        self.dirty.add(table_id)
        if self._flush is None and self._child is not None:
            self._flush = asyncio.get_running_loop().call_soon(self._send_news)

    def _news(self, table_id: int) -> dict[str, Any] | None:
        table = self.manager.tables.get(table_id)
        game = table.game if table is not None else None
        if game is None or game.is_over():
            if self.sent.get(table_id) == (0, 0):
                return None
            self.sent[table_id] = (0, 0)
            return {"op": "idle", "t": table_id}
        ident, count = self.sent.get(table_id, (0, 0))
        log = game.log
        if ident != id(game) ^ game.setup.seed:  # a new hand (an id alone may be reused)
            self.sent[table_id] = (id(game) ^ game.setup.seed, len(log))
            return {"op": "hand", "t": table_id, "key": table.game_key,
                    "setup": game.setup.to_json(), "log": [[s, a] for s, a in log]}
        if len(log) == count:
            return None
        self.sent[table_id] = (ident, len(log))
        return {"op": "news", "t": table_id, "log": [[s, a] for s, a in log[count:]]}

    def _send_news(self) -> None:
        """One line for the moment: the news of every table changed since the last line, and
        the answers given meanwhile (each after its table's news), in one write."""
        self._flush = None
        began = time.process_time()
        batch = [news for news in map(self._news, self.dirty) if news is not None]
        self.dirty.clear()
        acks, self.acks = self.acks, []
        if (batch or acks) and self._child is not None and self._child.stdin is not None \
                and not self._closing:
            line = json.dumps({"op": "batch", "news": batch, "acks": acks},
                              ensure_ascii=False, separators=(",", ":"))
            self._child.stdin.write(line.encode() + b"\n")
        self.plumbing += time.process_time() - began

    async def _answer(self, message: dict[str, Any]) -> None:
        from bot.host.model import HostError
        from engines.errors import GameError

        table_id = message["t"]
        table = self.manager.tables[table_id]
        try:
            if "start" in message:
                await self.start_hand(table_id)
            else:
                uid = table.seats[message["seat"]].uid
                await self.manager.act(table_id, uid, message["a"])
        except GameError:
            self.stale += 1  # a timer moved the hand on: the person's action no longer fits
        except HostError as exc:
            if exc.text.key not in STALE and "start" not in message:
                raise
            self.stale += 1
        self.latencies.append(time.monotonic() - message["at"])
        self.acks.append(table_id)
        self.changed(table_id)  # the answer goes with the moment's news, after its table's

    async def run(self, rate: float, seconds: float, seed: int) -> tuple[int, float, list[float]]:
        """Actions at ``rate``/s for ``seconds``: (answers, the seconds it took, latencies)."""
        self._child = await asyncio.create_subprocess_exec(
            sys.executable, __file__, stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=1 << 24)
        assert self._child.stdin is not None and self._child.stdout is not None
        self.dirty.update(self.tables)
        self._send_news()
        self._child.stdin.write(json.dumps(
            {"op": "go", "rate": rate, "seconds": seconds, "seed": seed,
             "tables": self.tables}).encode() + b"\n")
        began = time.monotonic()
        # the host's CPU from the first arrival to the last (the people's start, every table's
        # hand sent and replayed, is not an action's cost), and the calls answered meanwhile
        cpu, timed = time.process_time(), self.timer_actions()
        pending: set[asyncio.Task[None]] = set()
        loop = asyncio.get_running_loop()
        while True:
            line = await self._child.stdout.readline()
            if not line:
                raise RuntimeError("the people's process ended early")
            started = time.process_time()
            message = json.loads(line)
            self.plumbing += time.process_time() - started
            if message.get("op") == "done":
                self.offered = message
                self._closing = True
                self.cpu_per_call = (time.process_time() - cpu) / max(
                    1.0, len(self.latencies) + self.timer_actions() - timed)
                break
            task = loop.create_task(self._answer(message))
            pending.add(task)
            task.add_done_callback(pending.discard)
        took = time.monotonic() - began
        await asyncio.gather(*pending)
        self._child.stdin.close()
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        await self._child.wait()
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        self.people_cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        self._child = None
        return len(self.latencies), took, self.latencies

    @classmethod
    def watching(cls, manager: TableManager, tables: list[int], start: Any) -> RemotePlayers:
        """People for ``tables``, following every change of them from now on."""
        players = cls(manager, tables, start)
        manager.notifier = _Watching(manager.notifier, players)  # type: ignore[assignment]
        return players

    def stop_watching(self) -> None:
        notifier = self.manager.notifier
        if isinstance(notifier, _Watching):
            self.manager.notifier = notifier.inner


# --- the people's process -------------------------------------------------------------------


class _People:
    def __init__(self) -> None:
        self.games: dict[int, Game | None] = {}
        self.busy: set[int] = set()
        self.rng = random.Random(0)
        self.out = sys.stdout

    def read(self, message: dict[str, Any]) -> None:
        op, table_id = message["op"], message.get("t")
        if op == "batch":
            for news in message["news"]:
                self.read(news)
            self.busy.difference_update(message.get("acks", ()))
        elif op == "hand":
            game = registry.get(message["key"]).new(Setup.from_json(message["setup"]))
            self.games[table_id] = game
            self._replay(game, message["log"])
        elif op == "news":
            game = self.games.get(table_id)
            if game is not None:
                self._replay(game, message["log"])
        elif op == "idle":
            self.games[table_id] = None

    @staticmethod
    def _replay(game: Game, log: list[list[Any]]) -> None:
        for seat, action in log:
            if action == ESCAPE:
                game.escape(int(seat))
            else:
                game.apply(int(seat), action)

    def choose(self, table_id: int) -> dict[str, Any] | None:
        game = self.games.get(table_id)
        if game is None or game.is_over():
            return {"t": table_id, "start": 1}
        waiting = list(game.to_act())
        self.rng.shuffle(waiting)
        forced = None
        for seat in waiting:
            legal = game.legal_actions(seat)
            if legal == [FORCED_PASS]:
                forced = seat
            elif legal:
                return {"t": table_id, "seat": seat, "a": self.rng.choice(legal)}
        return None if forced is None else {"t": table_id, "seat": forced, "a": FORCED_PASS}

    def send(self, message: dict[str, Any]) -> None:
        message["at"] = time.monotonic()
        self.out.write(json.dumps(message, ensure_ascii=False) + "\n")
        self.out.flush()


async def serve() -> None:
    """The people's process: read the host's news, send actions as a Poisson stream."""
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=1 << 24)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    people = _People()
    go: dict[str, Any] | None = None
    while go is None:
        message = json.loads(await reader.readline())
        if message["op"] == "go":
            go = message
        else:
            people.read(message)

    async def listen() -> None:
        while line := await reader.readline():
            people.read(json.loads(line))

    listening = loop.create_task(listen())
    rng, tables = random.Random(go["seed"]), go["tables"]
    people.rng = random.Random(go["seed"] + 1)
    began = due = time.monotonic()
    arrivals = sent = busy = 0
    while due - began < go["seconds"]:
        due += rng.expovariate(go["rate"])
        delay = due - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        arrivals += 1
        for _ in range(8):
            table_id = rng.choice(tables)
            if table_id not in people.busy:
                break
        else:
            busy += 1
            continue
        action = people.choose(table_id)
        if action is None:
            continue
        people.busy.add(table_id)
        people.send(action)
        sent += 1
    late = time.monotonic() - due  # how far behind its own schedule the last arrival was
    while people.busy and time.monotonic() - began < go["seconds"] + 60:
        await asyncio.sleep(0.01)
    people.send({"op": "done", "arrivals": arrivals, "sent": sent, "busy": busy,
                 "seconds": go["seconds"], "late": late})
    listening.cancel()


if __name__ == "__main__":
    asyncio.run(serve())
