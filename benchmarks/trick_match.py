"""Trick games' trustee against a rule player: 升级 and 打滚子 in duplicate.

**The rule player** reads only its own hand, the trick on the table (who is winning it) and
its legal actions; it remembers nothing and never looks ahead:

- Declaring (升级 亮主 / 反主, 打滚子 亮主): the legal declaration with the most cards, except
  over its partner's current declaration, and a single level card only with a quarter of its
  hand in that suit. 亮大王 (打滚子's first hand): with a third of its hand in trumps under the
  suit it would name. 欢乐升级's 反底: never. 打滚子's joker window: pass.
- Burying (扣底) and 还贡: its lowest cards — side cards without points first, then by trump
  order (打滚子: never a joker; 干锅: the kitty as dealt, the only bury there is).
- Leading: its lowest single card (see "lowest" below): it cannot know whether a lead wins.
- Following (among its legal follows: 打滚子 the engine's complete list; 升级 every legal
  follow from the led suit, at most 3,000 candidates, or when short of it the whole suit with
  its lowest other cards, or any trumps when void): when its partner is winning the trick,
  the lowest legal follow; else the highest legal follow that beats the best play so far, if
  one does; else the lowest. "Lowest": fewest trumps, then fewest points, then the lowest
  orders.

**The match** (``benchmarks/duplicate.py``): each deal is played twice with the sides swapped
(trustee in seats 1 and 3, then in 2 and 4), on the same seed; the first hand of a match (升级:
先亮者为庄; 打滚子: 亮大王 or the kitty flip). Points are the game's outcome points per seat.
Besides each seating, the figure is reported for the trustee's side as 庄 and as 闲 (the
games where its side dealt, or not).

Usage: python benchmarks/trick_match.py [--deals 300] [--game shengji|dagunzi|all]
       [--jobs 1] [--seed 0]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from itertools import combinations, islice
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.duplicate import Contest, match, report
from engines.base import Game
from engines.dagunzi import DAGUNZI
from engines.dagunzi.rules import KITTY
from engines.dagunzi.rules import beats as dg_beats
from engines.shengji import SHENGJI
from engines.shengji.patterns import beats as sj_beats
from engines.shengji.patterns import follow_problem, suit_cards
from engines.shengji.rules import DEAL
from engines.trick.cards import SMALL, Context, format_ids, ids_of, parse_ids, points


def _low_key(ctx: Context) -> object:
    return lambda c: (ctx.is_trump(c), points(c) > 0, ctx.order[c])


def _weight(play: Sequence[int], ctx: Context) -> tuple[int, int, int]:
    """Lowest first: fewest trumps, then the fewest points, then the lowest orders."""
    return (sum(ctx.is_trump(c) for c in play), sum(points(c) for c in play),
            sum(ctx.order[c] for c in play))


def _window(game: Game, seat: int) -> str:
    """Declare the most cards it may (not over its partner); show a 大王; else pass."""
    actions = game.legal_actions(seat)
    if "show" in actions:
        # 亮大王 with at least a third of its hand trumps under the suit it would name
        _, suit = game._big_claim(seat)  # type: ignore[attr-defined]
        ctx = Context(game.levels[seat % 2], suit, True)  # type: ignore[attr-defined]
        hand = ids_of(game.hands[seat])  # type: ignore[attr-defined]
        return "show" if 3 * sum(ctx.is_trump(c) for c in hand) >= len(hand) else "pass"
    decl = getattr(game, "decl", None)
    if game.phase() != "declare" or decl is not None and decl.seat % 2 == seat % 2 \
            and decl.seat != seat:
        return "pass"
    options = [a for a in actions if a.startswith("declare ")]
    if not options:
        return "pass"
    best = max(options, key=lambda a: len(a.split()))
    cards = parse_ids(best[len("declare "):].split()[0])
    if cards[0] < SMALL and len(best.split()) == 2:
        # one level card: only with at least a quarter of its hand in that suit
        suit = cards[0] // 13
        hand = ids_of(game.hands[seat])  # type: ignore[attr-defined]
        if 4 * sum(1 for c in hand if c < SMALL and c // 13 == suit) < len(hand):
            return "pass"
    return best


def _play(game: Game, seat: int, beats: object) -> str:
    ctx: Context = game.ctx  # type: ignore[attr-defined]
    hand = ids_of(game.hands[seat])  # type: ignore[attr-defined]
    trick: list[tuple[int, list[int]]] = game.trick  # type: ignore[attr-defined]
    if not trick:
        card = min(hand, key=lambda c: _weight([c], ctx))
        return format_ids([card], ctx)
    lead = game.lead if hasattr(game, "lead") and game.lead is not None else trick[0][1]
    best_seat, best = trick[0]
    for s, play in trick[1:]:
        if beats(play, best, lead, ctx):  # type: ignore[operator]
            best_seat, best = s, play
    follows = _follows(game, seat)
    if best_seat % 2 != seat % 2:
        winning = [p for p in follows if beats(p, best, lead, ctx)]  # type: ignore[operator]
        if winning:
            return format_ids(max(winning, key=lambda p: _weight(p, ctx)), ctx)
    return format_ids(min(follows, key=lambda p: _weight(p, ctx)), ctx)


def _follows(game: Game, seat: int) -> list[list[int]]:
    """The seat's legal follows (打滚子: the engine's list; 升级: every follow from the led suit,
    at most 3,000 candidates, or all of the led suit and the lowest or trump fillers)."""
    if not hasattr(game, "lead"):  # 打滚子
        return game._follows(seat)  # type: ignore[attr-defined,no-any-return]
    ctx: Context = game.ctx  # type: ignore[attr-defined]
    lead = game.lead  # type: ignore[attr-defined]
    hand = game.hands[seat]  # type: ignore[attr-defined]
    held = suit_cards(hand, ctx, lead.suit)
    if len(held) >= lead.n:
        out = []
        for combo in islice(dict.fromkeys(combinations(sorted(held), lead.n)), 3000):
            if follow_problem(hand, lead, combo, ctx) is None:
                out.append(list(combo))
        return out or [sorted(held, key=lambda c: (points(c), ctx.order[c]))[: lead.n]]
    rest = sorted((c for c in ids_of(hand) if ctx.eff[c] != lead.suit),
                  key=lambda c: _weight([c], ctx))
    need = lead.n - len(held)
    out = [held + rest[:need]]
    trumps = [c for c in rest if ctx.is_trump(c)]
    if not held and len(trumps) >= need:
        out += [list(c) for c in islice(dict.fromkeys(combinations(trumps, need)), 3000)]
    return out


def shengji_rule(game: Game, seat: int) -> str:
    """The 升级 rule player's action (see the module docstring)."""
    phase = game.phase()
    if phase in ("declare", "counter"):
        return _window(game, seat)
    if phase == "bury":
        ctx: Context = game.ctx  # type: ignore[attr-defined]
        cards = sorted(ids_of(game.hands[seat]), key=_low_key(ctx))  # type: ignore[attr-defined,arg-type]
        return "bury " + format_ids(cards[: DEAL[game.decks][1]], ctx)  # type: ignore[attr-defined]
    return _play(game, seat, sj_beats)


