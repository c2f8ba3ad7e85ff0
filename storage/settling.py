"""结算事务: the settlement of one hand as a storage function, in its jobs.

``Wallet.settle`` checks its arguments into a :class:`Request` (``request``) and runs
:func:`settle_hand` with ``Storage.run_autocommit``. The function:

1. **reads** the hand, its holds, the seated players' balances and level scores and the
   house's total (``_read_sqlite`` / ``_read_postgresql``);
2. **checks** the hand against the request (``_check``: its economy and game, not aborted,
   every player with beans held seated) — a settled hand returns its stored result;
3. **plans** the bean movements (``_plan``, pure: ``storage.settlement``'s rules, then each
   seat's result and the ledger rows, ``_seat_results`` / ``_ledger``);
4. **writes** them (``_write_sqlite`` / ``_write_postgresql``): balances and holds released,
   the house's rake, level scores, ledger rows, the result on the hand's row.

SQLite runs it inside its transaction (group commit), statement by statement. PostgreSQL runs
it without BEGIN/COMMIT in two round trips: one SELECT reads, one call of the
``gamehall_settle`` function (migration 0003) writes everything as one statement, checking
again, under the rows' locks, that nothing it was computed from has moved (else a
serialization failure makes the adapter run the settlement again). Either way it is one
atomic change, idempotent by hand id, and the same ledger rows for the same settlement.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from storage.accounts import (
    HOUSE,
    HOUSE_SHARDS,
    MAX_BALANCE,
    MAX_POINTS,
    SeatResult,
    SeatSettlement,
    Settlement,
    _amount,
    _bounded,
    _clamp_score,
    _credit_house,
    _ensure,
    _int,
    _other_economy,
    _result_json,
    _show,
    _stored,
    _stored_settlement,
    _uid,
)
from storage.db import Connection
from storage.errors import HandStateError, StorageError
from storage.settlement import SeatAmounts, TransferResult, settle_amounts, settle_transfers

LedgerEntry = tuple[int, int, "int | None", str, str]
"""A ledger row of a settlement: (uid, delta, balance after, reason, note)."""


@dataclass(frozen=True)
class Request:
    """A settlement as asked, checked: see ``Wallet.settle`` for each field's meaning."""

    hand_id: int
    game: str
    results: tuple[SeatResult, ...]
    pairs: tuple[tuple[int, int, int], ...]
    coefficient: int
    rake: int
    record: str
    outcome: str
    fees: tuple[int, ...] | None
    economy: int
    grant: int
    now: float

    @property
    def humans(self) -> list[int]:
        return [s.uid for s in self.results if s.uid is not None]

    @property
    def seated(self) -> list[tuple[int, int]]:
        """(seat, uid) of every human seat."""
        return [(i, s.uid) for i, s in enumerate(self.results) if s.uid is not None]


def request(
    hand_id: object,
    game: str,
    seats: Sequence[SeatResult],
    coefficient: object,
    rake: object,
    record: str,
    outcome: str,
    transfers: Sequence[tuple[int, int, int]],
    fees: Sequence[int],
    *,
    economy: int,
    grant: int,
    now: float,
) -> Request:
    """The checked :class:`Request` (ValueError, AmountError for numbers out of bounds)."""
    hand = _int(hand_id, "hand_id")
    coefficient = _amount(coefficient, positive=False, what="the coefficient")
    rake = _amount(rake, positive=False, what="the rake")
    results = tuple(
        SeatResult(
            None if s.uid is None else _uid(s.uid),
            _bounded(s.points, "a seat's points", -MAX_POINTS, MAX_POINTS),
            _bounded(s.score, "a seat's score change", -MAX_POINTS, MAX_POINTS),
        )
        for s in seats
    )
    if not results:
        raise ValueError("a hand has at least one seat")
    humans = [s.uid for s in results if s.uid is not None]
    if len(set(humans)) != len(humans):
        raise ValueError("a player sits twice in one hand")
    pairs = tuple(_transfers(transfers, results))
    spent = tuple(_bounded(f, "a fee", 0, MAX_BALANCE) for f in fees) or None
    if spent is not None and len(spent) != len(results):
        raise ValueError("fees must give one amount per seat")
    return Request(
        hand, game, results, pairs, coefficient, rake, record, outcome, spent, economy, grant, now
    )


