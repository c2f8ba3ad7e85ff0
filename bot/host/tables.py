"""The table manager: runs any registered game at tables, with no knowledge of which game.

Platform-neutral (no discord import): the Discord cogs and the terminal table both drive it.
Every change happens under the table's lock, is saved before the lock is released, and is
then shown through the ``Notifier``. Beans move only through the ``Cashier`` (escrow when a
hand starts, one settlement when it ends, a release when it is aborted); turn deadlines
through the ``TurnClock``; writes through the ``Saver`` (the hand's new actions are appended;
the table itself is written again only when something besides the action log changed).

``TableManager`` keeps the tables, their locks and lookups, the play loop (``act``, the
trustee, settlement) and persistence; its other jobs live in the classes it inherits, one
module each: ``Seating`` (bot/host/seating.py), ``Opening`` (opening.py: many tables at
once), ``Starting`` (starting.py), ``PrivateHands``
(hands.py), ``Restorer`` (restore.py) and ``Timers`` (timing.py).
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from bot.host.cashier import Cashier, HandResult, SeatResultView, TransferLine
from bot.host.clock import TurnClock
from bot.host.hands import PrivateHands
from bot.host.metrics import HostMetrics
from bot.host.model import PLAYING, WAITING, HostError, Table
from bot.host.opening import Opening
from bot.host.referee import Referee
from bot.host.restore import Restorer
from bot.host.saver import Saver
from bot.host.seating import Seating
from bot.host.starting import Starting
from bot.host.timing import Timers
from bot.i18n import typed
from bot.settings import Room, Settings
from engines import registry
from engines.base import HARD, NORMAL, GameSpec, T, Text
from storage.db import Database
from storage.wallet import Wallet

_R = TypeVar("_R")

__all__ = ["HandResult", "Notifier", "SeatResultView", "TableManager", "TransferLine"]

MAX_AUTO_STEPS = 5000
"""Upper bound on trustee actions in one go; a game that needs more is broken."""


class Notifier(Protocol):
    """How a platform shows what happens at a table. Failures are the notifier's to handle."""

    async def table_changed(self, table: Table) -> None: ...

    async def hand_started(self, table: Table) -> None: ...

    async def hand_dealt(self, table: Table, seat: int) -> None:
        """A person's private hand became visible to them (dealt, or revealed by a phase), or
        what it shows changed (``private_digest``): show it, editing the message kept in
        ``table.dms`` if there is one (``TableManager.save_dm``)."""

    async def hand_settled(self, table: Table, result: HandResult) -> None: ...

    async def table_closed(self, table: Table, reason: Text) -> None: ...


class _Locked:
    """``async with manager._locked(table_id) as table``: the table under its lock, HostError
    (``err.no_table``) if there is none or it closed while we waited for the lock. A plain
    class rather than an async generator: every action enters one."""

    __slots__ = ("_lock", "_manager", "_table_id")

    def __init__(self, manager: TableManager, table_id: int) -> None:
        self._manager, self._table_id = manager, table_id
        self._lock: asyncio.Lock | None = None

    async def __aenter__(self) -> Table:
        manager, table_id = self._manager, self._table_id
        table = manager.get(table_id)
        lock = self._lock = manager.lock(table_id)
        await lock.acquire()
        if manager.tables.get(table_id) is not table:
            lock.release()
            raise HostError("err.no_table")
        return table

    async def __aexit__(self, *exc: object) -> None:
        assert self._lock is not None
        self._lock.release()


