"""出牌生成's fixed tables: a restarted bot (or a hand never met) needs no warm-up. Every table
the generator reads is built when ``moves`` is imported and never changes; following and
leading fill no memo but the bounded one of previous plays; and what they answer is what the
plays themselves say (``patterns.beats`` on every lead of the hand)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from engines.doudizhu import legal_plays, moves
from engines.doudizhu.notation import parse_cards
from engines.doudizhu.patterns import beats, parse_play

DECK = [c for c in "3456789TJQKA2" for _ in range(4)] + ["B", "R"]
ORDER = "3456789TJQKA2BR"


def deal(rng: random.Random, size: int) -> str:
    return "".join(sorted(rng.sample(DECK, size), key=ORDER.index))


def test_a_first_hand_grows_no_table() -> None:
    """Cold is warm: after every memo is emptied, leading and following 17-20-card hands
    (previous plays of at most eight cards, or any sequence) leave every table as it was."""
    moves.clear_tables()
    every = (*moves.TABLES, *getattr(moves, "FIXED", ()))
    sizes = [len(table) for table in every]
    rng = random.Random(3)
    for _ in range(300):
        hand = deal(rng, rng.randint(17, 20))
        plays = legal_plays(hand)
        previous = rng.choice([p for p in legal_plays(deal(rng, 20)) if len(p) <= 8])
        legal_plays(hand, previous)
        assert plays
    assert [len(table) for table in every] == sizes


def test_the_fixed_tables_say_what_their_definitions_say() -> None:
    bit = [1 << (moves.FIELD * r + moves.FIELD - 1) for r in range(15)]
    rng = random.Random(1)
    for _ in range(500):
        held = sorted(rng.sample(range(15), rng.randint(0, 15)))
        mask = sum(bit[r] for r in held)
        assert moves._ranks(mask) == tuple(held)
        seq = mask & moves._SEQ_MASK
        runs, run = [], []
        for r in range(13):
            if r < 12 and r in held:
                run.append(r)
            elif run:
                runs.append(run)
                run = []
        straights = [
            "3456789TJQKA"[s : e + 1] for run in runs for s in run for e in run if e - s + 1 >= 5
        ]
        assert sorted(moves._STRAIGHTS[seq % moves._SEQ_FOLD]) == sorted(straights)


@settings(max_examples=150, deadline=None)
@given(st.randoms(use_true_random=False))
def test_following_lists_every_lead_that_beats_the_table(rnd: random.Random) -> None:
    """Every following play is a lead of the hand that beats the previous play, and every
    such lead is listed: the fixed tables change no answer."""
    hand = deal(rnd, rnd.randint(12, 20))
    previous = rnd.choice([p for p in legal_plays(deal(rnd, 20)) if " " not in p])
    prev = parse_play(previous)
    assert prev is not None
    expected = []
    for text in legal_plays(hand):
        play = parse_play(text)
        if play is not None and beats(play, prev):
            expected.append(text)
    got = legal_plays(hand, previous)
    assert sorted(got) == sorted(expected), (hand, previous)
    assert len(set(got)) == len(got)
    assert parse_cards(hand)  # the hand reads
