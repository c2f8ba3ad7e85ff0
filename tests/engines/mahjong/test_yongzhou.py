"""永州麻将 (003, GAMES.md §9.5): both 番 tables, the extras and the cap, the special hands, the
minimum-3番 cases, 天和/人和/地和, YZ-E1 and YZ-E2 (包自摸), 一炮多响 and the dealer, 漏胡, winds;
the riichi calculator (PyPI ``mahjong``) judges the patterns the two games share."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest
from mj_support import flows

from engines.base import Setup, T
from engines.errors import OptionError
from engines.mahjong import SPECS
from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.game import stacked_wall
from engines.mahjong.tiles import parse_hand, parse_tile
from engines.mahjong.yongzhou import Situation, YongzhouGame, is_yongzhou_win, patterns, score

SPEC = {s.key: s for s in SPECS}["yongzhou"]
EAST, SOUTH, WEST, NORTH = 27, 28, 29, 30


def melds_of(text: str) -> list[Meld]:
    out = []
    for m in text.split():
        kind, tile = m.split(":")
        out.append(Meld(MeldKind(kind), parse_tile(tile), 0))
    return out


# --- the tables ---------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "melds", "table", "items", "fan"),
    [
        ("123m456m789m123p55p", "", "A", (("pinghu", 1),), 1),
        ("123m456m789m111p55p", "", "A", (("jihu", 0),), 0),  # 鸡胡: a triplet and runs
        ("111m222p333s999m55p", "", "A", (("pengpeng", 2),), 2),
        ("123m456m789m111z55m", "", "A", (("hunyise", 2),), 2),
        ("123m456m789m123m55z", "", "A", (("hunyise", 2), ("pinghu", 1)), 3),
        ("123m456m789m123m99m", "", "A", (("qingyise", 4),), 4),  # special: above the cap
        ("111m222m999m111z55m", "", "A", (("hunpeng", 4),), 4),
        ("111m222m999m444m55m", "", "A", (("qingpeng", 5),), 5),
        ("111m999p111z222z99s", "", "A", (("hunyaojiu", 5),), 5),
        ("555z666z77z123m456p", "", "A", (("xiaosanyuan", 5),), 5),
        ("111z222z333z44z123m", "", "A", (("xiaosixi", 5),), 5),
        ("111z222z555z666z77z", "", "A", (("ziyise", 6),), 6),
        ("111m999m111p999p11s", "", "A", (("qingyaojiu", 6),), 6),
        ("555z666z777z123m11m", "", "A", (("dasanyuan", 6),), 6),
        ("111z222z333z444z11m", "", "A", (("dasixi", 6),), 6),
        ("11123455678999p", "", "A", (("jiulian", 6),), 6),  # "不计清一色"
        ("19m19p19s12345677z", "", "A", (("shisanyao", 6),), 6),
        # set B (爆和 5番)
        ("111m222p333s999m55p", "", "B", (("pengpeng", 3),), 3),
        ("123m456m789m123m55z", "", "B", (("hunyise", 3), ("pinghu", 1)), 4),
        ("111m222m999m111z55m", "", "B", (("hunpeng", 5),), 5),
        ("123m456m789m123m99m", "", "B", (("qingyise", 5), ("pinghu", 1)), 5),
        ("111m222m999m444m55m", "", "B", (("qingpeng", 6),), 6),
        ("555z666z77z123m456p", "", "B", (("xiaosanyuan", 7),), 7),
        ("111z222z555z666z77z", "", "B", (("ziyise", 8),), 8),
        ("555z666z777z123m11m", "", "B", (("dasanyuan", 9),), 9),
        ("19m19p19s12345677z", "", "B", (("shisanyao", 9),), 9),
        ("11123455678999p", "", "B", (("qingyise", 5),), 5),  # B has no 九莲宝灯
        # open hands
        ("55p", "chi:1m chi:4m chi:7m chi:1p", "A", (("pinghu", 1),), 1),
        ("55p", "peng:1m peng:9m peng:1p peng:9s", "A", (("pengpeng", 2),), 2),
    ],
)
def test_fan_tables(
    hand: str, melds: str, table: str, items: tuple[tuple[str, int], ...], fan: int
) -> None:
    result = score(parse_hand(hand), melds_of(melds), table)
    assert (result.items, result.fan) == (items, fan)


def test_extras_add_inside_the_cap_only() -> None:
    hand = parse_hand("111z555z123m456p77s")  # 东 triplet, 中 triplet
    sit = Situation(self_draw=True, seat_wind=EAST, round_wind=SOUTH)
    result = score(hand, [], "A", sit)
    # 鸡胡 0 + 自摸 1 + 门风 1 + 三元 1 = 3 = 爆胡
    assert result.items == (("jihu", 0), ("zimo", 1), ("menfeng", 1), ("sanyuan", 1))
    assert result.fan == 3
    both = score(hand, [], "A", Situation(self_draw=True, seat_wind=EAST, round_wind=EAST))
    assert both.fan == 3  # 4 counted, capped at 3
    assert score(hand, [], "B", Situation(True, EAST, EAST)).fan == 4
    # extras never touch a special hand
    special = score(parse_hand("555z666z777z123m11m"), [], "A", Situation(True, EAST, EAST))
    assert special.items == (("dasanyuan", 6),)


@pytest.mark.parametrize("case", ["gangkai", "haidi_yz", "qianggang", "sanxiang"])
def test_minimum_three_fan_cases(case: str) -> None:
    low = score(parse_hand("123m456m789m111p55p"), [], "A", Situation(minimum=case))
    assert low.fan == 3 and low.items[-1] == (case, 3)
    high = score(parse_hand("123m456m789m123m99m"), [], "A", Situation(minimum=case))
    assert high.fan == 4  # above 3: the actual hand


@pytest.mark.parametrize("case", ["tianhe", "renhe", "dihe"])
def test_heaven_earth_and_human_hands_count_six(case: str) -> None:
    assert score(parse_hand("123m456m789m111p55p"), [], "A", Situation(heaven=case)).fan == 6


def test_no_seven_pairs() -> None:
    assert not is_yongzhou_win(parse_hand("11223344556677m"[:-2] + "99p"), [])
    assert is_yongzhou_win(parse_hand("19m19p19s12345677z"), [])


# --- the independent judge: the riichi calculator --------------------------------------------------
def riichi_flags(counts: list[int]) -> set[str] | None:
    """Our pattern names that the riichi calculator's yaku find in some 4-sets-and-a-pair
    reading of a concealed 14-tile hand (None if it has no such reading)."""
    mahjong = pytest.importorskip("mahjong")
    del mahjong
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.yaku_list import (
        Chinitsu,
        Honitsu,
        Honroto,
        Shosangen,
        Toitoi,
    )
    from mahjong.hand_calculating.yaku_list.yakuman import (
        Chinroutou,
        ChuurenPoutou,
        Daisangen,
        DaiSuushii,
        Shousuushii,
        Tsuuiisou,
    )

    # riichi's honours: 27-30 winds, 31 白, 32 发, 33 中 (ours 31 中, 32 发, 33 白)
    theirs = list(counts)
    theirs[31], theirs[33] = counts[33], counts[31]
    readings = [h for h in HandDivider.divide_hand(theirs) if len(h) == 5]
    if not readings:
        return None
    found: set[str] = set()
    checks = {
        "toitoi": Toitoi(),
        "honitsu": Honitsu(),
        "chinitsu": Chinitsu(),
        "honroto": Honroto(),
        "shosangen": Shosangen(),
        "daisangen": Daisangen(),
        "shosuushi": Shousuushii(),
        "daisuushi": DaiSuushii(),
        "tsuisou": Tsuuiisou(),
        "chinroto": Chinroutou(),
        "chuuren": ChuurenPoutou(),
    }
    for hand in readings:
        for name, yaku in checks.items():
            if yaku.is_condition_met(hand):
                found.add(name)
    if "tsuisou" in found or "chinroto" in found:
        found.discard("honroto")  # ours: 混幺九 needs both terminals and honours
    if "daisangen" in found:
        found.discard("shosangen")
    return found


OURS_TO_RIICHI = {
    "pengpeng": "toitoi",
    "qingpeng": "toitoi",
    "hunpeng": "toitoi",
    "hunyise": "honitsu",
    "qingyise": "chinitsu",
    "hunyaojiu": "honroto",
    "xiaosanyuan": "shosangen",
    "dasanyuan": "daisangen",
    "xiaosixi": "shosuushi",
    "dasixi": "daisuushi",
    "ziyise": "tsuisou",
    "qingyaojiu": "chinroto",
    "jiulian": "chuuren",
}


def our_flags(keys: list[str]) -> set[str]:
    out = {OURS_TO_RIICHI[k] for k in keys if k in OURS_TO_RIICHI}
    if "qingpeng" in keys:
        out.add("chinitsu")
    if "hunpeng" in keys:
        out.add("honitsu")
    return out


def random_wins(seed: int, count: int) -> list[list[int]]:
    """Concealed winning hands biased towards honours, terminals and one suit."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        style = rng.choice(["honours", "terminals", "flush", "any", "winds", "ends"])
        suit = rng.randrange(3)
        kinds = {
            "honours": list(range(27, 34)) + [suit * 9 + r for r in range(9)],
            "terminals": [0, 8, 9, 17, 18, 26, *range(27, 34)],
            "flush": [suit * 9 + r for r in range(9)],
            "any": list(range(34)),
            "winds": [27, 28, 29, 30, suit * 9 + rng.randrange(9)],
            "ends": [0, 8, 9, 17, 18, 26],
        }[style]
        tiles: list[int] = []
        for _ in range(4):
            t = rng.choice(kinds)
            run = t < 27 and t % 9 <= 6 and rng.random() < 0.4
            tiles += [t, t + 1, t + 2] if run else [t] * 3
        p = rng.choice(kinds)
        tiles += [p, p]
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4 and is_yongzhou_win(counts, []):
            out.append(counts)
    return out


