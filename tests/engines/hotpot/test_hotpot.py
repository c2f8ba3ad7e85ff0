"""吃火锅: third-card rules, bet limits, worked examples HG-E1..E4, end, leftover, trustee."""

from __future__ import annotations

import doctest
import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import engines.hotpot.notation as notation_module
import engines.hotpot.rules as rules_module
from engines.base import Choice, Setup, Text, View
from engines.cards import RANKS, Card, parse_cards
from engines.errors import GameError, IllegalActionError, NotationError, OptionError
from engines.hotpot import HOTPOT, SPECS, HotpotGame, Third
from engines.hotpot.rules import consecutive, factor, ranks_for, resolve, worst_loss
from engines.hotpot.texts import TEXTS
from bot.host.model import private_digest

ROOT = Path(__file__).resolve().parents[3]


def R(ch: str) -> int:
    return RANKS.index(ch) + 1


def game(
    *decks: str,
    seed: int = 1,
    stakes: tuple[int | None, ...] = (),
    coefficient: int = 0,
    **options: Any,
) -> HotpotGame:
    options = {"ante": 100, "min_bet": 5, **options}
    setup = Setup(seats=4, seed=seed, options=options, stakes=stakes, coefficient=coefficient)
    return HotpotGame(setup, decks=[parse_cards(d) for d in decks])


def snapshot(g: HotpotGame) -> Any:
    return (
        g.to_text(),
        g.to_act(),
        g.pot,
        list(g.net),
        g.turn,
        g.pos,
        [g.view(s) for s in (None, 0, 1, 2, 3)],
    )


def test_doctests() -> None:
    assert doctest.testmod(rules_module).failed == 0
    assert doctest.testmod(notation_module).failed == 0


def test_spec() -> None:
    assert SPECS == (HOTPOT,)
    assert (HOTPOT.key, HOTPOT.min_seats, HOTPOT.max_seats) == ("hotpot", 4, 4)
    assert HOTPOT.level_table == "doudizhu" and HOTPOT.phases == ("play",)
    assert set(HOTPOT.options) == {"ante", "min_bet", "max_bet", "loss_cap"}
    assert set(TEXTS["zh-CN"]) == set(TEXTS["en-US"])


@pytest.mark.parametrize(
    ("options", "option", "zh", "en"),
    [
        ({"ante": 0}, "ante", "房间选项“ante”必须是不小于 1 的整数", "Option 'ante': must be"),
        ({"min_bet": 0}, "min_bet", "“min_bet”", "'min_bet'"),
        ({"min_bet": 10, "max_bet": 5}, "max_bet", "不能小于 min_bet", "at least min_bet"),
        ({"loss_cap": -1}, "loss_cap", "“loss_cap”", "'loss_cap'"),
        ({"max_bet": 100, "loss_cap": 99}, "loss_cap", "不能小于 max_bet", "at least max_bet"),
        ({"ante": 10**13}, "ante", "1,000,000,000,000", "1,000,000,000,000"),
        ({"max_bet": 10**13, "loss_cap": 10**13}, "max_bet", "“max_bet”", "'max_bet'"),
    ],
)
def test_bad_options(options: dict[str, Any], option: str, zh: str, en: str) -> None:
    # Refused when the room is validated, before any beans are held (GameSpec.validate calls
    # check_options), and by a hand built without the spec.
    with pytest.raises(OptionError) as info:
        HOTPOT.validate(options)
    assert info.value.key == option and info.value.text is not None
    for locale, fragment in (("zh-CN", zh), ("en-US", en)):
        template = HOTPOT.texts[locale][info.value.text.key]
        assert fragment in template.format(**info.value.text.args)
    with pytest.raises(OptionError):
        HotpotGame.check_options(options)
    with pytest.raises(OptionError):
        HOTPOT.new(Setup(seats=4, seed=1, options=options))


# --- the rules ------------------------------------------------------------------------------
def test_hg_e2_four_jack() -> None:
    # HG-E2: hand 4, J -> a third of 5, 6, 7, 8, 9 or 10 wins; any other card loses.
    table = ranks_for(R("4"), R("J"))
    assert table[Third.BETWEEN] == [5, 6, 7, 8, 9, 10]
    assert table[Third.OUTSIDE] == [1, 2, 3, 12, 13]
    assert table[Third.POST] == [4, 11]