@dataclass
class _State:
    """What a settlement reads: the hand's row, its holds, the seated players' balances and
    scores before, the house's total; ``stored`` when the hand is already settled
    (PostgreSQL reads it with the rest)."""

    status: str
    game: str
    guild_id: int
    economy: int
    holds: dict[int, int]
    before: dict[int, int] = field(default_factory=dict)
    score: dict[int, int] = field(default_factory=dict)
    house_before: int = 0
    stored: Settlement | None = None


@dataclass(frozen=True)
class _Plan:
    """What a settlement writes: every seat's amounts and result, the transfers as done, the
    ledger rows in order and the house's total."""

    amounts: list[SeatAmounts]
    seats: tuple[SeatSettlement, ...]
    done: tuple[TransferResult, ...]
    ledger: list[LedgerEntry]
    house: int


async def settle_hand(conn: Connection, asked: Request) -> Settlement:
    """结算: settle ``asked`` (read, check, plan, write); a settled hand's stored result.

    HandStateError for an unknown, aborted or foreign hand; ValueError for a game or seats
    that do not match the hand; nothing changes then.
    """
    pg = conn.dialect == "postgresql"
    state = await (_read_postgresql(conn, asked) if pg else _read_sqlite(conn, asked))
    if state.status == "settled":
        return state.stored or await _stored(conn, asked.hand_id)
    if pg:
        for uid in asked.humans:  # not yet a player: the write creates them with the grant
            state.before.setdefault(uid, asked.grant)
            state.score.setdefault(uid, 0)
    else:
        await _prepare_sqlite(conn, asked, state)
    plan = _plan(asked, state, with_house_balance=not pg)
    await (
        _write_postgresql(conn, asked, state, plan)
        if pg
        else _write_sqlite(conn, asked, state, plan)
    )
    return Settlement(
        asked.hand_id,
        asked.game,
        asked.coefficient,
        asked.rake,
        plan.seats,
        plan.house,
        plan.done,
        asked.economy,
    )


def _check(asked: Request, state: _State) -> None:
    """The hand may be settled by ``asked`` (a settled one is answered by its stored result)."""
    hand_id = asked.hand_id
    if state.economy != asked.economy:
        raise _other_economy(hand_id, state.economy, asked.economy)
    if state.status == "settled":
        return
    if state.status == "aborted":
        raise HandStateError(hand_id, "was aborted; it cannot be settled")
    if asked.game != state.game:
        raise ValueError(f"hand {hand_id} is a hand of {state.game!r}, not {asked.game[:40]!r}")
    unseated = sorted(set(state.holds) - set(asked.humans))
    if unseated:
        raise ValueError(f"players {unseated} carry beans into hand {hand_id} unseated")


# --- reading ---------------------------------------------------------------------------------


async def _read_sqlite(conn: Connection, asked: Request) -> _State:
    """The hand's row and holds (the balances come after ``_prepare_sqlite``)."""
    rows = (
        await conn.execute(
            "SELECT h.status, h.game, h.guild_id, h.economy, o.uid, o.amount FROM hands h "
            "LEFT JOIN holds o ON o.hand_id = h.id WHERE h.id = ?",
            (asked.hand_id,),
        )
    ).fetchall()
    if not rows:
        raise HandStateError(asked.hand_id, "no such hand")
    status, game, guild_id, economy = rows[0][:4]
    holds = {uid: amount for *_, uid, amount in rows if uid is not None}
    state = _State(status, game, guild_id, economy, holds)
    _check(asked, state)
    return state


async def _prepare_sqlite(conn: Connection, asked: Request, state: _State) -> None:
    """New players get their grant, the server learns its players, then the balances, scores
    and the house's balance are read (all inside SQLite's transaction)."""
    economy = asked.economy
    for uid in asked.humans:
        if uid not in state.holds:  # carried nothing (score-only room): may be a new player
            await _ensure(conn, economy, uid, asked.grant, asked.now)
    await conn.executemany(  # writes nothing for players the server already knows
        "INSERT INTO guild_players (guild_id, uid) VALUES (?, ?) ON CONFLICT DO NOTHING",
        [(state.guild_id, uid) for uid in asked.humans],
    )
    marks = ",".join("?" * (len(asked.humans) + 1))
    found = await conn.execute(
        "SELECT p.id, p.balance, s.score FROM players p LEFT JOIN scores s "
        "ON s.economy = p.economy AND s.uid = p.id AND s.game = ? "
        f"WHERE p.economy = ? AND p.id IN ({marks})",
        [asked.game, economy, HOUSE, *asked.humans],
    )
    for pid, balance, points in found:
        state.before[pid], state.score[pid] = balance, points or 0
    state.house_before = state.before.get(HOUSE, 0)


