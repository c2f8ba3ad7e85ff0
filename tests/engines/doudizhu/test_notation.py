"""斗地主 notation: forgiving parser, canonical format, round trips, readable errors."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.doudizhu import format_cards, format_play, legal_plays, parse_cards, parse_play
from engines.doudizhu.notation import RANKS, card_list, is_pass
from engines.errors import IllegalActionError, NotationError

LIMITS = (4,) * 13 + (1, 1)


@pytest.mark.parametrize(
    ("typed", "canonical"),
    [
        ("33344", "33344"),
        ("3 3 3 4 4", "33344"),
        ("44333", "33344"),
        ("10JQKA", "TJQKA"),
        ("10 j q k a", "TJQKA"),
        ("0JQKA", "TJQKA"),
        ("tjqka", "TJQKA"),
        ("BR", "BR"),
        ("rb", "BR"),
        ("BJRJ", "BR"),
        ("bj rj", "BR"),
        ("小王大王", "BR"),
        ("大王小王", "BR"),
        ("王炸", "BR"),
        ("火箭", "BR"),
        ("333+6", "3336"),
        ("444+99", "44499"),
        ("5555＋3＋8", "355558"),
        ("7788991010JJ", "778899TTJJ"),
        ("3s3h3c4d4s", "33344"),
        ("2,2,小王", "22B"),
        ("A 2 B R", "A2BR"),
    ],
)
def test_parser_forgives(typed: str, canonical: str) -> None:
    assert format_cards(parse_cards(typed)) == canonical


@pytest.mark.parametrize("word", ["pass", "PASS", " p ", "不出", "要不起", "过", "不要"])
def test_pass_spellings(word: str) -> None:
    assert is_pass(word)
    assert parse_play(word) is None
    assert format_play(None) == "pass"


@pytest.mark.parametrize(
    ("typed", "fragment"),
    [
        ("", "no cards"),
        ("   ", "no cards"),
        ("1", "'1' is not a card"),
        ("33X", "'X' is not a card"),
        ("3 4 ?", "'?' is not a card"),
        ("33333", "5× 3"),
        ("BB", "joker"),
        ("小王小王", "joker"),
        ("2222 2", "5× 2"),
    ],
)
def test_parser_errors_say_what_is_wrong(typed: str, fragment: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_cards(typed)
    assert fragment in str(err.value)
    assert err.value.typed == typed


def test_not_a_pattern_is_an_illegal_action_naming_the_cards() -> None:
    with pytest.raises(IllegalActionError) as err:
        parse_play("5 4 3 3")
    assert "3345" in str(err.value)
    assert "pattern" in str(err.value)


counts_strategy = st.tuples(*[st.integers(0, limit) for limit in LIMITS]).filter(any)


@settings(max_examples=200, deadline=None)
@given(counts_strategy)
def test_round_trip_cards(counts: tuple[int, ...]) -> None:
    text = format_cards(counts)
    assert parse_cards(text) == counts
    assert list(text) == sorted(text, key=RANKS.index)  # canonical = sorted low to high


@settings(max_examples=200, deadline=None)
@given(counts_strategy, st.randoms(use_true_random=False))
def test_any_spelling_parses_to_the_same_cards(counts: tuple[int, ...], rnd: random.Random) -> None:
    spellings = {
        "T": ["T", "t", "10", "0"],
        "B": ["B", "b", "BJ", "小王"],
        "R": ["R", "r", "RJ", "大王"],
    }
    cards = card_list(counts)
    rnd.shuffle(cards)
    # One card per word: "BJ" is the small joker, so a joker and a J are typed apart.
    typed = " ".join(rnd.choice(spellings.get(c, [c, c.lower()])) for c in cards)
    assert parse_cards(typed) == counts


@settings(max_examples=150, deadline=None)
@given(counts_strategy, st.randoms(use_true_random=False))
def test_round_trip_plays(counts: tuple[int, ...], rnd: random.Random) -> None:
    plays = legal_plays(format_cards(counts))
    text = rnd.choice(plays)
    play = parse_play(text)
    assert play is not None
    assert format_play(play) == text
    assert parse_play(format_play(play)) == play
