"""跑胡子's end: the win (省 turned up), 荒庄, the payments (子 × 番, 黄牌's 王霸 money), the
outcome and who deals next.
"""

from __future__ import annotations

from typing import Any

from engines.base import Outcome, T, Text, Transfer, net_points
from engines.errors import IllegalActionError
from engines.paohuzi.scoring import shen_count, zi
from engines.paohuzi.state import OVER, SEATS, WANGBA_PAY, PaohuziState, Win
from engines.paohuzi.tiles import WILD, format_zh, next_tile, tile_zh


class PaohuziSettlement(PaohuziState):
    """The end of the hand and its money: the win, 省 and 子, settlement, outcome, next dealer."""

    def _win(self, win: Win | None, source: int | None) -> None:
        assert win is not None
        self.win = Win(win.seat, win.tile, source, win.huxi, win.fan, win.tiles, win.self_drawn)
        # 省: turn up the next stock tile (past any 王霸); an empty stock turns up nothing.
        while self.stock_left():
            flipped = self.stock[self.pos]
            self.pos += 1
            self.shen_flip.append(flipped)
            if flipped != WILD:
                self.shen_tile = next_tile(flipped)
                break
        key = "phz.status.zimo" if win.self_drawn else "phz.status.hu"
        self.status[win.seat] = T(key, huxi=win.huxi)
        self._end("win")

    def _end(self, how: str) -> None:
        self.ended = how
        self.claim = None
        self._phase = OVER

    def shen(self) -> int:
        """省 of the win (0 without a win)."""
        if self.win is None:
            return 0
        return shen_count(self.win.tiles, self.shen_tile)

    def zi(self) -> int:
        """子 of the win (0 without a win)."""
        if self.win is None:
            return 0
        return zi(self.win.huxi, self.shen(), self.di)

    def settle(self) -> list[Transfer]:
        """The hand's payments: on a win each other seat pays 子 × 番; at 荒庄 each 王霸 holder
        pays each seat holding none 5 per 王霸. A seat that escaped collects nothing."""
        out: list[Transfer] = []
        if self.win is not None:
            w = self.win
            points = self.zi() * w.fan.total
            if w.seat not in self.escaped:
                reason = T(
                    "phz.pay.zimo" if w.self_drawn else "phz.pay.hu", zi=self.zi(), fan=w.fan.total
                )
                for s in range(SEATS):
                    if s != w.seat:
                        out.append(Transfer(s, w.seat, points, reason))
        elif self.ended == "wall":
            for h in range(SEATS):
                n = self.hands[h][WILD]
                if not n:
                    continue
                for s in range(SEATS):
                    if not self.hands[s][WILD] and s not in self.escaped:
                        out.append(Transfer(h, s, WANGBA_PAY * n, T("phz.pay.wangba", n=n)))
        return out

    def outcome(self) -> Outcome:
        if not self.ended:
            raise IllegalActionError("the hand is not over yet", text=T("err.base.not_over"))
        transfers = self.settle()
        points = net_points(SEATS, transfers)
        lines: list[Text] = []
        winners: tuple[int, ...] = ()
        if self.win is not None:
            w = self.win
            winners = (w.seat,)
            how = "zimo" if w.self_drawn else "hu"
            lines.append(
                T(f"phz.out.{how}", seat=w.seat + 1, source=(w.source or 0) + 1, huxi=w.huxi)
            )
            shen_tile = "-" if self.shen_tile is None else tile_zh(self.shen_tile)
            lines.append(
                T(
                    "phz.out.shen",
                    tile=shen_tile,
                    n=self.shen(),
                    flipped=format_zh(self.shen_flip) or "-",
                )
            )
            for key, x in w.fan.items:
                lines.append(T("phz.out.fan", name=T(f"phz.fan.{key}"), x=x))
            lines.append(
                T(
                    "phz.out.points",
                    zi=self.zi(),
                    fan=w.fan.total,
                    points=self.zi() * w.fan.total,
                    di=self.di,
                )
            )
        else:
            lines.append(T("phz.out.wall"))
        for s in sorted(self.escaped):
            lines.append(T("phz.out.escaped", seat=s + 1))
        return Outcome(points, points, tuple(lines), winners, tuple(transfers))

    def next_carry(self) -> dict[str, Any]:
        """The winner deals the next hand; after 荒庄 the dealer deals again."""
        return {"dealer": self.win.seat if self.win is not None else self.dealer}
