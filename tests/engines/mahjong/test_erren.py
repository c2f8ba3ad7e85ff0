"""二人麻将 (000 范文九, GAMES.md §9.4): the 役 of the text (examples pinned), the riichi
calculator (PyPI ``mahjong``) judging the 役 both games share, and the two-seat game — 71 tiles,
花牌, the swap, 搓牌 / 换牌, 报听 played by the engine, 海底捞月, 13番, the escape — with seeded
self-play invariants."""

from __future__ import annotations

import random

import pytest

from engines.base import Setup, T, View
from engines.errors import IllegalActionError
from engines.mahjong import SPECS
from engines.mahjong.erren import ErrenGame
from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.names import spell
from engines.mahjong.tiles import parse_hand, parse_tile, tile_name
from engines.mahjong.yaku import Win, evaluate, is_erren_win, patterns

SPEC = {s.key: s for s in SPECS}["erren"]


def yaku(hand: str, tile: str, *, zimo: bool = False, melds: str = "", **kw: object) -> dict:
    """The count of ``hand`` (the concealed tiles before the winning ``tile``) as {key: 番}
    with "=" the total."""
    parsed = []
    for m in melds.split():
        kind, t = m.split(":")
        parsed.append(Meld(MeldKind(kind), parse_tile(t), 0))
    counts = parse_hand(hand)
    counts[parse_tile(tile)] += 1
    result = evaluate(counts, parsed, Win(parse_tile(tile), zimo, **kw))  # type: ignore[arg-type]
    assert result is not None, hand
    return dict(result.items) | {"=": result.fan}


# --- the 役 ---------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("hand", "tile", "melds", "expected"),
    [
        # 推倒胡 only when nothing else applies (open, a one-sided wait, no pattern)
        ("12p99m", "3p", "chi:1m peng:7z chi:4s", {"tuidao": 1}),
        ("234m345p456s678s5m", "5m", "", {"menqing": 1, "duanyao": 1}),
        # 平和: four runs, won on a two-sided wait, not an honour pair
        ("234m345p456s67s55m", "8s", "", {"menqing": 1, "duanyao": 1, "pinghe": 1}),
        ("123m345p456s89s55m", "7s", "", {"menqing": 1}),  # 7 on 89: one-sided
        # the text's 一杯口 example: 456万 456万
        ("456m456m123p789s1z", "1z", "", {"menqing": 1, "yibeikou": 2}),
        # 两杯口 beats its own 七对子 reading (4 > 3)
        ("223344m556677p1s", "1s", "", {"menqing": 1, "liangbeikou": 4}),
        ("1122m3355p7799s1z", "1z", "", {"menqing": 1, "qiduizi": 3}),
        # 龙七对 only when the winning tile is the fourth
        ("111m3355p7799s22z", "1m", "", {"menqing": 1, "longqidui": 6}),
        ("1111m3355p7799s2z", "2z", "", {"menqing": 1, "qiduizi": 3}),
        ("111m222p777s5z", "5z", "peng:9s", {"pengpeng": 2, "sananke": 2}),
        # the text's 三色同顺 (345万 345条 345筒) and 三色同刻 (555万 555条 555筒)
        ("345m345s345p789m1z", "1z", "", {"menqing": 1, "sanse_shun": 2}),
        ("555m555s123p1z", "1z", "peng:5p", {"sanse_ke": 3}),
        ("111m222m333m5p", "5p", "chi:7s", {"sanlianke": 3, "sananke": 2}),
        ("111m999p7z", "7z", "chi:1s peng:1z", {"hunquan": 3}),
        ("123m789m9s", "9s", "chi:1s chi:7p", {"chunquan": 4}),
        ("111m999p1z", "1z", "peng:1s peng:5z", {"pengpeng": 2, "hunlaotou": 2, "hunquan": 3}),
        ("123m456m789m1z", "1z", "peng:5z", {"hunyise": 3, "yiqi": 2}),
        ("123m456m789m1m", "1m", "peng:5m", {"qingyise": 5, "yiqi": 2}),
        ("55z666z123m11m", "1m", "peng:7z", {"hunyise": 3, "xiaosanyuan": 4, "hunquan": 3}),
    ],
)
def test_yaku(hand: str, tile: str, melds: str, expected: dict) -> None:
    expected = expected | {"=": min(13, sum(expected.values()))}
    assert yaku(hand, tile, melds=melds) == expected


