"""裁判: the host's fair-play rules — leaver records, the join cool-down, pair statistics and
the 要不起 auto-pass — over ``storage.conduct``, with no knowledge of any game.

Auto-pass (自动过): when every seat the game waits for is a person who left auto-pass on and
whose only legal action is ``pass`` — the one word every game's notation uses for passing;
the game answers that through ``Game.forced_action``, without listing every legal action — the
window's deadline becomes ``AUTOPASS_DELAY`` seconds, the same
for every seat and every game, and when it passes the host makes the pass. (A single legal
action that is not a pass is a real decision, e.g. the one discard a hand allows: it keeps the
phase's timer. A phase whose timer is no longer than the delay has nothing to shorten: its
timeout rules stand.) It never counts as a miss and marks the seat neither as acting nor
as covered by the trustee. A person who acts first simply acts.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.host.model import HostError, Table
from engines.base import FORCED_PASS, Game, T, Text
from storage.conduct import Conduct, Record, SeatOutcome, cooldown_for
from storage.db import Database

PASS = FORCED_PASS
"""过/不出 in every game's notation (STYLE.md, Notation)."""

AUTOPASS_DELAY = 2.0
"""Seconds before an automatic pass by default (``timers.autopass``): the same for every seat,
so the moment tells the table nothing more than the pass itself."""


class Referee:
    """Fair-play records and auto-pass for the tables of one ``TableManager``."""

    def __init__(self, db: Database, economy: Callable[[int], int],
                 clock: Callable[[], float], delay: float = AUTOPASS_DELAY) -> None:
        self.conduct = Conduct(db)
        self.economy = economy
        self.clock = clock
        self.delay = delay
        self._autopass_off: set[int] | None = None

    # --- auto-pass --------------------------------------------------------------------------
    async def ready(self) -> None:
        """Load who turned auto-pass off (once)."""
        if self._autopass_off is None:
            self._autopass_off = await self.conduct.autopass_off()

    async def set_autopass(self, uid: int, on: bool) -> None:
        await self.ready()
        await self.conduct.set_autopass(uid, on)
        assert self._autopass_off is not None
        if on:
            self._autopass_off.discard(uid)
        else:
            self._autopass_off.add(uid)

    def autopass_on(self, uid: int) -> bool:
        return self._autopass_off is None or uid not in self._autopass_off

    def only_action(self, table: Table, game: Game, seat: int, timer: float) -> str | None:
        """``pass`` if it is the seat's only legal action and auto-pass plays it (``timer``:
        the phase's seconds), else None."""
        uid = table.seats[seat].uid
        if timer <= self.delay or uid is None or table.seats[seat].automatic:
            return None
        if not self.autopass_on(uid):
            return None
        return PASS if game.forced_action(seat) == PASS else None

    def autopass_due(self, table: Table, game: Game, timer: float) -> bool:
        """Every seat to act now may only pass, and auto-pass will."""
        waiting = game.to_act()
        return bool(waiting) and all(
            self.only_action(table, game, s, timer) is not None for s in waiting
        )

    # --- records ----------------------------------------------------------------------------
    async def check_join(self, guild_id: int, uid: int) -> None:
        """HostError("err.cooldown") while the player's cool-down on bean rooms runs."""
        refusal = self.cooldown(await self.conduct.record(uid, economy=self.economy(guild_id)))
        if refusal is not None:
            raise refusal

    def cooldown(self, record: Record) -> HostError | None:
        """The refusal ``err.cooldown`` while ``record``'s cool-down on bean rooms runs."""
        left = record.seconds_left(self.clock())
        if left <= 0:
            return None
        return HostError("err.cooldown", minutes=max(1, int(-(-left // 60))),
                         strikes=record.strikes)

    async def incident(self, table: Table, uid: int, name: str, kind: str) -> Text:
        """Record an escape or an abandoned table; the table's note on the record."""
        record = await self.conduct.incident(
            uid, kind, self.clock(), economy=self.economy(table.guild_id),
            hand_id=table.hand_id, guild_id=table.guild_id,
        )
        return record_note(name, record, self.clock())

    async def settled(self, table: Table, deltas: list[int], transfers: list[tuple[int, int, int]],
                      beans: bool, hand_id: int) -> list[Text]:
        """A hand ended: absences, clean hands, pair statistics (seat order of ``table``).
        Returns the table's notes on the strikes it recorded (a hand left to the trustee is
        told like an escape). A seat still on 托管 at the end was not played by its person to
        the end: not a clean hand."""
        seats = [
            None if s.uid is None else SeatOutcome(
                s.uid, deltas[i], escaped=s.escaped, absent=s.absent, kicked=s.kicked,
                trustee=s.trustee)
            for i, s in enumerate(table.seats)
        ]
        now = self.clock()
        absences = await self.conduct.hand_settled(
            seats, transfers, now, economy=self.economy(table.guild_id),
            guild_id=table.guild_id, hand_id=hand_id, beans=beans,
        )
        names = {s.uid: s.name for s in table.seats if s.uid is not None}
        return [record_note(names[r.uid], r, now) for r in absences]


def record_note(name: str, record: Record, now: float) -> Text:
    """What the table is told after an incident: the strikes and what they cost."""
    left = record.seconds_left(now)
    if left <= 0:
        return T("note.leaver_warned", name=name, strikes=record.strikes,
                 minutes=int(cooldown_for(record.strikes + 1) // 60))
    return T("note.leaver_cooldown", name=name, strikes=record.strikes,
             minutes=max(1, int(-(-left // 60))))
