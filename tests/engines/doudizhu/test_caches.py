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
    for table in moves.TABLES:
        monkeypatch.setattr(table, "limit", 16)
    moves.clear_tables()
    fixed = [len(table) for table in moves.FIXED]
    for hand in random_hands(300, seed=2):
        plays = legal_plays(hand)
        legal_plays(hand, plays[len(plays) // 2])
    for s in range(8):  # planes of three trios with wings: read once, then from the memo
        legal_plays("3", "".join(c * 3 for c in "3456789TJQ"[s : s + 3]) + "KA2")
        assert all(len(table) <= 16 for table in moves.TABLES)
    assert any(moves.TABLES)
    # The fixed tables (known plays, attachments, each mask's ranks and sequences) are
    # built at import and never grow.
    assert [len(table) for table in moves.FIXED] == fixed
    assert len(moves._KNOWN_PLAYS) == 4286
    moves.clear_tables()


def test_the_known_play_table_holds_every_play_of_six_cards_or_fewer() -> None:
    table = moves._known_plays()
    assert len(table) == 4286
    for text, (pattern, key, size) in table.items():
        play = patterns.parse_play(text)
        assert play is not None and (play.pattern, play.key, play.size) == (pattern, key, size)
    # every play of at most six cards, found by brute force over the multisets
    limits = (4,) * 13 + (1, 1)
    short = 0

    def visit(rank: int, counts: list[int], left: int) -> None:
        nonlocal short
        if rank == 15:
            if left < 6 and patterns.readings(tuple(counts)):
                short += 1
                assert format_cards(tuple(counts)) in table
            return
        for c in range(min(limits[rank], left) + 1):
            visit(rank + 1, [*counts, c], left - c)

    visit(0, [], 6)
    assert short == 1755
    assert "333355" in table and "33334444" not in table and "3333BR" not in table


def test_trustee_memos_hold_their_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ai._VALUE, "limit", 64)
    monkeypatch.setattr(ai._FRONT, "limit", 64)
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
