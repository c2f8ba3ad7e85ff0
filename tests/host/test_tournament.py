"""比赛 at host level: events played at real tables of the table manager over a real SQLite
file, most seats on the trustee."""

from __future__ import annotations

import asyncio
import itertools
from typing import Any

from bot.host.tables import TableManager
from bot.settings import Settings
from bot.terminal import TerminalNotifier
from bot.tournament import formats
from bot.tournament.runner import HostVenue, TournamentRunner
from storage.db import Database
from storage.tournaments import EventSpec, Format, Status, TournamentError
from storage.wallet import Wallet

GUILD, CHANNEL, MOD = 5, 50, 99


class Watching(HostVenue):
    """Keeps a copy of the standings after every change."""

    def __init__(self) -> None:
        super().__init__()
        self.snapshots: list[dict[str, Any]] = []
        self.ended: list[Any] = []

    async def standings_changed(self, event: Any, state: dict[str, Any]) -> None:
        self.snapshots.append({"round": state["round"], "chips": dict(state["chips"]),
                               "hands": len(state["hands"]),
                               "tables": {k: list(v["seats"]) for k, v in state["tables"].items()}})

    async def finished(self, event: Any, state: dict[str, Any], payout: Any) -> None:
        self.ended.append(payout)


async def supply(wallet: Wallet) -> int:
    totals = await wallet.totals()
    assert totals.held == totals.open_holds
    return totals.players + totals.house


async def test_sit_and_go_of_nine_reaches_the_final_table(manager: TableManager) -> None:
    venue = Watching()
    runner = TournamentRunner(manager, venue, auto=lambda uid: True)
    wallet = manager.wallet_for(GUILD)
    spec = EventSpec("doudizhu", "free", Format.SIT_AND_GO, 9, 3, fee=500, rake=10)
    eid = await runner.create(GUILD, CHANNEL, spec, MOD)
    for uid in range(1, 10):
        await wallet.ensure_player(uid)
    before = await supply(wallet)
    for uid in range(1, 10):
        await runner.join(GUILD, eid, uid, f"P{uid}")
    await runner.idle()
    event = await runner.store(GUILD).get(eid)
    assert event.status is Status.FINISHED
    state = event.state
    # hand by hand: every hand's points went to its own table's players, chips are conserved
    first: dict[int, dict[str, Any]] = {}
    for snap in venue.snapshots:  # the standings as each hand left them
        first.setdefault(snap["hands"], snap)
    hands = [first[n] for n in range(1, 8)]
    assert [h["round"] for h in state["hands"]] == [1, 1, 1, 2, 2, 2, 3]
    previous = {str(u): formats.START_CHIPS for u in range(1, 10)}
    for hand, snap in zip(state["hands"], hands, strict=False):
        gained = {str(u): p for u, p in hand["points"] if u is not None}
        expected = {u: c + gained.get(u, 0) for u, c in previous.items()}
        assert snap["chips"] == expected
        assert sum(snap["chips"].values()) == 9 * formats.START_CHIPS
        previous = expected
    # round 2 seats by standings after round 1: the leaders together at the first table
    after_one = {int(u): c for u, c in hands[2]["chips"].items()}
    order = formats.ranked(list(range(1, 10)), after_one)
    round_two = [s for s in venue.announced if s[1] == 2][0][2]
    first_table = sorted((seat for uid, seat in round_two.items() if uid in order[:3]))
    assert len({t for t, _ in first_table}) == 1
    # the final table is the top three after round 2
    after_two = {int(u): c for u, c in hands[5]["chips"].items()}
    finalists = formats.ranked(list(range(1, 10)), after_two)[:3]
    final = [s for s in venue.announced if s[1] == 3][0][2]
    assert sorted(final) == sorted(finalists)
    # prizes: the pool of 4,500 less 10 % is paid out exactly
    payout = venue.ended[0]
    assert sum(payout.prizes.values()) + payout.house == 4_500
    assert set(payout.prizes) == set(range(1, 10))
    top = state["final_standings"][0]
    assert all(u in finalists for u in top)
    assert await supply(wallet) == before


