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

import random
from collections import Counter
from collections.abc import Sequence
from itertools import combinations_with_replacement
from typing import Any, ClassVar

from engines.base import Choice, Picker, Setup, T, Text, Window
from engines.errors import IllegalActionError
from engines.mahjong import ai
from engines.mahjong.fan import FanResult, MeldKind
from engines.mahjong.game import DISCARD, Event, MahjongGame, Win
from engines.mahjong.names import group_text, spell, tile_text
from engines.mahjong.tiles import format_tiles, parse_tile, parse_tiles, tile_name
from engines.mahjong.yaku import CAP, Result, evaluate, is_erren_win
from engines.mahjong.yaku import Win as YakuWin

SWAP = "swap"
SWAP_KEY = -2  # ``Window.key`` of the 换牌 window (once, at the start)
IN_PLAY = 71
""""每次游戏开始后，随机选出 71 张牌进行游戏"."""
FLOWERS = 2
"""花牌 turned up from the unused tiles at the start."""
CUO = 0.1
"""Chance of a 搓牌 offer on a draw."""
HUAN = 0.1
"""Chance of a 换牌 (triplet) offer on a draw."""
HAIDI_DRAWS = 3
ESCAPE = 13
ERREN_OPTIONS: dict[str, Any] = {}
_WORDS = ("swap", "换牌", "ting", "报听", "cuo", "搓牌", "huan")


def _tiles_arg(text: str, word: str) -> list[int]:
    rest = text.strip()[len(word) :].strip()
    if rest in ("-", "", "none", "不换"):
        return []
    return parse_tiles(rest)


