"""一局的状态: the state of a mahjong hand — the deal, the wall, hands, melds and rivers —
and the questions the rules ask of it (who still plays, 缺一门, could a seat 胡 with a tile).

The hand's phases and value types live here too; ``MahjongGame`` (engines.mahjong.game)
builds on ``MahjongState`` through the layers of its jobs: settlement, turns, claims,
props and views.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from engines.base import Game, Setup, T, Text
from engines.errors import OptionError
from engines.mahjong.fan import FanResult, Meld, MeldKind
from engines.mahjong.props import Shop
from engines.mahjong.rules import Rules, make_rules
from engines.mahjong.shape import is_win
from engines.mahjong.tiles import tile_name

DINGQUE, DISCARD, CLAIM, OVER = "dingque", "discard", "claim", "over"
DINGQUE_KEY = -1
"""``Window.key`` of the 定缺 window (once, at the start; claim windows count from 1)."""
SEATS = 4
LAST_FOUR = 3
"""The last four tiles: a draw that leaves at most this many in the wall is one of them."""


@dataclass
class Claim:
    """An open claim window: the ``tile`` offered by ``source``, ``kind`` "discard" or "rob"
    (a 补杠 that may be robbed), each claimant's ``options`` and the ``answers`` so far."""

    kind: str
    tile: int
    source: int
    options: dict[int, list[str]]
    answers: dict[int, str] = field(default_factory=dict)
    after_kong: int | None = None


@dataclass(frozen=True)
class Win:
    """One 胡: the winner, the tile, who fed it (None: 自摸), the 番 and the event number
    (wins on one discard share it)."""

    seat: int
    tile: int
    source: int | None
    fan: FanResult
    event: int


@dataclass
class Event:
    """A payment as it happens: ``kind`` win / kong / transfer (呼叫转移) / huazhu / dajiao /
    refund / escape; ``refs``: the kong events a transfer or refund is about."""

    kind: str
    payer: int
    payee: int
    points: int
    reason: Text
    refs: tuple[int, ...] = ()


