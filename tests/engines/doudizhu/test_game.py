"""一局斗地主 through the common game interface: bidding, 叫/抢/明牌/加倍, redeals, records,
bad input, privacy of views, texts, buttons and the card picker."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator

import pytest
from ddz_support import SPEC, new, play_out, rig

from engines.base import ESCAPE, Setup, Text, Timeout
from engines.doudizhu import SPECS, ClassicGame, DoudizhuGame, HappyGame, parse_cards
from engines.doudizhu.notation import format_cards
from engines.doudizhu.texts import TEXTS
from engines.errors import IllegalActionError, NotationError, OptionError


# --- specs and options -------------------------------------------------------------------------
def test_specs() -> None:
    keys = [s.key for s in SPECS]
    assert keys == [
        "doudizhu",
        "doudizhu_happy",
        "doudizhu_2p",
        "doudizhu_hot",
        "doudizhu_four",
        "doudizhu_wild",
        "doudizhu_mala",
        "doudizhu_five",
    ]
    # 欢乐斗地主 climbs 004's own ladder, made for its 底分 4 (the classic one is 10x flatter).
    assert SPEC["doudizhu"].level_table == "doudizhu"
    assert SPEC["doudizhu_happy"].level_table == "mianduimian"
    for spec in SPECS:
        assert spec.min_seats == spec.max_seats == spec.seats_default
        assert spec.max_loss(spec.options, spec.seats_default) is None
        assert set(spec.phases) <= {"bid", "grab", "show", "double", "play", "blind", "dao", "reveal"}
    assert SPEC["doudizhu"].options == {
        "doubling": False, "base": 1, "max_deals": 3, "counter": "auto"
    }
    assert SPEC["doudizhu_happy"].options["double_threshold"] == 0
    assert SPEC["doudizhu"].game is ClassicGame and SPEC["doudizhu_happy"].game is HappyGame


@pytest.mark.parametrize(
    ("key", "options"),
    [
        ("doudizhu", {"colour": 1}),
        ("doudizhu", {"doubling": 1}),
        ("doudizhu", {"base": 0}),
        ("doudizhu", {"base": "2"}),
        ("doudizhu_happy", {"double_threshold": -1}),
        ("doudizhu_happy", {"mingpai": "yes"}),
        ("doudizhu_happy", {"max_deals": 0}),  # 欢乐 redeals until someone calls: no option
        ("doudizhu", {"base": 10**30}),  # beyond what settlement holds
        ("doudizhu", {"max_deals": 0}),
        ("doudizhu_happy", {"multiplier": 0}),
        ("doudizhu_happy", {"double_threshold": 10**13}),
    ],
)
def test_bad_options(key: str, options: dict[str, object]) -> None:
    with pytest.raises(OptionError):
        SPEC[key].new(Setup(seats=3, seed=1, options=options))
    # The room's options are checked when the room is configured, before any hand.
    with pytest.raises(OptionError) as err:
        SPEC[key].validate(options)
    assert err.value.text is not None and err.value.text.key.startswith("err.")


def test_seats_must_match_the_variant() -> None:
    for spec in SPECS:
        for seats in (1, 4, 5):
            if seats != spec.seats_default:
                with pytest.raises(OptionError):
                    spec.new(Setup(seats=seats, seed=1))


def test_every_phase_is_declared() -> None:
    for spec in SPECS:
        seen = set()
        for seed in range(30):
            game = spec.new(Setup(seats=spec.seats_default, seed=seed, options={}))
            while not game.is_over():
                seen.add(game.phase())
                seat = game.to_act()[0]
                game.apply(seat, game.trustee(seat))
        assert seen <= set(spec.phases), (spec.key, seen)


# --- the deal -----------------------------------------------------------------------------------
def test_deal_is_seeded_17_17_17_and_3() -> None:
    a, b, c = new(seed=11), new(seed=11), new(seed=12)
    assert a.snapshot() == b.snapshot() != c.snapshot()
    assert [sum(h) for h in a.hands] == [17, 17, 17] and sum(a.kitty) == 3
    total = [sum(h[r] for h in a.hands) + a.kitty[r] for r in range(15)]
    assert total == [4] * 13 + [1, 1]


def test_first_bidder_from_seed_then_carry_rotates() -> None:
    firsts = {new(seed=s).first for s in range(40)}
    assert firsts == {0, 1, 2}  # 由系统选定: chosen by the seeded generator
    game = new(seed=3, carry={"first": 2})
    assert game.to_act() == (2,)
    play_out(game)
    assert game.next_carry() == {"first": 0}
    assert new(seed=4, carry=game.next_carry()).to_act() == (0,)


# --- classic 叫分 ------------------------------------------------------------------------------------
def test_classic_bidding() -> None:
    game = new(seed=2, carry={"first": 1})
    assert game.phase() == "bid" and game.to_act() == (1,)
    assert game.legal_actions(1) == ["bid 1", "bid 2", "bid 3", "nobid"]
    assert game.legal_actions(0) == []
    assert game.apply(1, "1分") == "bid 1"
    assert game.legal_actions(2) == ["bid 2", "bid 3", "nobid"]
    with pytest.raises(IllegalActionError, match="higher than 1"):
        game.apply(2, "bid 1")
    assert game.apply(2, "不叫") == "nobid"
    assert game.apply(0, "bid 2") == "bid 2"
    # everyone bid once: the highest bidder is landlord and takes the kitty face up
    assert game.landlord == 0 and game.phase() == "play" and game.to_act() == (0,)
    assert sum(game.hands[0]) == 20
    assert game.base_score() == 2


def test_bid_three_ends_the_bidding() -> None:
    game = new(seed=2, carry={"first": 0})
    assert game.apply(0, "bid 3") == "bid 3"
    assert game.landlord == 0 and game.phase() == "play"


def test_all_pass_redeals_and_rotates_then_voids() -> None:
    game = new(seed=2, carry={"first": 0})
    first_deal = game.snapshot()["hands"]
    for seat in (0, 1, 2):
        game.apply(seat, "nobid")
    assert game.deal_no == 1 and not game.is_over()
    assert game.snapshot()["hands"] != first_deal  # a new shuffle from the same stream
    assert game.to_act() == (1,)  # the next seat bids first in the new deal
    assert "ddz.line.redeal" in [t.key for t in game.view(None).lines]
    for seat in (1, 2, 0, 2, 0, 1):
        game.apply(seat, "pass")
    # max_deals = 3 deals without a landlord: the hand is void (流局) and ends
    assert game.is_over() and game.void
    out = game.outcome()
    assert out.points == (0, 0, 0) and out.winners == ()
    assert out.lines[0].key == "ddz.out.void"
    assert game.next_carry() == {"first": 0}
    replay = SPEC["doudizhu"].from_record(game.to_record())
    assert replay.snapshot() == game.snapshot()


def test_max_deals_option() -> None:
    game = new(seed=2, carry={"first": 0}, options={"max_deals": 1})
    for seat in (0, 1, 2):
        game.apply(seat, "nobid")
    assert game.is_over() and game.void


# --- happy 叫/抢地主 ----------------------------------------------------------------------------------
def happy(seed: int = 3, first: int = 0, **options: object) -> DoudizhuGame:
    opts = {"mingpai": False} | options
    return new("doudizhu_happy", seed=seed, carry={"first": first}, options=opts)


def test_grab_sequence_and_caller_grabs_back() -> None:
    game = happy()
    assert game.phase() == "bid" and game.legal_actions(0) == ["call", "nocall"]
    assert game.apply(0, "叫地主") == "call"
    assert game.phase() == "grab" and game.to_act() == (1,)
    assert game.apply(1, "抢地主") == "grab"
    assert game.apply(2, "grab") == "grab"
    # the caller's own one chance comes last (003 三.1: each player exactly once)
    assert game.to_act() == (0,)
    assert game.apply(0, "grab") == "grab"
    assert game.landlord == 0 and game.grabs == 3
    assert game.multiplier() == 8  # each grab ×2 (003 三.3)
    assert game.phase() == "double"


def test_decliners_cannot_grab() -> None:
    game = happy(first=0)
    game.apply(0, "不叫")
    game.apply(1, "call")
    asked = []
    while game.phase() == "grab":
        seat = game.to_act()[0]
        asked.append(seat)
        game.apply(seat, "grab" if seat == 2 else "nograb")
    assert 0 not in asked  # 凡是有过“不叫地主”操作的玩家无法进行“抢地主” (003 三.4)
    assert asked == [2, 1]
    assert game.landlord == 2 and game.grabs == 1


def test_nobody_grabs_caller_is_landlord() -> None:
    game = happy(first=1)
    game.apply(1, "call")
    game.apply(2, "nograb")
    game.apply(0, "不抢")
    assert game.landlord == 1 and game.grabs == 0 and game.multiplier() == 1


def test_happy_all_decline_redeals() -> None:
    game = happy(first=2)
    for seat in (2, 0, 1):
        game.apply(seat, "nocall")
    assert game.deal_no == 1 and game.to_act() == (0,)


def test_happy_redeals_until_someone_calls() -> None:
    # 003 二: "如果都不叫，则重新发牌，重新叫牌，直到有人叫地主为止": no void hand, however
    # many deals nobody calls in.
    game = happy(first=0, mingpai=False)
    for _ in range(10):
        first = game.to_act()[0]
        for i in range(3):
            game.apply((first + i) % 3, "nocall")
    assert game.deal_no == 10 and not game.is_over() and not game.void
    game.apply(game.to_act()[0], "call")
    play_out(game)
    assert game.landlord is not None and not game.void


def test_happy_trustee_hands_end_on_every_seed() -> None:
    # A seeded proof that redealing until someone calls ends: 200 trustee hands, each over
    # in a few deals, none void.
    deals = []
    for seed in range(200):
        game = new("doudizhu_happy", seed=seed)
        play_out(game)
        assert not game.void and game.landlord is not None
        deals.append(game.deal_no)
    assert max(deals) < 10


def test_happy_grab_needs_grab_phase() -> None:
    game = happy()
    with pytest.raises(IllegalActionError):
        game.apply(0, "grab")
    with pytest.raises(IllegalActionError):
        game.apply(0, "bid 2")  # no 叫分 in the happy rules


# --- 明牌: an offer, never a step ----------------------------------------------------------------
def offer_actions(game: DoudizhuGame) -> list[list[str]]:
    return [[c.action for c in game.open_offers(s)] for s in range(game.n)]


@pytest.mark.parametrize("key", ["doudizhu_happy", "doudizhu_2p", "doudizhu_hot", "doudizhu_wild"])
def test_a_hand_where_nobody_shows_goes_straight_to_calling(key: str) -> None:
    spec = SPEC[key]
    game = spec.new(Setup(seats=spec.min_seats, seed=8, carry={"first": 0}))
    assert isinstance(game, DoudizhuGame)
    # No 明牌 step to answer or time out: the first caller acts at once, every seat has seen
    # its whole deal, and 明牌 ×3 is open to every seat without putting anyone in to_act
    # (二人: 发牌明牌 ×4 until the calling's first answer, 004 五.3; test_two_player.py).
    x = 4 if key == "doudizhu_2p" else 3
    assert game.phase() == "bid" and game.to_act() == (0,)
    assert game.legal_actions(0) == ["call", "nocall"] or key == "doudizhu_hot"
    assert all(game.view(s).hand == format_cards(tuple(game.hands[s])) for s in range(game.n))
    assert offer_actions(game) == [[f"show {x}"]] * game.n
    assert all(not game.legal_actions(s) for s in range(1, game.n))
    assert game.open_offers(1)[0].label == Text("ddz.choice.show", {"x": x})


def test_show_offer_values_by_phase() -> None:
    game = happy(seed=8, mingpai=True)
    assert offer_actions(game) == [["show 3"]] * 3  # while the landlord is chosen
    game.apply(0, "call")
    assert game.phase() == "grab" and offer_actions(game) == [["show 3"]] * 3
    game.apply(1, "nograb")
    game.apply(2, "nograb")
    # the landlord took the kitty: ×2 for it alone (003 四.4), gone for the farmers
    assert game.landlord == 0 and game.phase() == "double"
    assert offer_actions(game) == [["show 2"], [], []]
    for seat in game.to_act():
        game.apply(seat, "nodouble")
    assert game.phase() == "play" and offer_actions(game) == [["show 2"], [], []]
    game.apply(0, game.legal_actions(0)[0])  # its first play closes it
    assert offer_actions(game) == [[], [], []]


def test_showing_out_of_turn_keeps_the_turn_and_multiplies() -> None:
    game = happy(seed=8, mingpai=True)
    assert game.apply(2, "明牌") == "show 3"  # seat 2 is not to act: an offer needs no turn
    assert game.to_act() == (0,) and game.phase() == "bid"
    assert game.shown == [0, 0, 3] and game.multiplier() == 3
    assert game.view(None).seats[2].cards == game.view(2).hand  # the table sees the hand
    assert game.view(0).seats[2].cards == game.view(2).hand
    assert game.view(None).seats[2].status == Text("ddz.status.show", {"x": 3})
    assert game.open_offers(2) == () and game.log == [(2, "show 3")]
    game.apply(0, "call")
    game.apply(1, "nograb")
    game.apply(2, "nograb")
    assert game.apply(0, "show 2") == "show 2"  # the landlord too: the largest factor applies
    assert game.shown == [2, 0, 3] and game.multiplier() == 3
    again = SPEC["doudizhu_happy"].from_record(game.to_record())
    assert again.snapshot() == game.snapshot()


def test_landlord_shows_for_two() -> None:
    game = happy(seed=8, mingpai=True, doubling=False)
    game.apply(0, "call")
    game.apply(1, "nograb")
    game.apply(2, "nograb")
    assert game.phase() == "play" and game.to_act() == (0,)
    assert game.open_offers(0)[0].label == Text("ddz.choice.show", {"x": 2})
    assert game.apply(0, "show") == "show 2"
    assert game.multiplier() == 2 and game.to_act() == (0,)
    assert game.view(1).seats[0].cards == format_cards(tuple(game.hands[0]))


def test_a_stale_show_is_refused_and_changes_nothing() -> None:
    game = happy(seed=8, mingpai=True, doubling=False)
    game.apply(0, "call")
    game.apply(1, "nograb")
    game.apply(2, "nograb")
    before = state(game)
    with pytest.raises(IllegalActionError) as err:
        game.apply(1, "show 3")  # a farmer's offer lapsed when the landlord was chosen
    assert err.value.text == Text("err.ddz.show_closed", {"now": "—"})
    with pytest.raises(IllegalActionError) as err:
        game.apply(0, "show 3")  # the landlord's is ×2 now: a ×3 click is not taken as ×2
    assert err.value.text == Text("err.ddz.show_closed", {"now": "show 2"})
    assert state(game) == before and game.log[-1] == (2, "nograb")
    for locale in ("zh-CN", "en-US"):
        assert "show 2" in TEXTS[locale]["err.ddz.show_closed"].format(now="show 2")


def test_all_decline_makes_the_first_shower_landlord() -> None:
    game = happy(seed=8, mingpai=True)
    game.apply(2, "show")
    game.apply(1, "show")
    for seat in (0, 1, 2):
        game.apply(seat, "nocall")
    # 都不叫 but someone showed: the first 明牌 player is landlord, no redeal (003 二.3)
    assert game.deal_no == 0 and game.landlord == 2 and game.multiplier() == 3


def test_no_show_without_mingpai() -> None:
    for game in (happy(seed=8), new("doudizhu", seed=8, carry={"first": 0})):
        assert offer_actions(game) == [[], [], []]
        before = state(game)
        with pytest.raises(IllegalActionError):
            game.apply(1, "show")  # out of turn, and no offer: not your turn
        with pytest.raises(IllegalActionError):
            game.apply(0, "show")
        assert state(game) == before


def test_an_escaped_seat_has_no_offer() -> None:
    game = happy(seed=8, mingpai=True)
    game.escape(2)
    with pytest.raises(IllegalActionError):
        game.apply(2, "show")
    assert game.shown == [0, 0, 0]


# --- 加倍 gating -------------------------------------------------------------------------------------
def test_double_threshold_gates_who_may_double() -> None:
    game = new(
        "doudizhu_happy",
        seed=3,
        carry={"first": 1},
        options={"mingpai": False, "double_threshold": 100},
        stakes=(50, 500, None),
    )
    game.apply(1, "call")
    game.apply(2, "nograb")
    game.apply(0, "nograb")
    # landlord 1 needs every seat above 100 (seat 0 has 50): no; farmer 0 itself: no;
    # farmer 2 (unlimited) and the landlord (500): yes (003 五.4-5)
    assert game.phase() == "double" and game.to_act() == (2,)
    assert [game.may_double(s) for s in range(3)] == [False, False, True]
    with pytest.raises(IllegalActionError):
        game.apply(1, "double")
    game.apply(2, "double")
    assert game.phase() == "play"


def test_zero_threshold_lets_anyone_double_and_settles_pairwise() -> None:
    game = new(
        "doudizhu_happy",
        seed=3,
        carry={"first": 0},
        options={"mingpai": False},
        stakes=(1, 1, 1),
    )
    game.apply(0, "call")
    game.apply(1, "nograb")
    game.apply(2, "nograb")
    assert set(game.to_act()) == {0, 1, 2}
    game.apply(0, "double")
    game.apply(1, "double")
    game.apply(2, "nodouble")
    play_out(game)
    stake = game.base_score() * game.multiplier()
    sign = 1 if game.winner == 0 else -1
    # 倍数×底分×自己加倍数×对手加倍数, landlord against each farmer
    assert game.outcome().points == (sign * 6 * stake, -sign * 4 * stake, -sign * 2 * stake)


def test_nobody_eligible_skips_doubling() -> None:
    game = new(
        "doudizhu_happy",
        seed=3,
        carry={"first": 0},
        options={"mingpai": False, "double_threshold": 1000},
        stakes=(10, 10, 10),
    )
    game.apply(0, "call")
    game.apply(1, "nograb")
    game.apply(2, "nograb")
    assert game.phase() == "play"


def test_happy_base_is_004s_four() -> None:
    game = happy(first=0)
    game.apply(0, "call")
    assert game.base_score() == 4
    assert happy(base=1).base_score() == 1


@pytest.mark.parametrize("key", ["doudizhu", "doudizhu_happy", "doudizhu_2p"])
def test_a_timed_out_double_is_no_double_and_no_miss(key: str) -> None:
    """加倍 is an optional answer in a timed window (003/004): when the window passes, the seat
    has not doubled, and that counts as no miss (so it never puts the seat on 托管)."""
    options: dict[str, object] = {"doubling": True} if key == "doudizhu" else {}
    seats = SPEC[key].min_seats
    for seed in range(40):
        game = SPEC[key].new(Setup(seats=seats, seed=seed, options=options))
        while not game.is_over() and game.phase() not in ("double", "play"):
            seat = game.to_act()[0]
            game.apply(seat, game.legal_actions(seat)[0])
        if game.phase() == "double":
            break
    else:
        pytest.fail(f"{key}: no seed reached 加倍")
    before = game.multiplier()
    waiting = list(game.to_act())
    assert waiting and all(
        game.timeout_action(s) == Timeout("nodouble", miss=False) for s in waiting)
    for seat in waiting:
        game.apply(seat, game.timeout_action(seat).action)
    assert game.multiplier() == before  # nobody's stake grew unasked
    assert game.phase() != "double" and game.timeout_action(game.to_act()[0]).miss


# --- records -------------------------------------------------------------------------------------
def random_game(key: str, seed: int, rng: random.Random, escape: bool = False) -> DoudizhuGame:
    options: dict[str, object] = {"doubling": True} if key == "doudizhu" else {}
    game = new(key, seed=seed, options=options)
    while not game.is_over():
        seats = game.to_act()
        seat = seats[rng.randrange(len(seats))]
        if escape and rng.random() < 0.02:
            game.escape(seat)
        shower = rng.randrange(game.n)
        if game.open_offers(shower) and rng.random() < 0.1:
            game.apply(shower, "show")  # 明牌, in turn or not: replayed from the log too
            continue
        if rng.random() < 0.5:
            game.apply(seat, game.trustee(seat))
        else:
            actions = game.legal_actions(seat)
            game.apply(seat, actions[rng.randrange(len(actions))])
    return game


@pytest.mark.parametrize("key", ["doudizhu", "doudizhu_happy"])
def test_replay_from_record_is_the_same_state(key: str) -> None:
    rng = random.Random(7)
    for seed in range(25):
        game = random_game(key, seed, rng, escape=True)
        again = SPEC[key].from_record(game.to_record())
        assert again.snapshot() == game.snapshot()
        assert again.outcome() == game.outcome()
        text = game.to_text()
        assert type(game).from_text(text).snapshot() == game.snapshot()
        assert sum(game.outcome().points) == 0


def test_record_holds_escape_entries() -> None:
    game = new(seed=1)
    game.escape(1)
    assert game.to_record()["log"] == [[1, ESCAPE]]
    assert SPEC["doudizhu"].from_record(game.to_record()).escaped == {1}


# --- full seeded hands -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("key", "seed"), [("doudizhu", 2024), ("doudizhu_happy", 2024), ("doudizhu", 7)]
)
def test_full_seeded_trustee_hand(key: str, seed: int) -> None:
    game = new(key, seed=seed, carry={"first": 0})
    play_out(game)
    out = game.outcome()
    assert sum(out.points) == 0
    replay = SPEC[key].new(Setup(seats=3, seed=seed, carry={"first": 0}))
    for seat, action in game.log:
        replay.apply(seat, action)
    assert replay.snapshot() == game.snapshot()
    landlord = game.landlord
    assert landlord is not None and game.winner is not None
    stake = game.base_score() * game.multiplier()
    sign = 1 if game.winner == landlord else -1
    assert out.points[landlord] == sign * 2 * stake
    # every played card came from the deal: hands + played = the deck
    played = [0] * 15
    for _, action in game.log:
        if (
            action not in {"pass"}
            and not action.startswith(("bid", "no"))
            and action not in {"call", "grab", "double"}
            and not action.startswith("show")
        ):
            for r, c in enumerate(parse_cards(action)):
                played[r] += c
    assert [played[r] + sum(h[r] for h in game.hands) for r in range(15)] == [4] * 13 + [1, 1]


# --- bad input changes nothing ------------------------------------------------------------------
def state(game: DoudizhuGame) -> tuple[object, ...]:
    return (game.snapshot(), list(game.log), sorted(game.escaped))


def in_play() -> DoudizhuGame:
    game = new(seed=5, carry={"first": 0})
    rig(game, ["3333456789TJJQQQA", "44455566677788899", ""], "KA2")
    game.apply(0, "bid 3")
    return game


@pytest.mark.parametrize(
    ("seat", "text", "error"),
    [
        (0, "33X", NotationError),
        (0, "", NotationError),
        (0, "44", IllegalActionError),  # cards not held
        (0, "3345", IllegalActionError),  # not a pattern
        (0, "pass", IllegalActionError),  # the leader cannot pass
        (0, "bid 2", IllegalActionError),  # wrong phase
        (0, "double", IllegalActionError),
        (1, "5", IllegalActionError),  # not this seat's turn
        (7, "5", IllegalActionError),
    ],
)
def test_bad_input_in_play_changes_nothing(seat: int, text: str, error: type[Exception]) -> None:
    game = in_play()
    before = state(game)
    with pytest.raises(error):
        game.apply(seat, text)
    assert state(game) == before


def test_not_beating_changes_nothing() -> None:
    game = in_play()
    game.apply(0, "9")
    before = state(game)
    for text in ("5", "44", "456789", "9"):
        with pytest.raises(IllegalActionError):
            game.apply(1, text)
    with pytest.raises(IllegalActionError, match="does not beat 9"):
        game.apply(1, "7")
    assert state(game) == before
    assert game.apply(1, "不出") == "pass"


@pytest.mark.parametrize(
    "text", ["33", "grab", "call", "bid 1", "bid 4", "叫地主", "??", "bid 1 2", "double", "show"]
)
def test_bad_input_in_bidding_changes_nothing(text: str) -> None:
    game = new(seed=5, carry={"first": 0})
    game.apply(0, "bid 1")
    before = state(game)
    with pytest.raises((IllegalActionError, NotationError)):
        game.apply(1, text)
    assert state(game) == before


@pytest.mark.parametrize(
    ("text", "key", "listed"),
    [
        ("bid 5", "err.ddz.phase_takes", "bid 1, bid 2, bid 3, nobid"),
        ("grab", "err.ddz.wrong_phase", "bid 1, bid 2, bid 3, nobid"),
        ("33344", "err.ddz.cards_later", "bid 1, bid 2, bid 3, nobid"),
        ("hello", "err.ddz.phase_takes", "bid 1, bid 2, bid 3, nobid"),
    ],
)
def test_wrong_shape_in_bidding_says_what_the_phase_takes(text: str, key: str, listed: str) -> None:
    # Once answered "'i' is not a card" for `bid 5`.
    game = new(seed=5, carry={"first": 0})
    with pytest.raises(IllegalActionError) as err:
        game.apply(0, text)
    assert err.value.text is not None and err.value.text.key == key
    assert err.value.text.args["actions"] == listed
    for locale in ("zh-CN", "en-US"):
        shown = TEXTS[locale][key].format(
            **{k: (v.key if isinstance(v, Text) else v) for k, v in err.value.text.args.items()}
        )
        assert listed in shown


@pytest.mark.parametrize("text", ["bid 2", "bid 5", "call", "叫地主", "double", "grab 1"])
def test_a_bid_during_play_says_play_cards_or_pass(text: str) -> None:
    game = in_play()
    with pytest.raises(IllegalActionError) as err:
        game.apply(0, text)
    assert err.value.text is not None and err.value.text.key == "err.ddz.play_phase"


def ambiguous_table() -> DoudizhuGame:
    """Seat 0 (landlord) holds four consecutive trios: 333444555666 has two readings."""
    game = new(seed=5, carry={"first": 0})
    rig(game, ["333444555666789TJ", "77788899TTJJQQQKK", ""], "KA2")
    game.apply(0, "bid 3")
    return game


def test_an_ambiguous_lead_names_the_typed_readings() -> None:
    game = ambiguous_table()
    before = state(game)
    with pytest.raises(IllegalActionError) as err:
        game.apply(0, "333444555666")
    assert err.value.text is not None and err.value.text.key == "err.ddz.ambiguous"
    assert "`333444555666 plane`" in str(err.value) and "`333444555666 chain`" in str(err.value)
    assert state(game) == before
    legal = game.legal_actions(0)
    assert legal.count("333444555666 chain") == legal.count("333444555666 plane") == 1
    assert "333444555666" not in legal
    assert game.apply(0, "333444555666 飞机") == "333444555666 plane"
    assert game.last is not None and game.last.pattern.name == "PLANE_SINGLES"
    assert game.log[-1] == (0, "333444555666 plane")  # the log holds the reading


def test_following_picks_the_reading_that_answers() -> None:
    game = new(seed=5, carry={"first": 0})
    rig(game, ["333444555666789TJ", "777888999TTTJQKKK", ""], "KA2")
    game.apply(0, "bid 3")
    game.apply(0, "333444555666 chain")
    assert "777888999TTT chain" in game.legal_actions(1)
    assert game.apply(1, "777888999TTT") == "777888999TTT chain"  # bare: the answering one
    game.apply(2, "pass")
    game.apply(0, "pass")
    game.apply(1, "KKK+J")
    game = new(seed=5, carry={"first": 0})
    rig(game, ["333444555666789TJ", "777888999TTTJQKKK", ""], "KA2")
    game.apply(0, "bid 3")
    game.apply(0, "333444555666 plane")
    assert game.apply(1, "777888999TTT") == "777888999TTT plane"


def test_the_seat_to_play_is_told_how_many_plays_beat_the_table() -> None:
    game = in_play()
    lines = {t.key: t for t in game.view(0).lines}
    assert lines["ddz.line.you_lead"].args["n"] == len(game.legal_actions(0))
    assert "ddz.line.you_lead" not in {t.key for t in game.view(1).lines}
    assert "ddz.line.you_lead" not in {t.key for t in game.view(None).lines}
    game.apply(0, "A")
    lines = {t.key: t for t in game.view(1).lines}
    assert "ddz.line.cannot_beat" in lines  # farmer 1 holds nothing above an A: 要不起
    assert game.legal_actions(1) == ["pass"]
    game.apply(1, "pass")
    lines = {t.key: t for t in game.view(2).lines}
    # farmer 2 holds 2s and both jokers (22 against AA in the reported case)
    assert lines["ddz.line.can_beat"].args["n"] == len(game.legal_actions(2)) - 1
    for locale in ("zh-CN", "en-US"):
        assert "要不起" in TEXTS[locale]["ddz.line.cannot_beat"]


def test_the_final_view_shows_every_seats_cards() -> None:
    # 亮牌: the settlement shows what the losers still held, as the QQ client does.
    game = in_play()
    assert all(sv.cards is None for sv in game.view(None).seats)
    play_out(game)
    public = game.view(None)
    for s, sv in enumerate(public.seats):
        assert sv.cards == format_cards(tuple(game.hands[s]))
    assert any(sv.cards for sv in public.seats)  # the losers' cards


def test_the_hands_follow_a_redeal_and_the_kitty() -> None:
    game = new(seed=2, carry={"first": 0})
    start = [game.view(s).hand for s in range(3)]
    for seat in (0, 1, 2):
        game.apply(seat, "nobid")  # a redeal: every seat's hand changed
    redealt = [game.view(s).hand for s in range(3)]
    assert all(a != b for a, b in zip(start, redealt))
    game.apply(1, "bid 3")  # the landlord takes the kitty; the farmers hold what they held
    after = [game.view(s).hand for s in range(3)]
    assert after[1] != redealt[1] and after[0] == redealt[0] and after[2] == redealt[2]
    assert len((after[1] or "").replace(" ", "")) == 20


def test_over_hand_rejects_everything() -> None:
    game = in_play()
    play_out(game)
    before = state(game)
    with pytest.raises(IllegalActionError, match="over"):
        game.apply(game.winner or 0, "3")
    game.escape(1)  # escaping after the end is a no-op
    assert state(game) == before
    assert game.to_act() == () and game.legal_actions(0) == []
    with pytest.raises(IllegalActionError):
        new(seed=1).outcome()


# --- privacy -------------------------------------------------------------------------------------
def visible_states(key: str) -> Iterator[DoudizhuGame]:
    rng = random.Random(17)
    for seed in range(12):
        game = new(key, seed=seed)
        yield game
        while not game.is_over():
            seats = game.to_act()
            seat = seats[rng.randrange(len(seats))]
            actions = game.legal_actions(seat)
            shower = rng.randrange(3)
            if game.open_offers(shower) and rng.random() < 0.2:
                game.apply(shower, "show")  # any seat, in turn or not
            else:
                game.apply(seat, actions[rng.randrange(len(actions))])
            yield game


@pytest.mark.parametrize("key", ["doudizhu", "doudizhu_happy", "doudizhu_hot"])
def test_views_never_show_hidden_cards(key: str) -> None:
    checked = 0
    for game in visible_states(key):
        kitty = format_cards(game.kitty)
        for viewer in (None, 0, 1, 2):
            view = game.view(viewer)
            if viewer is None:
                assert view.hand is None
            else:
                assert view.hand == format_cards(game.visible_hand(viewer))
            for s, seat_view in enumerate(view.seats):
                if s != viewer and not game.shown[s] and not game.is_over():
                    assert seat_view.cards is None
                assert seat_view.count == sum(game.visible_hand(s))
            texts = [t for t in view.lines if t.key == "ddz.line.kitty"]
            assert bool(texts) == game.kitty_taken
            if texts:
                assert texts[0].args["cards"] == kitty
            for line in view.lines:  # no line carries a hand
                for value in line.args.values():
                    for s in range(3):
                        if sum(game.hands[s]) > 3 and s != viewer:
                            assert value != format_cards(tuple(game.hands[s]))
        checked += 1
    assert checked > 100


# --- texts, buttons, picker ---------------------------------------------------------------------
def emitted(game: DoudizhuGame) -> Iterator[Text]:
    for viewer in (None, 0, 1, 2):
        view = game.view(viewer)
        yield view.phase
        yield from view.lines
        for sv in view.seats:
            if sv.role:
                yield sv.role
            if sv.status:
                yield sv.status
    for seat in game.to_act():
        for choice in game.choices(seat):
            yield choice.label
    for seat in range(game.n):
        for choice in game.open_offers(seat):
            yield choice.label


def test_every_text_key_exists_in_both_locales() -> None:
    rng = random.Random(3)
    keys: set[str] = set()

    def check(text: Text) -> None:
        keys.add(text.key)
        for locale in ("zh-CN", "en-US"):
            template = TEXTS[locale][text.key]
            template.format(**text.args)

    for key in ("doudizhu", "doudizhu_happy", "doudizhu_hot", "doudizhu_mala"):
        for seed in range(40):
            options: dict[str, object] = {"doubling": seed % 2 == 0} if key == "doudizhu" else {}
            game = new(key, seed=seed, options=options)
            while not game.is_over():
                for text in emitted(game):
                    check(text)
                seats = game.to_act()
                seat = seats[rng.randrange(len(seats))]
                if rng.random() < 0.02:
                    game.escape(seat)
                actions = game.legal_actions(seat)
                pick = actions[rng.randrange(len(actions))]
                if game.phase() != "play" and rng.random() < 0.4:
                    pick = actions[0]
                game.apply(seat, pick)
            for text in emitted(game):
                check(text)
            for text in game.outcome().lines:
                check(text)
    void = new(seed=1, carry={"first": 0}, options={"max_deals": 1})
    for seat in (0, 1, 2):
        void.apply(seat, "nobid")
    for text in [*emitted(void), *void.outcome().lines]:
        check(text)
    assert set(TEXTS["zh-CN"]) == set(TEXTS["en-US"])
    assert {"ddz.out.void", "ddz.out.escape", "ddz.status.escaped", "ddz.out.grabs"} <= keys
    assert {"ddz.line.peek", "ddz.choice.peek"} <= keys  # 火拼's 黄金眼
    assert {"ddz.choice.mendao", "ddz.phase.dao_la", "ddz.line.open_card"} <= keys  # 麻辣


def test_choices() -> None:
    game = new(seed=5, carry={"first": 0})
    assert [c.action for c in game.choices(0)] == ["bid 1", "bid 2", "bid 3", "nobid"]
    assert game.choices(1) == []
    game = in_play()
    assert game.choices(0) == []  # leading: no pass button
    game.apply(0, "4")
    assert [c.action for c in game.choices(1)] == ["pass"]
    assert game.choices(1)[0].label == Text("ddz.choice.pass", {})


def test_picker_tokens_form_plays() -> None:
    game = in_play()
    picker = game.picker(0)
    assert picker is not None
    # a farmer keeps its picker while others play: its cards change only when it plays
    waiting = game.picker(1)
    assert waiting is not None and len(waiting.tokens) == 17
    with pytest.raises(IllegalActionError):
        game.apply(1, waiting.action(list(waiting.tokens[:1])))
    assert len(picker.tokens) == 20 == picker.max_values
    assert len(set(picker.tokens)) == len(picker.tokens)  # unique values for a select menu
    assert picker.labels[picker.tokens.index("Ts")] == "10"
    assert picker.template == "{}" and picker.sep == ""
    chosen = [t for t in picker.tokens if t[0] == "3"]
    assert game.apply(0, picker.action(chosen)) == "3333"
    assert new(seed=1).picker(0) is None  # no picker while bidding


def test_legal_actions_are_canonical_and_applicable() -> None:
    game = in_play()
    actions = game.legal_actions(0)
    assert "pass" not in actions and len(actions) == len(set(actions))
    game.apply(0, "4")
    actions = game.legal_actions(1)
    assert actions[-1] == "pass" and "5" in actions
    for action in actions:
        assert copy.deepcopy(game).apply(1, action) == action


@pytest.mark.parametrize(
    ("key", "seats", "hands", "kitty"),
    [
        # dealt by the hall before 明牌 became an offer: the same seed still deals the same cards
        ("doudizhu_happy", 3, ["55679TJJQQKKKA22B", "33446668888TQKA2R", "33445777999TTJJA2"],
         "5QA"),
        ("doudizhu_2p", 2, ["33467788899TTJJKKAA2", "3444566679TTJJKKAABR"], "Q22"),
    ],
)
def test_same_seed_same_deal_as_before_the_offers(
    key: str, seats: int, hands: list[str], kitty: str
) -> None:
    spec = SPEC[key]
    seed = 2024 if seats == 3 else 1
    game = spec.new(Setup(seats=seats, seed=seed, options=spec.validate({})))
    assert [format_cards(tuple(h)) for h in game.hands] == hands
    assert format_cards(game.kitty) == kitty
