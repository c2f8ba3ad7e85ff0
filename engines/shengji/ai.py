"""托管: the trustee of 升级 — always legal, simple, and on its partner's side.

It declares strong holdings, buries low side cards, leads its strongest part or a low card,
follows with the most structure the rules demand, feeds points to a partner who is winning
the trick and never ruffs (毙) a partner's winning trick.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from engines.shengji.patterns import (
    Score,
    _cap,
    _score,
    _selections,
    beats,
    decompose,
    follow_problem,
    structure,
    suit_cards,
)
from engines.shengji.rules import DEAL
from engines.trick.cards import TRUMP, format_ids, ids_of, points

if TYPE_CHECKING:
    from engines.shengji.game import ShengjiGame


def choose(game: ShengjiGame, seat: int) -> str:
    """The trustee's action for ``seat`` (which is in ``game.to_act()``)."""
    phase = game.phase()
    if phase in ("declare", "counter"):
        return _declare(game, seat)
    if phase == "bury":
        return _bury(game, seat)
    if game.trick:
        return format_ids(_follow(game, seat), game.ctx)
    return format_ids(_lead(game, seat), game.ctx)


def _declare(game: ShengjiGame, seat: int) -> str:
    options = game._declarations(seat)
    if not options:
        return "pass"
    if game.phase() == "counter" and game.kitty_owner is not None \
            and game.kitty_owner % 2 == seat % 2:
        return "pass"  # never 反底 against the partner
    cards = ids_of(game.hands[seat])
    best = options[-1]
    for d in options:
        if d.strength(game.decks) >= best.strength(game.decks):
            best = d
    if best.suit is not None:
        from engines.trick.cards import suit_of

        length = sum(1 for c in cards if c < 52 and suit_of(c) == best.suit)
        if length * 4 < len(cards) and best.count < 2:
            return "pass"
    verb = "declare" if game.phase() == "declare" else "counter"
    return f"{verb} {game._decl_text(best)}"


def _bury(game: ShengjiGame, seat: int) -> str:
    ctx = game.ctx
    cards = ids_of(game.hands[seat])
    cards.sort(key=lambda c: (ctx.is_trump(c), points(c) > 0, ctx.order[c]))
    return "bury " + format_ids(cards[: DEAL[game.decks][1]], ctx)


def _lead(game: ShengjiGame, seat: int) -> list[int]:
    ctx = game.ctx
    cards = ids_of(game.hands[seat])
    side = [c for c in cards if not ctx.is_trump(c)]
    # A part topped by the suit's highest possible order is safe to lead.
    for suit in (0, 1, 2, 3):
        held = [c for c in side if ctx.eff[c] == suit]
        if not held:
            continue
        top = max(ctx.order[c] for c in range(52) if ctx.eff[c] == suit)
        for comp in decompose(held, ctx):
            if comp.top == top:
                return list(comp.ids)
    pool = side or cards
    by_suit = Counter(ctx.eff[c] for c in pool)
    suit = max(by_suit, key=lambda s: (by_suit[s], -s))
    held = [c for c in pool if ctx.eff[c] == suit]
    return [min(held, key=lambda c: (points(c) > 0, ctx.order[c]))]


def _current_best(game: ShengjiGame) -> tuple[int, list[int]]:
    assert game.lead is not None
    best_seat, best = game.trick[0]
    for s, play in game.trick[1:]:
        if beats(play, best, game.lead, game.ctx):
            best_seat, best = s, play
    return best_seat, best


def _structured(cards: Sequence[int], game: ShengjiGame, n: int) -> list[int]:
    """n of ``cards`` carrying the most structure the lead asks for, lowest cards first."""
    ctx = game.ctx
    assert game.lead is not None
    caps = game.lead.caps
    best_s: tuple[Score, int] | None = None
    best_sel: tuple[tuple[int, int], ...] = ()
    for sel in _selections(Counter(cards)):
        if sum(w for _, w in sel) > n:
            continue
        s = _cap(_score(sel, ctx), caps)
        low = sum(ctx.order[c] for c, _ in sel)
        if best_s is None or (s, -low) > best_s:
            best_s, best_sel = (s, -low), sel
    used = [c for c, w in best_sel for _ in range(w)]
    rest = Counter(cards) - Counter(used)
    fill = sorted(rest.elements(), key=lambda c: (points(c), ctx.order[c]))
    return used + fill[: n - len(used)]


def _follow(game: ShengjiGame, seat: int) -> list[int]:
    ctx = game.ctx
    lead = game.lead
    assert lead is not None
    hand = game.hands[seat]
    cards = ids_of(hand)
    n = lead.n
    best_seat, best = _current_best(game)
    partner_wins = best_seat % 2 == seat % 2
    held = suit_cards(hand, ctx, lead.suit)
    if len(held) >= n:
        legal = _legal_combos(game, seat, held, n)
        if legal:
            if partner_wins:
                return max(legal, key=lambda p: (sum(points(c) for c in p),
                                                 -sum(ctx.order[c] for c in p)))
            winning = [p for p in legal if beats(p, best, lead, ctx)]
            if winning:
                return min(winning, key=lambda p: sum(ctx.order[c] for c in p))
            return min(legal, key=lambda p: (sum(points(c) for c in p),
                                             sum(ctx.order[c] for c in p)))
        return _structured(held, game, n)
    others = [c for c in cards if ctx.eff[c] != lead.suit]
    need = n - len(held)
    if not held and lead.suit != TRUMP and not partner_wins:
        trumps = [c for c in others if ctx.is_trump(c)]
        if len(trumps) >= n and structure(trumps, ctx, lead.own, n) == lead.own:
            ruff = _structured(trumps, game, n)
            if beats(ruff, best, lead, ctx):
                return ruff
    # 垫牌: side cards before trumps; points only to a winning partner.
    others.sort(key=lambda c: (ctx.is_trump(c),
                               -points(c) if partner_wins else points(c), ctx.order[c]))
    return held + others[:need]


def _legal_combos(game: ShengjiGame, seat: int, held: Sequence[int], n: int,
                  limit: int = 400) -> list[list[int]]:
    lead = game.lead
    assert lead is not None
    if comb(len(held), n) > 4 * limit:
        return []
    seen: set[tuple[int, ...]] = set()
    out: list[list[int]] = []
    for combo in combinations(sorted(held), n):
        if combo in seen:
            continue
        seen.add(combo)
        if len(seen) > limit:
            return []
        if follow_problem(game.hands[seat], lead, combo, game.ctx) is None:
            out.append(list(combo))
    return out