class MahjongState(Game):
    """四川麻将's hand as data: the deal and the wall, and the queries the rules make."""

    KEY: ClassVar[str] = "sichuan"
    N: ClassVar[int] = SEATS
    """Seats at the table (4; 二人麻将 2)."""
    KINDS: ClassVar[int] = 27
    """Tile kinds in play: the three suits (27) or with the honours (34)."""

    @classmethod
    def full_set(cls) -> list[int]:
        """Every tile of the game's set, four of each kind, sorted."""
        return [t for t in range(cls.KINDS) for _ in range(4)]

    def __init__(self, setup: Setup, wall: Sequence[int] | None = None) -> None:
        """A new hand; ``wall`` stacks the whole 108-tile wall in draw order (tests and
        puzzles; a stacked hand does not replay from its record)."""
        super().__init__(setup)
        self.rules: Rules = make_rules(self.KEY, setup.options)
        if setup.seats != self.N:
            raise OptionError(
                "seats",
                f"this mahjong is for {self.N} players",
                text=T("err.mj.seats", seats=setup.seats, need=self.N),
            )
        rng = random.Random(setup.seed)
        self.dice = (rng.randint(1, 6), rng.randint(1, 6))
        tiles = self.full_set()
        rng.shuffle(tiles)
        if wall is not None:
            if sorted(wall) != self.full_set():
                raise OptionError(
                    "wall",
                    f"not the {len(tiles)} tiles",
                    text=T("err.mj.wall", n=len(tiles)),
                )
            tiles = list(wall)
        dealer = setup.carry.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < self.N:
            dealer = (sum(self.dice) - 1) % self.N
        self.dealer: int = dealer
        if wall is None:
            tiles = self._arrange(tiles, rng)
        self.wall: list[int] = tiles
        self.hands: list[list[int]] = [[0] * 34 for _ in range(self.N)]
        for k in range(self.N):
            for t in tiles[13 * k : 13 * k + 13]:
                self.hands[(dealer + k) % self.N][t] += 1
        self.hands[dealer][tiles[13 * self.N]] += 1
        self.pos = 13 * self.N + 1
        self.melds: list[list[Meld]] = [[] for _ in range(self.N)]
        self.rivers: list[list[int]] = [[] for _ in range(self.N)]
        self.que: list[int | None] = [None] * self.N
        self._phase = DINGQUE if self.rules.dingque else DISCARD
        self.turn = dealer
        self.drawn: int | None = tiles[13 * self.N]
        self.turn_kong: int | None = None  # the kong whose replacement this turn drew
        self.claim: Claim | None = None
        self.wins: list[Win] = []
        self.won_tiles: list[int] = []  # discarded or robbed tiles won on, once per event
        self.blocked: set[int] = set()  # 过手: passed a 胡, may not 胡 on a discard until drawing
        self.events: list[Event] = []
        self.kongs: list[tuple[int, int]] = []  # (seat, first event index of its payments)
        self.kong_events: list[list[int]] = []
        self.transferred: set[int] = set()  # kongs whose income went to a winner (呼叫转移)
        self.status: list[Text | None] = [None] * self.N
        self.claimed = False  # any 碰/杠 yet (ends 天胡/地胡)
        self.discarded = [False] * self.N
        self.ended: str | None = None
        self.last_discard: tuple[int, int] | None = None
        self.shop: Shop | None = Shop.open(setup.options, self.N, setup.seed)

    def _arrange(self, tiles: list[int], rng: random.Random) -> list[int]:
        """The shuffled wall in draw order (a preset may roll for the break here)."""
        return tiles

    def exhausted(self) -> bool:
        """No more draws: the wall is empty (a preset may keep a reserve, 荒庄)."""
        return self.wall_left() == 0

    def wall_left(self) -> int:
        return len(self.wall) - self.pos

    def standing(self) -> list[int]:
        """Seats still playing (not yet won), in seat order."""
        return [s for s in range(self.N) if s not in self.winners()]

    def winners(self) -> list[int]:
        """Seats that have won, in the order they won."""
        seen: list[int] = []
        for w in self.wins:
            if w.seat not in seen:
                seen.append(w.seat)
        return seen

    def last_four(self) -> bool:
        """最后四张: the wall is down to its last four tiles (one of them has appeared)."""
        return self.wall_left() <= LAST_FOUR

    def holds_que(self, seat: int) -> bool:
        q = self.que[seat]
        return q is not None and any(self.hands[seat][q * 9 : q * 9 + 9])

    def suits_held(self, seat: int, tile: int | None = None) -> set[int]:
        """The suits (0 万, 1 筒, 2 条) among the seat's tiles in hand and melds, and ``tile``."""
        hand = self.hands[seat]
        held = {s for s in range(3) if any(hand[s * 9 : s * 9 + 9])}
        held |= {m.tile // 9 for m in self.melds[seat] if m.tile < 27}
        if tile is not None and tile < 27:
            held.add(tile // 9)
        return held

    def is_huazhu(self, seat: int) -> bool:
        """花猪 ("手上拿着3门牌"): a seat holding tiles of all three suits (with 定缺: a tile
        of its chosen suit), so that it could never win."""
        if self.rules.dingque:
            return self.holds_que(seat)
        return self.rules.two_suits and len(self.suits_held(seat)) == 3

    def void_suit(self, seat: int) -> int | None:
        """The suit ``seat`` has to do without: its 定缺; under 缺一门 the suit it holds none of
        once it holds two, or (holding all three) the one without a meld it holds fewest of;
        None while any suit may still go."""
        if self.rules.dingque:
            return self.que[seat]
        if not self.rules.two_suits:
            return None
        held = self.suits_held(seat)
        if len(held) == 2:
            return next(s for s in range(3) if s not in held)
        if len(held) < 3:
            return None
        melded = {m.tile // 9 for m in self.melds[seat]}
        free = [s for s in range(3) if s not in melded]
        if not free:
            return None
        hand = self.hands[seat]
        return min(free, key=lambda s: (sum(hand[s * 9 : s * 9 + 9]), s))

    def can_win_with(self, seat: int, tile: int | None, *, discard: bool) -> bool:
        """Could ``seat`` 胡 with ``tile`` added (None: its hand as it is, 自摸)? 缺一门 is
        required (with 定缺: none of the chosen suit); on a discard 过手 blocks unless it is
        the last four tiles."""
        if seat in self.winners():
            return False
        if self.rules.dingque:
            if self.que[seat] is None or self.holds_que(seat):
                return False
            if tile is not None and tile // 9 == self.que[seat]:
                return False
        elif self.rules.two_suits and len(self.suits_held(seat, tile)) == 3:
            return False
        if discard and seat in self.blocked and not self.last_four():
            return False
        hand = self.hands[seat]
        if tile is None:
            return is_win(hand, len(self.melds[seat]))
        hand[tile] += 1
        try:
            return is_win(hand, len(self.melds[seat]))
        finally:
            hand[tile] -= 1

    def kong_options(self, seat: int) -> list[str]:
        """暗杠 and 补杠 open to the seat on its turn (never of its 定缺 suit; a kong needs a
        replacement tile in the wall)."""
        if self.exhausted():
            return []
        hand = self.hands[seat]
        tiles = {t for t in range(self.KINDS) if hand[t] == 4}
        tiles |= {m.tile for m in self.melds[seat] if m.kind is MeldKind.PENG and hand[m.tile]}
        return [f"gang {tile_name(t)}" for t in sorted(tiles) if t // 9 != self.que[seat]]

    def census(self) -> Counter[int]:
        """Every physical tile once: wall, hands, melds, discards and the tiles won on."""
        c: Counter[int] = Counter(self.wall[self.pos :])
        for s in range(self.N):
            for t, n in enumerate(self.hands[s]):
                c[t] += n
            for m in self.melds[s]:
                c.update(m.tiles)
            c.update(self.rivers[s])
        c.update(w.tile for w in self.wins if w.source is None)
        c.update(self.won_tiles)
        return +c
