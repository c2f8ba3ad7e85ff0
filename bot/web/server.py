"""The web table's HTTP server: aiohttp on the bot's own event loop (docs/web.md).

    GET /seat/<token>    a seat's page (the token: ``bot.web.tokens``); refused: a plain page
    GET /watch/<token>   a table's public view, for spectators
    GET /replay/<code>   a finished hand, step by step, once settled
    GET /board/<server>  a server's leaderboard, where its moderators turned it on
    GET /event/<server>/<event>/<mark>  a tournament's standings and its hands' replays
    GET /ws              the pages' WebSocket: the first message is ``{"type": "hello",
                         "token": …}``; then frames come, and actions go, as JSON
    GET /static/<file>   the pages' script and style (plain files in bot/web/static)

Every answer carries a Content-Security-Policy with no inline script and nothing from another
origin; no cookie is ever set; the access log names no token (``tokens.redact``).
"""

from __future__ import annotations

import html
import json
import logging
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web
from aiohttp.abc import AbstractAccessLogger

from bot.host.model import HostError, Table
from bot.host.tables import TableManager
from bot.i18n import normalize, t
from bot.render.text import error_text
from bot.settings import Settings, WebSettings
from bot.web.hub import Bucket, Page, WebHub
from bot.web.tokens import (WATCH, SeatToken, TokenError, event_mark, load_secret, redact,
                            verify)
from engines.errors import GameError

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
MAX_MESSAGE = 4096
"""The largest message a page may send, in bytes (an action is a few dozen)."""
HELLO_SECONDS = 10.0
"""How long a new WebSocket may take to send its token."""

Pages = Callable[[web.Request], Awaitable[web.StreamResponse]]


def csp(request: web.Request) -> str:
    """The pages' Content-Security-Policy: this origin only, no inline script or style."""
    return ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
            f"connect-src 'self' ws://{request.host} wss://{request.host}; base-uri 'none'; "
            "form-action 'none'; frame-ancestors 'none'")


@web.middleware
async def headers(request: web.Request, handler: Pages) -> web.StreamResponse:
    try:
        response = await handler(request)
    except web.HTTPException as exc:
        secure(request, exc)
        raise
    secure(request, response)
    return response


def secure(request: web.Request, response: web.StreamResponse | web.HTTPException) -> None:
    if isinstance(response, web.WebSocketResponse) and response.prepared:
        return
    response.headers["Content-Security-Policy"] = csp(request)
    response.headers["Referrer-Policy"] = "no-referrer"  # a seat link never leaks onwards
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Cache-Control"] = "no-store"


class AccessLog(AbstractAccessLogger):
    """One line per request, with any token cut out of the path."""

    def log(self, request: web.BaseRequest, response: web.StreamResponse, time: float) -> None:
        self.logger.info("%s %s %s %.3fs", request.method, redact(request.path),
                         response.status, time)

    @property
    def enabled(self) -> bool:
        return self.logger.isEnabledFor(logging.INFO)


def page_locale(request: web.Request) -> str:
    """The reader's language from Accept-Language (zh-TW, zh-CN or en-US)."""
    first = request.headers.get("Accept-Language", "").split(",")[0].split(";")[0].strip()
    return normalize(first or "en-US")


def plain_page(title: str, lines: list[str], status: int = 200, *, locale: str = "en-US",
               body: str = "", script: str | None = None) -> web.Response:
    """A page of escaped text (and ``body``, already-escaped HTML), the house style sheet."""
    paragraphs = "".join(f"<p>{html.escape(line)}</p>" for line in lines)
    tag = f'<script src="/static/{script}" defer></script>' if script else ""
    text = (f'<!doctype html><html lang="{locale}"><head><meta charset="utf-8">'
            '<meta name="viewport" content="width=device-width, initial-scale=1">'
            f'<title>{html.escape(title)}</title><link rel="stylesheet" href="/static/page.css">'
            f'{tag}</head><body class="plain"><main><h1>{html.escape(title)}</h1>{paragraphs}'
            f"{body}</main></body></html>")
    return web.Response(text=text, status=status, content_type="text/html", charset="utf-8")


