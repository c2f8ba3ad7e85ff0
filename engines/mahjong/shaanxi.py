"""陕西麻将 (000 "陕西麻将"规则说明): the 136-tile preset of the mahjong core.

What differs from 四川麻将 (GAMES.md §9.2; decisions: docs/games/mahjong.md):

- 136 tiles with the honours; no 定缺, no 吃; claims 碰 / 放杠 / 胡 with the same claim
  windows and timeouts as 血战 (one mechanism, ``MahjongGame``).
- ``paozi`` phase: before the dealer's first discard every seat stakes 0–4 炮子 at once,
  privately until all have chosen; a timeout keeps last hand's stake (the seed's default).
- Wins: any 平胡 shape (sets and a pair, honours included), 七对, 十三幺, 全不靠, 组合龙 —
  all worth the same. 截胡: of several who call 胡 on one tile, only the nearest in play order
  (counter-clockwise from the discarder) wins; 抢杠 on a 补杠 the same way. 漏胡: a seat that
  passes a 胡 may not 胡 that same tile from another seat until it moves (碰, 杠, or a draw).
- One win ends the hand. 荒庄 when the wall is down to 13 / 7 / 8 / 13 墩 after 0 / 1 / 2 /
  3+ kongs; nobody wins or loses on the hand (kong money already paid stays).
- Score in 底分 (3): 胡 — 放胡 1 from each other seat, 自摸 2 from each, doubled on the
  dealer's side (庄家翻倍, the 胡 part only); 炮子 — each loser pays (own + winner's 炮子) × A,
  A = 1 放胡 / 2 自摸, which makes the winner's (own × 3 + others') × A; kongs paid at once —
  暗杠 2 from each, 放杠 2 from the discarder, 明杠 1 from each.
- Escape ends the hand as the escaper's loss: 底分 × (8 + own 炮子 × 3 + the others' 炮子),
  paid as (8 split evenly + own + that seat's 炮子) 底分 to each other seat.
- Dealer: kept on a dealer win or a 荒庄, else the next seat; the dice ritual (SX-E1) picks
  the wall's break.

>>> deal_break(0, (1, 2), (2, 4))
(2, 9)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar

from engines.base import Choice, Setup, T, Text, Window
from engines.errors import IllegalActionError
from engines.mahjong.fan import FanResult, MeldKind
from engines.mahjong.game import DISCARD, SEATS, Event, MahjongGame, Win
from engines.mahjong.names import tile_text
from engines.mahjong.notation import PAO_MAX, parse_action
from engines.mahjong.rules import HUANGZHUANG_STACKS
from engines.mahjong.shape import (
    is_knitted_and_honours,
    is_knitted_straight,
    is_seven_pairs,
    is_thirteen_orphans,
    is_win,
)

PAOZI = "paozi"
PAOZI_KEY = -3  # ``Window.key`` of the 下炮子 window (once, at the start)
STACKS_PER_WALL = 17
"""136 tiles: four walls of 17 墩 (two tiles each)."""


def deal_break(dealer: int, first: tuple[int, int], second: tuple[int, int]) -> tuple[int, int]:
    """摇骰子 (SX-E1): the dealer rolls ``first`` and counts counter-clockwise from itself
    (itself = 1) to the second roller, who rolls ``second``; the wall breaks in front of the
    second roller after skipping the two totals in 墩. Returns (second roller, 墩 skipped)."""
    total = sum(first)
    return (dealer + total - 1) % SEATS, total + sum(second)


def win_shape(counts: Sequence[int], melds: int) -> str | None:
    """The shape a 陕西 win is named by (十三幺, 全不靠, 组合龙, 七对 or 平胡), or None."""
    if melds == 0 and is_thirteen_orphans(counts):
        return "shisanyao"
    if melds == 0 and is_knitted_and_honours(counts):
        return "quanbukao"
    if is_knitted_straight(counts, melds):
        return "zuhelong"
    if melds == 0 and is_seven_pairs(counts):
        return "qidui"
    if is_win(counts, melds):
        return "pinghu"
    return None


class ShaanxiGame(MahjongGame):
    """陕西麻将: 炮子, 截胡, 漏胡, 荒庄 by kong count, flat 胡 score + 炮子 + kongs."""

    KEY: ClassVar[str] = "shaanxi"
    KINDS: ClassVar[int] = 34

    def __init__(self, setup: Setup, wall: Sequence[int] | None = None) -> None:
        """A new hand; ``carry`` may hold ``dealer`` and ``paozi`` (last hand's stakes, the
        default of each seat)."""
        self.second: tuple[int, int] = (0, 0)
        self.roller = 0
        self.skip = 0
        super().__init__(setup, wall)
        last = setup.carry.get("paozi")
        self.default_pao = [0] * SEATS
        if isinstance(last, list) and len(last) == SEATS:
            self.default_pao = [
                n if isinstance(n, int) and not isinstance(n, bool) and 0 <= n <= PAO_MAX else 0
                for n in last
            ]
        self.pao: list[int | None] = [None] * SEATS
        self.lou: list[set[int]] = [set() for _ in range(SEATS)]
        self._phase = PAOZI

    def _arrange(self, tiles: list[int], rng: random.Random) -> list[int]:
        """The second roll and the break: dealing starts ``skip`` 墩 into the second roller's
        wall (walls of 17 墩 in seat order)."""
        self.second = (rng.randint(1, 6), rng.randint(1, 6))
        self.roller, self.skip = deal_break(self.dealer, self.dice, self.second)
        start = 2 * ((STACKS_PER_WALL * self.roller + self.skip) % (4 * STACKS_PER_WALL))
        return tiles[start:] + tiles[:start]

    # --- rules -----------------------------------------------------------------------------
    def stake(self, seat: int) -> int:
        """The seat's 炮子 (0 until it has staked)."""
        return self.pao[seat] or 0

    def reserve(self) -> int:
        """荒庄: the tiles left when the hand is drawn, by the kongs made so far."""
        return 2 * HUANGZHUANG_STACKS[min(len(self.kongs), len(HUANGZHUANG_STACKS) - 1)]

    def exhausted(self) -> bool:
        return self.wall_left() <= self.reserve()

    def last_four(self) -> bool:
        """陕西 has no "last four tiles" rule."""
        return False

    def can_win_with(self, seat: int, tile: int | None, *, discard: bool) -> bool:
        """Any 平胡 shape, 七对, 十三幺, 全不靠 or 组合龙; 漏胡 blocks a passed tile."""
        if self.wins or (discard and tile in self.lou[seat]):
            return False
        hand = list(self.hands[seat])
        if tile is not None:
            hand[tile] += 1
        return win_shape(hand, len(self.melds[seat])) is not None

    def _passed_win(self, seat: int, tile: int) -> None:
        self.lou[seat].add(tile)  # 漏胡: that one tile, until the seat moves

    def _draw(self, seat: int, kong: int | None = None) -> None:
        self.lou[seat].clear()
        super()._draw(seat, kong)

    def _peng(self, seat: int, tile: int, source: int) -> None:
        self.lou[seat].clear()
        super()._peng(seat, tile, source)

    def _kong_reason(self, kind: MeldKind, tile: int) -> Text:
        return T(f"mj.pay.sx_{kind.value}", tile=tile_text(tile))

    # --- the Game interface ----------------------------------------------------------------
    def decision(self) -> Window | None:
        """炮子 are staked by all at once, in public, one deadline; left unstaked they keep
        last hand's value ("默认上回的下炮子的值"), no miss."""
        if not self.ended and self._phase == PAOZI:
            return Window(tuple(s for s in range(SEATS) if self.pao[s] is None), key=PAOZI_KEY,
                          timeout={s: f"pao {self.default_pao[s]}" for s in range(SEATS)},
                          miss=False)
        return super().decision()

    def legal_actions(self, seat: int) -> list[str]:
        if self._phase == PAOZI and not self.ended:
            if seat not in self.to_act():
                return []
            return [f"pao {n}" for n in range(PAO_MAX + 1)]
        return super().legal_actions(seat)

    def _apply(self, seat: int, text: str) -> str:
        kind, value = parse_action(text)
        if kind == "que":
            raise IllegalActionError(
                "陕西麻将 has no 定缺", seat=seat, action=text, text=T("err.mj.no_que")
            )
        if self._phase == PAOZI:
            if kind != "pao":
                raise IllegalActionError(
                    "stake your 炮子 first: pao 0 to pao 4",
                    seat=seat,
                    action=text,
                    text=T("err.mj.pao_first", max=PAO_MAX),
                )
            assert value is not None
            self.pao[seat] = value
            self.status[seat] = T("mj.status.pao_chosen")
            if all(p is not None for p in self.pao):
                self._phase = DISCARD
                self.status = [None] * SEATS
            return f"pao {value}"
        if kind == "pao":
            raise IllegalActionError(
                "炮子 are staked before the dealer's first discard",
                seat=seat,
                action=text,
                text=T("err.mj.pao_done"),
            )
        return super()._apply(seat, text)

    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: last hand's 炮子; then the core trustee (胡 whenever it can). At ``hard`` the
        炮子 too are ``ai_variants``'."""
        if self._phase == PAOZI and level != "hard":
            return f"pao {self.default_pao[seat]}"
        return super()._trustee(seat, level)

    # --- wins --------------------------------------------------------------------------------
    def _result(self, shape: str, how: str, times: int) -> FanResult:
        return FanResult(((shape, 0), (how, 0)), 0, 0, times)

    def _pay(self, winner: int, times: int) -> None:
        """胡 score (doubled on the dealer's side) and 炮子 score from every other seat."""
        base = self.rules.base
        for s in range(SEATS):
            if s == winner:
                continue
            dealer = 2 if self.dealer in (s, winner) else 1
            self.events.append(
                Event("win", s, winner, base * times * dealer, T("mj.pay.sx_hu", x=times * dealer))
            )
            pao = (self.stake(s) + self.stake(winner)) * times
            self.events.append(Event("pao", s, winner, base * pao, T("mj.pay.sx_pao", n=pao)))

    def _tsumo(self, seat: int) -> None:
        tile = self.drawn
        assert tile is not None
        shape = win_shape(self.hands[seat], len(self.melds[seat]))
        assert shape is not None
        self.hands[seat][tile] -= 1
        self.wins.append(Win(seat, tile, None, self._result(shape, "zimo", 2), 0))
        self._pay(seat, 2)
        self.status[seat] = T("mj.status.sx_zimo", shape=T(f"mj.fan.{shape}"))
        self.drawn = None
        self.turn_kong = None
        self._end("win")

    def _ron(
        self,
        winners: list[int],
        tile: int,
        source: int,
        *,
        robbed: bool,
        after_kong: int | None,
    ) -> None:
        """截胡: only the first of ``winners`` (in play order from ``source``) wins."""
        w = min(winners, key=lambda s: (s - source) % SEATS)
        if robbed:
            self.hands[source][tile] -= 1
        else:
            self._take_discard(source, tile)
        self.won_tiles.append(tile)
        hand = list(self.hands[w])
        hand[tile] += 1
        shape = win_shape(hand, len(self.melds[w]))
        assert shape is not None
        how = "qianggang" if robbed else "fanghu"
        self.wins.append(Win(w, tile, source, self._result(shape, how, 1), 0))
        self._pay(w, 1)
        self.status[w] = T("mj.status.sx_hu", shape=T(f"mj.fan.{shape}"))
        self.status[source] = T("mj.status.fed", tile=tile_text(tile))
        self._end("win")

    def _end_wall(self) -> None:
        """荒庄: no winner, no loser; the kong money paid stays paid."""
        self._end("wall")

    def _on_escape(self, seat: int) -> None:
        """逃跑 counts as a loss: 底分 × (8 + own 炮子 × 3 + the others' 炮子), as transfers —
        to each other seat (own + its 炮子) and an even share of the 8 (the remainder goes
        to the nearest seats in play order)."""
        base = self.rules.base
        others = [(seat + k) % SEATS for k in range(1, SEATS)]
        flat = 8 * base
        for i, s in enumerate(others):
            share = flat // len(others) + (1 if i < flat % len(others) else 0)
            points = share + base * (self.stake(seat) + self.stake(s))
            self.events.append(Event("escape", seat, s, points, T("mj.pay.escape")))
        self._end("escape")

    def escape_cost(self, seat: int) -> int | None:
        """底分 × (8 + own 炮子 × 3 + the others' 炮子) (``_on_escape``); 炮子 are open."""
        if seat in self.escaped or self.is_over():
            return 0
        base = self.rules.base
        others = [(seat + k) % SEATS for k in range(1, SEATS)]
        return 8 * base + sum(base * (self.stake(seat) + self.stake(s)) for s in others)

    def next_carry(self) -> dict[str, Any]:
        """The dealer stays on its own win or a 荒庄, else the next seat deals; the 炮子 carry
        over as next hand's defaults. After an escape ("任意一个玩家离开游戏，算作新的一局开始")
        nothing carries: a new game, dealer by the dice."""
        if self.ended == "escape":
            return {}
        dealer = self.dealer
        if self.wins and self.wins[0].seat != self.dealer:
            dealer = (self.dealer + 1) % SEATS
        return {"dealer": dealer, "paozi": [self.stake(s) for s in range(SEATS)]}

    # --- views -------------------------------------------------------------------------------
    def _role(self, seat: int, viewer: int | None) -> Text | None:
        n = self.pao[seat]
        shown = n is not None and (self._phase != PAOZI or seat == viewer or bool(self.ended))
        if seat == self.dealer:
            return T("mj.role.sx_dealer_pao", n=n) if shown else T("mj.role.dealer")
        return T("mj.role.sx_pao", n=n) if shown else None

    def _extra_lines(self, seat: int | None) -> list[Text]:
        return [
            T(
                "mj.line.sx_break",
                seat=self.roller + 1,
                a=self.second[0],
                b=self.second[1],
                skip=self.skip,
            ),
            T("mj.line.sx_reserve", n=self.reserve() // 2),
        ]

    def _phase_text(self) -> Text:
        if not self.ended and self._phase == PAOZI:
            return T("mj.phase.paozi")
        return super()._phase_text()

    def _win_lines(self, w: Win) -> list[Text]:
        shape, how = w.fan.items[0][0], w.fan.items[1][0]
        return [
            T(
                f"mj.out.sx_{how}",
                seat=w.seat + 1,
                source=(w.source or 0) + 1,
                tile=tile_text(w.tile),
                shape=T(f"mj.fan.{shape}"),
            )
        ]

    def _won_line(self, w: Win) -> Text:
        return T(
            "mj.line.sx_won",
            seat=w.seat + 1,
            how=T(f"mj.fan.{w.fan.items[1][0]}"),
            shape=T(f"mj.fan.{w.fan.items[0][0]}"),
        )

    def _draw_line(self) -> Text:
        return T("mj.out.sx_draw")

    def choices(self, seat: int) -> list[Choice]:
        if self._phase == PAOZI and not self.ended:
            return [
                Choice(a, T("mj.choice.pao", n=int(a[4:])), "primary")
                for a in self.legal_actions(seat)
            ]
        return super().choices(seat)
