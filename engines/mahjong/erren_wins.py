"""二人麻将's end: 海底捞月 after the 71st tile, the wins scored in 役 (13番 at most), the
flat escape and who deals next.
"""

from __future__ import annotations

from typing import Any

from engines.base import T
from engines.mahjong.erren_state import ESCAPE, HAIDI_DRAWS, ErrenState
from engines.mahjong.fan import FanResult, MeldKind
from engines.mahjong.game import DISCARD, Event, Win
from engines.mahjong.names import tile_text
from engines.mahjong.yaku import Result, evaluate
from engines.mahjong.yaku import Win as YakuWin


class ErrenWins(ErrenState):
    """海底捞月, 役 wins and their payment (the loser pays the winner), escape, the next dealer."""

    def _end_wall(self) -> None:
        """The 71 tiles are used: 海底捞月 for the ready seat (the first ready of two)."""
        ready = [s for s in range(self.N) if self.is_ready(s)]
        if not ready:
            self._end("wall")
            return
        order = {s: i for i, s in enumerate(self.riichi_order)}
        seat = min(ready, key=lambda s: (order.get(s, 99), self.ready_at[s] or 0, s))
        self.haidi = seat
        self.haidi_left = HAIDI_DRAWS
        self._haidi_draw(seat)

    def _haidi_draw(self, seat: int) -> None:
        while self.haidi_left and self.unused:
            self.haidi_left -= 1
            tile = self.unused.pop(0)
            self.hands[seat][tile] += 1
            self.drawn = tile
            self.turn = seat
            self._phase = DISCARD
            if self.can_win_with(seat, None, discard=False):
                return
            self.hands[seat][tile] -= 1
            self.rivers[seat].append(tile)
        self.drawn = None
        self._end("wall")

    def _haidi_next(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 1
        self.rivers[seat].append(tile)
        self._haidi_draw(seat)

    def _extras(self, seat: int, tile: int | None, source: int | None, robbed: bool) -> list[str]:
        out = []
        closed = all(m.kind is MeldKind.ANGANG for m in self.melds[seat])
        if self.riichi[seat] and closed:
            out.append("menqing_ting")
        if self.tianting[seat]:
            out.append("tianting")
        untouched = not self.claimed
        if tile is None:
            if self.turn_kong is not None:
                out.append("gangkai")
            if self.haidi is not None:
                out.append("haidi")
            elif self.wall_left() == 0:
                out.append("hedi_yue")
            if seat == self.dealer and untouched and not any(self.discarded):
                out.append("tianhe")
            elif seat != self.dealer and untouched and self._first and not self.discarded[seat]:
                out.append("renhe")  # the text's 人和: a 闲家's first draw
        elif not robbed:
            if self.wall_left() == 0:
                out.append("hedi_yu")
            if (
                source == self.dealer
                and untouched
                and sum(self.discarded) == 1
                and len(self.rivers[self.dealer]) == 1
            ):
                out.append("dihe")  # the text's 地和: the dealer's first discard
        return out

    def _result(
        self, seat: int, hand: list[int], tile: int, extras: list[str], zimo: bool
    ) -> Result:
        win = YakuWin(tile, zimo, tuple(extras), self.flowers)
        result = evaluate(hand, self.melds[seat], win)
        assert result is not None
        return result

    def _record(self, seat: int, tile: int, source: int | None, result: Result, how: str) -> None:
        items = (*result.items, (how, 0))
        self.wins.append(Win(seat, tile, source, FanResult(items, result.fan, result.fan, 1), 0))
        reason = T("mj.pay.er_win", fan=result.fan)
        self.events.append(Event("win", self.opponent(seat), seat, result.fan, reason))
        self.status[seat] = T("mj.status.hu", fan=result.fan)

    def _tsumo(self, seat: int) -> None:
        tile = self.drawn
        if tile is None:  # the dealer's first turn after swapping its 14th tile away
            tile = next(t for t in range(34) if self.hands[seat][t])
        extras = self._extras(seat, None, None, False)
        result = self._result(seat, self.hands[seat], tile, extras, True)
        self.hands[seat][tile] -= 1
        self._record(seat, tile, None, result, "zimo")
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
        (w,) = winners
        hand = list(self.hands[w])
        hand[tile] += 1
        extras = self._extras(w, tile, source, robbed)
        result = self._result(w, hand, tile, extras, robbed)
        if robbed:
            self.hands[source][tile] -= 1
        else:
            self._take_discard(source, tile)
        self.won_tiles.append(tile)
        self._record(w, tile, source, result, "qianggang" if robbed else "dianpao")
        self.status[source] = T("mj.status.fed", tile=tile_text(tile))
        self._end("win")

    def _on_escape(self, seat: int) -> None:
        """ "逃跑扣除 13 分": paid to the other seat."""
        self.events.append(Event("escape", seat, self.opponent(seat), ESCAPE, T("mj.pay.escape")))
        self._end("escape")

    def escape_cost(self, seat: int) -> int | None:
        """The flat escape penalty to the opponent (``_on_escape``)."""
        if seat in self.escaped or self.is_over():
            return 0
        return ESCAPE

    def next_carry(self) -> dict[str, Any]:
        """The winner deals next; a draw keeps the dealer; after an escape, dice."""
        if self.ended == "escape":
            return {}
        return {"dealer": self.wins[0].seat if self.wins else self.dealer}
