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

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engines.base import Choice, Picker, Setup, T, Text
from engines.errors import IllegalActionError
from engines.mahjong.fan import FanResult, Meld, MeldKind
from engines.mahjong.game import DISCARD, SEATS, Event, MahjongGame, Win
from engines.mahjong.names import joined, tile_text
from engines.mahjong.notation import parse_action
from engines.mahjong.shape import shanten
from engines.mahjong.tiles import tile_name
from engines.mahjong.wild import ANY_PAIR, PAIR_258, need, need_triplets

HONGZHONG = 31
"""红中 (5z)."""
HAIDI_RESERVE = 10
"""海底的5沓牌: never drawn."""
HAIDI = 4
"""The last four tiles drawn before the reserve: 海底捞 only."""
CAP, JINDING, JINDING_KOUKOU = 300, 400, 500
ESCAPE, ESCAPE_KOUKOU = 400, 500
BIG_BASE = 10

_HONOUR_CYCLE = (27, 28, 29, 30, 32, 33)  # 东南西北 发白: 红中 is skipped


def laizi_of(flipped: int) -> int:
    """The 癞子 for a turned-up tile: one above it (9 → 1; 东南西北发白 cycle, 中 → 发)."""
    if flipped < 27:
        return flipped - flipped % 9 + (flipped % 9 + 1) % 9
    if flipped == HONGZHONG:
        return 32
    return _HONOUR_CYCLE[(_HONOUR_CYCLE.index(flipped) + 1) % len(_HONOUR_CYCLE)]


@dataclass(frozen=True)
class Hand:
    """A 武汉 win: the 大胡 items (empty: 小胡) and whether it is 硬胡."""

    bigs: tuple[str, ...]
    hard: bool

    @property
    def base(self) -> int:
        return BIG_BASE * len(self.bigs) if self.bigs else 1


