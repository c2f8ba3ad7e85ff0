"""Opening many tables at once at the ``TableManager``: a round of an event, a hall's evening.

A part of ``TableManager`` (bot/host/tables.py), which inherits it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.host.model import HostError, Seat, Table
from bot.settings import Room
from engines.base import Choice, T
from storage import seats as seat_store
from storage import tables as table_store
from storage.wallet import Account


@dataclass(frozen=True)
class TablePlan:
    """A table to open with its people (``Opening.open_tables``): ``people`` as (uid, name)
    in seat order, the first who can sit its creator; bots fill it up to ``seats`` (where the
    table allows bots); the trustee plays the people in ``trustee`` from the deal (托管)."""

    channel_id: int
    people: tuple[tuple[int, str], ...]
    seats: int = 0
    trustee: frozenset[int] = frozenset()


@dataclass
class Opened:
    """What ``open_tables`` did with one plan: the open ``table`` (None when nobody could sit)
    and each person left out with the refusal they would have had sitting down alone."""

    table: Table | None
    refused: dict[int, HostError] = field(default_factory=dict)


class Opening:
    """开桌: many tables opened as one step, with the checks of sitting down one by one."""

    async def open_tables(self, guild_id: int, game: str, room: str,
                          plans: Sequence[TablePlan]) -> list[Opened]:
        """Open a table for each plan in server ``guild_id``, as if its first person created
        it, the others joined, bots filled it and 托管 was turned on for ``trustee`` — the same
        checks for each person (seated elsewhere, frozen, beans, cool-down) and the same notes
        at the table — but in one trip to the database to read every wallet (created as
        needed), seat claim and leaver record at once (a group commit), and one transaction
        to claim every table's seats and save its snapshot. A person who cannot sit is
        left out (``Opened.refused``); a plan nobody can sit at opens no table.

        HostError (nothing opened) for an unknown game or room, a game the room does not
        offer, or a channel that has a table or is planned twice."""
        self._check_game_room(game, room)
        channels = [p.channel_id for p in plans]
        if len(set(channels)) != len(channels) or any(c in self.tables for c in channels):
            raise HostError("err.table_exists")
        settings = self.settings.rooms[room]
        offers: dict[str, tuple[Choice, ...]] = {}  # the start choices: the same at each table
        async with self._seating:
            refused = await self._refusals(guild_id, settings, plans)  # (channel, uid) →
            results: dict[int, Opened] = {}
            todo = list(plans)
            while todo:  # again for the tables another process took someone from meanwhile
                built = [(p, self._planned(guild_id, game, room, p, refused, offers))
                         for p in todo]
                for plan, table in built:
                    results[plan.channel_id] = Opened(table, {
                        uid: refused[plan.channel_id, uid] for uid, _ in plan.people
                        if (plan.channel_id, uid) in refused})
                stopped = await table_store.open_tables(self.db, [
                    table_store.NewTable(t.id, t.guild_id, t.id, t.to_json(),
                                         frozenset(t.seated_uids()))
                    for _, t in built if t is not None
                ])
                for table_id, claims in stopped.items():
                    for claim in claims:
                        refused[table_id, claim.uid] = HostError(
                            "err.seated_elsewhere", channel=claim.table_id, guild=claim.guild_id)
                todo = [p for p, t in built if t is not None and t.id in stopped]
                for _, table in built:
                    if table is not None and table.id not in stopped:
                        self._opened(table)
        for opened in results.values():
            if opened.table is not None:
                await self.notifier.table_changed(opened.table)
        return [results[c] for c in channels]

    async def _refusals(self, guild_id: int, room: Room, plans: Sequence[TablePlan]
                        ) -> dict[tuple[int, int], HostError]:
        """Who of the plans' people cannot sit where planned (channel, uid), and why (one read of every wallet, seat and,
        in a bean room, leaver record; a person planned twice sits at the first table
        planning them)."""
        wallet = self.wallet_for(guild_id)
        uids = [uid for plan in plans for uid, _ in plan.people]
        records = (self.referee.conduct.records(uids, economy=wallet.economy)
                   if room.coefficient > 0 else asyncio.sleep(0, {}))
        accounts: dict[int, Account]
        accounts, claims, conduct = await asyncio.gather(
            wallet.accounts(uids, ensure=True), seat_store.where_many(self.db, uids), records)
        refused: dict[tuple[int, int], HostError] = {}
        planned: dict[int, int] = {}
        for plan in plans:
            for uid, _ in plan.people:
                try:
                    if uid in planned:
                        raise HostError("err.seated_elsewhere", channel=planned[uid],
                                        guild=guild_id)
                    planned[uid] = plan.channel_id
                    self._check_free_person(uid, claims.get(uid), plan.channel_id)
                    self._check_account(accounts[uid], room)
                    cooling = uid in conduct and self.referee.cooldown(conduct[uid])
                    if cooling:
                        raise cooling
                except HostError as exc:
                    refused.setdefault((plan.channel_id, uid), exc)
        return refused

    def _planned(self, guild_id: int, game: str, room: str, plan: TablePlan,
                 refused: dict[tuple[int, int], HostError],
                 offers: dict[str, tuple[Choice, ...]]
                 ) -> Table | None:
        """The table of ``plan`` as it opens, seated, in memory (None: nobody can sit)."""
        people = [(uid, name) for uid, name in plan.people
                  if (plan.channel_id, uid) not in refused]
        if not people:
            return None
        table = Table(id=plan.channel_id, guild_id=guild_id, game_key=game, room=room,
                      owner=people[0][0], locale=self.settings.locale_default)
        if "offers" not in offers:
            offers["offers"] = self.start_offers(table)
        table.start_offers = offers["offers"]
        for n, (uid, name) in enumerate(people):
            table.seats.append(Seat(uid=uid, name=name))
            if n:
                table.note(T("note.joined", name=name))
        limit = min(plan.seats, self.spec(table).max_seats)
        while table.bots and len(table.seats) < limit:
            number = sum(1 for s in table.seats if s.is_bot) + 1
            table.seats.append(Seat(uid=None, name=f"Bot {number}"))
            table.note(T("note.bot_added"))
        for seat in table.seats:
            if seat.uid is not None and seat.uid in plan.trustee:
                seat.trustee = True
                table.note(T("note.trustee_on", name=seat.name))
        return table

    def _opened(self, table: Table) -> None:
        """A table of the batch is stored with its seats: the manager keeps it from now on."""
        self.tables[table.id] = table
        self._reindex(table)
        self._claimed[table.id] = frozenset(table.seated_uids())
        self.saver.opened(table)
