"""The pages' side of the table manager: a notifier beside the platform's own (``Notifier``).

``WebHub`` stands where the manager's notifier stood and passes every call on to it (the
Discord hall, or the terminal), and redraws the pages open at that table. A table's frames
are built by one task per table, from the table as it is then (``bot.render.web.frame``):
the public parts once (``Parts``), the spectators' frame once and serialised once for all of
them, each seat's once for every page of that seat; a page is sent a frame only if what it
shows changed. A burst of changes coalesces into one build. The pages are redrawn as soon as
the host saves a change (``PagesFirst``), not after the save.

Live surfaces: while a seat has a page open, that page is the seat's private surface and
the host's DM redraws for it (``hand_dealt``) are held back; when its last page closes, the
DM is redrawn once if one was held back (docs/web.md).
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
from bot.host.model import PLAYING, Table
from bot.host.tables import Notifier, TableManager
from bot.i18n import render, t
from bot.render.web import Parts, frame
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
    """The last frame sent, without its clock (``now``): what the page shows."""
    pending: str | None = None
    """The next message to send (the newest frame), while the sender is busy."""
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
        self.dirty: set[int] = set()
        self.builders: dict[int, asyncio.Task[None]] = {}
        self.drawn: dict[int, tuple[Any, ...]] = {}
        """Each table's ``moment`` when its frames were last drawn."""
        self.held: set[tuple[int, int]] = set()
        """(table, seat): DM redraws held back while the seat's page is live."""
        self.tasks: set[asyncio.Task[None]] = set()

    @classmethod
    def attach(cls, manager: TableManager, secret: bytes, link_seconds: int,
               clock: Callable[[], float] = time.time) -> WebHub:
        """Put a hub in front of ``manager``'s notifier (once; the hub already there is kept)."""
        if isinstance(manager.notifier, WebHub):
            return manager.notifier
        hub = cls(manager, manager.notifier, secret, link_seconds, clock)
        manager.notifier = hub
        manager.saver = PagesFirst(manager.saver, hub)  # type: ignore[assignment]
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
        self.redraw(page.grant.table)

    def close(self, page: Page) -> None:
        pages = self.pages.get(page.grant.table)
        if pages is not None:
            pages.discard(page)
            if not pages:
                del self.pages[page.grant.table]
                self.drawn.pop(page.grant.table, None)
        if page.sender is not None and page.sender is not asyncio.current_task():
            page.sender.cancel()
        self._surface_closed(page.grant.table, page.seat)

    @property
    def page_count(self) -> int:
        return sum(len(p) for p in self.pages.values())

    def touch(self, page: Page) -> None:
        """Send ``page`` its frame soon, if what it shows changed."""
        self.redraw(page.grant.table)

    def redraw(self, table_id: int) -> None:
        """Build the table's frames soon (one builder per table; changes meanwhile coalesce)."""
        if table_id not in self.pages:
            return
        self.dirty.add(table_id)
        builder = self.builders.get(table_id)
        if builder is None or builder.done():
            self.builders[table_id] = asyncio.get_running_loop().create_task(
                self._build(table_id), name=f"web-frames-{table_id}")

    def frame_for(self, page: Page) -> dict[str, Any] | None:
        table = self.manager.tables.get(page.grant.table)
        if table is None:
            return None
        return frame(self.manager, table, page.seat, table.locale, self.manager.clock())

    async def _build(self, table_id: int) -> None:
        while table_id in self.dirty:
            await asyncio.sleep(0)  # let a burst of changes land before drawing
            self.dirty.discard(table_id)
            table = self.manager.tables.get(table_id)
            pages = self.pages.get(table_id)
            if table is None or not pages:
                continue
            if table.status == PLAYING and table.game is not None and table.game.is_over():
                continue  # being settled: the settlement's redraw follows (hand_settled)
            try:
                self._draw(table, pages)
            except Exception:  # noqa: BLE001 - a frame that fails must not stop the builder
                log.exception("table %s: the pages' frame failed", table_id)
        if self.builders.get(table_id) is asyncio.current_task():
            del self.builders[table_id]

    @staticmethod
    def moment(table: Table) -> tuple[Any, ...]:
        """What a frame is made from, cheaply: the table's saved state (``state_key`` and
        ``seat_flags``, which the host's saves rely on to miss no change), the hand's actions
        so far, the turn's deadline. While it stays the same, no page's frame can have
        changed."""
        game = table.game
        return (table.state_key(), table.seat_flags(), id(game),
                len(game.log) if game is not None else 0, table.deadline, table.window,
                table.last_result is not None)

    def _draw(self, table: Table, pages: set[Page]) -> None:
        """Each page's frame, each distinct one built and serialised once."""
        moment = self.moment(table)
        if self.drawn.get(table.id) == moment and all(p.sent for p in pages):
            return  # the same table as last time (a save, then its notice): nothing new
        self.drawn[table.id] = moment
        now = self.manager.clock()
        parts = Parts.of(self.manager, table, table.locale)
        bodies: dict[int | None, str] = {}
        for page in list(pages):
            self._follow(page, table)
            body = bodies.get(page.seat)
            if body is None:
                data = frame(self.manager, table, page.seat, table.locale, now, parts)
                data.pop("now")
                body = bodies[page.seat] = json.dumps(data, ensure_ascii=False,
                                                      separators=(",", ":"))
            if body == page.sent:
                continue
            page.sent = body
            # the clock goes in last, outside what is compared: a frame is not new for it
            self._push(page, f'{{"type":"frame","frame":{body[:-1]},"now":{now!r}}}}}')

    def _push(self, page: Page, text: str) -> None:
        page.pending = text
        if page.sender is None or page.sender.done():
            page.sender = asyncio.get_running_loop().create_task(self._send(page))

    async def _send(self, page: Page) -> None:
        while page.pending is not None and not page.socket.closed:
            text, page.pending = page.pending, None
            try:
                await page.socket.send_str(text)
                page.frames += 1
            except (ConnectionError, RuntimeError):
                return

    def _follow(self, page: Page, table: Table) -> None:
        """A new hand at the page's table: a seat page follows its player into it with a new
        link (sent to the page, which keeps it in its address)."""
        if page.seat is None or table.hand_id in (None, page.grant.hand):
            return
        seat = table.seat_of(page.grant.user)
        if seat is None:
            return
        old = page.seat
        page.grant = replace(self.grant(table, seat), user=page.grant.user)
        token = sign(self.secret, page.grant)
        asyncio.get_running_loop().create_task(self._say(page, {"type": "token",
                                                                "token": token}))
        if old != seat:
            self._surface_closed(table.id, old)

    # --- live surfaces ------------------------------------------------------------------
    def live(self, table_id: int, seat: int) -> bool:
        """Whether ``seat`` of the table has a page open (its live private surface)."""
        return any(p.seat == seat and not p.socket.closed for p in self.pages.get(table_id, ()))

    def hold(self, table_id: int, seat: int) -> bool:
        """Hold back a DM redraw of ``seat`` if it has a page open (True): it is redrawn once
        when its last page closes."""
        if not self.live(table_id, seat):
            return False
        self.held.add((table_id, seat))
        return True

    def _surface_closed(self, table_id: int, seat: int | None) -> None:
        """The seat's last page closed: redraw its DM once if a redraw was held back."""
        if seat is None or self.live(table_id, seat) or (table_id, seat) not in self.held:
            return
        self.held.discard((table_id, seat))
        table = self.manager.tables.get(table_id)
        if table is None or seat >= len(table.seats) or table.seats[seat].uid is None:
            return
        task = asyncio.get_running_loop().create_task(self._dm(table, seat))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _dm(self, table: Table, seat: int) -> None:
        try:
            await self.inner.hand_dealt(table, seat)
        except Exception:  # noqa: BLE001 - the notifier's own failures are its to report
            log.exception("table %s: the DM of seat %s was not redrawn", table.id, seat)

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
        self.redraw(table.id)
        await self.inner.table_changed(table)

    async def hand_started(self, table: Table) -> None:
        self.redraw(table.id)
        await self.inner.hand_started(table)

    async def hand_dealt(self, table: Table, seat: int) -> None:
        """The seat's private hand changed: its page shows it; its DM is redrawn unless the
        seat has a page open (then once, when the last one closes)."""
        self.redraw(table.id)
        if self.hold(table.id, seat):
            return
        self.held.discard((table.id, seat))
        await self.inner.hand_dealt(table, seat)

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        self.redraw(table.id)
        await self.inner.hand_settled(table, result)

    async def table_closed(self, table: Table, reason: Text) -> None:
        self.held = {k for k in self.held if k[0] != table.id}
        await self.inner.table_closed(table, reason)
        note = t("table.closed", table.locale, reason=render(reason, table.locale))
        for page in list(self.pages.get(table.id, ())):
            await self.say(page, "closed", note)

    def __getattr__(self, name: str) -> Any:
        if name == "inner":
            raise AttributeError(name)
        # the platform's own calls (the Discord hall's flush, images_ready …) reach it as before
        return getattr(self.inner, name)


class PagesFirst:
    """The manager's saver, with the pages redrawn as each save begins.

    The host saves every change before it returns (``TableManager.act`` awaits the save,
    then tells the notifier); the table in memory is already what the pages should show, so
    their frames are built while the database writes, not after. The save itself is
    unchanged and still awaited by the host."""

    def __init__(self, inner: Any, hub: WebHub) -> None:
        self.inner, self.hub = inner, hub

    async def save(self, table: Table, *, snapshot: bool = False) -> None:
        self.hub.redraw(table.id)
        await self.inner.save(table, snapshot=snapshot)

    def __getattr__(self, name: str) -> Any:
        if name == "inner":
            raise AttributeError(name)
        return getattr(self.inner, name)
