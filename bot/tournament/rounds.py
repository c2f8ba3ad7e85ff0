"""A tournament's rounds: seating a round's tables by the format, the hands' results, a
round's end (who goes on). A part of ``TournamentRunner`` (bot/tournament/runner.py), which
inherits it.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

from bot.host.opening import TablePlan
from bot.tournament import formats
from bot.tournament.resume import LEASE_SECONDS
from storage import tournaments as store
from storage.tournaments import Event, Format

log = logging.getLogger("bot.tournament.runner")  # the runner's log, as before the split


DEALING = 32
"""Tables of a round dealt at once: enough for their writes to share the database's group
commits, few enough that a hand's result is not saved behind the writes of the whole round
(the standings update's latency)."""


class Rounds:
    """轮次: from a round's seating to its last hand's result."""

    async def _next_round(self, event_id: int) -> None:
        """Seat and start the next round, or end the event (under the event's lock)."""
        event, state = self.events[event_id], self.states[event_id]
        spec, seats = event.spec, self.seats_of(event.spec.game)
        chips = self.chips(state)
        changed: dict[int, int] = {}
        if self._over(event, state):
            await self._finish(event_id)
            return
        state["round"] += 1
        order = formats.ranked(state["alive"], chips)
        if spec.format is Format.SWISS:
            pairs, bye = formats.swiss_pairs(order, [tuple(p) for p in state["met"]],
                                             state["byes"])
            groups: list[list[int | None]] = [list(p) for p in pairs]
            if bye is not None:
                state["byes"].append(bye)
                state["chips"][str(bye)] += formats.BYE
                changed = {bye: state["chips"][str(bye)]}
            state["met"] += [list(p) for p in pairs]
        else:
            if spec.format is Format.SIT_AND_GO and state["round"] == spec.rounds:
                finalists = order[:seats]  # the final table
                rest = [u for u in order if u not in finalists]
                if rest:
                    state["out"].append(rest)
                state["alive"] = order = finalists
            if len(order) == seats:
                state["final"] += 1
            groups = formats.tables(order, seats, fill=True)
        state["tables"] = {}
        seating: dict[int, tuple[int, int]] = {}
        for n, group in enumerate(groups):
            tid = await self.venue.open_table(event, state["round"], n)
            state["tables"][str(tid)] = {"seats": group, "done": False}
            self._table_event[tid] = event_id
            for i, uid in enumerate(group):
                if uid is not None:
                    seating[uid] = (tid, i)
        await self._save(event_id, changed)
        await self.venue.round_started(event, state, seating)
        await self._seat_tables(event, [(int(tid), entry["seats"])
                                        for tid, entry in state["tables"].items()])
        await self.venue.standings_changed(event, state)

    def _over(self, event: Event, state: dict[str, Any]) -> bool:
        spec, seats = event.spec, self.seats_of(event.spec.game)
        if spec.format is Format.ELIMINATION:
            return state["final"] >= spec.rounds and len(state["alive"]) <= seats
        return state["round"] >= spec.rounds

    async def _seat_tables(self, event: Event, tables: list[tuple[int, list[int | None]]]
                           ) -> None:
        """Open the tables ``(tid, seats)`` with their players (bots for None), the trustee on
        for no-shows and leavers, all in one step (``TableManager.open_tables``), and deal
        them ``DEALING`` at a time (their hands' writes share the database's group commits).
        A player
        who cannot sit (seated at another table of the hall) is replaced by a bot for this
        hand and scores nothing in it. A table nobody could sit at is done, scoring nothing."""
        if not tables:
            return
        state, manager = self.states[event.id], self.manager
        names, left = state["names"], set(state["left"])
        plans = [
            TablePlan(tid, tuple((u, names.get(str(u), str(u))) for u in seats if u is not None),
                      len(seats), frozenset(u for u in seats
                                            if u is not None and (self.auto(u) or u in left)))
            for tid, seats in tables
        ]
        opened = await manager.open_tables(event.guild_id, event.spec.game, event.spec.room,
                                           plans)
        starting = []
        dealing = asyncio.Semaphore(DEALING)
        for (tid, _), result in zip(tables, opened, strict=True):
            for uid, exc in result.refused.items():
                log.warning("event %s: player %s cannot sit at %s (%s)", event.id, uid, tid,
                            exc.text.key)
            if result.table is None:  # nobody could sit: the table scores nothing this round
                state["tables"][str(tid)]["done"] = True
            else:
                starting.append(self._dealt(tid, result.table.owner, dealing))
        if len(starting) < len(tables):
            await self._save(event.id)
        failed = [r for r in await asyncio.gather(*starting, return_exceptions=True)
                  if isinstance(r, BaseException)]
        if failed:
            raise failed[0]

    async def _dealt(self, tid: int, starter: int, dealing: asyncio.Semaphore) -> None:
        """Deal table ``tid``, at most ``DEALING`` tables at once."""
        async with dealing:
            await self.manager.start(tid, starter)

    async def _hand_done(self, event_id: int, tid: int, hand_id: int,
                         seats: list[tuple[int | None, int]], code: str = "") -> None:
        async with self._lock(event_id):
            state = self.states.get(event_id)
            entry = state and state["tables"].get(str(tid))
            if state is None or entry is None or entry["done"] or hand_id in state["applied"]:
                return
            began = time.perf_counter()
            try:
                await self._record(event_id, tid, hand_id, seats, code)
            except store.TournamentError as exc:
                if exc.reason not in ("not_owner", "not_running"):
                    raise
                self._let_go(event_id)  # another process runs it, or cancelled it
                return
            self.hand_seconds.append(time.perf_counter() - began)
            await self.venue.standings_changed(self.events[event_id], state)
            self._table_event.pop(tid, None)
            await self._close(tid)
            if all(e["done"] for e in state["tables"].values()):
                await self._round_over(event_id)

    async def _record(self, event_id: int, tid: int, hand_id: int,
                      seats: list[tuple[int | None, int]], code: str) -> None:
        """Apply a hand to the event and keep it: one row and its players' chips."""
        state = self.states[event_id]
        seq = len(state["hands"])
        gained = self._apply(self.events[event_id], state, tid, hand_id, seats, code)
        await self.store(state["guild"]).record_hand(
            event_id, seq, state["round"], tid, hand_id, [[u, p] for u, p in seats], gained,
            code, owner=self.owner, lease=LEASE_SECONDS)

    def _apply(self, event: Event, state: dict[str, Any], tid: int, hand_id: int,
               seats: list[tuple[int | None, int]], code: str = "") -> dict[int, int]:
        """Add a hand's points to the chips (Swiss: match points for the result); returns
        what each player gained."""
        chips = state["chips"]
        gained: dict[int, int] = {}
        if event.spec.format is Format.SWISS:
            people = [(u, p) for u, p in seats if u is not None]
            best = max(p for _, p in seats)
            winners = [u for u, p in seats if p == best]
            for uid, _ in people:
                if len(winners) == len(seats):
                    gained[uid] = formats.DRAW
                elif uid in winners:
                    gained[uid] = formats.WIN
        else:
            gained = {uid: points for uid, points in seats
                      if uid is not None and str(uid) in chips}
        for uid, points in gained.items():
            chips[str(uid)] += points
        state["applied"].append(hand_id)
        state["hands"].append({"round": state["round"], "table": tid, "hand": hand_id,
                               "points": [[u, p] for u, p in seats], "code": code})
        state["tables"][str(tid)]["done"] = True
        return gained

    async def _round_over(self, event_id: int) -> None:
        event, state = self.events[event_id], self.states[event_id]
        seats = self.seats_of(event.spec.game)
        if event.spec.format is Format.ELIMINATION and len(state["alive"]) > seats:
            order = formats.ranked(state["alive"], self.chips(state))
            keep = formats.survivors(len(order), seats)
            if order[keep:]:
                state["out"].append(order[keep:])
            state["alive"] = order[:keep]
        await self._next_round(event_id)
