"""The 够级 trustee's decisions in fixed positions (issue 25): it keeps its 2s instead of
spending them as 贴钱 early, stops an opponent with one play left, never overtakes an ally
who is about to go out, and every choice is legal."""

from __future__ import annotations

import pytest

from engines.climbing.notation import TWO, parse_cards
from engines.gouji.ai import unseen
from engines.gouji.game import ClassicGoujiGame, GoujiGame

LONG = "3344556677889TJQKA"  # an opponent far from going out (18 cards)


@pytest.mark.parametrize("cls", [GoujiGame, ClassicGoujiGame])
def test_keeps_its_2s_rather_than_pay_them_as_money_early(cls) -> None:
    # the bug: over an opponent's 444 the old trustee paid 2 + 55 (贴钱, "552") because 5 is
    # the lowest rank that could beat; the rule player beat with 666 and kept its 2
    g = cls.position([LONG, "444 " + LONG, "55 666 9 TT 22 " + LONG[:6], LONG, LONG, LONG],
                     leader=1)
    g.apply(1, "444")
    action = g.trustee(2)
    assert action in g.legal_actions(2)
    assert parse_cards(action, 4)[TWO] == 0
    assert action == "666"  # the whole rank: one lead fewer, no money spent


@pytest.mark.parametrize("cls", [GoujiGame, ClassicGoujiGame])
def test_stops_an_opponent_with_one_play_left_with_a_joker(cls) -> None:
    # seat 2 plays 99 and keeps 88: if nobody beats, it leads 88 and goes out; the trustee
    # (seat 3) can beat only with a joker, which the old trustee never did while following
    g = cls.position([LONG, LONG, "99 88", "34 5 6 7 T BR", LONG, LONG], leader=2)
    g.apply(2, "99")
    action = g.trustee(3)
    assert action in g.legal_actions(3) and action != "pass"


def test_never_overtakes_an_ally_about_to_go_out() -> None:
    # seat 2 (an ally of seat 4) plays 88 with 77 left; seat 4 could go out with 99 over it,
    # but lets its ally take the round and go out
    g = GoujiGame.position([LONG, LONG, "88 77", LONG, "99", LONG], leader=2)
    g.apply(2, "88")
    g.apply(3, "pass")
    assert g.trustee(4) == "pass"


def test_counts_only_what_was_played() -> None:
    # what it counts as unseen does not depend on how the other seats' cards lie
    a = GoujiGame.position(["33", "KK 44", "55", "66", "77", "88"], leader=0)
    b = GoujiGame.position(["33", "44 77", "55", "66", "KK", "88"], leader=0)
    assert unseen(a, 0) == unseen(b, 0)
    a.apply(0, "33")
    assert unseen(a, 1)[0] == 16 - 2  # the two 3s played are seen
