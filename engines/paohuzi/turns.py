"""跑胡子's turns: a seat's turn starting (重跑, owed discards), the draws with their forced
啸 / 倾, discards, and who may claim a tile on offer.
"""

from __future__ import annotations

from engines.base import T
from engines.paohuzi.groups import Group, Kind
from engines.paohuzi.settlement import PaohuziSettlement
from engines.paohuzi.state import CLAIM, DISCARD, SEATS, Claim
from engines.paohuzi.tiles import WILD, tile_zh


class PaohuziTurns(PaohuziSettlement):
    """Turns, draws (forced 啸 / 倾 / 王霸), discards and the claim window they open."""

    def _turn_start(self, seat: int, *, discard: bool, self_draw: bool) -> None:
        """``seat`` now acts: it discards unless ``discard`` is False (重跑), a dealt 提 is owed
        a skipped discard, or it holds nothing but 王霸; it may 胡 when ``self_draw``."""
        if discard and self.owed[seat]:
            self.owed[seat] -= 1
            discard = False
        if discard and not self._keeps_a_discard(self.hands[seat]):
            discard = False
        self.turn = seat
        self.self_draw = self_draw
        self.must_discard = discard
        self._phase = DISCARD
        if not discard and not (self_draw and self.win_check(seat, None, "self")):
            self._next_draw(seat)

    def _next_draw(self, after: int) -> None:
        """The 下家 of ``after`` draws; unclaimed shown tiles go to the drawer's river and the
        next seat draws, until someone must act or the stock runs out (荒庄)."""
        seat = (after + 1) % SEATS
        while True:
            if self.stock_left() == 0:
                self._end("wall")
                return
            tile = self.stock[self.pos]
            self.pos += 1
            self.last_drawn = tile
            hand = self.hands[seat]
            if tile == WILD:  # 摸牌过程中抓到的王霸需要明示
                hand[WILD] += 1
                self.shown_wilds[seat] += 1
                self.last_event = T("phz.event.wild", seat=seat + 1)
                self.status[seat] = T("phz.status.wild")
                self._turn_start(seat, discard=True, self_draw=True)
                return
            if hand[tile] == 2:  # 啸 (偎): forced; 臭啸 after a 忍碰 of the tile
                hand[tile] = 0
                kind = Kind.CHOU_WEI if tile in self.renpeng[seat] else Kind.WEI
                self.groups[seat].append(Group(kind, (tile,) * 3))
                if kind is Kind.CHOU_WEI:  # 臭啸 is shown (两张暗一张明)
                    self.last_event = T("phz.event.chouwei", seat=seat + 1, tile=tile_zh(tile))
                    self.status[seat] = T("phz.status.chouwei", tile=tile_zh(tile))
                else:  # 啸 stays face down: the table learns nothing of the tile
                    self.last_event = T("phz.event.wei", seat=seat + 1)
                    self.status[seat] = T("phz.status.wei")
                self._turn_start(seat, discard=True, self_draw=True)
                return
            wei = self._group_of(seat, tile, Kind.WEI, Kind.CHOU_WEI)
            if hand[tile] == 3 or wei is not None:  # 倾: forced, shown
                if wei is not None:
                    self.groups[seat][wei] = Group(Kind.QING, (tile,) * 4)
                else:
                    hand[tile] = 0
                    self.groups[seat].append(Group(Kind.QING, (tile,) * 4))
                self.last_event = T("phz.event.qing", seat=seat + 1, tile=tile_zh(tile))
                self.status[seat] = T("phz.status.qing", tile=tile_zh(tile))
                again = self.paos[seat] > 0
                self.paos[seat] += 1
                self._turn_start(seat, discard=not again, self_draw=True)
                return
            self.last_event = T("phz.event.draw", seat=seat + 1, tile=tile_zh(tile))
            options = self._offer_options("draw", tile, seat)
            if options:
                self._open_claim(Claim("draw", tile, seat, options))
                return
            self._to_river(seat, tile)
            seat = (seat + 1) % SEATS

    def _to_river(self, seat: int, tile: int) -> None:
        self.rivers[seat].append(tile)

    def _offer_options(self, kind: str, tile: int, source: int) -> dict[int, list[str]]:
        """Who may do what with ``tile`` offered by ``source`` ("draw": shown after drawing,
        "discard")."""
        options: dict[int, list[str]] = {}
        for k in range(SEATS):
            s = (source + k) % SEATS
            own = s == source
            if own and kind == "discard":
                continue
            hand = self.hands[s]
            opts: list[str] = []
            how = "own" if own else kind
            if self.win_check(s, tile, how) is not None:
                opts.append("hu")
            if not own and (
                hand[tile] == 3 or self._group_of(s, tile, Kind.WEI, Kind.CHOU_WEI) is not None
            ):
                opts.append("pao")
            elif kind == "draw" and self._group_of(s, tile, Kind.PENG) is not None:
                opts.append("pao")  # 别人(或自己)从墩上摸得的牌是自己已经碰的牌
            if not own and hand[tile] == 2 and tile not in self.chou[s]:
                left = list(hand)
                left[tile] -= 2
                if self._keeps_a_discard(left):
                    opts.append("peng")
            eater = own or (s == (source + 1) % SEATS)
            if eater and tile not in self.chou[s] and hand[tile] < 3:
                opts += self.chi_options(s, tile)
            if opts:
                options[s] = [*opts, "pass"]
        return options

    def _open_claim(self, claim: Claim) -> None:
        self.claim = claim
        self._phase = CLAIM
        self._open_window()

    def _discard(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 1
        self.status[seat] = T("phz.status.discard", tile=tile_zh(tile))
        self.last_event = T("phz.event.discard", seat=seat + 1, tile=tile_zh(tile))
        self.self_draw = False
        options = self._offer_options("discard", tile, seat)
        if options:
            self._open_claim(Claim("discard", tile, seat, options))
            return
        self._to_river(seat, tile)
        self._next_draw(seat)
