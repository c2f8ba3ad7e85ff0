"""牌型: the structure of a play (singles, pairs, 三同张, 拖拉机, 泰坦尼克), follow duties, 甩牌
checks and who wins a trick.

A pair (对子) is two identical cards, a triple (三同张) three; a tractor (拖拉机) is pairs of
adjacent orders in one effective suit, a 泰坦尼克 the same with triples. The structure of a
set of cards is the score ``(tt, tp, tr, pr)`` = (triples inside 泰坦尼克, pairs inside
tractors, triples, pairs), maximised lexicographically over the ways of reading the cards —
the text's order of duties (泰坦尼克 › 拖拉机 › 三同张 › 对子). Following a lead, a seat must
play the highest structure its cards of the led suit allow, each part capped at what the lead
has (docs/games/shengji.md, "Following").

>>> from engines.trick.cards import Context, parse_ids
>>> ctx = Context(10, None, False)
>>> structure(parse_ids("Ks Ks Qs Qs"), ctx)
(0, 2, 0, 2)
>>> [c.text(ctx) for c in decompose(parse_ids("9s 8s 8s 4s 4s"), ctx)]
['8s 8s', '4s 4s', '9s']
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from engines.trick.cards import TRUMP, Context, format_ids, key_top

Score = tuple[int, int, int, int]
ZERO: Score = (0, 0, 0, 0)
KINDS = ("titanic", "tractor", "triple", "pair", "single")


def cover(units: dict[int, int]) -> int:
    """The most units (pairs or triples, ``order → how many``) that lie in runs of two or more
    adjacent orders, each run taking one unit per order."""
    if not units:
        return 0
    orders = sorted(units)
    best: dict[int, int] = {0: 0}  # chains coming into the current order → covered so far
    for i, o in enumerate(orders):
        c = units[o]
        nxt = units.get(o + 1, 0) if i + 1 < len(orders) and orders[i + 1] == o + 1 else 0
        new: dict[int, int] = {}
        for f_in, got in best.items():
            for f_out in range(min(c, nxt) + 1):
                v = got + min(c, f_in + f_out)
                if new.get(f_out, -1) < v:
                    new[f_out] = v
        best = new
    return max(best.values())


def _selections(counts: Counter[int]) -> Iterable[tuple[tuple[int, int], ...]]:
    """Every way to pick units from ``counts`` (id → copies): per id none, a pair or a triple."""
    multi = [(cid, k) for cid, k in sorted(counts.items()) if k >= 2]
    options = [[0, 2, 3][: k] if k >= 3 else [0, 2] for cid, k in multi]
    for pick in product(*options):
        yield tuple((cid, w) for (cid, _), w in zip(multi, pick, strict=True) if w)


def _score(sel: Sequence[tuple[int, int]], ctx: Context) -> Score:
    pairs: dict[int, int] = {}
    triples: dict[int, int] = {}
    for cid, w in sel:
        table = triples if w == 3 else pairs
        o = ctx.order[cid]
        table[o] = table.get(o, 0) + 1
    return (cover(triples), cover(pairs), sum(triples.values()), sum(pairs.values()))


def _cap(score: Score, caps: Score) -> Score:
    return (min(score[0], caps[0]), min(score[1], caps[1]), min(score[2], caps[2]),
            min(score[3], caps[3]))


UNCAPPED: Score = (99, 99, 99, 99)


def structure(cards: Sequence[int], ctx: Context, caps: Score = UNCAPPED,
              limit: int | None = None) -> Score:
    """The best (lexicographic) structure score of ``cards``, each part capped by ``caps``,
    using at most ``limit`` cards for the units (None: all)."""
    best = ZERO
    for sel in _selections(Counter(cards)):
        if limit is not None and sum(w for _, w in sel) > limit:
            continue
        s = _cap(_score(sel, ctx), caps)
        best = max(best, s)
    return best


@dataclass(frozen=True)
class Component:
    """One part of a play: ``width`` 1/2/3 (single, pair, triple), ``length`` adjacent orders
    (≥ 2 for 拖拉机 / 泰坦尼克), ``top`` the highest order, ``ids`` its cards."""

    width: int
    length: int
    top: int
    ids: tuple[int, ...]

    @property
    def kind(self) -> str:
        if self.length >= 2:
            return "titanic" if self.width == 3 else "tractor"
        return {3: "triple", 2: "pair", 1: "single"}[self.width]

    @property
    def rank(self) -> tuple[int, int]:
        """Bigger is the more demanding shape: kind first, then length."""
        return (4 - KINDS.index(self.kind), self.length)

    @property
    def size(self) -> int:
        return self.width * self.length

    def text(self, ctx: Context) -> str:
        return format_ids(self.ids, ctx)


def _chains(units: list[tuple[int, int]], width: int) -> list[Component]:
    """Greedy runs over (order, id) units of one width: longest chains from the top."""
    left = sorted(units, reverse=True)
    out: list[Component] = []
    while left:
        o, cid = left.pop(0)
        run = [(o, cid)]
        while True:
            nxt = next((u for u in left if u[0] == run[-1][0] - 1), None)
            if nxt is None:
                break
            left.remove(nxt)
            run.append(nxt)
        if len(run) >= 2:
            out.append(Component(width, len(run), o, tuple(c for _, c in run for _ in range(width))))
        else:
            out.append(Component(width, 1, o, (cid,) * width))
    return out


def decompose(cards: Sequence[int], ctx: Context) -> list[Component]:
    """The components of a play in one effective suit, read with the most structure;
    the most demanding first, then by strength."""
    counts = Counter(cards)
    best: Score | None = None
    chosen: tuple[tuple[int, int], ...] = ()
    for sel in _selections(counts):
        s = _score(sel, ctx)
        if best is None or s > best:
            best, chosen = s, sel
    used: Counter[int] = Counter()
    triples: list[tuple[int, int]] = []
    pairs: list[tuple[int, int]] = []
    for cid, w in chosen:
        used[cid] += w
        (triples if w == 3 else pairs).append((ctx.order[cid], cid))
    comps = _chains(triples, 3) + _chains(pairs, 2)
    for cid, k in counts.items():
        comps.extend(Component(1, 1, ctx.order[cid], (cid,)) for _ in range(k - used[cid]))
    comps.sort(key=lambda c: (c.rank, c.top), reverse=True)
    return comps


def suit_cards(hand: Sequence[int], ctx: Context, suit: int) -> list[int]:
    """The ids (with repeats) of ``hand`` (counts) in effective ``suit``."""
    return [cid for cid, k in enumerate(hand) if k and ctx.eff[cid] == suit for _ in range(k)]


@dataclass(frozen=True)
class Lead:
    """What a trick's lead demands: its effective ``suit``, size ``n``, its own structure
    ``own`` (what a winning play must carry), the follow duty ``caps`` and the ``width`` and
    ``length`` of its largest component, which decides the trick.

    The duty lets a triple be answered by a pair and a 泰坦尼克 by a tractor (the text's
    orders: 三同张 › 对子 + 单张; 泰坦尼克 › 拖拉机 + 任意两张), so ``caps`` adds the triples to
    the pairs and the 泰坦尼克 triples to the tractor pairs.
    """

    suit: int
    n: int
    own: Score
    caps: Score
    width: int
    length: int

    @classmethod
    def of(cls, cards: Sequence[int], ctx: Context) -> Lead:
        comps = decompose(cards, ctx)
        own = structure(cards, ctx)
        caps = (own[0], own[1] + own[0], own[2], own[3] + own[2])
        return cls(ctx.eff[cards[0]], len(cards), own, caps, comps[0].width, comps[0].length)

    @property
    def kind(self) -> str:
        return Component(self.width, self.length, 0, ()).kind


def shortfall(got: Score, need: Score) -> str:
    """The first part of the structure order a follow is short of: the kind to name."""
    for i, kind in enumerate(("titanic", "tractor", "triple", "pair")):
        if got[i] < need[i]:
            return kind
    return "single"


@dataclass(frozen=True, slots=True)
class FollowRule:
    """What a follow of ``lead`` from one hand must be, worked out once for the hand: ``lead.n``
    cards, carrying ``need`` of the led suit (all the hand holds, up to ``lead.n``), and where it
    holds more than that, no weaker structure than the best those cards make (``best``).
    ``follow_problem`` and ``legal_follows`` both judge by it."""

    lead: Lead
    ctx: Context
    need: int
    best: Score | None

    @classmethod
    def of(cls, hand: Sequence[int], lead: Lead, ctx: Context) -> FollowRule:
        held = suit_cards(hand, ctx, lead.suit)
        best = structure(held, ctx, lead.caps, lead.n) if len(held) > lead.n else None
        return cls(lead, ctx, min(len(held), lead.n), best)

    def problem(self, play: Sequence[int]) -> tuple[str, Score, Score] | None:
        """Why ``play`` (ids) is not a legal follow, or None (``follow_problem``)."""
        lead, eff = self.lead, self.ctx.eff
        if len(play) != lead.n:
            return ("count", ZERO, ZERO)
        if self.need and sum(1 for c in play if eff[c] == lead.suit) < self.need:
            return ("suit", ZERO, ZERO)
        if self.best is None:
            return None
        got = structure(play, self.ctx, lead.caps)
        return ("structure", self.best, got) if got < self.best else None


def follow_problem(hand: Sequence[int], lead: Lead, play: Sequence[int],
                   ctx: Context) -> tuple[str, Score, Score] | None:
    """Why ``play`` (ids, from ``hand`` counts) is not a legal follow, or None.

    Returns ("count", ...) for a wrong number of cards, ("suit", ...) when cards of the led
    suit are kept back, ("structure", best, got) when a bigger structure was possible.
    """
    return FollowRule.of(hand, lead, ctx).problem(play)


def legal_follows(hand: Sequence[int], lead: Lead, ctx: Context,
                  most: int = 5000) -> list[tuple[int, ...]]:
    """The legal follows (``follow_problem`` None) among the first ``most`` distinct sets of
    ``lead.n`` cards of ``hand`` (counts), in the order ``combinations`` of the sorted ids
    gives them, judged by one ``FollowRule`` for the hand."""
    cards = sorted(cid for cid, k in enumerate(hand) for _ in range(k))
    rule = FollowRule.of(hand, lead, ctx)
    seen: set[tuple[int, ...]] = set()
    out: list[tuple[int, ...]] = []
    for combo in combinations(cards, lead.n):
        if combo in seen:
            continue
        seen.add(combo)
        if len(seen) > most:
            break
        if rule.problem(combo) is None:
            out.append(combo)
    return out


def beats(play: Sequence[int], winner: Sequence[int], lead: Lead, ctx: Context) -> bool:
    """Whether ``play`` beats the trick's current best play ``winner``: it must be all of the
    led suit or all trump (毙), carry the lead's whole structure, and its largest component
    must be strictly higher (盖毙 for ruffs; the first of equals wins)."""
    suits = {ctx.eff[c] for c in play}
    if len(suits) != 1:
        return False
    suit = suits.pop()
    if suit not in (lead.suit, TRUMP):
        return False
    if structure(play, ctx, lead.own) != lead.own:
        return False
    top = key_top(play, ctx, lead.width, lead.length)
    if top is None:
        return False
    wsuit = ctx.eff[winner[0]]
    if suit == TRUMP and wsuit != TRUMP:
        return True
    if suit != wsuit:
        return False
    wtop = key_top(winner, ctx, lead.width, lead.length)
    return wtop is None or top > wtop


def beatable(comp: Component, hand: Sequence[int], ctx: Context, suit: int) -> bool:
    """Whether a hand (counts) holds, in ``suit``, a part of the same shape as ``comp`` that is
    strictly higher (甩牌 check)."""
    top = key_top(suit_cards(hand, ctx, suit), ctx, comp.width, comp.length)
    return top is not None and top > comp.top


def failed_throw(cards: Sequence[int], others: Sequence[Sequence[int]],
                 ctx: Context) -> Component | None:
    """甩牌: None if no other hand can beat any component of the throw; else the part the
    thrower must play instead — the smallest beatable component (lowest top, then fewest
    cards)."""
    comps = decompose(cards, ctx)
    if len(comps) <= 1:
        return None
    suit = ctx.eff[cards[0]]
    bad = [c for c in comps if any(beatable(c, h, ctx, suit) for h in others)]
    if not bad:
        return None
    return min(bad, key=lambda c: (c.top, c.size))


def kitty_multiplier(lead: Lead) -> int:
    """扣底 multiplier: 2 to the number of cards of the last trick's largest pattern, at most
    64 (SJ-E4)."""
    return min(64, 2 ** (lead.width * lead.length))