def test_hg_e3_ace_king() -> None:
    # HG-E3: hand A, K -> any card except A or K wins; A or K is 牛角尖 ×4.
    table = ranks_for(R("A"), R("K"))
    assert table[Third.BETWEEN] == list(range(2, 13))
    assert table[Third.OUTSIDE] == []
    assert table[Third.POST] == [1, 13]
    assert factor(1, 13, Third.POST) == 4 and factor(13, 1, Third.POST) == 4


def test_hg_e4_factor() -> None:
    assert resolve(R("A"), R("9"), R("A")) is Third.POST
    assert resolve(R("9"), R("A"), R("9")) is Third.POST
    assert factor(1, 9, Third.POST) == 2
    assert factor(1, 9, Third.OUTSIDE) == 1


def test_pair_rules() -> None:
    assert resolve(7, 7, 7) is Third.TRIPLE
    assert all(resolve(7, 7, r) is Third.PAIR_MISS for r in range(1, 14) if r != 7)


@pytest.mark.parametrize(
    ("a", "b", "yes"),
    [
        ("A", "2", True),
        ("2", "A", True),
        ("5", "6", True),
        ("Q", "K", True),
        ("T", "J", True),
        ("K", "A", False),
        ("A", "K", False),
        ("5", "7", False),
        ("5", "5", False),
    ],
)
def test_consecutive(a: str, b: str, yes: bool) -> None:
    assert consecutive(R(a), R(b)) is yes


# --- worked examples in play ---------------------------------------------------------------
def test_hg_e1_bet_range() -> None:
    # HG-E1: room minimum 5, pot 2000 -> bets of 5 to 2000.
    g = game("4s Jd", ante=500, min_bet=5)
    assert g.pot == 2000 and g.open is not None
    seat = g.current
    assert g.bet_range(seat) == (5, 2000)
    legal = g.legal_actions(seat)
    assert legal[0] == "pass" and legal[1] == "bet 5" and legal[-1] == "bet 2000"
    assert len(legal) == 1 + 1996
    before = snapshot(g)
    for bad in ("bet 4", "bet 2001", "添菜 0"):
        with pytest.raises(IllegalActionError):
            g.apply(seat, bad)
        assert snapshot(g) == before


@pytest.mark.parametrize(
    ("third", "delta"),
    [("5c", 50), ("Th", 50), ("3c", -50), ("Qs", -50), ("Ah", -50), ("4h", -100), ("Jc", -100)],
)
def test_hg_e2_in_play(third: str, delta: int) -> None:
    g = game("4s Jd " + third)
    seat = g.current
    assert g.apply(seat, "添菜 50") == "bet 50"
    assert g.net[seat] == -100 + delta
    assert g.pot == 400 - delta
    assert g.history[-1].delta == delta


@pytest.mark.parametrize(("third", "delta"), [("2c", 40), ("Qh", 40), ("Ac", -160), ("Kc", -160)])
def test_hg_e3_in_play(third: str, delta: int) -> None:
    g = game("As Kd " + third)
    seat = g.current
    g.apply(seat, "bet 40")
    assert g.net[seat] == -100 + delta


@pytest.mark.parametrize("third", ["Ac", "9h"])
def test_hg_e4_in_play(third: str) -> None:
    # HG-E4: hand A, 9, bet 100, third A or 9 -> pays 200.
    g = game("As 9d " + third)
    seat = g.current
    g.apply(seat, "bet 100")
    assert g.net[seat] == -100 - 200
    assert g.pot == 400 + 200
    assert g.history[-1].result is Third.POST


def test_consecutive_cards_pass_automatically() -> None:
    g = game("5s 6d Ah 2c Kd As 9c 3h")
    first = g.first
    # Two auto-passes (5-6, A-2), then K-A is a real decision.
    assert [t.action for t in g.history] == ["consecutive", "consecutive"]
    assert g.current == (first + 2) % 4 and g.open == tuple(parse_cards("Kd As"))
    assert g.log == []


def test_pair_only_minimum_and_triple_takes_the_pot() -> None:
    g = game("7s 7d 7c", min_bet=5)
    seat = g.current
    assert g.bet_range(seat) == (5, 5)
    assert g.legal_actions(seat) == ["pass", "bet 5"]
    with pytest.raises(IllegalActionError, match="pair"):
        g.apply(seat, "bet 6")
    assert g.apply(seat, "bet max") == "bet 5"
    assert g.is_over() and g.ended == "empty" and g.pot == 0
    assert g.net[seat] == 300
    out = g.outcome()
    assert out.points[seat] == 300 and sum(out.points) == 0
    assert out.lines[-1] == Text("hotpot.line.end_empty", {"seat": seat + 1})
    assert out.winners == (seat,)


