"""engines/cards.py: the suited 52-card notation."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines.cards as cards_module
from engines.cards import (
    ECHO,
    MAX_AMOUNT,
    RANKS,
    Card,
    Suit,
    deck,
    format_cards,
    parse_amount,
    parse_cards,
    parse_ranks,
    shuffled,
    sort_cards,
)
from engines.errors import NotationError

ALL = deck()


def test_doctests() -> None:
    assert doctest.testmod(cards_module).failed == 0


def test_deck_is_52_distinct_cards() -> None:
    assert len(ALL) == 52 == len(set(ALL))
    assert {c.rank for c in ALL} == set(range(1, 14))
    assert str(ALL[0]) == "Ks" and str(ALL[-1]) == "Ad"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As", "As"),
        ("as", "As"),
        ("AS", "As"),
        ("10h", "Th"),
        ("0h", "Th"),
        ("1c", "Ac"),
        ("td", "Td"),
        ("♠A", "As"),
        ("A♠", "As"),
        ("♡q", "Qh"),
        ("黑桃A", "As"),
        ("红桃10", "Th"),
        ("梅花K", "Kc"),
        ("方片2", "2d"),
        ("2方块", "2d"),
    ],
)
def test_parse_one_card_aliases(text: str, expected: str) -> None:
    assert str(Card.parse(text)) == expected


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("As Td 9h", "Td 9h As"),
        ("AsTd9h", "Td 9h As"),
        ("as, td, 9H", "Td 9h As"),
        ("10s 10h 10c 10d", "Ts Th Tc Td"),
        ("2d 2c 2h 2s", "2s 2h 2c 2d"),
        ("Kd+Qs|Jh/5c", "Kd Qs Jh 5c"),
        ("", ""),
    ],
)
def test_parse_many_and_format_canonical(text: str, canonical: str) -> None:
    assert format_cards(parse_cards(text)) == canonical


def test_parse_keeps_typed_order() -> None:
    assert [str(c) for c in parse_cards("3d Ks 7h")] == ["3d", "Ks", "7h"]


@pytest.mark.parametrize(
    "text",
    ["Xs", "A", "Ax", "As As", "♠", "11s", "A s"],
)
def test_bad_cards_raise_notation_error(text: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_cards(text)
    assert text in str(err.value) or repr(text) in str(err.value)


def test_duplicates_allowed_when_asked() -> None:
    assert len(parse_cards("As As", unique=False)) == 2


def test_card_parse_needs_exactly_one() -> None:
    with pytest.raises(NotationError):
        Card.parse("As Kd")
    with pytest.raises(NotationError):
        Card.parse("")


def test_card_rank_bounds() -> None:
    with pytest.raises(ValueError):
        Card(0, Suit.SPADES)
    with pytest.raises(ValueError):
        Card(14, Suit.SPADES)


def test_suit_strength_spades_hearts_clubs_diamonds() -> None:
    assert [s.value for s in sorted(Suit, key=lambda s: -s.strength)] == list("shcd")


def test_parse_ranks() -> None:
    assert parse_ranks("KQ5") == (13, 12, 5)
    assert parse_ranks("10 j a") == (10, 11, 1)
    assert parse_ranks("T0") == (10, 10)
    with pytest.raises(NotationError):
        parse_ranks("KX")


def test_shuffled_is_deterministic_and_complete() -> None:
    a, b = shuffled(random.Random(7)), shuffled(random.Random(7))
    assert a == b and sorted(map(str, a)) == sorted(map(str, ALL))
    assert shuffled(random.Random(8)) != a


card_sets = st.lists(st.sampled_from(ALL), unique=True, max_size=13)


@settings(max_examples=150, deadline=None)
@given(card_sets)
def test_parse_format_round_trip(cards: list[Card]) -> None:
    canonical = tuple(sort_cards(cards))
    assert parse_cards(format_cards(cards)) == canonical
    assert parse_cards(format_cards(canonical)) == canonical
    assert parse_cards(format_cards(cards, "")) == canonical


@settings(max_examples=100, deadline=None)
@given(card_sets, st.randoms(use_true_random=False))
def test_forgiving_spellings_parse_the_same(cards: list[Card], rnd: random.Random) -> None:
    parts = []
    for c in cards:
        rank = "10" if c.rank == 10 and rnd.random() < 0.5 else RANKS[c.rank - 1]
        token = rank + c.suit.value
        token = token.upper() if rnd.random() < 0.3 else token.lower()
        parts.append(token)
    text = "".join(p + rnd.choice(["", " ", ", ", "  "]) for p in parts)
    assert parse_cards(text) == tuple(cards)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(ALL))
def test_single_card_round_trip(card: Card) -> None:
    assert Card.parse(str(card)) == card


@pytest.mark.parametrize(
    ("digits", "value"),
    [("0", 0), ("1,000", 1000), ("2_500", 2500), ("007", 7), ("1" + "0" * 12, MAX_AMOUNT)],
)
def test_amounts_read_up_to_the_bound(digits: str, value: int) -> None:
    assert parse_amount(digits, "bet " + digits) == value


@pytest.mark.parametrize(
    "digits", ["1" + "0" * 12 + "1", "9" * 13, "9" * 5000, "0" * 5000 + "1", "1," * 20 + "0"]
)
def test_amounts_past_the_bound_are_notation_errors_that_echo_little(digits: str) -> None:
    # int() itself refuses more than 4,300 digits with a plain ValueError; the bound comes first.
    with pytest.raises(NotationError) as info:
        parse_amount(digits, "bet " + digits)
    assert info.value.text is not None and info.value.text.key == "err.cards.amount"
    assert len(info.value.typed) <= ECHO and len(str(info.value)) < 160
    assert info.value.text.args["max"] == "1,000,000,000,000"
