"""托管水平 in 斗地主: easy is a simple rule player, normal today's trustee, hard the
determinized search (engines/doudizhu/search.py): legal, the same choice for the same
position, blind to the hands it may not see, and better than today's trustee where a
playout shows it (the endgame below)."""

from __future__ import annotations

import random

import pytest
from ddz_support import new, play_out

from engines.doudizhu import DoudizhuGame, parse_cards, parse_play
from engines.doudizhu.ai import choose_easy, choose_play
from engines.doudizhu.patterns import playbook
from engines.doudizhu.search import _known_kitty, _sample

BOOK = playbook()


def normal_steps(game: DoudizhuGame, steps: int) -> DoudizhuGame:
    """Let today's trustee play ``steps`` actions."""
    for _ in range(steps):
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    return game


def finish(game: DoudizhuGame, seat: int, action: str) -> bool:
    """Play ``action`` for ``seat``, today's trustee to the end: did the seat's side win?"""
    game.apply(seat, action)
    play_out(game)
    assert game.winner is not None and game.landlord is not None
    return (game.winner == game.landlord) == (seat == game.landlord)


# --- easy ------------------------------------------------------------------------------------
def test_easy_leads_its_lowest_card_where_normal_leads_the_straight() -> None:
    hand = parse_cards("34567TTJ2")
    assert choose_easy(hand, None, None, 0, 0, BOOK) == "3"
    assert choose_play(hand, None, None, 0, 0, [9, 17, 17], [0] * 15, BOOK) == "34567"


def test_easy_lets_its_partners_play_stand_and_tops_the_landlord_lowest() -> None:
    hand = parse_cards("5899KA")
    # the partner (seat 1) played 7; seat 2, a farmer, passes
    assert choose_easy(hand, parse_play("7"), 1, 2, 0, BOOK) == "pass"
    # the landlord (seat 0) played 7: the lowest single above it
    assert choose_easy(hand, parse_play("7"), 0, 1, 0, BOOK) == "8"
    # and its pair over the landlord's pair of 6s
    assert choose_easy(hand, parse_play("66"), 0, 1, 0, BOOK) == "99"


def test_easy_goes_out_when_one_play_empties_the_hand() -> None:
    assert choose_easy(parse_cards("33344"), parse_play("22"), 0, 1, 0, BOOK) == "pass"
    assert choose_easy(parse_cards("33344"), None, None, 1, 0, BOOK) == "33344"


# --- hard ------------------------------------------------------------------------------------
def test_hard_wins_the_endgame_today_s_trustee_loses() -> None:
    """Seed 56 after 33 actions: the landlord (seat 3) holds 6999Q and leads; the farmers hold
    KKK and 9QAA2. Today's trustee leads the 6 (a farmer tops it and the landlord loses);
    the search leads 6999, which nobody can beat, and goes out on the Q."""
    position = normal_steps(new("doudizhu", seed=56), 33)
    assert position.landlord == 2 and position.to_act() == (2,)
    assert position.snapshot()["hands"] == ["KKK", "9QAA2", "6999Q"]
    normal = position.trustee(2)
    hard = position.trustee(2, "hard")
    assert (normal, hard) == ("6", "6999")
    record = position.to_record()
    assert not finish(type(position).from_record(record), 2, normal)
    assert finish(type(position).from_record(record), 2, hard)


@pytest.mark.parametrize("key", ["doudizhu", "doudizhu_happy", "doudizhu_wild"])
def test_hard_self_play_is_legal_and_repeatable(key: str) -> None:
    """Whole hands at hard in every seat: each choice legal, and the same position (rebuilt
    from the record) gets the same choice again."""
    for seed in range(3):
        game = new(key, seed=seed)
        while not game.is_over():
            seat = game.to_act()[0]
            action = game.trustee(seat, "hard")
            assert action in game.legal_actions(seat), (game.snapshot(), action)
            again = type(game).from_record(game.to_record())
            assert again.trustee(seat, "hard") == action
            game.apply(seat, action)


def test_hard_does_not_read_the_hands_it_may_not_see() -> None:
    """Moving cards between the two farmers (each keeps its count) changes nothing the
    landlord may see, so its choice stays the same."""
    position = normal_steps(new("doudizhu", seed=56), 33)
    choice = position.trustee(2, "hard")
    a, b = position.hands[0], position.hands[1]  # KKK and 9QAA2
    king, ace = 10, 11
    a[king] -= 1
    b[king] += 1
    b[ace] -= 1
    a[ace] += 1
    assert position.snapshot()["hands"] == ["KKA", "9QKA2", "6999Q"]
    assert position.trustee(2, "hard") == choice


def test_the_worlds_keep_the_kitty_cards_the_landlord_has_not_played() -> None:
    """The kitty is shown face up: every world the farmers' search deals gives the landlord
    the kitty's cards it still holds for sure, and each seat as many cards as it holds."""
    game = normal_steps(new("doudizhu", seed=5), 12)
    assert game.landlord is not None and game.kitty_taken
    farmer = next(s for s in range(3) if s != game.landlord)
    known = _known_kitty(game)
    assert 0 < sum(known) <= 3, (game.kitty, known)
    left = [sum(h) for h in game.hands]
    for world in range(20):
        hands = _sample(game, farmer, tuple(game.hands[farmer]), left, random.Random(world))
        assert [sum(h) for h in hands] == left
        assert hands[farmer] == game.hands[farmer]
        assert all(hands[game.landlord][r] >= known[r] for r in range(15))
