"""比赛: tournament events, their entries, the entry fees in escrow and the prize payout.

Rules (docs/tournaments.md has the formats; this module only keeps the money and the record):

- An **event** belongs to one economy (the wallet's), names its game, room and format (plain
  strings: nothing here knows a game), its field size, rounds, entry fee, the house's rake (a
  per cent of the pool) and the prize table (per cent of the pool after the rake, by place).
  Its status goes ``open`` → ``running`` → ``finished``, or to ``cancelled`` from either.
- **Registration** (报名) holds the entry fee in escrow exactly as a table's 带入 does: the
  player's ``held`` grows by the fee, guarded in SQL (``balance - held >= fee``, not frozen),
  in the same transaction as the entry row; the field's size is checked in that transaction
  too, so concurrent registrations never overfill it. **Withdrawal** (退赛) before the start
  releases exactly the fee. Each takes effect once: registering twice or withdrawing without
  an entry is refused (:class:`TournamentError`) and changes nothing.
- The **payout** (颁奖) is one transaction: every entrant's fee leaves their balance (ledgered
  ``tournament:entry``), the rake goes to the house, each place's prize is paid (ledgered
  ``tournament:prize``). Tied players share the prizes of the places they occupy, equally;
  the indivisible remainder (fewer beans than tied players), like any bean the per cents
  leave over, goes to the house with the rake (ledgered ``rake``), so the pool is paid out
  exactly: sum of fees = prizes + house. A second payout returns the stored result.
- **Cancellation** (取消) by a moderator releases every fee still held, in one transaction
  with its audit row (``tournament:cancel``).
- Match chips are not beans: they live on the entries (``chips``) and in the event's record,
  never in a balance. ``Wallet.totals`` counts the fees held here among the open holds.
- **Progress** is saved by what changed (so a hand costs the same in the 300th table as in the
  first): :meth:`Tournaments.record_hand` writes one row per hand result and adds its points to
  the players' chips, in one small transaction; :meth:`Tournaments.save_round` writes the round
  (the runner's ``state``: seating, who is out, pairings) once per round. An event read back
  while running has its ``state`` rebuilt from the three: the round's ``state``, with
  ``chips`` from the entries, ``hands`` and ``applied`` from the hand rows (in the order they
  ended) and each of the round's ``tables`` whose hand is recorded marked ``done``.

- **One owner** (several processes on one PostgreSQL database): a running event is run by one
  process, named by its token in ``owner`` with a lease (``lease_until``). ``start`` and
  :meth:`Tournaments.claim` take it (claim only once the lease has lapsed); every
  ``record_hand`` and ``save_round`` given an ``owner`` checks it in the same statement (a
  fence: a process that lost the event cannot write to it, TournamentError("not_owner")) and
  extends the lease; :meth:`Tournaments.renew` extends it while a round waits.

A crash at any point leaves either the whole of an operation or none of it.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from storage.db import Connection, Storage
from storage.errors import BalanceLimit, InsufficientBeans, PlayerFrozen, WalletError
from storage.accounts import (
    HOUSE,
    MAX_AMOUNT,
    MAX_BALANCE,
    _audit,
    _credit_house,
    _ensure,
    _ensure_house,
    _house,
    _sum,
)
from storage.wallet import Wallet

__all__ = [
    "ROUND_ONLY",
    "Event",
    "EventSpec",
    "Format",
    "Payout",
    "Status",
    "TournamentError",
    "Tournaments",
    "held_by_events",
    "split_prizes",
]


class Format(Enum):
    """赛制: the event's format (docs/tournaments.md)."""

    SIT_AND_GO = "sitngo"  # 满人即开
    SCHEDULED = "scheduled"  # 定时赛
    ELIMINATION = "elimination"  # 打立出局
    SWISS = "swiss"  # 瑞士制


class Status(Enum):
    OPEN = "open"
    RUNNING = "running"
    FINISHED = "finished"
    CANCELLED = "cancelled"


class TournamentError(WalletError):
    """A tournament operation the rules refuse; nothing changed. ``reason`` is one of
    ``unknown``, ``not_open``, ``not_running``, ``full``, ``registered``, ``not_registered``,
    ``placings`` (a standings list that is not the field), ``not_owner`` (another process
    runs the event)."""

    def __init__(self, event_id: int, reason: str, detail: str = "") -> None:
        self.event_id = event_id
        self.reason = reason
        self.detail = detail
        super().__init__(f"event {event_id}: {reason.replace('_', ' ')}"
                         + (f" ({detail})" if detail else ""))


