"""托管: the trustee of 打滚子 — always legal, remembers the table, on its partner's side.

It shows a 大王 with a third of its hand in trumps and declares two or more level cards; it
buries low side cards without points, emptying its shortest side suits first. Leading, it
plays what nobody can beat (a card, 棒子 or 滚子 with no higher one of that size left unseen)
in a suit no opponent has shown void, else a low card its void partner can ruff, else its
lowest card without points from its shortest suit; it never leads trumps to draw them (the
big trumps keep the last trick, which decides 抠底 and the levels). Following, it gives points only to a partner whose play will stand, never overtakes a
winning partner, and takes a trick from the opponents with the lowest play that will stand
(else the lowest that wins), keeping its points and trumps otherwise. Its top trump, when
nothing unseen beats it, waits for the last trick unless 20 points or more are at stake.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from engines.dagunzi.rules import ACE, KITTY, PER, beats
from engines.trick.cards import SMALL, TRUMP, Context, format_ids, ids_of, points
from engines.trick.hand import low_cards
from engines.trick.seen import Seen

if TYPE_CHECKING:
    from engines.dagunzi.game import DagunziGame


def choose(game: DagunziGame, seat: int) -> str:
    """The trustee's action for ``seat`` (which is in ``game.to_act()``)."""
    ctx = game.ctx
    cards = ids_of(game.hands[seat])
    phase = game.phase()
    if phase == "declare":
        best = max(game._declarations(seat), key=lambda d: d.strength)
        return f"declare {game._decl_text(best)}" if best.strength >= 2 else "pass"
    if phase == "jokers":
        return "pass"
    if phase == "show":
        return "show" if show_trumps(game, seat) >= PER // 3 else "pass"
    low = sorted(cards, key=lambda c: (ctx.is_trump(c), points(c) > 0, ctx.order[c]))
    if phase == "return":
        assert game.tribute is not None
        return "return " + format_ids(low[: len(game.tribute[2])], ctx)
    if phase == "bury":
        if game.dry and game.dealt_kitty is not None:
            return "bury " + format_ids(game.dealt_kitty, ctx)
        return "bury " + format_ids(_bury(cards, ctx), ctx)
    seen = _seen(game, seat)
    if not game.trick:
        return format_ids(_lead(cards, seen), ctx)
    return format_ids(_follow(game, seat, seen), ctx)


def show_trumps(game: DagunziGame, seat: int) -> int:
    """How many trumps ``seat`` would hold with the suit its 大王 names (the trustee shows
    with at least a third of its hand: trumps are a third of the three decks)."""
    claim = game._big_claim(seat)
    assert claim is not None
    ctx = Context(game.levels[seat % 2], claim[1], True)
    return sum(n for c, n in enumerate(game.hands[seat]) if n and ctx.is_trump(c))


def _seen(game: DagunziGame, seat: int) -> Seen:
    hidden = game.kitty if game.dealer != seat else []
    return Seen.build(seat, game.hands, hidden, game.log, game.ctx)


def _bury(cards: Sequence[int], ctx: Context) -> list[int]:
    """扣底: six side cards without points, whole short suits first; never a joker (so the
    大王-before-小王 rule never binds), an A or a 棒 while other cards will do."""
    counts = Counter(cards)

    def keep(c: int) -> bool:
        return ctx.is_trump(c) or points(c) > 0 or counts[c] > 1 or c % 13 + 2 == ACE

    return low_cards(cards, [c for c in cards if c < SMALL], ctx, KITTY, keep)


def _master(cid: int, width: int, seen: Seen) -> bool:
    """Nobody can beat ``width`` copies of ``cid`` in its suit: no higher card has ``width``
    unseen copies (equal cards: the first played wins)."""
    ctx = seen.ctx
    suit, order = ctx.eff[cid], ctx.order[cid]
    return not any(k >= width and ctx.eff[c] == suit and ctx.order[c] > order
                   for c, k in enumerate(seen.unseen))


def _lead(cards: Sequence[int], seen: Seen) -> list[int]:
    ctx = seen.ctx
    counts = Counter(cards)
    side = [c for c in counts if not ctx.is_trump(c)]
    masters = [(w, c) for c in side if not seen.opponents_void(ctx.eff[c])
               for w in range(counts[c], 0, -1) if _master(c, w, seen)]
    if masters:
        w, c = max(masters, key=lambda wc: (wc[0], points(wc[1]), ctx.order[wc[1]]))
        return [c] * w
    feed = [c for c in side if seen.partner_void(ctx.eff[c])
            and not seen.opponents_void(ctx.eff[c])]
    if feed:
        return [min(feed, key=lambda c: (points(c) > 0, ctx.order[c]))]
    trumps = [c for c in counts if ctx.is_trump(c)]
    if side:
        length = Counter(ctx.eff[c] for c in cards if not ctx.is_trump(c))
        return [min(side, key=lambda c: (points(c) > 0, seen.opponents_void(ctx.eff[c]),
                                         length[ctx.eff[c]], ctx.order[c]))]
    return [min(trumps, key=lambda c: (points(c) > 0, ctx.order[c]))]


