"""Climbing games' trustee against a rule player: 够级, 新够级 and 百变双扣 in duplicate.

**The rule player** reads only its own hand, the play on the table and its legal actions:

- 够级 / 新够级: 宣点 no, 要头 (when asked), never 革命, 让牌 or 烧牌 (a burn claim is passed).
  Leading: every card of its lowest natural rank, without 2s or 花 (the legal lead with the
  lowest rank and then the fewest cards spent on 2s and 花 when it has no natural rank left,
  and the 3s last in 憋3). Following (also as the 对头 or a 无头 seat in a 够级 window): pass
  on its own alliance's play; else the legal play that beats with the fewest 2s and 花, then
  the lowest rank; pass when it cannot beat. It keeps nothing special and never looks ahead.
- 百变双扣: goes out when one legal play empties its hand. Leading: every natural card of its
  lowest rank as one play (a single, pair, triple or bomb). Following: pass on its partner's
  play; else the weakest legal play that beats (the engine's order: non-bombs before bombs,
  then fewer 大王), pass when nothing beats.

**The match** (duplicate format, ``benchmarks/duplicate.py``): each deal (one seed) is played twice, first with the
trustee in the first side's seats (够级: seats 1, 3, 5; 双扣: seats 1, 3) and the rule player in
the others, then with the sides swapped, on the same seed — the same cards, the same 上班 or
庄. The figure per deal is the mean over its two games of (the points of a trustee seat − the
points of a rule seat), each side's points averaged over its seats; the match reports the
mean over the deals with a 95% confidence interval (1.96 standard errors), and the trustee
side's win share (games in which its seats scored more than the rule seats; 够级 void deals
count as not won). Each deal is a single game (game 1 of a series: no 进贡).

The time of every trustee decision (``Game.trustee``) is recorded: mean and p99.

Usage: python benchmarks/climbing_match.py [--deals 300] [--game gouji_new|gouji|shuangkou|all]
       [--jobs 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.duplicate import Contest, match, report
from engines.base import Game, GameSpec
from engines.climbing.notation import BIG, PASS, SMALL, TWO, format_cards
from engines.gouji import GOUJI, GOUJI_NEW
from engines.gouji.patterns import plays as gouji_plays
from engines.shuangkou import SHUANGKOU
from engines.shuangkou.patterns import NAT, play_text
from engines.shuangkou.patterns import plays as sk_plays

SPECS: dict[str, GameSpec] = {s.key: s for s in (GOUJI_NEW, GOUJI, SHUANGKOU)}


def gouji_rule(game: Game, seat: int) -> str:
    """The 够级 rule player's action (see the module docstring)."""
    g = game  # a GoujiGame; only its public table and this seat's hand are read
    phase = g.phase()
    if phase == "declare":
        return "nodeclare"
    if phase == "head":
        return "yaotou"
    hand = g.hands[seat]  # type: ignore[attr-defined]
    beisan, big_top = g.beisan, g.big_top  # type: ignore[attr-defined]
    top = g.top  # type: ignore[attr-defined]
    if top is None:
        options = gouji_plays(hand, None, beisan, big_top)
        plain = [(c, p) for c, p in options if not c[TWO] and not c[SMALL] and not c[BIG]
                 and c[p.main] == hand[p.main]]
        pool = plain or options
        cards, _ = min(pool, key=lambda cp: (cp[1].main, cp[0][TWO] + cp[0][SMALL]
                                               + cp[0][BIG], -cp[1].n))
        return format_cards(cards)
    if g.mode == "window" and g.window_seats[seat] == "burn":  # type: ignore[attr-defined]
        return PASS
    if top.owner % 2 == seat % 2:
        return PASS
    options = gouji_plays(hand, top.play, beisan, big_top)
    if not options:
        return PASS
    cards, _ = min(options, key=lambda cp: (cp[0][TWO] + cp[0][SMALL] + cp[0][BIG],
                                            cp[1].main, cp[1].jokers))
    return format_cards(cards)


def shuangkou_rule(game: Game, seat: int) -> str:
    """The 百变双扣 rule player's action (see the module docstring)."""
    hand = game.hands[seat]  # type: ignore[attr-defined]
    table = game.table  # type: ignore[attr-defined]
    options = sk_plays(hand, None if table is None else table[2])
    n = sum(hand)
    for cards, p in options:
        if sum(cards) == n:
            return play_text(cards, p)
    if table is None:
        low = min(r for r in range(NAT + 2) if hand[r])
        for cards, p in options:
            if cards[low] == hand[low] and sum(cards) == hand[low]:
                return play_text(cards, p)
        return play_text(*options[0])
    if table[0] % 2 == seat % 2:
        return PASS
    return play_text(*options[0]) if options else PASS


CONTESTS: dict[str, Contest] = {
    "gouji_new": Contest(GOUJI_NEW, gouji_rule), "gouji": Contest(GOUJI, gouji_rule),
    "shuangkou": Contest(SHUANGKOU, shuangkou_rule),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--game", default="all", choices=[*SPECS, "all"])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    args = parser.parse_args()
    keys = list(SPECS) if args.game == "all" else [args.game]
    figures = {}
    for key in keys:
        r = match(CONTESTS, key, args.deals, args.seed, args.jobs)
        figures[key] = r
        print(report(key, r))
    low = min(float(r["mean"]) - float(r["half"]) for r in figures.values())  # type: ignore[arg-type]
    print(f"climbing_match: {low:+.2f} points per deal (lowest lower 95% bound of "
          f"{', '.join(keys)})")


if __name__ == "__main__":
    main()