@dataclass(frozen=True)
class EventSpec:
    """What a moderator sets when creating an event. ``prizes``: per cent of the pool after
    the rake for 1st, 2nd, ... place (at most 100 in all); ``start_at``: a scheduled event's
    start (unix time), None for a sit-and-go (it starts when full)."""

    game: str
    room: str
    format: Format
    size: int
    rounds: int
    fee: int = 0
    rake: int = 0
    prizes: tuple[int, ...] = (50, 30, 20)
    start_at: float | None = None

    def check(self) -> None:
        """ValueError naming the field that is out of bounds."""
        if not self.game or not self.room:
            raise ValueError("an event names its game and room")
        if not 2 <= self.size <= 10_000:
            raise ValueError(f"the field size must be 2 to 10000, got {self.size}")
        if not 1 <= self.rounds <= 100:
            raise ValueError(f"the rounds must be 1 to 100, got {self.rounds}")
        if not 0 <= self.fee <= MAX_AMOUNT:
            raise ValueError(f"the entry fee must be 0 to {MAX_AMOUNT}, got {self.fee}")
        if not 0 <= self.rake <= 100:
            raise ValueError(f"the rake is a per cent from 0 to 100, got {self.rake}")
        if not self.prizes or any(p < 0 for p in self.prizes) or sum(self.prizes) > 100:
            raise ValueError(f"the prizes are per cents adding up to at most 100, got {self.prizes}")


@dataclass(frozen=True)
class Event:
    """An event as stored, with its current entrants (registration order)."""

    id: int
    economy: int
    guild_id: int
    channel_id: int
    spec: EventSpec
    status: Status
    state: dict[str, Any]
    created_by: int
    entrants: tuple[int, ...]
    result: dict[str, Any] | None = None

    @property
    def pool(self) -> int:
        return self.spec.fee * len(self.entrants)


@dataclass(frozen=True)
class Payout:
    """A paid event: ``prizes`` per player (0 for those out of the money), what the ``house``
    took (rake and remainders), the ``pool``. ``replayed`` when a repeated payout returned the
    stored result."""

    event_id: int
    pool: int
    house: int
    prizes: dict[int, int]
    replayed: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"pool": self.pool, "house": self.house,
                "prizes": [[uid, beans] for uid, beans in self.prizes.items()]}


def split_prizes(pool: int, rake: int, prizes: Sequence[int],
                 placings: Sequence[Sequence[int]]) -> tuple[dict[int, int], int]:
    """颁奖: each player's prize and the house's share of ``pool``.

    ``placings``: the final standings as groups of tied players, best first. The rake is
    ``rake`` per cent of the pool (rounded down); place k's prize is ``prizes[k]`` per cent of
    the rest (rounded down); a group of m tied players on places k..k+m-1 shares those places'
    prizes equally. What is left (the rake, the roundings, per cents under 100) is the house's.

    >>> split_prizes(900, 10, (50, 30, 20), [[1], [2, 3], [4]])
    ({1: 405, 2: 202, 3: 202, 4: 0}, 91)
    """
    house = pool * rake // 100
    net = pool - house
    paid: dict[int, int] = {}
    place = 0
    for group in placings:
        total = sum(net * prizes[p] // 100 for p in range(place, place + len(group))
                    if p < len(prizes))
        share = total // len(group)
        for uid in group:
            paid[uid] = share
        place += len(group)
    return paid, pool - sum(paid.values())


def _row_event(row: Sequence[Any], entrants: Sequence[int]) -> Event:
    (eid, economy, guild_id, channel_id, game, room, fmt, size, rounds, fee, rake, prizes,
     start_at, status, state, result, created_by) = row
    spec = EventSpec(str(game), str(room), Format(fmt), int(size), int(rounds), int(fee),
                     int(rake), tuple(int(p) for p in json.loads(prizes)),
                     None if start_at is None else float(start_at))
    return Event(int(eid), int(economy), int(guild_id), int(channel_id), spec, Status(status),
                 json.loads(state), int(created_by), tuple(int(u) for u in entrants),
                 None if result is None else json.loads(result))