def _holds(game: DagunziGame, seen: Seen, seat: int, play: Sequence[int]) -> bool:
    """Whether ``play`` stays the trick's best against the opponents still to play: no higher
    card of its size unseen in its suit, and no void opponent to ruff a side-suit lead."""
    ctx = game.ctx
    lead = game.trick[0][1]
    later = [(seat + i) % 4 for i in range(1, 4 - len(game.trick))]
    opponents = [s for s in later if s % 2 != seat % 2]
    if not opponents:
        return True
    lead_suit = ctx.eff[lead[0]]
    if len(play) != len(lead) or len(set(play)) != 1:
        return False
    higher = not _master(play[0], len(play), seen)
    ruffers = lead_suit != TRUMP and any(lead_suit in seen.voids[s] for s in opponents)
    if ctx.eff[play[0]] == lead_suit:
        return not higher and not ruffers
    return not (higher and ruffers)


def _guard(game: DagunziGame, seat: int, seen: Seen) -> int | None:
    """The trump kept for the last trick (following): ``seat``'s highest trump when nothing
    unseen beats it, while more than the last trick's cards are left (None: no such trump, or
    this is the last trick)."""
    ctx = game.ctx
    hand = game.hands[seat]
    if sum(hand) <= len(game.trick[0][1]):
        return None
    trumps = [c for c, k in enumerate(hand) if k and ctx.is_trump(c)]
    if not trumps:
        return None
    top = max(trumps, key=lambda c: ctx.order[c])
    return top if _master(top, 1, seen) else None


def _candidates(game: DagunziGame, seat: int) -> list[list[int]]:
    """The follows worth weighing: every legal one from the led suit; short of it, the whole
    led suit with the cheapest or the richest other cards, or a trump 棒/滚 of the lead's size
    (the only plays that can win there; any filler is legal when the suit runs out)."""
    ctx = game.ctx
    lead = game.trick[0][1]
    n = len(lead)
    suit = ctx.eff[lead[0]]
    hand = game.hands[seat]
    held = [c for c in ids_of(hand) if ctx.eff[c] == suit]
    if len(held) >= n:
        return game._follows(seat)
    need = n - len(held)
    others = [c for c in ids_of(hand) if ctx.eff[c] != suit]
    cheap = sorted(others, key=lambda c: (ctx.is_trump(c), points(c), ctx.order[c]))
    rich = sorted(others, key=lambda c: (ctx.is_trump(c), -points(c), ctx.order[c]))
    out = [held + cheap[:need], held + rich[:need]]
    if not held:
        out += [[c] * n for c, k in enumerate(hand) if k >= n and ctx.is_trump(c)]
    return out


def _follow(game: DagunziGame, seat: int, seen: Seen) -> list[int]:
    ctx = game.ctx
    lead = game.trick[0][1]
    best_seat, best = game.trick[0]
    for s, play in game.trick[1:]:
        if beats(play, best, lead, ctx):
            best_seat, best = s, play
    partner = best_seat % 2 == seat % 2
    feed = partner and _holds(game, seen, seat, best)
    legal = _candidates(game, seat)
    if not partner:
        winning = [p for p in legal if beats(p, best, lead, ctx)]
        guard = _guard(game, seat, seen)
        got = sum(points(c) for _, p in game.trick for c in p)
        if guard is not None and got < 20:
            # 保底 / 抠底: the top trump waits for the last trick unless points are at stake
            winning = [p for p in winning if guard not in p]
        if winning:
            # a card that will stand is spent only on a trick with points in it
            got = sum(points(c) for _, p in game.trick for c in p)
            standing = [p for p in winning if got and _holds(game, seen, seat, p)]
            return min(standing or winning,
                       key=lambda p: (ctx.is_trump(p[0]), sum(ctx.order[c] for c in p)))
    sign = -1 if feed else 1
    return min(legal, key=lambda p: (sum(ctx.is_trump(c) for c in p),
                                     sign * sum(points(c) for c in p),
                                     sum(ctx.order[c] for c in p)))
