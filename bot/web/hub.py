"""The pages' side of the table manager: a notifier beside the platform's own (``Notifier``).

``WebHub`` stands where the manager's notifier stood and passes every call on to it first
(the Discord hall, or the terminal), then redraws the pages open at that table. A page's
frame is built when it is sent, from the table as it is then (``bot.render.web.frame``), and
sent only if it changed: a burst of changes costs each page one frame per change it can see.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from bot.host.cashier import HandResult
from bot.host.model import Table
from bot.host.tables import Notifier, TableManager
from bot.i18n import render, t
from bot.render.web import frame
from bot.web.tokens import WATCH, SeatToken, sign
from engines.base import Text

log = logging.getLogger(__name__)


class Socket(Protocol):
    """What the hub needs of a page's WebSocket (aiohttp's ``WebSocketResponse``)."""

    async def send_str(self, data: str) -> None: ...

    @property
    def closed(self) -> bool: ...


class Bucket:
    """A token bucket: ``rate`` actions a second, bursts of ``rate``.

    >>> b = Bucket(2, clock=lambda: 0.0); [b.take() for _ in range(3)]
    [True, True, False]
    """

    def __init__(self, rate: int, clock: Callable[[], float] = time.monotonic) -> None:
        self.rate, self.clock = float(rate), clock
        self.level, self.at = float(rate), clock()

    def take(self) -> bool:
        now = self.clock()
        self.level = min(self.rate, self.level + (now - self.at) * self.rate)
        self.at = now
        if self.level < 1:
            return False
        self.level -= 1
        return True


@dataclass(eq=False)
class Page:
    """One open page: its socket, what its link grants (updated when a new hand starts at
    its table and its player still sits there), and the last frame it was sent."""

    socket: Socket
    grant: SeatToken
    bucket: Bucket
    sent: str = ""
    dirty: bool = False
    sender: asyncio.Task[None] | None = None
    frames: int = 0
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def seat(self) -> int | None:
        return None if self.grant.seat == WATCH else self.grant.seat


class WebHub:
    """Notifier of the manager: passes each call on to ``inner``, then updates the pages."""

    def __init__(self, manager: TableManager, inner: Notifier, secret: bytes,
                 link_seconds: int, clock: Callable[[], float] = time.time) -> None:
        self.manager, self.inner, self.secret = manager, inner, secret
        self.link_seconds, self.clock = link_seconds, clock
        self.pages: dict[int, set[Page]] = {}

    @classmethod
    def attach(cls, manager: TableManager, secret: bytes, link_seconds: int,
               clock: Callable[[], float] = time.time) -> WebHub:
        """Put a hub in front of ``manager``'s notifier (once; the hub already there is kept)."""
        if isinstance(manager.notifier, WebHub):
            return manager.notifier
        hub = cls(manager, manager.notifier, secret, link_seconds, clock)
        manager.notifier = hub
        return hub

    # --- links ------------------------------------------------------------------------
    def grant(self, table: Table, seat: int) -> SeatToken:
        """The grant of ``seat``'s link for the table's current hand."""
        uid = table.seats[seat].uid
        return SeatToken(table.id, table.hand_id or 0, seat, uid or 0, self.expiry())

    def expiry(self) -> int:
        """When a link made now expires: ``link_seconds`` on, rounded up to the hour, so the
        links made within one hour are the same (a redrawn DM keeps its link)."""
        return (int(self.clock() + self.link_seconds) // 3600 + 1) * 3600

    def token(self, table: Table, seat: int) -> str:
        return sign(self.secret, self.grant(table, seat))

    def watch_token(self, table: Table) -> str:
        return sign(self.secret, SeatToken(table.id, 0, WATCH, 0, self.expiry()))

    def refusal(self, grant: SeatToken) -> str | None:
        """Why a genuine, unexpired link no longer opens its page (a catalogue key), or None.
        A seat link opens the page of its own hand while it runs and, once settled, until the
        table deals again; a spectator link, the table's public view while it is open."""
        table = self.manager.tables.get(grant.table)
        if table is None:
            return "web.refused.table"
        if grant.seat == WATCH:
            return None if grant.user == 0 and grant.hand == 0 else "web.refused.bad"
        last = (table.last_result or {}).get("hand_id")
        if table.hand_id != grant.hand and not (table.hand_id is None and last == grant.hand):
            return "web.refused.hand"
        if table.seat_of(grant.user) != grant.seat:
            return "web.refused.seat"
        return None

    # --- pages ------------------------------------------------------------------------
    def open(self, page: Page) -> None:
        self.pages.setdefault(page.grant.table, set()).add(page)
        self.touch(page)

    def close(self, page: Page) -> None:
        pages = self.pages.get(page.grant.table)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[page.grant.table]
        if page.sender is not None and page.sender is not asyncio.current_task():
            page.sender.cancel()

    @property
    def page_count(self) -> int:
        return sum(len(p) for p in self.pages.values())

    def touch(self, page: Page) -> None:
        """Send ``page`` its frame soon (one sender per page; changes meanwhile coalesce)."""
        page.dirty = True
        if page.sender is None or page.sender.done():
            page.sender = asyncio.get_running_loop().create_task(self._send(page))

    def redraw(self, table_id: int) -> None:
        for page in list(self.pages.get(table_id, ())):
            self.touch(page)

    def frame_for(self, page: Page) -> dict[str, Any] | None:
        table = self.manager.tables.get(page.grant.table)
        if table is None:
            return None
        return frame(self.manager, table, page.seat, table.locale, self.manager.clock())

    async def _send(self, page: Page) -> None:
        while page.dirty and not page.socket.closed:
            page.dirty = False
            await asyncio.sleep(0)  # let a burst of changes land before drawing
            self._follow(page)
            data = self.frame_for(page)
            if data is None:
                continue
            text = json.dumps({"type": "frame", "frame": data}, ensure_ascii=False,
                              separators=(",", ":"))
            if text == page.sent:
                continue
            page.sent = text
            try:
                await page.socket.send_str(text)
                page.frames += 1
            except (ConnectionError, RuntimeError):
                return

    def _follow(self, page: Page) -> None:
        """A new hand at the page's table: a seat page follows its player into it with a new
        link (sent to the page, which keeps it in its address)."""
        table = self.manager.tables.get(page.grant.table)
        if table is None or page.seat is None or table.hand_id in (None, page.grant.hand):
            return
        seat = table.seat_of(page.grant.user)
        if seat is None:
            return
        page.grant = replace(self.grant(table, seat), user=page.grant.user)
        token = sign(self.secret, page.grant)
        asyncio.get_running_loop().create_task(self._say(page, {"type": "token",
                                                                "token": token}))

    async def say(self, page: Page, kind: str, text: str) -> None:
        await self._say(page, {"type": kind, "text": text})

    async def _say(self, page: Page, message: dict[str, Any]) -> None:
        if page.socket.closed:
            return
        try:
            await page.socket.send_str(json.dumps(message, ensure_ascii=False))
        except (ConnectionError, RuntimeError):
            pass

    # --- Notifier ---------------------------------------------------------------------
    async def table_changed(self, table: Table) -> None:
        await self.inner.table_changed(table)
        self.redraw(table.id)

    async def hand_started(self, table: Table) -> None:
        await self.inner.hand_started(table)
        self.redraw(table.id)

    async def hand_dealt(self, table: Table, seat: int) -> None:
        await self.inner.hand_dealt(table, seat)
        self.redraw(table.id)

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        await self.inner.hand_settled(table, result)
        self.redraw(table.id)

    async def table_closed(self, table: Table, reason: Text) -> None:
        await self.inner.table_closed(table, reason)
        note = t("table.closed", table.locale, reason=render(reason, table.locale))
        for page in list(self.pages.get(table.id, ())):
            await self.say(page, "closed", note)

    def __getattr__(self, name: str) -> Any:
        if name == "inner":
            raise AttributeError(name)
        # the platform's own calls (the Discord hall's flush, images_ready …) reach it as before
        return getattr(self.inner, name)
