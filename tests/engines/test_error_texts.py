"""错误文本: every engine error carries a translatable ``Text`` the hall shows in zh-CN or en-US.

Representative bad input of each game must raise a GameError whose ``text`` key is in both
locales of that game's catalogue and renders with every placeholder filled (Chinese in
zh-CN), while ``str(exc)`` stays the English message. Static checks: every construction of a
GameError subclass in ``engines/`` passes ``text=``, and every ``err.*`` key an engine names
is in its catalogues with all the placeholders its templates use.
"""

from __future__ import annotations

import ast
import importlib
import re
import string
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from bot.i18n import render
from engines import errors, registry
from engines.base import BASE_TEXTS, Game, GameSpec, Setup, Text
from engines.cards import CARD_TEXTS, Card, parse_cards
from engines.doudizhu.game import ClassicGame, HappyGame
from engines.doudizhu.notation import RANKS as DDZ_RANKS
from engines.doudizhu.patterns import Pattern
from engines.errors import GameError, IllegalActionError, NotationError, OptionError
from engines.gomoku.game import GomokuGame
from engines.gomoku.rules import Position
from engines.gouji.game import GoujiGame
from engines.hotpot.game import HotpotGame
from engines.niuniu.game import DouniuGame, NiuniuGame
from engines.niuniu.hands import Split
from engines.shuangkou.game import ShuangkouGame

ENGINES = Path(__file__).resolve().parents[2] / "engines"
LOCALES = ("zh-CN", "en-US", "zh-TW")
CJK = re.compile(r"[\u4e00-\u9fff]")
SPECS = registry.specs()
CARD_GAMES = ("douniu", "douniu_happy", "niuniu", "hotpot")


def placeholders(template: str) -> set[str]:
    """The argument names a format template uses ("{seat}", "{points:+d}" → seat, points)."""
    names = set()
    for _, field, _, _ in string.Formatter().parse(template):
        if field is not None:
            names.add(re.split(r"[.\[]", field, maxsplit=1)[0])
    return names


def check_text(exc: GameError, spec: GameSpec, key: str, *fragments: str) -> None:
    """``exc.text`` has ``key``, is in both locales of ``spec`` and renders completely;
    ``fragments`` (cards, points, numbers) appear in str(exc) and in both renderings."""
    text = exc.text
    assert isinstance(text, Text), f"{type(exc).__name__} without a Text: {exc}"
    assert text.key == key, (text.key, str(exc))
    for locale in LOCALES:
        catalogue = spec.texts[locale]
        assert key in catalogue, (spec.key, locale, key)
        strict = _strict(text, catalogue)  # KeyError if an argument is missing
        shown = render(text, locale)
        assert shown == strict
        assert shown.strip() and "{" not in shown and "}" not in shown, shown
        if locale == "zh-CN":
            assert CJK.search(shown), shown
        for fragment in fragments:
            assert fragment in shown, (locale, fragment, shown)
    for fragment in fragments:
        assert fragment in str(exc), (fragment, str(exc))


def shown(exc: GameError, locale: str) -> str:
    assert exc.text is not None
    return render(exc.text, locale)


def _strict(text: Text, catalogue: Mapping[str, str]) -> str:
    args = {k: _strict(v, catalogue) if isinstance(v, Text) else v for k, v in text.args.items()}
    return catalogue[text.key].format(**args)


def raises(kind: type[GameError], call: Callable[[], Any], game: Game | None = None) -> GameError:
    """Run ``call``; it must raise ``kind`` and leave ``game`` (if given) unchanged."""
    before = game.to_text() if game is not None else None
    with pytest.raises(kind) as info:
        call()
    if game is not None:
        assert game.to_text() == before
    return info.value


# --- 斗地主 ---------------------------------------------------------------------------------
def _ddz_cards(counts: Any) -> str:
    return "".join(DDZ_RANKS[r] * c for r, c in enumerate(counts))


