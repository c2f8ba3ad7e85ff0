"""四人斗地主 (001 《四人斗地主》; GAMES.md §2.7): two decks, patterns, bomb ladder, scoring,
dissolving, the 33-card picker, records and the trustee."""

from __future__ import annotations

import itertools
import random

import pytest
from ddz_support import SPEC
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.base import Setup
from engines.doudizhu import DoudizhuGame, FourGame
from engines.doudizhu.four import LIMITS, beats, bomb_factor, classify, parse, plays
from engines.doudizhu.notation import NRANKS, format_cards
from engines.errors import IllegalActionError, NotationError


def four(seed: int = 1, first: int = 0, **options: object) -> DoudizhuGame:
    game = SPEC["doudizhu_four"].new(
        Setup(seats=4, seed=seed, carry={"first": first}, options=options)
    )
    assert isinstance(game, FourGame)
    return game


def pattern(text: str) -> str | None:
    play = classify(parse(text))
    return None if play is None else play.pattern.name


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("3", "SINGLE"),
        ("BB", "PAIR"),  # two small jokers are a pair (001)
        ("RR", "PAIR"),
        ("BR", None),  # no rocket
        ("333", "TRIO"),
        ("55577", "TRIO_PAIR"),  # 三带二, the seed's example
        ("555RR", "TRIO_PAIR"),
        ("5557", None),  # no 三带一
        ("555666", "PLANE"),
        ("555777", None),  # trios not in sequence
        ("34567", "STRAIGHT"),
        ("TJQKA2", None),  # never a 2 in a sequence
        ("334455", "PAIR_STRAIGHT"),
        ("555666777+99JJKK", "PLANE_PAIRS"),  # the seed's example
        ("555666+99JJ", "PLANE_PAIRS"),
        ("555666+9J", None),  # wings are pairs only
        ("555666+99", None),
        ("555666+9999", None),  # two wings of one rank
        ("3333+56", None),  # no 四带二
        ("3333+5566", None),
        ("3333", "BOMB"),
        ("66666", "BOMB"),  # the seed's examples
        ("999999", "BOMB"),
        ("22222222", "BOMB"),
        ("BBRR", "KING_BOMB"),  # 天王炸弹
        ("BRR", None),
    ],
)
def test_patterns(cards: str, name: str | None) -> None:
    assert pattern(cards) == name


@pytest.mark.parametrize(
    ("play", "previous", "wins"),
    [
        ("33333", "2222", True),  # more cards beat
        ("333333", "22222", True),
        ("44444", "33333", True),
        ("33333", "44444", False),
        ("2222", "55577", True),
        ("BBRR", "22222222", True),
        ("22222222", "BBRR", False),
        ("RR", "BB", True),
        ("BB", "22", True),
        ("66677", "55599", True),  # 三带二 by the trio
        ("666777+3344", "555666+QQKK", True),
        ("666777+3344", "55577", False),
    ],
)
def test_ranking(play: str, previous: str, wins: bool) -> None:
    a, b = classify(parse(play)), classify(parse(previous))
    assert a is not None and b is not None
    assert beats(a, b) is wins


@pytest.mark.parametrize(
    ("bomb", "factor"),
    [("3333", 1), ("33333", 1), ("333333", 2), ("3333333", 2), ("33333333", 3), ("BBRR", 3)],
)
def test_bomb_factors(bomb: str, factor: int) -> None:
    play = classify(parse(bomb))
    assert play is not None and bomb_factor(play) == factor


def test_two_decks_in_notation() -> None:
    assert format_cards(parse("3 3 3 3 3 3 3 3 BJ BJ RJ")) == "33333333BBR"
    with pytest.raises(NotationError):
        parse("333333333")  # nine 3s: two decks hold eight
    with pytest.raises(NotationError):
        parse("BBB")


def brute_force(hand: tuple[int, ...], previous: str | None) -> set[str]:
    """Every sub-multiset of the hand that reads as a pattern (and beats ``previous``)."""
    prev = None if previous is None else classify(parse(previous))
    out = set()
    for pick in itertools.product(*(range(c + 1) for c in hand)):
        play = classify(pick)
        if play is not None and (prev is None or beats(play, prev)):
            out.add(play.text)
    return out


DECK = [r for r in range(NRANKS) for _ in range(LIMITS[r])]


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(4, 14))
def test_generator_against_brute_force(rnd: random.Random, n: int) -> None:
    hand = [0] * NRANKS
    for r in rnd.sample(DECK, n):
        hand[r] += 1
    leads = [p.text for p in plays(tuple(hand))]
    assert len(leads) == len(set(leads))
    assert set(leads) == brute_force(tuple(hand), None)
    other = [0] * NRANKS
    for r in rnd.sample(DECK, 16):
        other[r] += 1
    previous = rnd.choice(plays(tuple(other))).text
    follows = [p.text for p in plays(tuple(hand), classify(parse(previous)))]
    assert set(follows) == brute_force(tuple(hand), previous)


