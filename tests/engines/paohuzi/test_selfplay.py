"""Seeded self-play: the trustee is always legal and forced actions always happen; tiles are
conserved; records replay; views never show another seat's concealed tiles; timeouts, epochs
and escapes behave."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from engines import registry
from engines.base import Setup, View, net_points
from engines.paohuzi import PaohuziGame
from engines.paohuzi.game import CLAIM, DISCARD
from engines.paohuzi.groups import Kind
from engines.paohuzi.scoring import MIN_HUXI
from engines.paohuzi.tiles import full_set, tile_zh
from bot.host.model import private_digest

TILE_CHARS = {tile_zh(t) for t in range(21)}

SPEC = registry.specs()["paohuzi"]


def check_state(game: PaohuziGame) -> None:
    assert game.census() == full_set()
    for s in range(3):
        hand = game.hands[s]
        # 提/倾 are forced: four alike never stay concealed
        assert all(n < 4 for n in hand[:20]), (s, hand)
        for g in game.groups[s]:
            if g.kind in (Kind.WEI, Kind.CHOU_WEI):
                # drawing the fourth of a 偎 is a forced 倾: no copy can sit beside it in hand
                assert hand[g.tiles[0]] == 0
        assert len(game.rivers[s]) + sum(hand) >= 0


def _public_kinds(game: PaohuziGame) -> set[str]:
    """Tile characters the table may know: rivers, open groups (not a face-down 偎), the tile
    on offer."""
    known = {tile_zh(t) for river in game.rivers for t in river}
    for groups in game.groups:
        known |= {tile_zh(t) for g in groups if g.kind is not Kind.WEI for t in g.tiles}
    if game.claim is not None:
        known.add(tile_zh(game.claim.tile))
    return known


def check_views(game: PaohuziGame) -> None:
    if not game.is_over():
        # whatever the public view names is public: no text carries a concealed tile
        shown = json.dumps(game.view(None).to_json(), ensure_ascii=False)
        named = {ch for ch in shown if ch in TILE_CHARS}
        assert named <= _public_kinds(game), named - _public_kinds(game)
    for viewer in (None, 0, 1, 2):
        view = game.view(viewer)
        assert View.from_json(view.to_json()) == view
        for s, seat in enumerate(view.seats):
            if s != viewer and not game.is_over():
                assert seat.cards is None
                for g in game.groups[s]:
                    if g.kind is Kind.WEI:
                        assert "[▢▢▢]" in (seat.melds or "")
        assert (view.hand is None) == (viewer is None)


def self_play(
    seed: int,
    chooser: Callable[[PaohuziGame, int, random.Random], str],
    options: dict[str, int] | None = None,
) -> PaohuziGame:
    rng = random.Random(seed)
    game = SPEC.new(Setup(seats=3, seed=seed, options=SPEC.validate(options or {})))
    assert isinstance(game, PaohuziGame)
    steps = 0
    while not game.is_over():
        seat = rng.choice(game.to_act())
        legal = game.legal_actions(seat)
        action = chooser(game, seat, rng)
        assert action in legal, (action, legal)
        before = [private_digest(game, s) for s in range(len(game.hands))]
        before_claim = game.claim
        assert game.apply(seat, action) == action
        check_state(game)
        if game.claim is not None and game.claim is not before_claim:
            for s in game.claim.options:  # a seat offered a claim gets its DM refreshed
                assert private_digest(game, s) != before[s]
        steps += 1
        assert steps < 1000
    return game


def trustee(game: PaohuziGame, seat: int, rng: random.Random) -> str:
    return game.trustee(seat)


def random_legal(game: PaohuziGame, seat: int, rng: random.Random) -> str:
    return rng.choice(game.legal_actions(seat))


@pytest.mark.parametrize("chooser", [trustee, random_legal], ids=["trustee", "random"])
def test_seeded_self_play(chooser: Callable[[PaohuziGame, int, random.Random], str]) -> None:
    wins = 0
    for seed in range(40):
        game = self_play(seed, chooser, {"di": seed % 2})
        check_views(game)
        outcome = game.outcome()
        assert outcome.points == net_points(3, outcome.transfers)
        assert sum(outcome.points) == 0
        if game.win is not None:
            wins += 1
            assert game.win.huxi >= MIN_HUXI and 0 <= game.shen() <= 6
            loser_pay = {t.points for t in outcome.transfers}
            assert loser_pay == {game.zi() * game.win.fan.total}
            assert outcome.winners == (game.win.seat,)
        else:
            assert game.stock_left() == 0  # 荒庄
        replay = PaohuziGame.from_record(game.to_record())
        assert replay.to_record() == game.to_record()
        assert replay.outcome() == outcome
        assert [replay.view(v) for v in (None, 0, 1, 2)] == [game.view(v) for v in (None, 0, 1, 2)]
    assert wins > 0


def test_views_during_play_never_show_another_seat_s_tiles() -> None:
    for seed in range(8):
        rng = random.Random(seed)
        game = PaohuziGame(Setup(seats=3, seed=seed))
        while not game.is_over():
            check_views(game)
            seat = rng.choice(game.to_act())
            game.apply(seat, rng.choice(game.legal_actions(seat)))


def test_timeouts_pass_claims_without_a_miss_and_play_turns_with_a_miss() -> None:
    seen = set()
    for seed in range(10):
        game = PaohuziGame(Setup(seats=3, seed=seed))
        while not game.is_over():
            seat = game.to_act()[0]
            timeout = game.timeout_action(seat)
            assert timeout.action in game.legal_actions(seat)
            if game.phase() == CLAIM:
                assert timeout.action == "pass" and not timeout.miss
                assert game.public_to_act() == ()
                seen.add(CLAIM)
            elif game.must_discard:
                assert timeout.miss and timeout.action == game.trustee(seat)
                assert game.public_to_act() == (seat,)
                seen.add(DISCARD)
            window = game.window()
            others = [s for s in game.to_act() if s != seat]
            game.apply(seat, timeout.action)
            if others and game.phase() == CLAIM and set(others) <= set(game.to_act()):
                assert game.window() == window  # one deadline for the whole window
    assert seen == {CLAIM, DISCARD}


def test_an_escaped_seat_is_played_out_and_never_collects() -> None:
    for seed in range(30):
        game = PaohuziGame(Setup(seats=3, seed=seed))
        game.escape(1)
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        outcome = game.outcome()
        assert all(t.payee != 1 for t in outcome.transfers)
        assert game.view(None).seats[1].status is not None
        assert PaohuziGame.from_record(game.to_record()).outcome() == outcome
