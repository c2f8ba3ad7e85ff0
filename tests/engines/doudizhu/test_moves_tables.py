"""出牌生成's fixed tables and fast paths, each against what it stands for.

- The rank-mask tables are tuples indexed by the folded mask (``mask % (2**n - 1)``): every
  half mask and every mask of sequence ranks is read back and compared with its definition,
  written here from the ranks themselves.
- 单顺 / 双顺 are followed from the mask of the ranks that start a run of the right length:
  hands rich in sequences, following straights of every length, against the brute force of
  ``test_moves``.
- A hand typed in canonical letters is read by one addition (``notation.packed``, inlined
  in ``legal_plays``): on texts of every kind it agrees with the forgiving reader, or leaves
  the text to it.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_moves import ORDER, SEQ, brute_force

from engines.doudizhu import legal_plays, moves, notation
from engines.doudizhu.moves import lead_plays
from engines.errors import NotationError

BIT = [1 << (notation.FIELD * r + notation.FIELD - 1) for r in range(15)]


def masks_of(ranks: range) -> list[tuple[int, list[int]]]:
    """(mask, its ranks low to high) for every subset of ``ranks``."""
    out = []
    for sub in range(1 << len(ranks)):
        held = [r for i, r in enumerate(ranks) if sub >> i & 1]
        out.append((sum(BIT[r] for r in held), held))
    return out


LOW_HALF, HIGH_HALF = masks_of(range(8)), masks_of(range(8, 15))


def row(table: tuple[tuple[str, ...], ...], mask: int) -> tuple[str, ...]:
    return table[mask % moves._FOLD]


@pytest.mark.parametrize("half", [0, 1])
def test_every_half_mask_reads_its_own_row(half: int) -> None:
    every = (LOW_HALF, HIGH_HALF)[half]
    assert len({mask % moves._FOLD for mask, _ in every}) == len(every)
    for mask, held in every:
        assert row((moves._RANKS_LO, moves._RANKS_HI)[half], mask) == tuple(held)
        for n, tables in enumerate(
            [(moves._S1_LO, moves._S1_HI), (moves._S2_LO, moves._S2_HI)]
            + [(moves._S3_LO, moves._S3_HI), (moves._S4_LO, moves._S4_HI)],
            start=1,
        ):
            assert row(tables[half], mask) == tuple(ORDER[r] * n for r in held)
        for t in range(13):
            trio = ORDER[t] * 3
            # 三带一 / 三带一对: the trio with each other rank held, lower rank first
            singles = tuple(
                ORDER[a] + trio if a < t else trio + ORDER[a] for a in held if a != t
            )
            pairs = tuple(
                ORDER[a] * 2 + trio if a < t else trio + ORDER[a] * 2 for a in held if a != t
            )
            assert row(moves._T1_ROWS[t][half], mask) == singles
            assert row(moves._T2_ROWS[t][half], mask) == pairs


def test_every_mask_of_sequence_ranks_reads_its_straights() -> None:
    every = masks_of(range(12))
    assert len({mask % moves._SEQ_FOLD for mask, _ in every}) == len(every)
    for mask, held in every:
        for width, shortest, table in ((1, 5, moves._STRAIGHTS), (2, 3, moves._PAIR_STRAIGHTS)):
            want = {
                "".join(SEQ[r] * width for r in range(s, s + n))
                for s in range(12)
                for n in range(shortest, 13 - s)
                if all(r in held for r in range(s, s + n))
            }
            got = table[mask % moves._SEQ_FOLD]
            assert len(got) == len(want) and set(got) == want, held


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_following_straights_of_every_length(rnd: random.Random) -> None:
    """Hands holding a run of sequence ranks and a few more cards, against a 单顺 or 双顺 of
    a random length and top: every answer the brute force finds, once."""
    width = rnd.choice([1, 2])
    length = rnd.randint(5, 12) if width == 1 else rnd.randint(3, 6)  # (a brute force)
    top = rnd.randint(length - 1, 11)
    previous = "".join(SEQ[r] * width for r in range(top - length + 1, top + 1))
    run = rnd.randint(length, 12 if width == 1 else 7)
    first = rnd.randint(0, 12 - run)
    cards = [SEQ[r] for r in range(first, first + run) for _ in range(width)]
    cards += rnd.sample([c for c in SEQ for _ in range(4 - width)], rnd.randint(0, 3))
    hand = "".join(sorted(cards, key=ORDER.index))
    got = legal_plays(hand, previous)
    assert len(got) == len(set(got))
    assert set(got) == brute_force(hand, previous), (hand, previous)


TEXT_PIECES = [*ORDER, *ORDER.lower(), "10", "0", " ", "+", ",", "BJ", "RJ", "J", "B", "R"]
TEXT_PIECES += ["小王", "大王", "王炸", "s", "h", "X", "3333", "JB", "JR", "\x00", "\xff"]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(TEXT_PIECES), min_size=1, max_size=12))
def test_the_fast_reading_agrees_with_the_forgiving_one(pieces: list[str]) -> None:
    text = "".join(pieces)
    try:
        want: tuple[int, ...] | None = notation._parse_slow(text)
    except NotationError:
        want = None
    fast = notation.packed(text)
    if fast is not None:  # the fast reading, when it answers, is the forgiving one's
        assert want is not None and notation.unpack(fast) == want, text
    if want is None:
        with pytest.raises(NotationError):
            legal_plays(text)
    else:
        assert legal_plays(text) == lead_plays(want), text
        assert notation.unpack(notation.pack(want)) == want


def test_texts_the_fast_reading_leaves_to_the_forgiving_one() -> None:
    long = ["3" * 16, "3" * 33, "3" * 200, "é" * 70, "X" * 129]  # (no field may carry)
    for text in ["BJ", "3BJ", "RJ4", "JBJ", "33333", "BB", "3 4", "tj", *long]:
        assert notation.packed(text) is None, text
    assert notation.packed("JB") == notation.pack(notation.parse_cards("J B"))
    assert notation.packed("345") == notation.packed("543")
    assert legal_plays("3BJ") == ["3", "B"]
    with pytest.raises(NotationError):
        legal_plays("3" * 16)
