"""做牌: what a hand is worth to the ``hard`` trustee — the expected 倍 of the wins it can reach.

A hand (the seat's concealed tiles, 13 after a discard, and its melds) is valued for each
suit it might do without (its 定缺; under 缺一门 each suit it has not melded, the best one
taken: the 缺 is chosen by value) as the best of its plans:

- **平胡** (any shape of the two kept suits), **清一色** (each kept suit alone, its melds in it),
  **对对胡** (its melds all 碰/杠), **清对**, **七对** (no melds; 龙七对 with a four) and
  **清七对**; each with its 根 (fours held, and kongs where the table counts them).
- A hand one tile short of ready (一向听) is valued over its next draw: each draw that makes it
  ready, weighted by its unseen copies, with the best ready hand it then allows, valued as
  below (so the shape kept is the one whose waits score most).
- A plan ``s`` tiles short of ready (向听) needs ``s + 1`` useful tiles: its worth is the chance
  of drawing them in the turns left — each turn a draw of one of the unseen useful tiles (有效牌
  of that plan: the unseen copies of the tiles that bring it closer), a binomial tail — times
  the 倍 of the plan's 番. A ready hand is valued exactly: over its waits, the unseen copies of
  each x the 倍 that wait would score (``fan.evaluate``).
- The tiles of the suit done without are dead: they count for nothing (a hand holding them is
  further from ready by as many draws as it needs to replace them).

Unseen copies are counted from what the seat may see: its own hand, every river and meld and
the tiles already won on — never other hands or the wall.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.mahjong.fan import Meld, MeldKind, Situation, Table, evaluate
from engines.mahjong.shape import shanten, waits

# (平胡, 对对胡, 清一色, 清对, 七对, 龙七对, 清七对) 番 of each table, 根 not included
_FAN = {
    Table.CLASSIC: (1, 2, 3, 4, 3, 4, 5),
    Table.BLOOD: (0, 1, 2, 3, 2, 2, 3),
}
"""龙七对's entry is without its own 根 (the four adds one below: 5 classic, 3 blood)."""

DECAY = 3.0
"""How fast the useful tiles thin out as the hand nears ready (stage ``j`` of ``k``:
``((k - j) / k) ** DECAY`` of the first stage's)."""

REACH = 2.0
"""Chances to complete a ready hand per own draw left: the draw itself plus a share of the
others' discards (胡 on a discard)."""


@dataclass
class Sight:
    """What one seat knows for valuing hands: unseen copies per kind, their total, its own
    draws still to come, the 番 table with its cap, the chance a draw is its last (another
    seat's win ends the hand)."""

    unseen: list[int]
    total: int
    draws: float
    table: Table
    cap: int
    hazard: float = 0.0
    memo: dict[tuple[object, ...], float] = field(default_factory=dict)

    def multiple(self, fan: int) -> float:
        if self.cap:
            fan = min(fan, self.cap)
        return float(2 ** (fan - 1)) if self.table is Table.CLASSIC else float(2**fan)


def reach(n: float, q: float, k: int, hazard: float, last: float = 0.0) -> float:
    """The chance of ``k`` useful draws within ``n`` draws (the fraction of ``n`` a last
    partial draw) when the first comes with chance ``q`` a draw and each later one with less
    (a hand nearer ready has fewer tiles that help: stage ``j`` has ``q * (k - j) / k``; the
    last, the win, also on others' discards: x ``REACH``), the hand going on past each draw
    with chance ``1 - hazard`` (another seat's win ends a 四川 hand). ``last``: the last
    stage's factor instead of ``REACH`` (1: a draw only)."""
    if k <= 0:
        return 1.0
    if q <= 0 or n <= 0:
        return 0.0
    stages = [min(1.0, q * ((k - j) / k) ** DECAY) for j in range(k)]
    stages[-1] = min(1.0, stages[-1] * (last or REACH))
    probs = [1.0] + [0.0] * k  # probs[j]: P(j useful draws so far), j == k absorbing
    whole = int(n)
    for step in range(whole + (1 if n > whole else 0)):
        part = 1.0 if step < whole else n - whole
        done = probs[k]
        for j in range(k - 1, -1, -1):
            p = stages[j] * part
            moved = probs[j] * p
            probs[j + 1] += moved
            probs[j] -= moved
        probs[k] = done + (probs[k] - done)
        for j in range(k):
            probs[j] *= 1 - hazard * part
    return probs[k]


