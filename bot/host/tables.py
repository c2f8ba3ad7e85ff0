"""The table manager: runs any registered game at tables, with no knowledge of which game.

Platform-neutral (no discord import): the Discord cogs and the terminal table both drive it.
Every change happens under the table's lock, is saved before the lock is released, and is
then shown through the ``Notifier``. Beans move only through the ``Cashier`` (escrow when a
hand starts, one settlement when it ends, a release when it is aborted); turn deadlines
through the ``TurnClock``; writes through the ``Saver`` (the hand's new actions are appended;
the table itself is written again only when something besides the action log changed).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any, Protocol, TypeVar

from bot.host.cashier import Cashier, HandResult, SeatResultView, TransferLine
from bot.host.clock import TurnClock
from bot.host.metrics import HostMetrics
from bot.host.model import PLAYING, WAITING, HostError, Seat, Table
from bot.host.referee import Referee
from bot.host.saver import Loaded, Saver
from bot.i18n import typed
from bot.settings import Room, Settings
from engines import registry
from engines.base import HARD, LEVELS, NORMAL, Choice, GameSpec, Setup, T, Text
from engines.errors import GameError
from storage import history
from storage import seats as seat_store
from storage import tables as table_store
from storage.db import Database
from storage.wallet import Wallet

_R = TypeVar("_R")

__all__ = ["HandResult", "Notifier", "SeatResultView", "TableManager", "TransferLine"]

log = logging.getLogger(__name__)

MAX_AUTO_STEPS = 5000
"""Upper bound on trustee actions in one go; a game that needs more is broken."""


class Notifier(Protocol):
    """How a platform shows what happens at a table. Failures are the notifier's to handle."""

    async def table_changed(self, table: Table) -> None: ...

    async def hand_started(self, table: Table) -> None: ...

    async def hand_dealt(self, table: Table, seat: int) -> None:
        """A person's private hand became visible to them (dealt, or revealed by a phase), or
        gained something they did not cause (``Game.private_epoch`` changed): show it, editing
        the message kept in ``table.dms`` if there is one (``TableManager.save_dm``)."""

    async def hand_settled(self, table: Table, result: HandResult) -> None: ...

    async def table_closed(self, table: Table, reason: Text) -> None: ...