def _shape(natural: Sequence[int], wilds: int, melds: Sequence[Meld]) -> tuple[bool, list[str]]:
    """(complete?, the 大胡 shapes it makes) for the concealed natural tiles and ``wilds``."""
    tiles = [t for t, n in enumerate(natural) for _ in range(n)]
    tiles += [t for m in melds for t in m.tiles]
    bigs = []
    if all(m.kind is not MeldKind.CHI for m in melds) and need_triplets(natural) <= wilds:
        bigs.append("pengpeng")
    suits = {t // 9 for t in tiles}
    if len(suits) == 1 and 3 not in suits and need(natural, ANY_PAIR) <= wilds:
        bigs.append("qingyise")
    if tiles and all(t < 27 and t % 9 in (1, 4, 7) for t in tiles):
        bigs.append("jiangyise")  # 乱将: any tiles, all 2/5/8
    if tiles and all(t >= 27 for t in tiles):
        bigs.append("fengyise")  # 乱风: any honours
    return need(natural, PAIR_258) <= wilds or bool(bigs), bigs


def judge(
    hand: Sequence[int],
    melds: Sequence[Meld],
    laizi: int,
    *,
    situations: Sequence[str] = (),
    on_discard: bool = False,
) -> Hand | None:
    """The best reading of a complete 武汉 hand (``hand``: concealed tiles with the winning
    tile), or None if it is no win. ``situations``: 大胡 of the moment (gangkai, haidi,
    qianggang). The caller checks 开口; holding 红中 is never a win; two 癞子 make no 小胡."""
    if hand[HONGZHONG]:
        return None
    wilds = hand[laizi]
    natural = list(hand)
    natural[laizi] = 0
    readings = [(natural, wilds, False)]
    if wilds:
        readings.append((list(hand), 0, True))  # the 癞子 as itself
    else:
        readings = [(natural, 0, True)]
    best: Hand | None = None
    exposed = sum(1 for m in melds if m.kind is not MeldKind.ANGANG)
    for counts, w, hard in readings:
        ok, bigs = _shape(counts, w, melds)
        if not ok:
            continue
        if exposed == 4 and on_discard:
            bigs.append("quanqiuren")
        bigs += list(situations)
        if not bigs and wilds >= 2:
            continue  # "当有两个癞子时不能胡小胡"
        found = Hand(tuple(bigs), hard)
        if best is None or _value(found) > _value(best):
            best = found
    return best


def _value(hand: Hand) -> int:
    return hand.base * (2 if hand.hard else 1)


class WuhanGame(MahjongGame):
    """武汉麻将: 癞子, 红中杠, 吃, 开口翻 (option ``koukou``: 口口翻), 小胡/大胡, 承包, caps."""

    KEY: ClassVar[str] = "wuhan"
    KINDS: ClassVar[int] = 34

    def __init__(self, setup: Setup, wall: Sequence[int] | None = None) -> None:
        super().__init__(setup, wall)
        self.koukou = bool(setup.options.get("koukou", False))
        self.flipped = self.wall[self.pos]
        self.pos += 1  # the turned-up tile is set aside, face up
        self.laizi = laizi_of(self.flipped)
        self.opens = [0] * SEATS
        self.open_sources: list[list[int]] = [[] for _ in range(SEATS)]
        self.special = [0] * SEATS  # 红中杠 and 癞子杠
        self.laizi_kongs = [0] * SEATS  # of which 癞子杠
        self.haidi = False
        self.liable: int | None = None
        self.losses: list[int] = [0] * SEATS
        self._phase = DISCARD

    # --- rules -----------------------------------------------------------------------------
    def specials(self) -> tuple[int, int]:
        """The tiles that are never claimed and are put out as a kong: 红中 and the 癞子."""
        return (HONGZHONG, self.laizi)

    def exhausted(self) -> bool:
        return self.wall_left() <= HAIDI_RESERVE

    def last_four(self) -> bool:
        return False

    def _kongs_allowed(self) -> bool:
        """A kong's replacement must come before 海底 ("此时不能打出不能杠")."""
        return self.wall_left() > HAIDI_RESERVE + HAIDI

    def kong_options(self, seat: int) -> list[str]:
        """暗杠 (not of 红中 or the 癞子), 蓄杠 onto a 碰, 红中杠 and 癞子杠 of a single tile."""
        if not self._kongs_allowed():
            return []
        hand = self.hands[seat]
        tiles = {t for t in range(34) if hand[t] == 4 and t not in self.specials()}
        tiles |= {m.tile for m in self.melds[seat] if m.kind is MeldKind.PENG and hand[m.tile]}
        tiles |= {t for t in self.specials() if hand[t]}
        return [f"gang {tile_name(t)}" for t in sorted(tiles)]

    def _claimable(self, seat: int, tile: int) -> bool:
        return tile not in self.specials()

    def _chi_options(self, seat: int, tile: int) -> list[str]:
        return self.chi_runs(seat, tile, barred=self.specials())

    def hand_of(self, seat: int, tile: int | None) -> list[int]:
        hand = list(self.hands[seat])
        if tile is not None:
            hand[tile] += 1
        return hand

    def judge_win(
        self, seat: int, tile: int | None, *, robbed: bool = False, on_discard: bool = False
    ) -> Hand | None:
        """The seat's win with ``tile`` (None: its hand as it is, 自摸), or None."""
        if self.wins or not self.opens[seat]:
            return None  # 开口翻: an opening is needed; one win ends the hand
        situations = []
        if tile is None and self.turn_kong is not None:
            situations.append("gangkai")
        if tile is None and self.haidi:
            situations.append("haidi")
        if robbed:
            situations.append("qianggang")
        return judge(
            self.hand_of(seat, tile),
            self.melds[seat],
            self.laizi,
            situations=situations,
            on_discard=on_discard,
        )

    def can_win_with(self, seat: int, tile: int | None, *, discard: bool) -> bool:
        if tile is not None and tile in self.specials():
            return False  # a discarded 癞子 cannot be won on
        robbed = discard and self._robbing
        return self.judge_win(seat, tile, robbed=robbed, on_discard=discard) is not None

    _robbing = False

    def _bugang(self, seat: int, tile: int) -> None:
        self._robbing = True
        try:
            super()._bugang(seat, tile)
        finally:
            self._robbing = False

    # --- kongs and openings ------------------------------------------------------------------
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
        shanten (癞子 kept)."""
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

    # --- wins ----------------------------------------------------------------------------------
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

    def ready(self, seat: int) -> bool:
        """听牌 (for 承包): some tile would complete the seat's hand (shape only)."""
        for t in range(34):
            hand = self.hand_of(seat, t)
            hand[HONGZHONG] = 0
            if judge(hand, self.melds[seat], self.laizi) is not None:
                return True
        return False

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

    # --- views ---------------------------------------------------------------------------------
    def census(self) -> Counter[int]:
        c = super().census()
        c[self.flipped] += 1
        return c

    def _role(self, seat: int, viewer: int | None) -> Text | None:
        if seat == self.dealer:
            return T("mj.role.wh_dealer", n=self.opens[seat])
        return T("mj.role.wh_open", n=self.opens[seat]) if self.opens[seat] else None

    def _extra_lines(self, seat: int | None) -> list[Text]:
        lines = [T("mj.line.wh_laizi", flip=tile_text(self.flipped), laizi=tile_text(self.laizi))]
        if self.haidi and not self.ended:
            lines.append(T("mj.line.wh_haidi"))
        return lines

    def _win_lines(self, w: Win) -> list[Text]:
        how = w.fan.items[-1][0]
        lines = [
            T(
                f"mj.out.wh_{how}",
                seat=w.seat + 1,
                source=(w.source or 0) + 1,
                tile=tile_text(w.tile),
            )
        ]
        for key, base in w.fan.items[:-1]:
            lines.append(T("mj.out.wh_item", name=T(f"mj.fan.{key}"), base=base))
        if w.tile == self.laizi:
            lines.append(T("mj.out.wh_laizi_tile", tile=tile_text(w.tile)))
        lines.append(T("mj.out.wh_winner", seat=w.seat + 1, factors=self._factors_text(w.seat)))
        for s in range(SEATS):
            if s != w.seat:
                lines.append(T("mj.out.wh_loss", seat=s + 1, x=self.losses[s],
                               factors=self._factors_text(s)))
        if self.liable is not None:
            lines.append(T("mj.out.wh_chengbao", seat=self.liable + 1))
        return lines

    def _won_line(self, w: Win) -> Text:
        names = [T(f"mj.fan.{k}") for k, _ in w.fan.items[:-1]]
        return T("mj.line.wh_won", seat=w.seat + 1, how=names[0])

    def _draw_line(self) -> Text:
        return T("mj.out.wh_draw")

    def choices(self, seat: int) -> list[Choice]:
        if self.haidi and not self.ended:
            return [
                Choice("hu", T("mj.choice.zimo"), "success"),
                Choice("pass", T("mj.choice.pass")),
            ]
        return super().choices(seat)

    def picker(self, seat: int) -> Picker | None:
        if self.haidi:
            return None
        return super().picker(seat)


def _minus_one(hand: list[int], tile: int, melds: int) -> int:
    hand[tile] -= 1
    sh = shanten(hand, melds)
    hand[tile] += 1
    return sh