_READ_PG = (
    "SELECT h.status, h.game, h.guild_id, h.economy, h.coefficient, h.rake, h.result, "
    "h.transfers, "
    "ARRAY(SELECT ARRAY[o.uid, o.amount] FROM holds o WHERE o.hand_id = h.id ORDER BY o.uid), "
    "ARRAY(SELECT ARRAY[p.id, p.balance, COALESCE(s.score, 0)] FROM players p "
    "LEFT JOIN scores s ON s.economy = p.economy AND s.uid = p.id AND s.game = ?3 "
    "WHERE p.economy = ?2 AND p.id = ANY(CAST(?4 AS BIGINT[])) ORDER BY p.id), "
    "(SELECT COALESCE(SUM(beans), 0) FROM house_rake WHERE economy = ?2) "
    "FROM hands h WHERE h.id = ?1"
)


async def _read_postgresql(conn: Connection, asked: Request) -> _State:
    """Everything in one SELECT, without locks (the write checks it all again)."""
    row = (
        await conn.execute(_READ_PG, (asked.hand_id, asked.economy, asked.game, asked.humans))
    ).fetchone()
    if row is None:
        raise HandStateError(asked.hand_id, "no such hand")
    status, game, guild_id, economy, coefficient, rake, result, transfers, holds, players, house = (
        row
    )
    state = _State(status, game, guild_id, economy, {int(u): int(a) for u, a in holds})
    _check(asked, state)
    if status == "settled":
        state.stored = _stored_settlement(
            asked.hand_id, game, coefficient, rake, result, transfers, economy
        )
        return state
    for pid, balance, points in players:
        state.before[int(pid)], state.score[int(pid)] = int(balance), int(points)
    state.house_before = int(house)
    return state


# --- planning (pure) ---------------------------------------------------------------------------


def _plan(asked: Request, state: _State, *, with_house_balance: bool) -> _Plan:
    """The bean movements by ``storage.settlement``'s rules, each seat's result, the ledger
    rows. ``with_house_balance``: the house's rows carry its balance after (SQLite; on
    PostgreSQL they carry none, ``Wallet.ledger`` derives it)."""
    results, holds = asked.results, state.holds
    held = [None if s.uid is None else holds.get(s.uid, 0) for s in results]
    room = [None if s.uid is None else MAX_BALANCE - state.before[s.uid] for s in results]
    house_room = MAX_BALANCE - state.house_before
    moved: list[int] = []
    if asked.pairs:
        amounts, moved = settle_transfers(
            held,
            list(asked.pairs),
            asked.coefficient,
            asked.rake,
            room=room,
            house_room=house_room,
            fees=_fees(asked),
        )
    else:
        amounts = settle_amounts(
            [(h, s.points) for h, s in zip(held, results, strict=True)],
            asked.coefficient,
            asked.rake,
            room=room,
            house_room=house_room,
            fees=_fees(asked),
        )
    seats = _seat_results(asked, state, amounts)
    done = tuple(
        TransferResult(p, q, points, beans)
        for (p, q, points), beans in zip(asked.pairs, moved, strict=True)
    )
    house = sum(a.rake + a.fee for a in amounts)
    ledger = _ledger(asked, state, amounts, seats, done, with_house_balance)
    return _Plan(amounts, seats, done, ledger, house)


def _fees(asked: Request) -> list[int] | None:
    return None if asked.fees is None else list(asked.fees)