_EVENT_COLUMNS = ("id, economy, guild_id, channel_id, game, room, format, size, rounds, fee, "
                  "rake, prizes, start_at, status, state, result, created_by")


ROUND_ONLY = ("hands", "applied", "chips")
"""Keys of a running event's ``state`` that are kept as rows, not in the round's save."""


async def _progress(conn: Connection, event_id: int, state: dict[str, Any]) -> dict[str, Any]:
    """A running event's ``state``: the round's save with the rows recorded since (see the
    module's rules)."""
    merged = dict(state)
    merged["chips"] = {str(u): int(c) for u, c in await conn.execute(
        "SELECT uid, chips FROM tournament_entries WHERE event_id = ? "
        "AND status IN ('held', 'paid') AND chips IS NOT NULL ORDER BY uid", (event_id,))}
    hands = [{"round": int(r), "table": int(t), "hand": int(h), "points": json.loads(p),
              "code": str(c)}
             for h, r, t, p, c in await conn.execute(
                 "SELECT hand_id, round, table_id, points, code FROM tournament_hands "
                 "WHERE event_id = ? ORDER BY seq", (event_id,))]
    merged["hands"] = hands
    merged["applied"] = [h["hand"] for h in hands]
    tables = {k: dict(v) for k, v in merged.get("tables", {}).items()}
    for hand in hands:
        entry = tables.get(str(hand["table"]))
        if entry is not None and hand["round"] == merged.get("round"):
            entry["done"] = True
    merged["tables"] = tables
    return merged


async def _event(conn: Connection, event_id: int, economy: int, *, lock: bool = False) -> Event:
    """The event (its row locked on PostgreSQL with ``lock``: the first lock every change of an
    event takes), TournamentError("unknown") if this economy has none by that id."""
    row = (await conn.execute(
        f"SELECT {_EVENT_COLUMNS} FROM tournaments WHERE id = ? AND economy = ?"
        + (conn.for_update if lock else ""),
        (event_id, economy),
    )).fetchone()
    if row is None:
        raise TournamentError(event_id, "unknown")
    entrants = [r[0] for r in await conn.execute(
        "SELECT uid FROM tournament_entries WHERE event_id = ? AND status IN ('held', 'paid') "
        "ORDER BY registered_at, uid", (event_id,))]
    event = _row_event(row, entrants)
    if event.status is Status.RUNNING:
        event = dataclasses.replace(event, state=await _progress(conn, event_id, event.state))
    return event


async def held_by_events(conn: Connection, economy: int) -> int:
    """Beans held in escrow for events in ``economy`` (part of every player's ``held``)."""
    return await _sum(conn, "fee", "tournament_entries WHERE economy = ? AND status = 'held'",
                      (economy,))


