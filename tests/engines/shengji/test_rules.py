"""升级: every example of the text (001 《升级》/《欢乐升级》, GAMES.md §5) as a test."""

from __future__ import annotations

import doctest
import random

import pytest

from bot.i18n import render
from engines.errors import IllegalActionError
from engines.shengji import SPECS, patterns, rules
from engines.shengji.game import ShengjiGame
from engines.shengji.patterns import Lead, beats, decompose, failed_throw, kitty_multiplier
from engines.shengji.rules import (
    declarations,
    declarations_held,
    level_change,
    match_points,
    rating_multiplier,
)
from engines.trick import cards
from engines.trick.cards import NCARDS, Context, ids_of, parse_ids

LEVEL10_HEARTS = Context(10, 1, False)


def test_doctests() -> None:
    for module in (patterns, rules):  # cards: tests/engines/trick
        assert doctest.testmod(module).failed == 0


def kinds(text: str, ctx: Context = LEVEL10_HEARTS) -> list[str]:
    return [c.kind for c in decompose(parse_ids(text), ctx)]


@pytest.mark.parametrize("text", [
    "Ks Ks Qs Qs", "Js Js 9s 9s", "5s 5s 4s 4s 3s 3s",  # kkqq, jj99 (10 is the level), 554433
    "B B Th Th",            # 一对小王带一对主10
    "Th Th Ts Ts",          # 一对主10带一对副10
    "Ts Ts Ah Ah",          # 一对副10带一对主牌A
    "Th Th Ts Ts Ah Ah",    # 一对主10带一对副10及一对主牌A
])
def test_the_text_s_tractors(text: str) -> None:
    assert kinds(text) == ["tractor"]


@pytest.mark.parametrize("text", [
    "5s 5s 4s", "5s 4s 4s", "5s 5s 3s 3s", "Js Js Qs",  # 554, 544, 5533, jjq
    "Ts Ts Tc Tc",          # 两对副10
    "Js Js Ts Ts",          # jj1010
    "As As 2s 2s",          # aa22
])
def test_the_text_s_non_tractors(text: str) -> None:
    assert "tractor" not in kinds(text)


def test_trump_order_with_and_without_the_permanent_two() -> None:
    plain = Context(10, 1, False)
    order = [plain.order[c] for c in parse_ids("R B Th Ts Ah Kh 2h")]
    assert order == sorted(order, reverse=True) and len(set(order)) == 7
    assert plain.eff[parse_ids("2s")[0]] == 0  # 2 of a side suit is a plain side card
    fixed = Context(10, 1, True)
    order = [fixed.order[c] for c in parse_ids("R B Th Ts 2h 2s Ah 3h")]
    assert order == sorted(order, reverse=True) and len(set(order)) == 8
    assert fixed.order[parse_ids("2s")[0]] == fixed.order[parse_ids("2d")[0]]
    assert fixed.is_trump(parse_ids("2c")[0])


def test_titanic_examples_at_level_5() -> None:
    ctx = Context(5, 1, False)  # 打5, trump ♥
    for text in ("3s 3s 3s 4s 4s 4s", "4s 4s 4s 6s 6s 6s", "5s 5s 5s 5h 5h 5h",
                 "R R R B B B", "Ah Ah Ah 5c 5c 5c", "5h 5h 5h B B B"):
        assert kinds(text, ctx) == ["titanic"], text
    assert "titanic" not in kinds("5s 5s 5s 6s 6s 6s", ctx)
    assert "titanic" not in kinds("5s 5s 5s 5c 5c 5c", Context(5, None, False))


@pytest.mark.parametrize(("ruff", "lead", "ok"), [
    ("9h 9h 8h 8h 7h 2h", "As Ks 5s 5s 4s 4s", True),
    ("9h 9h 8h 8h 7h 2h", "As As 5s 5s 4s 4s", False),
    ("9h 7h 7h", "5s 4s 4s", True),
    ("9h 7h 7h", "7s 6s 5s", True),
])
def test_ruff_examples(ruff: str, lead: str, ok: bool) -> None:
    ctx = LEVEL10_HEARTS
    led = parse_ids(lead)
    assert beats(parse_ids(ruff), led, Lead.of(led, ctx), ctx) is ok


def test_over_ruff_examples() -> None:
    ctx = LEVEL10_HEARTS
    led = parse_ids("5s 4s 4s")
    assert beats(parse_ids("8h 8h 4h"), parse_ids("9h 7h 7h"), Lead.of(led, ctx), ctx)
    led = parse_ids("7s 6s 5s")
    assert not beats(parse_ids("8h 8h 4h"), parse_ids("9h 7h 7h"), Lead.of(led, ctx), ctx)


