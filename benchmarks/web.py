"""The web table under load: WebSocket pages on many tables over loopback, the pages' clients
in processes of their own.

Each table is a 斗地主 hand (one person, two trustee seats) with one seat page and
``--watchers`` spectator pages. The server (table manager, trustee seats, database, web
server: what ``gamehall run`` runs) is this process; the pages' clients run in
``--clients`` other processes, each with its own event loop, so their work and garbage are
not in the server's loop. A seat page plays as a person would, from what its page shows
only: the first bid, "pass" where it may, else its lowest card. For every action the time
from sending it to the first frame showing it, at the seat page and at each spectator page,
is recorded (by the client, on its own clock). Reported: p50/p99 action-to-update latency,
how late the server's loop woke a 10 ms sleep, the server's collector pauses, the server
process's processor time per page action, and the resident memory the open pages added to
the server, per connection.

Each seat waits ``--think`` seconds (on average; 0: none) after an update before its next
action, as a person does; the tables start at random moments.

Then, in SimCord, one person plays a whole 斗地主 hand from the page (two trustee seats):
the Discord REST calls each page action costs, by route — the coalesced table edit only,
since the seat's DM waits while its page is open (docs/web.md) — and the calls when the page
closes (the DM's one redraw).

    python benchmarks/web.py [--tables 250] [--watchers 3] [--actions 20] [--seconds 50]
                             [--think 1.0] [--clients 2] [--nice 0] [--no-discord]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import itertools
import json
import os
import random
import resource
import re
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's bot, not an installed one

import aiohttp  # noqa: E402

from bot.host.tables import TableManager  # noqa: E402
from bot.settings import WebSettings, load_settings  # noqa: E402
from bot.web.hub import Page  # noqa: E402
from bot.host.memory import tune_collector  # noqa: E402
from bot.web.server import WebServer  # noqa: E402
from engines import registry  # noqa: E402
from storage.db import open_database  # noqa: E402
from storage.wallet import Wallet  # noqa: E402


class Quiet:
    """A notifier that shows nothing (the pages are the only surface)."""

    async def table_changed(self, table): ...  # noqa: ANN001, ANN201, D102
    async def hand_started(self, table): ...  # noqa: ANN001, ANN201, D102
    async def hand_dealt(self, table, seat): ...  # noqa: ANN001, ANN201, D102
    async def hand_settled(self, table, result): ...  # noqa: ANN001, ANN201, D102
    async def table_closed(self, table, reason): ...  # noqa: ANN001, ANN201, D102


def rss_kib() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def pct(values: list[float], q: float) -> float:
    return values[min(len(values) - 1, int(len(values) * q))] if values else float("nan")


# --- the clients' side (``--client``: a process of its own) ---------------------------------

MOVES = re.compile(r'"moves":(\d+)')


def shows(text: str, moves: int) -> bool:
    """Whether a message is a frame showing more than ``moves`` actions, or the settlement
    (read from the text: a spectator's client does not decode the whole frame)."""
    if not text.startswith('{"type":"frame"'):
        return False
    found = MOVES.search(text)
    return (found is not None and int(found[1]) > moves) or '"result":[]' not in text


def choose(frame: dict[str, Any]) -> dict[str, Any]:
    """A person's action from what the page shows: the first bid or button, "pass" where it
    is offered, else a pick of the lowest card of the hand."""
    actions = [b["action"] for b in frame["buttons"]]
    if "pass" in actions:
        return {"type": "act", "action": "pass"}
    picks = [cell["p"] for cell in frame["hand"] if cell["p"] is not None]
    if frame["picker"] is not None and picks and not actions:
        return {"type": "pick", "picked": [picks[0]]}
    return {"type": "act", "action": actions[0]}


class Reader:
    """One page's socket, read all the time (so its pings are answered while its seat
    thinks): the seat page's latest frame, and the time to the first frame showing an
    action once one is awaited."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, seat: bool,
                 latencies: list[float]) -> None:
        self.ws, self.seat, self.latencies = ws, seat, latencies
        self.state: dict[str, Any] | None = None
        self.changed, self.answered = asyncio.Event(), asyncio.Event()
        self.awaited: tuple[int, float] | None = None
        """(moves, when the action was sent): the action whose frame is awaited."""

    def await_action(self, moves: int, sent: float) -> None:
        self.awaited = (moves, sent)
        self.answered.clear()

    async def run(self) -> None:
        async for message in self.ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            text, now = message.data, time.perf_counter()
            if self.awaited is not None and shows(text, self.awaited[0]):
                self.latencies.append(now - self.awaited[1])
                self.awaited = None
                self.answered.set()
            if self.seat and text.startswith('{"type":"frame"'):
                self.state = json.loads(text)["frame"]
                self.changed.set()
            elif self.seat and text.startswith('{"type":"error"'):
                raise RuntimeError(f"refused: {text}")
        self.answered.set()
        self.changed.set()


async def client_table(http: aiohttp.ClientSession, base: str, tokens: list[str],
                       plan: dict[str, Any], n: int, go: asyncio.Event, ready: list[int],
                       latencies: list[float]) -> None:
    readers = []
    for k, token in enumerate(tokens):
        ws = await http.ws_connect(f"{base}/ws", max_msg_size=0)
        await ws.send_str(json.dumps({"type": "hello", "token": token}))
        first = await ws.receive()  # the first frame
        reader = Reader(ws, k == 0, latencies)
        reader.state = json.loads(first.data)["frame"]
        readers.append(reader)
    tasks = [asyncio.ensure_future(r.run()) for r in readers]
    seat = readers[0]
    ready.append(n)
    await go.wait()  # every page open before anyone acts: the steady state is timed
    rng = random.Random(n)
    think = plan["think"]
    stop = time.perf_counter() + plan["seconds"]
    await asyncio.sleep(rng.uniform(0, think))  # the tables do not act in lockstep
    done = 0
    while done < plan["actions"] and time.perf_counter() < stop:
        while seat.state is not None and not (seat.state["your_turn"] or seat.state["result"]):
            seat.changed.clear()  # the trustees' turns
            await asyncio.wait_for(seat.changed.wait(), 30)
            if seat.ws.closed:
                break
        state = seat.state
        if state is None or state["result"] or seat.ws.closed:
            break
        sent = time.perf_counter()
        for reader in readers:
            reader.await_action(state["moves"], sent)
        await seat.ws.send_str(json.dumps(choose(state)))
        for reader in readers:  # the first frame showing the action, at each page
            await asyncio.wait_for(reader.answered.wait(), 30)
        done += 1
        if think:  # a person's pause before the next action
            await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
    for reader in readers:
        await reader.ws.close()
    await asyncio.gather(*tasks)


async def client_main() -> None:
    """One client process: its plan on stdin, "ready" once its pages are open, "go" to act,
    its latencies as one JSON line at the end."""
    plan = json.loads(sys.stdin.readline())
    os.nice(plan["nice"])
    loop = asyncio.get_running_loop()
    ready: list[int] = []
    latencies: list[float] = []
    go = asyncio.Event()
    connector = aiohttp.TCPConnector(limit=0)
    async with aiohttp.ClientSession(connector=connector) as http:
        runs = asyncio.gather(*(client_table(http, plan["base"], tokens, plan, n, go, ready,
                                             latencies)
                                for n, tokens in plan["tables"]))
        while len(ready) < len(plan["tables"]) and not runs.done():
            await asyncio.sleep(0.05)
        print("ready", flush=True)
        await loop.run_in_executor(None, sys.stdin.readline)
        go.set()
        await runs
    print(json.dumps({"latencies": latencies}), flush=True)


# --- the server's side -----------------------------------------------------------------------

class Pauses:
    """The server's collector pauses, by generation (``gc.callbacks``)."""

    def __init__(self) -> None:
        self.by_gen: dict[int, list[float]] = {0: [], 1: [], 2: []}
        self.at = 0.0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self.at = time.perf_counter()
        else:
            self.by_gen[info["generation"]].append(time.perf_counter() - self.at)

    def line(self) -> str:
        return ", ".join(f"gen {g}: {len(p)} (longest {max(p, default=0) * 1000:.1f} ms)"
                         for g, p in self.by_gen.items())


class ServerSide:
    """The server's own share of each page action: from its message read off the socket to
    its frames handed to the pages' sockets (the hub's first push for that table after it),
    in wall time and in the server process's processor time (every thread's) over the same
    span — what it would take with a core to itself, whatever the machine's load. Timed by
    wrapping the server's message handler and the hub's push, nothing else."""

    def __init__(self, server: WebServer) -> None:
        self.times: list[float] = []
        self.cpu: list[float] = []
        self.arrived: dict[int, tuple[float, float]] = {}
        handle, push = server._message, server.hub._push

        async def message(page: Page, raw: str) -> None:
            if page.seat is not None:
                self.arrived[page.grant.table] = (time.perf_counter(), time.process_time())
            await handle(page, raw)

        def pushed(page: Page, text: str) -> None:
            at = self.arrived.pop(page.grant.table, None)
            if at is not None:
                self.times.append(time.perf_counter() - at[0])
                self.cpu.append(time.process_time() - at[1])
            push(page, text)

        server._message, server.hub._push = message, pushed  # type: ignore[method-assign]


async def clients(count: int, plans: list[dict[str, Any]]) -> list[asyncio.subprocess.Process]:
    procs = []
    for plan in plans[:count]:
        proc = await asyncio.create_subprocess_exec(
            sys.executable, __file__, "--client", stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE, limit=1 << 26)
        assert proc.stdin is not None
        proc.stdin.write((json.dumps(plan) + "\n").encode())
        await proc.stdin.drain()
        procs.append(proc)
    return procs


async def run(tables: int, watchers: int, actions: int, seconds: float, think: float,
              processes: int, nice: int) -> str:
    folder = Path(tempfile.mkdtemp())
    base = load_settings(environ={"GAMEHALL_DB": str(folder / "hall.db")},
                         known_games=registry.specs().keys())
    days = {k: 86_400 for k in base.timers}
    settings = replace(base, timers=days, web=WebSettings(enabled=True, port=0,
                                                          actions_per_second=100))
    db = await open_database(settings.database)
    seeds = itertools.count(1)
    manager = TableManager(settings, db, Wallet.from_settings(db, settings), Quiet(),
                           clock=time.time, seed_source=lambda: next(seeds))
    server = WebServer(settings.web, manager, b"benchmark-secret-0123456789abcdef")
    await server.start()
    for n in range(tables):
        await manager.create(1, 1000 + n, "doudizhu", "free", 10 + n, f"P{n}", "en-US")
        await manager.add_bot(1000 + n, 10 + n)
        await manager.add_bot(1000 + n, 10 + n)
        await manager.start(1000 + n, 10 + n)
    tune_collector()  # as ``gamehall run`` does once its tables are restored
    plans = [{"base": server.base, "actions": actions, "seconds": seconds, "think": think,
              "nice": nice, "tables": []} for _ in range(processes)]
    for n in range(tables):
        table = manager.get(1000 + n)
        tokens = [server.hub.token(table, 0)] + [server.hub.watch_token(table)
                                                 for _ in range(watchers)]
        plans[n % processes]["tables"].append((n, tokens))
    before = rss_kib()
    procs = await clients(processes, plans)
    for proc in procs:
        assert proc.stdout is not None
        if (await proc.stdout.readline()).strip() != b"ready":
            raise SystemExit("a client process failed before its pages were open")
    connected = rss_kib()
    inside = ServerSide(server)
    pauses = Pauses()
    gc.callbacks.append(pauses)
    lags: list[float] = []

    async def probe() -> None:  # how late the loop wakes a 10 ms sleep: the machine's share
        while True:
            at = time.perf_counter()
            await asyncio.sleep(0.01)
            lags.append(time.perf_counter() - at - 0.01)

    prober = asyncio.get_running_loop().create_task(probe())
    began, cpu = time.perf_counter(), time.process_time()
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    for proc in procs:
        assert proc.stdin is not None
        proc.stdin.write(b"go\n")
        await proc.stdin.drain()
    latencies: list[float] = []
    for proc in procs:
        assert proc.stdout is not None
        line = await proc.stdout.readline()
        if not line:
            raise SystemExit("a client process failed")
        latencies += json.loads(line)["latencies"]
        await proc.wait()
    took, cpu = time.perf_counter() - began, time.process_time() - cpu
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    client_cpu = (used.ru_utime + used.ru_stime - children.ru_utime - children.ru_stime)
    load = os.getloadavg()[0]
    prober.cancel()
    gc.callbacks.remove(pauses)
    peak = max(connected, rss_kib())
    pages = tables * (1 + watchers)
    latencies.sort()
    lags.sort()
    acted = len(latencies) // (1 + watchers)
    print(f"{tables} tables, {pages} pages in {processes} client processes, {acted} page "
          f"actions ({acted / took:.0f} a second, a pause of about {think:g} s between a "
          f"seat's actions), {len(latencies)} updates in {took:.1f} s")
    p50, p99 = statistics.median(latencies) if latencies else float("nan"), pct(latencies, 0.99)
    print(f"action-to-update latency: p50 {p50 * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms, "
          f"max {pct(latencies, 1.0) * 1000:.1f} ms")
    print(f"server's event loop lag (a 10 ms sleep's overshoot): p50 "
          f"{statistics.median(lags) * 1000:.1f} ms, p99 {pct(lags, 0.99) * 1000:.1f} ms, max "
          f"{pct(lags, 1.0) * 1000:.1f} ms")
    for values, what in ((inside.times, "wall"), (inside.cpu, "the server's processor")):
        values.sort()
        ms = ", ".join(f"{q} {pct(values, v) * 1000:.1f} ms" for q, v in (
            ("p50", 0.5), ("p99", 0.99), ("max", 1.0)))
        print(f"inside the server, action read to its frames handed to the sockets ({what}"
              f" time): {ms}")
    print(f"server's collector pauses: {pauses.line()}")
    print(f"server's processor time: {cpu / max(1, acted) * 1000:.2f} ms per page action "
          f"(web server, host, trustee seats and database thread; not the clients)")
    per_page = (peak - before) / max(1, pages)
    print(f"the clients' processor time: {client_cpu / max(1, acted) * 1000:.2f} ms per page "
          f"action (their whole life, at nice {nice}); load average {load:.1f} at the end")
    print(f"server's resident memory: +{per_page:.0f} KiB per connection")
    await server.stop()
    await manager.shutdown()
    await db.close()
    return (f"p99 {p99 * 1000:.1f} ms action-to-update" if latencies else "no updates") + (
        f" (the server's own share: p99 {pct(inside.cpu, 0.99) * 1000:.1f} ms of its processor)"
        f", {cpu / max(1, acted) * 1000:.2f} ms server CPU per page action, "
        f"{per_page:.0f} KiB per connection")


async def rest_calls() -> float:
    """REST calls per page action, in SimCord (the test extra): a whole hand from the page."""
    import re

    import simcord

    sys.path.insert(0, str(ROOT / "tests" / "bot"))
    from simhelpers import table_message

    from bot.client import create_bot

    with tempfile.TemporaryDirectory() as tmp:
        base = load_settings(environ={"GAMEHALL_DB": f"{tmp}/hall.db"},
                             known_games=registry.specs().keys())
        settings = replace(base, locale_default="en-US",
                           timers={k: 86_400 for k in base.timers},
                           web=WebSettings(enabled=True, port=0, actions_per_second=100,
                                           secret_file=f"{tmp}/web-secret"))
        seeds = itertools.count(11)
        bot = create_bot(settings, seed_source=lambda: next(seeds))
        async with simcord.run(bot) as env, aiohttp.ClientSession() as http:
            guild = env.create_guild()
            channel = guild.create_text_channel("hall")
            ann = guild.add_member(env.create_user("ann"))
            await ann.slash(channel, "table create", game="doudizhu", room="free")
            for _ in range(2):
                await ann.click(table_message(channel), label="Add bot")
            await ann.click(table_message(channel), label="Start")
            table = bot.manager.tables[channel.id]
            token = re.search(r"/seat/([\w.-]+)\)", ann.user.dm_channel.last_message.content)[1]
            ws = await http.ws_connect(f"{bot.web.base}/ws")
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            routes: dict[str, int] = {}
            actions = calls = 0
            while table.game is not None and not table.game.is_over():
                game = table.game
                if 0 not in game.to_act():
                    await asyncio.sleep(0.01)
                    continue
                moves, before = len(game.log), len(env.http_requests)
                await ws.send_str(json.dumps({"type": "act", "action": game.trustee(0)}))
                while True:  # the page's frame showing it
                    data = json.loads((await ws.receive(timeout=10)).data)
                    if data["type"] == "frame" and (data["frame"]["moves"] > moves
                                                    or data["frame"]["result"]):
                        break
                await bot.hall.flush(channel.id)  # the table edit it caused, done
                for call in env.http_requests[before:]:
                    parts = ["{id}" if part.isdigit() else part for part in call.path.split("/")]
                    if parts[1:2] == ["webhooks"] and len(parts) > 3:
                        parts[3] = "{token}"  # an interaction's token: its edit, no new call
                    route = f"{call.method} " + "/".join(parts)
                    route += " (DM)" if str(ann.user.dm_channel.id) in call.path else ""
                    routes[route] = routes.get(route, 0) + 1
                calls += len(env.http_requests) - before
                actions += 1
            await asyncio.sleep(0.2)
            closed = len(env.http_requests)
            await ws.close()
            await asyncio.sleep(0.5)
            after = len(env.http_requests) - closed
        print(f"Discord, one hand from the page: {calls} REST calls for {actions} page actions")
        for route, count in sorted(routes.items(), key=lambda kv: -kv[1]):
            print(f"  {count:4}  {route}")
        print(f"  {after} when the page closed (the DM's one redraw)")
        return calls / max(1, actions)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--watchers", type=int, default=3)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=50.0)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds a seat waits after an update before acting (0: "
                             "as fast as the server answers)")
    parser.add_argument("--clients", type=int, default=2,
                        help="processes the pages' clients run in")
    parser.add_argument("--nice", type=int, default=0,
                        help="the client processes' niceness (on a busy machine a niced "
                             "client reads its frames late: its own delay, not the server's)")
    parser.add_argument("--client", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--no-discord", action="store_true",
                        help="skip the SimCord count of REST calls per page action")
    args = parser.parse_args()
    if args.client:
        asyncio.run(client_main())
        return
    summary = asyncio.run(run(args.tables, args.watchers, args.actions, args.seconds,
                              args.think, max(1, args.clients), args.nice))
    if not args.no_discord:
        summary += f", {asyncio.run(rest_calls()):.2f} REST calls per page action"
    print(f"web: {summary}")


if __name__ == "__main__":
    main()