class Tournaments:
    """The events of one economy, over the wallet's storage (its clock, starting grant and
    economy)."""

    def __init__(self, wallet: Wallet) -> None:
        self.wallet = wallet
        self.db: Storage = wallet.db

    @property
    def economy(self) -> int:
        return self.wallet.economy

    def scoped(self, economy: int) -> Tournaments:
        return Tournaments(self.wallet.scoped(economy))

    async def create(self, guild_id: int, channel_id: int, spec: EventSpec,
                     created_by: int) -> int:
        """开赛: record an open event; returns its id. ValueError for a bad spec."""
        spec.check()
        now, economy = self.wallet.clock(), self.economy

        async def tx(conn: Connection) -> int:
            row = (await conn.execute(
                "INSERT INTO tournaments (economy, guild_id, channel_id, game, room, format, "
                "size, rounds, fee, rake, prizes, start_at, created_by, created_at) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id",
                (economy, guild_id, channel_id, spec.game, spec.room, spec.format.value,
                 spec.size, spec.rounds, spec.fee, spec.rake, json.dumps(list(spec.prizes)),
                 spec.start_at, created_by, now),
            )).fetchone()
            return int(row[0])

        return await self.db.run(tx)

    async def get(self, event_id: int) -> Event:
        """The event; TournamentError("unknown") if none."""
        economy = self.economy

        async def read(conn: Connection) -> Event:
            return await _event(conn, event_id, economy)

        return await self.db.read(read)

    async def events(self, *, guild_id: int | None = None,
                     statuses: Sequence[Status] = (Status.OPEN, Status.RUNNING)) -> list[Event]:
        """The events of this economy (of one server if ``guild_id``) in these statuses, by id."""
        economy = self.economy
        wanted = [s.value for s in statuses]

        async def read(conn: Connection) -> list[Event]:
            ids = [r[0] for r in await conn.execute(
                "SELECT id, status, guild_id FROM tournaments WHERE economy = ? ORDER BY id",
                (economy,)) if r[1] in wanted and (guild_id is None or r[2] == guild_id)]
            return [await _event(conn, i, economy) for i in ids]

        return await self.db.read(read)

    async def register(self, event_id: int, uid: int) -> Event:
        """报名: hold the entry fee and enter ``uid``; returns the event with its field.

        TournamentError ("unknown", "not_open", "full", "registered"), InsufficientBeans,
        PlayerFrozen; nothing changes then.
        """
        now, grant, economy = self.wallet.clock(), self.wallet.starting_grant, self.economy

        async def tx(conn: Connection) -> Event:
            event = await _event(conn, event_id, economy, lock=True)
            if event.status is not Status.OPEN:
                raise TournamentError(event_id, "not_open")
            if uid in event.entrants:
                raise TournamentError(event_id, "registered")
            if len(event.entrants) >= event.spec.size:
                raise TournamentError(event_id, "full")
            fee = event.spec.fee
            await _ensure(conn, economy, uid, grant, now)
            changed = (await conn.execute(
                "UPDATE players SET held = held + ? "
                "WHERE economy = ? AND id = ? AND frozen = 0 AND balance - held >= ?",
                (fee, economy, uid, fee),
            )).rowcount
            if changed != 1:
                balance, held, frozen = (await conn.execute(
                    "SELECT balance, held, frozen FROM players WHERE economy = ? AND id = ?",
                    (economy, uid))).fetchone()
                if frozen:
                    raise PlayerFrozen(uid)
                raise InsufficientBeans(uid, fee, balance - held)
            await conn.execute(
                "INSERT INTO tournament_entries (event_id, uid, economy, fee, status, "
                "registered_at) VALUES (?, ?, ?, ?, 'held', ?) ON CONFLICT (event_id, uid) DO "
                "UPDATE SET status = 'held', fee = excluded.fee, "
                "registered_at = excluded.registered_at",
                (event_id, uid, economy, fee, now),
            )
            return await _event(conn, event_id, economy)

        return await self.db.run(tx)

    async def withdraw(self, event_id: int, uid: int) -> int:
        """退赛: before the start, release ``uid``'s fee; returns it. TournamentError
        ("unknown", "not_open", "not_registered"); nothing changes then."""
        economy = self.economy

        async def tx(conn: Connection) -> int:
            event = await _event(conn, event_id, economy, lock=True)
            if event.status is not Status.OPEN:
                raise TournamentError(event_id, "not_open")
            row = (await conn.execute(
                "SELECT fee FROM tournament_entries WHERE event_id = ? AND uid = ? "
                "AND status = 'held'", (event_id, uid))).fetchone()
            if row is None:
                raise TournamentError(event_id, "not_registered")
            fee = int(row[0])
            await _unhold(conn, economy, uid, fee)
            await conn.execute(
                "UPDATE tournament_entries SET status = 'withdrawn' WHERE event_id = ? AND uid = ?",
                (event_id, uid))
            return fee

        return await self.db.run(tx)

    async def start(self, event_id: int, state: dict[str, Any], owner: str | None = None,
                    lease: float = 0.0) -> Event:
        """开始: the event runs from now with the runner's first ``state``, owned by ``owner``
        for ``lease`` seconds; registration is closed. TournamentError ("unknown",
        "not_open")."""
        economy, now = self.economy, self.wallet.clock()

        async def tx(conn: Connection) -> Event:
            event = await _event(conn, event_id, economy, lock=True)
            if event.status is not Status.OPEN:
                raise TournamentError(event_id, "not_open")
            await conn.execute(
                "UPDATE tournaments SET status = 'running', state = ?, owner = ?, "
                "lease_until = ? WHERE id = ?",
                (_round_text(state), owner, now + lease, event_id))
            await _set_chips(conn, event_id, state.get("chips", {}))
            return await _event(conn, event_id, economy)

        return await self.db.run(tx)

    async def claim(self, event_id: int, owner: str, lease: float) -> bool:
        """Take a running event for ``owner`` for ``lease`` seconds: True if it had no owner,
        was ``owner``'s already, or its owner's lease has lapsed; False (nothing changes) while
        another owner's lease holds or once the event has ended."""
        now = self.wallet.clock()

        async def tx(conn: Connection) -> bool:
            return bool((await conn.execute(
                "UPDATE tournaments SET owner = ?, lease_until = ? WHERE id = ? "
                "AND status = 'running' AND (owner IS NULL OR owner = ? OR lease_until < ?)",
                (owner, now + lease, event_id, owner, now))).rowcount)

        return await self.db.run(tx)

    async def renew(self, event_ids: Sequence[int], owner: str, lease: float) -> list[int]:
        """Extend ``owner``'s lease on these events; returns those it no longer owns."""
        now = self.wallet.clock()

        async def tx(conn: Connection) -> list[int]:
            lost = []
            for event_id in event_ids:
                if not (await conn.execute(
                        "UPDATE tournaments SET lease_until = ? WHERE id = ? AND owner = ? "
                        "AND status = 'running'", (now + lease, event_id, owner))).rowcount:
                    lost.append(event_id)
            return lost

        return await self.db.run(tx)

    async def save_round(self, event_id: int, state: dict[str, Any],
                         chips: Mapping[Any, int] | None = None, *, owner: str | None = None,
                         lease: float = 0.0) -> None:
        """Keep the round of a running event (its ``state`` less the keys kept as rows,
        ``ROUND_ONLY``) and, with ``chips``, set those players' chips (a Swiss bye). What a
        restart resumes from, with the hands recorded since. With ``owner``: only while it
        owns the event (the lease extended by ``lease``). TournamentError("not_running") once
        the event has ended, ("not_owner") for another owner's event."""
        text, now = _round_text(state), self.wallet.clock()

        async def tx(conn: Connection) -> None:
            if owner is None:
                changed = (await conn.execute(
                    "UPDATE tournaments SET state = ? WHERE id = ? AND status = 'running'",
                    (text, event_id))).rowcount
            else:
                changed = (await conn.execute(
                    "UPDATE tournaments SET state = ?, lease_until = ? WHERE id = ? "
                    "AND status = 'running' AND owner = ?",
                    (text, now + lease, event_id, owner))).rowcount
            if changed != 1:
                await _refuse_write(conn, event_id)
            if chips:
                await _set_chips(conn, event_id, chips)

        await self.db.run(tx)

    async def record_hand(self, event_id: int, seq: int, round_no: int, table_id: int,
                          hand_id: int, points: Sequence[Sequence[Any]],
                          chips: Mapping[int, int], code: str = "", *,
                          owner: str | None = None, lease: float = 0.0) -> bool:
        """A hand of a running event ended: keep its result (``points``: [uid or None, points]
        by seat; ``code``: its replay code) as the event's ``seq``-th and add ``chips`` (uid →
        match chips won or lost) to the players' chips, in one transaction. False, and nothing changes, for a hand
        already recorded. With ``owner``: only while it owns the event (the lease extended by
        ``lease``). TournamentError("not_running") once the event has ended, ("not_owner")
        for another owner's event."""
        text, now = json.dumps([list(p) for p in points]), self.wallet.clock()

        async def tx(conn: Connection) -> bool:
            if owner is None:
                held = (await conn.execute(
                    "SELECT 1 FROM tournaments WHERE id = ? AND status = 'running'",
                    (event_id,))).fetchone() is not None
            else:
                held = bool((await conn.execute(
                    "UPDATE tournaments SET lease_until = ? WHERE id = ? "
                    "AND status = 'running' AND owner = ?",
                    (now + lease, event_id, owner))).rowcount)
            if not held:
                await _refuse_write(conn, event_id)
            added = (await conn.execute(
                "INSERT INTO tournament_hands (event_id, hand_id, seq, round, table_id, points, "
                "code) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (event_id, hand_id) DO NOTHING",
                (event_id, hand_id, seq, round_no, table_id, text, code))).rowcount
            if added != 1:
                return False
            moved = [(delta, event_id, uid) for uid, delta in sorted(chips.items()) if delta]
            if moved:
                await conn.executemany(
                    "UPDATE tournament_entries SET chips = chips + ? "
                    "WHERE event_id = ? AND uid = ?", moved)
            return True

        return await self.db.run(tx)

    async def payout(self, event_id: int, placings: Sequence[Sequence[int]],
                     state: dict[str, Any] | None = None) -> Payout:
        """颁奖: end a running event and pay the prizes (see the module's rules), in one
        transaction; ``state``: the runner's last save, kept with the result.

        ``placings``: the final standings as groups of tied players, best first; every entrant
        exactly once. Idempotent: a finished event returns the stored payout (``replayed``).
        TournamentError ("unknown", "not_running", "placings"); BalanceLimit if a prize would
        pass a balance's limit; nothing changes then.
        """
        now, economy = self.wallet.clock(), self.economy
        groups = [[int(u) for u in g] for g in placings if g]

        async def tx(conn: Connection) -> Payout:
            event = await _event(conn, event_id, economy, lock=True)
            if event.status is Status.FINISHED and event.result is not None:
                return _stored_payout(event_id, event.result)
            if event.status is not Status.RUNNING:
                raise TournamentError(event_id, "not_running")
            placed = [u for g in groups for u in g]
            if sorted(placed) != sorted(event.entrants):
                raise TournamentError(event_id, "placings",
                                      "the standings must name every entrant once")
            fees = dict((await conn.execute(
                "SELECT uid, fee FROM tournament_entries WHERE event_id = ? AND status = 'held'",
                (event_id,))).fetchall())
            pool = sum(fees.values())
            prizes, house = split_prizes(pool, event.spec.rake, event.spec.prizes, groups)
            ledger: list[tuple[int, int, int | None, str, str, float, int]] = []
            note = f"event {event_id}"
            for uid in sorted(fees):
                fee = int(fees[uid])
                if not fee:
                    continue
                rows = (await conn.execute(
                    "UPDATE players SET balance = balance - ?1, held = held - ?1 "
                    "WHERE economy = ?2 AND id = ?3 AND held >= ?1 AND balance >= ?1 "
                    "RETURNING balance", (fee, economy, uid))).fetchall()
                if len(rows) != 1:  # pragma: no cover - the hold guarantees it
                    raise TournamentError(event_id, "placings", f"player {uid}'s fee is not held")
                ledger.append((uid, -fee, int(rows[0][0]), "tournament:entry", note, now,
                               economy))
            for uid in sorted(prizes):
                beans = prizes[uid]
                if not beans:
                    continue
                rows = (await conn.execute(
                    "UPDATE players SET balance = balance + ?1 WHERE economy = ?2 AND id = ?3 "
                    "AND balance <= ?4 RETURNING balance",
                    (beans, economy, uid, MAX_BALANCE - beans))).fetchall()
                if len(rows) != 1:
                    raise BalanceLimit(uid, MAX_BALANCE, beans, MAX_BALANCE)
                ledger.append((uid, beans, int(rows[0][0]), "tournament:prize", note, now,
                               economy))
            if house:
                before = await _house(conn, economy)
                await _credit_house(conn, economy, event_id, house, now)
                after = before + house if conn.dialect == "sqlite" else None
                ledger.append((HOUSE, house, after, "rake", note, now, economy))
            await conn.executemany(
                "INSERT INTO ledger (uid, delta, balance_after, reason, note, at, economy) "
                "VALUES (?, ?, ?, ?, ?, ?, ?)", ledger)
            await conn.execute(
                "UPDATE tournament_entries SET status = 'paid' WHERE event_id = ? "
                "AND status = 'held'", (event_id,))
            paid = Payout(event_id, pool, house, prizes)
            await conn.execute(
                "UPDATE tournaments SET status = 'finished', result = ?, ended_at = ?, "
                "state = CASE WHEN ? != '' THEN ? ELSE state END WHERE id = ?",
                (json.dumps(paid.to_json()), now, _text(state), _text(state), event_id))
            return paid

        return await self.db.run(tx)

    async def cancel(self, event_id: int, moderator_id: int, reason: str = "") -> dict[int, int]:
        """取消: a moderator ends an open or running event with every fee released; returns
        {uid: fee}. Audited (``tournament:cancel``) in the same transaction. TournamentError
        ("unknown", "not_running" for an event already ended)."""
        now, economy = self.wallet.clock(), self.economy

        async def tx(conn: Connection) -> dict[int, int]:
            event = await _event(conn, event_id, economy, lock=True)
            if event.status not in (Status.OPEN, Status.RUNNING):
                raise TournamentError(event_id, "not_running")
            fees = {int(u): int(f) for u, f in await conn.execute(
                "SELECT uid, fee FROM tournament_entries WHERE event_id = ? AND status = 'held' "
                "ORDER BY uid", (event_id,))}
            for uid, fee in fees.items():
                await _unhold(conn, economy, uid, fee)
            await conn.execute(
                "UPDATE tournament_entries SET status = 'refunded' WHERE event_id = ? "
                "AND status = 'held'", (event_id,))
            await conn.execute(
                "UPDATE tournaments SET status = 'cancelled', ended_at = ? WHERE id = ?",
                (now, event_id))
            await _ensure_house(conn, economy, now)
            await _audit(conn, economy, moderator_id, "tournament:cancel", HOUSE,
                         sum(fees.values()), f"event {event_id}: {reason}"[:500], now)
            return fees

        return await self.db.run(tx)