def test_doudizhu_bidding_errors() -> None:
    spec = SPECS["doudizhu"]
    g = ClassicGame(Setup(seats=3, seed=7))
    assert g.to_act() == (1,)
    e = raises(IllegalActionError, lambda: g.apply(0, "bid 1"), g)
    check_text(e, spec, "err.base.not_your_turn")
    assert shown(e, "zh-CN") == "还没轮到你。"
    e = raises(IllegalActionError, lambda: g.apply(1, "33"), g)
    check_text(e, spec, "err.ddz.cards_later", "bid 1, bid 2, bid 3, nobid")
    e = raises(IllegalActionError, lambda: g.apply(1, "加倍"), g)
    check_text(e, spec, "err.ddz.wrong_phase", "nobid")
    g.apply(1, "bid 2")
    e = raises(IllegalActionError, lambda: g.apply(2, "1分"), g)
    check_text(e, spec, "err.ddz.bid_low", "2")
    assert "叫分必须高于 2 分" in shown(e, "zh-CN")


def test_doudizhu_play_errors() -> None:
    spec = SPECS["doudizhu"]
    g = ClassicGame(Setup(seats=3, seed=7))
    g.apply(1, "叫3分")
    assert g.phase() == "play" and g.to_act() == (1,)

    e = raises(NotationError, lambda: g.apply(1, "33X"), g)
    check_text(e, spec, "err.ddz.not_card", "33X")
    assert str(e) == (
        "cannot read '33X': 'X' is not a card; cards are 3-9, T (or 10), J, Q, K, A, 2, "
        "B (small joker), R (big joker)"
    )
    assert isinstance(e, NotationError) and e.typed == "33X" and e.reason
    check_text(raises(NotationError, lambda: g.apply(1, " , "), g), spec, "err.ddz.no_cards")
    e = raises(NotationError, lambda: g.apply(1, "33333"), g)
    check_text(e, spec, "err.ddz.too_many", "33333")
    e = raises(NotationError, lambda: g.apply(1, "小王小王"), g)
    check_text(e, spec, "err.ddz.too_many")
    assert "小王" in shown(e, "zh-CN") and "small joker" in shown(e, "en-US")
    e = raises(IllegalActionError, lambda: g.apply(1, "5 4 3 3"), g)
    check_text(e, spec, "err.ddz.no_pattern", "3345")
    e = raises(IllegalActionError, lambda: g.apply(1, "不出"), g)
    check_text(e, spec, "err.ddz.must_lead")
    e = raises(IllegalActionError, lambda: g.apply(1, "叫地主"), g)
    check_text(e, spec, "err.ddz.play_phase")

    hand = g.hands[1]
    missing = next(r for r in range(len(hand)) if hand[r] == 0)
    e = raises(IllegalActionError, lambda: g.apply(1, DDZ_RANKS[missing]), g)
    check_text(e, spec, "err.ddz.not_held", DDZ_RANKS[missing])
    assert shown(e, "zh-CN") == f"你没有这些牌：{DDZ_RANKS[missing]}"

    # 压不过: seat 1 leads its highest plain single, seat 2 answers with its lowest card.
    high = max(r for r in range(13) if hand[r])
    g.apply(1, DDZ_RANKS[high])
    low = min(r for r, c in enumerate(g.hands[2]) if c)
    assert low < high
    e = raises(IllegalActionError, lambda: g.apply(2, DDZ_RANKS[low]), g)
    check_text(e, spec, "err.ddz.not_beat", DDZ_RANKS[low], DDZ_RANKS[high])
    zh = shown(e, "zh-CN")
    assert zh.startswith(f"{DDZ_RANKS[low]} 压不过上家的单牌 {DDZ_RANKS[high]}"), zh
    assert "(single)" in shown(e, "en-US")

    e = raises(IllegalActionError, g.outcome)
    check_text(e, spec, "err.base.not_over")
    e = raises(IllegalActionError, lambda: g.trustee(0))
    check_text(e, spec, "err.base.not_seat_turn")
    e = raises(IllegalActionError, lambda: g.escape(5), g)
    check_text(e, spec, "err.base.no_seat")
    assert str(e) == "no seat 5" and shown(e, "en-US") == "There is no seat 6."  # 1-based


def test_doudizhu_errors_after_the_hand() -> None:
    spec = SPECS["doudizhu_happy"]
    g = HappyGame(Setup(seats=3, seed=3))
    while not g.is_over():
        seat = g.to_act()[0]
        g.apply(seat, g.trustee(seat))
    e = raises(IllegalActionError, lambda: g.apply(0, "pass"), g)
    check_text(e, spec, "err.base.hand_over")