class WebServer:
    """The pages of one bot process's tables (its shards'), on its event loop."""

    def __init__(self, settings: WebSettings, manager: TableManager, secret: bytes, *,
                 clock: Callable[[], float] = time.time,
                 extra_routes: Callable[[web.Application, WebServer], None] | None = None
                 ) -> None:
        self.settings, self.manager, self.secret, self.clock = settings, manager, secret, clock
        self.hub = WebHub.attach(manager, secret, settings.link_hours * 3600, clock)
        self.app = web.Application(middlewares=[headers], client_max_size=MAX_MESSAGE)
        self.app.add_routes([
            web.get("/seat/{token}", self.seat_page),
            web.get("/watch/{token}", self.watch_page),
            web.get("/ws", self.socket),
            web.static("/static", STATIC, show_index=False, follow_symlinks=False),
        ])
        from bot.web.pages import add_pages

        add_pages(self.app, self)
        if extra_routes is not None:
            extra_routes(self.app, self)
        self.names: Callable[[int], str | None] = lambda uid: None
        """A player's name for the leaderboard page (the Discord bot sets its own)."""
        self.events: Any = None
        """The tournaments' runner (``bot.tournament.runner.TournamentRunner``) whose events
        the event pages show; None: no event pages (the Discord bot sets its own)."""
        self.runner: web.AppRunner | None = None
        self.port: int | None = None
        self.started_hands: set[int] = set()

    # --- links --------------------------------------------------------------------------
    @property
    def base(self) -> str:
        if self.settings.base_url or self.port is None:
            return self.settings.public_url
        return f"http://{self.settings.bind}:{self.port}"

    def seat_url(self, table: Table, seat: int) -> str:
        """The link that opens ``seat``'s page for the table's current hand."""
        return f"{self.base}/seat/{self.hub.token(table, seat)}"

    def watch_url(self, table: Table) -> str:
        return f"{self.base}/watch/{self.hub.watch_token(table)}"

    def board_url(self, guild_id: int) -> str:
        return f"{self.base}/board/{guild_id}"

    def event_url(self, guild_id: int, event_id: int) -> str:
        """The event page of a tournament: its standings and its hands' replays."""
        mark = event_mark(self.secret, guild_id, event_id)
        return f"{self.base}/event/{guild_id}/{event_id}/{mark}"

    # --- life ---------------------------------------------------------------------------
    async def start(self) -> int:
        """Listen on ``bind``:``port`` (port 0: any free one); returns the port."""
        self.runner = web.AppRunner(self.app, access_log_class=AccessLog,
                                    access_log=logging.getLogger("gamehall.web.access"))
        await self.runner.setup()
        site = web.TCPSite(self.runner, self.settings.bind, self.settings.port)
        await site.start()
        server = site._server
        sockets = getattr(server, "sockets", None) or []
        self.port = sockets[0].getsockname()[1] if sockets else self.settings.port
        log.info("web table served at %s", self.base)
        return self.port

    async def stop(self) -> None:
        if self.runner is not None:
            await self.runner.cleanup()
            self.runner = None

    # --- pages --------------------------------------------------------------------------
    def check(self, token: str, locale: str, watch: bool) -> SeatToken | web.Response:
        """The grant of ``token``, or the plain page that refuses it (403)."""
        try:
            grant = verify(self.secret, token, self.clock())
            reason = self.hub.refusal(grant)
            if reason is None and (grant.seat == WATCH) != watch:
                reason = "web.refused.bad"
        except TokenError as exc:
            reason = exc.key
        if reason is None:
            return grant
        return plain_page(t("web.refused.title", locale), [t(reason, locale)], 403,
                          locale=locale)

    async def seat_page(self, request: web.Request) -> web.Response:
        return self._table_page(request, watch=False)

    async def watch_page(self, request: web.Request) -> web.Response:
        return self._table_page(request, watch=True)

    def _table_page(self, request: web.Request, watch: bool) -> web.Response:
        locale = page_locale(request)
        checked = self.check(request.match_info["token"], locale, watch)
        if isinstance(checked, web.Response):
            return checked
        table = self.manager.tables[checked.table]
        text = (STATIC / "table.html").read_text(encoding="utf-8")
        text = text.replace("{lang}", html.escape(table.locale)).replace(
            "{title}", html.escape(t("web.title", table.locale)))
        return web.Response(text=text, content_type="text/html", charset="utf-8")

    # --- the socket ---------------------------------------------------------------------
    async def socket(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(heartbeat=30, max_msg_size=MAX_MESSAGE)
        await ws.prepare(request)
        page = await self._hello(ws)
        if page is None:
            await ws.close()
            return ws
        self.hub.open(page)
        try:
            async for message in ws:
                if message.type is not WSMsgType.TEXT:
                    break
                await self._message(page, message.data)
        finally:
            self.hub.close(page)
        return ws

    async def _hello(self, ws: web.WebSocketResponse) -> Page | None:
        """The page's first message must carry its token; a refused one is told why."""
        try:
            message = await ws.receive(timeout=HELLO_SECONDS)
            data = json.loads(message.data) if message.type is WSMsgType.TEXT else None
        except (TimeoutError, ValueError):
            data = None
        token = data.get("token") if isinstance(data, dict) else None
        try:
            grant = verify(self.secret, token if isinstance(token, str) else "", self.clock())
            reason = self.hub.refusal(grant)
        except TokenError as exc:
            reason = exc.key
        if reason is not None:
            await ws.send_str(json.dumps({"type": "refused", "text": t(reason, "en-US")}))
            return None
        return Page(ws, grant, Bucket(self.settings.actions_per_second))

    async def _message(self, page: Page, raw: str) -> None:
        """One message from a page: an action, a pick, a hint, the trustee, a new hand."""
        table = self.manager.tables.get(page.grant.table)
        locale = table.locale if table is not None else "en-US"
        try:
            data: Any = json.loads(raw)
        except ValueError:
            data = None
        request = data.get("type") if isinstance(data, dict) else None
        if request not in ("act", "pick", "hint", "trustee", "start") or page.seat is None:
            await self.hub.say(page, "error", "❌ " + t("web.bad_message", locale))
            return
        if not page.bucket.take():
            await self.hub.say(page, "error", "❌ " + t("web.too_fast", locale))
            return
        try:
            await self._do(page, request, data, locale)
        except (HostError, GameError) as exc:
            await self.hub.say(page, "error", error_text(exc, locale))
            self.hub.touch(page)  # a trustee taken back, say, changed what the page shows
        except Exception:
            log.exception("table %s: a page's %s failed", page.grant.table, request)
            await self.hub.say(page, "error", error_text(RuntimeError(), locale))

    async def _do(self, page: Page, request: str, data: dict[str, Any], locale: str) -> None:
        grant = page.grant
        table = self.manager.get(grant.table)
        reason = self.hub.refusal(grant)
        if reason is not None:
            raise HostError(reason)
        uid = grant.user
        if request == "hint":
            await self.hub.say(page, "hint", t("web.hint_is", locale,
                                               action=self.manager.hint(table.id, uid)))
            return
        if request == "trustee":
            await self.manager.set_trustee(table.id, uid, bool(data.get("on")))
            return
        if request == "start":
            await self.manager.start(table.id, uid)
            return
        if request == "pick":
            action = self._picked(table, grant.seat, data.get("picked"))
        else:
            action = data.get("action")
            if not isinstance(action, str) or not action.strip() or len(action) > 200:
                raise HostError("web.bad_message")
        # the host redraws what changed; this seat's DM waits while its page is open (hub)
        await self.manager.act(table.id, uid, action)

    def _picked(self, table: Table, seat: int, picked: Any) -> str:
        """The action a page's pick makes: picker tokens by index, each at most once."""
        game = table.game
        picker = game.picker(seat) if game is not None and seat in game.to_act() else None
        if picker is None:
            raise HostError("err.not_your_turn")
        if (not isinstance(picked, list) or not picked
                or not all(isinstance(i, int) and not isinstance(i, bool) for i in picked)
                or len(set(picked)) != len(picked)
                or not all(0 <= i < len(picker.tokens) for i in picked)):
            raise HostError("web.bad_pick")
        return picker.action([picker.tokens[i] for i in sorted(picked)])



async def serve(settings: WebSettings, manager: TableManager, secret: bytes) -> WebServer:
    """Start the web table for ``manager``'s tables."""
    server = WebServer(settings, manager, secret)
    await server.start()
    return server



async def start_web(settings: Settings, manager: TableManager) -> WebServer:
    """``gamehall run``'s web table: the secret (``GAMEHALL_WEB_SECRET`` or ``[web]
    secret_file``), then the server on ``[web] bind``:``port``. SecretError, OSError."""
    secret = load_secret(Path(settings.web.secret_file))
    server = WebServer(settings.web, manager, secret)
    await server.start()
    return server
