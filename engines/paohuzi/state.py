"""一局跑胡子的状态: the state of a 王炸跑胡子 hand — the deal (dealt 提 laid down), the stock,
hands, groups and rivers — and the rules' queries (胡息, what may be discarded, the best 胡,
every way to 吃). ``PaohuziGame`` (engines.paohuzi.game) builds on it.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from engines.base import Game, Setup, T, Text
from engines.errors import OptionError
from engines.memo import FIXED_DOMAIN
from engines.paohuzi.groups import Group, Kind, best_huxi, is_run, same_value
from engines.paohuzi.scoring import MIN_HUXI, Fan, fan_of
from engines.paohuzi.tiles import KINDS, WILD, WORD_KINDS, format_group, full_set, tiles_of

DISCARD, CLAIM, OVER = "discard", "claim", "over"
SEATS = 3
DEALT = 20
"""Tiles dealt to each seat; the dealer gets one more (003 砌牌: 21 / 20 / 20)."""
OPTIONS: dict[str, Any] = {"di": 0}
"""Room options: ``di`` — the 底 added to every win's 子 (PH-E1 "加了个底"), 0–10."""
MAX_DI = 10
WANGBA_PAY = 5
"""黄牌: each 王霸 held costs its holder 5 stakes to each seat holding none."""


def _bad_option(key: str, value: Any) -> OptionError:
    return OptionError(
        key,
        f"must be a whole number 0-{MAX_DI}, not {value!r}",
        text=T("err.phz.option_di", option=key, max=MAX_DI, value=repr(value)),
    )


def check_options(options: Any) -> int:
    """The 底 of room ``options``; OptionError unless it is a whole number 0–10."""
    di = options.get("di", 0)
    if isinstance(di, bool) or not isinstance(di, int) or not 0 <= di <= MAX_DI:
        raise _bad_option("di", di)
    return di


@dataclass
class Claim:
    """A tile on offer: ``tile`` from ``source``, ``kind`` "draw" (shown after drawing) or
    "discard"; each claimant's ``options`` and the ``answers`` so far."""

    kind: str
    tile: int
    source: int
    options: dict[int, list[str]]
    answers: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Win:
    """One 胡: winner, tile (None: the hand completed on the seat's own forced draw), who
    offered it (None for the seat's own draw), 胡息, 番 and how the 王霸 were used."""

    seat: int
    tile: int | None
    source: int | None
    huxi: int
    fan: Fan
    tiles: tuple[int, ...]
    self_drawn: bool