def test_the_riichi_calculator_agrees_on_the_shared_patterns() -> None:
    seen: set[str] = set()
    for counts in random_wins(10, 1500):
        theirs = riichi_flags(counts)
        assert theirs is not None
        ours = our_flags(patterns(counts, []))
        assert ours == theirs, (counts, ours, theirs)
        seen |= ours
    assert seen >= {
        "toitoi",
        "honitsu",
        "chinitsu",
        "honroto",
        "shosangen",
        "daisangen",
        "shosuushi",
        "daisuushi",
        "tsuisou",
        "chinroto",
    }


# --- play ------------------------------------------------------------------------------------------
G0 = "369m258s7p234567z"
G1 = "147m369s58p12567z"
G3 = "258m147s69p13567z"
B_HAND = "11p22p33p44p1z2z3z4z9s"


def yz(hands: Sequence[str], draws: str, *, dealer: int = 0, **options: object) -> YongzhouGame:
    setup = Setup(seats=4, seed=0, options=dict(options), carry={"dealer": dealer})
    return YongzhouGame(setup, wall=stacked_wall(hands, draws, dealer, kinds=34))


def twelve_down(more: str = "") -> YongzhouGame:
    """Seat 2 pengs 1p (dealer), 2p and 3p (seat 3) and then 4p from seat 1: twelve tiles down,
    a single 9s left; ``more`` are the draws after that."""
    game = yz([G0, G1, B_HAND, G3], "1p" + "2p3p9m1s4p" + more)
    game.apply(0, "1p")
    game.apply(2, "peng")
    game.apply(2, "1z")
    game.apply(3, "2p")
    game.apply(2, "peng")
    game.apply(2, "2z")
    game.apply(3, "3p")
    game.apply(2, "peng")
    game.apply(2, "3z")
    game.apply(3, "9m")
    game.apply(0, "1s")
    game.apply(1, "4p")
    assert game.legal_actions(2) == ["peng", "pass"]
    game.apply(2, "peng")
    game.apply(2, "4z")
    return game


