"""engines/cards.py: the shared card model (jokers, shoes of several decks, the deal) and
the suited notation."""

from __future__ import annotations

import doctest
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import engines.cards as cards_module
from engines.cards import (
    BIG_JOKER,
    CLIMB_RANKS,
    ECHO,
    MAX_AMOUNT,
    RANKS,
    SMALL_JOKER,
    TRICK_IDS,
    Card,
    Layout,
    Shoe,
    Suit,
    climb_counts,
    climb_index,
    deal,
    deck,
    format_cards,
    from_trick_id,
    parse_amount,
    parse_cards,
    parse_ranks,
    read_joker,
    shuffled,
    sort_cards,
    trick_id,
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


# --- the shared model: jokers, shoes of several decks, layouts, the deal ------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [("B", "B"), ("b", "B"), ("BJ", "B"), ("bj", "B"), ("小王", "B"), ("R", "R"),
     ("rj", "R"), ("大王", "R"), ("小王大王", "R B"), ("rj 2s bj", "R B 2s")],
)  # fmt: skip
def test_jokers_read_in_every_spelling(text: str, expected: str) -> None:
    assert format_cards(parse_cards(text, jokers=True)) == expected


def test_jokers_are_refused_where_the_game_has_none() -> None:
    # 斗牛 and 吃火锅 play 52 cards: "B" stays an unknown rank there, as it always was.
    with pytest.raises(NotationError) as info:
        parse_cards("B As")
    assert info.value.text is not None and info.value.text.key == "err.cards.not_rank"
    with pytest.raises(NotationError):
        parse_cards("B B", jokers=True)


def test_read_joker_is_the_one_reader() -> None:
    assert read_joker("3bj", 1) == (SMALL_JOKER, 3)
    assert read_joker("Rs", 0) == (BIG_JOKER, 1)
    assert read_joker("大王", 0) == (BIG_JOKER, 2)
    assert read_joker("K", 0) is None and read_joker("王", 0) is None


def test_jokers_are_cards_without_a_suit_above_the_king() -> None:
    small, big = Card(SMALL_JOKER), Card(BIG_JOKER)
    assert (str(small), str(big)) == ("B", "R") and small.is_joker and not ALL[0].is_joker
    assert sort_cards([Card.parse("Ks"), small, big]) == [big, small, Card.parse("Ks")]
    with pytest.raises(ValueError):
        Card(SMALL_JOKER, Suit.HEARTS)
    with pytest.raises(ValueError):
        Card(5)  # a suited rank needs its suit
    assert Card.parse("大王", jokers=True) == big


def test_copies_of_one_face_are_distinct_cards_with_one_notation() -> None:
    first, second = Card(1, Suit.SPADES), Card(1, Suit.SPADES, 1)
    assert first != second and str(first) == str(second) == "As"
    assert second.face == first and len({first, second}) == 2
    assert repr(second) == "Card(rank=1, suit=<Suit.SPADES: 's'>, copy=1)"


@pytest.mark.parametrize(("decks", "jokers", "size"), [(1, False, 52), (1, True, 54),
                                                       (2, True, 108), (3, True, 162),
                                                       (4, True, 216)])  # fmt: skip
def test_a_shoe_holds_every_physical_card_once(decks: int, jokers: bool, size: int) -> None:
    shoe = Shoe(decks, jokers)
    cards = deck(decks, jokers)
    assert shoe.size == size == len(cards) == len(set(cards))
    assert sum(shoe.climb_limits) == sum(shoe.trick_limits) == size
    assert all(shoe.copies(c) == decks for c in cards)
    assert shoe.copies(Card(BIG_JOKER)) == (decks if jokers else 0)


def test_rank_limits_come_from_the_shoe() -> None:
    # "4 per rank" was one deck's; two decks hold 8, 够级's four decks 16 and 4 of each joker.
    assert Shoe(1, True).climb_limits == (4,) * 13 + (1, 1)
    assert Shoe(2, True).climb_limits == (8,) * 13 + (2, 2)
    assert Shoe(4, True).climb_limits == (16,) * 13 + (4, 4)
    assert Shoe(2).climb_limits[CLIMB_RANKS.index("B")] == 0
    for bad in (0, 9, True):
        with pytest.raises(ValueError):
            Shoe(bad)


def test_one_deck_without_jokers_keeps_the_52_card_order() -> None:
    before = sorted(
        (Card(rank, suit) for rank in range(1, 14) for suit in Suit),
        key=lambda c: (c.rank, c.suit.strength if c.suit else 0),
        reverse=True,
    )
    assert deck() == before == list(Shoe().cards(Layout.FACES))
    assert [str(c) for c in deck(2, True)[:3]] == ["R", "R", "B"]


