"""牌型: bull hand evaluation, ordering, tie-breaks and splits (GAMES.md §3.0)."""

from __future__ import annotations

import doctest
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines.niuniu.hands as hands_module
from engines.cards import Card, deck, parse_cards
from engines.errors import IllegalActionError, NotationError
from engines.niuniu.hands import (
    Hand,
    Kind,
    Split,
    best_hand,
    best_split,
    bull_splits,
    evaluate,
    special,
    splits,
    value,
)


def H(text: str) -> tuple[Card, ...]:
    return parse_cards(text)


def test_doctests() -> None:
    assert doctest.testmod(hands_module).failed == 0


def test_card_values() -> None:
    assert [value(c) for c in H("As 2s 9s Ts Js Qs Ks")] == [1, 2, 9, 10, 10, 10, 10]


# One hand per kind, in increasing order (each evaluated by its best split).
LADDER = [
    ("Ks Qd 8h 6c 3d", Kind.NO_BULL),  # no three sum to tens
    ("Ks Qd Th 7c 4d", Kind.BULL_1),  # KQT + 7+4 = 11 -> 牛丁
    ("9s As Th 5c 7d", Kind.BULL_2),  # 9+A+T = 20, 5+7 = 12
    ("8s 2s Th 9c 4d", Kind.BULL_3),
    ("7s 3s Kh Ac 3d", Kind.BULL_4),
    ("6s 4s Kh 2c 3d", Kind.BULL_5),
    ("5s 5h Kh 4c 2d", Kind.BULL_6),
    ("4s 6h Qh 3c 4d", Kind.BULL_7),
    ("3s 7h Jh 4c 4d", Kind.BULL_8),
    ("2s 8h Jc 5c 4h", Kind.BULL_9),
    ("As 9h Jc 5c 5h", Kind.BULL_BULL),  # 5+5 = 10 -> 牛牛
    ("7s 7h 7c 7d 2h", Kind.FOUR_BOMB),
    ("Ks Qh Jc Jd Qs", Kind.FIVE_FLOWER),
]


@pytest.mark.parametrize(("text", "kind"), LADDER)
def test_each_kind(text: str, kind: Kind) -> None:
    assert best_hand(H(text)).kind == kind


def test_kqj_plus_a2_is_bull_3() -> None:
    assert best_hand(H("Ks Qd Jh Ac 2d")).kind == Kind.BULL_3


def test_order_of_kinds() -> None:
    names = [k.name for k in sorted(Kind)]
    assert names == ["NO_BULL"] + [f"BULL_{i}" for i in range(1, 10)] + [
        "BULL_BULL",
        "FOUR_BOMB",
        "FIVE_FLOWER",
    ]


def test_every_kind_beats_every_lower_kind() -> None:
    hands = [best_hand(H(t)) for t, _ in LADDER]
    assert [h.kind for h in hands] == sorted(Kind)
    for i, low in enumerate(hands):
        for high in hands[i + 1 :]:
            assert high.beats(low) and not low.beats(high)


def test_bull_ding_is_bull_one() -> None:
    # 002 lists 牛丁 and 牛一 separately; they are one rank (GAMES.md FLAG).
    assert best_hand(H("Ks Qd Th 7c 4d")).kind == Kind.BULL_1 == 1


@pytest.mark.parametrize(
    ("text", "kind"),
    [
        ("Ks Qd Jh Tc Td", Kind.BULL_BULL),
        ("Ks Qd Jh 5c 5d", Kind.BULL_BULL),
        ("Ts Td 5h 5c Kd", Kind.BULL_BULL),
        ("9s As 5h 5c Kd", Kind.BULL_BULL),
    ],
)
def test_two_cards_summing_to_ten_or_twenty_are_bull_bull(text: str, kind: Kind) -> None:
    assert best_hand(H(text)).kind == kind


def test_three_summing_to_thirty_counts() -> None:
    s = Split.parse("split KQJ", H("Ks Qd Jh 4c 3d"))
    assert s.is_bull and s.bull == Kind.BULL_7


def test_no_bull_both_highest_card_then_suit() -> None:
    a = best_hand(H("Ks Qd 8h 6c 3d"))
    b = best_hand(H("Qs Jd 8c 6h 3s"))
    assert a.kind == b.kind == Kind.NO_BULL
    assert a.beats(b) and not b.beats(a)  # K > Q
    c = best_hand(H("Kh Jc 8s 6d 3c"))
    assert c.kind == Kind.NO_BULL
    assert a.beats(c) and not c.beats(a)  # same top rank: ♠ > ♥


@pytest.mark.parametrize(
    ("high", "low"),
    [
        ("Ks Qd 8h 6c 3d", "Kh Jc 8s 6d 3c"),
        ("Kh Qh 8d 6s 3h", "Kc Qc 8c 6h 3s"),
        ("Kc Qc 8c 6h 3s", "Kd Qs 8s 6d 3c"),
    ],
)
def test_suit_order_spades_hearts_clubs_diamonds(high: str, low: str) -> None:
    a, b = best_hand(H(high)), best_hand(H(low))
    assert a.kind == b.kind == Kind.NO_BULL and a.beats(b) and not b.beats(a)


def test_equal_bull_values_highest_card_then_suit() -> None:
    # Both 牛五: resolved like 没牛 (GAMES.md §3.0 suggestion).
    a = best_hand(H("Ks 6d 4h 2c 3d"))
    b = best_hand(H("Qs 6s 4s 2h 3c"))
    assert a.kind == b.kind == Kind.BULL_5 and a.beats(b)
    c = best_hand(H("Kh Jd 8c 5s 2h"))
    assert c.kind == Kind.BULL_5
    assert a.beats(c)  # K♠ > K♥
    assert c.beats(b)  # K > Q