class PaohuziState(Game):
    """王炸跑胡子's hand as data: the deal and the stock, and the queries the rules make."""

    def __init__(self, setup: Setup, stack: Sequence[int] | None = None) -> None:
        """A new hand; ``stack`` puts all 82 tiles in dealing order (dealer's 21, then its 下家's
        20, then the third seat's 20, then the stock in drawing order) for tests and puzzles; a
        stacked hand does not replay from its record."""
        super().__init__(setup)
        if setup.seats != SEATS:
            raise OptionError(
                "seats", "王炸跑胡子 is for 3 players", text=T("err.phz.seats", seats=setup.seats)
            )
        self.di = check_options(setup.options)
        rng = random.Random(setup.seed)
        tiles = full_set()
        rng.shuffle(tiles)
        if stack is not None:
            if sorted(stack) != full_set():
                raise OptionError("stack", "not the 82 tiles", text=T("err.phz.stack"))
            tiles = list(stack)
        dealer = setup.carry.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < SEATS:
            dealer = rng.randrange(SEATS)
        self.dealer: int = dealer
        self.hands: list[list[int]] = [[0] * KINDS for _ in range(SEATS)]
        pos = 0
        for k in range(SEATS):
            n = DEALT + (1 if k == 0 else 0)
            for t in tiles[pos : pos + n]:
                self.hands[(dealer + k) % SEATS][t] += 1
            pos += n
        self.stock: list[int] = tiles[pos:]
        self.pos = 0
        self.groups: list[list[Group]] = [[] for _ in range(SEATS)]
        self.rivers: list[list[int]] = [[] for _ in range(SEATS)]
        self.chou: list[set[int]] = [set() for _ in range(SEATS)]  # 臭牌: no 吃/碰 of these
        self.renpeng: list[set[int]] = [set() for _ in range(SEATS)]  # 忍碰: 偎 becomes 臭偎
        self.paos = [0] * SEATS  # 跑, 倾 and 提 made: the second and later are 重跑
        self.owed = [0] * SEATS  # discards a seat skips for the 提 it was dealt beyond one
        self.shown_wilds = [0] * SEATS  # 王霸 drawn (and so shown)
        self.status: list[Text | None] = [None] * SEATS
        self.claim: Claim | None = None
        self.win: Win | None = None
        self.shen_tile: int | None = None
        self.shen_flip: list[int] = []
        self.ended: str | None = None
        self.turn = dealer
        self.must_discard = True
        self.self_draw = False  # the turn seat's hand was completed by its own draw
        self.last_drawn: int | None = None
        self.last_event: Text | None = None
        self._phase = DISCARD
        for s in range(SEATS):
            dealt = 0
            for t in range(WORD_KINDS):
                if self.hands[s][t] == 4:  # 倾/提 "在进第一牌之前，必须放到桌面示众"
                    self.hands[s][t] = 0
                    self.groups[s].append(Group(Kind.QING, (t,) * 4))
                    dealt += 1
            self.paos[s] = dealt
            self.owed[s] = max(0, dealt - 1)

    def stock_left(self) -> int:
        return len(self.stock) - self.pos

    def open_huxi(self, seat: int, viewer: int | None = None) -> int:
        """胡息 of the seat's open groups; to another viewer a face-down 偎 counts nothing."""
        return sum(
            g.value
            for g in self.groups[seat]
            if not (g.kind is Kind.WEI and viewer != seat and not self.ended)
        )

    def _group_of(self, seat: int, tile: int, *kinds: Kind) -> int | None:
        for i, g in enumerate(self.groups[seat]):
            if g.kind in kinds and g.tiles[0] == tile:
                return i
        return None

    def discardable(self, seat: int) -> list[int]:
        """Tiles the seat may discard: never a 王霸, never from a 坎 while it holds another."""
        hand = self.hands[seat]
        free = [t for t in range(WORD_KINDS) if 0 < hand[t] < 3]
        return free or [t for t in range(WORD_KINDS) if hand[t]]

    def _keeps_a_discard(self, hand: list[int]) -> bool:
        return any(hand[:WORD_KINDS])

    def win_check(self, seat: int, tile: int | None, how: str) -> Win | None:
        """The best 胡 of ``seat`` now, or None: ``how`` is "self" (the hand as it stands after
        the seat's own draw), "own" (its own shown draw ``tile``), "draw" (another seat's shown
        draw) or "discard". A 王霸 holder wins only on its own draw; 15 胡息 at least."""
        hand = self.hands[seat]
        if how in ("draw", "discard") and hand[WILD]:
            return None
        groups = self.groups[seat]
        base = sum(g.value for g in groups)
        options: list[tuple[int, list[int], int | None]] = []
        if tile is None:
            options.append((0, list(hand), None))
        else:
            added = list(hand)
            added[tile] += 1
            options.append((0, added, tile if how in ("draw", "discard") else None))
            pao = same_value(Kind.PAO, tile)
            peng = self._group_of(seat, tile, Kind.PENG)
            if how in ("own", "draw") and peng is not None:
                options.append((pao - groups[peng].value, list(hand), None))
            wei = self._group_of(seat, tile, Kind.WEI, Kind.CHOU_WEI)
            if how in ("draw", "discard") and wei is not None:
                options.append((pao - groups[wei].value, list(hand), None))
            if how in ("draw", "discard") and hand[tile] == 3:
                rest = list(hand)
                rest[tile] = 0
                options.append((pao, rest, None))
        best: int | None = None
        for extra, counts, peng_tile in options:
            value = best_huxi(counts, peng_tile)
            if value is not None and (best is None or base + extra + value > best):
                best = base + extra + value
        if best is None or best < MIN_HUXI:
            return None
        tiles = [t for g in groups for t in g.tiles] + tiles_of(hand)
        if tile is not None:
            tiles.append(tile)
        before = list(hand)
        if tile is None and self.last_drawn == WILD and before[WILD]:
            before[WILD] -= 1
        wang = None
        if sum(before[:WORD_KINDS]) == 0 and before[WILD]:
            if before[WILD] == 2:
                wang = "wangchuang"
            else:
                won_on = WILD if tile is None and self.last_drawn == WILD else tile
                wang = "wangdiaowang" if won_on == WILD else "wangdiao"
        self_drawn = how in ("self", "own")
        fan = fan_of((t for t in tiles if t != WILD), self_drawn, wang)
        return Win(seat, tile, None, best, fan, tuple(sorted(tiles)), self_drawn)

    def chi_options(self, seat: int, tile: int) -> list[str]:
        """Every way ``seat`` may 吃 ``tile``: a 一句话 or 绞牌 with it, then 下火 groups that lay
        down every other copy of it the seat holds (003 玩法规则 10); never with a 坎 or a 王霸,
        and the seat must keep a tile to discard."""
        hand = self.hands[seat]
        avail = [n if n < 3 else 0 for n in hand[:WORD_KINDS]]
        found: set[str] = set()

        def place(pool: list[int], done: list[tuple[int, ...]], first: tuple[int, ...]) -> None:
            if pool[tile] == 0:
                left = list(hand)
                for g in [first, *done]:
                    for u in g:
                        left[u] -= 1
                left[tile] += 1  # the claimed tile is not from the hand
                if self._keeps_a_discard(left):
                    # the claimed tile and a held copy are alike: only the set of groups counts
                    names = sorted(format_group(g) for g in [first, *done])
                    found.add(" ".join(["chi", *names]))
                return
            for combo in _runs(tile):
                if done and combo < done[-1]:
                    continue  # groups in sorted order: each set of 下火 groups once
                rest = _without(pool, combo)
                if rest is not None:
                    place(rest, [*done, combo], first)

        for combo in _runs(tile):
            need = list(combo)
            need.remove(tile)
            pool = _without(avail, need)
            if pool is not None:
                place(pool, [], combo)
        return sorted(found)

    def census(self) -> list[int]:
        """Every physical tile once, sorted: stock, hands, groups, rivers, the tile on offer,
        the tile won on and the tiles turned up for 省."""
        out = list(self.stock[self.pos :]) + list(self.shen_flip)
        for s in range(SEATS):
            out += tiles_of(self.hands[s])
            out += [t for g in self.groups[s] for t in g.tiles]
            out += self.rivers[s]
        if self.claim is not None:
            out.append(self.claim.tile)
        if self.win is not None and self.win.tile is not None:
            out.append(self.win.tile)
        return sorted(out)


def _without(pool: list[int], tiles: Sequence[int]) -> list[int] | None:
    """``pool`` (counts by tile) less one of each of ``tiles``, or None if one is missing."""
    rest = list(pool)
    for u in tiles:
        if rest[u] == 0:
            return None
        rest[u] -= 1
    return rest


@lru_cache(maxsize=FIXED_DOMAIN)
def _runs(tile: int) -> list[tuple[int, ...]]:
    """一句话 and 绞牌 containing ``tile`` (sorted tuples)."""
    out = set()
    for a in range(WORD_KINDS):
        for b in range(a, WORD_KINDS):
            for c in range(b, WORD_KINDS):
                if tile in (a, b, c) and is_run((a, b, c)):
                    out.add((a, b, c))
    return sorted(out)
