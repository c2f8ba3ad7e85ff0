"""永州麻将 (003 "永州麻将"): the 136-tile preset with 吃 (上), seat and round winds, 一炮多响,
漏胡, 番 = ×2 and the 爆胡 cap, on the mahjong core.

Two 番 tables (GAMES.md §9.5; decisions: docs/games/mahjong.md): set ``A`` (爆胡 3番, the
default) and set ``B`` (爆和 5番, with a 起和 minimum ``min_fan`` of 0, 1 or 3). Inside the cap
the patterns and the extras (自摸, 门风, 圈风, each 三元 triplet) add up to at most the cap; the
special hands break it and take nothing else. Minimum 3番 for 一炮三响, 杠上开花, 杠上开花包杠,
海底捞月 and 抢杠; 天和 / 人和 / 地和 count 6番. Points = base × 2^番.

Payment: a discard win is paid by the discarder (each winner of 一炮多响 separately); a 自摸 by
the other three — or all three shares by one seat: the robbed seat (抢杠), the seat whose
discard was konged (杠上开花包杠), or the seat liable under 包自摸 (it fed the fourth open set,
"十二张落地", 包先不包后; or the fourth wind / third dragon to three wind / two dragon 碰).

>>> from engines.mahjong.tiles import parse_hand
>>> score(parse_hand("123m456m789m123p55p"), (), "A").items
(('pinghu', 1),)
>>> r = score(parse_hand("555z666z777z123m11m"), (), "A")
>>> r.items, r.fan
((('dasanyuan', 6),), 6)
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from engines.base import Setup, T, Text
from engines.errors import OptionError
from engines.mahjong.fan import FanResult, Meld, MeldKind
from engines.mahjong.game import DISCARD, SEATS, Event, MahjongGame, Win
from engines.mahjong.names import tile_text
from engines.mahjong.shape import TRIP, YAO, is_thirteen_orphans, standard_mask

YONGZHOU_OPTIONS: dict[str, Any] = {"set": "A", "min_fan": 0, "base": 1}
"""003: ``set`` "A" (爆胡 3番) or "B" (爆和 5番); ``min_fan`` B's 起和 room (0, 1 or 3);
``base`` the points of 0番 (the "基数点")."""

WITHIN = {
    "A": {"pinghu": 1, "pengpeng": 2, "hunyise": 2},
    "B": {"pinghu": 1, "pengpeng": 3, "hunyise": 3, "hunpeng": 5, "qingyise": 5},
}
"""番 inside the cap (爆胡以内), by set."""
SPECIAL = {
    "A": {
        "qingyise": 4,
        "hunpeng": 4,
        "qingpeng": 5,
        "hunyaojiu": 5,
        "xiaosanyuan": 5,
        "xiaosixi": 5,
        "ziyise": 6,
        "qingyaojiu": 6,
        "dasanyuan": 6,
        "dasixi": 6,
        "jiulian": 6,
        "shisanyao": 6,
    },
    "B": {
        "qingpeng": 6,
        "hunyaojiu": 6,
        "xiaosanyuan": 7,
        "xiaosixi": 7,
        "ziyise": 8,
        "qingyaojiu": 8,
        "dasanyuan": 9,
        "dasixi": 9,
        "shisanyao": 9,
    },
}
"""Special hands (特殊牌型) that break the cap and take no other 番, by set (B has no 九莲宝灯:
such a hand scores as 清一色)."""
CAPS = {"A": 3, "B": 5}
MIN_SITUATION = 3
HEAVEN = 6
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)


@dataclass(frozen=True)
class Situation:
    """How a 永州 hand was won: 自摸 (also 抢杠 and 杠上开花, "计自摸"), seat and round wind, the
    minimum-3番 cases, 天和/人和/地和."""

    self_draw: bool = False
    seat_wind: int | None = None
    round_wind: int | None = None
    minimum: str | None = None
    heaven: str | None = None


@dataclass(frozen=True)
class Score:
    """``items`` (key, 番) and the 番 counted."""

    items: tuple[tuple[str, int], ...]
    fan: int


def _all_runs(counts: Sequence[int]) -> bool:
    """Sets all runs (顺子) and a pair."""

    def runs(c: list[int]) -> bool:
        i = next((k for k, n in enumerate(c) if n), -1)
        if i < 0:
            return True
        if i >= 27 or i % 9 > 6 or not (c[i + 1] and c[i + 2]):
            return False
        for t in (i, i + 1, i + 2):
            c[t] -= 1
        ok = runs(c)
        for t in (i, i + 1, i + 2):
            c[t] += 1
        return ok

    c = list(counts)
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            ok = runs(c)
            c[p] += 2
            if ok:
                return True
    return False


def _nine_gates(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """九莲宝灯: concealed, one suit, 1112345678999 plus any tile of it."""
    if melds or sum(counts) != 14:
        return False
    for b in (0, 9, 18):
        part = counts[b : b + 9]
        if sum(part) == 14:
            need = (3, 1, 1, 1, 1, 1, 1, 1, 3)
            return all(n >= m for n, m in zip(part, need, strict=True))
    return False


def is_yongzhou_win(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """A 永州 win shape: 4 sets + a pair (honours included) or 十三幺; no 七对."""
    if not melds and is_thirteen_orphans(counts):
        return True
    return standard_mask(counts) != 0


def patterns(counts: Sequence[int], melds: Sequence[Meld]) -> list[str]:
    """Every 永州 pattern a winning hand shows (before the table picks): 十三幺, the one-suit
    and half-flush families (清一色/清碰, 混一色/混碰), 字一色, 清幺九, 混幺九, 大/小三元, 大/小四喜,
    九莲宝灯, 碰碰胡 (every set a triplet), 平胡 (every set a run)."""
    if not melds and is_thirteen_orphans(counts):
        return ["shisanyao"]
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    tiles += [t for m in melds for t in m.tiles]
    total = [0] * 34
    for t in tiles:
        total[t] += 1
    suits = {t // 9 for t in tiles if t < 27}
    honours = any(t >= 27 for t in tiles)
    no_chi = all(m.kind is not MeldKind.CHI for m in melds)
    # every set a triplet (碰碰胡): a reading whose property value has the TRIP bit
    peng = no_chi and bool(standard_mask(counts) & (1 << TRIP | 1 << (TRIP | YAO)))
    runs = all(m.kind is MeldKind.CHI for m in melds) and _all_runs(counts)
    triplets = {t for t in range(34) if total[t] >= 3}
    pair = {t for t in range(27, 34) if counts[t] == 2 and total[t] == 2}
    wind_trips = len(triplets & set(WINDS))
    dragon_trips = len(triplets & set(DRAGONS))
    keys: list[str] = []
    if not honours and len(suits) == 1:
        keys.append("qingpeng" if peng else "qingyise")
    elif honours and len(suits) == 1:
        keys.append("hunpeng" if peng else "hunyise")
    if not suits:
        keys.append("ziyise")
    terminal = all(t >= 27 or t % 9 in (0, 8) for t in tiles)
    if terminal and not honours:
        keys.append("qingyaojiu")
    elif terminal and suits:
        keys.append("hunyaojiu")
    if dragon_trips == 3:
        keys.append("dasanyuan")
    elif dragon_trips == 2 and pair & set(DRAGONS):
        keys.append("xiaosanyuan")
    if wind_trips == 4:
        keys.append("dasixi")
    elif wind_trips == 3 and pair & set(WINDS):
        keys.append("xiaosixi")
    if _nine_gates(counts, melds):
        keys.append("jiulian")
    if peng and "qingpeng" not in keys and "hunpeng" not in keys:
        keys.append("pengpeng")
    if runs:
        keys.append("pinghu")
    return keys


def score(
    counts: Sequence[int],
    melds: Sequence[Meld],
    table: str,
    situation: Situation = Situation(),
) -> Score:
    """番 of a winning 永州 hand (``counts``: concealed tiles with the winning tile): the best
    special hand if it beats the capped sum of the patterns inside the cap and the extras."""
    cap = CAPS[table]
    keys = patterns(counts, melds)
    specials = [(k, SPECIAL[table][k]) for k in keys if k in SPECIAL[table]]
    if keys == ["shisanyao"]:
        return _finish(specials, specials[0][1], situation)
    total = list(counts)
    for m in melds:
        for t in m.tiles:
            total[t] += 1
    triplets = {t for t in range(34) if total[t] >= 3}
    dragon_trips = len(triplets & set(DRAGONS))
    within = [(k, WITHIN[table][k]) for k in keys if k in WITHIN[table]]
    if table == "A" and "hunpeng" in keys:
        within = [w for w in within if w[0] != "pengpeng"]
    extras = []
    if situation.self_draw:
        extras.append(("zimo", 1))
    if situation.seat_wind in triplets:
        extras.append(("menfeng", 1))
    if situation.round_wind in triplets:
        extras.append(("quanfeng", 1))
    if dragon_trips:
        extras.append(("sanyuan", dragon_trips))
    inside = within or [("jihu", 0)]
    fan_inside = min(cap, sum(f for _, f in inside) + sum(f for _, f in extras))
    if specials:
        best = max(specials, key=lambda s: s[1])
        if best[1] > fan_inside:
            return _finish([best], best[1], situation)
    return _finish(inside + extras, fan_inside, situation)


def _finish(items: list[tuple[str, int]], fan: int, situation: Situation) -> Score:
    if situation.minimum and fan < MIN_SITUATION:
        items = [*items, (situation.minimum, MIN_SITUATION - fan)]
        fan = MIN_SITUATION
    if situation.heaven and fan < HEAVEN:
        items = [*items, (situation.heaven, HEAVEN - fan)]
        fan = HEAVEN
    return Score(tuple(items), fan)


def check_yongzhou(options: Mapping[str, Any]) -> dict[str, Any]:
    """The room's options merged and checked (OptionError names a bad one)."""
    opts = {**YONGZHOU_OPTIONS, **dict(options)}
    for key in opts:
        if key not in YONGZHOU_OPTIONS:
            raise OptionError(
                key,
                "unknown option",
                text=T("err.base.option_unknown", option=key, game="Yongzhou Mahjong"),
            )
    if opts["set"] not in ("A", "B"):
        raise OptionError("set", "must be A or B", text=T("err.mj.yz_set", value=opts["set"]))
    if opts["min_fan"] not in (0, 1, 3) or (opts["min_fan"] and opts["set"] != "B"):
        raise OptionError(
            "min_fan",
            "起和 is 0, 1 or 3 番, and only with set B",
            text=T("err.mj.yz_min", value=opts["min_fan"]),
        )
    base = opts["base"]
    if not isinstance(base, int) or isinstance(base, bool) or base < 1:
        raise OptionError(
            "base",
            "must be a whole number ≥ 1",
            text=T("err.base.option_whole", option="base", min=1),
        )
    return opts


