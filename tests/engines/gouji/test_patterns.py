"""够级 plays: the texts' 贴钱/挂花 illustrations, the 够级牌 thresholds, comparison, and brute-force
references for comparison, the play generator and 烧牌 eligibility under Hypothesis."""

from __future__ import annotations

import random
from functools import cache
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.climbing.notation import BIG, NRANKS, RANKS, SMALL, TWO, parse_cards
from engines.gouji.patterns import (
    beats,
    burnable,
    burns_any,
    can_finish_burning,
    is_gouji,
    plays,
    read,
)


def p(text: str):
    play = read(parse_cards(text, 4))
    assert play is not None, text
    return play


@pytest.mark.parametrize("text, main, n, jokers, big", [
    ("22333", "3", 5, 0, True),        # 22333 算作 33333
    ("266", "6", 3, 0, True),          # 266 算作 666
    ("BB888", "8", 5, 2, False),       # 2 小花带 3 个八
    ("RR 222 9999", "9", 9, 2, True),  # 2 个大花带 7 个 9
    ("RR222", "2", 5, 2, True),        # 2 个大花带 3 个二
    ("R B 22 5555", "5", 8, 2, False),  # 1 大花 + 1 小花 + 2 个 2 + 4 个五 = 2 小花带 6 个五
])
def test_the_texts_money_and_flower_illustrations(text, main, n, jokers, big) -> None:
    play = p(text)
    assert (RANKS[play.main], play.n, play.jokers, play.big) == (main, n, jokers, big)


def test_only_plays_of_one_rank() -> None:
    for bad in ("34", "3344", "B34"):
        assert read(parse_cards(bad, 4)) is None
    assert p("33").n == 2 and p("55555").n == 5 and p("8888888").n == 7  # 一手牌


def test_comparison_illustrations() -> None:
    # 2 个钱 + 3 个八 = 5 个八 < 5 个九
    assert beats(p("99999"), p("22888")) and not beats(p("22888"), p("99999"))
    # 挂花 must be beaten in both respects: 2 大花带 3 个 9, or 3 个花带 2 个 9
    assert beats(p("RR999"), p("BB888")) and beats(p("RRR99"), p("BB888"))
    assert not beats(p("BB999"), p("RR888"))   # fewer-ranked flowers
    assert not beats(p("RR888"), p("BB999"))   # lower rank
    assert not beats(p("RR8888"), p("BB888"))  # only the same number of cards compare
    assert beats(p("R"), p("B")) and beats(p("B"), p("2")) and beats(p("2"), p("A"))


def test_new_gouji_big_flower_is_the_largest() -> None:
    assert not beats(p("RRR99"), p("RR888"), big_flower_top=True)
    assert beats(p("RRR99"), p("RR888"), big_flower_top=False)


@pytest.mark.parametrize("text, gouji", [
    ("2", True), ("B", True), ("R", True), ("AA", True), ("A", False), ("KK", True),
    ("K", False), ("QQQ", True), ("QQ", False), ("JJJJ", True), ("JJJ", False),
    ("TTTTT", True), ("TTTT", False), ("22TTT", True), ("2TTT", False), ("B9", True),
    ("999999", False),
])
def test_gouji_thresholds(text: str, gouji: bool) -> None:
    # 1 张花及 2, 2 张 A, 2 张 K, 3 张 Q, 4 张 J, 5 张 10; 挂花 always; 贴钱 as converted
    assert is_gouji(p(text)) is gouji


# --- brute-force references --------------------------------------------------------------------
def ref_value(cards: tuple[int, ...]):
    """(n, main, jokers, all big) from the texts, computed from the cards directly."""
    n = sum(cards)
    jokers = cards[SMALL] + cards[BIG]
    ranks = {r for r in range(TWO) if cards[r]}
    if len(ranks) > 1 or n == 0:
        return None
    if ranks:
        main = ranks.pop()
    elif cards[TWO]:
        main = TWO
    else:
        main = BIG if cards[SMALL] == 0 else SMALL
    return n, main, jokers, cards[SMALL] == 0


def ref_beats(a, b, top: bool) -> bool:
    na, ma, ja, ba = a
    nb, mb, jb, bb = b
    if na != nb:
        return False
    b_big_flower = jb > 0 and mb <= TWO and bb
    if top and b_big_flower:
        return False
    # "两个方面都大过": the flowers no weaker (more, or as many and as big) and the rank higher
    flowers_ok = jb == 0 or ja > jb or (ja == jb and (ba or not bb))
    return flowers_ok and ma > mb