async def _refuse_write(conn: Connection, event_id: int) -> None:
    """TournamentError for a refused write: "not_running" for an event that ended (or none),
    else "not_owner"."""
    row = (await conn.execute("SELECT status FROM tournaments WHERE id = ?",
                              (event_id,))).fetchone()
    if row is None or row[0] != Status.RUNNING.value:
        raise TournamentError(event_id, "not_running")
    raise TournamentError(event_id, "not_owner")


def _text(state: dict[str, Any] | None) -> str:
    return "" if state is None else json.dumps(state, ensure_ascii=False)


def _round_text(state: dict[str, Any]) -> str:
    return json.dumps({k: v for k, v in state.items() if k not in ROUND_ONLY},
                      ensure_ascii=False)


async def _set_chips(conn: Connection, event_id: int, chips: Mapping[Any, int]) -> None:
    if chips:
        await conn.executemany(
            "UPDATE tournament_entries SET chips = ? WHERE event_id = ? AND uid = ?",
            [(int(c), event_id, int(u)) for u, c in sorted(chips.items(), key=lambda i: int(i[0]))])


def _stored_payout(event_id: int, result: dict[str, Any]) -> Payout:
    prizes = {int(u): int(b) for u, b in result["prizes"]}
    return Payout(event_id, int(result["pool"]), int(result["house"]), prizes, replayed=True)


