"""武汉麻将 (000 游戏"武汉麻将"规则说明, 开口翻 / 红中癞子杠): the 136-tile preset with 吃, 癞子 and
红中 on the mahjong core.

What differs from the core (GAMES.md §9.3; decisions: docs/games/mahjong.md):

- 癞子: after the deal the next wall tile is turned up and set aside; the tile one above it is
  the wild (WH-E2: 5m → 6m, 9m → 1m, honours 东 南 西 北 发 白 in a cycle skipping 红中, so 北 and
  中 both make 发, 白 makes 东). ``laizi_of``.
- 红中 and 癞子 are never claimed nor used to claim. Putting one out — ``gang 5z`` (typing it as
  a discard does the same) — is a 红中杠 / 癞子杠 (×2 to that seat's factors) with a replacement
  draw. Holding a 红中 you cannot win.
- Claims 吃 (the seat after the discarder) / 碰 / 冲杠 with 胡 first; 一炮单响: one winner, the
  nearest in play order from the discarder. No 过手 rule. Only a 蓄杠 (补杠) can be robbed.
- 开口翻: a win needs at least one opening (吃, 碰 or 冲杠). Shapes: 4 sets + a 2/5/8 pair (wilds
  as any tile); 碰碰胡 / 清一色 take any pair; 将一色 / 风一色 are 乱将 / 乱风 (any tiles). No 七对.
- 小胡 base 1; 大胡 (碰碰胡, 全求人, 清一色, 将一色, 风一色, 杠上花, 海底捞, 抢杠) 10 each, added.
  Each loser loses base × own factors × the winner's factors (``loss``); the winner takes the
  three. Caps: 300 a loser; 400 each (金顶; 500 in 口口翻) when all three pass 300.
- 承包: the liable seat pays all three losses (A fed B's 全求人 not being ready; A gave B's
  third opening for a 清一色; A's kong was robbed).
- 海底: the last 10 tiles are never drawn; the 4 before them are drawn one by one and may only
  be won on (自摸, 海底捞), no discard, no kong. Then 荒庄: nobody pays, the dealer stays.
- Escape ends the hand: the escaper pays 400 (口口翻 500), shared by the other three.

>>> from engines.mahjong.tiles import parse_tile, tile_name
>>> [tile_name(laizi_of(parse_tile(t))) for t in ("5m", "9m", "4z", "5z", "7z")]
['6m', '1m', '6z', '6z', '1z']
"""

from __future__ import annotations

from engines.base import T
from engines.errors import IllegalActionError
from engines.mahjong import ai
from engines.mahjong.fan import MeldKind
from engines.mahjong.game import DISCARD, SEATS
from engines.mahjong.names import tile_text
from engines.mahjong.notation import parse_action
from engines.mahjong.shape import shanten
from engines.mahjong.tiles import tile_name
from engines.mahjong.wuhan_state import HAIDI, HAIDI_RESERVE, HONGZHONG, Hand, judge, laizi_of
from engines.mahjong.wuhan_views import WuhanViews

__all__ = [
    "Hand",
    "WuhanGame",
    "judge",
    "laizi_of",
]