def test_pair_miss_costs_the_minimum() -> None:
    g = game("7s 7d Kc", min_bet=5)
    seat = g.current
    g.apply(seat, "bet 5")
    assert g.net[seat] == -105 and g.history[-1].result is Third.PAIR_MISS


def test_winning_the_whole_pot_ends_the_game() -> None:
    g = game("2s Kd 7c")
    seat = g.current
    g.apply(seat, "bet pot")
    assert g.is_over() and g.ended == "empty"
    assert g.outcome().points[seat] == 300


def test_turn_order_and_first_player_random() -> None:
    firsts = {HOTPOT.new(Setup(seats=4, seed=s)).first for s in range(40)}
    assert firsts == {0, 1, 2, 3}
    g = game("2s 9d 3c Qd")
    first = g.current
    g.apply(first, "pass")
    assert g.current == (first + 1) % 4


def test_reshuffle_every_round() -> None:
    # Round one ends after four turns; round two deals from a fresh deck (2s 9d again).
    g = game("2s 9d 3s Qd 4s Td 5s Jd", "2s 9d")
    for _ in range(4):
        g.apply(g.current, "pass")
    assert g.turn == 4 and g.round == 1
    assert g.open == tuple(parse_cards("2s 9d"))


def test_twenty_turns_then_leftover_shared() -> None:
    g = game(seed=3, ante=10)
    while not g.is_over():
        g.apply(g.current, "pass")
    assert g.ended == "turns" and g.turn == 20 and len(g.history) == 20
    assert g.outcome().points == (0, 0, 0, 0)
    assert g.outcome().lines[-1].key == "hotpot.line.end_turns"


def test_leftover_goes_to_those_still_at_the_table() -> None:
    g = game("2s Kd 5c", ante=10)
    seat = g.current
    g.apply(seat, "bet 10")  # wins 10 from a 40 pot: 30 left
    quitter = (seat + 1) % 4
    g.escape(quitter)
    while not g.is_over():
        s = g.current
        assert s != quitter or g.trustee(s) == "pass"
        g.apply(s, "pass")
    points = g.outcome().points
    assert g.leftover == 30 and sum(points) == 0
    assert points[quitter] == -10
    assert points[seat] == -10 + 10 + 10
    assert sorted(points[s] for s in range(4) if s not in (seat, quitter)) == [0, 0]


def test_leftover_odd_points_go_in_turn_order() -> None:
    g = game("2s Kd 5c", ante=10)
    seat = g.current
    g.apply(seat, "bet 9")  # 31 left, 4 players
    while not g.is_over():
        g.apply(g.current, "pass")
    shares = g.shares
    assert sum(shares) == 31 and sorted(shares) == [7, 8, 8, 8]
    assert shares[g.first] == 8 and shares[(g.first + 3) % 4] == 7
    assert g.outcome().lines[-1].args["share"] == "7~8"


def test_bet_at_most_half_of_what_the_player_carries() -> None:
    stakes = (1000, 1000, 1000, 1000)
    g = game("2s Kd 5c", stakes=stakes, ante=500)
    seat = g.current
    # Pot 2000; the player has 1000 - 500 = 500 left: at most 250.
    assert g.bet_range(seat) == (5, 250)
    with pytest.raises(IllegalActionError):
        g.apply(seat, "bet 251")


def test_bet_at_most_max_bet_and_loss_capped() -> None:
    g = game("As Kd Ac", ante=50_000)
    seat = g.current
    assert g.pot == 200_000 and g.bet_range(seat) == (5, 100_000)
    g.apply(seat, "bet 100000")
    # 牛角尖 with A, K: 4 × 100,000 = 400,000, capped at 200,000.
    assert g.net[seat] == -50_000 - 200_000
    assert g.pot == 400_000


