"""账房: the host's only door to beans — escrow sizing, the hold, settlement and release.

A hand's beans follow one path: ``open`` records the hand and holds what each person brings
(all or nothing), then exactly one of ``settle`` or ``release`` ends it. Every amount is
computed from the room and the game's rules; the arithmetic itself happens in storage.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.host.model import HostError, Seat
from bot.settings import Room, Settings
from engines.base import Game, GameSpec, Outcome, Text
from storage import history, levels
from storage.db import Database
from storage.errors import HandStateError, InsufficientBeans, PlayerFrozen
from storage.wallet import SeatResult, Wallet


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

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "uid": self.uid,
            "name": self.name,
            "points": self.points,
            "delta": self.delta,
            "balance": self.balance,
            "title": self.title,
            "new_title": self.new_title,
        }


@dataclass(frozen=True)
class TransferLine:
    """One itemized payment of a hand settled pair by pair: seat ``payer`` owed seat ``payee``
    ``points``; ``beans`` actually moved (after the caps); ``reason`` (点炮, 自摸 ...)."""

    payer: int
    payee: int
    points: int
    beans: int
    reason: Text | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "payer": self.payer,
            "payee": self.payee,
            "points": self.points,
            "beans": self.beans,
            "reason": None if self.reason is None else self.reason.to_json(),
        }


@dataclass(frozen=True)
class HandResult:
    """A settled hand, for the settlement message: ``code`` is its public code (for /replay),
    ``transfers`` the itemized payments when the game settles pair by pair."""

    hand_id: int
    seats: tuple[SeatResultView, ...]
    lines: tuple[Text, ...]
    code: str = ""
    transfers: tuple[TransferLine, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "hand_id": self.hand_id,
            "code": self.code,
            "seats": [v.to_json() for v in self.seats],
            "lines": [t.to_json() for t in self.lines],
            "transfers": [t.to_json() for t in self.transfers],
        }


class Cashier:
    """Escrow and settlement of the hands of every table."""

    def __init__(
        self, settings: Settings, db: Database, wallet_for: Callable[[int], Wallet]
    ) -> None:
        self.settings = settings
        self.db = db
        self.wallet_for = wallet_for

    async def sizes(
        self,
        guild_id: int,
        seats: list[Seat],
        spec: GameSpec,
        room: Room,
        options: Mapping[str, Any],
    ) -> dict[int, int]:
        """带入: what each person brings to the hand — their free beans, bounded by the room's
        maximum and by the most the game says a seat can lose (X·N + rake).

        HostError when a person at the table is frozen or no longer has the room's minimum.
        """
        wallet = self.wallet_for(guild_id)
        worst = spec.max_loss(options, len(seats)) if room.coefficient else None
        people = [s for s in seats if s.uid is not None]
        found = await wallet.accounts([s.uid for s in people if s.uid is not None])
        holds: dict[int, int] = {}
        for seat in people:
            assert seat.uid is not None
            account = found[seat.uid]
            if account.frozen:
                raise HostError("err.player_frozen", name=seat.name)
            if room.coefficient == 0:
                continue
            if account.free < room.min_beans:
                raise HostError("err.too_poor_now", name=seat.name, need=room.min_beans)
            amount = min(account.free, room.max_beans)
            if worst is not None:
                amount = min(amount, worst * room.coefficient + room.rake)
            holds[seat.uid] = amount
        return holds

    async def ratings(self, guild_id: int, seats: list[Seat], game: str) -> tuple[int, ...]:
        """Each seat's level score in ``game`` in the server's economy (0 for bots)."""
        economy = self.wallet_for(guild_id).economy
        people = [s.uid for s in seats if s.uid is not None]
        scores = await levels.scores_in(self.db, people, game, economy=economy) if people else {}
        return tuple(0 if s.uid is None else scores[s.uid] for s in seats)

    async def open(
        self,
        guild_id: int,
        channel_id: int,
        seats: list[Seat],
        spec: GameSpec,
        room: Room,
        holds: Mapping[int, int],
    ) -> int:
        """开局: record the hand and hold ``holds``, all or nothing; returns the hand id.

        HostError (nothing held, the hand aborted) when a hold fails.
        """
        wallet = self.wallet_for(guild_id)
        hand_id = await wallet.new_hand(
            spec.key, room.key, guild_id, channel_id, seats=[s.uid for s in seats]
        )
        if not holds:
            return hand_id  # a score-only room, or only bots: nothing to hold
        try:
            await wallet.hold(hand_id, list(holds.items()))
        except (InsufficientBeans, PlayerFrozen) as exc:
            await wallet.release(hand_id)
            name = next((s.name for s in seats if s.uid == exc.uid), str(exc.uid))
            if isinstance(exc, PlayerFrozen):
                raise HostError("err.player_frozen", name=name) from exc
            raise HostError("err.cannot_hold", uid=exc.uid) from exc
        except BaseException:
            await wallet.release(hand_id)
            raise
        return hand_id

    async def release(self, guild_id: int, hand_id: int, record: str = "") -> None:
        """中止: give back what hand ``hand_id`` holds (nothing if it already ended)."""
        try:
            await self.wallet_for(guild_id).release(hand_id, record=record)
        except HandStateError:
            pass  # settled already: nothing is held

    async def status(self, hand_id: int) -> str | None:
        """The hand's status in storage ("running", "settled", "aborted"), or None."""
        hand = await history.get_hand(self.db, hand_id)
        return None if hand is None else hand.status

    async def settle(
        self,
        guild_id: int,
        hand_id: int,
        seats: list[Seat],
        spec: GameSpec,
        room: Room,
        game: Game,
    ) -> tuple[HandResult, Outcome]:
        """结算: settle the finished ``game`` in one transaction (idempotent in storage: a hand
        settled before a crash returns its stored result)."""
        outcome = game.outcome()
        results = [
            SeatResult(uid=s.uid, points=outcome.points[i], score=outcome.scores[i])
            for i, s in enumerate(seats)
        ]
        settlement, code = await asyncio.gather(self.wallet_for(guild_id).settle(
            hand_id,
            spec.key,
            results,
            room.coefficient,
            room.rake,
            record=game.to_text(),
            outcome=json.dumps(outcome.to_json(), ensure_ascii=False),
            transfers=[(t.payer, t.payee, t.points) for t in outcome.transfers],
            fees=outcome.fees,
        ), history.hand_code(self.db, hand_id))  # read beside it: one group commit on SQLite
        transfers = tuple(
            TransferLine(done.payer, done.payee, done.points, done.beans, asked.reason)
            for asked, done in zip(outcome.transfers, settlement.transfers, strict=True)
        )
        ladder = self.settings.levels.get(spec.level_table, ())
        views = []
        for i, (seat, line) in enumerate(zip(seats, settlement.seats, strict=True)):
            title, new_title = None, False
            if line.score_after is not None and line.score_before is not None and ladder:
                title = levels.title(ladder, line.score_after)
                new_title = title != levels.title(ladder, line.score_before)
            views.append(
                SeatResultView(
                    seat=i,
                    uid=seat.uid,
                    name=seat.name,
                    points=line.points,
                    delta=line.delta,
                    balance=line.balance,
                    title=title,
                    new_title=new_title,
                )
            )
        result = HandResult(
            hand_id=hand_id,
            seats=tuple(views),
            lines=outcome.lines,
            code=code,
            transfers=transfers,
        )
        return result, outcome