def max_loss_yongzhou(options: Mapping[str, Any], seats: int) -> int | None:
    """All three shares of the largest special hand (包自摸 / 抢杠 / 杠上开花包杠), or one to
    each of three winners of 一炮三响: 3 × base × 2^(the table's largest 番)."""
    opts = check_yongzhou(options)
    top: int = max(SPECIAL[opts["set"]].values())
    base: int = opts["base"]
    return base * (seats - 1) * (1 << top)


class YongzhouGame(MahjongGame):
    """永州麻将: 吃, 门风/圈风, 漏胡, 一炮多响, set A or B, 包自摸."""

    KEY: ClassVar[str] = "yongzhou"
    KINDS: ClassVar[int] = 34

    def __init__(self, setup: Setup, wall: Sequence[int] | None = None) -> None:
        opts = check_yongzhou(setup.options)
        super().__init__(setup, wall)
        self.table: str = opts["set"]
        self.min_fan: int = opts["min_fan"]
        self.base: int = opts["base"]
        first = setup.carry.get("first")
        self.first = first if isinstance(first, int) and 0 <= first < SEATS else self.dealer
        rw = setup.carry.get("round")
        self.round_wind = rw if isinstance(rw, int) and rw in WINDS else WINDS[0]
        self.lou: list[set[int]] = [set() for _ in range(SEATS)]
        self.kong_source: list[int | None] = []
        self.liable: dict[int, int] = {}  # 包自摸: seat → the seat paying its 自摸
        self.twelve_fed: set[int] = set()  # seats already liable for a 十二张落地 (包先不包后)
        self._robbing = False
        self._phase = DISCARD

    @classmethod
    def check_options(cls, options: Any) -> None:
        check_yongzhou(options)

    # --- rules -----------------------------------------------------------------------------
    def seat_wind(self, seat: int) -> int:
        """门风: the dealer is 东, then 南 西 北 in play order."""
        return WINDS[(seat - self.dealer) % SEATS]

    def last_four(self) -> bool:
        return False

    def _claimable(self, seat: int, tile: int) -> bool:
        return True

    def _chi_options(self, seat: int, tile: int) -> list[str]:
        return self.chi_runs(seat, tile)

    def _situation_of(
        self, seat: int, tile: int | None, *, robbed: bool, winners: int = 1
    ) -> Situation:
        self_draw = tile is None or robbed
        minimum = None
        if robbed:
            minimum = "qianggang"
        elif tile is None and self.turn_kong is not None:
            minimum = "gangkai"
        elif tile is None and self.wall_left() == 0:
            minimum = "haidi_yz"
        elif winners == 3:
            minimum = "sanxiang"
        untouched = not self.claimed
        heaven = None
        if tile is None and seat == self.dealer and untouched and not any(self.discarded):
            heaven = "tianhe"
        elif tile is None and seat != self.dealer and untouched and not self.discarded[seat]:
            heaven = "dihe"  # a 闲's first self-draw in the first go-round, no claims
        elif (
            tile is not None
            and not robbed
            and self.last_discard == (self.dealer, tile)
            and untouched
            and sum(self.discarded) == 1
        ):
            heaven = "renhe"  # the dealer's first discard
        return Situation(self_draw, self.seat_wind(seat), self.round_wind, minimum, heaven)

    def score_of(
        self, seat: int, tile: int | None, *, robbed: bool = False, winners: int = 1
    ) -> Score | None:
        hand = list(self.hands[seat])
        if tile is not None:
            hand[tile] += 1
        if not is_yongzhou_win(hand, self.melds[seat]):
            return None
        sit = self._situation_of(seat, tile, robbed=robbed, winners=winners)
        return score(hand, self.melds[seat], self.table, sit)

    def can_win_with(self, seat: int, tile: int | None, *, discard: bool) -> bool:
        """Any 4-sets-and-a-pair or 十三幺 (B: at least ``min_fan``); 漏胡 blocks a passed
        tile on a discard or a 补杠 until the seat moves."""
        if self.wins or (discard and tile in self.lou[seat]):
            return False
        result = self.score_of(seat, tile, robbed=discard and self._robbing)
        return result is not None and result.fan >= self.min_fan

    def _passed_win(self, seat: int, tile: int) -> None:
        self.lou[seat].add(tile)

    def _draw(self, seat: int, kong: int | None = None) -> None:
        self.lou[seat].clear()
        super()._draw(seat, kong)

    def _bugang(self, seat: int, tile: int) -> None:
        self._robbing = True
        try:
            super()._bugang(seat, tile)
        finally:
            self._robbing = False

    # --- claims and 包自摸 -----------------------------------------------------------------
    def _kong_money(self, seat: int, kind: MeldKind, tile: int, source: int | None) -> None:
        """永州 kongs pay nothing; a 点杠's feeder is kept for 杠上开花包杠."""
        self.kongs.append((seat, len(self.events)))
        self.kong_events.append([])
        self.kong_source.append(source if kind is MeldKind.ZHIGANG else None)
        self.claimed = True

    def _after_claim(self, seat: int, tile: int, source: int) -> None:
        self.lou[seat].clear()
        melds = [m for m in self.melds[seat] if m.kind is not MeldKind.ANGANG]
        if tile in WINDS and sum(1 for m in melds if m.tile in WINDS) == 4:
            self.liable.setdefault(seat, source)  # fed the fourth wind: 大四喜
        if tile in DRAGONS and sum(1 for m in melds if m.tile in DRAGONS) == 3:
            self.liable.setdefault(seat, source)  # fed the third dragon: 大三元
        if len(melds) == 4 and source not in self.twelve_fed:
            self.twelve_fed.add(source)  # 十二张落地, 包先不包后
            self.liable.setdefault(seat, source)

    def _peng(self, seat: int, tile: int, source: int) -> None:
        super()._peng(seat, tile, source)
        self._after_claim(seat, tile, source)

    def _chi(self, seat: int, tile: int, source: int, action: str) -> None:
        super()._chi(seat, tile, source, action)
        self._after_claim(seat, tile, source)

    def _zhigang(self, seat: int, tile: int, source: int) -> None:
        super()._zhigang(seat, tile, source)
        if not self.ended:
            self._after_claim(seat, tile, source)

    # --- wins --------------------------------------------------------------------------------
    def _win(self, seat: int, tile: int, source: int | None, result: Score, how: str) -> None:
        items = (*result.items, (how, 0))
        self.wins.append(
            Win(seat, tile, source, FanResult(items, result.fan, result.fan, 1 << result.fan), 0)
        )
        self.status[seat] = T("mj.status.hu", fan=result.fan)

    def _tsumo(self, seat: int) -> None:
        tile = self.drawn
        assert tile is not None
        result = self.score_of(seat, None)
        assert result is not None
        kong = self.turn_kong
        payer = self.kong_source[kong] if kong is not None else None
        reason = "mj.pay.yz_gangbao"
        if payer is None and seat in self.liable:
            payer, reason = self.liable[seat], "mj.pay.yz_bao"
        self.hands[seat][tile] -= 1
        self._win(seat, tile, None, result, "zimo")
        self._pay_self_draw(seat, result.fan, payer, reason)
        self.drawn = None
        self.turn_kong = None
        self._end("win")

    def _pay_self_draw(self, seat: int, fan: int, payer: int | None, reason: str) -> None:
        value = self.base << fan
        for k in range(1, SEATS):
            s = (seat + k) % SEATS
            if payer is None:
                self.events.append(Event("win", s, seat, value, T("mj.pay.zimo", fan=fan)))
            else:
                self.events.append(Event("win", payer, seat, value, T(reason, seat=s + 1, fan=fan)))

    def _ron(
        self,
        winners: list[int],
        tile: int,
        source: int,
        *,
        robbed: bool,
        after_kong: int | None,
    ) -> None:
        """一炮多响: every seat answering 胡 wins; 抢杠 counts as 自摸 paid by the robbed seat
        for all three."""
        results = {}
        for w in winners:
            self._robbing = robbed
            try:
                result = self.score_of(w, tile, robbed=robbed, winners=len(winners))
            finally:
                self._robbing = False
            assert result is not None
            results[w] = result
        if robbed:
            self.hands[source][tile] -= 1
        else:
            self._take_discard(source, tile)
        self.won_tiles.append(tile)
        for w in winners:
            result = results[w]
            if robbed:
                self._win(w, tile, source, result, "qianggang")
                self._pay_self_draw(w, result.fan, source, "mj.pay.yz_qiang")
            else:
                self._win(w, tile, source, result, "dianpao")
                self.events.append(
                    Event(
                        "win",
                        source,
                        w,
                        self.base << result.fan,
                        T("mj.pay.dianpao", fan=result.fan),
                    )
                )
        self.status[source] = T("mj.status.fed", tile=tile_text(tile))
        self._end("win")

    def _end_wall(self) -> None:
        """荒牌 ("和牌 即流局、荒牌"): nobody pays; the dealer stays."""
        self._end("wall")

    def _on_escape(self, seat: int) -> None:
        """The seed sets no escape rule: the hand ends and the escaper pays every other seat a
        爆胡 (the cap's 番), the hall's "pay a full loss" fallback (GAMES.md §1.5)."""
        value = self.base << CAPS[self.table]
        for k in range(1, SEATS):
            s = (seat + k) % SEATS
            self.events.append(Event("escape", seat, s, value, T("mj.pay.escape")))
        self._end("escape")

    def escape_cost(self, seat: int) -> int | None:
        """A 爆胡 to every other seat (``_on_escape``)."""
        if seat in self.escaped or self.is_over():
            return 0
        return (SEATS - 1) * (self.base << CAPS[self.table])

    def next_carry(self) -> dict[str, Any]:
        """连庄 when the dealer won (also among several) or nobody did; otherwise the next seat
        deals, and the round wind moves on when the deal comes back to the first dealer."""
        if self.ended == "escape":
            return {}
        dealer, round_wind = self.dealer, self.round_wind
        if self.wins and self.dealer not in self.winners():
            dealer = (self.dealer + 1) % SEATS
            if dealer == self.first:
                round_wind = WINDS[(WINDS.index(round_wind) + 1) % 4]
        return {"dealer": dealer, "first": self.first, "round": round_wind}

    # --- views -------------------------------------------------------------------------------
    def _role(self, seat: int, viewer: int | None) -> Text | None:
        wind = T(f"mj.wind.{self.seat_wind(seat) - 26}")
        if seat == self.dealer:
            return T("mj.role.yz_dealer", wind=wind)
        return T("mj.role.yz_seat", wind=wind)

    def _extra_lines(self, seat: int | None) -> list[Text]:
        return [T("mj.line.yz_round", wind=T(f"mj.wind.{self.round_wind - 26}"), set=self.table)]

    def _win_lines(self, w: Win) -> list[Text]:
        how = w.fan.items[-1][0]
        lines = [
            T(
                f"mj.out.yz_{how}",
                seat=w.seat + 1,
                source=(w.source or 0) + 1,
                tile=tile_text(w.tile),
                fan=w.fan.fan,
                x=w.fan.multiple,
            )
        ]
        for key, fan in w.fan.items[:-1]:
            lines.append(T("mj.out.item", name=T(f"mj.fan.{key}"), fan=fan))
        return lines

    def _draw_line(self) -> Text:
        return T("mj.out.yz_draw")