async def test_swiss_gomoku_of_six_never_repeats_a_pairing(manager: TableManager) -> None:
    runner = TournamentRunner(manager, Watching(), auto=lambda uid: True)
    spec = EventSpec("gomoku", "free", Format.SWISS, 6, 5)
    eid = await runner.create(GUILD, CHANNEL, spec, MOD)
    for uid in range(1, 7):
        await runner.join(GUILD, eid, uid, f"P{uid}")
    await runner.idle()
    event = await runner.store(GUILD).get(eid)
    assert event.status is Status.FINISHED
    pairs = [frozenset(p) for p in event.state["met"]]
    assert len(pairs) == 15 == len(set(pairs))  # 5 rounds of 3 games, every pair once
    by_round: dict[int, list[int]] = {}
    for hand in event.state["hands"]:
        by_round.setdefault(hand["round"], []).extend(
            u for u, _ in hand["points"] if u is not None)
    assert all(sorted(v) == list(range(1, 7)) for v in by_round.values())
    # match points: 2 a win, 1 a draw: 15 games hand out 30
    assert sum(event.state["chips"].values()) == 30


async def test_a_swiss_event_needs_two_seat_games_and_few_enough_rounds(
        manager: TableManager) -> None:
    runner = TournamentRunner(manager)
    for spec, key in (
        (EventSpec("doudizhu", "free", Format.SWISS, 6, 3), "tourney.err.swiss_seats"),
        (EventSpec("gomoku", "free", Format.SWISS, 6, 6), "tourney.err.swiss_rounds"),
        (EventSpec("doudizhu", "free", Format.SIT_AND_GO, 10, 3), "tourney.err.size"),
        (EventSpec("doudizhu", "novice", Format.SIT_AND_GO, 9, 3), "tourney.err.room"),
    ):
        try:
            await runner.create(GUILD, CHANNEL, spec, MOD)
        except Exception as exc:  # noqa: BLE001
            assert getattr(exc, "key", None) == key
        else:
            raise AssertionError(f"{spec} was accepted")
    assert await runner.store(GUILD).events() == []


async def test_two_hundred_concurrent_registrations_and_withdrawals(
        manager: TableManager) -> None:
    runner = TournamentRunner(manager)
    spec = EventSpec("doudizhu", "free", Format.SCHEDULED, 300, 1, fee=100,
                     start_at=manager.clock() + 3600)
    eid = await runner.create(GUILD, CHANNEL, spec, MOD)
    uids = list(range(1, 201))
    await asyncio.gather(*(runner.join(GUILD, eid, u, f"P{u}") for u in uids))
    results = await asyncio.gather(
        *(runner.leave(GUILD, eid, u) for u in uids[:100]),
        *(runner.join(GUILD, eid, u, f"P{u}") for u in uids[100:]),
        *(runner.leave(GUILD, eid, u) for u in uids[:100]),
        return_exceptions=True)
    assert results[:100] == [100] * 100  # each withdrawal once
    assert all(isinstance(r, TournamentError) for r in results[100:])  # twice: refused
    event = await runner.store(GUILD).get(eid)
    assert sorted(event.entrants) == uids[100:]
    totals = await manager.wallet_for(GUILD).totals()
    assert totals.held == totals.open_holds == 100 * 100


