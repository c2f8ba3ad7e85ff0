"""出牌生成 perft: legal-play counts for fixed hands, checked against an independent brute force.

The reference below does not use the engine's classifier: it matches each subset of the hand
against pattern templates written straight from the rule text (GAMES.md §2.0) and the
decisions of docs/games/doudizhu.md, and asserts that a set of cards fits at most one.
"""

from __future__ import annotations

import functools
import itertools
import random
from collections.abc import Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines.doudizhu import legal_plays
from engines.errors import IllegalActionError, NotationError

ORDER = "3456789TJQKA2BR"
SEQ = ORDER[:12]  # sequences: 3 .. A


def _counts(text: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for c in text:
        out[c] = out.get(c, 0) + 1
    return out


def _text(m: dict[str, int]) -> str:
    return "".join(c * m[c] for c in ORDER if m.get(c))


def _minus(m: dict[str, int], sub: dict[str, int]) -> dict[str, int] | None:
    out = dict(m)
    for c, n in sub.items():
        if out.get(c, 0) < n:
            return None
        out[c] -= n
        if not out[c]:
            del out[c]
    return out


def reference(m: dict[str, int]) -> list[tuple[str, int, int]]:
    """Every (pattern, key index, size) reading of a multiset by template matching.

    Where one pattern fits with several keys the highest is the reading (it beats all the
    others do); only four consecutive trios have two patterns (三顺 / plane with wings)."""
    size = sum(m.values())
    found: dict[str, int] = {}
    ranks = sorted(m, key=ORDER.index)

    def add(name: str, key: str) -> None:
        found[name] = max(found.get(name, -1), ORDER.index(key))

    if m == {"B": 1, "R": 1}:
        add("rocket", "R")
    if len(m) == 1:
        ((r, n),) = m.items()
        name = {1: "single", 2: "pair", 3: "trio", 4: "bomb"}[n]
        if not (n == 2 and r in "BR"):
            add(name, r)
    for t in ranks:
        if m[t] >= 3:
            rest = _minus(m, {t: 3})
            assert rest is not None
            if t not in rest and sum(rest.values()) == 1:
                add("trio+1", t)
            if t not in rest and len(rest) == 1 and list(rest.values()) == [2]:
                add("trio+2", t)
        if m[t] == 4:
            rest = _minus(m, {t: 4})
            assert rest is not None
            # 四带二: two single cards (one rank allowed: a pair), never the rocket.
            if sum(rest.values()) == 2 and set(rest) != {"B", "R"}:
                add("four+2", t)
            if sorted(rest.values()) == [2, 2]:
                add("four+22", t)
    for width, shortest, name in ((1, 5, "straight"), (2, 3, "pairs"), (3, 2, "plane")):
        for start in range(12):
            longest = 0
            while start + longest < 12 and m.get(SEQ[start + longest], 0) >= width:
                longest += 1
            for length in range(shortest, longest + 1):
                chain = {SEQ[i]: width for i in range(start, start + length)}
                top = SEQ[start + length - 1]
                rest = _minus(m, chain)
                if rest is None:
                    continue
                if not rest:
                    add(name, top)
                elif width == 3 and not set(rest) & set(chain):
                    values = sorted(rest.values())
                    # Single wings: any cards but a bomb or the rocket.
                    if sum(values) == length and max(values) <= 3 and not {"B", "R"} <= set(rest):
                        add("plane+1", top)
                    if values == [2] * length:
                        add("plane+2", top)
    assert len(found) <= 1 or set(found) == {"plane", "plane+1"}, (m, found)
    return [(name, key, size) for name, key in found.items()]


READING = {"plane": "chain", "plane+1": "plane"}


def reference_texts(m: dict[str, int]) -> list[tuple[str, tuple[str, int, int]]]:
    """(canonical text, reading) of every reading: the reading word only when there are two."""
    kinds = reference(m)
    text = _text(m)
    if len(kinds) > 1:
        return [(f"{text} {READING[k[0]]}", k) for k in kinds]
    return [(text, k) for k in kinds]


def reference_beats(a: tuple[str, int, int], b: tuple[str, int, int]) -> bool:
    if b[0] == "rocket":
        return False
    if a[0] == "rocket":
        return True
    if a[0] == "bomb":
        return b[0] != "bomb" or a[1] > b[1]
    return a[0] == b[0] and a[2] == b[2] and a[1] > b[1]


def subsets(m: dict[str, int]) -> Iterator[dict[str, int]]:
    keys = list(m)
    for combo in itertools.product(*(range(m[k] + 1) for k in keys)):
        sub = {k: n for k, n in zip(keys, combo) if n}
        if sub:
            yield sub


@functools.cache
def _valid_subsets(hand: str) -> tuple[tuple[str, tuple[str, int, int]], ...]:
    out = []
    for sub in subsets(_counts(hand)):
        out += reference_texts(sub)
    return tuple(out)


def brute_force(hand: str, previous: str | None) -> set[str]:
    prev = None
    if previous:
        cards, _, word = previous.partition(" ")
        prev = next(k for t, k in reference_texts(_counts(cards)) if t.endswith(word))
    return {
        text
        for text, kind in _valid_subsets(_text(_counts(hand)))
        if prev is None or reference_beats(kind, prev)
    }


# (hand, previous, count): python-chess's perft idea for the play generator. The counts were
# produced by the brute force above and are pinned so that a change shows up as a diff.
PERFT = [
    ("3", None, 1),
    ("33", None, 2),
    ("BR", None, 3),
    ("3334", None, 5),
    ("33345", None, 7),
    ("3456789TJQKA", None, 48),
    ("33445566778899TT", None, 47),
    # 51 → 58 (attachments may share a rank, as DouZero and RLCard accept): plane wings
    # holding a pair (33344455, 33344466, 33444555 ...) and 333444555666 read two ways.
    ("333444555666", None, 58),
    # 79 → 98: 四带二 with a pair as its two singles (333344, 333355, ...) and paired wings.
    ("3333444455556666", None, 98),
    # 121 → 144: plane wings holding a pair or a trio (33344477, 333444555666 plane ...).
    ("3334445556667789", None, 144),
    # 139 → 175: the same, plus QQQKKKAAA+333-style trio wings of planes of three.
    ("333444555666777BR", None, 175),
    # 279 → 390: the same on a 20-card hand of six trios.
    ("3334445556667778889T", None, 390),
    ("778899TTJJ2BR", None, 21),
    ("3445566KA22B", None, 13),
    # 21 → 22: 四带二 333344 (two singles of one rank).
    ("3333444BR", None, 22),
    ("56789TJQKA2BR", None, 35),
    ("56789TJQKA2BR", "3", 14),
    ("56789TJQKA2BR", "2", 3),
    ("56789TJQKA2BR", "B", 2),
    ("56789TJQKA2BR", "R", 1),
    ("56789TJQKA2BR", "34567", 7),
    ("56789TJQKA2BR", "3456789", 5),
    # 60 → 76: two-card wings may be a pair (44455533, 44455599 ...).
    ("3334445556667778889T", "33344456", 76),
    ("3334445556667778889T", "3334445566", 24),
    # The previous play names its reading (three 顺 of four): the follower answers in kind.
    ("3334445556667778889T", "333444555666 chain", 2),
    ("3334445556667778889T", "333444555666 plane", 49),
    ("3334445556667778889T", "3334", 35),
    ("3334445556667778889T", "33344", 25),
    ("3333444455556666", "2222", 0),
    ("3333444455556666", "3333", 3),
    ("3333444455556666", "22", 4),
    # 13 → 22: 四带二 answered with a pair as the two singles (444433, 444455 ...).
    ("3333444455556666", "333345", 22),
    ("3333444455556666", "33334455", 13),
    ("778899TTJJ2BR", "334455", 4),
    ("778899TTJJ2BR", "2222", 1),
    ("778899TTJJ2BR", "BR", 0),
    ("3445566KA22B", "33344", 0),
    ("3445566KA22B", "QQ", 1),
    # 28 → 37: paired two-card wings (44455533 ...).
    ("333444555666777BR", "33344456", 37),
    # 5 → 20: three-card wings may hold a pair or a trio (44455566633B, 444555666777 plane).
    ("333444555666777BR", "333444555678", 20),
    ("AAA222KKK", "333444", 1),
    ("AAA222KKK", "QQQ4", 6),
]


@pytest.mark.parametrize(("hand", "previous", "count"), PERFT)
def test_perft(hand: str, previous: str | None, count: int) -> None:
    plays = legal_plays(hand, previous)
    assert len(plays) == len(set(plays)), "duplicate plays"
    assert set(plays) == brute_force(hand, previous)
    assert len(plays) == count


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(4, 12))
def test_random_hands_against_brute_force(rnd: random.Random, n: int) -> None:
    deck = [c for c in ORDER[:13] for _ in range(4)] + ["B", "R"]
    hand = _text(_counts("".join(rnd.sample(deck, n))))
    leads = legal_plays(hand)
    assert len(leads) == len(set(leads))
    assert set(leads) == brute_force(hand, None)
    other = _text(_counts("".join(rnd.sample(deck, 14))))
    previous = rnd.choice(legal_plays(other))
    follows = legal_plays(hand, previous)
    assert len(follows) == len(set(follows))
    assert set(follows) == brute_force(hand, previous)