def test_family_forms_of_every_face() -> None:
    faces = deck(1, True)
    assert sorted(trick_id(c) for c in faces) == list(range(TRICK_IDS))
    assert all(from_trick_id(trick_id(c)) == c for c in faces)
    assert from_trick_id(5, copy=2) == Card(7, Suit.SPADES, 2)
    assert climb_counts(faces) == Shoe(1, True).climb_limits
    assert (
        "".join(CLIMB_RANKS[climb_index(c)] for c in parse_cards("3s Td As 2h B R", jokers=True))
        == "3TA2BR"
    )
    with pytest.raises(ValueError):
        from_trick_id(54)


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_layouts_are_the_families_historical_orders(decks: int) -> None:
    # The shuffle moves positions only, so these orders are what keeps old seeds dealing the
    # same cards: each is written here as the family's code wrote its deck before the model.
    def laid(layout: Layout) -> list[Card]:
        cards = list(Shoe(decks, True).cards(layout))
        assert sorted(cards, key=Layout.FACES.key) == deck(decks, True)
        return cards

    ddz = [r for r in range(13) for _ in range(4 * decks)] + [13, 14] * decks
    assert [climb_index(c) for c in laid(Layout.RANKS_THEN_JOKERS)] == ddz
    shengji = list(range(54)) * decks
    assert [trick_id(c) for c in laid(Layout.DECK_BY_DECK)] == shengji
    climbing = [(r, s % 4) for r in range(15) for s in range(4 * decks if r < 13 else decks)]
    by_rank = laid(Layout.RANK_DECK_SUIT)
    assert [(climb_index(c), c.suit.index if c.suit else c.copy % 4) for c in by_rank] == climbing
    five = [(r, s, d) for r in range(13) for s in range(4) for d in range(decks)]
    five += [(j, 0, d) for j in (13, 14) for d in range(decks)]
    assert [
        (climb_index(c), c.suit.index if c.suit else 0, c.copy) for c in laid(Layout.RANK_SUIT_DECK)
    ] == five


def test_deal_in_turn_in_blocks_and_with_cards_removed() -> None:
    shoe = Shoe(1, True)
    turn = deal(random.Random(9), shoe, Layout.RANKS_THEN_JOKERS, 3, 17)
    blocks = deal(random.Random(9), shoe, Layout.RANKS_THEN_JOKERS, 3, 17, in_turn=False)
    order = shuffled(random.Random(9), shoe, Layout.RANKS_THEN_JOKERS)
    assert turn.hands[1] == tuple(order[1:51:3]) and blocks.hands[1] == tuple(order[17:34])
    assert turn.kitty == blocks.kitty == tuple(order[51:])
    two = deal(random.Random(9), shoe, Layout.RANKS_THEN_JOKERS, 2, 20, removed=11)
    assert two.removed == tuple(order[:11]) and two.hands[0][0] == order[11]
    assert (
        len(two.kitty) == 3 and len({*two.removed, *two.hands[0], *two.hands[1], *two.kitty}) == 54
    )
    assert deal(random.Random(9), shoe, Layout.FACES, 3, 17) == deal(
        random.Random(9), shoe, Layout.FACES, 3, 17
    )
    with pytest.raises(ValueError):
        deal(random.Random(9), shoe, Layout.FACES, 4, 14)


def test_two_deck_doudizhu_reads_eight_of_a_rank() -> None:
    from engines.doudizhu.notation import format_cards as ddz_format
    from engines.doudizhu.notation import parse_cards as ddz_parse

    assert ddz_format(ddz_parse("33333333 bj BJ rj", decks=2)) == "33333333BBR"
    with pytest.raises(NotationError) as info:
        ddz_parse("333333333", decks=2)
    assert info.value.text is not None and info.value.text.args["limit"] == 8
    with pytest.raises(NotationError):
        ddz_parse("33333")  # one deck: four of a rank


def test_four_player_doudizhu_knows_eight_threes_are_cards_played_later() -> None:
    from engines import registry
    from engines.base import Setup
    from engines.errors import IllegalActionError

    spec = registry.get("doudizhu_four")
    game = spec.new(Setup(seats=4, seed=3, options=dict(spec.options)))
    seat = game.to_act()[0]
    with pytest.raises(IllegalActionError) as info:
        game.apply(seat, "33333333")
    assert info.value.text is not None and info.value.text.key == "err.ddz.cards_later"


def test_climbing_games_bound_ranks_by_their_decks() -> None:
    from engines.climbing.notation import parse_cards as climb_parse

    assert climb_parse("2" * 16 + "RRRR", decks=4)[12] == 16
    with pytest.raises(NotationError):
        climb_parse("2" * 9, decks=2)
    assert climb_parse("小王 rj", decks=2)[13:] == (1, 1)
