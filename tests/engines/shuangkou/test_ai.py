"""The 百变双扣 trustee's decisions in fixed positions (issue 25): it keeps its bombs whole,
feeds a partner down to one card, stops an opponent about to go out, never overtakes its
partner, and every choice is legal."""

from __future__ import annotations

from engines.shuangkou.game import ShuangkouGame

LONG = "3344556677889TJQKA2"


def test_does_not_break_a_bomb_to_follow() -> None:
    # the bug: over 44 the old trustee played 55 out of its 5555 (the weakest pair that
    # beats); 77 beats as well and keeps the bomb
    g = ShuangkouGame.position(["5555 77 9 J K 3", LONG, LONG, "44 " + LONG], leader=3)
    g.apply(3, "44")
    action = g.trustee(0)
    assert action in g.legal_actions(0)
    assert action == "77"


def test_feeds_a_partner_on_its_last_card() -> None:
    # the partner (seat 2) holds one card: lead a single, not the long 连对 the old trustee led
    g = ShuangkouGame.position(["3344556677 9", LONG, "A", LONG], leader=0)
    action = g.trustee(0)
    assert action in g.legal_actions(0)
    assert len(action) == 1


def test_stops_an_opponent_about_to_go_out_with_a_bomb() -> None:
    # seat 3 plays a pair and keeps one card: the trustee bombs rather than let it lead out
    g = ShuangkouGame.position(["3333 56 8", LONG, LONG, "AA 9"], leader=3)
    g.apply(3, "AA")
    assert g.trustee(0) == "3333"


def test_never_overtakes_its_partner() -> None:
    g = ShuangkouGame.position(["KK 3 5 7 9", "6", "TT 4", LONG], leader=2)
    g.apply(2, "TT")
    g.apply(3, "pass")
    assert g.trustee(0) == "pass"
