"""The web table under load: WebSocket pages on many tables over loopback, in one process.

Each table is a 斗地主 hand (one person, two trustee seats) with one seat page and
``--watchers`` spectator pages. The seat pages play what the trustee would, as fast as the
server answers (bounded by the per-connection rate limit, which is lifted here); for every
action the time from sending it to the first frame showing it, at the seat page and at each
spectator page, is recorded. Reported: p50/p99 action-to-update latency, frames per action,
and the resident memory the open pages added, per connection (server and client sides both
live in this process, so it is an upper bound for the server's).

Discord REST calls per page action are counted by tests/web/test_web_hall.py (the table edit
and the player's DM edit, coalesced): this benchmark runs with no Discord at all.

    python benchmarks/web.py [--tables 250] [--watchers 3] [--actions 20] [--seconds 50]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
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


async def run(tables: int, watchers: int, actions: int, seconds: float) -> None:
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
            stop = time.perf_counter() + seconds
            done = 0
            while done < actions and time.perf_counter() < stop and table.game is not None:
                game = table.game
                if 0 not in game.to_act():
                    break
                sent = time.perf_counter()
                await seat.send_str(json.dumps({"type": "act", "action": game.trustee(0)}))
                for ws in (seat, *watch):
                    message = await ws.receive(timeout=10)
                    if message.type is aiohttp.WSMsgType.TEXT:
                        latencies.append(time.perf_counter() - sent)
                        frames += 1
                done += 1
            for ws in (seat, *watch):
                await ws.close()

        connected = rss_kib()
        began = time.perf_counter()
        await asyncio.gather(*(table_run(n) for n in range(tables)))
        took = time.perf_counter() - began
        peak = max(connected, rss_kib())
    pages = tables * (1 + watchers)
    latencies.sort()
    print(f"{tables} tables, {pages} pages, {len(latencies)} updates in {took:.1f} s")
    if latencies:
        p99 = latencies[min(len(latencies) - 1, int(len(latencies) * 0.99))]
        print(f"action-to-update latency: p50 {statistics.median(latencies) * 1000:.1f} ms, "
              f"p99 {p99 * 1000:.1f} ms")
    per_page = (peak - before) / max(1, pages)
    print(f"resident memory: +{per_page:.0f} KiB per page (server and client in this process)")
    if latencies:
        print(f"web: p99 {p99 * 1000:.1f} ms action-to-update, {per_page:.0f} KiB per page")
    await server.stop()
    await manager.shutdown()
    await db.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--watchers", type=int, default=3)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=50.0)
    args = parser.parse_args()
    asyncio.run(run(args.tables, args.watchers, args.actions, args.seconds))


if __name__ == "__main__":
    main()
