"""番: the 番 calculator of both tables, saying which patterns scored.

Two tables (GAMES.md §9.1):

- ``Table.CLASSIC`` (000, QQ 四川麻将): the basic patterns do not stack — only the largest
  counts (平胡 1, 对对胡 2, 清一色/带幺九/七对 3, 清对/将对 4, 龙七对/清七对/清幺九 5,
  天胡/地胡/青龙七对 6) — plus 根 (+1 per four of a kind *not* konged; 龙七对 and 青龙七对
  use one of them), 杠上花 +1 and 杠上炮 +1. 倍数 = 2^(番−1).
- ``Table.BLOOD`` (002, 血战到底): items add up — 素番 0, 自摸 0, 大对子 1, 清一色 2, 暗七对 2,
  全带幺 2, 清对 3 (instead of 清一色 + 大对子), 清七对 3 (instead of 清一色 + 暗七对), 龙七对 3
  (instead of 暗七对, using one 根), 根 +1 per four of a kind *including* kongs, 抢杠 / 杠上炮 /
  杠上花 +1, 天胡 / 地胡 +4 — capped (3番 by default). 倍数 = 2^番.

>>> from engines.mahjong.tiles import parse_hand
>>> r = evaluate(Table.CLASSIC, parse_hand("99887755221166p"), ())
>>> r.items, r.fan, r.multiple
((('qingqidui', 5),), 5, 16)
>>> r = evaluate(Table.BLOOD, parse_hand("111222444m33399p"), (), Situation(self_draw=True))
>>> r.items, r.fan, r.multiple
((('zimo', 0), ('duidui', 1)), 1, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from engines.mahjong.shape import TRIP, YAO, is_seven_pairs, standard_mask, waits


class Table(Enum):
    """Which 番 table scores a hand."""

    CLASSIC = "classic"
    BLOOD = "blood"


class MeldKind(Enum):
    """副露: 吃 (a run claimed from the seat before), 碰, 直杠 (明杠 on a discard), 面下杠 (补杠
    onto a 碰), 暗杠."""

    CHI = "chi"
    PENG = "peng"
    ZHIGANG = "zhigang"
    BUGANG = "bugang"
    ANGANG = "angang"

    @property
    def is_kong(self) -> bool:
        return self not in (MeldKind.PENG, MeldKind.CHI)


@dataclass(frozen=True)
class Meld:
    """One open set: ``kind``, its ``tile`` (a 吃's lowest tile) and the seat it was claimed
    from (吃/碰/直杠); ``taken``: the tile a 吃 took (its other two came from the hand)."""

    kind: MeldKind
    tile: int
    source: int | None = None
    taken: int | None = None

    @property
    def size(self) -> int:
        return 4 if self.kind.is_kong else 3

    @property
    def tiles(self) -> tuple[int, ...]:
        """The meld's tiles: a run for 吃, else ``size`` copies of ``tile``."""
        if self.kind is MeldKind.CHI:
            return (self.tile, self.tile + 1, self.tile + 2)
        return (self.tile,) * self.size


@dataclass(frozen=True)
class Situation:
    """How the hand was won: 自摸, 杠上花 (on a kong's replacement), 杠上炮 (on the discard
    after a kong), 抢杠 (robbing a 补杠), 天胡, 地胡."""

    self_draw: bool = False
    kong_draw: bool = False
    kong_discard: bool = False
    robbed: bool = False
    heaven: bool = False
    earth: bool = False


@dataclass(frozen=True)
class FanResult:
    """What a winning hand scores: ``items`` (pattern key, 番) in display order, ``raw`` 番
    before the cap, ``fan`` counted, ``multiple`` (倍数)."""

    items: tuple[tuple[str, int], ...]
    raw: int
    fan: int
    multiple: int


_CLASSIC_BASIC = {
    "pinghu": 1,
    "duidui": 2,
    "qingyise": 3,
    "daiyaojiu": 3,
    "qidui": 3,
    "qingdui": 4,
    "jiangdui": 4,
    "longqidui": 5,
    "qingqidui": 5,
    "qingyaojiu": 5,
    "tianhu": 6,
    "dihu": 6,
    "qinglongqidui": 6,
}
"""000's basic patterns and their 番 (only the largest counts)."""


def _gen(counts: Sequence[int], melds: Sequence[Meld], konged: bool) -> int:
    """根: kinds held four times (concealed + melds); kongs count only if ``konged``."""
    total = list(counts)
    kongs = set()
    for m in melds:
        total[m.tile] += m.size
        if m.kind.is_kong:
            kongs.add(m.tile)
    return sum(1 for t, n in enumerate(total) if n == 4 and (konged or t not in kongs))


def _suits(counts: Sequence[int], melds: Sequence[Meld]) -> set[int]:
    s = {t // 9 for t, n in enumerate(counts) if n}
    return s | {m.tile // 9 for m in melds}


def _shapes(counts: Sequence[int], melds: Sequence[Meld]) -> list[tuple[bool, bool]]:
    """Achievable (all triplets, all with 幺九) pairs of the 4-sets-and-a-pair form."""
    mask = standard_mask(counts)
    meld_props = TRIP | (YAO if all(m.tile % 9 in (0, 8) for m in melds) else 0)
    out = []
    for p in range(4):
        if mask >> p & 1:
            q = p & meld_props
            out.append((bool(q & TRIP), bool(q & YAO)))
    return out


def evaluate(
    table: Table,
    counts: Sequence[int],
    melds: Sequence[Meld],
    situation: Situation = Situation(),
    cap: int = 0,
) -> FanResult | None:
    """番 of a winning hand (``counts``: the concealed tiles with the winning tile), or None
    if it is no win. ``cap``: the most 番 counted (0: none). 缺一门 is the caller's check."""
    pairs = not melds and is_seven_pairs(counts)
    shapes = _shapes(counts, melds)
    if not pairs and not shapes:
        return None
    flush = len(_suits(counts, melds)) == 1
    total = list(counts)
    for m in melds:
        total[m.tile] += m.size
    all258 = all(t % 9 in (1, 4, 7) for t, n in enumerate(total) if n)
    quads = sum(1 for n in counts if n == 4)
    if table is Table.CLASSIC:
        return _classic(counts, melds, situation, cap, pairs, shapes, flush, all258, quads)
    return _blood(counts, melds, situation, cap, pairs, shapes, flush, quads)


def _classic(
    counts: Sequence[int],
    melds: Sequence[Meld],
    sit: Situation,
    cap: int,
    pairs: bool,
    shapes: list[tuple[bool, bool]],
    flush: bool,
    all258: bool,
    quads: int,
) -> FanResult:
    cands: list[tuple[str, int]] = []
    for trip, yao in shapes:
        cands.append(("pinghu", 1))
        if trip:
            cands.append(("duidui", 2))
            if flush:
                cands.append(("qingdui", 4))
            if all258:
                cands.append(("jiangdui", 4))
        if flush:
            cands.append(("qingyise", 3))
        if yao:
            cands.append(("daiyaojiu", 3))
            if flush:
                cands.append(("qingyaojiu", 5))
    if pairs:
        if flush and quads:
            cands.append(("qinglongqidui", 6))
        elif flush:
            cands.append(("qingqidui", 5))
        elif quads:
            cands.append(("longqidui", 5))
        else:
            cands.append(("qidui", 3))
    if sit.heaven:
        cands.append(("tianhu", 6))
    if sit.earth:
        cands.append(("dihu", 6))
    # "均不重复计算，只按最大番算": the largest basic pattern; ties keep the first listed.
    best = max(cands, key=lambda c: (c[1], -list(_CLASSIC_BASIC).index(c[0])))
    items = [best]
    gen = _gen(counts, melds, konged=False)
    if best[0] in ("longqidui", "qinglongqidui"):
        gen -= 1  # 龙七对/青龙七对 "减1根": the four of a kind is the 龙
    if gen > 0:
        items.append(("gen", gen))
    if sit.kong_draw:
        items.append(("gangshanghua", 1))
    if sit.kong_discard:
        items.append(("gangshangpao", 1))
    raw = sum(f for _, f in items)
    fan = min(raw, cap) if cap else raw
    return FanResult(tuple(items), raw, fan, 2 ** (fan - 1))


def _blood(
    counts: Sequence[int],
    melds: Sequence[Meld],
    sit: Situation,
    cap: int,
    pairs: bool,
    shapes: list[tuple[bool, bool]],
    flush: bool,
    quads: int,
) -> FanResult:
    options: list[list[tuple[str, int]]] = []
    for trip, yao in shapes:
        items: list[tuple[str, int]] = []
        if trip and flush:
            items.append(("qingdui", 3))
        elif trip:
            items.append(("duidui", 1))
        elif flush:
            items.append(("qingyise", 2))
        if yao:
            items.append(("quandaiyao", 2))
        options.append(items)
    gen = _gen(counts, melds, konged=True)
    if pairs:
        if flush:
            options.append([("qingqidui", 3)])
        elif quads:
            options.append([("longqidui", 3), ("gen", -1)])  # the 龙 is one 根
        else:
            options.append([("anqidui", 2)])
    best = max(options, key=lambda o: sum(f for _, f in o))
    items = [i for i in best if i[0] != "gen"]
    gen += sum(f for k, f in best if k == "gen")
    head: list[tuple[str, int]] = [("zimo", 0)] if sit.self_draw else []
    if not items:
        items = [("sufan", 0)]
    if gen > 0:
        items.append(("gen", gen))
    for flag, key, fan in (
        (sit.robbed, "qianggang", 1),
        (sit.kong_discard, "gangshangpao", 1),
        (sit.kong_draw, "gangshanghua", 1),
        (sit.heaven, "tianhu", 4),
        (sit.earth, "dihu", 4),
    ):
        if flag:
            items.append((key, fan))
    raw = sum(f for _, f in items)
    fan = min(raw, cap) if cap else raw
    return FanResult(tuple(head + items), raw, fan, 2**fan)


def best_ready(
    table: Table, counts: Sequence[int], melds: Sequence[Meld], suits: Sequence[int], cap: int = 0
) -> FanResult | None:
    """查大叫: the largest 番 a ready hand could win with, over all its waits in ``suits``
    (no situational extras); None if the hand is not ready."""
    best: FanResult | None = None
    hand = list(counts)
    held = list(counts)
    for m in melds:
        held[m.tile] += m.size
    for t in waits(counts, len(melds), suits):
        if held[t] >= 4:
            continue  # every copy is already in this hand: it cannot come
        hand[t] += 1
        r = evaluate(table, hand, melds, Situation(), cap)
        hand[t] -= 1
        if r is not None and (best is None or r.raw > best.raw):
            best = r
    return best
