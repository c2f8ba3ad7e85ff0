"""托管: the trustee of 升级 — always legal, remembers the table, on its partner's side.

It declares strong holdings, buries short low suits whole, leads what nothing unseen can beat
(outside shown voids), a card for its void partner to ruff or, long in trumps, its unbeatable
trumps, else a low card; follows with the most structure the rules demand, feeds points only
to a partner whose play will stand, never overtakes or ruffs (毙) a winning partner, and
takes points with the cheapest play that will stand (docs/games/shengji.md, "Trustee").
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
from engines.trick.cards import TRUMP, format_ids, ids_of, key_top, points
from engines.trick.hand import low_cards
from engines.trick.seen import Seen

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
    """扣底: low side cards without points, emptying the shortest side suits first (a void to
    ruff with), never an A or a pair while other cards will do; points only when nothing else
    is left."""
    ctx = game.ctx
    cards = ids_of(game.hands[seat])
    k = DEAL[game.decks][1]
    counts = Counter(cards)
    top = {s: max(ctx.order[c] for c in range(52) if ctx.eff[c] == s) for s in range(4)
           if s != ctx.trump}

    def keep(c: int) -> bool:
        return (ctx.is_trump(c) or points(c) > 0 or counts[c] > 1
                or ctx.order[c] == top[ctx.eff[c]])

    return "bury " + format_ids(low_cards(cards, cards, ctx, k, keep), ctx)


def _lead(game: ShengjiGame, seat: int) -> list[int]:
    ctx = game.ctx
    seen = Seen.of(game, seat)
    cards = ids_of(game.hands[seat])
    suits: dict[int, list[int]] = {}
    for c in cards:
        suits.setdefault(ctx.eff[c], []).append(c)
    side = [s for s in suits if s != TRUMP]
    # 1. 甩 every part of a side suit nobody can beat, where no opponent has shown a void
    best: list[int] = []
    for suit in side:
        if seen.opponents_void(suit):
            continue
        masters = [comp for comp in decompose(suits[suit], ctx) if seen.is_master(comp, suit)]
        throw = [c for comp in masters for c in comp.ids]
        if (len(throw), sum(points(c) for c in throw)) > (len(best), sum(map(points, best))):
            best = throw
    if best:
        return best
    trumps = suits.get(TRUMP, [])
    # 2. a low card for a partner void in a side suit to ruff (the opponents still follow)
    feed = [c for s in side if seen.partner_void(s) and not seen.opponents_void(s)
            for c in suits[s]]
    if feed:
        return [min(feed, key=lambda c: (points(c) > 0, ctx.order[c]))]
    # 3. 调主: long in trumps, draw the opponents' trumps with a part nobody can beat
    if 2 * len(trumps) >= len(cards):
        masters = [comp for comp in decompose(trumps, ctx) if seen.is_master(comp, TRUMP)]
        if masters:
            return list(max(masters, key=lambda comp: (comp.size, -comp.top)).ids)
    # 4. a low card without points, from the shortest side suit no opponent ruffs
    plain = [c for c in cards if not ctx.is_trump(c)]
    if plain:
        length = Counter(ctx.eff[c] for c in plain)
        return [min(plain, key=lambda c: (points(c) > 0, seen.opponents_void(ctx.eff[c]),
                                          length[ctx.eff[c]],
                                          ctx.order[c]))]
    pairs = [comp for comp in decompose(trumps, ctx) if comp.width > 1]
    if pairs and not any(points(c) for c in pairs[-1].ids):
        return list(min(pairs, key=lambda comp: (comp.top, -comp.size)).ids)
    return [min(trumps, key=lambda c: (points(c) > 0, ctx.order[c]))]


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


def _holds(game: ShengjiGame, seen: Seen, seat: int, play: Sequence[int]) -> bool:
    """Whether ``play`` (the trick's best so far, or ``seat``'s candidate) stays the best
    against the opponents of ``seat`` still to play: none of them can show a higher part of the
    lead's shape among the unseen cards, nor ruff a side-suit lead after showing a void."""
    ctx = game.ctx
    lead = game.lead
    assert lead is not None
    later = [(seat + i) % 4 for i in range(1, 4 - len(game.trick))]
    opponents = [s for s in later if s % 2 != seat % 2]
    if not opponents:
        return True
    suit = ctx.eff[play[0]]
    top = key_top(play, ctx, lead.width, lead.length)
    if top is None:
        return False
    higher = key_top(seen.suit_unseen(suit), ctx, lead.width, lead.length)
    if suit == lead.suit:
        if higher is not None and higher > top:
            return False
        return lead.suit == TRUMP or not any(lead.suit in seen.voids[s] for s in opponents)
    # a ruff: only an opponent void in the led suit may overruff
    return not (higher is not None and higher > top
                and any(lead.suit in seen.voids[s] for s in opponents))


def _follow(game: ShengjiGame, seat: int) -> list[int]:
    ctx = game.ctx
    lead = game.lead
    assert lead is not None
    hand = game.hands[seat]
    cards = ids_of(hand)
    n = lead.n
    seen = Seen.of(game, seat)
    best_seat, best = _current_best(game)
    partner_wins = best_seat % 2 == seat % 2
    # points go to the partner only when its play will stand
    feed = partner_wins and _holds(game, seen, seat, best)
    held = suit_cards(hand, ctx, lead.suit)
    if len(held) >= n:
        legal = _legal_combos(game, seat, held, n)
        if legal:
            if feed:
                return max(legal, key=lambda p: (sum(points(c) for c in p),
                                                 -sum(ctx.order[c] for c in p)))
            if not partner_wins:
                winning = [p for p in legal if beats(p, best, lead, ctx)]
                if winning:
                    # a play that will stand is spent only on a trick with points in it
                    got = sum(points(c) for _, play in game.trick for c in play)
                    standing = [p for p in winning if got and _holds(game, seen, seat, p)]
                    return min(standing or winning, key=lambda p: sum(ctx.order[c] for c in p))
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
    # 垫牌: side cards before trumps; points only to a partner whose play stands
    others.sort(key=lambda c: (ctx.is_trump(c), -points(c) if feed else points(c),
                               ctx.order[c]))
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
