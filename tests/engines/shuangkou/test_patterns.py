"""百变双扣 patterns: the seed's illustrations, the star ladder, comparison, and a brute-force
reference for readings, comparison and the play generator under Hypothesis."""

from __future__ import annotations

from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.climbing.notation import BIG, NRANKS, SMALL, format_cards, parse_cards
from engines.errors import NotationError
from engines.shuangkou.patterns import Kind, Pattern, beats, best_stars, play_text, plays, readings


def read(text: str) -> Pattern:
    options = readings(parse_cards(text, 2))
    assert len(options) == 1, (text, options)
    return options[0]


def test_sk_e1_six_of_a_kind_is_a_six_star_bomb() -> None:
    # SK-E1: "6666 66 为 6 相炸弹等同于 6 星级"
    p = read("666666")
    assert (p.kind, p.stars) == (Kind.BOMB, 6)


def test_sk_e3_three_four_five_bombs_form_a_three_chain() -> None:
    # SK-E3: "3333 44444 555555 也可以当三连炸出牌"; X 相 Y 连 with X the smallest bomb
    p = read("3333 44444 555555")
    assert (p.kind, p.n, p.stars) == (Kind.CHAIN, 15, 4 + 3)
    assert readings(parse_cards("3333 4444", 2)) == ()  # at least three bombs


@pytest.mark.parametrize("text, kind", [
    ("7", Kind.SINGLE), ("R", Kind.SINGLE), ("B", Kind.SINGLE), ("22", Kind.PAIR),
    ("RR", Kind.PAIR), ("KKK", Kind.TRIPLE), ("34567", Kind.STRAIGHT),
    ("TJQKA", Kind.STRAIGHT), ("556677", Kind.PAIRS), ("555666777", Kind.TRIPLES),
    ("66666", Kind.BOMB), ("BBRR", Kind.FOUR_KINGS), ("BBR", Kind.THREE_KINGS),
])
def test_the_seed_s_patterns(text: str, kind: Kind) -> None:
    assert read(text).kind is kind


@pytest.mark.parametrize("text", [
    "JQKA2",      # 2 never in a 顺子
    "3456",       # five or more
    "5566",       # 连对 needs three pairs
    "QQKKAA22",   # 2 never in a 连对
    "555666",     # 连三张 needs three triples
    "34567B",     # 小王 never in a 顺子
    "33B",        # 小王 joins no rank
    "3335",       # no 三带一 in 双扣
    "AAAA 2222 3333",  # no wrap-around 连炸
])
def test_not_patterns(text: str) -> None:
    assert readings(parse_cards(text, 2)) == ()


def test_the_big_joker_is_wild_only_when_combined() -> None:
    # "大王单张出的时候，还是算大王"
    assert read("R").top == BIG and read("RR").top == BIG
    assert read("5R").rep[2] == 2 and play_text(parse_cards("5R", 2), read("5R")) == "5R=55"
    assert read("4444R").stars == 5
    assert read("55667R").kind is Kind.PAIRS
    assert {format_cards(p.rep + (0, 0)) for p in readings(parse_cards("45678R", 2))} == {
        "345678", "456789"}


@pytest.mark.parametrize("text, stars", [
    ("BBR", 6), ("BBRR", 7), ("4444", 4), ("666666", 6), ("88888888", 8),
    ("3333 4444 5555", 7), ("3333 4444 5555 6666", 8), ("3333 4444 5555 6666 7777", 9),
    ("3333 4444 5555 6666 7777 8888", 10),
    ("33333 44444 55555", 8), ("33333 44444 55555 66666", 9),
    ("33333 44444 55555 66666 77777", 10),
    ("333333 444444 555555", 9), ("333333 444444 555555 666666", 10),
    ("3333333 4444444 5555555", 10), ("33333333 44444444 55555555", 11),
])
def test_the_star_ladder(text: str, stars: int) -> None:
    assert read(text).stars == stars


def test_bombs_compare_by_stars_then_fewer_cards_then_rank() -> None:
    assert beats(read("4444"), read("AAA")) and beats(read("4444"), read("TJQKA"))
    assert beats(read("33333"), read("AAAA"))                       # more stars
    assert beats(read("3333333"), read("3333 4444 5555"))           # 7★: fewer cards
    assert beats(read("BBRR"), read("AAAAAAA"))                      # 天王: the largest 7★
    assert not beats(read("BBRR"), read("3333 4444 5555 6666"))     # 8★ beats it
    assert beats(read("333333"), read("BRR"))                        # 三王: the smallest 6★
    assert beats(read("BRR"), read("AAAAA"))
    assert beats(read("666666"), read("555555")) and not beats(read("555555"), read("666666"))
    assert not beats(read("6666"), read("6666"))


def test_other_patterns_need_the_same_kind_and_count() -> None:
    assert beats(read("45678"), read("34567"))
    assert not beats(read("456789"), read("34567"))
    assert not beats(read("88"), read("7"))
    assert beats(read("RR"), read("22")) and beats(read("BB"), read("22"))
    assert beats(read("R"), read("B")) and beats(read("B"), read("2"))


def test_stars_held() -> None:
    assert best_stars(parse_cards("666666 RR 3", 2)) == 8
    assert best_stars(parse_cards("3333 444 5555 R", 2)) == 7
    assert best_stars(parse_cards("3333 444 5555 RR", 2)) == 7  # 4/5/5 or 5/4/5: X = 4
    assert best_stars(parse_cards("BBRR", 2)) == 7
    assert best_stars(parse_cards("777", 2)) == 0


def test_notation_forgives_and_refuses() -> None:
    assert parse_cards("10 10 j q#2 大王 3s", 2) == parse_cards("3TTJQR", 2)
    for bad in ("", "3X", "RRR", "333333333"):
        with pytest.raises(NotationError):
            parse_cards(bad, 2)


