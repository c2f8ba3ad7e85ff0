"""The 升级 trustee's play (issue 25): it remembers what has been played and who showed a void,
gives points only to a partner whose play will stand, takes tricks with a play that stands,
and buries so that it can ruff."""

from __future__ import annotations

from engines.trick.cards import ids_of, parse_ids, suit_of
from engines.shengji.game import ShengjiGame


def test_trustee_leads_a_pair_nobody_can_beat_once_the_aces_are_gone() -> None:
    # Two decks, and no A of spades left in any hand (both were played): K K of spades is the
    # top pair of the suit. The trustee before issue 25 only trusted a part topped by an A.
    game = ShengjiGame.position(
        ["Ks Ks 3c 4c 6c", "Qs Js 7c 8c 9c", "3s 4s 6d 7d 8d", "7s 8s 9d Jd Qd"],
        level=2, trump=1, dealer=0)
    assert game.trustee(0) == "Ks Ks"


def test_trustee_does_not_lead_its_ace_into_an_opponent_s_void() -> None:
    # Seat 4 showed it holds no diamonds in the first trick: the A of diamonds led now would be
    # ruffed, so the trustee leads a low club instead.
    game = ShengjiGame.position(
        ["3d 6c 7c 8c", "7d 9c Jc Qc", "Kd Ad 4c 6s", "3s 4s 7s 8s"],
        level=2, trump=1, dealer=0)
    for seat, play in enumerate(["3d", "7d", "Kd", "3s"]):
        game.apply(seat, play)
    assert game.to_act() == (2,)
    assert game.trustee(2) == "4c"


def test_trustee_gives_points_only_to_a_partner_whose_card_will_stand() -> None:
    # The partner's 9 of spades is winning, but the A of spades is still out and an opponent
    # plays after the trustee: the K (10 points) would go to them. It plays its 4 instead.
    game = ShengjiGame.position(
        ["9s 3c", "3s 4c", "Ks 4s", "As 5c"], level=2, trump=1, dealer=0)
    game.apply(0, "9s")
    game.apply(1, "3s")
    assert game.trustee(2) == "4s"


def test_trustee_takes_points_with_a_card_that_stands() -> None:
    # A 10 of spades is led by an opponent; the J would win for now but the K and Q are still
    # out after it: the trustee takes the 10 points with its A.
    game = ShengjiGame.position(
        ["Ts 3c", "Js As", "Ks 4c", "Qs 5c"], level=2, trump=1, dealer=0)
    game.apply(0, "Ts")
    assert game.trustee(1) == "As"


def test_trustee_buries_its_short_low_suit_whole_to_ruff_it() -> None:
    # 扣底 with three plain clubs beside long spades and diamonds: the clubs go into the kitty
    # (a void to ruff with) with five low cards, though lower spades and diamonds exist; no
    # points and no A are buried.
    hand = ("7c 8c 9c 3s 4s 6s 7s 8s 9s Js Qs As 3d 4d 6d 7d 8d 9d Jd Qd Ad"
            " Ah Kh Qh Jh Th 9h 8h 7h 6h 5s 5d Kd")
    game = ShengjiGame.position([hand, "", "", ""], level=2, trump=1, dealer=0)
    game._phase = "bury"  # the 庄 picked up the kitty: 33 cards, 8 to bury
    game.kitty_owner = 0
    action = game.trustee(0)
    assert action.startswith("bury ")
    buried = parse_ids(action[5:])
    assert len(buried) == 8 and {"7c", "8c", "9c"} <= set(action[5:].split())
    game.apply(0, action)
    assert not [c for c in ids_of(game.hands[0]) if c < 52 and suit_of(c) == 2]
    assert not any(c % 13 + 2 in (5, 10, 13, 14) for c in buried)


def test_trustee_spends_a_card_that_stands_only_on_points() -> None:
    # A 9 of spades led, no points in the trick: the J wins it for now and the A is kept for a
    # trick worth taking (the K and Q still out could beat the J; they would cost no points).
    game = ShengjiGame.position(
        ["9s 3c", "Js As", "Ks 4c", "Qs 6c"], level=2, trump=1, dealer=0)
    game.apply(0, "9s")
    assert game.trustee(1) == "Js"