def test_two_four_bombs_compare_the_quad() -> None:
    a = best_hand(H("8s 8h 8c 8d 2h"))
    b = best_hand(H("7s 7h 7c 7d Kh"))
    assert a.kind == b.kind == Kind.FOUR_BOMB
    assert a.quad == 8 and a.beats(b)  # the K kicker does not matter


def test_two_five_flowers_highest_card_then_suit() -> None:
    a = best_hand(H("Kd Qh Jc Jd Qs"))
    b = best_hand(H("Qd Qc Js Jh Jc"))
    assert a.kind == b.kind == Kind.FIVE_FLOWER and a.beats(b)  # K > Q
    c = best_hand(H("Kc Qc Js Jh Qd"))
    assert c.kind == Kind.FIVE_FLOWER
    assert c.beats(a) and not a.beats(c)  # K♣ > K♦


def test_four_bomb_and_five_flower_counts_as_the_larger() -> None:
    both = best_hand(H("Js Jh Jc Jd Qs"))
    assert both.kind == Kind.FIVE_FLOWER
    assert both.beats(best_hand(H("Ks Kh Kc Kd 9s")))
    assert special(H("Ks Kh Kc Kd Qs")) == Kind.FIVE_FLOWER


def test_ten_is_not_a_flower() -> None:
    assert best_hand(H("Ks Qh Jc Jd Ts")).kind == Kind.BULL_BULL


def test_special_hands_need_no_split() -> None:
    cards = H("7s 7h 7c 7d 2h")
    assert evaluate(cards, None).kind == Kind.FOUR_BOMB
    cards = H("Ks Qh Jc Jd Qs")
    assert evaluate(cards, None).kind == Kind.FIVE_FLOWER


def test_a_split_that_is_not_a_bull_is_no_bull() -> None:
    cards = H("Ks Qd Th 7c 4d")
    wrong = Split.parse("split K74", cards)
    assert not wrong.is_bull
    assert evaluate(cards, wrong).kind == Kind.NO_BULL
    assert evaluate(cards, None).kind == Kind.NO_BULL


def test_multipliers() -> None:
    assert [k.multiplier for k in Kind] == [1] * 8 + [2, 2, 3, 4, 5]


@pytest.mark.parametrize(
    "typed",
    [
        "split KsQdTh 7c3d",
        "split KsQdTh",
        "split KQT",
        "split KQ10",
        "KQT",
        "split k q 10",
        "split T Q K",
        "Ks Qd Th 7c 3d",
        "拼牛 KQT",
        "split KsQdTh|7c3d",
        "splitKQT",
        "split ♠K 方片Q 10h",
    ],
)
def test_split_spellings(typed: str) -> None:
    cards = H("Ks Qd Th 7c 3d")
    s = Split.parse(typed, cards)
    assert str(s) == "split KsQdTh 7c3d"
    assert s.bull == Kind.BULL_BULL


def test_split_by_rank_picks_either_card_of_a_rank() -> None:
    cards = H("Ks Kd 7c 3h 3d")
    s = Split.parse("split K73", cards)
    assert s.is_bull and len(set(s.three) | set(s.two)) == 5


@pytest.mark.parametrize(
    ("typed", "error"),
    [
        ("split", NotationError),
        ("split KQ", NotationError),
        ("split KQ53", NotationError),
        ("split XYZ", NotationError),
        ("split KsKsQd", NotationError),
        ("split AsQdTh", IllegalActionError),
        ("split AQT", IllegalActionError),
        ("split KKQ", IllegalActionError),
    ],
)
def test_invalid_splits(typed: str, error: type[Exception]) -> None:
    with pytest.raises(error):
        Split.parse(typed, H("Ks Qd Th 7c 3d"))


def test_splits_enumeration() -> None:
    cards = H("Ks Qd 7c 5h 3d")
    all_splits = splits(cards)
    assert len(all_splits) == 10 == len({str(s) for s in all_splits})
    assert [str(s) for s in bull_splits(cards)] == ["split Ks7c3d Qd5h", "split Qd7c3d Ks5h"]


def test_best_split_none_without_bull() -> None:
    assert best_split(H("Ks Qd 8h 6c 3d")) is None


hands = st.lists(st.sampled_from(deck()), min_size=5, max_size=5, unique=True)


@settings(max_examples=300, deadline=None)
@given(hands)
def test_best_split_is_the_maximum_over_all_splits(cards: list[Card]) -> None:
    brute = max(evaluate(cards, Split.of(cards, three)).key for three in combinations(cards, 3))
    assert best_hand(cards).key == brute
    kind = best_hand(cards).kind
    if kind <= Kind.BULL_BULL:
        # Every bull split of a hand leaves the same remainder: the total mod 10.
        has_bull = any(sum(value(c) for c in t) % 10 == 0 for t in combinations(cards, 3))
        total = sum(value(c) for c in cards) % 10
        expected = Kind.NO_BULL if not has_bull else Kind(total or 10)
        assert kind == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(deck()), min_size=10, max_size=10, unique=True))
def test_two_hands_never_tie(cards: list[Card]) -> None:
    a, b = best_hand(cards[:5]), best_hand(cards[5:])
    assert a.beats(b) != b.beats(a)


def test_hand_key_uses_high_card_for_non_bombs() -> None:
    h = Hand(Kind.BULL_3, Card.parse("Kh"))
    assert h.key == (3, 13, 2)