def test_doudizhu_option_errors() -> None:
    spec = SPECS["doudizhu"]
    e = raises(OptionError, lambda: ClassicGame(Setup(seats=3, seed=1, options={"x": 1})))
    check_text(e, spec, "err.base.option_unknown", "x")
    assert "Dou Dizhu" in shown(e, "en-US")
    e = raises(OptionError, lambda: ClassicGame(Setup(seats=3, seed=1, options={"base": "2"})))
    check_text(e, spec, "err.base.option_type", "base", "'2'")
    assert "整数" in shown(e, "zh-CN")
    e = raises(OptionError, lambda: ClassicGame(Setup(seats=3, seed=1, options={"base": 0})))
    check_text(e, spec, "err.base.option_min", "base", "1")
    e = raises(OptionError, lambda: ClassicGame(Setup(seats=4, seed=1)))
    check_text(e, spec, "err.ddz.seats", "3")
    e = raises(OptionError, lambda: spec.new(Setup(seats=2, seed=1)))
    check_text(e, spec, "err.base.seats_exact", "3")
    e = raises(OptionError, lambda: spec.validate({"colour": "red"}))
    check_text(e, spec, "err.base.option_unknown", "colour")
    e = raises(OptionError, lambda: spec.validate({"doubling": 1}))
    check_text(e, spec, "err.base.option_type", "doubling")


def test_every_pattern_has_a_name_in_both_locales() -> None:
    texts = SPECS["doudizhu"].texts
    for pattern in Pattern:
        for locale in LOCALES:
            assert texts[locale]["ddz.pattern." + pattern.name.lower()]


# --- 牛牛 / 斗牛 --------------------------------------------------------------------------
def test_niuniu_grab_and_bet_errors() -> None:
    spec = SPECS["niuniu"]
    g = NiuniuGame(Setup(seats=3, seed=5))
    offered = g.to_act()[0]
    other = (offered + 1) % 3
    e = raises(IllegalActionError, lambda: g.apply(other, "抢庄"), g)
    check_text(e, spec, "err.base.not_your_turn")
    e = raises(NotationError, lambda: g.apply(offered, "maybe"), g)
    check_text(e, spec, "err.niuniu.grab", "maybe")
    g.apply(offered, "抢庄")
    player = g.to_act()[0]
    e = raises(IllegalActionError, lambda: g.apply(player, "下注 3"), g)
    check_text(e, spec, "err.niuniu.stake_offer", "1, 2, 5, 10")
    e = raises(NotationError, lambda: g.apply(player, "bet -1"), g)
    check_text(e, spec, "err.niuniu.bet", "bet -1")


HANDS = [parse_cards(h) for h in ("Ks Qd 5h 7c 3d", "As 2s 3s 4s 6h", "9c 9d 8h 8s 2c")]


def test_niuniu_split_errors() -> None:
    spec = SPECS["douniu"]
    g = DouniuGame(Setup(seats=3, seed=1), hands=HANDS)
    assert g.phase() == "split"
    e = raises(IllegalActionError, lambda: g.apply(0, "split As2s3s"), g)
    check_text(e, spec, "err.niuniu.not_held", "3s 2s As", "Ks Qd 7c 5h 3d")
    assert isinstance(e, IllegalActionError) and e.seat == 0
    e = raises(NotationError, lambda: g.apply(0, "split XYZ"), g)
    check_text(e, spec, "err.niuniu.split", "split XYZ")
    e = raises(IllegalActionError, lambda: g.apply(0, "split KKQ"), g)
    check_text(e, spec, "err.niuniu.rank_not_held", "K")
    hand = tuple(HANDS[0])
    e = raises(NotationError, lambda: Split.parse("split", hand))
    check_text(e, spec, "err.niuniu.split_empty")
    e = raises(NotationError, lambda: Split.parse("KQ53", hand))
    check_text(e, spec, "err.niuniu.split_count", "KQ53")
    e = raises(NotationError, lambda: Split.parse("Ks Qd 5", hand))
    check_text(e, spec, "err.cards.not_rank", "Ks Qd 5")
    g.apply(0, "best")
    e = raises(IllegalActionError, lambda: g.apply(0, "best"), g)
    check_text(e, spec, "err.base.not_your_turn")


def test_niuniu_option_errors() -> None:
    e = raises(OptionError, lambda: DouniuGame(Setup(seats=2, seed=1, options={"base": 0})))
    check_text(e, SPECS["douniu"], "err.base.option_whole", "base", "1")
    e = raises(OptionError, lambda: NiuniuGame(Setup(seats=2, seed=1, options={"stakes": []})))
    check_text(e, SPECS["niuniu"], "err.niuniu.option_stakes", "stakes")
    e = raises(OptionError, lambda: SPECS["douniu"].new(Setup(seats=7, seed=1)))
    check_text(e, SPECS["douniu"], "err.base.seats", "2", "6")
    assert "7" in shown(e, "zh-CN")