class WuhanGame(WuhanViews):
    """武汉麻将: 癞子, 红中杠, 吃, 开口翻 (option ``koukou``: 口口翻), 小胡/大胡, 承包, caps.

    The rules' state and queries are ``WuhanState`` (wuhan_state), the settlement ``WuhanPay``
    (wuhan_pay), the table ``WuhanViews`` (wuhan_views); this class is the flow over the core:
    kongs and openings, 海底, the turn's actions and the trustee."""

    # --- kongs and openings ------------------------------------------------------------------
    def _bugang(self, seat: int, tile: int) -> None:
        self._robbing = True
        try:
            super()._bugang(seat, tile)
        finally:
            self._robbing = False

    def _kong_money(self, seat: int, kind: MeldKind, tile: int, source: int | None) -> None:
        """武汉 kongs pay nothing at once: they multiply the seat's factors at the win."""
        self.kongs.append((seat, len(self.events)))
        self.kong_events.append([])
        self.claimed = True
        if kind is MeldKind.ZHIGANG:
            assert source is not None
            self._opened(seat, source)

    def _opened(self, seat: int, source: int) -> None:
        self.opens[seat] += 1
        self.open_sources[seat].append(source)

    def _peng(self, seat: int, tile: int, source: int) -> None:
        super()._peng(seat, tile, source)
        self._opened(seat, source)

    def _chi(self, seat: int, tile: int, source: int, action: str) -> None:
        super()._chi(seat, tile, source, action)
        self._opened(seat, source)

    def _kong(self, seat: int, tile: int) -> None:
        if tile in self.specials():
            self._special_kong(seat, tile)
        else:
            super()._kong(seat, tile)

    def _special_kong(self, seat: int, tile: int) -> None:
        """红中杠 / 癞子杠: the tile goes out (to the river, unclaimable), a replacement comes."""
        self.hands[seat][tile] -= 1
        self.rivers[seat].append(tile)
        self.discarded[seat] = True
        self.special[seat] += 1
        self.laizi_kongs[seat] += int(tile == self.laizi)
        key = "mj.status.wh_hongzhong" if tile == HONGZHONG else "mj.status.wh_laizi"
        self.status[seat] = T(key, tile=tile_text(tile))
        self.drawn = None
        self._kong_money(seat, MeldKind.ANGANG, tile, None)
        self._draw(seat, kong=len(self.kongs) - 1)

    # --- 海底 ----------------------------------------------------------------------------------
    def _next_draw(self, after: int) -> None:
        """Normal draws until 14 tiles are left; then 海底: each of the next four draws may only
        be won on, otherwise the next seat draws; 10 left is 荒庄."""
        seat = (after + 1) % SEATS
        if self.wall_left() > HAIDI_RESERVE + HAIDI:
            self._draw(seat)
            return
        while not self.exhausted():
            self.haidi = True
            self._draw(seat)
            if self.can_win_with(seat, None, discard=False):
                return
            self.status[seat] = T("mj.status.wh_haidi")
            seat = (seat + 1) % SEATS
        self._end_wall()

    def _prop_turn_open(self, seat: int) -> bool:
        """海底: the seat may only win or pass, no props."""
        return not self.haidi and super()._prop_turn_open(seat)

    def legal_actions(self, seat: int) -> list[str]:
        if self.haidi and not self.ended:
            return ["hu", "pass"] if seat in self.to_act() and self._phase == DISCARD else []
        acts = super().legal_actions(seat)
        if self._phase == DISCARD and self._kongs_allowed():
            # putting out 红中 / the 癞子 is the kong itself ("打出来也是杠牌")
            names = {tile_name(t) for t in self.specials()}
            acts = [a for a in acts if a not in names]
        return acts

    def _turn_action(self, seat: int, kind: str, value: int | None, text: str) -> str:
        if self.haidi:
            if kind == "pass":
                self.status[seat] = T("mj.status.wh_haidi")
                self._next_draw(seat)
                return "pass"
            if kind != "hu":
                raise IllegalActionError(
                    "海底: you may only win or pass",
                    seat=seat,
                    action=text,
                    text=T("err.mj.haidi"),
                )
        elif (
            kind == "discard"
            and value in self.specials()
            and self.hands[seat][value]
            and self._kongs_allowed()
        ):
            kind = "gang"  # "打出来也是杠牌"
        return super()._turn_action(seat, kind, value, text)

    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: 胡 whenever it can; 海底 passes; 红中 and a second 癞子 go out as kongs; claims
        that bring the hand closer (or open it); otherwise the discard leaving the lowest
        shanten (癞子 kept). At ``hard``: ``ai_variants``."""
        if level == "hard":
            return ai.choose(self, seat, level)
        legal = self.legal_actions(seat)
        if "hu" in legal:
            return "hu"
        if self.haidi:
            return "pass"
        if self._phase == DISCARD:
            return self._trustee_turn(seat, legal)
        return self._trustee_claim(seat, legal)

    def _natural(self, seat: int) -> list[int]:
        hand = list(self.hands[seat])
        hand[self.laizi] = 0
        return hand

    def _trustee_turn(self, seat: int, legal: list[str]) -> str:
        hand = self.hands[seat]
        red = f"gang {tile_name(HONGZHONG)}"
        if red in legal:
            return red
        wild = f"gang {tile_name(self.laizi)}"
        if wild in legal and hand[self.laizi] >= 2:
            return wild
        natural = self._natural(seat)
        melds = len(self.melds[seat])
        for action in legal:
            if action.startswith("gang") and action not in (red, wild):
                return action
        best: tuple[int, int, int] | None = None
        for t in range(34):
            if not natural[t] or tile_name(t) not in legal:
                continue
            natural[t] -= 1
            sh = shanten(natural, melds)
            natural[t] += 1
            edge = -1 if t >= 27 else min(t % 9, 8 - t % 9)
            key = (sh, edge, t)
            if best is None or key < best:
                best = key
        if best is None:  # only 癞子 / 红中 left to throw
            return next(a for a in legal if not a.startswith(("hu", "gang")))
        return tile_name(best[2])

    def _trustee_claim(self, seat: int, legal: list[str]) -> str:
        claim = self.claim
        assert claim is not None
        natural = self._natural(seat)
        melds = len(self.melds[seat])
        now = shanten(natural, melds)
        for action in legal:
            if action == "pass" or action == "hu":
                continue
            after = list(natural)
            if action.startswith("chi"):
                start = parse_action(action)[1]
                assert start is not None
                for t in (start, start + 1, start + 2):
                    if t != claim.tile:
                        after[t] -= 1
            elif action == "peng":
                after[claim.tile] -= 2
            else:
                after[claim.tile] -= 3
            best = min((_minus_one(after, t, melds + 1) for t in range(34) if after[t]), default=9)
            if best < now or (best <= now and not self.opens[seat]):
                return action
        return "pass"


def _minus_one(hand: list[int], tile: int, melds: int) -> int:
    hand[tile] -= 1
    sh = shanten(hand, melds)
    hand[tile] += 1
    return sh