def test_self_draw_extras_and_flowers() -> None:
    got = yaku("234m345p456s678s5m", "5m", zimo=True, flowers=(parse_tile("5m"), 27))
    assert got == {"menqing": 1, "menqing_zimo": 1, "duanyao": 1, "huapai": 2, "=": 5}
    got = yaku("12p99m", "3p", melds="chi:1m peng:7z chi:4s", flowers=(parse_tile("9m"),))
    assert got == {"huapai": 2, "=": 2}  # 花牌 is a pattern: no 推倒胡 beside it
    got = yaku("12p99m", "3p", melds="chi:1m peng:7z chi:4s", extras=("hedi_yu",))
    assert got == {"hedi_yu": 1, "=": 1}


@pytest.mark.parametrize(
    ("hand", "tile", "melds", "name"),
    [
        ("1112345678999p", "5p", "", "jiulian"),  # pure nine-sided wait
        ("19m19p19s1234567z", "7z", "", "guoshi"),
        ("22334466888s66z", "6z", "", "lvyise"),
        ("22446688s6z2233s", "6z", "", "lvyise"),  # green, any arrangement ("可以乱牌")
        ("2233445566778m", "8m", "", "dachelun"),
        ("111z222z333z4z", "4z", "peng:7m", "xiaosixi"),
        ("111z222z333z444z7m", "7m", "", "dasixi"),
        ("555z666z777z2m", "2m", "peng:9p", "dasanyuan"),
        ("111m222m333m444m5p", "5p", "", "silianke"),
        ("111m444p777s2z", "2z", "angang:9s", "sianke"),
        ("9m", "9m", "zhigang:1m zhigang:2p angang:3s zhigang:4z", "sigangzi"),
        ("999m888m777m666m5m", "5m", "", "baiwanshi"),  # 27 + 24 + 21 + 18 + 10 = 100
        ("111z222z666z5z", "5z", "peng:7z", "ziyise"),
        ("111m999m1p999s", "1p", "peng:1s", "qinglaotou"),
        ("111s555s777s9s", "9s", "peng:5z", "hongkongque"),
        ("123m456m789m4z", "4z", "peng:1z", "dongbei"),
    ],
)
def test_yakuman_are_13(hand: str, tile: str, melds: str, name: str) -> None:
    got = yaku(hand, tile, melds=melds)
    assert got[name] == 13 and got["="] == 13
    assert all(v == 13 for k, v in got.items())  # 役满 take no ordinary 役


def test_baiwanshi_needs_100() -> None:
    assert "baiwanshi" not in yaku("999m888m777m666m4m", "4m")  # 98


def test_the_text_s_own_heaven_earth_and_human_hands() -> None:
    for extra in ("tianhe", "dihe", "renhe"):
        got = yaku("234m345p456s678s5m", "5m", extras=(extra,))
        assert got == {extra: 13, "=": 13}


def test_win_shapes() -> None:
    assert is_erren_win(parse_hand("22334466888s666z"), [])
    assert is_erren_win(parse_hand("22446688s6z2233s6z"), [])  # 绿一色 "乱牌"
    assert not is_erren_win(parse_hand("22446688s6z2233s5z"), [])
    assert is_erren_win(parse_hand("1122m3355p7799s11z"), [])


# --- the independent judge -------------------------------------------------------------------------
RIICHI = {
    "duanyao": "tanyao",
    "pengpeng": "toitoi",
    "sanse_shun": "sanshoku",
    "sanse_ke": "sanshoku_douko",
    "yiqi": "ittsu",
    "hunyise": "honitsu",
    "qingyise": "chinitsu",
    "xiaosanyuan": "shosangen",
    "dasanyuan": "daisangen",
    "xiaosixi": "shosuushi",
    "dasixi": "daisuushi",
    "ziyise": "tsuisou",
    "qinglaotou": "chinroto",
    "hunlaotou": "honroto",
    "sananke": "sanankou",
    "sianke": "suuankou",
    "liangbeikou": "ryanpeiko",
}