def _bound(x: Sequence[int], melds: int) -> int:
    """Draws short, less one, counting tiles only: a hand of ``live`` useful tiles needs at
    least ``13 - 3 * melds - live + 1`` draws to win, whatever its shape."""
    return 13 - 3 * melds - sum(x)


def std_shanten(x: list[int], melds: int) -> int:
    """向听 of ``x`` (the tiles of the suits kept), counting the draws dead tiles cost."""
    return max(shanten(x, melds), _bound(x, melds))


_std = std_shanten


def _duidui(x: list[int], melds: int) -> int:
    sets = min(4, melds + sum(1 for n in x if n >= 3))
    pairs = sum(1 for n in x if n == 2)
    s = 7 - 2 * sets - min(pairs - 1, 4 - sets) if pairs else 8 - 2 * sets
    return max(s, _bound(x, melds))


def _qidui(x: list[int], melds: int) -> int:
    return max(6 - min(7, sum(n // 2 for n in x)), _bound(x, 0))


duidui_shanten = _duidui
qidui_shanten = _qidui


def _useful(x: list[int], melds: int, suits: Sequence[int], s: int, rank, sight: Sight,
            held_only: bool) -> int:
    """Unseen copies of the tiles of ``suits`` that bring ``x`` closer under ``rank``."""
    count = 0
    unseen = sight.unseen
    for suit in suits:
        for t in range(suit * 9, suit * 9 + 9):
            if not unseen[t] or x[t] >= 4:
                continue
            if held_only:
                if not x[t]:
                    continue
            else:
                r = t % 9
                if not any(x[u] for u in range(t - min(r, 2), t + min(8 - r, 2) + 1)):
                    continue
            x[t] += 1
            if rank(x, melds) < s:
                count += unseen[t]
            x[t] -= 1
    return count


def speed(hand: Sequence[int], melds: int, suits: tuple[int, ...], sight: Sight
          ) -> tuple[int, int]:
    """(向听, 有效牌) of ``hand`` keeping only ``suits``: how far from ready, and the unseen
    copies of the draws that bring it closer — the shanten player's measure."""
    x = [0] * 34
    for s in suits:
        x[s * 9 : s * 9 + 9] = hand[s * 9 : s * 9 + 9]
    sh = std_shanten(x, melds)
    return sh, _useful(x, melds, suits, sh, std_shanten, sight, False)


def _ready(x: list[int], melds: Sequence[Meld], suits: Sequence[int], sight: Sight) -> float:
    """A ready hand: its chance to win in the draws left x the mean 倍 of its live waits."""
    live = 0
    worth = 0.0
    for w in waits(x, len(melds), suits):
        if not sight.unseen[w]:
            continue
        x[w] += 1
        r = evaluate(sight.table, x, melds, Situation(), sight.cap)
        x[w] -= 1
        if r is not None:
            live += sight.unseen[w]
            worth += sight.unseen[w] * r.multiple
    if not live:
        return 0.0
    q = live / max(1, sight.total)
    return reach(sight.draws, q, 1, sight.hazard) * worth / live


def _ready_memo(x: list[int], melds: Sequence[Meld], suits: Sequence[int],
                sight: Sight) -> float:
    key = ("ready", tuple(x[:27]), len(melds), tuple((m.kind, m.tile) for m in melds))
    hit = sight.memo.get(key)
    if hit is None:
        hit = sight.memo[key] = _ready(x, melds, suits, sight)
    return hit


SOON = 0.8
"""A ready hand reached after a draw has fewer draws left than one ready now."""


def _one_away(x: list[int], melds: Sequence[Meld], suits: Sequence[int], sight: Sight) -> float:
    """一向听, valued over its next draw: for each draw that makes it ready, the unseen copies
    of that draw x the worth of the best ready hand it then allows (its waits' 倍, exactly);
    their mean x the chance of such a draw."""
    nm = len(melds)
    useful = 0
    acc = 0.0
    for suit in suits:
        for t in range(suit * 9, suit * 9 + 9):
            if not sight.unseen[t] or x[t] >= 4:
                continue
            r = t % 9
            if not any(x[u] for u in range(t - min(r, 2), t + min(8 - r, 2) + 1)):
                continue
            x[t] += 1
            if std_shanten(x, nm) <= 0:
                best = 0.0
                for d in range(27):
                    if x[d] and d != t:
                        x[d] -= 1
                        if std_shanten(x, nm) == 0:
                            best = max(best, _ready_memo(x, melds, suits, sight))
                        x[d] += 1
                useful += sight.unseen[t]
                acc += sight.unseen[t] * best
            x[t] -= 1
    if not useful:
        return 0.0
    q = useful / max(1, sight.total)
    return reach(sight.draws, q, 1, sight.hazard, last=1.0) * SOON * acc / useful


def _gen(x: Sequence[int], melds: Sequence[Meld], table: Table) -> int:
    fours = sum(1 for n in x if n == 4)
    if table is Table.BLOOD:
        fours += sum(1 for m in melds if m.kind.is_kong)
    return fours


def value(hand: Sequence[int], melds: Sequence[Meld], suits: tuple[int, ...],
          sight: Sight) -> float:
    """The expected 倍 of ``hand`` (concealed tiles) keeping only ``suits``."""
    key = (tuple(hand[:27]), tuple((m.kind, m.tile) for m in melds), suits)
    hit = sight.memo.get(key)
    if hit is not None:
        return hit
    x = [0] * 34
    for s in suits:
        x[s * 9 : s * 9 + 9] = hand[s * 9 : s * 9 + 9]
    nm = len(melds)
    if any(m.tile // 9 not in suits for m in melds):
        sight.memo[key] = 0.0
        return 0.0
    best = _plans(x, melds, suits, sight)
    sight.memo[key] = best
    return best


def _plan(x: list[int], nm: int, suits: Sequence[int], rank, fan: int, sight: Sight,
          held_only: bool) -> float:
    s = rank(x, nm)
    if s < 0:
        return sight.multiple(fan)
    q = _useful(x, nm, suits, s, rank, sight, held_only) / max(1, sight.total)
    return reach(sight.draws, q, s + 1, sight.hazard) * sight.multiple(fan)


def _plans(x: list[int], melds: Sequence[Meld], suits: tuple[int, ...], sight: Sight) -> float:
    nm = len(melds)
    f = _FAN[sight.table]
    gen = _gen(x, melds, sight.table)
    s = _std(x, nm)
    if s == 0 and sum(x) + 3 * nm == 13:
        best = _ready(x, melds, suits, sight)
    elif s == 1 and sum(x) + 3 * nm == 13:
        best = _one_away(x, melds, suits, sight)
    else:
        best = _plan(x, nm, suits, _std, f[0] + gen, sight, False)
    open_trips = all(m.kind is not MeldKind.CHI for m in melds)
    if open_trips:
        best = max(best, _plan(x, nm, suits, _duidui, f[1] + gen, sight, True))
    if not melds:
        quad = any(n == 4 for n in x)
        qd = f[5] + gen if quad else f[4] + gen
        best = max(best, _plan(x, 0, suits, _qidui, qd, sight, True))
    for suit in suits:
        if any(m.tile // 9 != suit for m in melds):
            continue
        one = [0] * 34
        one[suit * 9 : suit * 9 + 9] = x[suit * 9 : suit * 9 + 9]
        if sum(one) + 3 * nm < 8:
            continue  # too few of the suit to be worth a plan of its own
        g = _gen(one, melds, sight.table)
        best = max(best, _plan(one, nm, (suit,), _std, f[2] + g, sight, False))
        if open_trips:
            best = max(best, _plan(one, nm, (suit,), _duidui, f[3] + g, sight, True))
        if not melds:
            best = max(best, _plan(one, 0, (suit,), _qidui, f[6] + g, sight, True))
    return best
