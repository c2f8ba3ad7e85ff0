"""Every 斗地主 memo and table has a size bound, and holds it (a bot runs for weeks)."""

from __future__ import annotations

import copy
import random

import pytest
from ddz_support import new, play_out

from engines.doudizhu import ai, legal_plays, moves, patterns
from engines.doudizhu.notation import format_cards
from engines.doudizhu.patterns import PlayBook, playbook

DECK = [c for c in "3456789TJQKA2" for _ in range(4)] + ["B", "R"]


def random_hands(n: int, seed: int = 1) -> list[str]:
    rng = random.Random(seed)
    return ["".join(rng.sample(DECK, rng.randint(1, 20))) for _ in range(n)]


def test_playbook_memos_hold_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(patterns, "_CACHE_LIMIT", 50)
    book = PlayBook(playbook().rules)
    for hand in random_hands(400):
        for play in legal_plays(hand)[:20]:
            book.parse(play)
            assert max(book.sizes()) <= 50
    assert min(book.sizes()) > 0  # it did memoize


def test_the_shared_playbook_is_bounded() -> None:
    assert patterns._CACHE_LIMIT <= 50_000  # once 500,000 entries, deep-copied with every game


def test_generator_tables_hold_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(moves, "TABLE_LIMIT", 16)
    moves.clear_tables()
    for hand in random_hands(300, seed=2):
        plays = legal_plays(hand)
        legal_plays(hand, plays[len(plays) // 2])
        grown = [t for t in moves.TABLES if t is not moves._SHORT_PLAYS]
        assert all(len(table) <= 16 for table in grown)
    assert any(moves.TABLES)
    # The table of every play of at most six cards is fixed: built once, never grows.
    assert len(moves._SHORT_PLAYS) == 1755
    moves.clear_tables()


def test_the_short_play_table_is_every_play_of_six_cards_or_fewer() -> None:
    table = moves._short_plays()
    assert len(table) == 1755
    for text, (pattern, key, size) in list(table.items())[::7]:
        play = patterns.parse_play(text)
        assert play is not None and (play.pattern, play.key, play.size) == (pattern, key, size)
    assert "333355" in table and "33334444" not in table and "3333BR" not in table


def test_generator_tables_are_keyed_by_rank_masks() -> None:
    # Each table is keyed by a 15-bit rank mask (or a main part of at most 13 + 66 kinds),
    # so even unbounded it could never pass TABLE_LIMIT = 2**15 entries.
    assert moves.TABLE_LIMIT == 1 << 15
    for hand in random_hands(200, seed=3):
        legal_plays(hand)
    for table in moves.TABLES:
        for key in table:
            mask = key if isinstance(key, int) else 0
            assert mask < 1 << (8 * 15)


def test_trustee_memos_hold_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai, "_VALUE_LIMIT", 64)
    ai._VALUE.clear()
    ai._FRONT.clear()
    for seed in range(6):
        game = new(seed=seed)
        while not game.is_over():
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
            assert len(ai._VALUE) <= 64 and len(ai._FRONT) <= 64
    assert ai._VALUE and ai._FRONT
    ai._VALUE.clear()
    ai._FRONT.clear()


def test_copying_a_game_shares_the_playbook() -> None:
    # The host once deep-copied the whole play-book memo with every save.
    game = new(seed=4)
    play_out(game)
    clone = copy.deepcopy(game)
    assert clone.book is game.book
    assert format_cards(tuple(clone.hands[0])) == format_cards(tuple(game.hands[0]))