def _seat_results(
    asked: Request, state: _State, amounts: Sequence[SeatAmounts]
) -> tuple[SeatSettlement, ...]:
    """Every seat after settlement (bots: no uid, no beans, no scores)."""
    out: list[SeatSettlement] = []
    for i, result in enumerate(asked.results):
        player = result.uid
        if player is None:
            out.append(SeatSettlement(i, None, result.points, 0, 0, 0, None, None, None))
            continue
        score = state.score[player]
        out.append(
            SeatSettlement(
                i,
                player,
                result.points,
                state.holds.get(player, 0),
                amounts[i].rake,
                amounts[i].delta,
                state.before[player] + amounts[i].delta,
                score,
                _clamp_score(score + result.score),
            )
        )
    return tuple(out)


def _ledger(
    asked: Request,
    state: _State,
    amounts: Sequence[SeatAmounts],
    seats: Sequence[SeatSettlement],
    done: Sequence[TransferResult],
    with_house_balance: bool,
) -> list[LedgerEntry]:
    """The hand's ledger rows, in order: the players' (one ``hand`` row each, after a
    ``hand:fee`` row for props; itemized for transfers), then the house's ``rake`` and
    ``fee``."""
    if asked.pairs:
        rows = _transfer_ledger(seats, amounts, done, state.before)
    else:
        rows = []
        for i, uid in asked.seated:
            a, balance = amounts[i], state.before[uid]
            if a.fee:  # props bought during the hand, apart from the hand's result
                balance -= a.fee
                rows.append((uid, -a.fee, balance, "hand:fee", ""))
            if a.delta + a.fee:
                balance += a.delta + a.fee
                rows.append((uid, a.delta + a.fee, balance, "hand", ""))
    raked, charged = sum(a.rake for a in amounts), sum(a.fee for a in amounts)
    if raked:
        after = state.house_before + raked if with_house_balance else None
        rows.append((HOUSE, raked, after, "rake", ""))
    if charged:  # props bought during the hand: a bean sink, ledgered apart
        after = state.house_before + raked + charged if with_house_balance else None
        rows.append((HOUSE, charged, after, "fee", ""))
    return rows


# --- writing -----------------------------------------------------------------------------------


def _hand_row(asked: Request, plan: _Plan) -> tuple[str, int, int, str, str, str, str | None]:
    """The hand row's settled fields: seats, coefficient, rake, record, outcome, result,
    transfers."""
    return (
        json.dumps([s.uid for s in asked.results]),
        asked.coefficient,
        asked.rake,
        asked.record,
        asked.outcome,
        _result_json(plan.seats),
        json.dumps([list(t) for t in plan.done]) if asked.pairs else None,
    )


async def _write_sqlite(conn: Connection, asked: Request, state: _State, plan: _Plan) -> None:
    """Statement by statement inside SQLite's transaction (cached one-row statements are
    SQLite's fastest), every balance change guarded."""
    economy, holds = asked.economy, state.holds
    changed = (
        await conn.executemany(
            "UPDATE players SET balance = balance + ?1, held = held - ?2 "
            "WHERE economy = ?4 AND id = ?3 AND held >= ?2 AND balance + ?1 >= 0 "
            f"AND balance + ?1 <= {MAX_BALANCE:d}",
            [(plan.amounts[i].delta, holds.get(uid, 0), uid, economy) for i, uid in asked.seated],
        )
    ).rowcount
    if changed != len(asked.seated):  # pragma: no cover - the arithmetic respects both
        raise StorageError(f"settlement of hand {asked.hand_id} would overdraw a player")
    if plan.house:
        await _credit_house(conn, economy, asked.hand_id, plan.house, asked.now)
    # Level scores (积分): arithmetic in SQL too, kept within ±MAX_POINTS.
    await conn.executemany(
        "INSERT INTO scores (uid, game, score, economy) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (economy, uid, game) DO UPDATE SET score = "
        f"CASE WHEN scores.score + excluded.score > {MAX_POINTS:d} THEN {MAX_POINTS:d} "
        f"WHEN scores.score + excluded.score < -{MAX_POINTS:d} THEN -{MAX_POINTS:d} "
        "ELSE scores.score + excluded.score END",
        [(uid, asked.game, asked.results[i].score, economy) for i, uid in asked.seated],
    )
    await conn.executemany(
        "INSERT INTO ledger (uid, delta, balance_after, reason, note, hand_id, at, "
        "economy) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [(*row, asked.hand_id, asked.now, economy) for row in plan.ledger],
    )
    await conn.execute(
        "UPDATE hands SET status = 'settled', seats = ?, coefficient = ?, rake = ?, "
        "record = ?, outcome = ?, result = ?, transfers = ?, ended_at = ? WHERE id = ?",
        (*_hand_row(asked, plan), asked.now, asked.hand_id),
    )


