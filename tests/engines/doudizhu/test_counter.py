"""记牌器 (card counter) in every 斗地主 variant: the ranks still out as a seat may know them,
only in its own view, as the room option ``counter`` says."""

from __future__ import annotations

import random

import pytest
from ddz_support import SPEC

from engines.base import Game, Setup
from engines.doudizhu import SPECS
from engines.doudizhu.counter import counter_text
from engines.doudizhu.notation import NRANKS, RANKS
from engines.errors import OptionError

KEYS = [s.key for s in SPECS]


def start(key: str, seed: int, coefficient: int = 0, **options: object) -> Game:
    spec = SPEC[key]
    return spec.new(Setup(seats=spec.min_seats, seed=seed, options=spec.validate(options),
                          coefficient=coefficient))


def read(counter: str) -> list[int]:
    """The counts of a 记牌器 row, in notation order."""
    counts = [0] * NRANKS
    for item in counter.split():
        rank, _, n = item.partition("×")
        counts[RANKS.index(rank)] = int(n)
    return counts


def unseen(game: Game, seat: int, undealt: list[int]) -> list[int]:
    """What ``seat`` cannot see: the other hands, the kitty while nobody holds it, the cards
    dealt to nobody (二人斗地主's 11)."""
    hands: list[list[int]] = game.hands  # type: ignore[attr-defined]
    kitty = getattr(game, "kitty", (0,) * NRANKS)
    taken = getattr(game, "kitty_taken", True)
    return [
        sum(hands[s][r] for s in range(len(hands)) if s != seat)
        + (0 if taken else kitty[r]) + undealt[r]
        for r in range(NRANKS)
    ]


@pytest.mark.parametrize("key", KEYS)
def test_counter_is_what_the_seat_cannot_see_all_hand_long(key: str) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(4):
        game = start(key, seed)
        decks = 2 if key in ("doudizhu_four", "doudizhu_five") else 1
        whole = [4 * decks] * 13 + [decks, decks]
        deal = -1
        while not game.is_over():
            if getattr(game, "deal_no", 0) != deal:  # a redeal deals new hands
                deal = getattr(game, "deal_no", 0)
                hands: list[list[int]] = game.hands  # type: ignore[attr-defined]
                kitty = getattr(game, "kitty", (0,) * NRANKS)
                held = [sum(h[r] for h in hands) for r in range(NRANKS)]
                taken = getattr(game, "kitty_taken", True)
                undealt = [whole[r] - held[r] - (0 if taken else kitty[r]) for r in range(NRANKS)]
            assert game.view(None).counter is None  # never in the public view
            for seat in range(game.setup.seats):
                view = game.view(seat)
                if view.hand is None:
                    assert view.counter is None  # 麻辣 before looking: it would tell the hand
                    continue
                assert view.counter is not None
                assert read(view.counter) == unseen(game, seat, undealt)
                checked += 1
            seat = game.to_act()[rng.randrange(len(game.to_act()))]
            game.apply(seat, game.trustee(seat))
        assert all(game.view(s).counter is None for s in range(game.setup.seats))
    assert checked > 50


@pytest.mark.parametrize("key", ["doudizhu_four", "doudizhu_five"])
def test_two_decks_count_up_to_eight(key: str) -> None:
    game = start(key, 1)
    seat = next(s for s in range(game.setup.seats) if game.view(s).hand)
    counts = read(game.view(seat).counter or "")
    mine = game.hands[seat]  # type: ignore[attr-defined]
    assert sum(counts) + sum(mine) == 108
    assert max(counts[:13]) > 4 and max(counts[13:]) <= 2
    assert all(counts[r] + mine[r] == 8 for r in range(13)) or key == "doudizhu_four"


def test_counter_row_lists_every_rank_from_the_big_joker() -> None:
    game = start("doudizhu", 3)
    counter = game.view(0).counter or ""
    assert [item.partition("×")[0] for item in counter.split()] == list(reversed(RANKS))
    mine = game.hands[0]  # type: ignore[attr-defined]
    assert counter == counter_text([4 - mine[r] for r in range(13)]
                                   + [1 - mine[13], 1 - mine[14]])


@pytest.mark.parametrize("key", KEYS)
def test_room_option_counter(key: str) -> None:
    seat = 0 if key != "doudizhu_mala" else None
    # auto (the default): on in a free room, off in a bean room; on / off as the room says
    assert SPEC[key].options["counter"] == "auto"
    for coefficient, options, shown in [
        (0, {}, True), (50, {}, False), (50, {"counter": "on"}, True),
        (0, {"counter": "off"}, False),
    ]:
        game = start(key, 2, coefficient, **options)
        if seat is None:  # 麻辣: the holder of the 明牌 card looks; then every seat sees
            game.apply(game.to_act()[0], "look")
        views = [game.view(s) for s in range(game.setup.seats)]
        assert any(v.counter for v in views) == shown, (coefficient, options)
        assert game.view(None).counter is None


@pytest.mark.parametrize("value", ["yes", True, 1, ""])
def test_bad_counter_option_is_refused_naming_it(value: object) -> None:
    for key in KEYS:
        with pytest.raises(OptionError) as err:
            SPEC[key].validate({"counter": value})
        assert err.value.key == "counter"
