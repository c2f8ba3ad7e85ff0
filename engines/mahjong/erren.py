"""二人麻将 (000 范文九): the two-seat preset of the mahjong core — 71 of the 136 tiles, 花牌,
swaps at the start, the random 搓牌 / 换牌 offers, 报听 with automatic play, 海底捞月 after the
wall, about 45 役 (``yaku``) capped at 13番.

Flow (decisions: docs/games/mahjong.md):

- ``swap``: after the deal both seats privately pick tiles to exchange ("开始时换牌，不限张数"):
  ``swap 19m5z`` (each for a random tile of the unused pool) or ``swap -``.
- Then the core turn / claim cycle for two: the dealer discards first; the other may 吃, 碰, 杠
  or 胡 any discard; 抢杠 only on a 补杠 (scored as 自摸).
- ``ting 5m``: discard 5m and declare 报听 (the hand must then be ready). From then on the engine
  draws and throws for the seat; it is asked only when it can win (``hu`` / ``pass``).
- On a draw the seat may (probability ``CUO``) be offered 搓牌: ``cuo 5m`` takes any unused tile
  instead of the one drawn; and (probability ``HUAN``) 换牌: a triplet of the unused pool for
  three tiles of its hand, ``huan 19m5z``. Both are optional and last until it discards.
- After the 71st tile: nobody ready → draw; otherwise the ready seat (both: the first that became
  ready) draws up to three more tiles from the unused pool (海底捞月), winning or not.
- 1番 = 1 point, at most 13; the loser pays the winner. Escape: 13 to the other seat.

>>> from engines.base import Setup
>>> g = ErrenGame(Setup(seats=2, seed=3))
>>> g.phase(), g.to_act(), g.wall_left(), len(g.unused), len(g.flowers)
('swap', (0, 1), 44, 63, 2)
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.base import T, Window
from engines.errors import IllegalActionError
from engines.mahjong import ai
from engines.mahjong.erren_state import CUO, ERREN_OPTIONS, HUAN, SWAP, SWAP_KEY
from engines.mahjong.erren_views import ErrenViews
from engines.mahjong.erren_wins import ErrenWins
from engines.mahjong.game import DISCARD
from engines.mahjong.names import spell
from engines.mahjong.tiles import format_tiles, parse_tiles, tile_name
from engines.mahjong.yaku import CAP

__all__ = [
    "ERREN_OPTIONS",
    "SWAP",
    "ErrenGame",
    "max_loss_erren",
]

_WORDS = ("swap", "换牌", "ting", "报听", "cuo", "搓牌", "huan")


def _tiles_arg(text: str, word: str) -> list[int]:
    rest = text.strip()[len(word) :].strip()
    if rest in ("-", "", "none", "不换"):
        return []
    return parse_tiles(rest)


class ErrenGame(ErrenViews, ErrenWins):
    """二人麻将: two seats, 71 tiles, 花牌, swaps, 搓牌/换牌, 报听, 海底捞月, 役 to 13番.

    The state and the rules' queries are ``ErrenState`` (erren_state), the end of the wall and
    the wins ``ErrenWins`` (erren_wins), the table ``ErrenViews`` (erren_views); this class is
    the game interface and the flow: swaps, the offers, 报听's automatic play."""

    # --- the Game interface ----------------------------------------------------------------
    def decision(self) -> Window | None:
        """换牌 is chosen by both at once, in public, one deadline; a timeout keeps the tiles
        (``swap -``), no miss."""
        if not self.ended and self._phase == SWAP:
            return Window(tuple(s for s in range(self.N) if not self.swapped[s]), key=SWAP_KEY,
                          timeout="swap -", miss=False)
        return super().decision()

    def legal_actions(self, seat: int) -> list[str]:
        if self.ended or seat not in self.to_act():
            return []
        if self._phase == SWAP:
            return ["swap -"] + [f"swap {tile_name(t)}" for t in range(34) if self.hands[seat][t]]
        if self._phase == DISCARD and (self.riichi[seat] or self.haidi is not None):
            return ["hu", "pass"]
        acts = super().legal_actions(seat)
        if self._phase == DISCARD:
            if "hu" not in acts and self._can_tsumo(seat):
                acts.insert(0, "hu")
            acts += self.ting_options(seat) + self.cuo_options() + self.huan_options(seat)
        return acts

    def _can_tsumo(self, seat: int) -> bool:
        """天和 after the swap took the dealer's 14th tile away (no tile is "drawn" then); never
        after a 吃/碰, which brings no new tile."""
        first = seat == self.dealer and not any(self.discarded) and not self.claimed
        return first and self.drawn is None and self.can_win_with(seat, None, discard=False)

    def _apply(self, seat: int, text: str) -> str:
        low = text.strip().lower()
        word = next((w for w in _WORDS if low.startswith(w)), None)
        if self._phase == SWAP:
            if word not in ("swap", "换牌"):
                raise IllegalActionError(
                    "choose the tiles to swap first (swap 19m, or swap - to keep)",
                    seat=seat,
                    action=text,
                    text=T("err.mj.er_swap_first"),
                )
            return self._swap(seat, _tiles_arg(low, word or ""), text)
        if word in ("swap", "换牌"):
            raise IllegalActionError(
                "the swap is over", seat=seat, action=text, text=T("err.mj.er_swap_done")
            )
        if self._phase == DISCARD and (self.riichi[seat] or self.haidi is not None):
            return self._auto_turn(seat, text)
        if word is not None:
            if self._phase != DISCARD:
                raise IllegalActionError(
                    "not now", seat=seat, action=text, text=T("err.mj.er_not_now")
                )
            tiles = _tiles_arg(low, word)
            canonical = {"报听": "ting", "搓牌": "cuo"}.get(word, word)
            action = f"{canonical} {format_tiles(tiles)}" if tiles else canonical
            if action not in self.legal_actions(seat):
                raise IllegalActionError(
                    f"not possible now: {action}",
                    seat=seat,
                    action=text,
                    text=T("err.mj.er_not_now"),
                )
            return self._special(seat, canonical, tiles)
        kind = text.strip().lower()
        if self._phase == DISCARD and kind in ("hu", "胡", "自摸", "和") and self._can_tsumo(seat):
            self._tsumo(seat)
            return "hu"
        return super()._apply(seat, text)

    def _swap(self, seat: int, tiles: list[int], text: str) -> str:
        # in the order the log writes them (``swap 9m7m`` is logged ``swap 79m``): each tile
        # draws from a pool the earlier ones joined, so the order decides what comes back
        tiles = sorted(tiles)
        need = Counter(tiles)
        if any(self.hands[seat][t] < n for t, n in need.items()):
            raise IllegalActionError(
                "you do not hold those tiles",
                seat=seat,
                action=text,
                text=T("err.mj.not_held", tile=spell(format_tiles(tiles))),
            )
        for t in tiles:
            self.hands[seat][t] -= 1
            new = self.unused.pop(self.rng.randrange(len(self.unused)))
            self.unused.append(t)
            self.hands[seat][new] += 1
        self.swapped[seat] = True
        self.status[seat] = T("mj.status.er_swapped", n=len(tiles))
        if all(self.swapped):
            self._phase = DISCARD
            self.status = [None] * self.N
            if self.drawn is not None and not self.hands[self.dealer][self.drawn]:
                self.drawn = None
        return f"swap {format_tiles(tiles)}" if tiles else "swap -"

    def _special(self, seat: int, kind: str, tiles: list[int]) -> str:
        if kind == "ting":
            (tile,) = tiles
            self.riichi[seat] = True
            self.riichi_order.append(seat)
            first = not self.discarded[seat] and not self.claimed
            if first and (seat == self.dealer or self.drawn == tile):
                self.tianting[seat] = True  # 天听
            self.cuo_offer, self.huan_offer = False, None
            self._discard(seat, tile)
            return f"ting {tile_name(tile)}"
        if kind == "cuo":
            (tile,) = tiles
            assert self.drawn is not None
            self.hands[seat][self.drawn] -= 1
            self.unused.append(self.drawn)
            self.unused.remove(tile)
            self.hands[seat][tile] += 1
            self.drawn = tile
            self.cuo_offer = False
            if self.huan_offer is not None and self.unused.count(self.huan_offer) < 3:
                self.huan_offer = None  # the tile picked broke the triplet offered
            self.status[seat] = T("mj.status.er_cuo")
            return f"cuo {tile_name(tile)}"
        assert kind == "huan" and self.huan_offer is not None
        for t in tiles:
            self.hands[seat][t] -= 1
            self.unused.append(t)
        for _ in range(3):
            self.unused.remove(self.huan_offer)
            self.hands[seat][self.huan_offer] += 1
        self.huan_offer = None
        self.cuo_offer = False  # the tile drawn is no longer told apart
        self.drawn = None
        self.status[seat] = T("mj.status.er_huan")
        return f"huan {format_tiles(tiles)}"

    def _auto_turn(self, seat: int, text: str) -> str:
        """报听 and 海底捞月: only 胡 or 过."""
        kind = text.strip().lower()
        if kind in ("hu", "胡", "自摸", "和"):
            self._tsumo(seat)
            return "hu"
        if kind not in ("pass", "过", "guo", "skip"):
            raise IllegalActionError(
                "you may only win or pass", seat=seat, action=text, text=T("err.mj.er_auto")
            )
        tile = self.drawn
        assert tile is not None
        if self.haidi is not None:
            self._haidi_next(seat, tile)
        else:
            self._discard(seat, tile)
        return "pass"

    # --- draws and discards -------------------------------------------------------------------
    def _draw(self, seat: int, kong: int | None = None) -> None:
        super()._draw(seat, kong)
        self.cuo_offer, self.huan_offer = False, None
        first = self.first_draw[seat]
        self.first_draw[seat] = False
        self._first = first
        if self.riichi[seat]:
            if not self.can_win_with(seat, None, discard=False):
                tile = self.drawn
                assert tile is not None
                self._discard(seat, tile)  # 报听: the engine throws the tile drawn
            return
        if self.rng.random() < CUO:
            self.cuo_offer = True
        if self.rng.random() < HUAN:
            triplets = sorted(t for t, n in Counter(self.unused).items() if n >= 3)
            if triplets:
                self.huan_offer = self.rng.choice(triplets)


    def _kong(self, seat: int, tile: int) -> None:
        self.cuo_offer, self.huan_offer = False, None
        super()._kong(seat, tile)

    def _discard(self, seat: int, tile: int) -> None:
        # the offers last until the seat's move is made, not until it is typed: a refused
        # move keeps them (bad input changes nothing)
        self.cuo_offer, self.huan_offer = False, None
        self.first_draw[self.dealer] = False
        hand = self.hands[seat]
        hand[tile] -= 1
        ready = self.is_ready(seat)
        hand[tile] += 1
        if ready and self.ready_at[seat] is None:
            self.ready_at[seat] = len(self.log)
        elif not ready:
            self.ready_at[seat] = None
        super()._discard(seat, tile)

    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: keeps its tiles at the swap, 胡 whenever it can, passes in 报听 / 海底 when it
        cannot, declares 报听 when its best discard leaves it ready, claims like the core.
        At ``hard``: ``ai_variants`` (the swap and the offers by value)."""
        if level == "hard":
            return ai.choose(self, seat, level)
        legal = self.legal_actions(seat)
        if self._phase == SWAP:
            return "swap -"
        if "hu" in legal:
            return "hu"
        if legal == ["hu", "pass"] or legal == ["pass"]:
            return "pass"
        if self._phase != DISCARD:
            return ai.choose(self, seat)
        action = ai.choose(self, seat)
        if f"ting {action}" in legal:
            return f"ting {action}"
        return action


def max_loss_erren(options: Any, seats: int) -> int | None:
    """13番 at most ("13 分封顶"; escape 13)."""
    return CAP