class ErrenGame(MahjongGame):
    """二人麻将: two seats, 71 tiles, 花牌, swaps, 搓牌/换牌, 报听, 海底捞月, 役 to 13番."""

    KEY: ClassVar[str] = "erren"
    N: ClassVar[int] = 2
    KINDS: ClassVar[int] = 34

    def __init__(self, setup: Setup, wall: Sequence[int] | None = None) -> None:
        """A new hand; ``wall`` stacks all 136 tiles: the first 71 are played (deal, then
        draws), the rest is the unused pool whose last two are the 花牌."""
        super().__init__(setup, wall)
        self.unused: list[int] = self.wall[IN_PLAY:]
        self.wall = self.wall[:IN_PLAY]
        self.flowers = tuple(self.unused.pop() for _ in range(FLOWERS))
        self.rng = random.Random(setup.seed * 7919 + 17)
        self.swapped: list[bool] = [False] * self.N
        self.riichi: list[bool] = [False] * self.N
        self.riichi_order: list[int] = []
        self.tianting: list[bool] = [False] * self.N
        self.ready_at: list[int | None] = [None] * self.N
        self.cuo_offer = False
        self.huan_offer: int | None = None
        self.haidi: int | None = None  # the seat drawing 海底捞月
        self.haidi_left = 0
        self.first_draw = [True] * self.N
        self._phase = SWAP

    # --- rules -----------------------------------------------------------------------------
    def last_four(self) -> bool:
        return False

    def opponent(self, seat: int) -> int:
        return 1 - seat

    def can_win_with(self, seat: int, tile: int | None, *, discard: bool) -> bool:
        if self.wins:
            return False
        hand = list(self.hands[seat])
        if tile is not None:
            hand[tile] += 1
        return is_erren_win(hand, self.melds[seat])

    def is_ready(self, seat: int) -> bool:
        """听牌: some tile would complete the concealed hand."""
        return any(self.can_win_with(seat, t, discard=False) for t in range(34))

    def kong_options(self, seat: int) -> list[str]:
        if self.riichi[seat] or self.haidi is not None:
            return []
        return super().kong_options(seat)

    def _claimable(self, seat: int, tile: int) -> bool:
        return not self.riichi[seat]

    def _chi_options(self, seat: int, tile: int) -> list[str]:
        return self.chi_runs(seat, tile)

    def _kong_money(self, seat: int, kind: MeldKind, tile: int, source: int | None) -> None:
        """Kongs pay nothing; they count for 杠上开花 and 四杠子."""
        self.kongs.append((seat, len(self.events)))
        self.kong_events.append([])
        self.claimed = True

    def ting_options(self, seat: int) -> list[str]:
        """报听: discards that leave the hand ready."""
        if self.riichi[seat] or self.haidi is not None:
            return []
        out = []
        hand = self.hands[seat]
        for t in range(34):
            if hand[t]:
                hand[t] -= 1
                ready = self.is_ready(seat)
                hand[t] += 1
                if ready:
                    out.append(f"ting {tile_name(t)}")
        return out

    def huan_options(self, seat: int) -> list[str]:
        if self.huan_offer is None:
            return []
        held = [t for t in range(34) if self.hands[seat][t]]
        out = []
        for combo in combinations_with_replacement(held, 3):
            if all(combo.count(t) <= self.hands[seat][t] for t in combo):
                out.append("huan " + format_tiles(combo))
        return out

    def cuo_options(self) -> list[str]:
        if not self.cuo_offer or self.drawn is None:
            return []
        return [f"cuo {tile_name(t)}" for t in sorted(set(self.unused))]

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
            self.epochs = [e + 1 for e in self.epochs]
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

    # --- draws, discards and the end of the wall ---------------------------------------------
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

    _first = False

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
            self.epochs[seat] += 1
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

    # --- wins ----------------------------------------------------------------------------------
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

    # --- views -------------------------------------------------------------------------------
    def census(self) -> Counter[int]:
        c = super().census()
        c.update(self.unused)
        c.update(self.flowers)
        return c

    def _role(self, seat: int, viewer: int | None) -> Text | None:
        ting = self.riichi[seat]
        if seat == self.dealer:
            return T("mj.role.er_dealer_ting") if ting else T("mj.role.dealer")
        return T("mj.role.er_ting") if ting else None

    def _extra_lines(self, seat: int | None) -> list[Text]:
        """The 花牌 and 海底捞月 for everyone; the seat to act alone sees its offers."""
        flowers = spell(" ".join(tile_name(t) for t in sorted(self.flowers)))
        lines = [T("mj.line.er_flowers", tiles=flowers)]
        if self.haidi is not None and not self.ended:
            lines.append(T("mj.line.er_haidi", seat=self.haidi + 1, n=self.haidi_left))
        if seat is not None and not self.ended and self._phase == SWAP and not self.swapped[seat]:
            lines.append(T("mj.line.er_swap_how"))
        mine = seat is not None and seat == self.turn and self._phase == DISCARD
        if mine and not self.ended and self.cuo_offer:
            lines.append(T("mj.line.er_cuo"))
        if mine and not self.ended and self.huan_offer is not None:
            lines.append(T("mj.line.er_huan", tiles=group_text([self.huan_offer] * 3)))
        return lines

    def _phase_text(self) -> Text:
        if not self.ended and self._phase == SWAP:
            return T("mj.phase.er_swap")
        return super()._phase_text()

    def _win_lines(self, w: Win) -> list[Text]:
        how = w.fan.items[-1][0]
        lines = [
            T(
                f"mj.out.er_{'zimo' if how in ('zimo', 'qianggang') else 'dianpao'}",
                seat=w.seat + 1,
                source=(w.source or 0) + 1,
                tile=tile_text(w.tile),
                fan=w.fan.fan,
            )
        ]
        for key, fan in w.fan.items[:-1]:
            lines.append(T("mj.out.item", name=T(f"mj.fan.er_{key}"), fan=fan))
        return lines

    def _draw_line(self) -> Text:
        return T("mj.out.er_draw")

    def choices(self, seat: int) -> list[Choice]:
        if self._phase == SWAP and seat in self.to_act():
            return [Choice("swap -", T("mj.choice.er_keep"), "primary")]
        out = super().choices(seat)
        out += [
            Choice(a, T("mj.choice.er_ting", tile=tile_text(parse_tile(a[5:]))), "primary")
            for a in self.legal_actions(seat)
            if a.startswith("ting")
        ]
        if self._phase == DISCARD and (self.riichi[seat] or self.haidi is not None):
            return [
                Choice("hu", T("mj.choice.zimo"), "success"),
                Choice("pass", T("mj.choice.pass")),
            ]
        return out

    def picker(self, seat: int) -> Picker | None:
        if self.ended or seat not in self.to_act():
            return None
        if self._phase == SWAP:
            tokens = tuple(tile_name(t) for t in range(34) if self.hands[seat][t])
            return Picker(tokens, tokens, 1, len(tokens), "swap {}", "")
        if self.riichi[seat] or self.haidi is not None:
            return None
        return super().picker(seat)

    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: keeps its tiles at the swap, 胡 whenever it can, passes in 报听 / 海底 when it
        cannot, declares 报听 when its best discard leaves it ready, claims like the core."""
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
