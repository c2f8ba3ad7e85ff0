"""The web table under load: WebSocket pages on many tables over loopback, in one process.

Each table is a 斗地主 hand (one person, two trustee seats) with one seat page and
``--watchers`` spectator pages. The seat pages play what the trustee would, as fast as the
server answers (bounded by the per-connection rate limit, which is lifted here); for every
action the time from sending it to the first frame showing it, at the seat page and at each
spectator page, is recorded. Reported: p50/p99 action-to-update latency, frames per action,
and the resident memory the open pages added, per connection (server and client sides both
live in this process, so it is an upper bound for the server's).

Each seat waits ``--think`` seconds (on average; 0: none) after an update before its next
action, as a person does; the tables start at random moments. Printed too: the processor time
per page action, which does not depend on how busy the machine is.

Then, in SimCord, one person plays a whole 斗地主 hand from the page (two trustee seats):
the Discord REST calls each page action costs, by route — the coalesced table edit only,
since the seat's DM waits while its page is open (docs/web.md) — and the calls when the page
closes (the DM's one redraw).

    python benchmarks/web.py [--tables 250] [--watchers 3] [--actions 20] [--seconds 50]
                             [--think 1.0] [--no-discord]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's bot, not an installed one

import aiohttp  # noqa: E402

from bot.host.tables import TableManager  # noqa: E402
from bot.settings import WebSettings, load_settings  # noqa: E402
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


async def run(tables: int, watchers: int, actions: int, seconds: float,
              think: float) -> str:
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
    before = rss_kib()
    connector = aiohttp.TCPConnector(limit=0)
    latencies: list[float] = []
    frames = 0
    async with aiohttp.ClientSession(connector=connector) as http:
        async def page(token: str) -> aiohttp.ClientWebSocketResponse:
            ws = await http.ws_connect(f"{server.base}/ws", max_msg_size=0)
            await ws.send_str(json.dumps({"type": "hello", "token": token}))
            await ws.receive()  # the first frame
            return ws

        async def table_run(n: int) -> None:
            nonlocal frames
            table = manager.get(1000 + n)
            seat = await page(server.hub.token(table, 0))
            watch = [await page(server.hub.watch_token(table)) for _ in range(watchers)]
            ready.append(n)
            await go.wait()  # every page open before anyone acts: the steady state is timed
            stop = time.perf_counter() + seconds
            done = 0
            rng = random.Random(n)
            await asyncio.sleep(rng.uniform(0, think))  # the tables do not act in lockstep
            while done < actions and time.perf_counter() < stop and table.game is not None:
                game = table.game
                if 0 not in game.to_act():
                    break
                moves = len(game.log)
                sent = time.perf_counter()
                await seat.send_str(json.dumps({"type": "act", "action": game.trustee(0)}))
                for ws in (seat, *watch):  # the first frame showing the action, at each page
                    while True:
                        message = await ws.receive(timeout=10)
                        if message.type is not aiohttp.WSMsgType.TEXT:
                            break
                        data = json.loads(message.data)
                        if data["type"] == "frame" and (data["frame"]["moves"] > moves
                                                        or data["frame"]["result"]):
                            latencies.append(time.perf_counter() - sent)
                            frames += 1
                            break
                done += 1
                if think:  # a person's pause before the next action
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))
            for ws in (seat, *watch):
                await ws.close()

        ready: list[int] = []
        go = asyncio.Event()
        runs = asyncio.gather(*(table_run(n) for n in range(tables)))
        while len(ready) < tables and not runs.done():
            await asyncio.sleep(0.05)
        connected = rss_kib()
        began, cpu = time.perf_counter(), time.process_time()
        go.set()
        lags: list[float] = []

        async def probe() -> None:  # how late the loop wakes a 10 ms sleep: the machine's share
            while True:
                at = time.perf_counter()
                await asyncio.sleep(0.01)
                lags.append(time.perf_counter() - at - 0.01)

        prober = asyncio.get_running_loop().create_task(probe())
        await runs
        prober.cancel()
        took, cpu = time.perf_counter() - began, time.process_time() - cpu
        peak = max(connected, rss_kib())
    pages = tables * (1 + watchers)
    latencies.sort()
    acted = len(latencies) // (1 + watchers)
    print(f"{tables} tables, {pages} pages, {acted} page actions ({acted / took:.0f} a second, "
          f"a pause of about {think:g} s between a seat's actions), {len(latencies)} updates "
          f"in {took:.1f} s")
    if latencies:
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        print(f"action-to-update latency: p50 {statistics.median(latencies) * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms")
    lags.sort()
    if lags:
        print(f"event loop lag (a 10 ms sleep's overshoot): p50 {statistics.median(lags) * 1000:.1f}"
              f" ms, p99 {lags[int(len(lags) * 0.99)] * 1000:.1f} ms")
    print(f"processor time: {cpu / max(1, acted) * 1000:.1f} ms per page action (server, "
          f"trustee seats, database thread and the pages' clients together)")
    per_page = (peak - before) / max(1, pages)
    print(f"resident memory: +{per_page:.0f} KiB per page (server and client in this process)")
    await server.stop()
    await manager.shutdown()
    await db.close()
    return (f"p99 {p99 * 1000:.1f} ms action-to-update" if latencies else "no updates") + (
        f", {per_page:.0f} KiB per page")


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
    parser.add_argument("--no-discord", action="store_true",
                        help="skip the SimCord count of REST calls per page action")
    args = parser.parse_args()
    summary = asyncio.run(run(args.tables, args.watchers, args.actions, args.seconds,
                              args.think))
    if not args.no_discord:
        summary += f", {asyncio.run(rest_calls()):.2f} REST calls per page action"
    print(f"web: {summary}")


if __name__ == "__main__":
    main()
