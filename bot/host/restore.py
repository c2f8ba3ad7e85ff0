"""Restore and shutdown for the ``TableManager``: the saved tables of this process's servers
loaded after a restart (hands and timers resumed, a damaged row closed on its own), tables
abandoned by a host that stopped, and the last saves at shutdown.

A part of ``TableManager`` (bot/host/tables.py), which inherits it.
"""

from __future__ import annotations

import logging

from bot.host.model import PLAYING, WAITING, Table
from bot.host.saver import Loaded, Saver
from engines.base import Setup, T, Text
from storage import history
from storage import seats as seat_store
from storage import tables as table_store

log = logging.getLogger("bot.host.tables")  # the manager's log, as before the split


class Restorer:
    """重启恢复: the tables saved by this process's servers brought back after a restart, and
    saved at shutdown."""

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