# --- 扑克牌 (shared by the card games) -------------------------------------------------------
@pytest.mark.parametrize(
    ("call", "key", "fragment"),
    [
        (lambda: Card.parse("Xs"), "err.cards.not_rank", "X"),
        (lambda: Card.parse("As Kd"), "err.cards.one_card", "As Kd"),
        (lambda: parse_cards("K"), "err.cards.needs_suit", "K"),
        (lambda: parse_cards("As ♠"), "err.cards.suit_needs_rank", "As ♠"),
        (lambda: parse_cards("As as"), "err.cards.twice", "As"),
    ],
)
def test_card_errors(call: Callable[[], Any], key: str, fragment: str) -> None:
    e = raises(NotationError, call)
    for game in CARD_GAMES:
        check_text(e, SPECS[game], key, fragment)


# --- 百变双扣 / 够级 ---------------------------------------------------------------------------
def test_shuangkou_not_held_names_only_the_missing_cards() -> None:
    # issue 26: "你手里没有这些牌：3456" named the whole play when only the 5 was missing
    spec = SPECS["shuangkou"]
    g = ShuangkouGame.position(["3 4 6 7 9", "8 8", "T T", "J J"], leader=0)
    e = raises(IllegalActionError, lambda: g.apply(0, "3456"), g)
    check_text(e, spec, "err.climb.not_held", "5", "3456")
    assert shown(e, "zh-CN") == "你手里缺 5，出不了 3456。"
    assert shown(e, "en-US") == "You are missing 5, so you cannot play 3456."
    e = raises(IllegalActionError, lambda: g.apply(0, "3399"), g)  # one of each held
    assert shown(e, "zh-CN") == "你手里缺 39，出不了 3399。"


def test_gouji_not_held_names_only_the_missing_cards() -> None:
    spec = SPECS["gouji"]
    g = GoujiGame.position(["AA 55 6", "R22 4", "3 3", "KK 9", "8 8", "T J"], leader=0)
    e = raises(IllegalActionError, lambda: g.apply(0, "AAA"), g)
    check_text(e, spec, "err.climb.not_held", "A", "AAA")
    assert shown(e, "zh-CN") == "你手里缺 A，出不了 AAA。"
    e = raises(IllegalActionError, lambda: g.apply(0, "55R"), g)
    assert shown(e, "en-US") == "You are missing R, so you cannot play 55R."


# --- English as a native speaker writes it (issue 26) --------------------------------------
def test_wrong_phase_refusals_say_what_you_can_do_now() -> None:
    """"Now is Bidding: you can only…", "Now choose declare…", "Now bury jokers or pass.": a
    refusal in the wrong phase says what the player can do, in plain English."""
    g = SPECS["gouji_new"].new(Setup(seats=6, seed=7))
    assert g.phase() == "declare"
    e = raises(IllegalActionError, lambda: g.apply(0, "33"), g)
    assert shown(e, "en-US") == "You can only choose declare, nodeclare or revolt now."
    g = SPECS["dagunzi"].new(Setup(seats=4, seed=7))
    assert g.phase() == "show"
    e = raises(IllegalActionError, lambda: g.apply(g.to_act()[0], "3h"), g)
    assert shown(e, "en-US") == "You can only show the big joker (`show`) or pass now."
    g = SPECS["shengji_happy"].new(Setup(seats=4, seed=34))
    while g.phase() in ("declare", "bury"):
        seat = g.to_act()[0]
        g.apply(seat, g.hint(seat))
    assert g.phase() == "counter"
    e = raises(IllegalActionError, lambda: g.apply(g.to_act()[0], "bury 2s"), g)
    assert shown(e, "en-US") == (
        "You can only counter the kitty (`counter` and the cards) or pass now.")
    g = ShuangkouGame.position(["33 4", "66 7", "88 9", "TT J"], leader=0)
    e = raises(IllegalActionError, lambda: g.apply(0, "pass"), g)
    assert shown(e, "en-US") == "You lead this round, so you cannot pass: play some cards."
    e = raises(IllegalActionError, lambda: g.apply(0, "34"), g)
    assert shown(e, "en-US").startswith("34 is not a Shuangkou pattern (single, pair")


