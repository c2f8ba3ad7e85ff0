"""摸牌、杠、胡: the draws of a mahjong hand (and a kong's replacement draw), the kongs with
their money (刮风下雨), and the wins (自摸, 点炮, 抢杠) with their payments.
"""

from __future__ import annotations

from engines.base import T, Text
from engines.mahjong.fan import FanResult, Meld, MeldKind, Situation, evaluate
from engines.mahjong.names import tile_text
from engines.mahjong.settlement import MahjongSettlement
from engines.mahjong.state import DISCARD, Event, Win


class MahjongTurns(MahjongSettlement):
    """The hand moving on: draws, kongs and their money, wins and what follows them."""

    def _draw(self, seat: int, kong: int | None = None) -> None:
        tile = self.wall[self.pos]
        self.pos += 1
        self.hands[seat][tile] += 1
        self.drawn = tile
        self.turn = seat
        self.turn_kong = kong
        self._phase = DISCARD
        self.blocked.discard(seat)  # 过手: drawing lifts the block
        if self.last_four() and self.can_win_with(seat, None, discard=False):
            self._tsumo(seat)  # 最后四张自动胡: the seat may not decline

    def _next_draw(self, after: int) -> None:
        """The next seat still playing after ``after`` draws; an empty wall ends the hand."""
        if self.exhausted():
            self._end_wall()
            return
        seat = (after + 1) % self.N
        while seat in self.winners():
            seat = (seat + 1) % self.N
        self._draw(seat)

    def _take_discard(self, source: int, tile: int) -> None:
        taken = self.rivers[source].pop()
        assert taken == tile

    def _kong_money(self, seat: int, kind: MeldKind, tile: int, source: int | None) -> None:
        r = self.rules
        start = len(self.events)
        reason = self._kong_reason(kind, tile)
        if kind is MeldKind.ZHIGANG:
            assert source is not None
            payers = [(source, r.zhigang)]
        else:
            each = r.angang if kind is MeldKind.ANGANG else r.bugang
            payers = [(s, each) for s in self.standing() if s != seat]
        refs = []
        for payer, times in payers:
            refs.append(len(self.events))
            self.events.append(Event("kong", payer, seat, times * r.base, reason))
        self.kongs.append((seat, start))
        self.kong_events.append(refs)
        self.claimed = True

    def _kong_reason(self, kind: MeldKind, tile: int) -> Text:
        return T(f"mj.pay.{kind.value}", tile=tile_text(tile))

    def _angang(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 4
        self.melds[seat].append(Meld(MeldKind.ANGANG, tile))
        self.status[seat] = T("mj.status.angang", tile=tile_text(tile))
        self._kong_money(seat, MeldKind.ANGANG, tile, None)
        self._draw(seat, kong=len(self.kongs) - 1)

    def _complete_bugang(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 1
        melds = self.melds[seat]
        i = next(i for i, m in enumerate(melds) if m.kind is MeldKind.PENG and m.tile == tile)
        melds[i] = Meld(MeldKind.BUGANG, tile, melds[i].source)
        self._kong_money(seat, MeldKind.BUGANG, tile, None)
        self._draw(seat, kong=len(self.kongs) - 1)

    def _zhigang(self, seat: int, tile: int, source: int) -> None:
        self._take_discard(source, tile)
        self.hands[seat][tile] -= 3
        self.melds[seat].append(Meld(MeldKind.ZHIGANG, tile, source))
        self.status[seat] = T("mj.status.zhigang", tile=tile_text(tile))
        self._kong_money(seat, MeldKind.ZHIGANG, tile, source)
        self._draw(seat, kong=len(self.kongs) - 1)

    def _situation(self, seat: int, source: int | None = None, **flags: bool) -> Situation:
        """The win's circumstances; ``source`` fed the tile (None: 自摸).

        天胡: the dealer on its first 14 tiles. 地胡 (002 "閑家摸第一張牌即胡牌…如果莊家打出一張
        牌后，就有閑家胡牌了，算地胡"): a 闲家 on its own first draw, or on the 庄's first discard
        — not on another 闲家's discard — with no 碰 or 杠 before."""
        untouched = not self.claimed
        idle_discarded = any(self.discarded[s] for s in range(self.N) if s != self.dealer)
        heaven = seat == self.dealer and untouched and not any(self.discarded)
        if source is None:
            earth = seat != self.dealer and not self.discarded[seat]
        else:
            earth = seat != self.dealer and source == self.dealer and not idle_discarded
        return Situation(
            heaven=heaven and flags.get("self_draw", False), earth=earth and untouched, **flags
        )

    def _score(self, seat: int, counts: list[int], situation: Situation) -> FanResult:
        result = evaluate(self.rules.table, counts, self.melds[seat], situation, self.rules.cap)
        assert result is not None
        return result

    def _tsumo(self, seat: int) -> None:
        tile = self.drawn
        assert tile is not None
        sit = self._situation(seat, self_draw=True, kong_draw=self.turn_kong is not None)
        fan = self._score(seat, self.hands[seat], sit)
        event = len(self.wins) and self.wins[-1].event + 1
        self.hands[seat][tile] -= 1  # the winning tile is kept apart, in the Win
        self.wins.append(Win(seat, tile, None, fan, event))
        points = self.rules.base * self.rules.multiple(fan.fan)
        reason = T("mj.pay.zimo", fan=fan.fan)
        for s in self.standing():
            if s != seat:
                self.events.append(Event("win", s, seat, points, reason))
        self.status[seat] = T("mj.status.zimo", fan=fan.fan)
        self.drawn = None
        self.turn_kong = None
        self._after_win(seat)

    def _ron(
        self,
        winners: list[int],
        tile: int,
        source: int,
        *,
        robbed: bool,
        after_kong: int | None,
    ) -> None:
        if robbed:
            self.hands[source][tile] -= 1
        else:
            self._take_discard(source, tile)
        self.won_tiles.append(tile)
        event = len(self.wins) and self.wins[-1].event + 1
        for w in winners:
            hand = list(self.hands[w])
            hand[tile] += 1
            sit = self._situation(
                w, source, robbed=robbed, kong_discard=after_kong is not None
            )
            fan = self._score(w, hand, sit)
            self.wins.append(Win(w, tile, source, fan, event))
            points = self.rules.base * self.rules.multiple(fan.fan)
            key = "mj.pay.qianggang" if robbed else "mj.pay.dianpao"
            self.events.append(Event("win", source, w, points, T(key, fan=fan.fan)))
            if after_kong is not None:
                # 呼叫转移 / 杠上炮: the kong's income goes to each winner, a full copy each.
                refs = tuple(self.kong_events[after_kong])
                self.transferred.add(after_kong)
                self.events.append(Event("transfer", source, w, 0, T("mj.pay.transfer"), refs))
            self.status[w] = T("mj.status.hu", fan=fan.fan)
        self.status[source] = T("mj.status.fed", tile=tile_text(tile))
        last = max(winners, key=lambda s: (s - source) % self.N)
        self._after_win(last)

    def _after_win(self, last: int) -> None:
        if not self.rules.blood or len(self.winners()) >= self.N - 1:
            self._end("win")
            return
        self._next_draw(last)