# The seed's caps are coins: "每次添菜数最大上限为100000", "每次输最大上限为200000游戏币，超过
# 200000游戏币一律以200000扣". With N beans per point they bind at 100,000 // N and
# 200,000 // N points.
def test_bet_and_loss_caps_bind_the_beans_of_a_bean_room() -> None:
    g = game("As Kd Ac", ante=50_000, coefficient=1000)
    seat = g.current
    assert g.pot == 200_000 and g.bet_range(seat) == (5, 100)
    assert g.legal_actions(seat)[-1] == "bet 100" and len(g.legal_actions(seat)) == 1 + 96
    before = snapshot(g)
    with pytest.raises(IllegalActionError) as info:
        g.apply(seat, "bet 101")
    assert info.value.text is not None and info.value.text.args["high"] == 100
    assert snapshot(g) == before
    assert g.apply(seat, "bet max") == "bet 100"
    # 牛角尖 with A, K: 4 × 100 = 400 points = 400,000 beans, taken as 200,000: 200 points.
    assert g.history[-1].delta == -200
    assert g.net[seat] == -50_000 - 200


def test_caps_round_down_to_whole_points() -> None:
    # N = 3,000: 100,000 beans are 33⅓ points, so the largest bet is 33 (99,000 beans).
    g = game("2s Kd", ante=1000, coefficient=3000)
    assert g.bet_range(g.current) == (5, 33)
    assert (g.max_bet, g.loss_cap) == (33, 66)


def test_caps_are_points_in_a_score_only_room() -> None:
    g = game("As Kd Ac", ante=50_000, coefficient=0)
    assert g.bet_range(g.current) == (5, 100_000)


def test_no_bet_when_one_point_is_above_the_per_bet_cap() -> None:
    # N = 150,000: a single point is more than 100,000 coins, so nobody can bet at all.
    g = game("As Kd", ante=1000, min_bet=1, coefficient=150_000)
    assert g.is_over() and {t.action for t in g.history} <= {"nobet", "consecutive"}
    assert g.outcome().points == (0, 0, 0, 0)


def test_room_caps_are_coins_too() -> None:
    g = game("As Kd Ac", ante=1000, max_bet=5000, loss_cap=8000, coefficient=100)
    assert g.bet_range(g.current) == (5, 50)
    g.apply(g.current, "bet 50")
    assert g.history[-1].delta == -80


def test_loss_never_exceeds_what_the_player_carries() -> None:
    g = game("As Kd Ac", stakes=(300, 300, 300, 300), ante=100)
    seat = g.current
    g.apply(seat, "bet 100")  # 4 × 100 = 400, but only 200 left
    assert g.net[seat] == -300
    assert sum(g.net) + g.pot == 0


def test_no_possible_bet_passes_automatically() -> None:
    g = game("2s Kd", stakes=(110, 110, 110, 110), ante=100, min_bet=10)
    # 10 carried after the ante: half is 5 < the minimum 10.
    assert g.is_over() and all(t.action in ("nobet", "consecutive") for t in g.history)
    assert g.history[0].action == "nobet"


def test_bad_input_changes_nothing() -> None:
    g = game("2s Kd")
    seat = g.current
    before = snapshot(g)
    for who, text, err in [
        (seat, "hello", NotationError),
        (seat, "bet", NotationError),
        (seat, "bet -5", NotationError),
        (seat, "bet 1", IllegalActionError),
        (seat, "bet 401", IllegalActionError),
        ((seat + 1) % 4, "pass", IllegalActionError),
    ]:
        with pytest.raises(err) as info:
            g.apply(who, text)
        assert isinstance(info.value, GameError) and str(info.value)
        assert snapshot(g) == before


@pytest.mark.parametrize(
    "text",
    ["bet " + "9" * 5000, "添菜 " + "9" * 4301, "bet 1" + "0" * 13, "bet " + "0" * 5000 + "7"],
)
def test_huge_bet_is_a_notation_error_with_a_short_text(text: str) -> None:
    # A number of more than 4,300 digits used to escape as int()'s plain ValueError.
    g = game("2s Kd")
    before = snapshot(g)
    with pytest.raises(NotationError) as info:
        g.apply(g.current, text)
    assert snapshot(g) == before
    assert info.value.text is not None and info.value.text.key == "err.cards.amount"
    for locale in ("zh-CN", "en-US"):
        message = HOTPOT.texts[locale]["err.cards.amount"].format(**info.value.text.args)
        assert "1,000,000,000,000" in message and len(message) < 120, message
    assert len(str(info.value)) < 160