AWKWARD_ENGLISH = (
    (re.compile(r"\bNow is\b"), "'Now is {phase}' is not English"),
    (re.compile(r"^Now [a-z]+ "), "an order starting 'Now …' reads as a command out of nowhere"),
    (re.compile(r"\bis no pattern\b"), "'is no pattern of' for 'is not a … pattern'"),
    (re.compile(r"\bis running\b"), "a hand is 'in progress', not 'running'"),
)
"""Phrasings a native speaker would not write, each with why (issue 26)."""


def _awkward(catalogue: Mapping[str, str]) -> list[str]:
    return [f"{key}: {text!r} ({why})" for key, text in catalogue.items()
            for pattern, why in AWKWARD_ENGLISH if pattern.search(text)]


def test_no_english_text_reads_as_a_translation() -> None:
    hall = __import__("json").loads(
        (ENGINES.parent / "bot" / "i18n" / "en-US.json").read_text(encoding="utf-8"))
    found = _awkward(hall)
    for spec in SPECS.values():
        found += _awkward(spec.texts["en-US"])
    assert not found, "\n".join(found)


# --- 吃火锅 ----------------------------------------------------------------------------------
def _hotpot(*decks: str, **options: Any) -> HotpotGame:
    setup = Setup(seats=4, seed=1, options={"ante": 100, "min_bet": 5, **options})
    return HotpotGame(setup, decks=[parse_cards(d) for d in decks])


def test_hotpot_errors() -> None:
    spec = SPECS["hotpot"]
    g = _hotpot("2s Kd 5c")
    seat = g.current
    e = raises(IllegalActionError, lambda: g.apply((seat + 1) % 4, "pass"), g)
    check_text(e, spec, "err.base.not_your_turn")
    e = raises(NotationError, lambda: g.apply(seat, "all in"), g)
    check_text(e, spec, "err.hotpot.action", "all in")
    span = g.bet_range(seat)
    assert span is not None and span[0] == 5
    e = raises(IllegalActionError, lambda: g.apply(seat, "添菜 4"), g)
    check_text(e, spec, "err.hotpot.bet_range", "5", str(span[1]))
    pair = _hotpot("7s 7d 7c")
    e = raises(IllegalActionError, lambda: pair.apply(pair.current, "bet 6"), pair)
    check_text(e, spec, "err.hotpot.pair_min", "5")
    e = raises(OptionError, lambda: _hotpot(ante=0))
    check_text(e, spec, "err.base.option_whole", "ante")
    e = raises(OptionError, lambda: _hotpot(min_bet=50, max_bet=10))
    check_text(e, spec, "err.hotpot.option_max_bet", "max_bet")


# --- 五子棋 ----------------------------------------------------------------------------------
def _gomoku(options: dict[str, Any] | None = None, **setup: Any) -> GomokuGame:
    return GomokuGame(Setup(seats=2, seed=7, options=options or {}, **setup))


def test_gomoku_move_errors() -> None:
    spec = SPECS["gomoku"]
    g = _gomoku()
    e = raises(IllegalActionError, lambda: g.apply(1, "H8"), g)
    check_text(e, spec, "err.base.not_your_turn")
    g.apply(0, "H8")
    e = raises(IllegalActionError, lambda: g.apply(1, "h8"), g)
    check_text(e, spec, "err.gomoku.taken", "H8")
    assert shown(e, "zh-CN") == "H8 已经有棋子了。"
    for typed, key in [
        ("Z9", "err.gomoku.column"),
        ("H16", "err.gomoku.row"),
        ("H8J", "err.gomoku.point"),
        ("hello", "err.gomoku.action"),
        ("offer H9 H9", "err.gomoku.offer_same"),
        ("offer H9", "err.gomoku.arity_offer"),
        ("choose H9 J9", "err.gomoku.arity_choose"),
        ("move H9 J9 K9", "err.gomoku.arity_move"),
    ]:
        check_text(raises(NotationError, lambda t=typed: g.apply(1, t), g), spec, key, typed)
    check_text(raises(NotationError, lambda: g.apply(1, "  "), g), spec, "err.gomoku.empty")
    e = raises(IllegalActionError, lambda: g.apply(1, "swap"), g)
    check_text(e, spec, "err.gomoku.place")


