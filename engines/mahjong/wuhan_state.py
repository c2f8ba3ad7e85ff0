"""武汉麻将's rules: the 癞子 (``laizi_of``), the hand judge (``judge``: 小胡 / 大胡, 硬胡) and
``WuhanState``, the hand's state over the core with the queries the rules make (开口翻,
the specials 红中 and 癞子, 海底's reserve). Flow and decisions: engines.mahjong.wuhan.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import ClassVar

from engines.base import Setup
from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.game import DISCARD, SEATS, MahjongGame
from engines.mahjong.tiles import tile_name
from engines.mahjong.wild import ANY_PAIR, PAIR_258, need, need_triplets

HONGZHONG = 31
"""红中 (5z)."""
HAIDI_RESERVE = 10
"""海底的5沓牌: never drawn."""
HAIDI = 4
"""The last four tiles drawn before the reserve: 海底捞 only."""
CAP, JINDING, JINDING_KOUKOU = 300, 400, 500
ESCAPE, ESCAPE_KOUKOU = 400, 500
BIG_BASE = 10

_HONOUR_CYCLE = (27, 28, 29, 30, 32, 33)  # 东南西北 发白: 红中 is skipped


def laizi_of(flipped: int) -> int:
    """The 癞子 for a turned-up tile: one above it (9 → 1; 东南西北发白 cycle, 中 → 发)."""
    if flipped < 27:
        return flipped - flipped % 9 + (flipped % 9 + 1) % 9
    if flipped == HONGZHONG:
        return 32
    return _HONOUR_CYCLE[(_HONOUR_CYCLE.index(flipped) + 1) % len(_HONOUR_CYCLE)]


@dataclass(frozen=True)
class Hand:
    """A 武汉 win: the 大胡 items (empty: 小胡) and whether it is 硬胡."""

    bigs: tuple[str, ...]
    hard: bool

    @property
    def base(self) -> int:
        return BIG_BASE * len(self.bigs) if self.bigs else 1


def _shape(natural: Sequence[int], wilds: int, melds: Sequence[Meld]) -> tuple[bool, list[str]]:
    """(complete?, the 大胡 shapes it makes) for the concealed natural tiles and ``wilds``."""
    tiles = [t for t, n in enumerate(natural) for _ in range(n)]
    tiles += [t for m in melds for t in m.tiles]
    bigs = []
    if all(m.kind is not MeldKind.CHI for m in melds) and need_triplets(natural) <= wilds:
        bigs.append("pengpeng")
    suits = {t // 9 for t in tiles}
    if len(suits) == 1 and 3 not in suits and need(natural, ANY_PAIR) <= wilds:
        bigs.append("qingyise")
    if tiles and all(t < 27 and t % 9 in (1, 4, 7) for t in tiles):
        bigs.append("jiangyise")  # 乱将: any tiles, all 2/5/8
    if tiles and all(t >= 27 for t in tiles):
        bigs.append("fengyise")  # 乱风: any honours
    return need(natural, PAIR_258) <= wilds or bool(bigs), bigs


def judge(
    hand: Sequence[int],
    melds: Sequence[Meld],
    laizi: int,
    *,
    situations: Sequence[str] = (),
    on_discard: bool = False,
) -> Hand | None:
    """The best reading of a complete 武汉 hand (``hand``: concealed tiles with the winning
    tile), or None if it is no win. ``situations``: 大胡 of the moment (gangkai, haidi,
    qianggang). The caller checks 开口; holding 红中 is never a win; two 癞子 make no 小胡."""
    if hand[HONGZHONG]:
        return None
    wilds = hand[laizi]
    natural = list(hand)
    natural[laizi] = 0
    readings = [(natural, wilds, False)]
    if wilds:
        readings.append((list(hand), 0, True))  # the 癞子 as itself
    else:
        readings = [(natural, 0, True)]
    best: Hand | None = None
    exposed = sum(1 for m in melds if m.kind is not MeldKind.ANGANG)
    for counts, w, hard in readings:
        ok, bigs = _shape(counts, w, melds)
        if not ok:
            continue
        if exposed == 4 and on_discard:
            bigs.append("quanqiuren")
        bigs += list(situations)
        if not bigs and wilds >= 2:
            continue  # "当有两个癞子时不能胡小胡"
        found = Hand(tuple(bigs), hard)
        if best is None or _value(found) > _value(best):
            best = found
    return best


def _value(hand: Hand) -> int:
    return hand.base * (2 if hand.hard else 1)



class WuhanState(MahjongGame):
    """武汉麻将's state over the core: the 癞子, openings, special kongs; what the rules ask."""

    KEY: ClassVar[str] = "wuhan"
    KINDS: ClassVar[int] = 34

    _robbing = False

    def __init__(self, setup: Setup, wall: Sequence[int] | None = None) -> None:
        super().__init__(setup, wall)
        self.koukou = bool(setup.options.get("koukou", False))
        self.flipped = self.wall[self.pos]
        self.pos += 1  # the turned-up tile is set aside, face up
        self.laizi = laizi_of(self.flipped)
        self.opens = [0] * SEATS
        self.open_sources: list[list[int]] = [[] for _ in range(SEATS)]
        self.special = [0] * SEATS  # 红中杠 and 癞子杠
        self.laizi_kongs = [0] * SEATS  # of which 癞子杠
        self.haidi = False
        self.liable: int | None = None
        self.losses: list[int] = [0] * SEATS
        self._phase = DISCARD

    def specials(self) -> tuple[int, int]:
        """The tiles that are never claimed and are put out as a kong: 红中 and the 癞子."""
        return (HONGZHONG, self.laizi)

    def exhausted(self) -> bool:
        return self.wall_left() <= HAIDI_RESERVE

    def last_four(self) -> bool:
        return False

    def _kongs_allowed(self) -> bool:
        """A kong's replacement must come before 海底 ("此时不能打出不能杠")."""
        return self.wall_left() > HAIDI_RESERVE + HAIDI

    def kong_options(self, seat: int) -> list[str]:
        """暗杠 (not of 红中 or the 癞子), 蓄杠 onto a 碰, 红中杠 and 癞子杠 of a single tile."""
        if not self._kongs_allowed():
            return []
        hand = self.hands[seat]
        tiles = {t for t in range(34) if hand[t] == 4 and t not in self.specials()}
        tiles |= {m.tile for m in self.melds[seat] if m.kind is MeldKind.PENG and hand[m.tile]}
        tiles |= {t for t in self.specials() if hand[t]}
        return [f"gang {tile_name(t)}" for t in sorted(tiles)]

    def _claimable(self, seat: int, tile: int) -> bool:
        return tile not in self.specials()

    def _chi_options(self, seat: int, tile: int) -> list[str]:
        return self.chi_runs(seat, tile, barred=self.specials())

    def hand_of(self, seat: int, tile: int | None) -> list[int]:
        hand = list(self.hands[seat])
        if tile is not None:
            hand[tile] += 1
        return hand

    def judge_win(
        self, seat: int, tile: int | None, *, robbed: bool = False, on_discard: bool = False
    ) -> Hand | None:
        """The seat's win with ``tile`` (None: its hand as it is, 自摸), or None."""
        if self.wins or not self.opens[seat]:
            return None  # 开口翻: an opening is needed; one win ends the hand
        situations = []
        if tile is None and self.turn_kong is not None:
            situations.append("gangkai")
        if tile is None and self.haidi:
            situations.append("haidi")
        if robbed:
            situations.append("qianggang")
        return judge(
            self.hand_of(seat, tile),
            self.melds[seat],
            self.laizi,
            situations=situations,
            on_discard=on_discard,
        )

    def can_win_with(self, seat: int, tile: int | None, *, discard: bool) -> bool:
        if tile is not None and tile in self.specials():
            return False  # a discarded 癞子 cannot be won on
        robbed = discard and self._robbing
        return self.judge_win(seat, tile, robbed=robbed, on_discard=discard) is not None

    def ready(self, seat: int) -> bool:
        """听牌 (for 承包): some tile would complete the seat's hand (shape only)."""
        for t in range(34):
            hand = self.hand_of(seat, t)
            hand[HONGZHONG] = 0
            if judge(hand, self.melds[seat], self.laizi) is not None:
                return True
        return False

    def census(self) -> Counter[int]:
        c = super().census()
        c[self.flipped] += 1
        return c