def test_yz_e1_the_seat_that_made_twelve_tiles_down_pays_the_self_draw() -> None:
    game = twelve_down("8m4s7s9s")
    assert game.liable == {2: 1}
    game.apply(3, "8m")
    game.apply(0, "4s")
    game.apply(1, "7s")
    assert game.legal_actions(2)[0] == "hu"
    game.apply(2, "hu")
    # 碰碰胡 2 + 自摸 1 = 3番 (the cap): 8 a share, all three paid by seat 1.
    assert flows(game.outcome().transfers) == [(1, 2, 8), (1, 2, 8), (1, 2, 8)]
    assert game.outcome().transfers[0].reason == T("mj.pay.yz_bao", seat=4, fan=3)


def claims(game: YongzhouGame, *moves: str) -> None:
    """Apply moves written "seat:action"; a claim window the next move does not answer is
    passed by everyone in it, and so are the other claimants of a window it does answer."""
    for move in moves:
        seat, action = int(move.split(":", 1)[0]), move.split(":", 1)[1]
        while game.phase() == "claim" and seat not in game.to_act():
            for other in game.to_act():
                game.apply(other, "pass")
        window = game.claim
        game.apply(seat, action)
        while game.claim is not None and game.claim is window:
            for other in game.to_act():
                game.apply(other, "pass")