def test_gomoku_opening_errors() -> None:
    spec = SPECS["gomoku"]
    swap = _gomoku({"opening": "swap3"})
    for move in ("H8", "H9", "J10"):
        swap.apply(swap.to_act()[0], move)
    e = raises(IllegalActionError, lambda: swap.apply(1, "K11"), swap)
    check_text(e, spec, "err.gomoku.swap_first")
    five = _gomoku({"opening": "five2"})
    for move in ("H8", "H9", "H10", "H11"):
        five.apply(five.to_act()[0], move)
    e = raises(IllegalActionError, lambda: five.apply(0, "A1"), five)
    check_text(e, spec, "err.gomoku.offer_two")
    e = raises(IllegalActionError, lambda: five.apply(0, "offer G8 I8"), five)
    check_text(e, spec, "err.gomoku.offer_mirror", "G8", "I8")
    five.apply(0, "offer G8 J8")
    e = raises(IllegalActionError, lambda: five.apply(1, "choose A1"), five)
    check_text(e, spec, "err.gomoku.choose_which", "G8", "J8")
    e = raises(IllegalActionError, lambda: five.apply(1, "swap"), five)
    check_text(e, spec, "err.gomoku.choose_one")


def test_gomoku_option_and_position_errors() -> None:
    spec = SPECS["gomoku"]
    e = raises(OptionError, lambda: _gomoku({"handicap": 1}))
    check_text(e, spec, "err.base.option_unknown", "handicap")
    e = raises(OptionError, lambda: _gomoku({"forbidden": "yes"}))
    check_text(e, spec, "err.base.option_type", "forbidden")
    assert "'yes'" in shown(e, "zh-CN")
    e = raises(OptionError, lambda: _gomoku({"opening": "pro"}))
    check_text(e, spec, "err.gomoku.option_opening", "opening")
    e = raises(OptionError, lambda: _gomoku(carry={"black": 2}))
    check_text(e, spec, "err.gomoku.option_black")
    e = raises(NotationError, lambda: Position.from_stones("H8", "H8"))
    check_text(e, spec, "err.gomoku.listed_twice", "H8")
    e = raises(NotationError, lambda: Position.from_fen("15/15"))
    check_text(e, spec, "err.gomoku.fen_rows")
    e = raises(NotationError, lambda: Position.from_fen("/".join(["14"] + ["15"] * 14)))
    check_text(e, spec, "err.gomoku.fen_row", "15")
    e = raises(NotationError, lambda: Position.from_fen("/".join(["14z"] + ["15"] * 14)))
    check_text(e, spec, "err.gomoku.fen_char", "z")


# --- catalogues ------------------------------------------------------------------------------
def test_every_spec_has_the_base_texts_and_card_games_the_card_texts() -> None:
    for spec in SPECS.values():
        assert set(spec.texts) == set(LOCALES)
        for locale in LOCALES:
            assert BASE_TEXTS[locale].items() <= dict(spec.texts[locale]).items()
    for game in CARD_GAMES:
        for locale in LOCALES:
            assert CARD_TEXTS[locale].items() <= dict(SPECS[game].texts[locale]).items()
    for table in (BASE_TEXTS, CARD_TEXTS):
        assert set(table["zh-CN"]) == set(table["en-US"])
        for key, zh in table["zh-CN"].items():
            assert CJK.search(zh), key


def test_a_spec_keeps_its_own_texts_over_the_base_texts() -> None:
    own = {"zh-CN": {"err.base.hand_over": "打完了"}, "en-US": {"x": "y"}}
    spec = GameSpec("t", "测试", "Test", 1, 1, "t", Game, texts=own)
    assert spec.texts["zh-CN"]["err.base.hand_over"] == "打完了"
    assert spec.texts["en-US"]["x"] == "y"
    assert spec.texts["en-US"]["err.base.not_your_turn"] == "It is not your turn."


def test_error_templates_agree_across_locales() -> None:
    for spec in SPECS.values():
        zh, en = spec.texts["zh-CN"], spec.texts["en-US"]
        errs = {k for k in zh if k.startswith("err.")}
        assert errs == {k for k in en if k.startswith("err.")}
        for key in errs:
            # A translation may leave an argument out, never invent one.
            assert placeholders(zh[key]) <= placeholders(en[key]), key
            assert CJK.search(zh[key]), key