class TableManager(Seating, Opening, Starting, PrivateHands, Restorer, Timers):
    """All open tables, keyed by channel id."""

    def __init__(
        self,
        settings: Settings,
        db: Database,
        wallet: Wallet,
        notifier: Notifier,
        *,
        clock: Callable[[], float],
        seed_source: Callable[[], int] | None = None,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        """``owns(guild_id)``: whether this process serves that server (its shard); restore and
        cleanup touch only those servers' tables, hands and seats. Default: every server."""
        self.settings = settings
        self.db = db
        self.wallet = wallet
        self.notifier = notifier
        self.clock = clock
        self._seed = seed_source or (lambda: random.SystemRandom().getrandbits(62))
        self.specs: dict[str, GameSpec] = registry.specs()
        self.tables: dict[int, Table] = {}
        self.faces = {}  # PrivateHands: the waiting faces last digested
        self.cashier = Cashier(settings, db, self.wallet_for)
        self.turns = TurnClock(clock, self._expire)
        self._locks: dict[int, asyncio.Lock] = {}
        self._seating = asyncio.Lock()
        self._where: dict[int, int] = {}  # uid → the table where they hold a seat
        self._seated: dict[int, set[int]] = {}  # table → uids indexed for it
        self.saver = Saver(db)
        self.referee = Referee(db, settings.economy, clock, settings.autopass_delay)
        self.closed = False
        self.owns: Callable[[int], bool] = owns or (lambda guild_id: True)
        self.metrics = HostMetrics(lambda: len(self.tables), db)
        # table → the uids the database seats there, as this manager last wrote them
        self._claimed: dict[int, frozenset[int]] = {}

    # --- lookups ----------------------------------------------------------------------
    def wallet_for(self, guild_id: int) -> Wallet:
        """The wallet of the economy a server's tables play in (the host's only way to one)."""
        return self.wallet.scoped(self.settings.economy(guild_id))

    def lock(self, table_id: int) -> asyncio.Lock:
        lock = self._locks.get(table_id)
        if lock is None:  # made only when missing: every action asks for it
            lock = self._locks[table_id] = asyncio.Lock()
        return lock

    @property
    def lock_count(self) -> int:
        """Table locks held in memory (one per open table at most)."""
        return len(self._locks)

    def _locked(self, table_id: int) -> _Locked:
        """The table, under its lock (``async with``); HostError if it closed while we waited."""
        return _Locked(self, table_id)

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise HostError("err.no_table")
        return table

    def table_of(self, uid: int) -> Table | None:
        """The table where ``uid`` holds a seat (escaped and kicked players hold none)."""
        table_id = self._where.get(uid)
        return None if table_id is None else self.tables.get(table_id)

    def _reindex(self, table: Table) -> set[int]:
        """Keep the uid → table index in step with the table's seats; returns who is seated
        (nobody once the table has closed)."""
        now = table.seated_uids() if self.tables.get(table.id) is table else set()
        if self._seated.get(table.id) == now and now:
            return now  # the usual case: an action, nobody sat down or stood up
        before = self._seated.pop(table.id, set())
        for uid in before - now:
            if self._where.get(uid) == table.id:
                del self._where[uid]
        for uid in now:
            self._where[uid] = table.id
        if now:
            self._seated[table.id] = now
        return now

    @staticmethod
    def seat_index(table: Table, uid: int) -> int:
        """The index of ``uid``'s seat; HostError if the caller does not sit at the table."""
        index = table.seat_of(uid)
        if index is None:
            raise HostError("err.not_seated")
        return index

    def check_free_seat(self, table: Table) -> None:
        """A seat can be taken: no hand is running and the table is not full."""
        if table.status != WAITING:
            raise HostError("err.hand_running")
        if len(table.seats) >= self.spec(table).max_seats:
            raise HostError("err.table_full")

    def spec(self, table: Table) -> GameSpec:
        return self.specs[table.game_key]

    def room(self, table: Table) -> Room:
        return self.settings.rooms[table.room]

    def timer(self, table: Table, phase: str) -> int:
        """Seconds allowed in ``phase`` at this table: the configured time scaled by the
        creator's ``timer_scale``, kept within the configured bounds (they may have narrowed
        since the table was set up)."""
        low, high = self.settings.table_scale
        scale = min(max(table.timer_scale, low), high)
        return max(1, self.settings.timer(phase) * scale // 100)

    def options(self, table: Table) -> dict[str, Any]:
        spec = self.spec(table)
        return spec.validate(self.room(table).options.get(spec.key, {}))

    def _unplayable(self, table: Table) -> Text | None:
        """Why the configuration no longer seats this table (room or game removed), or None."""
        room = self.settings.rooms.get(table.room)
        if table.game_key not in self.specs or room is None or table.game_key not in room.games:
            return T("note.room_gone", room=table.room, game=table.game_key)
        return None

    async def act(self, table_id: int, uid: int, text: str) -> str:
        """A person's action in the game's notation; returns the canonical action taken."""
        text = typed(text)  # 搶地主 is 抢地主: the games read one script
        async with self._locked(table_id) as table:
            index = self.seat_index(table, uid)
            if table.status != PLAYING or table.game is None:
                raise HostError("err.no_hand")
            game = table.game
            game.remember()  # what the host asks of each state below is answered once
            try:
                action = await self._act(table, index, text)
            finally:
                game.forget()
        await self.notifier.table_changed(table)
        return action

    async def _act(self, table: Table, index: int, text: str) -> str:
        """``act`` under the table's lock."""
        game = table.game
        assert game is not None
        seat = table.seats[index]
        # an open offer (Game.open_offers) is taken from any seat, in turn or not; a stale
        # one is refused by the game with a message saying what is open now
        offer = not (seat.escaped or seat.kicked) and game.read_offer(index, text) is not None
        if not offer and index not in game.to_act():
            if not seat.trustee:
                raise HostError("err.not_your_turn")
            # acting again takes the seat back from the trustee (托管 ends), though the
            # trustee has already taken this turn
            seat.trustee, seat.misses, seat.acted = False, 0, True
            table.note(T("note.trustee_off", name=seat.name))
            await self._save(table)
            await self.notifier.table_changed(table)
            raise HostError("err.back_from_trustee")
        action = game.apply(index, text)  # GameError leaves the game unchanged
        self.metrics.action("player")
        seat.misses, seat.trustee, seat.acted = 0, False, True
        await self._advance(table)
        return action

    async def set_trustee(self, table_id: int, uid: int, on: bool) -> None:
        """托管 on/off for the caller's own seat."""
        async with self._locked(table_id) as table:
            seat = table.seats[self.seat_index(table, uid)]
            seat.trustee, seat.misses = on, 0
            if not on:
                seat.acted = True
            table.note(T("note.trustee_on" if on else "note.trustee_off", name=seat.name))
            if table.status == PLAYING:
                await self._advance(table)
            else:
                await self._save(table)
        await self.notifier.table_changed(table)

    def hint(self, table_id: int, uid: int) -> str:
        """提示: the trustee's suggestion for the caller's seat."""
        table = self.get(table_id)
        index = self.seat_index(table, uid)
        if table.game is None or index not in table.game.to_act():
            raise HostError("err.not_your_turn")
        return table.game.hint(index)

    # --- the engine loop ----------------------------------------------------------------
    def trustee_level(self, table: Table, index: int) -> str:
        """The level the trustee plays seat ``index`` at: a bot's own, else the room's."""
        seat = table.seats[index]
        if seat.is_bot:
            return seat.level
        room = self.settings.rooms.get(table.room)
        return NORMAL if room is None else room.trustee_level

    async def _think(self, table: Table, index: int, decide: Callable[[int, str], _R]) -> _R:
        """``decide(index, level)`` (``Game.trustee`` or ``Game.timeout_action``) at the
        seat's level; at ``hard`` (a search) in a worker thread, so other tables keep moving
        while it thinks. The table's lock stays held meanwhile, so nothing changes the game
        under it; its timers are armed after, as for any action."""
        level = self.trustee_level(table, index)
        if level == HARD:
            return await asyncio.to_thread(decide, index, level)
        return decide(index, level)

    async def _advance(self, table: Table) -> None:
        """Let the trustee act for automatic seats, then settle or re-arm the timer; save."""
        game = table.game
        assert game is not None
        game.remember()  # each state's answers once: the trustee's, the DMs', the timer's
        for _ in range(MAX_AUTO_STEPS):
            if game.is_over():
                break
            # the trustee's offers first (Game.trustee_offer), for every seat it plays that
            # still plays its own hand, in turn or not
            offer = next(
                ((s, a) for s, seat in enumerate(table.seats)
                 if seat.automatic and s not in game.escaped
                 and (a := game.trustee_offer(s)) is not None),
                None,
            )
            if offer is not None:
                game.apply(*offer)
                self.metrics.action("trustee")
                table.seats[offer[0]].covered = True
                continue
            auto = [s for s in game.to_act() if table.seats[s].automatic or s in game.escaped]
            if not auto:
                break
            seat = auto[0]
            game.apply(seat, await self._think(table, seat, game.trustee))
            self.metrics.action("trustee")
            table.seats[seat].covered = True
        else:
            raise RuntimeError(f"table {table.id}: trustee did not finish the hand")
        if game.is_over():
            # the last actions are stored before settling: a crash in between restores a
            # finished hand, whose settlement storage then returns as already done
            game.forget()
            await self._save(table)
            await self._settle(table)
        else:
            await self._deal_private(table)
            await self.referee.ready()
            self._arm(table)
            game.forget()
            await self._save(table)

    async def _settle(self, table: Table) -> None:
        game, spec, room = table.game, self.spec(table), self.room(table)
        assert game is not None and table.hand_id is not None
        began = time.perf_counter()
        result, _ = await self.cashier.settle(
            table.guild_id, table.hand_id, table.seats, spec, room, game
        )
        self.metrics.settled(time.perf_counter() - began)
        strikes = await self.referee.settled(
            table, [s.delta for s in result.seats],
            [(t.payer, t.payee, t.beans) for t in result.transfers], room.coefficient > 0,
            table.hand_id,
        )
        table.last_result = {
            **result.to_json(),
            # the final public picture (every hand revealed at the end, the last board), as
            # its JSON text: read back by ``final_view``
            "view": json.dumps(game.view(None).to_json(), ensure_ascii=False,
                               separators=(",", ":")),
            # 公平洗牌: the seed, secret until now, against the commitment shown at the deal
            "seed": game.setup.seed,
        }
        table.carry = game.next_carry()
        self._end_hand(table)
        for note in strikes:  # after "stood up": the strike it cost is the last word
            table.note(note)
        if not table.humans():
            await self._drop(table)
            await self.notifier.hand_settled(table, result)
            await self.notifier.table_closed(table, T("note.closed_empty"))
            return
        await self._save(table)
        await self.notifier.hand_settled(table, result)

    def _end_hand(self, table: Table) -> None:
        """The table waits again: escapers and kicked players leave, and so does anyone the
        trustee played for all hand long (they were not there; nobody holds a seat in absence)."""
        table.status, table.game, table.record, table.hand_id = WAITING, None, None, None
        table.holds, table.deadline, table.window = {}, None, None
        gone = [s for s in table.seats if s.escaped or s.kicked]
        absent = [s for s in table.seats if s.absent and not (s.escaped or s.kicked)]
        for seat in absent:
            table.note(T("note.stood_up", name=seat.name))
        table.seats = [s for s in table.seats if s not in gone and s not in absent]
        table.carry_seats = [] if gone or absent else table.seating()
        for seat in table.seats:
            seat.misses, seat.acted, seat.covered = 0, False, False
        self.turns.disarm(table.id)

    # --- persistence -----------------------------------------------------------------------
    async def _save(self, table: Table, *, snapshot: bool = False) -> None:
        """Keep the seating index in step, then store what changed (``Saver``) and free in the
        database the seats of people who stood up."""
        seated = self._reindex(table)
        await self.saver.save(table, snapshot=snapshot)
        if self._claimed.get(table.id) != seated and self.tables.get(table.id) is table:
            await self._sync_seats(table)

    async def _drop(self, table: Table) -> None:
        self.turns.disarm(table.id)
        if self.tables.get(table.id) is table:
            del self.tables[table.id]
            self._locks.pop(table.id, None)  # waiters see the table gone (``_locked``)
        self._reindex(table)
        self._claimed.pop(table.id, None)
        await self.saver.delete(table.id, release_seats=True)  # one transaction for both

