"""Starting a hand at a ``TableManager`` table: the start choices, the deal (escrow through the
``Cashier``, the game built from a fresh seed), and a hand aborted before it could be played.

A part of ``TableManager`` (bot/host/tables.py), which inherits it.
"""

from __future__ import annotations

import asyncio

from bot.host.model import PLAYING, WAITING, HostError, Table
from engines.base import Choice, Setup, T
from engines.errors import GameError


class Starting:
    """开局: from the Start button to a dealt hand (or its abort)."""

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