def rig4(game: DoudizhuGame, landlord_hand: str, kitty: str) -> None:
    """Seat 0 gets ``landlord_hand`` (25), the kitty is ``kitty`` (8); the rest is dealt."""
    mine, kit = parse(landlord_hand), parse(kitty)
    rest = [LIMITS[r] - mine[r] - kit[r] for r in range(NRANKS)]
    cards = [r for r in range(NRANKS) for _ in range(rest[r])]
    hands = [list(mine)]
    for s in range(3):
        h = [0] * NRANKS
        for r in cards[s::3]:
            h[r] += 1
        hands.append(h)
    assert [sum(h) for h in hands] == [25] * 4 and sum(kit) == 8
    game.hands = hands
    game.dealt = [[r for r in range(NRANKS) for _ in range(h[r])] for h in hands]
    game.kitty = kit
    game.kitty_cards = tuple(r for r in range(NRANKS) for _ in range(kit[r]))


def test_worked_hand_bomb_ladder_spring_landlord_three_times() -> None:
    game = four(seed=3)
    rig4(game, "33333333444444BBRR5555599", "66677888")
    game.apply(0, "bid 3")
    assert game.landlord == 0 and game.phase() == "play" and sum(game.hands[0]) == 33
    assert next(t for t in game.view(1).lines if t.key == "ddz.line.kitty").args == {
        "cards": "66677888"
    }  # the others see the kitty
    for play in ("33333333", "444444", "BBRR", "55555", "66677", "88899"):
        game.apply(0, play)
        for farmer in (1, 2, 3):
            if not game.is_over():
                game.apply(farmer, "pass")
    assert game.is_over() and game.spring() == "spring"
    # 8-card bomb ×3, 6-card ×2, 天王 ×3, 5-card ×1, 春天 ×2 = 36; 底分 = the bid 3.
    assert game.multiplier() == 36
    assert game.outcome().points == (324, -108, -108, -108)


def test_patterns_of_the_classic_game_are_refused() -> None:
    game = four(seed=3)
    rig4(game, "33333333444444BBRR5555599", "66677888")
    game.apply(0, "bid 3")
    before = game.snapshot()
    for text in ("BR", "5559", "4444+55", "3333+59"):
        with pytest.raises(IllegalActionError):
            game.apply(0, text)
    assert game.snapshot() == before


def test_three_deals_without_a_landlord_dissolve() -> None:
    game = four(seed=8)
    for deal in range(3):
        assert game.deal_no == deal
        for _ in range(4):
            game.apply(game.to_act()[0], "nobid")
    assert game.is_over() and game.void
    assert game.outcome().points == (0, 0, 0, 0)


def test_picker_holds_every_card_in_menus_of_at_most_25() -> None:
    game = four(seed=3)
    rig4(game, "33333333444444BBRR5555599", "66677888")
    game.apply(0, "bid 3")
    picker = game.picker(0)
    assert picker is not None and len(picker.tokens) == 33 == len(set(picker.tokens))
    menus = picker.menus()
    assert len(menus) == 2 and all(b - a <= 25 for a, b in menus)
    assert parse(picker.action(list(picker.tokens))) == tuple(game.hands[0])
    bomb = [t for t in picker.tokens if t[0] == "3"]
    assert game.apply(0, picker.action(bomb)) == "33333333"


def test_trustee_self_play_is_legal_and_records_replay() -> None:
    rng = random.Random(6)
    for seed in range(20):
        game = four(seed, first=seed % 4)
        while not game.is_over():
            seat = game.to_act()[0]
            if rng.random() < 0.02:
                game.escape(seat)
            action = (
                game.trustee(seat) if rng.random() < 0.7 else rng.choice(game.legal_actions(seat))
            )
            assert action in game.legal_actions(seat)
            game.apply(seat, action)
        out = game.outcome()
        assert sum(out.points) == 0
        again = SPEC["doudizhu_four"].from_record(game.to_record())
        assert again.snapshot() == game.snapshot() and again.outcome() == out


def test_views_hide_the_other_hands() -> None:
    game = four(seed=2)
    while not game.is_over():
        for viewer in range(4):
            view = game.view(viewer)
            assert view.hand == format_cards(tuple(game.hands[viewer]))
            for s, sv in enumerate(view.seats):
                assert sv.cards is None or s == viewer
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
