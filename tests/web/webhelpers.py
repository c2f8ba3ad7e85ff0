"""Helpers of the web table's tests: a dealt table, a page's WebSocket."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import aiohttp

from bot.host.tables import TableManager
from bot.web.server import WebServer

SECRET = b"tests-only-web-secret-0123456789"
TABLE = 500


async def deal(manager: TableManager, game: str = "doudizhu", humans: int = 1,
               table: int = TABLE) -> None:
    """A table of ``game`` in the score-only room: players 1..humans, bots for the rest."""
    spec = manager.specs[game]
    await manager.create(1, table, game, "free", 1, "Ann", "en-US")
    for uid in range(2, humans + 1):
        await manager.join(table, uid, f"P{uid}")
    while len(manager.get(table).seats) < (spec.seats_default or spec.min_seats):
        await manager.add_bot(table, 1)
    await manager.start(table, 1)


class Client:
    """One page's WebSocket: every message it was sent, in order."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []

    async def next(self, kind: str, timeout: float = 5.0) -> dict[str, Any]:
        """The next message of ``kind`` (those before it are kept in ``messages``)."""
        async def wait() -> dict[str, Any]:
            while True:
                msg = await self.ws.receive()
                if msg.type is not aiohttp.WSMsgType.TEXT:
                    raise ConnectionError(f"socket ended: {msg.type}")
                self.raw.append(msg.data)
                data = json.loads(msg.data)
                self.messages.append(data)
                if data["type"] == kind:
                    return data
        return await asyncio.wait_for(wait(), timeout)

    async def frame(self, until: Any = None, timeout: float = 5.0) -> dict[str, Any]:
        """The next frame (for which ``until(frame)`` holds, if given)."""
        while True:
            data = (await self.next("frame", timeout))["frame"]
            if until is None or until(data):
                return data

    async def send(self, **message: Any) -> None:
        await self.ws.send_str(json.dumps(message))


async def connect(http: aiohttp.ClientSession, server: WebServer, token: str) -> Client:
    ws = await http.ws_connect(f"{server.base}/ws")
    client = Client(ws)
    await client.send(type="hello", token=token)
    return client