def riichi(counts: list[int], tile: int) -> set[str]:
    pytest.importorskip("mahjong")
    from mahjong.hand_calculating.divider import HandDivider
    from mahjong.hand_calculating.yaku_list import (
        Chantai,
        Chinitsu,
        Honitsu,
        Honroto,
        Iipeiko,
        Ittsu,
        Junchan,
        Ryanpeikou,
        Sanankou,
        Sanshoku,
        SanshokuDoukou,
        Shosangen,
        Tanyao,
        Toitoi,
    )
    from mahjong.hand_calculating.yaku_list.yakuman import (
        Chinroutou,
        Daisangen,
        DaiSuushii,
        Shousuushii,
        Suuankou,
        Tsuuiisou,
    )

    theirs = list(counts)
    theirs[31], theirs[33] = counts[33], counts[31]  # riichi: 31 白 … 33 中
    plain = {
        "tanyao": Tanyao(),
        "toitoi": Toitoi(),
        "sanshoku": Sanshoku(),
        "sanshoku_douko": SanshokuDoukou(),
        "ittsu": Ittsu(),
        "honitsu": Honitsu(),
        "chinitsu": Chinitsu(),
        "shosangen": Shosangen(),
        "daisangen": Daisangen(),
        "shosuushi": Shousuushii(),
        "daisuushi": DaiSuushii(),
        "tsuisou": Tsuuiisou(),
        "chinroto": Chinroutou(),
        "honroto": Honroto(),
        "ryanpeiko": Ryanpeikou(),
        "iipeiko": Iipeiko(),
        "chantai": Chantai(),
        "junchan": Junchan(),
    }
    found: set[str] = set()
    for hand in HandDivider.divide_hand(theirs):
        if len(hand) != 5:
            continue  # seven pairs: compared elsewhere
        for name, y in plain.items():
            if y.is_condition_met(hand):
                found.add(name)
        if Sanankou().is_condition_met(hand, tile * 4, [], True):
            found.add("sanankou")
        if Suuankou().is_condition_met(hand, tile * 4, True):
            found.add("suuankou")
    if found & {"tsuisou", "chinroto"}:
        found.discard("honroto")
    if "daisangen" in found:
        found.discard("shosangen")  # riichi counts three dragon sets as both
    return found


