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
from storage.conduct import CLEAN_PER_STRIKE, Conduct
from storage.db import Storage, open_database
from storage.errors import UnknownPlayer
from storage.wallet import Account, Wallet, economies_of

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


async def show_wallet(settings: Settings, uid: int, lines: int, server: int | None = None
                      ) -> int:
    """gamehall wallet USER_ID [--server ID]: what /beans shows in that server's economy
    (balance, held beans, frozen, the leaver record and cool-down, each game's level score and
    title), then the last ledger lines. With no server: the one economy where the player has a
    wallet, or, if several, a list of them to choose from. 1 if the player has none there."""
    db = await open_database(settings.database, synchronous=settings.synchronous)
    try:
        if server is None:
            found = await economies_of(db, uid)
            if len(found) > 1:
                print(_economy_list(uid, found))
                return 0
            # the only economy they play in; the terminal table's (global) one if none
            economy = found[0][0] if found else settings.economy(TERMINAL_GUILD)
            where = f" in server {economy}" if economy else ""
        else:
            economy = settings.economy(server)
            where = f" in server {server}"
        try:
            account = await Wallet.from_settings(db, settings).scoped(economy).account(uid)
        except UnknownPlayer:
            print(f"gamehall: no player {uid}{where} in {db.path}", file=sys.stderr)  # no password
            return 1
        for line in await _wallet_lines(settings, db, account, economy, where, lines):
            print(line)
        return 0
    finally:
        await db.close()


def _economy_list(uid: int, found: list[tuple[int, Account]]) -> str:
    kind = "servers" if all(economy for economy, _ in found) else "economies"
    rows = [f"player {uid} has wallets in {len(found)} {kind}; show one with --server ID:"]
    for economy, account in found:
        name = f"--server {economy}" if economy else "--server 0 (the global economy)"
        rows.append(f"  {name:32} balance {account.balance}, held {account.held}"
                    + (" (frozen)" if account.frozen else ""))
    return "\n".join(rows)


async def _wallet_lines(settings: Settings, db: Storage, account: Account, economy: int,
                        where: str, lines: int) -> list[str]:
    """The wallet in ``economy`` as /beans shows it, in plain text (``where`` names the
    server on the first line), then its last ``lines`` ledger rows."""
    from engines import registry

    uid = account.uid
    out = [f"player {uid}{where}: balance {account.balance}, held {account.held}, "
           f"free {account.free}" + (" (frozen)" if account.frozen else "")]
    record = await Conduct(db).record(uid, economy=economy)
    if record.incidents:
        out.append(f"  leaver record: {record.strikes} strike(s) (escapes {record.escapes}, "
                   f"hands left to the trustee {record.absences}, full tables abandoned "
                   f"{record.abandons}); {record.clean}/{CLEAN_PER_STRIKE} clean hands toward "
                   "taking one off")
        left = record.seconds_left(time.time())
        if left > 0:
            out.append(f"  cool-down: no bean rooms for {max(1, int(-(-left // 60)))} more "
                       "minute(s)")
    scores = await levels.scores(db, uid, economy=economy)
    for key, spec in registry.specs().items():
        ladder = settings.levels.get(spec.level_table, ())
        score = scores.get(key, 0)
        out.append(f"  {key:16} score {score:>8}  {levels.title(ladder, score) if ladder else '-'}")
    for row in await Wallet.from_settings(db, settings).scoped(economy).ledger(uid, lines):
        ref = f"hand {row.hand_id}" if row.hand_id else (
            f"moderator {row.moderator_id}" if row.moderator_id else "")
        out.append(f"  #{row.id:<6} {row.delta:+10} -> {row.balance_after:<10} {row.reason} {ref}")
    return out