C_HAND = "11m55m77s22s2m6p8p4s6s"  # seat 3: four pairs to 碰 and five loose tiles
YZ_E2_DRAWS = "1p2p3p8m1s4p" + "8m1m5m7s9p2s" + "8m3m4m6s"


def test_yz_e2_only_the_first_twelve_tiles_down_is_paid_for() -> None:
    """YZ-E2, played: seat 1 feeds seat 2 its fourth open set (seat 1 is liable for seat 2's
    自摸), then feeds seat 3 its fourth too — 包先不包后: seat 3's 自摸 is paid by all three."""
    game = yz([G0, G1, B_HAND, C_HAND], YZ_E2_DRAWS)
    claims(game, "0:1p", "2:peng", "2:1z", "3:2p", "2:peng", "2:2z", "3:3p", "2:peng", "2:3z",
           "3:8m", "0:1s", "1:4p", "2:peng", "2:4z")
    assert game.liable == {2: 1}  # seat 2's twelve tiles down came from seat 1
    claims(game, "3:8m", "0:1m", "3:peng", "3:2m", "0:5m", "3:peng", "3:6p", "0:7s",
           "3:peng", "3:8p", "0:9p", "1:2s", "3:peng", "3:4s")
    assert game.melds_text(3) == "111m 555m 777s 222s" and game.melds[3][-1].source == 1
    assert game.liable == {2: 1}  # seat 1 fed seat 3's fourth set too, and is not liable
    claims(game, "0:8m", "1:3m", "2:4m", "3:hu")
    assert game.wins[0].seat == 3 and game.wins[0].fan.fan == 3  # 碰碰胡 2 + 自摸 1
    assert flows(game.outcome().transfers) == [(0, 3, 8), (1, 3, 8), (2, 3, 8)]


def test_feeding_the_fourth_wind_to_three_wind_pengs_pays_the_self_draw() -> None:
    game = twelve_down()
    game.melds[3] = melds_of("peng:1z peng:2z peng:3z")
    game.melds[3].append(Meld(MeldKind.PENG, NORTH, 0))
    game._after_claim(3, NORTH, 0)
    assert game.liable[3] == 0


def test_one_discard_many_winners_and_the_dealer_stays() -> None:
    # Seats 0 (dealer), 1 and 2 all wait on 5p; seat 3 throws it: 一炮三响, minimum 3番 each.
    hands = ["123m456m789s111z5p", "123s456s789m222z5p", "456m789p123s333z5p", G3]
    game = yz(hands, "6z" + "9m9p5p")
    game.apply(0, "6z")
    game.apply(1, "9m")
    game.apply(2, "9p")
    game.apply(3, "5p")
    assert set(game.to_act()) == {0, 1, 2}
    for s in (0, 1, 2):
        game.apply(s, "hu")
    assert game.winners() == [0, 1, 2]
    assert all(w.fan.fan == 3 and w.fan.items[-2][0] == "sanxiang" for w in game.wins)
    assert flows(game.outcome().transfers) == [(3, 0, 8), (3, 1, 8), (3, 2, 8)]
    assert game.next_carry()["dealer"] == 0  # the dealer was among the winners


WAITS_2P = "123m456m789s444z2p"


def test_louhu_blocks_the_passed_tile_until_the_seat_moves() -> None:
    game = yz([G0, G1, G3, WAITS_2P], "2p" + "2p9m1s2p")
    game.apply(0, "2p")
    assert game.legal_actions(3) == ["hu", "pass"]
    game.apply(3, "pass")
    game.apply(1, "2p")  # 漏胡: seat 3 may not win on 2p again yet; nobody else claims it
    assert game.phase() == "discard" and game.to_act() == (2,)
    game.apply(2, "9m")
    game.apply(3, "1s")  # seat 3 drew (动牌): the block is lifted
    game.apply(0, "2p")
    assert game.legal_actions(3) == ["hu", "pass"]


