"""``gamehall play KEY --web``: the terminal table's twin in the local browser.

The same host, rules and wallet file as ``gamehall play``, against trustee seats, with no
Discord at all: the table is served on this machine only (127.0.0.1) with a secret made for
this run, and the seat's page opens in the default browser. The page deals each next hand
(its Start button); Ctrl-C, or ``quit`` typed here, ends the table.
"""

from __future__ import annotations

import asyncio
import secrets
import sys
import time
import webbrowser
from dataclasses import replace

from bot.host.model import HostError
from bot.host.tables import TableManager
from bot.i18n import DEFAULT, t, typed
from bot.render.text import error_text
from bot.settings import Settings
from bot.terminal import QUIT_WORDS, TERMINAL_GUILD, TERMINAL_TABLE, TerminalNotifier, _read
from bot.web.server import WebServer
from engines.errors import GameError
from storage.db import open_database
from storage.wallet import Wallet


async def play_web(settings: Settings, game: str, room: str, uid: int, seed: int | None, *,
                   timers: bool = True, locale: str = DEFAULT, port: int | None = None,
                   browser: bool = True) -> int:
    """Seat the player against trustee seats, serve the seat's page and open it; hands are
    dealt from the page until the player quits here (or presses Ctrl-C)."""
    db = await open_database(settings.database, synchronous=settings.synchronous)
    wallet = Wallet.from_settings(db, settings)
    notifier = TerminalNotifier(uid, locale, out=lambda line: None, timers=timers)
    seeds = iter(range(seed, seed + 10**6)) if seed is not None else None
    manager = TableManager(
        settings, db, wallet, notifier, clock=time.time,
        seed_source=(lambda: next(seeds)) if seeds is not None else None,
        owns=lambda guild_id: guild_id == TERMINAL_GUILD,
    )
    notifier.manager = manager
    if not timers:
        from bot.terminal import _no_timers

        manager.settings = _no_timers(settings)
    web = replace(settings.web, enabled=True, bind="127.0.0.1", base_url="",
                  port=settings.web.port if port is None else port)
    server = WebServer(web, manager, secrets.token_bytes(32))  # this run's links only
    try:
        await manager.abandon()
        await manager.create(TERMINAL_GUILD, TERMINAL_TABLE, game, room, uid,
                             t("terminal.you", locale), locale)
        spec = manager.spec(manager.get(TERMINAL_TABLE))
        while len(manager.get(TERMINAL_TABLE).seats) < (spec.seats_default or spec.min_seats):
            number = sum(1 for s in manager.get(TERMINAL_TABLE).seats if s.is_bot) + 1
            await manager.add_bot(TERMINAL_TABLE, uid, t("terminal.bot", locale, n=number))
        await manager.start(TERMINAL_TABLE, uid)
        try:
            await server.start()
        except OSError as exc:
            print(f"gamehall: cannot serve the web table on 127.0.0.1:{web.port} "
                  f"(--port, [web] port): {exc.strerror or exc}", file=sys.stderr)
            return 2
        table = manager.get(TERMINAL_TABLE)
        url = server.seat_url(table, table.seat_of(uid) or 0)
        print(t("web.terminal_open", locale, url=url), flush=True)
        if browser:
            webbrowser.open(url)
        while True:
            line = await _read("")
            if line is None:  # no terminal input (started in the background): serve on
                await asyncio.Event().wait()
            if typed(line).strip().lower() in QUIT_WORDS:
                return 0
    except (HostError, GameError) as exc:
        print(f"gamehall: {error_text(exc, locale)}", file=sys.stderr)
        return 1
    finally:
        await server.stop()
        await manager.shutdown()
        await db.close()