class TableManager:
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
        return self._locks.setdefault(table_id, asyncio.Lock())

    @property
    def lock_count(self) -> int:
        """Table locks held in memory (one per open table at most)."""
        return len(self._locks)

    @asynccontextmanager
    async def _locked(self, table_id: int) -> AsyncIterator[Table]:
        """The table, under its lock; HostError if it closed while we waited."""
        table = self.get(table_id)
        async with self.lock(table_id):
            if self.tables.get(table_id) is not table:
                raise HostError("err.no_table")
            yield table

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

    # --- seating ----------------------------------------------------------------------
    async def create(
        self,
        guild_id: int,
        channel_id: int,
        game: str,
        room: str,
        uid: int,
        name: str,
        locale: str | None = None,
    ) -> Table:
        """Open a table in a channel and seat its creator."""
        if game not in self.specs:
            raise HostError("err.unknown_game", game=game, games=", ".join(self.specs))
        if room not in self.settings.rooms:
            raise HostError("err.unknown_room", room=room, rooms=", ".join(self.settings.rooms))
        if game not in self.settings.rooms[room].games:
            raise HostError("err.game_not_in_room", game=game, room=room)
        async with self._seating:
            if channel_id in self.tables:
                raise HostError("err.table_exists")
            await self._check_can_sit(guild_id, uid, self.settings.rooms[room], channel_id)
            table = Table(
                id=channel_id,
                guild_id=guild_id,
                game_key=game,
                room=room,
                owner=uid,
                locale=locale or self.settings.locale_default,
            )
            table.start_offers = self.start_offers(table)
            await self._claim(table, {uid})
            table.seats.append(Seat(uid=uid, name=name))
            self.tables[channel_id] = table
            try:
                await self._save(table)
            except BaseException:
                self.tables.pop(channel_id, None)
                self._reindex(table)
                await self._release_seats(channel_id)
                raise
        await self.notifier.table_changed(table)
        return table

    async def _check_can_sit(self, guild_id: int, uid: int, room: Room, table_id: int) -> None:
        wallet = self.wallet_for(guild_id)
        await wallet.ensure_player(uid)
        other = self.table_of(uid)
        if other is not None:
            raise HostError("err.seated_elsewhere", channel=other.id, guild=other.guild_id)
        # the database knows the tables of every process sharing it (this is read first so the
        # answer names the other table before any other refusal; ``_claim`` decides)
        claim = await seat_store.where(self.db, uid)
        if claim is not None and claim.table_id != table_id:
            raise HostError("err.seated_elsewhere", channel=claim.table_id, guild=claim.guild_id)
        account = await wallet.account(uid)
        if account.frozen:
            raise HostError("err.frozen")
        if account.free < room.min_beans:
            raise HostError("err.too_poor", need=room.min_beans, free=account.free)
        if room.coefficient > 0 and account.free > room.max_beans:
            # the room's entry maximum keeps richer players out of cheaper rooms; a score-only
            # room carries no beans, so it has no maximum
            raise HostError("err.too_rich", most=room.max_beans, free=account.free)
        if room.coefficient > 0:
            await self.referee.check_join(guild_id, uid)  # a leaver's cool-down

    async def join(self, table_id: int, uid: int, name: str, *, server: int | None = None
                   ) -> Table:
        """Sit down at a waiting table. ``server``: the server the person asks from (a member
        of it); HostError unless it is the table's. None where the platform has no servers
        (the terminal table)."""
        async with self._seating, self._locked(table_id) as table:
            if server is not None and server != table.guild_id:
                raise HostError("err.other_server")
            if table.seat_of(uid) is not None:
                raise HostError("err.already_seated")
            if table.private and uid != table.owner and uid not in table.invited:
                raise HostError("err.invite_only")
            self.check_free_seat(table)
            await self._check_can_sit(table.guild_id, uid, self.room(table), table.id)
            await self._claim(table, table.seated_uids() | {uid})
            table.seats.append(Seat(uid=uid, name=name))
            table.note(T("note.joined", name=name))
            await self._save(table)
        await self.notifier.table_changed(table)
        return table

    async def add_bot(
        self, table_id: int, uid: int, name: str | None = None, level: str = NORMAL
    ) -> Table:
        """Fill a free seat with a bot (any seated player may), named ``name`` (default
        "Bot N", N counting the table's bots), playing at trustee ``level`` (``LEVELS``;
        HostError ``err.bad_level`` for another)."""
        if level not in LEVELS:
            raise HostError("err.bad_level", level=level, levels=", ".join(LEVELS))
        async with self._locked(table_id) as table:
            self.seat_index(table, uid)
            if not table.bots:
                raise HostError("err.bots_off")
            self.check_free_seat(table)
            number = sum(1 for s in table.seats if s.is_bot) + 1
            table.seats.append(Seat(uid=None, name=name or f"Bot {number}", level=level))
            table.note(T("note.bot_added"))
            await self._save(table)
        await self.notifier.table_changed(table)
        return table

    async def configure(
        self,
        table_id: int,
        uid: int,
        *,
        timer_scale: int | None = None,
        bots: bool | None = None,
        private: bool | None = None,
    ) -> Table:
        """/table settings: the creator changes the table's settings between hands (None
        keeps a setting). Bots already seated stay when bots are turned off."""
        async with self._locked(table_id) as table:
            if uid != table.owner:
                raise HostError("err.not_creator")
            if table.status != WAITING:
                raise HostError("err.hand_running")
            low, high = self.settings.table_scale
            if timer_scale is not None and not low <= timer_scale <= high:
                raise HostError("err.timer_scale", typed=timer_scale, low=low, high=high)
            if timer_scale is not None:
                table.timer_scale = timer_scale
            if bots is not None:
                table.bots = bots
            if private is not None:
                table.private = private
            table.note(T("note.settings", timer=table.timer_scale, bots="✅" if table.bots else "❌",
                         private="🔒" if table.private else "🔓"))
            await self._save(table)
        await self.notifier.table_changed(table)
        return table

    async def invite(self, table_id: int, uid: int, target: int, name: str) -> Table:
        """邀请: the creator lets ``target`` sit at the table while it is private."""
        async with self._locked(table_id) as table:
            if uid != table.owner:
                raise HostError("err.not_creator")
            if target == uid:
                raise HostError("err.invite_self")
            if target not in table.invited:
                table.invited.append(target)
                table.note(T("note.invited", name=name))
                await self._save(table)
        await self.notifier.table_changed(table)
        return table

    async def leave(self, table_id: int, uid: int) -> bool:
        """Stand up. During a hand this is an escape (逃跑): the game's escape rule applies at
        settlement and the trustee plays the seat out. Returns True if it was an escape."""
        async with self._locked(table_id) as table:
            index = self.seat_index(table, uid)
            seat = table.seats[index]
            if table.status == PLAYING:
                assert table.game is not None
                table.game.escape(index)
                seat.escaped = True
                table.note(T("note.escaped", name=seat.name))
                table.note(await self.referee.incident(table, uid, seat.name, "escape"))
                await self._advance(table)
                escaped = True
            else:
                if self._abandons(table):
                    table.note(await self.referee.incident(table, uid, seat.name, "abandon"))
                table.seats.pop(index)
                table.note(T("note.left", name=seat.name))
                escaped = False
            # the escape may have let the trustee finish the hand and close an empty table
            closed = self.tables.get(table.id) is not table or await self._close_if_empty(table)
            if not closed:
                await self._save(table)
        if not closed:
            await self.notifier.table_changed(table)
        return escaped

    def _abandons(self, table: Table) -> bool:
        """Standing up now abandons a full bean table before its deal: the table is full and
        the people seated have not yet finished a hand together. A table waiting for the
        rematch after a settled hand, with the same people in the same seats
        (``carry_seats``), is simply left; once someone new fills it, it is a fresh table."""
        return (
            self.room(table).coefficient > 0
            and len(table.seats) >= self.spec(table).max_seats
            and table.carry_seats != table.seating()
        )

    async def _close_if_empty(self, table: Table) -> bool:
        if table.status == WAITING and not table.humans():
            await self._drop(table)
            await self.notifier.table_closed(table, T("note.closed_empty"))
            return True
        return False

    # --- a hand -------------------------------------------------------------------------
    def start_offers(self, table: Table) -> tuple[Choice, ...]:
        """开局选择: what a person may choose at this table's Start (``Game.start_offers``
        under the room's options); none where the configuration no longer seats the table."""
        if self._unplayable(table) is not None:
            return ()
        try:
            return self.spec(table).game.start_offers(self.options(table))
        except GameError:
            return ()  # options the rules refuse: Start says so

    def _start_choice(self, table: Table, start: str | None) -> Choice | None:
        """The offered start choice named ``start`` (None for None); HostError if none is."""
        if start is None:
            return None
        for choice in self.start_offers(table):
            if choice.action == start:
                return choice
        raise HostError("err.start_choice", choice=start)

    async def choose_start(self, table_id: int, uid: int, start: str | None) -> Table:
        """Choose (or, with None, drop) the caller's start choice for the next hand at a waiting
        table, e.g. when confirming a rematch with 明牌开始: made blind, it goes into the next
        deal (``start``). HostError for someone not seated, a hand running or a choice the game
        does not offer here."""
        async with self._locked(table_id) as table:
            seat = table.seats[self.seat_index(table, uid)]
            if table.status != WAITING:
                raise HostError("err.hand_running")
            choice = self._start_choice(table, start)
            if seat.start == start:
                return table
            if choice is None:
                table.note(T("note.start_choice_off", name=seat.name))
                seat.start, seat.start_no = None, 0
            else:
                table.note(T("note.start_choice", name=seat.name, choice=choice.label))
                seat.start = start
                seat.start_no = 1 + max(s.start_no for s in table.seats)
            await self._save(table)
        await self.notifier.table_changed(table)
        return table

    async def start(self, table_id: int, uid: int, start: str | None = None) -> Table:
        """Shuffle, hold each person's carried beans in escrow, deal — as one step: if the
        deal fails, nothing stays held.

        ``start``: the caller's start choice (``Game.start_offers``; 明牌开始 on the Start
        button), made before any card exists. It and the choices others made for this hand
        (``choose_start``) go into the hand's setup (``Setup.starts``, in the order made), so
        the game applies them as it deals and the record replays them. HostError for a choice
        the game does not offer here."""
        async with self._locked(table_id) as table:
            index = self.seat_index(table, uid)
            if table.status != WAITING:
                raise HostError("err.hand_running")
            spec, room = self.spec(table), self.room(table)
            if len(table.seats) < spec.min_seats:
                raise HostError("err.need_players", need=spec.min_seats, have=len(table.seats))
            self._start_choice(table, start)
            options = self.options(table)
            starts = self._starts(table, index, start)
            # one trip to the database for both reads
            holds, ratings = await asyncio.gather(
                self.cashier.sizes(table.guild_id, table.seats, spec, room, options),
                self.cashier.ratings(table.guild_id, table.seats, spec.key),
            )
            setup = Setup(
                seats=len(table.seats),
                seed=self._seed(),
                options=options,
                stakes=tuple(
                    None
                    if s.uid is None or room.coefficient == 0
                    else holds.get(s.uid, 0) // room.coefficient
                    for s in table.seats
                ),
                ratings=ratings,
                # what the last hand passed on (next dealer, banker ...) names seats by index,
                # so it only holds while the same people sit in the same seats
                carry=table.carry if table.carry_seats == table.seating() else {},
                coefficient=room.coefficient,
                starts=starts,
            )
            game = spec.new(setup)  # a rule error here holds nothing
            hand_id = await self.cashier.open(
                table.guild_id, table.id, table.seats, spec, room, holds
            )
            try:
                table.game, table.status, table.hand_id = game, PLAYING, hand_id
                table.holds = {str(u): a for u, a in holds.items()}
                table.hand_no += 1
                table.last_result = None
                table.deadline = table.window = None
                table.sent, table.dms = {}, {}
                for seat in table.seats:
                    seat.misses, seat.acted, seat.covered = 0, False, False
                    seat.start, seat.start_no = None, 0  # taken into this hand's setup
                table.note(T("note.started", hand=hand_id))
                await self.notifier.hand_started(table)
                await self._advance(table)  # bots before the first person act now
            except BaseException:
                await self._abort_hand(table)
                raise
        await self.notifier.table_changed(table)
        return table

    def _starts(self, table: Table, index: int, start: str | None
                ) -> tuple[tuple[int, str], ...]:
        """The people's start choices for the hand about to be dealt, as (seat, action) in the
        order made: those chosen beforehand (``choose_start``) still offered, then the
        starter's own unless they had made it already. Bots never choose one."""
        offered = {c.action for c in self.start_offers(table)}
        chosen = sorted(
            (seat.start_no, i, seat.start)
            for i, seat in enumerate(table.seats)
            if seat.uid is not None and seat.start in offered
            and not (i == index and start is not None and seat.start != start)
        )
        starts = [(i, action) for _, i, action in chosen if action is not None]
        if start is not None and (index, start) not in starts:
            starts.append((index, start))
        return tuple(starts)

    async def _abort_hand(self, table: Table) -> None:
        """中止: the running hand ends with nothing settled and its escrow released."""
        hand_id = table.hand_id
        record = table.game.to_text() if table.game is not None else ""
        if hand_id is not None:
            await self.cashier.release(table.guild_id, hand_id, record)
        if self.tables.get(table.id) is table and table.status == PLAYING:
            table.status, table.game, table.record, table.hand_id = WAITING, None, None, None
            table.holds, table.deadline, table.window = {}, None, None
            self.turns.disarm(table.id)
            await self._save(table, snapshot=True)

    async def act(self, table_id: int, uid: int, text: str) -> str:
        """A person's action in the game's notation; returns the canonical action taken."""
        text = typed(text)  # 搶地主 is 抢地主: the games read one script
        async with self._locked(table_id) as table:
            index = self.seat_index(table, uid)
            if table.status != PLAYING or table.game is None:
                raise HostError("err.no_hand")
            seat = table.seats[index]
            # an open offer (Game.open_offers) is taken from any seat, in turn or not; a stale
            # one is refused by the game with a message saying what is open now
            offer = not (seat.escaped or seat.kicked) and (
                table.game.read_offer(index, text) is not None)
            if not offer and index not in table.game.to_act():
                if not seat.trustee:
                    raise HostError("err.not_your_turn")
                # acting again takes the seat back from the trustee (托管 ends), though the
                # trustee has already taken this turn
                seat.trustee, seat.misses, seat.acted = False, 0, True
                table.note(T("note.trustee_off", name=seat.name))
                await self._save(table)
                await self.notifier.table_changed(table)
                raise HostError("err.back_from_trustee")
            action = table.game.apply(index, text)  # GameError leaves the game unchanged
            self.metrics.action("player")
            seat.misses, seat.trustee, seat.acted = 0, False, True
            await self._advance(table)
        await self.notifier.table_changed(table)
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

    async def kick(self, table_id: int, target: int) -> None:
        """Moderator: the seat goes to the trustee, with no escape penalty."""
        await self._unseat(table_id, target, "note.kicked", "note.kicked")

    async def member_left(self, guild_id: int, uid: int) -> bool:
        """``uid`` is no longer a member of server ``guild_id`` (they left, or the server
        removed them): at that server's table where they sit, the trustee plays their seat to
        the end of the hand and they stand up then, like a kicked seat (at a waiting table,
        at once). No escape penalty and no strike: the hall cannot tell leaving a server from
        being removed by it. Returns whether they held a seat in that server."""
        table = self.table_of(uid)
        if table is None or table.guild_id != guild_id:
            return False
        try:
            await self._unseat(table.id, uid, "note.left_server_hand", "note.left_server")
        except HostError:  # they stood up, or the table closed, meanwhile
            return False
        return True

    async def _unseat(self, table_id: int, target: int, in_hand: str, waiting: str) -> None:
        """The seat of ``target`` goes to the trustee for the rest of the hand, the table told
        ``in_hand``; at a waiting table it is freed, the table told ``waiting``. No escape
        penalty. HostError if ``target`` does not sit there."""
        async with self._locked(table_id) as table:
            index = table.seat_of(target)
            if index is None:
                raise HostError("err.target_not_seated")
            seat = table.seats[index]
            table.note(T(in_hand if table.status == PLAYING else waiting, name=seat.name))
            if table.status == PLAYING:
                seat.kicked = True
                await self._advance(table)
            else:
                table.seats.pop(index)
                if await self._close_if_empty(table):
                    return
                await self._save(table)
        await self.notifier.table_changed(table)

    async def close(self, table_id: int, reason: Text) -> None:
        """Abort the table: any running hand's escrow is released, nothing is settled."""
        async with self._locked(table_id) as table:
            if table.status == PLAYING and table.hand_id is not None:
                await self.cashier.release(table.guild_id, table.hand_id)
            await self._drop(table)
        await self.notifier.table_closed(table, reason)

    def hint(self, table_id: int, uid: int) -> str:
        """提示: the trustee's suggestion for the caller's seat."""
        table = self.get(table_id)
        index = self.seat_index(table, uid)
        if table.game is None or index not in table.game.to_act():
            raise HostError("err.not_your_turn")
        return table.game.hint(index)

    async def save_dm(self, table: Table, seat: int, message_id: int) -> None:
        """Remember the DM that shows ``seat`` its hand, so the next update edits it.

        May be called from ``Notifier.hand_dealt`` (the table's lock is then held by the host,
        which saves the table right after; a change made while another call holds the lock is
        saved with the table's next change); otherwise the table is saved here."""
        table.dms[str(seat)] = message_id
        if self.tables.get(table.id) is not table or self.lock(table.id).locked():
            return
        async with self.lock(table.id):
            if self.tables.get(table.id) is table:
                await self._save(table)

    # --- the engine loop ----------------------------------------------------------------
    async def _advance(self, table: Table) -> None:
        """Let the trustee act for automatic seats, then settle or re-arm the timer; save."""
        game = table.game
        assert game is not None
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
            await self._save(table)
            await self._settle(table)
        else:
            await self._deal_private(table)
            await self.referee.ready()
            self._arm(table)
            await self._save(table)

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

    async def _deal_private(self, table: Table) -> None:
        """Send each person their hand the first time they can see one (at the deal in most
        games, after a phase in others), and again whenever it gained something they did not
        cause themselves (``Game.private_epoch``)."""
        game = table.game
        assert game is not None
        for index, seat in enumerate(table.seats):
            if seat.uid is None or seat.escaped or seat.kicked:
                continue
            key = str(index)
            sent = table.sent.get(key)
            if sent is None:
                if not game.view(index).hand:
                    continue
            elif game.private_epoch(index) == sent:
                continue
            table.sent[key] = game.private_epoch(index)
            await self.notifier.hand_dealt(table, index)

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
            # the final public picture (every hand revealed at the end, the last board)
            "view": game.view(None).to_json(),
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

    # --- timers ------------------------------------------------------------------------
    def _arm(self, table: Table) -> None:
        """Keep one deadline per decision window (``Game.window``): a new window gets a new
        deadline; an answer inside the same window does not restart anyone's clock."""
        game = table.game
        assert game is not None
        window = game.window()
        if table.deadline is None or table.window != window:
            table.deadline = self.clock() + self.timer(table, game.phase())
            table.window = window
        fire = table.deadline
        # 要不起: the pass is made soon, but the table keeps showing the phase's whole timer, so
        # the countdown tells nobody that the seat cannot beat the play
        if self.referee.autopass_due(table, game, table.deadline - self.clock()):
            fire = min(fire, self.clock() + self.referee.delay)
        self.turns.arm(table.id, fire, window)

    async def _expire(self, table_id: int, window: int) -> None:
        """Time is up for ``window``: each seat still to act gets its timeout action."""
        table = self.tables.get(table_id)
        if table is None:
            return
        async with self.lock(table_id):
            game = table.game
            if (
                self.tables.get(table_id) is not table
                or game is None
                or game.is_over()
                or game.window() != window
            ):
                return  # someone acted in time, or the table closed
            limit = self.settings.trustee_after_misses
            for index in list(game.to_act()):
                if game.is_over() or index not in game.to_act():
                    continue
                seat = table.seats[index]
                only = self.referee.only_action(
                    table, game, index, self.timer(table, game.phase())
                )
                if only is not None:  # auto-pass: never a miss, nor the trustee's
                    game.apply(index, only)
                    self.metrics.action("timeout")
                    continue
                timeout = await self._think(table, index, game.timeout_action)
                game.apply(index, timeout.action)
                self.metrics.action("timeout")
                seat.covered = True
                table.sent.pop(str(index), None)  # its private view still offers what timed out
                if timeout.miss:
                    seat.misses += 1
                    if seat.misses >= limit and not seat.trustee:
                        seat.trustee = True
                        table.note(T("note.auto_trustee", name=seat.name))
            table.deadline = None  # a fresh deadline for whatever comes next
            await self._advance(table)
        await self.notifier.table_changed(table)

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
        await self.saver.delete(table.id)
        await self._release_seats(table.id)

    # --- seats in the database ---------------------------------------------------------------
    # One seat per person holds across every process sharing the database: a seat is claimed
    # there (``storage.seats``) before the table that gains it is saved, and freed after the
    # table that lost it is saved, so a crash in between leaves at most a seat too many (never
    # one person at two tables); ``restore`` frees those.
    async def _claim(self, table: Table, uids: set[int]) -> None:
        """Make ``uids`` the people the database seats at ``table``, all or nothing; HostError
        naming the other table if one of them sits elsewhere (in any process)."""
        taken = await seat_store.sync_table(self.db, table.id, table.guild_id, uids)
        if taken:
            raise HostError(
                "err.seated_elsewhere", channel=taken[0].table_id, guild=taken[0].guild_id
            )
        self._claimed[table.id] = frozenset(uids)

    async def _sync_seats(self, table: Table) -> list[seat_store.SeatClaim]:
        """Make the database seat exactly the table's seated people. Anyone the database
        seats at another table keeps that seat (it was claimed first); returns those claims."""
        wanted = table.seated_uids()
        taken = await seat_store.sync_table(self.db, table.id, table.guild_id, wanted)
        if taken:
            log.warning("table %s: %s sit at other tables too; their seats there stand",
                        table.id, ", ".join(f"{c.uid} (table {c.table_id})" for c in taken))
            others = {c.uid for c in taken}
            taken += await seat_store.sync_table(
                self.db, table.id, table.guild_id, wanted - others
            )
        self._claimed[table.id] = frozenset(wanted)
        return taken

    async def _release_seats(self, table_id: int) -> None:
        """Free every seat of a table that closed (or never opened)."""
        self._claimed.pop(table_id, None)
        await seat_store.release_table(self.db, table_id)

    async def save_message_id(self, table: Table, message_id: int | None) -> None:
        """Remember the table message's id (nothing if the table has closed meanwhile)."""
        if self.tables.get(table.id) is not table:
            return
        async with self.lock(table.id):
            if self.tables.get(table.id) is not table:
                return
            table.message_id = message_id
            await self._save(table)

    async def restore(self) -> list[tuple[Table, Text | None]]:
        """Load every saved table of this process's servers (``owns``) after a restart;
        resume hands and timers. Never raises for a table: one damaged row must not keep the
        rest of the hall from starting.

        A table that cannot go on is aborted (escrow released, seats freed, row deleted,
        logged) and reported with a reason: a save that does not load (every field is checked,
        and that it is the row's own table), a hand that cannot be rebuilt, a room or game no
        longer in the configuration. The abort is keyed by the row, never by what the damaged
        save says, so no other table's row, seats or hand is touched; a table reported for a
        save that did not load is the row's key alone (its channel and server). A hand
        storage already settled is not played again. Running hands in these servers that no
        table refers to have their escrow released too; the database's seats are set to the
        restored tables' seated people, and seats left by tables of these servers that no
        longer exist are freed. Other servers' tables, hands and seats belong to other
        processes and are not touched.
        """
        restored: list[tuple[Table, Text | None]] = []
        for saved in await self.saver.load():
            if not self.owns(saved.guild_id):
                continue
            try:
                restored.append(await self._restore_one(saved))
            except Exception as exc:  # even the abort failed: the rest of the hall still starts
                log.exception("table %s can be neither restored nor aborted", saved.table_id)
                restored.append(
                    (self._row_table(saved), T("note.cannot_resume", error=str(exc)[:200]))
                )
        await self._release_orphans()
        for index, (table, _) in enumerate(list(restored)):
            if self.tables.get(table.id) is not table or table.game is None:
                continue
            try:
                async with self.lock(table.id):
                    if table.game.is_over() or table.deadline is None:
                        await self._advance(table)
                    else:
                        if table.window is None:  # an older save: keep its deadline
                            table.window = table.game.window()
                        # the saved deadline stands; a 要不起 seat's pass is re-armed too
                        await self.referee.ready()
                        self._arm(table)
            except Exception as exc:  # one table's broken hand must not keep the hall down
                log.exception("table %s cannot resume; its hand is aborted", table.id)
                restored[index] = (table, T("note.cannot_resume", error=str(exc)[:200]))
                try:
                    if table.hand_id is not None:
                        await self.cashier.release(table.guild_id, table.hand_id)
                    await self._drop(table)
                except Exception:
                    log.exception("table %s: the abort failed too", table.id)
                continue
            if table.id in self.tables:
                await self.notifier.table_changed(table)
        return restored

    async def _restore_one(self, saved: Loaded) -> tuple[Table, Text | None]:
        """Restore one saved row, or abort it (``_abort_restored``) with the reason."""
        table: Table | None = None
        try:
            table = self._load(saved)
            was_playing = table.status == PLAYING
            reason = self._unplayable(table)
            if reason is None and was_playing:
                reason = await self._resume(table, saved.appended)
        except Exception as exc:
            log.exception("table %s cannot resume; its hand is aborted", saved.table_id)
            reason = T("note.cannot_resume", error=str(exc)[:200])
        if reason is not None or table is None:
            log.warning("table %s closed at restore: %s", saved.table_id, reason)
            await self._abort_restored(saved, table)
            return (table or self._row_table(saved)), reason
        self.tables[table.id] = table
        try:
            table.start_offers = self.start_offers(table)
            self._reindex(table)
            reason = await self._restore_seats(table)
            if reason is not None:  # everyone had sat down elsewhere
                return table, reason
            if table.status == WAITING and was_playing:
                await self._save(table, snapshot=True)  # its hand ended at restore
            self.saver.loaded(table)
        except Exception as exc:  # e.g. the seats cannot be claimed
            log.exception("table %s cannot resume; its hand is aborted", saved.table_id)
            if self.tables.get(table.id) is table:
                del self.tables[table.id]
            self._reindex(table)
            await self._abort_restored(saved, table)
            return table, T("note.cannot_resume", error=str(exc)[:200])
        return table, None

    def _load(self, saved: Loaded) -> Table:
        """The saved table, every field checked (``Table.from_json``), and that it is the
        row's own: the same table and server as the row's key, no more seats than its game
        has. ValueError naming what is wrong."""
        table = Table.from_json(saved.state)
        if (table.id, table.guild_id) != (saved.table_id, saved.guild_id):
            raise ValueError(
                f"saved table: table {table.id} of server {table.guild_id} is saved as table "
                f"{saved.table_id} of server {saved.guild_id}"
            )
        spec = self.specs.get(table.game_key)
        if spec is not None and len(table.seats) > spec.max_seats:
            raise ValueError(
                f"saved table: {len(table.seats)} seats, {table.game_key} has {spec.max_seats}"
            )
        return table

    def _row_table(self, saved: Loaded) -> Table:
        """What is known of a row whose save did not load: its key (channel and server)."""
        return Table(id=saved.table_id, guild_id=saved.guild_id, game_key="?", room="?",
                     owner=0, locale=self.settings.locale_default)

    async def _release_orphans(self) -> None:
        """Release running hands of these servers that no restored table plays, and free the
        seats of tables of these servers that no longer exist. One failure is logged; the
        others still happen."""
        live = {t.hand_id for t in self.tables.values() if t.hand_id is not None}
        for hand_id in await history.running_hands(self.db):
            if hand_id in live:
                continue
            try:
                hand = await history.get_hand(self.db, hand_id)
                guild_id = hand.guild_id if hand else 0
                if self.owns(guild_id):  # another process's hand runs at its own table
                    await self.cashier.release(guild_id, hand_id)
            except Exception:
                log.exception("hand %s no table plays could not be released", hand_id)
        for table_id, guild_id in await seat_store.tables_with_seats(self.db):
            if self.owns(guild_id) and table_id not in self.tables:
                log.warning("table %s is gone: the seats it left are freed", table_id)
                try:
                    await self._release_seats(table_id)
                except Exception:
                    log.exception("table %s: its seats could not be freed", table_id)

    async def abandon(self) -> list[int]:
        """Close every saved table of this process's servers (``owns``) without resuming it,
        for a host whose tables cannot outlive its process (the terminal table: its player
        went with the process that was killed). Each running hand is aborted, its escrow
        released and nothing settled (no bean is lost or created), the saves and the seats are
        freed; so are running hands and seats of these servers that no saved table refers to.
        Returns the ids of the tables closed. Call it instead of ``restore``."""
        closed: list[int] = []
        for saved in await self.saver.load():
            if not self.owns(saved.guild_id):
                continue
            try:
                hand_id = Table.from_json(saved.state).hand_id
            except Exception:  # a save that does not load: the sweep below releases its hand
                log.exception("table %s: its save does not load", saved.table_id)
                hand_id = None
            if hand_id is not None:
                await self.cashier.release(saved.guild_id, hand_id)
            await self.saver.delete(saved.table_id)
            await self._release_seats(saved.table_id)
            log.info("table %s abandoned: its host stopped without closing it",
                        saved.table_id)
            closed.append(saved.table_id)
        await self._release_orphans()
        return closed

    async def _resume(
        self, table: Table, appended: tuple[table_store.SavedAction, ...]
    ) -> Text | None:
        """Rebuild a saved running hand from its snapshot and the actions appended since;
        returns why it cannot go on, or None. ValueError/GameError for a corrupt record, a
        hand dealt at another table, or a record for another number of seats."""
        assert table.hand_id is not None
        record = Saver.replay(table, appended)
        hand = await history.get_hand(self.db, table.hand_id)
        status = None if hand is None else hand.status
        if hand is None or status == "aborted":
            return T("note.cannot_resume", error=f"hand {table.hand_id} is {status or 'unknown'}")
        if (hand.channel_id, hand.guild_id) != (table.id, table.guild_id):
            raise ValueError(
                f"saved table: hand {table.hand_id} was dealt at table {hand.channel_id}"
            )
        seats = Setup.from_json(record.get("setup")).seats
        if seats != len(table.seats):
            raise ValueError(f"saved table: a hand of {seats} seats at {len(table.seats)} seats")
        table.game = self.spec(table).from_record(record)
        table.record = None
        if status == "settled" and not table.game.is_over():
            # settled before a crash with the table's last save behind: the hand is done
            hand_id, table.carry = table.hand_id, {}
            self._end_hand(table)
            table.note(T("note.hand_already_settled", hand=hand_id))
        return None

    async def _abort_restored(self, saved: Loaded, table: Table | None) -> None:
        """Abort a saved table that does not restore, by its row's key: its row and seats go,
        and its hand's escrow is released if storage says that hand was dealt at this table
        (a damaged hand id may name another table's hand; the table's own hand is then one
        no table plays, released by ``_release_orphans``)."""
        hand_id = table.hand_id if table is not None else None
        if hand_id is not None:
            hand = await history.get_hand(self.db, hand_id)
            if hand is not None and (hand.channel_id, hand.guild_id) == (
                saved.table_id, saved.guild_id
            ):
                await self.cashier.release(saved.guild_id, hand_id)
        await self.saver.delete(saved.table_id)
        await self._release_seats(saved.table_id)

    async def _restore_seats(self, table: Table) -> Text | None:
        """Claim a restored table's seats in the database. Someone the database seats at
        another table sat down there while this one was saved without them standing up (a
        crash between the two writes): a waiting table lets them go, a running hand keeps
        them playing, unclaimed, until it ends. Returns why the table closed, if it did."""
        taken = await self._sync_seats(table)
        if table.status != WAITING or not taken:
            return None
        gone = {c.uid for c in taken}
        for seat in [s for s in table.seats if s.uid in gone]:
            table.seats.remove(seat)
            table.note(T("note.stood_up", name=seat.name))
        table.carry_seats = []
        if not table.humans():
            await self._drop(table)
            return T("note.closed_empty")
        self._reindex(table)
        await self._save(table, snapshot=True)
        return None

    async def shutdown(self) -> None:
        """停机: stop every timer, then save every table whole (waiting for a change in
        progress to finish), so a new process resumes every hand with its deadlines. Once."""
        if self.closed:
            return
        self.closed = True
        await self.turns.close()
        for table in list(self.tables.values()):
            async with self.lock(table.id):
                if self.tables.get(table.id) is not table:
                    continue
                try:
                    await self._save(table, snapshot=True)
                except Exception:  # one table's failure must not stop the others' saves
                    log.exception("table %s could not be saved at shutdown", table.id)
        await self.metrics.stop()
