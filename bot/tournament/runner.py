"""The event runner: plays a tournament's rounds at the table manager's tables (no Discord).

An event's tables are ordinary tables of ``TableManager``, opened a round at a time through
its public methods (``open_tables``: seated, filled with bots and put on the trustee in one
batch; then ``start``, ``leave``, ``close``) in a score-only room, so every hand has its
replay code and fair-shuffle proof like any other. The runner hears a hand end through a generic hook: it wraps the manager's notifier
(:class:`Fanout`), and ``hand_settled`` of an event's table feeds the event. Match chips are
the hands' points, kept in the event's state (``storage.tournaments``) and saved by what
changed: each hand's result is one small row with its players' chips (``record_hand``), the
round's seating once per round (``save_round``), so a hand costs the same however large the
field. A restart resumes the round from them: tables the manager restored go on, a hand that ended
while the bot was down is read back from the hand history, and a table that never dealt is
seated again.

One process runs an event (several may share a PostgreSQL database): the runner's ``owner``
token holds the event's lease (``storage.tournaments``), taken at the start or, by
``restore`` (at startup and on every ``tick``), once the last owner's lease has lapsed; each
write of the event checks it, and ``tick`` renews it. A runner that finds it has lost an
event stops driving it. The token is the process's place in the hall, its shards (as tables
are owned), so a process restarted for the same shards resumes its events at once.

``Venue`` is the platform's part: where a table opens (a Discord thread; here a synthetic id),
the DMs at a round's start, the standings message, the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol

from bot.host.model import PLAYING, HostError, Table
from bot.host.tables import HandResult, TableManager
from bot.tournament import formats
from bot.tournament.resume import LEASE_SECONDS, Resuming
from bot.tournament.rounds import Rounds
from engines.base import T, Text
from storage import tournaments as store
from storage.tournaments import Event, EventSpec, Format, Payout, Status, Tournaments

log = logging.getLogger(__name__)

TABLE_BASE = 8 * 10**18
"""Synthetic table ids of the host venue: ``TABLE_BASE + event·10^6 + n`` (below 2^63)."""


class Venue(Protocol):
    """What the platform does for an event."""

    async def open_table(self, event: Event, round_no: int, index: int) -> int:
        """A new table id (a channel) for table ``index`` of round ``round_no``."""

    async def round_started(self, event: Event, state: dict[str, Any],
                            seating: dict[int, tuple[int, int]]) -> None:
        """Tell each player ``uid → (table id, seat)``."""

    async def standings_changed(self, event: Event, state: dict[str, Any]) -> None: ...

    async def finished(self, event: Event, state: dict[str, Any], payout: Payout | None) -> None:
        """The event ended (``payout`` None: cancelled)."""


class HostVenue:
    """Tables at synthetic ids; announcements go nowhere (tests, the benchmark)."""

    def __init__(self) -> None:
        self.announced: list[tuple[int, int, dict[int, tuple[int, int]]]] = []

    async def open_table(self, event: Event, round_no: int, index: int) -> int:
        return TABLE_BASE + event.id * 10**6 + round_no * 10**4 + index

    async def round_started(self, event: Event, state: dict[str, Any],
                            seating: dict[int, tuple[int, int]]) -> None:
        self.announced.append((event.id, state["round"], seating))

    async def standings_changed(self, event: Event, state: dict[str, Any]) -> None:
        pass

    async def finished(self, event: Event, state: dict[str, Any], payout: Payout | None) -> None:
        pass


class Fanout:
    """The manager's notifier plus the runner: every call goes to the notifier it wraps; a
    settled hand also goes to the runner (the generic hand-finished hook)."""

    def __init__(self, inner: Any, runner: TournamentRunner) -> None:
        self.inner, self.runner = inner, runner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    async def table_changed(self, table: Table) -> None:
        await self.inner.table_changed(table)

    async def hand_started(self, table: Table) -> None:
        await self.inner.hand_started(table)

    async def hand_dealt(self, table: Table, seat: int) -> None:
        await self.inner.hand_dealt(table, seat)

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        await self.inner.hand_settled(table, result)
        self.runner.hand_settled(table, result)

    async def table_closed(self, table: Table, reason: Text) -> None:
        await self.inner.table_closed(table, reason)


class TournamentError(Exception):
    """A refused tournament command: ``key`` names the catalogue text, ``fields`` fill it."""

    def __init__(self, key: str, **args: Any) -> None:
        self.key, self.fields = key, args
        super().__init__(key)


def shard_token(settings: Any) -> str:
    """The owner token of this process's events: its shards (all, when not sharded)."""
    if settings.shard_count is None or settings.shard_ids is None:
        return "shards:all"
    return f"shards:{','.join(map(str, sorted(settings.shard_ids)))}/{settings.shard_count}"