def test_renhe_and_the_round_wind_moving_on() -> None:
    # Seat 3 deals (the fourth dealer of the round that seat 0 began); seat 0 wins on its first
    # discard: 人和 6番, and the deal comes back to seat 0, so 南 is the new round wind.
    setup = Setup(seats=4, seed=0, carry={"dealer": 3, "first": 0, "round": EAST})
    game = YongzhouGame(setup, wall=stacked_wall([WAITS_2P, G0, G1, G3], "2p", 3, kinds=34))
    assert [game.seat_wind(s) for s in range(4)] == [SOUTH, WEST, NORTH, EAST]
    assert game.view(None).seats[3].role == T("mj.role.yz_dealer", wind=T("mj.wind.1"))
    game.apply(3, "2p")
    game.apply(0, "hu")
    assert game.wins[0].fan.fan == 6 and ("renhe", 6) in game.wins[0].fan.items
    assert game.outcome().points == (64, 0, 0, -64)
    assert game.next_carry() == {"dealer": 0, "first": 0, "round": SOUTH}


def test_options() -> None:
    assert SPEC.validate({"set": "B", "min_fan": 3})["min_fan"] == 3
    for bad in ({"set": "C"}, {"min_fan": 1}, {"set": "B", "min_fan": 2}, {"base": 0}):
        with pytest.raises(OptionError):
            SPEC.validate(bad)
    assert SPEC.max_loss(SPEC.validate({}), 4) == 3 * 64
    assert SPEC.max_loss(SPEC.validate({"set": "B"}), 4) == 3 * 512


def test_escape_pays_a_capped_hand_to_each() -> None:
    game = yz([G0, G1, B_HAND, G3], "1p")
    game.escape(1)
    assert flows(game.outcome().transfers) == [(1, 2, 8), (1, 3, 8), (1, 0, 8)]
    b = yz([G0, G1, B_HAND, G3], "1p", set="B")
    b.escape(1)
    assert flows(b.outcome().transfers) == [(1, 2, 32), (1, 3, 32), (1, 0, 32)]


def test_a_win_on_the_replacement_of_a_discard_kong_is_paid_by_its_feeder() -> None:
    # 杠上开花包杠: seat 1 konges the dealer's 1p onto its concealed 111p and self-draws 6s on the
    # replacement: 鸡胡 + 自摸 = 1, at least 3番 (杠上开花); the dealer pays all three shares.
    game = yz([G0, "111p123m456m55s78s", G1, G3], "1p" + "6s")
    game.apply(0, "1p")
    assert game.legal_actions(1) == ["gang 1p", "peng", "pass"]
    game.apply(1, "gang 1p")
    assert game.legal_actions(1)[0] == "hu"
    game.apply(1, "hu")
    assert game.wins[0].fan.items[:-1] == (("jihu", 0), ("zimo", 1), ("gangkai", 2))
    assert flows(game.outcome().transfers) == [(0, 1, 8), (0, 1, 8), (0, 1, 8)]
    assert game.outcome().transfers[0].reason == T("mj.pay.yz_gangbao", seat=3, fan=3)


def test_robbing_an_added_kong_counts_as_a_self_draw_paid_by_the_robbed() -> None:
    # Seat 2 waits on 2p (13p, pair 11z; all runs: 平胡) and lets the dealer's 2p go (漏胡); seat 1 pengs it,
    # seat 2 draws (the block lifts), seat 1 adds the fourth 2p and seat 2 robs it.
    game = yz([G0, "22p147m258s69p234z", "123m456m789s11z13p", G3], "2p" + "9m8m1s2p")
    game.apply(0, "2p")
    assert game.legal_actions(2) == ["hu", "pass"] and game.legal_actions(1) == ["peng", "pass"]
    game.apply(2, "pass")
    game.apply(1, "peng")
    game.apply(1, "9p")
    game.apply(2, "9m")
    game.apply(3, "8m")
    game.apply(0, "1s")
    game.apply(1, "gang 2p")
    assert game.phase() == "claim" and game.legal_actions(2) == ["hu", "pass"]
    game.apply(2, "hu")
    assert game.wins[0].fan.items[:-1] == (("pinghu", 1), ("zimo", 1), ("qianggang", 1))
    assert flows(game.outcome().transfers) == [(1, 2, 8), (1, 2, 8), (1, 2, 8)]
    assert game.melds_text(1) == "222p"