def dagunzi_rule(game: Game, seat: int) -> str:
    """The 打滚子 rule player's action (see the module docstring)."""
    phase = game.phase()
    if phase in ("declare", "show"):
        return _window(game, seat)
    if phase == "jokers":
        return "pass"
    ctx: Context = game.ctx  # type: ignore[attr-defined]
    low = sorted(ids_of(game.hands[seat]), key=_low_key(ctx))  # type: ignore[attr-defined,arg-type]
    if phase == "return":
        return "return " + format_ids(low[: len(game.tribute[2])], ctx)  # type: ignore[attr-defined]
    if phase == "bury":
        if game.dry:  # type: ignore[attr-defined]
            return game.legal_actions(seat)[0]
        return "bury " + format_ids([c for c in low if c < SMALL][:KITTY], ctx)
    return _play(game, seat, dg_beats)


def _role(game: Game, trustee_side: int) -> str:
    dealer = game.dealer  # type: ignore[attr-defined]
    return "庄" if dealer % 2 == trustee_side else "闲"


CONTESTS: dict[str, Contest] = {
    "shengji": Contest(SHENGJI, shengji_rule, _role),
    "dagunzi": Contest(DAGUNZI, dagunzi_rule, _role),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=300)
    parser.add_argument("--game", default="all", choices=[*CONTESTS, "all"])
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed")
    args = parser.parse_args()
    keys = list(CONTESTS) if args.game == "all" else [args.game]
    figures = {}
    for key in keys:
        r = match(CONTESTS, key, args.deals, args.seed, args.jobs)
        figures[key] = r
        print(report(key, r))
    low = min(float(r["mean"]) - float(r["half"]) for r in figures.values())  # type: ignore[arg-type]
    print(f"trick_match: {low:+.2f} points per deal (lowest lower 95% bound of "
          f"{', '.join(keys)})")


if __name__ == "__main__":
    main()