_WRITE_PG = "SELECT gamehall_settle(" + ", ".join("?" * 30) + ")"


async def _write_postgresql(conn: Connection, asked: Request, state: _State, plan: _Plan) -> None:
    """One statement: the ``gamehall_settle`` function (migration 0003), which checks what
    was read and writes everything (a serialization failure if anything moved)."""
    seated = asked.seated
    holds = sorted(state.holds.items())
    ledger: list[Any] = [list(column) for column in zip(*plan.ledger, strict=True)] or [[]] * 5
    await conn.execute(
        _WRITE_PG,
        (
            asked.hand_id,
            asked.economy,
            state.guild_id,
            asked.game,
            asked.grant,
            asked.now,
            [uid for uid, _ in holds],
            [amount for _, amount in holds],
            [uid for uid in asked.humans if uid not in state.holds],
            [uid for _, uid in seated],
            [state.before[uid] for _, uid in seated],
            [plan.amounts[i].delta for i, _ in seated],
            [state.holds.get(uid, 0) for _, uid in seated],
            [state.score[uid] for _, uid in seated],
            [plan.seats[i].score_after for i, _ in seated],
            plan.house,
            asked.hand_id % HOUSE_SHARDS,
            *ledger,
            *_hand_row(asked, plan),
            MAX_BALANCE,
        ),
    )


# --- checking transfers, and their ledger ------------------------------------------------------


def _transfers(
    transfers: Sequence[tuple[int, int, int]], results: Sequence[SeatResult]
) -> list[tuple[int, int, int]]:
    """Check a hand's transfers against its seats: valid seats, points 1..MAX_POINTS, and each
    seat's points equal to the net of the transfers (ValueError naming what is wrong)."""
    seats = len(results)
    pairs: list[tuple[int, int, int]] = []
    net = [0] * seats
    for n, item in enumerate(transfers):
        try:
            payer, payee, points = item
        except (TypeError, ValueError):
            raise ValueError(
                f"transfer {n} must be (payer seat, payee seat, points), got {_show(item)}"
            ) from None
        for what, seat in (("payer", payer), ("payee", payee)):
            if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < seats:
                raise ValueError(
                    f"transfer {n}: the {what} must be a seat from 0 to {seats - 1}, "
                    f"got {_show(seat)}"
                )
        if payer == payee:
            raise ValueError(f"transfer {n}: seat {payer} cannot pay itself")
        points = _bounded(points, f"transfer {n}'s points", 1, MAX_POINTS)
        net[payer] -= points
        net[payee] += points
        pairs.append((payer, payee, points))
    if pairs:
        given = [s.points for s in results]
        if given != net:
            raise ValueError(f"the seats' points {given} are not the net of the transfers {net}")
    return pairs


def _transfer_ledger(
    seats: Sequence[SeatSettlement],
    amounts: Sequence[SeatAmounts],
    done: Sequence[TransferResult],
    before: dict[int, int],
) -> list[LedgerEntry]:
    """Itemized ledger rows of a hand settled by transfers: each seat's rake (hand:rake), then
    each transfer that moved beans, a hand:pay row for the payer and a hand:receive row for
    the payee, their notes naming the counterpart; balances after, row by row."""
    balance = dict(before)
    rows: list[LedgerEntry] = []

    def row(uid: int, delta: int, reason: str, note: str) -> None:
        balance[uid] += delta
        rows.append((uid, delta, balance[uid], reason, note))

    for seat, amount in zip(seats, amounts, strict=True):
        if seat.uid is not None and amount.rake:
            row(seat.uid, -amount.rake, "hand:rake", "")
        if seat.uid is not None and amount.fee:
            row(seat.uid, -amount.fee, "hand:fee", "")
    for t in done:
        payer, payee = seats[t.payer].uid, seats[t.payee].uid
        if t.beans and payer is not None and payee is not None:
            row(payer, -t.beans, "hand:pay", f"to seat {t.payee} (player {payee})")
            row(payee, t.beans, "hand:receive", f"from seat {t.payer} (player {payer})")
    return rows