def test_a_new_pair_is_a_new_private_picture() -> None:
    # The seat's private hand is the pair in front of it; it comes after the others' turns,
    # so the host must refresh it then.
    g = HOTPOT.new(Setup(seats=4, seed=3))
    assert isinstance(g, HotpotGame)
    seen: dict[int, tuple[int, str | None]] = {}
    while not g.is_over():
        seat = g.current
        digests = [private_digest(g, s) for s in range(4)]
        hand = g.view(seat).hand
        assert hand is not None
        if seat in seen:
            assert digests[seat] != seen[seat][0]
        seen[seat] = (digests[seat], hand)
        g.apply(seat, "pass")
        if not g.is_over():
            assert private_digest(g, g.current) != digests[g.current], "its new pair shows"
    assert set(seen) == {0, 1, 2, 3}
    again = HOTPOT.from_record(g.to_record())
    assert [private_digest(again, s) for s in range(4)] == [private_digest(g, s) for s in range(4)]


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("pass", "pass"),
        ("放弃", "pass"),
        ("不添", "pass"),
        ("添菜 20", "bet 20"),
        ("bet 20", "bet 20"),
        ("20", "bet 20"),
        ("add 20", "bet 20"),
        ("bet min", "bet 5"),
        ("bet max", "bet 400"),
        ("添菜 最大", "bet 400"),
    ],
)
def test_action_aliases(text: str, canonical: str) -> None:
    g = game("2s Kd 7c")
    assert g.apply(g.current, text) == canonical


def test_choices() -> None:
    g = game("2s Kd")
    acts = [c.action for c in g.choices(g.current)]
    assert acts == ["pass", "bet 5", "bet 100", "bet 200", "bet 400"]
    assert all(a in g.legal_actions(g.current) for a in acts)
    assert g.choices((g.current + 1) % 4) == []
    g = game("7s 7d")
    assert [c.action for c in g.choices(g.current)] == ["pass", "bet 5"]


# --- trustee ----------------------------------------------------------------------------------
def test_trustee_bets_only_on_a_wide_gap() -> None:
    assert game("As Kd").trustee(game("As Kd").current) == "bet 5"
    assert game("2s Qd").trustee(game("2s Qd").current) == "bet 5"
    g = game("4s Jd")  # HG-E2: only 6 ranks win, 牛角尖 costs double: a bad bet
    assert g.edge(g.current) < 0 and g.trustee(g.current) == "pass"
    g = game("3s 6d")
    assert g.trustee(g.current) == "pass"


def test_trustee_bets_a_pair_only_with_a_rich_pot() -> None:
    g = game("7s 7d", ante=100)  # pot 400: 2/50 × 400 > 48/50 × 5
    assert g.trustee(g.current) == "bet 5"
    g = game("7s 7d", ante=10, min_bet=5)  # pot 40: 2/50 × 40 < 48/50 × 5
    assert g.trustee(g.current) == "pass"


def test_escaped_seat_always_passes() -> None:
    g = game("As Kd")
    g.escape(g.current)
    assert g.trustee(g.current) == "pass"


def _random_game(seed: int) -> HotpotGame:
    rng = random.Random(seed)
    stakes = tuple(rng.choice([None, 60, 500, 5000]) for _ in range(4))
    options = rng.choice([{}, {"ante": 10, "min_bet": 1}, {"ante": 1000, "min_bet": 50}])
    n = rng.choice([0, 0, 200, 6000])
    g = HOTPOT.new(Setup(seats=4, seed=seed, stakes=stakes, options=options, coefficient=n))
    assert isinstance(g, HotpotGame)
    while not g.is_over():
        seat = g.current
        if rng.random() < 0.05:
            g.escape(rng.randrange(4))
        action = g.trustee(seat)
        span = g.bet_range(seat)
        assert action == "pass" or (span is not None and span[0] == int(action.split()[1]))
        if seat not in g.escaped and span is not None and rng.random() < 0.5:
            action = f"bet {rng.randint(*span)}"
        g.apply(seat, action)
    return g


def test_many_games_conserve_points_replay_and_respect_limits() -> None:
    spec_loss = HOTPOT.max_loss
    for seed in range(120):
        g = _random_game(seed)
        out = g.outcome()
        assert sum(out.points) == 0
        assert out.scores == tuple((p > 0) - (p < 0) for p in out.points)
        assert g.turn <= 20
        bound = spec_loss({**HOTPOT.options, **g.setup.options}, 4)
        for seat, stake in enumerate(g.setup.stakes):
            assert out.points[seat] >= -bound
            if stake is not None:
                assert out.points[seat] >= -stake
        n = max(g.setup.coefficient, 1)  # the caps are coins: beans, or points as coins
        for turn in g.history:
            assert turn.action != "bet" or turn.bet * n <= 100_000
            assert turn.delta * n >= -200_000
        again = HOTPOT.from_record(g.to_record())
        assert snapshot(again) == snapshot(g) and again.outcome() == out