async def test_scheduled_xuezhan_with_a_no_show_survives_a_restart(
        settings: Settings, db: Database, manager: TableManager) -> None:
    present = 1  # the only person who plays; everyone else is a no-show on the trustee
    runner = TournamentRunner(manager, Watching(), auto=lambda uid: uid != present)
    wallet = manager.wallet_for(GUILD)
    start = manager.clock() + 600
    spec = EventSpec("xuezhan", "free", Format.SCHEDULED, 16, 2, fee=200, start_at=start)
    eid = await runner.create(GUILD, CHANNEL, spec, MOD)
    for uid in range(1, 8):  # seven: the second table gets a bot
        await wallet.ensure_player(uid)
    before = await supply(wallet)
    for uid in range(1, 8):
        await runner.join(GUILD, eid, uid, f"P{uid}")
    assert await runner.tick(start - 1) == []
    assert await runner.tick(start) == [eid]
    await runner.idle()
    event = await runner.store(GUILD).get(eid)
    assert event.status is Status.RUNNING and event.state["round"] == 1
    waiting = [int(t) for t, e in event.state["tables"].items() if not e["done"]]
    assert len(waiting) == 1 and manager.get(waiting[0]).seat_of(present) is not None
    seats = [e["seats"] for e in event.state["tables"].values()]
    assert sorted(len(s) for s in seats) == [4, 4] and sum(s.count(None) for s in seats) == 1
    # the bot restarts in the middle of the round
    await manager.shutdown()
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda _: None)
    seeds = itertools.count(5000)
    again = TableManager(settings, db, Wallet.from_settings(db, settings), notifier,
                         clock=manager.clock, seed_source=lambda: next(seeds))
    notifier.manager = again
    try:
        await again.restore()
        runner = TournamentRunner(again, Watching(), auto=lambda uid: uid != present)
        assert await runner.restore() == [eid]
        # the player who was there hands over to the trustee: the round, then the event, ends
        for _ in range(10):
            table = again.table_of(present)
            if table is None:
                break
            await again.set_trustee(table.id, present, True)
            await runner.idle()
        event = await runner.store(GUILD).get(eid)
        assert event.status is Status.FINISHED
        assert [h["round"] for h in event.state["hands"]] == [1, 1, 2, 2]
        assert await supply(again.wallet_for(GUILD)) == before
    finally:
        await again.shutdown()


class Saved(Watching):
    """After every hand: what a restart would read back, and the round's saved text."""

    def __init__(self, runner_store: Any, db: Database, eid: int) -> None:
        super().__init__()
        self.store, self.db, self.eid = runner_store, db, eid
        self.reread: list[tuple[dict[str, int], dict[str, int]]] = []
        self.texts: list[str] = []

    async def standings_changed(self, event: Any, state: dict[str, Any]) -> None:
        await super().standings_changed(event, state)
        if state.get("final_standings"):
            return
        stored = await self.store.get(self.eid)
        self.reread.append((dict(state["chips"]), dict(stored.state["chips"])))
        self.texts.append(await self.db.read(self._text))

    async def _text(self, conn: Any) -> str:
        row = (await conn.execute("SELECT state FROM tournaments WHERE id = ?",
                                  (self.eid,))).fetchone()
        return str(row[0])


async def test_a_hand_saves_only_what_it_changed_and_a_restart_sees_every_hand(
        db: Database, manager: TableManager) -> None:
    # the speed bug of the first pass: the whole event, every hand so far included, was
    # rewritten after every hand, so a hand at the 300th table cost 300 times the first
    runner = TournamentRunner(manager, auto=lambda uid: True)
    spec = EventSpec("doudizhu", "free", Format.SIT_AND_GO, 9, 3)
    eid = await runner.create(GUILD, CHANNEL, spec, MOD)
    venue = runner.venue = Saved(runner.store(GUILD), db, eid)
    for uid in range(1, 10):
        await runner.join(GUILD, eid, uid, f"P{uid}")
    await runner.idle()
    assert (await runner.store(GUILD).get(eid)).status is Status.FINISHED
    # after every hand, the standings read back from storage are the standings shown
    assert len(venue.reread) >= 7
    for shown, stored in venue.reread:
        assert stored == shown
    # the round's record is written once a round (3 rounds), not once a hand, and holds no hand
    assert len(set(venue.texts)) == 3
    assert all('"hands"' not in text and '"chips"' not in text for text in venue.texts)


async def escapes(manager: TableManager, uid: int) -> int:
    record = await manager.referee.conduct.record(uid, economy=manager.referee.economy(GUILD))
    return record.escapes