def _counts(text: str) -> list[int]:
    return cards.counts_of(parse_ids(text))


def test_throw_98844_checked_against_every_hand() -> None:
    ctx = LEVEL10_HEARTS
    throw = parse_ids("9s 8s 8s 4s 4s")
    quiet = [_counts("Ac Kd"), _counts("7s 6s"), _counts("2s 3s")]
    assert failed_throw(throw, quiet, ctx) is None
    forced = failed_throw(throw, [_counts("Js"), _counts("3c"), _counts("2d")], ctx)
    assert forced is not None and forced.text(ctx) == "9s"
    for holder in ("Qs Qs", "5s 5s"):
        forced = failed_throw(throw, [_counts("3c"), _counts(holder), _counts("2d")], ctx)
        assert forced is not None and forced.text(ctx) == "4s 4s"


@pytest.mark.parametrize(("last", "mult", "ctx"), [
    ("4s 4s", 4, LEVEL10_HEARTS),
    ("4s 4s 4s 5s 5s 5s", 64, Context(10, 1, False)),
    ("4s 4s 5s 5s 6s 6s", 64, LEVEL10_HEARTS),
    ("4s 4s 5s 5s", 16, LEVEL10_HEARTS),
    ("5s 5s 5s", 8, LEVEL10_HEARTS),
    # The text's "akqj 10 9 8 77" at level 10 cannot hold a side-suit 10: played at level 2.
    ("As Ks Qs Js Ts 9s 8s 7s 7s", 4, Context(2, 1, False)),
    ("As Ks Qs Js", 2, LEVEL10_HEARTS),
    ("As As Js Js", 4, LEVEL10_HEARTS),
])
def test_sj_e4_kitty_multiplier(last: str, mult: int, ctx: Context) -> None:
    assert kitty_multiplier(Lead.of(parse_ids(last), ctx)) == mult


def test_sj_e1_to_e3_match_points_with_rating_bands() -> None:
    base = match_points("zhuang", 3)  # the 庄 makes the 闲 大光
    assert base == 4
    assert base * rating_multiplier([90] * 4) == 8  # SJ-E1
    assert base * rating_multiplier([400] * 4) == 12  # SJ-E2
    assert match_points("zhuang", 3, sweep=6) * rating_multiplier([400] * 4) == 18  # SJ-E3
    assert match_points("xian", 0) == 2 and match_points("xian", 2) == 4
    assert match_points("zhuang", 1) == 2 and match_points("zhuang", 2) == 3


def test_level_bands_for_each_deck_count() -> None:
    assert [level_change(p, 1) for p in (0, 15, 20, 40, 60, 80)] == [
        ("zhuang", 3), ("zhuang", 2), ("zhuang", 1), ("xian", 0), ("xian", 1), ("xian", 2)]
    assert [level_change(p, 2) for p in (5, 39, 79, 119, 159, 199)] == [
        ("zhuang", 2), ("zhuang", 2), ("zhuang", 1), ("xian", 0), ("xian", 1), ("xian", 2)]
    # 三副牌: 大光 +3, 小光 (< 60) +2, 120 上台, 180 上台 +1, 240 上台 +2.
    assert [level_change(p, 3) for p in (0, 55, 100, 150, 180, 240, 300)] == [
        ("zhuang", 3), ("zhuang", 2), ("zhuang", 1), ("xian", 0), ("xian", 1), ("xian", 2),
        ("xian", 3)]


def test_a_follow_error_explains_itself() -> None:
    game = ShengjiGame.position(
        ["Ad Ad 3c", "Kd Kd 4d", "5c 6c 7c", "8c 9c Jc"], level=10, trump=1, dealer=0)
    game.apply(0, "Ad Ad")
    with pytest.raises(IllegalActionError) as info:
        game.apply(1, "Kd 4d")
    text = info.value.text
    assert text is not None
    spec = SPECS[0]
    assert str(info.value).endswith("you still hold a pair of the led suit; a pair was led")
    en = render(text, "en-US")
    assert en.startswith("You still hold a pair of ♦; a pair was led")
    assert "方片♦的对子" in render(text, "zh-CN")
    assert text.key in spec.texts["zh-CN"]
    game.apply(1, "Kd Kd")
    assert game.to_act() == (2,)