# --- the brute-force reference ----------------------------------------------------------------
ORDER = "3456789TJQKA2"


def ref_natural(cards: list[int]) -> tuple[str, int, int, int] | None:
    """The definitions of 002 §3 written directly, on a sorted list of natural ranks."""
    n = len(cards)
    ranks = sorted(set(cards))
    counts = [cards.count(r) for r in ranks]
    if len(ranks) == 1:
        if n >= 4:
            return ("bomb", n, ranks[0], n)
        return (("single", "pair", "triple")[n - 1], n, ranks[0], 0)
    if ranks != list(range(ranks[0], ranks[-1] + 1)) or ranks[-1] == 12:
        return None
    if all(c == 1 for c in counts) and n >= 5:
        return ("straight", n, ranks[-1], 0)
    if len(ranks) >= 3 and len(set(counts)) == 1 and counts[0] in (2, 3):
        return ("pairs" if counts[0] == 2 else "triples", n, ranks[-1], 0)
    if len(ranks) >= 3 and min(counts) >= 4:
        return ("chain", n, ranks[-1], min(counts) + len(ranks))
    return None


def ref_readings(cards: tuple[int, ...]) -> set[tuple[str, int, int, int]]:
    nat = [r for r in range(13) for _ in range(cards[r])]
    b, w = cards[SMALL], cards[BIG]
    if not nat:
        n = b + w
        return {1: {("single", 1, BIG if w else SMALL, 0)},
                2: {("pair", 2, BIG if w == 2 else SMALL, 0)},
                3: {("three_kings", 3, BIG, 6)}, 4: {("four_kings", 4, BIG, 7)}}.get(n, set())
    if b:
        return set()
    out = set()
    for wild in product(range(13), repeat=w):
        got = ref_natural(sorted(nat + list(wild)))
        if got:
            out.add(got)
    return out


def ref_power(k: tuple[str, int, int, int]) -> tuple[int, int, int] | None:
    kind, n, top, stars = k
    if kind == "four_kings":
        return (7, 0, 0)
    if kind == "three_kings":
        return (6, -99, 0)
    if kind in ("bomb", "chain"):
        return (stars, -n, top)
    return None


def ref_beats(a: tuple[str, int, int, int], b: tuple[str, int, int, int]) -> bool:
    pa, pb = ref_power(a), ref_power(b)
    if pa or pb:
        return pa is not None and (pb is None or pa > pb)
    return a[0] == b[0] and a[1] == b[1] and a[2] > b[2]


def as_ref(p: Pattern) -> tuple[str, int, int, int]:
    return (p.kind.value, p.n, p.top, p.stars)


small_sets = st.lists(st.integers(0, 14), min_size=1, max_size=9).map(
    lambda xs: tuple(min(xs.count(r), 8 if r < 13 else 2) for r in range(NRANKS))).filter(any)
shaped = st.one_of(
    small_sets,
    st.tuples(st.integers(0, 9), st.integers(3, 5), st.integers(1, 3), st.integers(0, 2)).map(
        lambda t: tuple(t[2] if t[0] <= r < t[0] + t[1] else 0 for r in range(13))
        + (0, t[3])),
    st.tuples(st.integers(0, 9), st.lists(st.integers(2, 6), min_size=3, max_size=4),
              st.integers(0, 2)).map(
        lambda t: tuple(t[1][r - t[0]] if t[0] <= r < t[0] + len(t[1]) and r < 12 else 0
                        for r in range(13)) + (0, t[2])),
)


@settings(max_examples=400, deadline=None)
@given(shaped)
def test_readings_match_the_reference(cards: tuple[int, ...]) -> None:
    assert {as_ref(p) for p in readings(cards)} == ref_readings(cards)


@settings(max_examples=400, deadline=None)
@given(shaped, shaped)
def test_comparison_matches_the_reference(a: tuple[int, ...], b: tuple[int, ...]) -> None:
    for pa in readings(a):
        for pb in readings(b):
            assert beats(pa, pb) == ref_beats(as_ref(pa), as_ref(pb))


def sub_multisets(hand: tuple[int, ...]):
    for pick in product(*(range(c + 1) for c in hand)):
        if any(pick):
            yield tuple(pick)


hands = st.lists(st.integers(0, 14), min_size=1, max_size=8).map(
    lambda xs: tuple(min(xs.count(r), 8 if r < 13 else 2) for r in range(NRANKS)))


@settings(max_examples=150, deadline=None)
@given(hands, st.one_of(st.none(), shaped))
def test_the_play_generator_matches_every_sub_hand(hand: tuple[int, ...], led) -> None:
    lead = None
    if led is not None:
        options = readings(led)
        if not options:
            return
        lead = options[-1]
    expected = set()
    for cards in sub_multisets(hand):
        for k in ref_readings(cards):
            if lead is None or ref_beats(k, as_ref(lead)):
                expected.add((cards, k))
    got = [(c, as_ref(p)) for c, p in plays(hand, lead)]
    assert len(got) == len(set(got))
    assert set(got) == expected


bomb_hands = st.lists(st.sampled_from([0, 1, 2, 3, 11, 12, 13, 14]), min_size=4,
                      max_size=22).map(
    lambda xs: tuple(min(xs.count(r), 8 if r < 13 else 2) for r in range(NRANKS)))


@settings(max_examples=150, deadline=None)
@given(bomb_hands)
def test_stars_held_are_the_best_bomb_the_generator_finds(hand: tuple[int, ...]) -> None:
    stars = [p.stars for _, p in plays(hand, None) if p.bomb]
    assert best_stars(hand) == max(stars, default=0)