# --- static checks over engines/ ----------------------------------------------------------------
def _modules() -> Iterator[tuple[Path, ast.Module]]:
    for path in sorted(ENGINES.rglob("*.py")):
        yield path, ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


_ERROR_NAMES = {
    name
    for name, value in vars(errors).items()
    if isinstance(value, type) and issubclass(value, GameError)
}


def _name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def test_every_game_error_raised_in_engines_passes_a_text() -> None:
    assert _ERROR_NAMES >= {"GameError", "NotationError", "IllegalActionError", "OptionError"}
    found, missing = 0, []
    for path, tree in _modules():
        for node in ast.walk(tree):
            # A bare class (``raise NotationError``) cannot carry a text.
            if (
                isinstance(node, ast.Raise)
                and node.exc is not None
                and _name(node.exc) in _ERROR_NAMES
                and not isinstance(node.exc, ast.Call)
            ):
                missing.append(f"{path.relative_to(ENGINES)}:{node.lineno}")
            if isinstance(node, ast.Call) and _name(node.func) in _ERROR_NAMES:
                found += 1
                if not any(k.arg == "text" for k in node.keywords):
                    missing.append(f"{path.relative_to(ENGINES)}:{node.lineno}")
    assert found >= 70  # the check really sees the raise sites
    assert missing == []


def _catalogues_for(path: Path) -> list[tuple[str, Mapping[str, Mapping[str, str]]]]:
    """The catalogues an ``err.*`` key named in ``path`` must be in."""
    rel = path.relative_to(ENGINES)
    if rel.parts[0] == "base.py":
        return [("BASE_TEXTS", BASE_TEXTS)]
    if rel.parts[0] == "cards.py":
        return [("CARD_TEXTS", CARD_TEXTS)] + [(g, SPECS[g].texts) for g in CARD_GAMES]
    if len(rel.parts) == 1:
        return []
    package = importlib.import_module(f"engines.{rel.parts[0]}")
    if not hasattr(package, "SPECS"):  # a family package: every game of the family
        games = _family_games(rel.parts[0])
        assert games, f"no registered game imports engines.{rel.parts[0]}"
        return [(game, SPECS[game].texts) for game in games]
    return [(spec.key, spec.texts) for spec in package.SPECS]


def _family_games(family: str) -> list[str]:
    """The registered games whose package imports the family package ``family``."""
    users: set[str] = set()
    for path, tree in _modules():
        rel = path.relative_to(ENGINES)
        if len(rel.parts) == 1 or rel.parts[0] == family:
            continue
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module \
                    and node.module.split(".")[:2] == ["engines", family]:
                users.add(rel.parts[0])
    return [key for key, spec in SPECS.items() if spec.game.__module__.split(".")[1] in users]


def _dict_keys(tree: ast.Module) -> set[int]:
    return {id(k) for node in ast.walk(tree) if isinstance(node, ast.Dict) for k in node.keys}


KEY = re.compile(r"err\.[a-z0-9_]+(\.[a-z0-9_]+)+")


def test_every_error_key_named_in_engines_is_in_its_catalogues() -> None:
    named: set[str] = set()
    calls = 0
    for path, tree in _modules():
        catalogues = _catalogues_for(path)
        skip = _dict_keys(tree)  # catalogue entries themselves
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Constant)
                and isinstance(node.value, str)
                and KEY.fullmatch(node.value)
                and id(node) not in skip
            ):
                named.add(node.value)
                assert catalogues, f"{path}: {node.value} has no catalogue"
                for where, table in catalogues:
                    for locale in LOCALES:
                        assert node.value in table[locale], (path.name, where, locale, node.value)
            # T("err.x", a=..., b=...): the arguments cover every placeholder of both locales.
            if (
                isinstance(node, ast.Call)
                and _name(node.func) in ("T", "Text")
                and node.args
                and isinstance(node.args[0], ast.Constant)
                and KEY.fullmatch(str(node.args[0].value))
            ):
                calls += 1
                key = str(node.args[0].value)
                given = {k.arg for k in node.keywords}
                for where, table in catalogues:
                    for locale in LOCALES:
                        need = placeholders(table[locale].get(key, ""))
                        assert need <= given, (path.name, node.lineno, where, locale, key)
    assert calls >= 60
    # And no dead entries: every error text in a catalogue is named by some engine.
    for spec in SPECS.values():
        assert {k for k in spec.texts["en-US"] if k.startswith("err.")} <= named, spec.key