plays_text = st.lists(st.sampled_from([0, 3, 5, 8, 11, 12, 12, 13, 14]), min_size=1,
                      max_size=7).map(lambda xs: tuple(xs.count(r) for r in range(NRANKS)))


@settings(max_examples=500, deadline=None)
@given(plays_text, plays_text, st.booleans())
def test_comparison_matches_the_reference(a, b, top) -> None:
    ra, rb = read(a), read(b)
    assert (ra is None) == (ref_value(a) is None) and (rb is None) == (ref_value(b) is None)
    if ra is not None and rb is not None:
        assert beats(ra, rb, top) == ref_beats(ref_value(a), ref_value(b), top)


def subsets(hand):
    for pick in product(*(range(c + 1) for c in hand)):
        if any(pick):
            yield tuple(pick)


small_hands = st.lists(st.sampled_from([0, 1, 5, 11, 12, 13, 14]), min_size=1,
                       max_size=8).map(lambda xs: tuple(xs.count(r) for r in range(NRANKS)))


@settings(max_examples=150, deadline=None)
@given(small_hands, st.one_of(st.none(), plays_text), st.booleans())
def test_the_play_generator_matches_every_sub_hand(hand, top_cards, beisan) -> None:
    top = None if top_cards is None else read(top_cards)
    if top_cards is not None and top is None:
        return
    expected = set()
    for cards in subsets(hand):
        v = ref_value(cards)
        if v is None:
            continue
        if beisan and cards[0] and (cards != hand or cards[TWO] or cards[SMALL] or cards[BIG]):
            continue
        if top is None or ref_beats(v, ref_value(top_cards), True):
            expected.add(cards)
    got = [c for c, _ in plays(hand, top, beisan, True)]
    assert len(got) == len(set(got)) and set(got) == expected


@cache
def ref_can_burn_out(hand: tuple[int, ...], beisan: bool) -> bool:
    """Search every sequence of leads: each carries a 花 or empties the hand (烧牌)."""
    if not any(hand):
        return True
    for cards, play in plays(hand, None, beisan, True):
        rest = tuple(h - c for h, c in zip(hand, cards))
        if (play.jokers or not any(rest)) and ref_can_burn_out(rest, beisan):
            return True
    return False


@settings(max_examples=300, deadline=None)
@given(small_hands, st.booleans())
def test_burn_condition_matches_a_search_of_every_lead_sequence(hand, beisan) -> None:
    assert can_finish_burning(hand, beisan) == ref_can_burn_out(hand, beisan)


@settings(max_examples=150, deadline=None)
@given(small_hands, plays_text)
def test_burn_eligibility_matches_the_reference(hand, top_cards) -> None:
    top = read(top_cards)
    if top is None:
        return
    expected = set()
    for cards in subsets(hand):
        v = ref_value(cards)
        if v is None or not ref_beats(v, ref_value(top_cards), True):
            continue
        rest = tuple(h - c for h, c in zip(hand, cards))
        if ref_can_burn_out(rest, False):
            expected.add(cards)
    assert set(burnable(hand, top, False, True)) == expected


def test_burns_any_agrees_with_burnable() -> None:
    """``burns_any`` (asked of every other seat after each 够级牌, with a quick refusal for hands
    too short of 花) answers what ``burnable`` lists, on random hands and tops, 憋3 or not."""
    rng = random.Random(27)
    deck = [r for r in range(NRANKS) for _ in range(4 if r < SMALL else 2)] * 2
    burning = 0
    for _ in range(3000):
        cards = rng.sample(deck, rng.randrange(1, 20))
        hand = tuple(cards.count(r) for r in range(NRANKS))
        top_cards = rng.sample(deck, rng.randrange(1, 5))
        top = read(tuple(top_cards.count(r) for r in range(NRANKS)))
        if top is None:
            continue
        for beisan in (False, True):
            expected = bool(burnable(hand, top, beisan, True))
            assert burns_any(hand, top, beisan, True) == expected, (hand, top, beisan)
            burning += expected
    assert burning > 50, "the sample holds hands that can burn"
