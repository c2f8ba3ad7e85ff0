"""The host drives the game interface's newer parts: one deadline per decision window, timeout
actions that are not misses, private hands re-sent when their epoch changes (and their DM
edited), pairwise transfers itemized with the hand's code, and one wallet per economy."""

from __future__ import annotations

import itertools
import json
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from bot.host.model import PLAYING, WAITING, Table
from bot.host.tables import HandResult, TableManager, TransferLine
from bot.settings import Settings
from bot.terminal import TerminalNotifier
from engines.base import T
from storage import history
from storage.db import Database
from storage.wallet import Wallet
from tests.host.claimgame import FEE, SPEC
from tests.host.waiting import until

CH, GUILD = 900, 77


class Recorder(TerminalNotifier):
    """The terminal notifier, keeping what a platform would send; it keeps each DM's id the
    way the Discord layer does (``save_dm`` from inside ``hand_dealt``)."""

    def __init__(self) -> None:
        super().__init__(uid=1, locale="en-US", out=lambda _: None)
        self.dealt: list[tuple[int, int, int | None]] = []  # (seat, hand size, DM edited)
        self.results: list[HandResult] = []
        self.ids = itertools.count(5000)

    async def hand_dealt(self, table: Table, seat: int) -> None:
        assert table.game is not None
        editing = table.dms.get(str(seat))
        self.dealt.append((seat, len(table.game.view(seat).hand or ""), editing))
        if editing is None:
            assert self.manager is not None
            await self.manager.save_dm(table, seat, next(self.ids))

    async def hand_settled(self, table: Table, result: HandResult) -> None:
        self.results.append(result)
        await super().hand_settled(table, result)


class Clock:
    def __init__(self) -> None:
        self.now = 1_000.0

    def __call__(self) -> float:
        return self.now


def with_claims(settings: Settings, **timers: int) -> Settings:
    novice = settings.rooms["novice"]
    rooms = {**settings.rooms, "novice": replace(novice, games=(*novice.games, SPEC.key))}
    return replace(
        settings, rooms=rooms, timers={**settings.timers, "discard": 30, "claim": 30, **timers}
    )


@pytest.fixture
async def claims(settings: Settings, db: Database) -> AsyncIterator[TableManager]:
    notifier = Recorder()
    manager = TableManager(
        with_claims(settings),
        db,
        Wallet.from_settings(db, settings),
        notifier,
        clock=Clock(),
        seed_source=itertools.count(1).__next__,
    )
    manager.specs[SPEC.key] = SPEC
    notifier.manager = manager
    yield manager
    await manager.shutdown()


async def seat_three(manager: TableManager, guild: int = GUILD, channel: int = CH) -> Table:
    await manager.create(guild, channel, SPEC.key, "novice", 1, "ann")
    await manager.join(channel, 2, "bob")
    await manager.join(channel, 3, "cat")
    return await manager.start(channel, 1)


async def test_an_answer_in_a_claim_window_does_not_restart_the_other_seats_clock(
    claims: TableManager,
) -> None:
    table = await seat_three(claims)
    await claims.act(CH, 1, "discard")  # the window for seats 1 and 2 opens
    opened = table.deadline
    assert opened == claims.clock() + 30
    claims.clock.now += 12  # type: ignore[attr-defined]
    await claims.act(CH, 2, "pass")
    assert table.game is not None and table.game.to_act() == (2,)
    assert table.deadline == opened, "cat still has 18 seconds, not 30"
    await claims.act(CH, 3, "pass")
    assert table.deadline == claims.clock() + 30, "a new window, a new deadline"


async def test_an_ignored_claim_times_out_to_pass_without_a_miss(
    claims: TableManager,
) -> None:
    claims.settings = with_claims(claims.settings, claim=1, discard=1)
    table = await seat_three(claims)
    await claims.act(CH, 1, "discard")
    await claims.act(CH, 2, "claim")
    # cat never answers the window (1 s); then bob never discards (1 s more)
    await until(lambda: table.game is not None and len(table.game.log) >= 4)
    assert table.game is not None
    assert [a for s, a in table.game.log[:4]] == ["discard", "claim", "pass", "discard"]
    assert table.seats[2].misses == 0, "an ignored optional claim is no miss"
    assert table.seats[1].misses == 1, "a discard not made in time is a miss"


async def test_a_private_hand_is_redrawn_whenever_what_it_shows_changes_and_only_then(
    claims: TableManager,
) -> None:
    notifier = claims.notifier
    assert isinstance(notifier, Recorder)
    table = await seat_three(claims)
    assert notifier.dealt == [(0, 1, None), (1, 1, None), (2, 1, None)]
    dms = dict(table.dms)
    assert sorted(dms) == ["0", "1", "2"]
    notifier.dealt.clear()
    await claims.act(CH, 1, "discard")
    # ann's DM no longer offers the discard she made; bob's and cat's now offer a claim
    assert notifier.dealt == [(0, 1, dms["0"]), (1, 1, dms["1"]), (2, 1, dms["2"])]
    notifier.dealt.clear()
    await claims.act(CH, 2, "pass")
    assert notifier.dealt == [(1, 1, dms["1"])], "only bob's DM changed: he answered"
    notifier.dealt.clear()
    ann = table.sent["0"]
    await claims.act(CH, 3, "claim")
    # cat drew the claimed tile; bob drew his turn's tile: each DM is edited once; ann's
    # (waiting, the same tile) is left alone
    assert notifier.dealt == [(1, 2, dms["1"]), (2, 2, dms["2"])]
    assert table.sent["0"] == ann and len(set(table.sent.values())) == 3