def _results(result: HandResult) -> list[tuple[int | None, int]]:
    return [(s.uid, s.points) for s in result.seats]


def hand_codes(state: dict[str, Any], round_no: int | None = None) -> list[dict[str, Any]]:
    """The hands of an event (of one round with ``round_no``) in the order they ended, each
    with its round, table, hand id and replay code."""
    return [h for h in state.get("hands", []) if round_no is None or h["round"] == round_no]


class TournamentRunner(Rounds, Resuming):
    """Every event of the hall, over one table manager: the commands and the event's life
    here; seating and playing its rounds in ``Rounds`` (bot/tournament/rounds.py), its lease
    and restart in ``Resuming`` (resume.py)."""

    def __init__(self, manager: TableManager, venue: Venue | None = None, *,
                 auto: Callable[[int], bool] = lambda uid: False,
                 owner: str | None = None) -> None:
        """``auto(uid)``: the trustee plays that player from the deal (a no-show known in
        advance; tests and the benchmark). Others who do not act are covered by the table's
        timers, like at any table. ``owner``: this process's token on the events it runs
        (a fresh one by default)."""
        self.manager = manager
        self.owner = owner or shard_token(manager.settings)
        self.venue: Venue = venue or HostVenue()
        self.auto = auto
        self.states: dict[int, dict[str, Any]] = {}  # running event → its state
        self.events: dict[int, Event] = {}
        self.names: dict[int, dict[int, str]] = {}  # open event → uid → name
        self.locales: dict[int, dict[int, str]] = {}  # open event → uid → their language
        self._table_event: dict[int, int] = {}
        self._locks: dict[int, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[None]] = set()
        self.quiet = False
        """The last ``tick`` found nothing to watch: no event runs here or anywhere (none to
        renew or adopt) and none is scheduled. The ticker then waits for ``wake``."""
        self.woken = False
        """An event was created here since the last ``tick``: the ticker looks again."""
        self._running_seen = False
        self.hand_seconds: list[float] = []  # standings update time per hand (benchmark)
        manager.notifier = Fanout(manager.notifier, self)

    # --- commands ---------------------------------------------------------------------
    def store(self, guild_id: int) -> Tournaments:
        return Tournaments(self.manager.wallet_for(guild_id))

    def seats_of(self, game: str) -> int:
        return self.manager.specs[game].max_seats

    async def create(self, guild_id: int, channel_id: int, spec: EventSpec,
                     created_by: int) -> int:
        """开赛: TournamentError naming what the spec gets wrong."""
        settings = self.manager.settings
        if spec.game not in self.manager.specs:
            raise TournamentError("tourney.err.game", game=spec.game)
        room = settings.rooms.get(spec.room)
        if room is None or spec.game not in room.games or room.coefficient != 0:
            raise TournamentError("tourney.err.room", room=spec.room, game=spec.game)
        seats = self.seats_of(spec.game)
        if spec.format is Format.SWISS:
            if seats != 2:
                raise TournamentError("tourney.err.swiss_seats", game=spec.game)
            if spec.rounds >= spec.size:
                raise TournamentError("tourney.err.swiss_rounds", most=spec.size - 1)
        elif spec.format in (Format.SIT_AND_GO, Format.ELIMINATION) and spec.size % seats:
            raise TournamentError("tourney.err.size", size=spec.size, seats=seats)
        if spec.format is Format.SCHEDULED and spec.start_at is None:
            raise TournamentError("tourney.err.start_at")
        try:
            event_id = await self.store(guild_id).create(guild_id, channel_id, spec, created_by)
            self.woken = True
            return event_id
        except ValueError as exc:
            raise TournamentError("tourney.err.spec", error=str(exc)) from exc

    async def join(self, guild_id: int, event_id: int, uid: int, name: str,
                   locale: str | None = None) -> Event:
        """报名 (the fee is held); a sit-and-go, elimination or Swiss event starts when full.
        ``locale``: the player's language where known (their DMs are in it)."""
        event = await self.store(guild_id).register(event_id, uid)
        self.names.setdefault(event_id, {})[uid] = name
        if locale is not None:
            self.locales.setdefault(event_id, {})[uid] = locale
        if event.spec.format is not Format.SCHEDULED and len(event.entrants) == event.spec.size:
            await self.begin(guild_id, event_id)
        return event

    async def leave(self, guild_id: int, event_id: int, uid: int) -> int | None:
        """退赛: before the start the fee comes back (returned); once running, the trustee
        plays the player's seats to the end of the event, and one escape is recorded on their
        leaver record: by the table, in the middle of a hand there; otherwise (between their
        hands) here. Leaving again records nothing more. None then."""
        state = self.states.get(event_id)
        if state is None:
            return await self.store(guild_id).withdraw(event_id, uid)
        if uid not in state["field"]:
            raise store.TournamentError(event_id, "not_registered")
        async with self._lock(event_id):
            if uid in state["left"]:
                return None
            state["left"].append(uid)
            await self._save(event_id)
        table = self.manager.table_of(uid)
        if table is not None and table.id in self._table_event and table.status == PLAYING:
            with contextlib.suppress(HostError):
                if await self.manager.leave(table.id, uid):
                    return None  # the table recorded the escape
        referee = self.manager.referee
        await referee.conduct.incident(uid, "escape", self.manager.clock(),
                                       economy=referee.economy(guild_id), guild_id=guild_id)
        return None

    async def cancel(self, guild_id: int, event_id: int, moderator_id: int,
                     reason: str = "") -> dict[int, int]:
        """取消: close the event's tables (nothing settled at them moves beans: score-only) and
        refund every fee, audited."""
        async with self._lock(event_id):
            refunds = await self.store(guild_id).cancel(event_id, moderator_id, reason)
            state = self.states.pop(event_id, None)
            event = self.events.pop(event_id, None) or await self.store(guild_id).get(event_id)
            for tid in list(state["tables"]) if state else []:
                self._table_event.pop(int(tid), None)
                await self._close(int(tid))
        await self.venue.finished(event, state or {}, None)
        return refunds

    async def tick(self, now: float | None = None) -> list[int]:
        """Start every scheduled event whose start time has come (registration closes); one
        with fewer than two players is cancelled, its fees refunded. Returns the started."""
        now = self.manager.clock() if now is None else now
        await self.renew()
        await self.restore()  # adopt an event whose owner's lease has lapsed
        started = []
        scheduled = await self._open_scheduled()
        self.quiet = not self.states and not scheduled and not self._running_seen
        for guild_id, event in scheduled:
            if not self.manager.owns(guild_id):
                continue  # the process serving that server starts it
            if event.spec.start_at is not None and event.spec.start_at <= now:
                if len(event.entrants) < 2:
                    await self.cancel(guild_id, event.id, event.created_by, "too few players")
                    continue
                try:
                    await self.begin(guild_id, event.id)
                except store.TournamentError as exc:
                    if exc.reason != "not_open":
                        raise
                    continue  # another process serving this server started it first
                started.append(event.id)
        return started

    async def _open_scheduled(self) -> list[tuple[int, Event]]:
        """Every economy's open scheduled events, with their server."""
        wallet, found = self.manager.wallet, []
        for economy in await wallet.db.read(_economies):
            for event in await Tournaments(wallet.scoped(economy)).events(
                    statuses=(Status.OPEN,)):
                if event.spec.format is Format.SCHEDULED:
                    found.append((event.guild_id, event))
        return found

    # --- running ----------------------------------------------------------------------
    async def begin(self, guild_id: int, event_id: int) -> None:
        """开始: close registration and seat round 1."""
        event = await self.store(guild_id).get(event_id)
        names = self.names.pop(event_id, {})
        locales = self.locales.pop(event_id, {})
        field = list(event.entrants)
        state: dict[str, Any] = {
            "guild": guild_id, "round": 0, "field": field,
            "names": {str(u): names.get(u, str(u)) for u in field},
            "locales": {str(u): locales[u] for u in field if u in locales},
            "chips": {str(u): (0 if event.spec.format is Format.SWISS else formats.START_CHIPS)
                      for u in field},
            "alive": list(field), "out": [], "met": [], "byes": [], "left": [],
            "tables": {}, "applied": [], "hands": [], "final": 0,
        }
        event = await self.store(guild_id).start(event_id, state, self.owner, LEASE_SECONDS)
        self.events[event_id], self.states[event_id] = event, state
        async with self._lock(event_id):
            await self._next_round(event_id)

    async def keep(self, event_id: int) -> None:
        """Save a running event's round now (the venue noted something in its state that a
        restart needs, like the standings message's id); nothing for an event that ended."""
        if event_id in self.states:
            await self._save(event_id)

    def _lock(self, event_id: int) -> asyncio.Lock:
        return self._locks.setdefault(event_id, asyncio.Lock())

    def chips(self, state: dict[str, Any]) -> dict[int, int]:
        return {int(u): c for u, c in state["chips"].items()}

    def standings(self, event_id: int) -> list[list[int]]:
        """The current standings of a running event, as groups of tied players."""
        state = self.states[event_id]
        return formats.standings(state["field"], self.chips(state), state["out"])

    def hand_settled(self, table: Table, result: HandResult) -> None:
        """The hook: a hand ended at ``table`` (under its lock: the work is a task)."""
        event_id = self._table_event.get(table.id)
        if event_id is None:
            return
        task = asyncio.get_running_loop().create_task(
            self._hand_done(event_id, table.id, result.hand_id, _results(result), result.code))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def idle(self) -> None:
        """Wait until no hand result is being processed (tests, the benchmark)."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks))

    async def _finish(self, event_id: int) -> None:
        event, state = self.events.pop(event_id), self.states.pop(event_id)
        placings = formats.standings(state["field"], self.chips(state), state["out"])
        state["final_standings"] = placings
        payout = await self.store(state["guild"]).payout(event_id, placings, state)
        await self.venue.standings_changed(event, state)
        await self.venue.finished(event, state, payout)

    async def _close(self, tid: int) -> None:
        try:
            await self.manager.close(tid, T("tourney.table_done"))
        except HostError:
            pass  # the hand's end closed it (nobody left seated)

    async def _save(self, event_id: int, chips: dict[int, int] | None = None) -> None:
        """Keep the round (and, with ``chips``, those players' chips)."""
        state = self.states[event_id]
        await self.store(state["guild"]).save_round(event_id, state, chips, owner=self.owner,
                                                    lease=LEASE_SECONDS)

async def _economies(conn: Any) -> list[int]:
    return [int(r[0]) for r in await conn.execute(
        "SELECT DISTINCT economy FROM tournaments WHERE status = 'open'")]