@settings(max_examples=100, deadline=None)
@given(st.randoms(use_true_random=False))
def test_no_duplicates_in_big_hands(rnd: random.Random) -> None:
    deck = [c for c in ORDER[:13] for _ in range(4)] + ["B", "R"]
    hand = "".join(rnd.sample(deck, 20))
    plays = legal_plays(hand)
    assert len(plays) == len(set(plays))
    previous = rnd.choice(plays)
    follows = legal_plays(rnd.choice([hand, "".join(rnd.sample(deck, 20))]), previous)
    assert len(follows) == len(set(follows))


def test_canonical_output_and_pass_as_previous() -> None:
    assert legal_plays("3 10 10 j") == legal_plays("3TTJ") == ["3", "T", "J", "TT"]
    assert legal_plays("3TTJ", "pass") == legal_plays("3TTJ")
    assert legal_plays("3TTJ", "不出") == legal_plays("3TTJ")


def test_public_function_errors() -> None:
    with pytest.raises(NotationError):
        legal_plays("33X")
    with pytest.raises(NotationError):
        legal_plays("33", "3?")
    with pytest.raises(IllegalActionError):
        legal_plays("33", "34")


def test_straights_and_pair_straights_of_one_size_do_not_mix() -> None:
    # A hand whose ranks all hold two cards has equal masks for singles and pairs: a 单顺 of
    # six and a 双顺 of three (six cards too) must still answer only their own kind.
    hand = "334455667788"
    assert legal_plays(hand, "345678") == []  # nothing above 8 as a straight of six
    assert legal_plays(hand, "334455") == ["445566", "556677", "667788"]
    assert legal_plays("3344556677889", "345678") == ["456789"]