def test_trustee_always_legal() -> None:
    for seed in range(40):
        g = HOTPOT.new(Setup(seats=4, seed=seed))
        while not g.is_over():
            seat = g.to_act()[0]
            action = g.trustee(seat)
            assert action in g.legal_actions(seat)
            g.apply(seat, action)


def test_views_are_public() -> None:
    g = game("2s Kd")
    views = [g.view(s) for s in (None, 0, 1, 2, 3)]
    assert all(v.seats == views[0].seats and v.lines == views[0].lines for v in views)
    assert views[0].seats[g.current].cards == "Kd 2s"
    assert views[1 + g.current].hand == "Kd 2s"
    keys = [t.key for t in views[0].lines]
    assert keys[:3] == ["hotpot.line.pot", "hotpot.line.turn", "hotpot.line.rules"]
    assert "hotpot.line.hint" in keys and "hotpot.line.limits" in keys
    hint = next(t for t in views[0].lines if t.key == "hotpot.line.hint")
    assert hint.args["win"] == "3 4 5 6 7 8 9 T J Q" and hint.args["post"] == "2 K"


def _texts(value: Any) -> Iterator[Text]:
    if isinstance(value, Text):
        yield value
        for arg in value.args.values():
            yield from _texts(arg)
    elif isinstance(value, View):
        yield from _texts(value.phase)
        for sv in value.seats:
            yield from _texts(sv.role)
            yield from _texts(sv.status)
        yield from _texts(list(value.lines))
    elif isinstance(value, Choice):
        yield from _texts(value.label)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _texts(v)


def test_every_text_key_exists_in_both_locales() -> None:
    seen: set[str] = set()

    def check(text: Text) -> None:
        seen.add(text.key)
        for locale in ("zh-CN", "en-US"):
            args = {k: ("x" if isinstance(v, Text) else v) for k, v in text.args.items()}
            TEXTS[locale][text.key].format_map(args)

    for seed in range(40):
        rng = random.Random(seed)
        stakes = (None, None, None, 130) if seed % 4 == 0 else ()
        g = HOTPOT.new(Setup(seats=4, seed=seed, stakes=stakes))
        while True:
            for t in _texts(g.view(None)):
                check(t)
            if g.is_over():
                break
            for t in _texts(g.choices(g.current)):
                check(t)
            span = g.bet_range(g.current)
            action = "pass" if span is None or rng.random() < 0.4 else f"bet {span[1]}"
            g.apply(g.current, action)
        for t in _texts(list(g.outcome().lines)):
            check(t)
    for key in (
        "hotpot.turn.between",
        "hotpot.turn.outside",
        "hotpot.turn.post",
        "hotpot.turn.consecutive",
        "hotpot.turn.pass",
        "hotpot.line.hint_pair",
        "hotpot.line.end_turns",
        "hotpot.line.end_empty",
    ):
        assert key in seen, key


def test_max_loss_bound() -> None:
    # Defaults (ante 10): the pot can reach 5,000 before the 4th turn (a loss of 20,000),
    # then every later loss may hit the 200,000 cap.
    assert HOTPOT.max_loss(HOTPOT.options, 4) == 10 + 20_000 + 4 * 200_000
    assert worst_loss(10, 4, 4, 100_000, 200_000) == 10 + 4 * (40 + 160 + 800 + 4000)
    options = {**HOTPOT.options, "ante": 1, "max_bet": 50, "loss_cap": 50}
    assert HOTPOT.max_loss(options, 4) == 1 + 5 * 50


def test_cards_module_card_type() -> None:
    assert isinstance(game("2s Kd").open[0], Card)


def test_every_choice_applies() -> None:
    for seed in range(20):
        g = HOTPOT.new(Setup(seats=4, seed=seed))
        while not g.is_over():
            seat = g.current
            for choice in g.choices(seat):
                copy = HOTPOT.from_record(g.to_record())
                assert copy.apply(seat, choice.action) in g.legal_actions(seat)
            g.apply(seat, g.trustee(seat))
