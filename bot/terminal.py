"""The offline terminal table: the same host, rules and wallet file, no Discord needed."""

from __future__ import annotations

import asyncio
import re
import sys
import time
from collections.abc import Callable

from bot.host.model import PLAYING, HostError, Table
from bot.host.tables import HandResult, TableManager
from bot.i18n import render, t
from bot.render.text import error_text, hand_text, result_lines, table_text
from bot.settings import Settings
from engines.base import Text
from engines.errors import GameError
from storage import levels
from storage.db import open_database
from storage.errors import UnknownPlayer
from storage.wallet import Wallet

TERMINAL_GUILD = 0
TERMINAL_TABLE = 1


class TerminalNotifier:
    """Prints the table after each change, the player's hand, and the settlement."""

    def __init__(self, uid: int, locale: str, out: Callable[[str], None] = print) -> None:
        self.uid, self.locale, self.out = uid, locale, out
        self.manager: TableManager | None = None
        self.finished = asyncio.Event()

    async def table_changed(self, table: Table) -> None:
        if table.status != PLAYING:
            return
        assert self.manager is not None
        text = table_text(self.manager, table, self.locale)
        status = re.sub(r"<t:(\d+):R>", lambda m: f"in {max(0, int(m[1]) - int(time.time()))}s",
                        text.status)
        self.out("")
        self.out(f"== {text.title} — {status}")
        for seat in text.seats:
            self.out(f"  {seat.name}: {seat.detail}")
        if text.view is not None and text.view.board is not None:
            from bot.render.board import render_board_text

            self.out(render_board_text(text.view.board))
        seat = table.seat_of(self.uid)
        if seat is not None:  # the private view repeats the table's lines, plus your cards
            for line in hand_text(self.manager, table, seat, self.locale):
                self.out("  " + line.replace("**", ""))
        else:
            for line in text.lines:
                self.out(f"  {line}")

    async def hand_started(self, table: Table) -> None:
        self.finished.clear()

    async def hand_dealt(self, table: Table, seat: int) -> None:
        """The terminal shows your cards with every redraw."""

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        self.out("")
        for line in result_lines(result.to_json(), self.locale):
            self.out(line)
        self.finished.set()

    async def table_closed(self, table: Table, reason: Text) -> None:
        self.out(t("table.closed", self.locale, reason=render(reason, self.locale)))
        self.finished.set()


async def _read(prompt: str) -> str | None:
    try:
        return await asyncio.to_thread(input, prompt)
    except EOFError:
        return None


async def play(settings: Settings, game: str, room: str, uid: int, seed: int | None,
               *, timers: bool = True) -> int:
    """Seat the player against trustee seats and play hands until they quit."""
    locale = settings.locale_default
    db = await open_database(settings.database, synchronous=settings.synchronous)
    wallet = Wallet.from_settings(db, settings)
    notifier = TerminalNotifier(uid, locale)
    seeds = iter(range(seed, seed + 10**6)) if seed is not None else None
    manager = TableManager(
        settings, db, wallet, notifier, clock=time.time,
        seed_source=(lambda: next(seeds)) if seeds is not None else None,
    )
    notifier.manager = manager
    if not timers:
        manager.settings = _no_timers(settings)
    try:
        await manager.restore()
        if TERMINAL_TABLE in manager.tables:  # a table left over from an interrupted session
            await manager.close(TERMINAL_TABLE, Text("note.closed_empty"))
        await manager.create(TERMINAL_GUILD, TERMINAL_TABLE, game, room, uid, "you", locale)
        spec = manager.spec(manager.get(TERMINAL_TABLE))
        while True:
            if TERMINAL_TABLE not in manager.tables:  # stood up after a hand away (托管)
                await manager.create(TERMINAL_GUILD, TERMINAL_TABLE, game, room, uid, "you",
                                     locale)
            while len(manager.get(TERMINAL_TABLE).seats) < spec.min_seats:
                await manager.add_bot(TERMINAL_TABLE, uid)
            start = await _start_choice(manager, locale)
            if start is None:
                return 0
            await manager.start(TERMINAL_TABLE, uid, start or None)
            if not await _play_hand(manager, notifier, uid):
                return 0
            answer = await _read("Another hand? [Y/n] ")
            if answer is None or answer.strip().lower() in ("n", "no", "q", "quit", "不"):
                table = manager.tables.get(TERMINAL_TABLE)
                if table is not None and table.seat_of(uid) is not None:
                    await manager.leave(TERMINAL_TABLE, uid)
                return 0
    except (HostError, GameError) as exc:
        print(f"gamehall: {error_text(exc, locale)}", file=sys.stderr)
        return 1
    finally:
        await manager.shutdown()
        await db.close()