async def test_leaving_a_running_event_the_trustee_plays_on_and_the_escape_counts_once(
        manager: TableManager) -> None:
    waiting = {4, 5, 6}  # the second table waits for these three; the first plays out
    runner = TournamentRunner(manager, Watching(), auto=lambda uid: uid not in waiting)
    spec = EventSpec("doudizhu", "free", Format.SIT_AND_GO, 6, 2)
    eid = await runner.create(GUILD, CHANNEL, spec, MOD)
    for uid in range(1, 7):
        await runner.join(GUILD, eid, uid, f"P{uid}")
    await runner.idle()
    assert manager.table_of(1) is None and manager.table_of(4) is not None
    # 1 leaves between hands (their table is over), 4 in the middle of one
    assert await runner.leave(GUILD, eid, 1) is None
    assert await runner.leave(GUILD, eid, 4) is None
    await runner.idle()
    assert await escapes(manager, 1) == 1
    assert await escapes(manager, 4) == 1
    # leaving again records nothing more
    assert await runner.leave(GUILD, eid, 4) is None
    assert await escapes(manager, 4) == 1
    for _ in range(2):  # both rounds: 5 and 6 hand their seats over when seated
        for uid in (5, 6):
            table = manager.table_of(uid)
            if table is not None:
                await manager.set_trustee(table.id, uid, True)
                await runner.idle()
    event = await runner.store(GUILD).get(eid)
    assert event.status is Status.FINISHED
    # 4's hand was played to its end by the trustee; both leavers keep their place in the event
    rounds = {h["round"]: h for h in event.state["hands"] if 4 in [u for u, _ in h["points"]]}
    assert 1 in rounds
    assert sorted(u for g in event.state["final_standings"] for u in g) == list(range(1, 7))
    assert await escapes(manager, 1) == 1 and await escapes(manager, 4) == 1


async def test_elimination_drops_the_lowest_each_round_down_to_the_final_table(
        manager: TableManager) -> None:
    venue = Watching()
    runner = TournamentRunner(manager, venue, auto=lambda uid: True)
    spec = EventSpec("doudizhu", "free", Format.ELIMINATION, 9, 2, fee=100)
    eid = await runner.create(GUILD, CHANNEL, spec, MOD)
    for uid in range(1, 10):
        await runner.join(GUILD, eid, uid, f"P{uid}")
    await runner.idle()
    event = await runner.store(GUILD).get(eid)
    assert event.status is Status.FINISHED
    state = event.state
    seated = {r: sorted(s) for _, r, s in venue.announced}
    # 9 → 6 → 3 (two thirds, whole tables), then the final table plays its 2 hands
    assert [len(seated[r]) for r in sorted(seated)] == [9, 6, 3, 3]
    assert [len(g) for g in state["out"]] == [3, 3]
    chips_after: dict[int, dict[int, int]] = {}
    chips = {u: formats.START_CHIPS for u in range(1, 10)}
    for hand in state["hands"]:
        for uid, points in hand["points"]:
            if uid is not None:
                chips[uid] += points
        chips_after[hand["round"]] = dict(chips)
    for round_no, out in ((1, state["out"][0]), (2, state["out"][1])):
        on = seated[round_no + 1]
        assert not set(out) & set(on)  # the eliminated are never seated again
        standing = chips_after[round_no]
        # the lowest go: nobody out had more chips than anybody who went on
        assert max(standing[u] for u in out) <= min(standing[u] for u in on)
        # at the line, equal chips: the earlier registration goes on (docs/tournaments.md)
        for u in out:
            assert all(standing[v] > standing[u] or v < u for v in on)
    placed = [u for g in state["final_standings"] for u in g]
    assert set(placed[:3]) == set(seated[3])
    assert set(placed[3:6]) == set(state["out"][1]) and set(placed[6:]) == set(state["out"][0])
    payout = venue.ended[0]
    assert sum(payout.prizes.values()) + payout.house == 900
    assert all(payout.prizes[u] == 0 for u in placed[3:])  # 3 prizes, all at the final table
