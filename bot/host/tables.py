"""The table manager: runs any registered game at tables, with no knowledge of which game.

Platform-neutral (no discord import): the Discord cogs and the terminal table both drive it.
Every change happens under the table's lock, is saved before the lock is released, and is
then shown through the ``Notifier``. Beans move only through ``storage``: escrow when a
hand starts, one settlement when it ends, a release when it is aborted.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from bot.host.model import PLAYING, WAITING, HostError, Seat, Table
from bot.settings import Room, Settings
from engines import registry
from engines.base import GameSpec, Outcome, Setup, T, Text
from storage import history, levels
from storage import tables as table_store
from storage.db import Database
from storage.wallet import InsufficientBeans, SeatResult, Wallet

log = logging.getLogger(__name__)

MAX_AUTO_STEPS = 5000
"""Upper bound on trustee actions in one go; a game that needs more is broken."""


@dataclass(frozen=True)
class SeatResultView:
    """One line of a settlement message."""

    seat: int
    uid: int | None
    name: str
    points: int
    delta: int
    balance: int | None
    title: str | None
    new_title: bool


@dataclass(frozen=True)
class HandResult:
    hand_id: int
    seats: tuple[SeatResultView, ...]
    lines: tuple[Text, ...]


class Notifier(Protocol):
    """How a platform shows what happens at a table. Failures are the notifier's to handle."""

    async def table_changed(self, table: Table) -> None: ...

    async def hand_started(self, table: Table) -> None: ...

    async def hand_dealt(self, table: Table, seat: int) -> None:
        """A person's private hand became visible to them (dealt, or revealed by a phase)."""

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
    ) -> None:
        self.settings = settings
        self.db = db
        self.wallet = wallet
        self.notifier = notifier
        self.clock = clock
        self._seed = seed_source or (lambda: random.SystemRandom().getrandbits(62))
        self.specs: dict[str, GameSpec] = registry.specs()
        self.tables: dict[int, Table] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._seating = asyncio.Lock()
        self._timers: dict[int, asyncio.Task[None]] = {}
        self.closed = False

    # --- lookups ----------------------------------------------------------------------
    def lock(self, table_id: int) -> asyncio.Lock:
        return self._locks.setdefault(table_id, asyncio.Lock())

    def get(self, table_id: int) -> Table:
        table = self.tables.get(table_id)
        if table is None:
            raise HostError("err.no_table")
        return table

    def table_of(self, uid: int) -> Table | None:
        """The table where ``uid`` holds a seat (escaped and kicked players hold none)."""
        for table in self.tables.values():
            if table.seat_of(uid) is not None:
                return table
        return None

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

    def options(self, table: Table) -> dict[str, Any]:
        spec = self.spec(table)
        return spec.validate(self.room(table).options.get(spec.key, {}))

    # --- seating ----------------------------------------------------------------------
    async def create(
        self, guild_id: int, channel_id: int, game: str, room: str, uid: int, name: str,
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
            await self._check_can_sit(uid, self.settings.rooms[room])
            table = Table(
                id=channel_id, guild_id=guild_id, game_key=game, room=room, owner=uid,
                locale=locale or self.settings.locale_default,
            )
            table.seats.append(Seat(uid=uid, name=name))
            self.tables[channel_id] = table
            await self._save(table)
        await self.notifier.table_changed(table)
        return table

    async def _check_can_sit(self, uid: int, room: Room) -> None:
        await self.wallet.ensure_player(uid)
        if await self.wallet.is_frozen(uid):
            raise HostError("err.frozen")
        other = self.table_of(uid)
        if other is not None:
            raise HostError("err.seated_elsewhere", channel=other.id)
        account = await self.wallet.account(uid)
        if account.free < room.min_beans:
            raise HostError("err.too_poor", need=room.min_beans, free=account.free)
        if room.coefficient > 0 and account.free > room.max_beans:
            # the room's entry maximum keeps richer players out of cheaper rooms; a score-only
            # room carries no beans, so it has no maximum
            raise HostError("err.too_rich", most=room.max_beans, free=account.free)

    async def join(self, table_id: int, uid: int, name: str) -> Table:
        """Sit down at a waiting table."""
        async with self._seating:
            table = self.get(table_id)
            async with self.lock(table_id):
                if table.seat_of(uid) is not None:
                    raise HostError("err.already_seated")
                self.check_free_seat(table)
                await self._check_can_sit(uid, self.room(table))
                table.seats.append(Seat(uid=uid, name=name))
                table.note(T("note.joined", name=name))
                await self._save(table)
        await self.notifier.table_changed(table)
        return table

    async def add_bot(self, table_id: int, uid: int) -> Table:
        """Fill a free seat with a bot (any seated player may)."""
        table = self.get(table_id)
        async with self.lock(table_id):
            self.seat_index(table, uid)
            self.check_free_seat(table)
            number = sum(1 for s in table.seats if s.is_bot) + 1
            table.seats.append(Seat(uid=None, name=f"Bot {number}"))
            table.note(T("note.bot_added"))
            await self._save(table)
        await self.notifier.table_changed(table)
        return table

    async def leave(self, table_id: int, uid: int) -> bool:
        """Stand up. During a hand this is an escape (逃跑): the game's escape rule applies at
        settlement and the trustee plays the seat out. Returns True if it was an escape."""
        table = self.get(table_id)
        async with self.lock(table_id):
            index = self.seat_index(table, uid)
            seat = table.seats[index]
            if table.status == PLAYING:
                assert table.game is not None
                table.game.escape(index)
                seat.escaped = True
                table.note(T("note.escaped", name=seat.name))
                await self._advance(table)
                escaped = True
            else:
                table.seats.pop(index)
                table.note(T("note.left", name=seat.name))
                escaped = False
            # the escape may have let the trustee finish the hand and close an empty table
            closed = table.id not in self.tables or await self._close_if_empty(table)
            if not closed:
                await self._save(table)
        if not closed:
            await self.notifier.table_changed(table)
        return escaped

    async def _close_if_empty(self, table: Table) -> bool:
        if table.status == WAITING and not table.humans():
            await self._drop(table)
            await self.notifier.table_closed(table, T("note.closed_empty"))
            return True
        return False

    # --- a hand -------------------------------------------------------------------------
    async def start(self, table_id: int, uid: int) -> Table:
        """Shuffle, hold each person's carried beans in escrow, deal."""
        table = self.get(table_id)
        async with self.lock(table_id):
            self.seat_index(table, uid)
            if table.status != WAITING:
                raise HostError("err.hand_running")
            spec, room = self.spec(table), self.room(table)
            if len(table.seats) < spec.min_seats:
                raise HostError("err.need_players", need=spec.min_seats, have=len(table.seats))
            options = self.options(table)
            holds = await self._holds(table, spec, room, options)
            hand_id = await self.wallet.new_hand(spec.key, room.key, table.guild_id, table.id)
            try:
                await self.wallet.hold(hand_id, [(u, a) for u, a in holds.items()])
            except InsufficientBeans as exc:
                await self.wallet.release(hand_id)
                raise HostError("err.cannot_hold", uid=exc.uid) from exc
            stakes = tuple(
                None if s.uid is None or room.coefficient == 0
                else holds.get(s.uid, 0) // room.coefficient
                for s in table.seats
            )
            ratings = []
            for s in table.seats:
                ratings.append(0 if s.uid is None else await levels.score(self.db, s.uid, spec.key))
            setup = Setup(
                seats=len(table.seats), seed=self._seed(), options=options, stakes=stakes,
                ratings=tuple(ratings),
                # what the last hand passed on (next dealer, banker ...) names seats by index,
                # so it only holds while the same people sit in the same seats
                carry=table.carry if table.carry_seats == table.seating() else {},
            )
            table.game = spec.new(setup)
            table.status, table.hand_id = PLAYING, hand_id
            table.holds = {str(u): a for u, a in holds.items()}
            table.hand_no += 1
            table.last_result = None
            for seat in table.seats:
                seat.misses = 0
            table.note(T("note.started", hand=hand_id))
            table.dealt = []
            await self.notifier.hand_started(table)
            await self._advance(table)  # bots before the first person act now
        await self.notifier.table_changed(table)
        return table

    async def _holds(
        self, table: Table, spec: GameSpec, room: Room, options: dict[str, Any]
    ) -> dict[int, int]:
        """带入: what each person brings to the hand — their free beans, bounded by the room's
        maximum and by the most the game says a seat can lose (X·N + rake)."""
        if room.coefficient == 0:
            return {}
        worst = spec.max_loss(options, len(table.seats))
        holds: dict[int, int] = {}
        for seat in table.seats:
            if seat.uid is None:
                continue
            account = await self.wallet.account(seat.uid)
            if account.free < room.min_beans:
                raise HostError("err.too_poor_now", name=seat.name, need=room.min_beans)
            amount = min(account.free, room.max_beans)
            if worst is not None:
                amount = min(amount, worst * room.coefficient + room.rake)
            holds[seat.uid] = amount
        return holds

    async def act(self, table_id: int, uid: int, text: str) -> str:
        """A person's action in the game's notation; returns the canonical action taken."""
        table = self.get(table_id)
        async with self.lock(table_id):
            index = self.seat_index(table, uid)
            if table.status != PLAYING or table.game is None:
                raise HostError("err.no_hand")
            seat = table.seats[index]
            if index not in table.game.to_act():
                if not seat.trustee:
                    raise HostError("err.not_your_turn")
                # acting again takes the seat back from the trustee (托管 ends), though the
                # trustee has already taken this turn
                seat.trustee, seat.misses = False, 0
                table.note(T("note.trustee_off", name=seat.name))
                await self._save(table)
                await self.notifier.table_changed(table)
                raise HostError("err.back_from_trustee")
            action = table.game.apply(index, text)  # GameError leaves the game unchanged
            seat.misses, seat.trustee = 0, False
            await self._advance(table)
        await self.notifier.table_changed(table)
        return action

    async def set_trustee(self, table_id: int, uid: int, on: bool) -> None:
        """托管 on/off for the caller's own seat."""
        table = self.get(table_id)
        async with self.lock(table_id):
            seat = table.seats[self.seat_index(table, uid)]
            seat.trustee, seat.misses = on, 0
            table.note(T("note.trustee_on" if on else "note.trustee_off", name=seat.name))
            if table.status == PLAYING:
                await self._advance(table)
            else:
                await self._save(table)
        await self.notifier.table_changed(table)

    async def kick(self, table_id: int, target: int) -> None:
        """Moderator: the seat goes to the trustee, with no escape penalty."""
        table = self.get(table_id)
        async with self.lock(table_id):
            index = table.seat_of(target)
            if index is None:
                raise HostError("err.target_not_seated")
            seat = table.seats[index]
            if table.status == PLAYING:
                seat.kicked = True
                table.note(T("note.kicked", name=seat.name))
                await self._advance(table)
            else:
                table.seats.pop(index)
                table.note(T("note.kicked", name=seat.name))
                if await self._close_if_empty(table):
                    return
                await self._save(table)
        await self.notifier.table_changed(table)

    async def close(self, table_id: int, reason: Text) -> None:
        """Abort the table: any running hand's escrow is released, nothing is settled."""
        table = self.get(table_id)
        async with self.lock(table_id):
            if table.status == PLAYING and table.hand_id is not None:
                await self.wallet.release(table.hand_id)
            await self._drop(table)
        await self.notifier.table_closed(table, reason)

    def hint(self, table_id: int, uid: int) -> str:
        """提示: the trustee's suggestion for the caller's seat."""
        table = self.get(table_id)
        index = self.seat_index(table, uid)
        if table.game is None or index not in table.game.to_act():
            raise HostError("err.not_your_turn")
        return table.game.hint(index)

    # --- the engine loop ----------------------------------------------------------------
    async def _advance(self, table: Table) -> None:
        """Let the trustee act for automatic seats, then settle or re-arm the timer; save."""
        game = table.game
        assert game is not None
        for _ in range(MAX_AUTO_STEPS):
            if game.is_over():
                break
            auto = [s for s in game.to_act() if table.seats[s].automatic or s in game.escaped]
            if not auto:
                break
            seat = auto[0]
            game.apply(seat, game.trustee(seat))
        else:
            raise RuntimeError(f"table {table.id}: trustee did not finish the hand")
        if game.is_over():
            await self._settle(table)
        else:
            await self._deal_private(table)
            self._arm(table)
            await self._save(table)

    async def _deal_private(self, table: Table) -> None:
        """Send each person their hand the first time they can see one: at the deal in most
        games, after a phase in others (some games show cards only once the stakes are set)."""
        game = table.game
        assert game is not None
        for index, seat in enumerate(table.seats):
            if seat.uid is None or seat.escaped or seat.kicked or index in table.dealt:
                continue
            if game.view(index).hand:
                table.dealt.append(index)
                await self.notifier.hand_dealt(table, index)

    async def _settle(self, table: Table) -> None:
        game, spec, room = table.game, self.spec(table), self.room(table)
        assert game is not None and table.hand_id is not None
        outcome: Outcome = game.outcome()
        seats = [
            SeatResult(uid=s.uid, points=outcome.points[i], score=outcome.scores[i])
            for i, s in enumerate(table.seats)
        ]
        settlement = await self.wallet.settle(
            table.hand_id, spec.key, seats, room.coefficient, room.rake,
            record=game.to_text(),
            outcome=_outcome_json(outcome),
        )
        ladder = self.settings.levels.get(spec.level_table, ())
        views = []
        for i, (seat, line) in enumerate(zip(table.seats, settlement.seats, strict=True)):
            title, new_title = None, False
            if line.score_after is not None and line.score_before is not None and ladder:
                title = levels.title(ladder, line.score_after)
                new_title = title != levels.title(ladder, line.score_before)
            views.append(SeatResultView(
                seat=i, uid=seat.uid, name=seat.name, points=line.points, delta=line.delta,
                balance=line.balance, title=title, new_title=new_title,
            ))
        result = HandResult(hand_id=table.hand_id, seats=tuple(views), lines=outcome.lines)
        table.last_result = {
            "hand_id": result.hand_id,
            "seats": [v.__dict__ for v in views],
            "lines": [t.to_json() for t in outcome.lines],
            # the final public picture (every hand revealed at the end, the last board)
            "view": game.view(None).to_json(),
        }
        table.carry = game.next_carry()
        table.status, table.game, table.record, table.hand_id = WAITING, None, None, None
        table.holds, table.deadline = {}, None
        removed = any(s.escaped or s.kicked for s in table.seats)
        table.seats = [s for s in table.seats if not (s.escaped or s.kicked)]
        table.carry_seats = [] if removed else table.seating()
        for s in table.seats:
            s.misses = 0
        self._disarm(table.id)
        if not table.humans():
            await self._drop(table)
            await self.notifier.hand_settled(table, result)
            await self.notifier.table_closed(table, T("note.closed_empty"))
            return
        await self._save(table)
        await self.notifier.hand_settled(table, result)

    # --- timers ------------------------------------------------------------------------
    def _arm(self, table: Table) -> None:
        """Start the turn timer for the people who must act now."""
        game = table.game
        assert game is not None
        self._disarm(table.id)
        table.deadline = self.clock() + self.settings.timer(game.phase())
        self._start_timer(table, len(game.log))

    def _start_timer(self, table: Table, step: int) -> None:
        if self.closed or table.deadline is None:
            return
        delay = max(0.0, table.deadline - self.clock())
        self._timers[table.id] = asyncio.get_running_loop().create_task(
            self._expire(table.id, step, delay), name=f"turn-timer-{table.id}"
        )

    def _disarm(self, table_id: int) -> None:
        task = self._timers.pop(table_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _expire(self, table_id: int, step: int, delay: float) -> None:
        await asyncio.sleep(delay)
        table = self.tables.get(table_id)
        if table is None:
            return
        async with self.lock(table_id):
            game = table.game
            if game is None or len(game.log) != step or game.is_over():
                return  # someone acted in time
            self._timers.pop(table_id, None)
            limit = self.settings.trustee_after_misses
            for index in list(game.to_act()):
                seat = table.seats[index]
                if index not in game.to_act() or game.is_over():
                    continue
                game.apply(index, game.trustee(index))
                seat.misses += 1
                if seat.misses >= limit and not seat.trustee:
                    seat.trustee = True
                    table.note(T("note.auto_trustee", name=seat.name))
            await self._advance(table)
        await self.notifier.table_changed(table)

    # --- persistence -----------------------------------------------------------------------
    async def _save(self, table: Table) -> None:
        await table_store.save_table(self.db, table.id, table.guild_id, table.id, table.to_json())

    async def _drop(self, table: Table) -> None:
        self._disarm(table.id)
        self.tables.pop(table.id, None)
        await table_store.delete_table(self.db, table.id)

    async def save_message_id(self, table: Table, message_id: int | None) -> None:
        async with self.lock(table.id):
            table.message_id = message_id
            await self._save(table)

    async def restore(self) -> list[tuple[Table, Text | None]]:
        """Load every saved table after a restart; resume hands and timers.

        A table whose hand cannot be rebuilt is aborted (escrow released) and reported with a
        reason; running hands that no table refers to have their escrow released too.
        """
        restored: list[tuple[Table, Text | None]] = []
        for table_id, _guild, _channel, state in await table_store.load_tables(self.db):
            try:
                table = Table.from_json(state)
                if table.status == PLAYING:
                    assert table.record is not None
                    table.game = self.spec(table).from_record(table.record)
            except Exception as exc:  # noqa: BLE001 - any corrupt state aborts that table only
                log.exception("table %s cannot resume", table_id)
                reason = T("note.cannot_resume", error=str(exc)[:200])
                try:
                    table = Table.from_json(state)
                    if table.hand_id is not None:
                        await self.wallet.release(table.hand_id)
                except Exception:  # noqa: BLE001
                    table = Table(id=table_id, guild_id=_guild, game_key="?", room="?", owner=0)
                await table_store.delete_table(self.db, table_id)
                restored.append((table, reason))
                continue
            self.tables[table.id] = table
            restored.append((table, None))
        live = {t.hand_id for t in self.tables.values() if t.hand_id is not None}
        for hand_id in await history.running_hands(self.db):
            if hand_id not in live:
                await self.wallet.release(hand_id)
        for table in self.tables.values():
            if table.status == PLAYING and table.game is not None:
                async with self.lock(table.id):
                    if table.deadline is None:
                        await self._advance(table)
                    else:
                        self._start_timer(table, len(table.game.log))
                if table.id in self.tables:
                    await self.notifier.table_changed(table)
        return restored

    async def shutdown(self) -> None:
        """Stop the timers (state is already saved after every change)."""
        self.closed = True
        for task in list(self._timers.values()):
            task.cancel()
        self._timers.clear()


def _outcome_json(outcome: Outcome) -> str:
    return json.dumps(
        {
            "points": list(outcome.points),
            "scores": list(outcome.scores),
            "winners": list(outcome.winners),
            "lines": [t.to_json() for t in outcome.lines],
        },
        ensure_ascii=False,
    )

