"""Seating of the ``TableManager``: opening a table, sitting down, bots, settings, invitations,
leaving, kicks and members who left a server, closing; one seat per person across every
process sharing the database; the table message's id.

A part of ``TableManager`` (bot/host/tables.py), which inherits it.
"""

from __future__ import annotations

import logging

from bot.host.model import PLAYING, WAITING, HostError, Seat, Table
from bot.settings import Room
from engines.base import LEVELS, NORMAL, T, Text
from storage import seats as seat_store
from storage.wallet import Account

log = logging.getLogger("bot.host.tables")  # the manager's log, as before the split


class Seating:
    """入座: who sits at which table, and the table's life from opening to closing."""

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
        self._check_game_room(game, room)
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

    def _check_game_room(self, game: str, room: str) -> None:
        """HostError unless ``game`` is known and offered in the known ``room``."""
        if game not in self.specs:
            raise HostError("err.unknown_game", game=game, games=", ".join(self.specs))
        if room not in self.settings.rooms:
            raise HostError("err.unknown_room", room=room, rooms=", ".join(self.settings.rooms))
        if game not in self.settings.rooms[room].games:
            raise HostError("err.game_not_in_room", game=game, room=room)

    async def _check_can_sit(self, guild_id: int, uid: int, room: Room, table_id: int) -> None:
        wallet = self.wallet_for(guild_id)
        await wallet.ensure_player(uid)
        self._check_free_person(uid, await seat_store.where(self.db, uid), table_id)
        self._check_account(await wallet.account(uid), room)
        if room.coefficient > 0:
            await self.referee.check_join(guild_id, uid)  # a leaver's cool-down

    def _check_free_person(self, uid: int, claim: seat_store.SeatClaim | None,
                           table_id: int) -> None:
        """HostError unless ``uid`` sits at no other table: in this process, or (``claim``)
        in the database, which knows the tables of every process sharing it (read first so
        the answer names the other table before any other refusal; ``_claim`` decides)."""
        other = self.table_of(uid)
        if other is not None:
            raise HostError("err.seated_elsewhere", channel=other.id, guild=other.guild_id)
        if claim is not None and claim.table_id != table_id:
            raise HostError("err.seated_elsewhere", channel=claim.table_id, guild=claim.guild_id)

    @staticmethod
    def _check_account(account: Account, room: Room) -> None:
        """HostError unless the wallet may sit in ``room``: not frozen, the room's beans."""
        if account.frozen:
            raise HostError("err.frozen")
        if account.free < room.min_beans:
            raise HostError("err.too_poor", need=room.min_beans, free=account.free)
        if room.coefficient > 0 and account.free > room.max_beans:
            # the room's entry maximum keeps richer players out of cheaper rooms; a score-only
            # room carries no beans, so it has no maximum
            raise HostError("err.too_rich", most=room.max_beans, free=account.free)

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
