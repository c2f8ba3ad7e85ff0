"""Properties of seeded trustee self-play, checked after every action: tiles are conserved
through every claim, kong and replacement; no seat's view shows another's concealed tiles; a
claim window's public view is the same whoever could claim; every trustee action is legal;
timeouts and private epochs behave; records replay; payments balance and respect the cap."""

from __future__ import annotations

import copy
import random
from collections import Counter

import pytest
from mj_support import selfplay

from engines.base import Setup, T, View
from engines.mahjong import SPECS, MahjongGame
from engines.mahjong.game import Claim
from bot.host.model import private_digest

SPEC = {s.key: s for s in SPECS}
DINGQUE = {"dingque": True}
CASES = [
    (key, seed, {})
    for key in ("xuezhan", "sichuan", "shaanxi", "wuhan", "yongzhou")
    for seed in range(10)
] + [(key, seed, DINGQUE) for key in ("xuezhan", "sichuan") for seed in range(6)]
"""Each key with its default rules; 四川 and 血战 also with the room option 定缺."""


def check_census(game: MahjongGame) -> None:
    """Every tile of the set exactly once: four of each kind in play (108 or 136)."""
    census = game.census()
    assert sum(census.values()) == 4 * game.KINDS and set(census.values()) == {4}
    assert set(census) == set(range(game.KINDS))


def check_views(game: MahjongGame) -> None:
    public = game.view(None)
    standing = set(game.standing())
    for viewer in range(4):
        view = game.view(viewer)
        assert view.hand == game.hand_text(viewer)
        for s in range(4):
            if s == viewer:
                continue
            # Another seat's picture is exactly the public one; concealed tiles never show.
            assert view.seats[s] == public.seats[s]
            if s in standing and not game.is_over():
                assert view.seats[s].cards is None
        extra = [line for line in view.lines if line not in public.lines]
        assert all(line.key == "mj.line.claim_you" for line in extra)
        assert bool(extra) == (game.phase() == "claim" and viewer in game.to_act())
    assert View.from_json(public.to_json()) == public


def check_window_privacy(game: MahjongGame) -> None:
    claim = game.claim
    assert claim is not None
    assert game.public_to_act() == ()
    assert game.view(None).phase == T("base.window.private", phase=T("mj.phase.claims"))
    for s, options in claim.options.items():
        assert any(o != "pass" for o in options), (s, options)  # nothing to claim: never asked
        assert game.timeout_action(s).action == "pass" and not game.timeout_action(s).miss
    # Counterfactual: the same window with other claimants shows the public the same table.
    other = copy.deepcopy(game)
    seats = [s for s in game.standing() if s != claim.source and s not in claim.options]
    other.claim = Claim(
        claim.kind,
        claim.tile,
        claim.source,
        {s: ["peng", "pass"] for s in seats} or {claim.source: ["pass"]},
        {},
        claim.after_kong,
    )
    assert other.view(None) == game.view(None)


@pytest.mark.parametrize(("key", "seed", "options"), CASES)
def test_trustee_self_play_keeps_every_invariant(
    key: str, seed: int, options: dict[str, bool]
) -> None:
    escaper = random.Random(seed).choice([None, 0, 1, 2, 3])
    windows = 0
    last: MahjongGame | None = None
    for step, (game, seat, action) in enumerate(selfplay(key, seed, options)):
        last = game
        check_census(game)
        assert action in game.legal_actions(seat), (action, game.legal_actions(seat))
        check_views(game)
        if game.phase() == "claim":
            windows += 1
            check_window_privacy(game)
        elif game.phase() == "paozi":
            # 炮子 left unstaked keep last hand's value: the trustee's choice, no miss.
            timeout = game.timeout_action(seat)
            assert not timeout.miss and timeout.action == action
        else:
            timeout = game.timeout_action(seat)
            assert timeout.miss and timeout.action == action
            assert game.public_to_act() == game.to_act()
        before = [(sum(game.hands[s]), private_digest(game, s)) for s in range(4)]
        claim_before = game.claim
        window = game.window()
        game.apply(seat, action)
        for s in range(4):
            drew = (
                sum(game.hands[s]) > before[s][0]
                and s != seat
                or (
                    s == seat
                    and game.drawn is not None
                    and game.turn == s
                    and action.startswith("gang")
                )
            )
            asked = (
                game.claim is not None
                and game.claim is not claim_before
                and s in game.claim.options
            )
            if drew or asked:
                assert private_digest(game, s) != before[s][1], (s, action)
        if game.claim is not None and game.claim is claim_before:
            assert game.window() == window  # one window until every claimant has answered
        if escaper is not None and step == 40 and not game.is_over():
            game.escape(escaper)
    assert last is not None and last.is_over()
    out = last.outcome()
    assert sum(out.points) == 0
    if key == "xuezhan":
        paid: Counter[tuple[int, int]] = Counter()
        for t in out.transfers:
            if t.reason is None or t.reason.key != "mj.pay.refund":
                paid[(t.payer, t.payee)] += t.points
        assert max(paid.values(), default=0) <= 24
    replay = SPEC[key].from_record(last.to_record())
    assert replay.to_text() == last.to_text()
    assert replay.outcome() == out and replay.view(None) == last.view(None)


def test_the_sample_really_has_claims_kongs_and_several_wins() -> None:
    kinds: Counter[str] = Counter()
    for key, seed, options in CASES:
        game = None
        for game, _, action in selfplay(key, seed, options):
            kinds[action.split()[0] if action[0].isalpha() else "discard"] += 1
        assert game is not None
        kinds[f"end:{game.ended}"] += 1
        kinds["wins"] += len(game.wins)
    assert kinds["peng"] and kinds["gang"] and kinds["hu"] and kinds["end:wall"]
    assert kinds["wins"] > len(CASES)


@pytest.mark.parametrize(
    ("key", "seed", "options"),
    [(k, s, {}) for k in ("xuezhan", "sichuan", "shaanxi", "wuhan", "yongzhou") for s in range(8)]
    + [(k, s, DINGQUE) for k in ("xuezhan", "sichuan") for s in range(4)],
)
def test_random_legal_play_keeps_the_invariants(
    key: str, seed: int, options: dict[str, bool]
) -> None:
    """Two players choosing at random among the legal actions (keeping their 缺 suit, passing
    wins, 碰 and 杠 at will) against two trustees reach the odd corners: 花猪, 查大叫,
    refunds, 过手."""
    rng = random.Random(seed)
    spec = SPEC[key]
    game = spec.new(Setup(seats=4, seed=100 + seed, options=spec.validate(options)))
    assert isinstance(game, MahjongGame)
    for _ in range(3000):
        if game.is_over():
            break
        seat = rng.choice(game.to_act())
        legal = game.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        trustee = game.trustee(seat)
        assert trustee in legal
        game.apply(seat, trustee if seat % 2 else rng.choice(legal))
        check_census(game)
        check_views(game)
        if game.phase() == "claim":
            check_window_privacy(game)
    assert game.is_over()
    out = game.outcome()
    assert sum(out.points) == 0
    replay = spec.from_record(game.to_record())
    assert replay.outcome() == out and replay.to_text() == game.to_text()
