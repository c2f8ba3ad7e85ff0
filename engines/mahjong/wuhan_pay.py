"""武汉麻将's settlement: each seat's factors, a loser's loss and the caps (300, 金顶), 承包,
the wins, 荒庄, the shared escape penalty and who deals next.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import T, Text
from engines.mahjong.fan import FanResult, MeldKind
from engines.mahjong.game import SEATS, Event, Win
from engines.mahjong.names import joined, tile_text
from engines.mahjong.wuhan_state import (
    BIG_BASE,
    CAP,
    ESCAPE,
    ESCAPE_KOUKOU,
    JINDING,
    JINDING_KOUKOU,
    Hand,
    WuhanState,
)


class WuhanPay(WuhanState):
    """Factors, losses, caps and 承包; wins, 荒庄 and escapes; the next dealer."""

    def factors(self, seat: int) -> int:
        """The seat's own factors: 开口 ×2 (口口翻: ×2 each opening), 暗杠 ×4 each, 明杠 ×2
        each, 红中杠 / 癞子杠 ×2 each."""
        opened = self.opens[seat] if self.koukou else min(self.opens[seat], 1)
        an = sum(1 for m in self.melds[seat] if m.kind is MeldKind.ANGANG)
        ming = sum(1 for m in self.melds[seat] if m.kind in (MeldKind.ZHIGANG, MeldKind.BUGANG))
        return 1 << (opened + 2 * an + ming + self.special[seat])

    def factor_texts(self, seat: int) -> list[Text]:
        """The seat's own factors as the settlement names them: 开口 ×2, 暗杠 ×4, 明杠 ×2,
        红中杠 ×2, 癞子杠 ×2 (each kind once, its factors multiplied)."""
        opened = self.opens[seat] if self.koukou else min(self.opens[seat], 1)
        an = sum(1 for m in self.melds[seat] if m.kind is MeldKind.ANGANG)
        ming = sum(1 for m in self.melds[seat] if m.kind in (MeldKind.ZHIGANG, MeldKind.BUGANG))
        laizi = self.laizi_kongs[seat]
        red = self.special[seat] - laizi
        kinds = (("open", 1 << opened), ("angang", 1 << 2 * an), ("minggang", 1 << ming),
                 ("hongzhong", 1 << red), ("laizi", 1 << laizi))
        return [T(f"mj.factor.wh_{k}", x=x) for k, x in kinds if x > 1]

    def _factors_text(self, seat: int) -> Text:
        items = self.factor_texts(seat)
        return joined(items, "mj.join.list") if items else T("mj.factor.wh_none")

    def loss(self, winner: int, loser: int, hand: Hand, source: int | None) -> int:
        """One loser's points before the cap: base × its factors × the winner's factors."""
        big = bool(hand.bigs)
        num = hand.base * self.factors(loser) * self.factors(winner)
        den = 1
        if hand.hard:
            num *= 2
        if source is None or loser == source:  # 自摸 (the winner's) / 放冲 (the loser's)
            num, den = (num * 3, 2) if big else (num * 2, 1)
        if not big and self.dealer in (winner, loser):
            num *= 2
        return num // den

    def capped(self, losses: Sequence[int]) -> list[int]:
        """300 a loser; if all three pass it, 400 each (金顶; 500 in 口口翻)."""
        if all(x > CAP for x in losses):
            return [JINDING_KOUKOU if self.koukou else JINDING] * len(losses)
        return [min(x, CAP) for x in losses]

    def _liable(self, winner: int, hand: Hand, source: int | None, robbed: bool) -> int | None:
        if robbed:
            return source  # (3) 抢杠: the robbed seat
        if "quanqiuren" in hand.bigs and source is not None and not self.ready(source):
            return source  # (1) fed a 全求人 while not ready
        if "qingyise" in hand.bigs and len(self.open_sources[winner]) >= 3:
            return self.open_sources[winner][2]  # (2) gave the 清一色's third opening
        return None

    def _settle_win(self, winner: int, tile: int, source: int | None, robbed: bool) -> None:
        reading = self.judge_win(
            winner, None if source is None else tile, robbed=robbed, on_discard=source is not None
        )
        assert reading is not None
        losers = [(winner + k) % SEATS for k in range(1, SEATS)]
        raw = [self.loss(winner, s, reading, source) for s in losers]
        paid = self.capped(raw)
        liable = self._liable(winner, reading, source, robbed)
        self.liable = liable
        for s, x, r in zip(losers, paid, raw, strict=True):
            self.losses[s] = r
            payer = s if liable is None else liable
            reason = (
                T("mj.pay.wh_loss", x=x)
                if liable is None
                else T("mj.pay.wh_chengbao", seat=s + 1, x=x)
            )
            self.events.append(Event("win", payer, winner, x, reason))
        items = tuple((b, BIG_BASE) for b in reading.bigs) or (("xiaohu", 1),)
        if reading.hard:
            items += (("yinghu", 0),)
        how = "zimo" if source is None else ("qianggang" if robbed else "fangchong")
        self.wins.append(Win(winner, tile, source, FanResult(items + ((how, 0),), 0, 0, 1), 0))

    def _tsumo(self, seat: int) -> None:
        tile = self.drawn
        assert tile is not None
        self._settle_win(seat, tile, None, False)
        self.hands[seat][tile] -= 1
        self.status[seat] = T("mj.status.wh_hu")
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
        """一炮单响: only the first of ``winners`` in play order from ``source`` wins."""
        w = min(winners, key=lambda s: (s - source) % SEATS)
        self._robbing = robbed
        try:
            self._settle_win(w, tile, source, robbed)
        finally:
            self._robbing = False
        if robbed:
            self.hands[source][tile] -= 1
        else:
            self._take_discard(source, tile)
        self.won_tiles.append(tile)
        self.status[w] = T("mj.status.wh_hu")
        self.status[source] = T("mj.status.fed", tile=tile_text(tile))
        self._end("win")

    def _end_wall(self) -> None:
        """荒庄: nobody pays; the dealer stays."""
        self._end("wall")

    def _on_escape(self, seat: int) -> None:
        """ "游戏结束，逃跑者扣400分（口口翻扣500分）": the hand ends; the penalty is shared by the
        other three (the remainder to the nearest in play order)."""
        total = ESCAPE_KOUKOU if self.koukou else ESCAPE
        others = [(seat + k) % SEATS for k in range(1, SEATS)]
        for i, s in enumerate(others):
            share = total // len(others) + (1 if i < total % len(others) else 0)
            self.events.append(Event("escape", seat, s, share, T("mj.pay.escape")))
        self._end("escape")

    def escape_cost(self, seat: int) -> int | None:
        """400 (口口翻 500), shared by the other three (``_on_escape``)."""
        if seat in self.escaped or self.is_over():
            return 0
        return ESCAPE_KOUKOU if self.koukou else ESCAPE

    def next_carry(self) -> dict[str, Any]:
        """The dealer stays on its own win or a 荒庄, else the next seat ("逆时针…轮庄");
        after an escape the table starts afresh (dice)."""
        if self.ended == "escape":
            return {}
        if self.wins and self.wins[0].seat != self.dealer:
            return {"dealer": (self.dealer + 1) % SEATS}
        return {"dealer": self.dealer}
