"""役: 二人麻将's hand patterns (000 范文九 §四), scored as 番, capped at 13 (役满).

``evaluate(counts, melds, win)`` reads every decomposition of a winning hand — four sets and a
pair, seven pairs, 国士无双, or 绿一色's free form ("可以乱牌") — and returns the best count:

- 役满 (13, never added to the others; several are listed but still 13): 天和 地和 人和 (the text's
  own definitions), 小四喜 大四喜 大三元 大车轮 四暗刻 四连刻 四杠子 百万石 字一色 清老头 绿一色 红孔雀
  九莲宝灯 国士无双 东北新干线;
- otherwise the listed patterns add up ("以下牌型可重复计算…按照加法算番"), 推倒胡 1 only when no
  other applies, capped at 13.

>>> from engines.mahjong.tiles import parse_hand
>>> r = evaluate(parse_hand("234m345p456s678s55m"), (), Win(tile=parse_tile("5m")))
>>> r.items, r.fan
((('menqing', 1), ('duanyao', 1)), 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.shape import ORPHANS, is_seven_pairs, is_thirteen_orphans, is_win

CAP = 13
GREEN = frozenset((19, 20, 21, 23, 25, 32))
"""绿一色: 2 3 4 6 8 条 and 发."""
RED = frozenset((18, 22, 24, 26, 31))
"""红孔雀: 1 5 7 9 条 and 红中."""
EAST, NORTH = 27, 30
WINDS = (27, 28, 29, 30)
DRAGONS = (31, 32, 33)

NON_YAKUMAN = {
    "tuidao": 1,
    "menqing": 1,
    "menqing_ting": 1,
    "tianting": 2,
    "pinghe": 1,
    "duanyao": 1,
    "menqing_zimo": 1,
    "huapai": 1,
    "yibeikou": 2,
    "liangbeikou": 4,
    "qiduizi": 3,
    "longqidui": 6,
    "pengpeng": 2,
    "sanse_shun": 2,
    "sananke": 2,
    "sanlianke": 3,
    "sanse_ke": 3,
    "hunquan": 3,
    "chunquan": 4,
    "hunlaotou": 2,
    "hunyise": 3,
    "qingyise": 5,
    "xiaosanyuan": 4,
    "yiqi": 2,
    "gangkai": 2,
    "hedi_yue": 1,
    "hedi_yu": 1,
    "haidi": 1,
}
"""The non-役满 patterns and their 番 (000 范文九 §四)."""

YAKUMAN = (
    "tianhe",
    "dihe",
    "renhe",
    "xiaosixi",
    "dasixi",
    "dasanyuan",
    "dachelun",
    "sianke",
    "silianke",
    "sigangzi",
    "baiwanshi",
    "ziyise",
    "qinglaotou",
    "lvyise",
    "hongkongque",
    "jiulian",
    "guoshi",
    "dongbei",
)
"""The 役满 patterns, all 13番."""


@dataclass(frozen=True)
class Win:
    """How the hand was won: the winning ``tile``, 自摸 (抢杠 counts as 自摸), and the moment's
    patterns (``extras``: tianting, menqing_ting, gangkai, hedi_yue, hedi_yu, haidi, tianhe,
    dihe, renhe), the 花牌 kinds, and ``held_four``: a 七对子 whose four of a kind was all in
    hand before the winning tile (then no 龙七对)."""

    tile: int
    self_draw: bool = False
    extras: tuple[str, ...] = ()
    flowers: tuple[int, ...] = ()
    held_four: bool = False


@dataclass(frozen=True)
class Result:
    """``items`` (key, 番) in display order and the 番 counted (at most 13)."""

    items: tuple[tuple[str, int], ...]
    fan: int

    @property
    def yakuman(self) -> bool:
        return self.fan == CAP and any(k in YAKUMAN for k, _ in self.items)


Set = tuple[str, int, bool]
"""(kind "run" / "trip" / "kong", lowest tile, concealed?)."""


def _sets(c: list[int]) -> list[list[tuple[str, int]]]:
    """Every way to split the counts into runs and triplets."""
    i = next((k for k, n in enumerate(c) if n), -1)
    if i < 0:
        return [[]]
    out: list[list[tuple[str, int]]] = []
    if c[i] >= 3:
        c[i] -= 3
        out += [[("trip", i), *rest] for rest in _sets(c)]
        c[i] += 3
    if i < 27 and i % 9 <= 6 and c[i + 1] and c[i + 2]:
        for t in (i, i + 1, i + 2):
            c[t] -= 1
        out += [[("run", i), *rest] for rest in _sets(c)]
        for t in (i, i + 1, i + 2):
            c[t] += 1
    return out


def decompositions(counts: Sequence[int]) -> list[tuple[int, list[tuple[str, int]]]]:
    """(pair, sets) for every 4-sets-and-a-pair reading of the concealed tiles."""
    c = list(counts)
    out = []
    for p in range(34):
        if c[p] >= 2:
            c[p] -= 2
            out += [(p, sets) for sets in _sets(c)]
            c[p] += 2
    return out


def _yao(t: int) -> bool:
    return t >= 27 or t % 9 in (0, 8)


def is_green_free(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """绿一色 "可以乱牌": fourteen tiles all green, in any arrangement."""
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    tiles += [t for m in melds for t in m.tiles]
    return bool(tiles) and all(t in GREEN for t in tiles)


def is_erren_win(counts: Sequence[int], melds: Sequence[Meld]) -> bool:
    """A 二人麻将 win: 4 sets + a pair, 七对子, 国士无双, or 绿一色 in any form."""
    if not melds and is_thirteen_orphans(counts):
        return True
    if is_win(counts, len(melds)):
        return True
    return is_green_free(counts, melds) and sum(counts) + 3 * len(melds) == 14


def evaluate(counts: Sequence[int], melds: Sequence[Meld], win: Win) -> Result | None:
    """The best count of a winning hand (``counts``: the concealed tiles with the winning
    tile), or None if it is no win."""
    if not is_erren_win(counts, melds):
        return None
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    tiles += [t for m in melds for t in m.tiles]
    total = [0] * 34
    for t in tiles:
        total[t] += 1
    closed = all(m.kind is MeldKind.ANGANG for m in melds)
    suits = {t // 9 for t in tiles if t < 27}
    honours = any(t >= 27 for t in tiles)
    common: list[str] = []  # patterns of the whole hand, whatever the reading
    yakuman: list[str] = [k for k in win.extras if k in YAKUMAN]
    if closed:
        common.append("menqing")
        if win.self_draw:
            common.append("menqing_zimo")
    common += [k for k in win.extras if k in NON_YAKUMAN]
    if all(not _yao(t) for t in tiles):
        common.append("duanyao")
    if suits and len(suits) == 1 and honours:
        common.append("hunyise")
    if len(suits) == 1 and not honours:
        common.append("qingyise")
        if suits == {0} and sum(t % 9 + 1 for t in tiles) >= 100:
            yakuman.append("baiwanshi")
    flowers = sum(total[f] for f in win.flowers)
    if is_green_free(counts, melds):
        yakuman.append("lvyise")
    best: tuple[int, list[tuple[str, int]]] | None = None

    def consider(items: list[str], extra_yakuman: list[str]) -> None:
        nonlocal best
        ym = yakuman + extra_yakuman
        if ym:
            listed = [(k, CAP) for k in dict.fromkeys(ym)]
            candidate = (CAP + 1, listed)  # any 役满 beats every other count
        else:
            keys = list(dict.fromkeys(common + items))
            scored = [(k, NON_YAKUMAN[k]) for k in keys]
            if flowers:
                scored.append(("huapai", flowers))
            if not scored:
                scored = [("tuidao", 1)]  # "不符合下列任何牌型"
            candidate = (min(CAP, sum(f for _, f in scored)), scored)
        if best is None or candidate[0] > best[0]:
            best = candidate

    if not melds and is_thirteen_orphans(counts):
        consider([], ["guoshi"])
    if not melds and is_seven_pairs(counts):
        items = ["qiduizi"]
        quads = [t for t in range(34) if counts[t] == 4]
        if quads and win.tile in quads and not win.held_four:
            items = ["longqidui"]
        extra = []
        if len(suits) == 1 and not honours and all(not _yao(t) for t in tiles):
            extra.append("dachelun")
        if all(t >= 27 for t in tiles):
            pass  # 字一色 must be 碰碰胡 in form
        consider(items, extra)
    for pair, sets in decompositions(counts):
        full: list[Set] = [(k, t, True) for k, t in sets]
        for m in melds:
            kind = "run" if m.kind is MeldKind.CHI else ("kong" if m.kind.is_kong else "trip")
            full.append((kind, m.tile, m.kind is MeldKind.ANGANG))
        consider(*_reading(pair, full, counts, melds, win, tiles, honours))
    if best is None:  # only 绿一色's free form
        consider([], [])
    assert best is not None
    chosen: list[tuple[str, int]] = best[1]
    fan = CAP if chosen and chosen[0][0] in YAKUMAN else min(CAP, sum(f for _, f in chosen))
    return Result(tuple(chosen), fan)


def patterns(counts: Sequence[int], melds: Sequence[Meld], win: Win) -> set[str]:
    """Every pattern (役 or 役满) some 4-sets-and-a-pair reading of the hand shows, with the
    patterns of the whole hand; for comparing with other calculators."""
    tiles = [t for t, n in enumerate(counts) for _ in range(n)]
    tiles += [t for m in melds for t in m.tiles]
    honours = any(t >= 27 for t in tiles)
    found: set[str] = set()
    for pair, sets in decompositions(counts):
        full: list[Set] = [(k, t, True) for k, t in sets]
        items, ym = _reading(pair, full, counts, melds, win, tiles, honours)
        found |= set(items) | set(ym)
        if any(k == "run" for k, _ in sets):
            found.add("has_run")
    return found


def _reading(
    pair: int,
    sets: list[Set],
    counts: Sequence[int],
    melds: Sequence[Meld],
    win: Win,
    tiles: list[int],
    honours: bool,
) -> tuple[list[str], list[str]]:
    """Patterns and 役满 of one 4-sets-and-a-pair reading."""
    items: list[str] = []
    ym: list[str] = []
    runs = sorted(t for k, t, _ in sets if k == "run")
    trips = sorted(t for k, t, _ in sets if k != "run")
    # a triplet completed by the opponent's discard is not concealed (暗刻)
    concealed = [
        t
        for k, t, hidden in sets
        if k != "run" and hidden and (win.self_draw or t != win.tile or counts[t] == 4)
    ]
    if len(trips) == 4:
        items.append("pengpeng")
    if len(runs) == 4 and pair < 27 and _two_sided(runs, win.tile, counts):
        items.append("pinghe")
    doubles = sum(1 for t in set(runs) if runs.count(t) >= 2) + sum(
        1 for t in set(runs) if runs.count(t) == 4
    )
    if doubles >= 2:
        items.append("liangbeikou")
    elif doubles == 1:
        items.append("yibeikou")
    for r in range(7):
        if all(s * 9 + r in runs for s in range(3)):
            items.append("sanse_shun")
            break
    for r in range(9):
        if sum(1 for s in range(3) if s * 9 + r in trips) == 3:
            items.append("sanse_ke")
    if len(concealed) == 3:
        items.append("sananke")
    if len(concealed) == 4:
        ym.append("sianke")
    suited_trips = [t for t in trips if t < 27]
    longest = _longest_chain(suited_trips)
    if longest >= 4:
        ym.append("silianke")
    elif longest == 3:
        items.append("sanlianke")
    groups = [(k, t) for k, t, _ in sets]
    all_yao = all(_yao(t) or (k == "run" and (t % 9 == 0 or t % 9 == 6)) for k, t in groups)
    if all_yao and _yao(pair):
        items.append("hunquan" if honours else "chunquan")
    if len(trips) == 4 and all(_yao(t) for t in tiles):
        if honours and any(t < 27 for t in tiles):
            items.append("hunlaotou")
        elif not honours:
            ym.append("qinglaotou")
        else:
            ym.append("ziyise")
    _honour_sets(pair, sets, trips, items, ym)
    dragon = any(all(s * 9 + r in runs for r in (0, 3, 6)) for s in range(3))
    if dragon:
        items.append("yiqi")
        if (EAST in trips and pair == NORTH) or (NORTH in trips and pair == EAST):
            ym.append("dongbei")
    if len(trips) == 4 and all(t in RED for t in tiles):
        ym.append("hongkongque")
    if not melds and _nine_gates(counts, win.tile):
        ym.append("jiulian")
    return items, ym


def _honour_sets(pair: int, sets: list[Set], trips: list[int], items: list[str],
                 ym: list[str]) -> None:
    """The reading's patterns and 役满 of dragon and wind triplets and of four kongs."""
    dragon_trips = sum(1 for t in trips if t in DRAGONS)
    wind_trips = sum(1 for t in trips if t in WINDS)
    if dragon_trips == 3:
        ym.append("dasanyuan")
    elif dragon_trips == 2 and pair in DRAGONS:
        items.append("xiaosanyuan")
    if wind_trips == 4:
        ym.append("dasixi")
    elif wind_trips == 3 and pair in WINDS:
        ym.append("xiaosixi")
    if sum(1 for k, _, _ in sets if k == "kong") == 4:
        ym.append("sigangzi")


def _two_sided(runs: list[int], tile: int, counts: Sequence[int]) -> bool:
    """平和's wait: the winning tile ends some run on its open side (not 12-3, 7-89, 1-3)."""
    for low in runs:
        if tile == low and low % 9 <= 5:
            return True
        if tile == low + 2 and low % 9 >= 1:
            return True
    return False


def _longest_chain(trips: list[int]) -> int:
    best = run = 0
    prev = -9
    for t in sorted(trips):
        run = run + 1 if t == prev + 1 and t // 9 == prev // 9 else 1
        best = max(best, run)
        prev = t
    return best


def _nine_gates(counts: Sequence[int], tile: int) -> bool:
    """九莲宝灯: the 13 tiles before the winning one are 1112345678999 of one suit ("独听 9 门")."""
    if tile >= 27:
        return False
    base = tile - tile % 9
    before = list(counts)
    before[tile] -= 1
    return sum(before) == 13 and tuple(before[base : base + 9]) == (3, 1, 1, 1, 1, 1, 1, 1, 3)


__all__ = ["CAP", "NON_YAKUMAN", "ORPHANS", "YAKUMAN", "Result", "Win", "evaluate"]