def ours(counts: list[int], tile: int) -> set[str]:
    keys = patterns(counts, [], Win(tile, self_draw=True))
    out = {RIICHI[k] for k in keys if k in RIICHI}
    if keys & {"yibeikou", "liangbeikou"}:
        out.add("iipeiko")
    if "has_run" in keys and "hunquan" in keys:
        out.add("chantai")  # riichi's chanta needs a run (else it is 混老头)
    if "has_run" in keys and "chunquan" in keys:
        out.add("junchan")
    if all(t < 27 and t % 9 not in (0, 8) for t, n in enumerate(counts) for _ in range(n)):
        out.add("tanyao")
    suits = {t // 9 for t, n in enumerate(counts) if n and t < 27}
    honours = any(counts[27:])
    if len(suits) == 1 and honours:
        out.add("honitsu")
    if len(suits) == 1 and not honours:
        out.add("chinitsu")
    return out


def random_wins(seed: int, count: int) -> list[tuple[list[int], int]]:
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        style = rng.choice(["any", "flush", "honours", "ends", "runs"])
        suit = rng.randrange(3)
        kinds = {
            "any": list(range(34)),
            "flush": [suit * 9 + r for r in range(9)],
            "honours": [*range(27, 34), *(suit * 9 + r for r in range(9))],
            "ends": [0, 8, 9, 17, 18, 26, *range(27, 34)],
            "runs": [s * 9 + r for s in range(3) for r in range(7)],
        }[style]
        tiles: list[int] = []
        for _ in range(4):
            t = rng.choice(kinds)
            run = t < 27 and t % 9 <= 6 and rng.random() < (0.8 if style == "runs" else 0.4)
            tiles += [t, t + 1, t + 2] if run else [t] * 3
        p = rng.choice(kinds)
        tiles += [p, p]
        counts = [0] * 34
        for t in tiles:
            counts[t] += 1
        if max(counts) <= 4:
            out.append((counts, rng.choice(tiles)))
    return out


def test_the_riichi_calculator_agrees_on_the_shared_yaku() -> None:
    seen: set[str] = set()
    for counts, tile in random_wins(5, 1500):
        mine, theirs = ours(counts, tile), riichi(counts, tile)
        assert mine == theirs, (counts, tile_name(tile), mine, theirs)
        seen |= mine
    assert len(seen) >= 15, seen


# --- the game --------------------------------------------------------------------------------------
def new(seed: int, carry: dict | None = None) -> ErrenGame:
    game = SPEC.new(Setup(seats=2, seed=seed, options=SPEC.validate({}), carry=carry or {}))
    assert isinstance(game, ErrenGame)
    return game


def test_71_of_136_tiles_and_two_flowers() -> None:
    game = new(1)
    assert [sum(h) for h in game.hands] == [14 if s == game.dealer else 13 for s in (0, 1)]
    assert game.wall_left() == 71 - 27 and len(game.unused) == 136 - 71 - 2
    line = T("mj.line.er_flowers", tiles=spell(" ".join(tile_name(t) for t in sorted(game.flowers))))
    assert line in game.view(None).lines
    census = game.census()
    assert sum(census.values()) == 136 and set(census.values()) == {4}


def test_the_swap_is_private_and_simultaneous() -> None:
    game = new(2)
    assert game.phase() == "swap" and game.to_act() == (0, 1)
    tile = next(t for t in range(34) if game.hands[1][t])
    before = list(game.hands[1])
    game.apply(1, f"swap {tile_name(tile)}")
    assert sum(game.hands[1]) == sum(before) and game.to_act() == (0,)
    assert game.view(0).seats[1].cards is None
    with pytest.raises(IllegalActionError) as info:
        game.apply(0, tile_name(next(t for t in range(34) if game.hands[0][t])))
    assert info.value.text.key == "err.mj.er_swap_first"  # type: ignore[attr-defined]
    assert game.timeout_action(0).action == "swap -" and not game.timeout_action(0).miss
    game.apply(0, "swap -")
    assert game.phase() == "discard" and game.to_act() == (game.dealer,)
    census = game.census()
    assert sum(census.values()) == 136 and set(census.values()) == {4}


def test_a_ready_declaration_plays_itself() -> None:
    for seed in range(40):
        game = new(seed)
        game.apply(0, "swap -")
        game.apply(1, "swap -")
        while not game.is_over():
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            tings = [a for a in legal if a.startswith("ting")]
            if tings and not any(game.riichi):
                game.apply(seat, tings[0])
                assert game.riichi[seat]
                assert game.view(None).seats[seat].role in (
                    T("mj.role.er_ting"),
                    T("mj.role.er_dealer_ting"),
                )
                # from now on the seat acts only to win or pass
                while not game.is_over():
                    s = game.to_act()[0]
                    if s == seat:
                        assert game.legal_actions(seat) == ["hu", "pass"]
                    game.apply(s, game.trustee(s))
                return
            game.apply(seat, game.trustee(seat))
    raise AssertionError("no seed offered 报听")


def test_escape_costs_13_and_the_winner_deals_next() -> None:
    game = new(3)
    game.escape(0)
    assert game.outcome().points == (-13, 13) and game.next_carry() == {}
    assert SPEC.max_loss(SPEC.validate({}), 2) == 13


def test_offers_cuo_and_huan() -> None:
    game = new(4)
    game.apply(0, "swap -")
    game.apply(1, "swap -")
    seat = game.to_act()[0]
    game._draw(game.opponent(seat)) if False else None
    game.cuo_offer = True
    want = game.unused[0]
    assert f"cuo {tile_name(want)}" in game.legal_actions(seat)
    if game.drawn is None:
        game.drawn = next(t for t in range(34) if game.hands[seat][t])
    game.apply(seat, f"cuo {tile_name(want)}")
    assert game.hands[seat][want] >= 1 and game.drawn == want and not game.cuo_offer
    triplets = [t for t in set(game.unused) if game.unused.count(t) >= 3]
    game.huan_offer = triplets[0]
    give = [t for t in range(34) for _ in range(game.hands[seat][t])][:3]
    action = "huan " + "".join(tile_name(t) for t in give)
    game.apply(seat, action)
    assert game.hands[seat][triplets[0]] >= 3
    census = game.census()
    assert sum(census.values()) == 136 and set(census.values()) == {4}


@pytest.mark.parametrize("seed", range(20))
def test_self_play_invariants(seed: int) -> None:
    game = new(seed)
    rng = random.Random(seed)
    for _ in range(3000):
        if game.is_over():
            break
        seat = rng.choice(game.to_act())
        legal = game.legal_actions(seat)
        assert legal and len(set(legal)) == len(legal)
        trustee = game.trustee(seat)
        assert trustee in legal, (trustee, legal)
        action = trustee if seat == seed % 2 or rng.random() < 0.5 else rng.choice(legal)
        game.apply(seat, action)
        census = game.census()
        assert sum(census.values()) == 136 and set(census.values()) == {4}
        public = game.view(None)
        for viewer in (0, 1):
            view = game.view(viewer)
            other = 1 - viewer
            assert view.seats[other] == public.seats[other]
            if not game.is_over() and other not in game.winners():
                assert view.seats[other].cards is None
        assert View.from_json(public.to_json()) == public
    assert game.is_over()
    out = game.outcome()
    assert sum(out.points) == 0 and max(abs(p) for p in out.points) <= 13
    replay = SPEC.from_record(game.to_record())
    assert replay.outcome() == out and replay.to_text() == game.to_text()


def test_after_the_71st_tile_the_first_ready_seat_draws_up_to_three_more() -> None:
    stages = wins = 0
    for seed in range(150):
        game = new(seed)
        while not game.is_over() and game.haidi is None:
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        if game.haidi is None:
            continue
        stages += 1
        assert game.wall_left() == 0 and game.haidi_left < 3
        if game.is_over():  # three draws, none winning: a draw, nobody pays
            assert game.outcome().points == (0, 0) and len(game.rivers[game.haidi]) >= 3
            continue
        seat = game.haidi
        assert game.to_act() == (seat,) and game.legal_actions(seat) == ["hu", "pass"]
        game.apply(seat, "hu")
        assert ("haidi", 1) in game.wins[0].fan.items
        wins += 1
    assert stages >= 3 and wins >= 1, (stages, wins)


def test_offers_show_only_to_the_seat_offered_and_ready_has_buttons() -> None:
    game = new(6)
    game.apply(0, "swap -")
    game.apply(1, "swap -")
    seat = game.to_act()[0]
    game.cuo_offer = True
    game.huan_offer = next(t for t in set(game.unused) if game.unused.count(t) >= 3)
    public = game.view(None).lines
    mine = [line.key for line in game.view(seat).lines if line not in public]
    assert mine == ["mj.line.er_cuo", "mj.line.er_huan"]
    assert game.view(1 - seat).lines == public
    tings = [a for a in game.legal_actions(seat) if a.startswith("ting")]
    assert [c.action for c in game.choices(seat) if c.action.startswith("ting")] == tings


def offered() -> tuple[ErrenGame, int, int, str]:
    """A turn with both offers up: the game, the seat, the triplet offered, and the 换牌
    giving the seat's first three tiles."""
    game = new(6)
    game.apply(0, "swap -")
    game.apply(1, "swap -")
    seat = game.to_act()[0]
    if game.drawn is None:
        game.drawn = next(t for t in range(34) if game.hands[seat][t])
    game.cuo_offer = True
    game.huan_offer = next(t for t in sorted(set(game.unused)) if game.unused.count(t) >= 3)
    give = [t for t in range(34) for _ in range(game.hands[seat][t])][:3]
    return game, seat, game.huan_offer, "huan " + "".join(tile_name(t) for t in give)


def test_taking_the_triplet_ends_the_pick_offer() -> None:
    # Bug found by the benchmark's random player: 换牌 then 搓牌 in one turn had no drawn tile.
    game, seat, _, huan = offered()
    game.apply(seat, huan)
    assert not [a for a in game.legal_actions(seat) if a.startswith(("cuo", "huan"))]
    with pytest.raises(IllegalActionError):
        game.apply(seat, f"cuo {tile_name(game.unused[0])}")


def test_picking_a_tile_of_the_offered_triplet_withdraws_the_triplet_offer() -> None:
    # Bug found by the hard trustee's benchmark: 搓牌 of the 换牌 triplet's tile left two in the
    # pool, and taking the 换牌 then failed inside the engine (list.remove).
    game, seat, _, huan = offered()
    game.huan_offer = triplet = next(t for t in sorted(set(game.unused))
                                     if game.unused.count(t) == 3)
    game.apply(seat, f"cuo {tile_name(triplet)}")
    assert game.huan_offer is None
    assert not [a for a in game.legal_actions(seat) if a.startswith("huan")]
    assert not [line for line in game.view(seat).lines if line.key == "mj.line.er_huan"]
    before = [list(h) for h in game.hands], list(game.unused)
    with pytest.raises(IllegalActionError):
        game.apply(seat, huan)
    assert ([list(h) for h in game.hands], list(game.unused)) == before


def test_picking_another_tile_keeps_the_triplet_offer() -> None:
    game, seat, triplet, huan = offered()
    game.apply(seat, f"cuo {tile_name(next(t for t in sorted(set(game.unused)) if t != triplet))}")
    assert game.huan_offer == triplet
    game.apply(seat, huan)
    assert game.hands[seat][triplet] >= 3


def test_a_swap_typed_in_any_order_swaps_what_the_log_replays() -> None:
    # Bug (issue 23): ``swap 9m7m`` was logged as ``swap 79m`` but swapped in the typed order,
    # so the replay drew other tiles (seed 102: the live hand held 99m, the replay 79m).
    live, typed_sorted = new(102), new(102)
    assert live.apply(0, "swap 9m7m") == "swap 79m"
    typed_sorted.apply(0, "swap 79m")
    assert live.hands[0] == typed_sorted.hands[0]
    assert SPEC.from_record(live.to_record()).hands[0] == live.hands[0]


@pytest.mark.parametrize("seed", range(40))
def test_every_order_of_a_swap_gives_the_same_hand(seed: int) -> None:
    held = [t for t in range(34) for _ in range(new(seed).hands[0][t])]
    picked = random.Random(seed).sample(held, 4)
    hands = set()
    for order in (picked, picked[::-1], picked[1:] + picked[:1]):
        game = new(seed)
        logged = game.apply(0, "swap " + " ".join(tile_name(t) for t in order))
        assert SPEC.from_record(game.to_record()).hands[0] == game.hands[0], logged
        hands.add(tuple(game.hands[0]))
    assert len(hands) == 1


def played_until_an_offer(seed: int) -> tuple[ErrenGame, int]:
    """A hand played by the trustee until the seat to discard holds a 搓牌 or 换牌 offer."""
    game = new(seed)
    while not game.is_over():
        seat = game.to_act()[0]
        offered = game.cuo_offer or game.huan_offer is not None
        if game.phase() == "discard" and seat == game.turn and offered:
            return game, seat
        game.apply(seat, game.trustee(seat))
    raise AssertionError(f"seed {seed}: no offer came up")


@pytest.mark.parametrize("seed", [0, 2, 27])  # a 搓牌, a 换牌, and both at once
def test_a_refused_action_keeps_the_open_offers(seed: int) -> None:
    # Bug (issue 23): the offers were cleared before the move was checked, so a mistyped
    # discard cancelled the seat's 搓牌 / 换牌.
    game, seat = played_until_an_offer(seed)
    legal, view, record = game.legal_actions(seat), game.view(seat), game.to_text()
    offers = [a for a in legal if a.startswith(("cuo", "huan"))]
    assert offers
    missing = next(tile_name(t) for t in range(34) if not game.hands[seat][t])
    refused = [missing, f"gang {missing}", "peng", "chi 123m"]
    if "hu" not in legal:
        refused.append("hu")
    for typed in refused:
        with pytest.raises(IllegalActionError):
            game.apply(seat, typed)
        assert game.legal_actions(seat) == legal, typed
        assert game.view(seat) == view and game.to_text() == record, typed
    game.apply(seat, offers[-1])  # the offer can still be taken
    assert SPEC.from_record(game.to_record()).to_text() == game.to_text()