async def _start_choice(manager: TableManager, locale: str) -> str | None:
    """开局选择 before the deal, as the Start buttons offer them (明牌开始 ×5): "" to deal
    plainly, the chosen action, or None if input ended. Games without one ask nothing."""
    offers = manager.start_offers(manager.get(TERMINAL_TABLE))
    if not offers:
        return ""
    listed = " / ".join(f"`{c.action}` ({render(c.label, locale)})" for c in offers)
    while True:
        line = await _read(t("terminal.start_choices", locale, choices=listed) + " > ")
        if line is None:
            return None
        answer = line.strip()
        if not answer or any(answer == c.action for c in offers):
            return answer
        print(t("terminal.not_a_start", locale, text=answer, choices=listed))


async def _play_hand(manager: TableManager, notifier: TerminalNotifier, uid: int) -> bool:
    """Read actions until the hand is settled; False if the player quit the hall."""
    while not notifier.finished.is_set():
        line = await _read("> ")
        if notifier.finished.is_set():
            return True
        if line is None or line.strip() in ("quit", "exit"):
            if TERMINAL_TABLE in manager.tables:
                await manager.leave(TERMINAL_TABLE, uid)  # an escape: the trustee finishes
            return False
        line = line.strip()
        if not line:
            continue
        try:
            if line in ("hint", "提示"):
                print("hint:", manager.hint(TERMINAL_TABLE, uid))
            elif line in ("trustee", "托管"):
                await manager.set_trustee(TERMINAL_TABLE, uid, True)
            else:
                await manager.act(TERMINAL_TABLE, uid, line)
        except (HostError, GameError) as exc:
            print(error_text(exc, notifier.locale))
    return True


def _no_timers(settings: Settings) -> Settings:
    from dataclasses import replace

    return replace(settings, timers={k: 10**7 for k in settings.timers} | {"default": 10**7})


async def show_wallet(settings: Settings, uid: int, lines: int) -> int:
    """gamehall wallet USER_ID: balance, held beans, level title per game, last ledger lines,
    in the terminal table's economy (the global one)."""
    from engines import registry

    db = await open_database(settings.database, synchronous=settings.synchronous)
    try:
        economy = settings.economy(TERMINAL_GUILD)
        wallet = Wallet.from_settings(db, settings).scoped(economy)
        try:
            account = await wallet.account(uid)
        except UnknownPlayer:
            print(f"gamehall: no player {uid} in {db.path}", file=sys.stderr)  # no password
            return 1
        print(f"player {uid}: balance {account.balance}, held {account.held}, free {account.free}"
              + (" (frozen)" if account.frozen else ""))
        scores = await levels.scores(db, uid, economy=economy)
        for key, spec in registry.specs().items():
            ladder = settings.levels.get(spec.level_table, ())
            score = scores.get(key, 0)
            print(f"  {key:16} score {score:>8}  {levels.title(ladder, score) if ladder else '-'}")
        for row in await wallet.ledger(uid, lines):
            ref = f"hand {row.hand_id}" if row.hand_id else (
                f"moderator {row.moderator_id}" if row.moderator_id else "")
            print(f"  #{row.id:<6} {row.delta:+10} -> {row.balance_after:<10} {row.reason} {ref}")
        return 0
    finally:
        await db.close()