def test_a_tractor_lead_asks_for_a_tractor_then_pairs() -> None:
    game = ShengjiGame.position(
        ["As As Ks Ks 3c", "Qs Qs Js Js 9s 9s", "8s 8s 6s 6s 2c 3d", "7s 6d 5d 4d 3h 2h"],
        level=10, trump=1, dealer=0)
    game.apply(0, "As As Ks Ks")
    with pytest.raises(IllegalActionError) as info:
        game.apply(1, "Qs Qs 9s 9s")
    assert info.value.text is not None and info.value.text.args["kind"].key.endswith("tractor")
    game.apply(1, "Js Js 9s 9s")  # J-9 is a tractor at level 10
    with pytest.raises(IllegalActionError):
        game.apply(2, "8s 6s 2c 3d")
    game.apply(2, "8s 8s 6s 6s")  # two pairs, no tractor (8 and 6 are not adjacent)
    game.apply(3, "7s 6d 5d 4d")  # the only spade, then anything
    assert game.last_winner == 0


@pytest.mark.parametrize(("hand", "good", "bad"), [
    # 三同张 led: triple › pair + single › three singles (three decks).
    ("Ks Ks Ks Qs Qs 9s", "Ks Ks Ks", "Qs Qs 9s"),
    ("Ks Ks Qs 9s 8s", "Ks Ks 9s", "Ks Qs 9s"),
])
def test_following_a_triple(hand: str, good: str, bad: str) -> None:
    ctx = LEVEL10_HEARTS
    lead = parse_ids("4s 4s 4s")
    info = Lead.of(lead, ctx)
    counts = cards.counts_of(parse_ids(hand))
    assert patterns.follow_problem(counts, info, parse_ids(good), ctx) is None
    assert patterns.follow_problem(counts, info, parse_ids(bad), ctx) is not None


@pytest.mark.parametrize(("hand", "good", "bad"), [
    # 泰坦尼克 led: 泰坦尼克 › tractor + 2 › two triples › triple + pair + single › …
    ("Ks Ks Ks Qs Qs Qs 9s 9s", "Ks Ks Ks Qs Qs Qs", "Ks Ks Qs Qs 9s 9s"),
    ("Ks Ks Qs Qs 9s 9s 9s 7s 7s 7s", "Ks Ks Qs Qs 9s 7s", "9s 9s 9s 7s 7s 7s"),
    ("Ks Ks Ks 9s 9s 9s 7s 7s 6s", "Ks Ks Ks 9s 9s 9s", "Ks Ks Ks 7s 7s 6s"),
    ("Ks Ks Ks 8s 8s 6s 3s 2s", "Ks Ks Ks 8s 8s 2s", "Ks Ks Ks 6s 3s 2s"),
])
def test_following_a_titanic(hand: str, good: str, bad: str) -> None:
    ctx = LEVEL10_HEARTS
    lead = parse_ids("4s 4s 4s 5s 5s 5s")
    info = Lead.of(lead, ctx)
    assert info.kind == "titanic"
    counts = cards.counts_of(parse_ids(hand))
    assert patterns.follow_problem(counts, info, parse_ids(good), ctx) is None
    assert patterns.follow_problem(counts, info, parse_ids(bad), ctx) is not None


@pytest.mark.parametrize(("ratings", "sweep", "points"), [
    ([90] * 4, 0, 8),    # SJ-E1
    ([400] * 4, 0, 12),  # SJ-E2
    ([400] * 4, 6, 18),  # SJ-E3: a 大光积分 room at +6 / −6
    ([90, 400, 90, 90], 0, 4),
])
def test_sj_e1_to_e3_through_a_whole_hand(ratings: list[int], sweep: int, points: int) -> None:
    # The 庄 side (seats 1 and 3) takes the last trick: the 闲 end with 0, 大光.
    game = ShengjiGame.position(["3s", "As", "Ks", "4s"], level=10, trump=1, dealer=1,
                                leader=0, sweep=sweep, ratings=ratings)
    for seat, card in enumerate(["3s", "As", "Ks", "4s"]):
        game.apply(seat, card)
    outcome = game.outcome()
    assert game.xian_points == 0
    assert outcome.points == (-points, points, -points, points)
    assert game.next_carry() == {"levels": [10, 13], "dealer": 3}  # 庄 +3; the partner deals


def test_declarations_read_from_the_counts_are_those_of_the_cards() -> None:
    """The declaration windows read each seat's declarations from its count vector (issue 24:
    the host asks after every action); they are the ones ``declarations`` finds in its cards."""
    rng = random.Random(24)
    for _ in range(3000):
        decks = rng.choice((1, 2, 3))
        counts = [rng.choice(range(decks + 1)) for _ in range(NCARDS)]
        level = rng.randint(2, 14)
        assert declarations_held(counts, level, decks, 2) == declarations(
            ids_of(counts), level, decks, 2)