async def test_a_timeout_redraws_the_private_hand_it_answered(claims: TableManager) -> None:
    claims.settings = with_claims(claims.settings, claim=1, discard=60)
    notifier = claims.notifier
    assert isinstance(notifier, Recorder)
    table = await seat_three(claims)
    await claims.act(CH, 1, "discard")
    await claims.act(CH, 2, "pass")
    notifier.dealt.clear()
    # cat never answers her claim (1 s): the timer passes for her and her DM stops offering it
    await until(lambda: table.game is not None and len(table.game.log) >= 3)
    assert (2, 1, table.dms["2"]) in notifier.dealt


async def test_dm_ids_survive_a_restart_and_clear_at_the_next_hand(
    claims: TableManager,
    settings: Settings,
    db: Database,
) -> None:
    table = await seat_three(claims)
    dms, sent = dict(table.dms), dict(table.sent)
    await claims.shutdown()
    notifier = Recorder()
    again = TableManager(claims.settings, db, claims.wallet, notifier, clock=claims.clock)
    again.specs[SPEC.key] = SPEC
    notifier.manager = again
    await again.restore()
    resumed = again.get(CH)
    assert resumed.dms == dms and resumed.sent == sent
    for uid in (1, 3, 2, 2, 1, 3, 3, 2, 1):  # three rounds: discard, pass, pass
        await again.act(CH, uid, again.hint(CH, uid))
    assert resumed.status == WAITING
    notifier.dealt.clear()
    await again.start(CH, 1)
    assert notifier.dealt == [(0, 1, None), (1, 1, None), (2, 1, None)], "new hand, new DMs"
    await again.shutdown()


async def test_pairwise_payments_are_itemized_with_the_hands_code(
    claims: TableManager,
) -> None:
    wallet = claims.wallet_for(GUILD)
    table = await seat_three(claims)
    before = [(await wallet.account(u)).balance for u in (1, 2, 3)]
    hand_id = table.hand_id
    assert hand_id is not None
    # ann discards: bob and cat claim; bob discards: ann claims; cat discards: nobody claims
    for uid, action in [
        (1, "discard"),
        (2, "claim"),
        (3, "claim"),
        (2, "discard"),
        (1, "claim"),
        (3, "pass"),
        (3, "discard"),
        (1, "pass"),
        (2, "pass"),
    ]:
        await claims.act(CH, uid, action)
    assert table.status == WAITING
    room = claims.settings.rooms["novice"]
    n = room.coefficient
    result = claims.notifier.results[-1]  # type: ignore[attr-defined]
    assert result.transfers == (
        TransferLine(0, 1, 1, n, T("note.claimed")),
        TransferLine(0, 2, 1, n, T("note.claimed")),
        TransferLine(1, 0, 1, n, T("note.claimed")),
    )
    assert result.code == await history.hand_code(claims.db, hand_id)
    saved = table.last_result
    assert saved is not None and saved["code"] == result.code
    assert [(t["payer"], t["payee"], t["beans"]) for t in saved["transfers"]] == [
        (0, 1, n),
        (0, 2, n),
        (1, 0, n),
    ]
    after = [(await wallet.account(u)).balance for u in (1, 2, 3)]
    # each claim also cost its claimer FEE beans at the house (Outcome.fees, like a prop)
    assert [a - b for a, b in zip(after, before, strict=True)] == [
        -n - room.rake - FEE,
        -room.rake - FEE,
        n - room.rake - FEE,
    ]
    assert any(r.reason == "hand:fee" and r.delta == -FEE for r in await wallet.ledger(1, 10))
    hand = await history.get_hand(claims.db, hand_id)
    assert hand is not None and json.loads(hand.outcome)["transfers"][0]["payer"] == 0


async def test_each_server_plays_in_its_own_economy(
    claims: TableManager,
) -> None:
    await seat_three(claims, guild=GUILD, channel=CH)
    for uid, action in [(1, "discard"), (2, "claim"), (3, "pass")] + [
        (2, "discard"),
        (1, "pass"),
        (3, "pass"),
        (3, "discard"),
        (1, "pass"),
        (2, "pass"),
    ]:
        await claims.act(CH, uid, action)
    here, there = claims.wallet_for(GUILD), claims.wallet_for(GUILD + 1)
    grant = claims.settings.starting_grant
    assert (await here.account(2)).balance != grant
    await there.ensure_player(2)
    assert (await there.account(2)).balance == grant, "another server's beans are untouched"
    claims.settings = replace(claims.settings, wallet_scope="global")
    assert claims.wallet_for(GUILD).economy == claims.wallet_for(GUILD + 1).economy == 0


async def test_a_room_coefficient_reaches_the_game(claims: TableManager) -> None:
    table = await seat_three(claims)
    assert table.status == PLAYING and table.game is not None
    assert table.game.setup.coefficient == claims.settings.rooms["novice"].coefficient


async def test_a_restart_inside_a_claim_window_keeps_its_deadline(
    claims: TableManager,
    db: Database,
) -> None:
    table = await seat_three(claims)
    await claims.act(CH, 1, "discard")
    opened = table.deadline
    claims.clock.now += 10  # type: ignore[attr-defined]
    await claims.act(CH, 2, "claim")
    await claims.shutdown()
    notifier = Recorder()
    again = TableManager(claims.settings, db, claims.wallet, notifier, clock=claims.clock)
    again.specs[SPEC.key] = SPEC
    notifier.manager = again
    await again.restore()
    resumed = again.get(CH)
    assert resumed.game is not None and resumed.game.to_act() == (2,)
    assert resumed.game.public_to_act() == (), "the window stays private"
    assert resumed.deadline == opened, "the window's deadline is not restarted by a restart"
    await again.act(CH, 3, "pass")
    assert resumed.game.log[-3:] == [(0, "discard"), (1, "claim"), (2, "pass")]
    await again.shutdown()
