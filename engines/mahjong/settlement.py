"""结算: the end of a mahjong hand — 流局 (查花猪, 查大叫), escapes — and the payments kept as
events settled into ``Outcome.transfers`` (the per-pair cap and forfeits in one pass).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.base import Outcome, T, Text, Transfer, net_points
from engines.errors import IllegalActionError
from engines.mahjong.fan import FanResult, best_ready
from engines.mahjong.names import tile_text
from engines.mahjong.state import OVER, Event, MahjongState, Win


class MahjongSettlement(MahjongState):
    """The end of the hand and its money: 流局, escapes, settlement, the outcome, who deals next."""

    def _end(self, how: str) -> None:
        self.ended = how
        self.claim = None
        self._phase = OVER

    def ready_fan(self, seat: int) -> FanResult | None:
        """查大叫: the most 番 ``seat``'s hand could win with now, or None if not ready (a 花猪
        never is; its waits are in the suits a win may still hold)."""
        if self.is_huazhu(seat) or (self.rules.dingque and self.que[seat] is None):
            return None
        void = self.void_suit(seat)
        suits = [s for s in range(3) if s != void]
        return best_ready(
            self.rules.table, self.hands[seat], self.melds[seat], suits, self.rules.cap
        )

    def _end_wall(self) -> None:
        """流局: 查花猪, then 查大叫 with refunds of kong money (000 §7, 002)."""
        r = self.rules
        standing = self.standing()
        if len(standing) >= 2:
            pigs = [s for s in standing if self.is_huazhu(s)]
            ready = {s: self.ready_fan(s) for s in standing if s not in pigs}
            for pig in pigs:
                for other in range(self.N):
                    if other not in pigs:
                        self.events.append(
                            Event("huazhu", pig, other, r.huazhu * r.base, T("mj.pay.huazhu"))
                        )
            for s in standing:
                if s in pigs or ready[s] is not None:
                    continue
                for w, fan in ready.items():
                    if fan is not None:
                        points = r.base * r.multiple(fan.fan)
                        self.events.append(
                            Event("dajiao", s, w, points, T("mj.pay.dajiao", fan=fan.fan))
                        )
            for s in standing:
                if s in pigs or ready[s] is None:
                    self.events.append(Event("refund", s, s, 0, T("mj.pay.refund")))
        self._end("wall")

    def _on_escape(self, seat: int) -> None:
        """000: a seat still playing who escapes ends the hand and pays 16 倍 to each other
        seat still playing (in the last four tiles, their 查大叫 instead if higher); 002: the
        trustee plays on. Either way an escaped seat collects no 番 money (see ``settle``)."""
        if not self.rules.escape_penalty or seat in self.winners():
            return
        r = self.rules
        others = [s for s in self.standing() if s != seat]
        penalty = [(s, 16 * r.base) for s in others]
        reason = T("mj.pay.escape")
        if self.last_four():
            dajiao = []
            for s in others:
                fan = self.ready_fan(s)
                if fan is not None:
                    dajiao.append((s, r.base * r.multiple(fan.fan)))
            if sum(p for _, p in dajiao) > sum(p for _, p in penalty):
                penalty, reason = dajiao, T("mj.pay.escape_dajiao")
        for s, points in penalty:
            self.events.append(Event("escape", seat, s, points, reason))
        self._end("escape")

    def escape_cost(self, seat: int) -> int | None:
        """000: 16 倍 to each other seat still playing (at least: in the last four tiles their
        查大叫 instead, which depends on hands the seat cannot see); 002, a seat that has won,
        or one escaped already: 0. The variants that end the hand otherwise say their own."""
        if not self.rules.escape_penalty or seat in self.winners() or seat in self.escaped:
            return 0
        return 16 * self.rules.base * len([s for s in self.standing() if s != seat])

    def settle(self) -> list[Transfer]:
        """The payments so far as transfers, in order: a seat that escaped collects no 番,
        呼叫转移, 花猪 or 查大叫 money (it keeps its kong money) and gets no refunds; no
        payer pays one payee more than the pair cap (refunds undo payments and are outside
        it)."""
        cap = self.rules.pair_cap * self.rules.base
        paid: Counter[tuple[int, int]] = Counter()
        actual: dict[int, int] = {}
        out: list[Transfer] = []
        forfeit = self.escaped

        def pay(payer: int, payee: int, points: int, reason: Text, capped: bool = True) -> int:
            if capped and cap:
                points = min(points, cap - paid[(payer, payee)])
            if points <= 0:
                return 0
            paid[(payer, payee)] += points
            out.append(Transfer(payer, payee, points, reason))
            return points

        for i, e in enumerate(self.events):
            if e.kind == "refund":
                for k, refs in enumerate(self.kong_events):
                    if self.kongs[k][0] != e.payer or k in self.transferred:
                        continue
                    for j in refs:
                        back = self.events[j]
                        if actual.get(j) and back.payer not in forfeit:
                            pay(e.payer, back.payer, actual[j], e.reason, capped=False)
            elif e.kind == "transfer":
                if e.payee not in forfeit:
                    amount = sum(actual.get(j, 0) for j in e.refs)
                    actual[i] = pay(e.payer, e.payee, amount, e.reason)
            elif e.kind == "kong" or e.payee not in forfeit:
                actual[i] = pay(e.payer, e.payee, e.points, e.reason)
        return out

    def outcome(self) -> Outcome:
        if not self.ended:
            raise IllegalActionError("the hand is not over yet", text=T("err.base.not_over"))
        transfers = self.settle()
        points = net_points(self.N, transfers)
        lines: list[Text] = []
        for w in self.wins:
            lines += self._win_lines(w)
        if self.ended == "wall":
            lines.append(self._draw_line())
        for s in sorted(self.escaped):
            lines.append(T("mj.out.escaped", seat=s + 1))
        fees: tuple[int, ...] = ()
        if self.shop is not None and any(self.shop.spent):
            fees = tuple(self.shop.spent)
            for s, prop, price in self.shop.bought:
                lines.append(T("mj.out.prop", seat=s + 1, prop=T(f"mj.prop.{prop}"), beans=price))
        return Outcome(
            points, points, tuple(lines), tuple(self.winners()), tuple(transfers), fees
        )

    def _win_lines(self, w: Win) -> list[Text]:
        """The outcome's lines about one win: who, on what, the 番 and the patterns."""
        how = "zimo" if w.source is None else "dianpao"
        lines = [
            T(
                f"mj.out.{how}",
                seat=w.seat + 1,
                source=(w.source or 0) + 1,
                tile=tile_text(w.tile),
                fan=w.fan.fan,
                x=w.fan.multiple,
            )
        ]
        for key, fan in w.fan.items:
            lines.append(T("mj.out.item", name=T(f"mj.fan.{key}"), fan=fan))
        return lines

    def _draw_line(self) -> Text:
        return T("mj.out.draw")

    def _won_line(self, w: Win) -> Text:
        """The table's line about a win while the hand goes on or has ended."""
        return T(
            "mj.line.won",
            seat=w.seat + 1,
            fan=w.fan.fan,
            how=T("mj.how.zimo" if w.source is None else "mj.how.dianpao"),
        )

    def next_carry(self) -> dict[str, Any]:
        """Who deals next (docs/games/mahjong.md): 002 the first winner (the discarder when
        the first win was 一炮多响), a hand nobody won keeps its dealer; 000 the 点炮 seat (the
        winner on 自摸), a draw keeps the dealer; 000's 血战 mode throws dice every hand."""
        if self.rules.key == "sichuan" and self.rules.blood:
            return {}
        if not self.wins:
            return {"dealer": self.dealer}
        first = self.wins[0]
        multi = sum(1 for w in self.wins if w.event == first.event) > 1
        if self.rules.key == "xuezhan":
            return {"dealer": first.source if multi and first.source is not None else first.seat}
        return {"dealer": first.seat if first.source is None else first.source}