async def _unhold(conn: Connection, economy: int, uid: int, fee: int) -> None:
    if not fee:
        return
    changed = (await conn.execute(
        "UPDATE players SET held = held - ? WHERE economy = ? AND id = ? AND held >= ?",
        (fee, economy, uid, fee))).rowcount
    if changed != 1:  # pragma: no cover - would mean a corrupt escrow
        raise WalletError(f"escrow of player {uid} is inconsistent")



async def running_events(db: Storage) -> list[tuple[int, int, int]]:
    """(event id, economy, server) of every running event, by id: what a restart resumes."""

    async def read(conn: Connection) -> list[tuple[int, int, int]]:
        return [(int(i), int(e), int(g)) for i, e, g in await conn.execute(
            "SELECT id, economy, guild_id FROM tournaments WHERE status = 'running' "
            "ORDER BY id")]

    return await db.read(read)


async def hands_at(db: Storage, table_id: int) -> list[tuple[int, str, list[dict[str, Any]]]]:
    """(hand id, status, seats' results) of every hand dealt at table ``table_id``, by id: how a
    restarted event learns the result of a hand that ended while it was down."""
    return [(i, s, r) for i, s, r, _ in await hand_codes_at(db, table_id)]


async def hand_codes_at(db: Storage, table_id: int
                        ) -> list[tuple[int, str, list[dict[str, Any]], str]]:
    """``hands_at`` with each hand's replay code."""

    async def read(conn: Connection) -> list[tuple[int, str, list[dict[str, Any]], str]]:
        return [(int(i), str(s), json.loads(r) if r else [], str(c or ""))
                for i, s, r, c in await conn.execute(
                    "SELECT id, status, result, code FROM hands WHERE channel_id = ? ORDER BY id",
                    (table_id,))]

    return await db.read(read)
