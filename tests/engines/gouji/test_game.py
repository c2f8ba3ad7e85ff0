"""够级 / 新够级 games: 够级 windows and 烧牌 (priority, success, 解烧, failure), 让牌, 过牌 per
variant, 开点, 革命 with 要头 and 够死级, 四户乱缠, ranks and team scores (GJ-E1), 进贡 series,
买3, 报牌, seeded self-play, replays, views, errors."""

from __future__ import annotations

import pytest

from engines.base import Setup
from engines.climbing.notation import parse_cards
from engines.errors import IllegalActionError, NotationError, OptionError
from engines.gouji import GOUJI, GOUJI_NEW
from engines.gouji.game import ClassicGoujiGame, GoujiGame, dian_pay

SPECS = (GOUJI_NEW, GOUJI)


def test_a_gouji_play_opens_a_window_for_the_duitou_and_private_burn_claims() -> None:
    g = GoujiGame.position(["AA 5 6", "R22 4", "R22 7", "KK 9", "8 8", "T J"], leader=0)
    g.apply(0, "AA")
    assert g.mode == "window" and set(g.to_act()) == {1, 2, 3}
    assert g.public_to_act() == (3,)  # the 对头 shows; who may burn stays private
    public = g.view(None)
    assert public.phase.key == "base.window.private" and public.seats[1].status is None
    assert public.phase.args["phase"].key == "gouji.phase.window"
    assert g.legal_actions(3) == ["pass"]
    assert g.legal_actions(1) == ["burn 22", "burn 2R", "pass"]
    window = g.window()
    g.apply(3, "pass")
    g.apply(1, "burn 22")
    assert g.window() == window and g.to_act() == (2,)
    assert g.view(None).seats[1].status is None and g.view(3).seats[1].status is None
    assert g.timeout_action(2).action == "pass" and not g.timeout_action(2).miss
    g.apply(2, "burn 22")
    # both alliances claimed: the 够级 player's alliance burns first
    assert g.burn == (2, 0) and g.top is not None and g.top.owner == 2
    assert g.hands[1] == parse_cards("R224", 4)  # the losing claim's cards stay in hand
    # 22 is answered only by seat 2's 对头 (5), who passes: seat 2 opens its points and leads
    assert g.to_act() == (5,)
    g.apply(5, "pass")
    assert 2 in g.kaidian and g.to_act() == (2,) and g.mode == "lead"
    g.apply(2, "7R")  # the last lead: out, 烧成功
    assert g.shao == [(0, 2)] and g.finished == [2] and g.burn is None


def test_a_burn_is_broken_when_the_burners_duitou_beats_it() -> None:
    g = GoujiGame.position(["AA 5 6", "R22 4", "3 3", "KK 9", "8 8", "T J"], leader=0)
    g.apply(0, "AA")
    g.apply(1, "burn 22")
    g.apply(3, "pass")
    assert g.burn == (1, 0) and g.to_act() == (4,)  # seat 1's 对头 is seat 4
    g.apply(4, "pass")
    g.apply(1, "R4")  # the rest was one lead: burned out
    assert g.shao == [(0, 1)]
    g = GoujiGame.position(["AA 5 6", "R22 4 7", "3 3", "KK 9", "BR 8", "8 8"], leader=0)
    g.apply(0, "AA")
    g.apply(1, "burn 22")
    g.apply(3, "pass")
    g.apply(4, "pass")  # seat 4 could have burned the AA too
    assert g.burn == (1, 0) and g.to_act() == (4,)
    g.apply(4, "BR")  # the 对头 beats the burner's 22 with two 花: 解烧
    assert g.burn is None and any(t.key == "gouji.event.jieshao" for t in g.events)


def test_a_burner_leading_without_a_flower_before_the_last_lead_fails_and_is_last() -> None:
    g = GoujiGame.position(["AA 5 6", "R22 7 8", "3 3", "KK 9", "4 4", "T J"], leader=0)
    g.apply(0, "AA")
    assert g.legal_actions(1) == ["burn 22", "pass"]  # 2R would leave 2 leads and no 花
    g.apply(1, "burn 22")
    g.apply(3, "pass")
    g.apply(4, "pass")
    assert g.to_act() == (1,) and g.burn == (1, 0)
    g.apply(1, "7")  # no 花 and not the last lead: 烧失败
    assert g.failed == [1] and not g.active(1) and g.burn is None
    assert g.slots()[1] == 5  # 大落
    with pytest.raises(IllegalActionError):
        g.apply(1, "8")


def test_rang_lets_the_next_two_go_first_then_only_the_duitou_may_answer() -> None:
    g = GoujiGame.position(["5 3", "4 4", "4 4", "9 3", "4 4", "4 4"], leader=0)
    g.apply(0, "5")
    g.apply(1, "pass")
    g.apply(2, "pass")
    assert "rang" in g.legal_actions(3)
    g.apply(3, "rang")
    assert g.to_act() == (4,)
    g.apply(4, "pass")
    g.apply(5, "pass")
    assert g.to_act() == (3,) and "rang" not in g.legal_actions(3)
    g.apply(3, "9")
    # a play made after 让牌: only its 对头 (seat 0) may answer it
    assert g.mode == "window" and g.to_act() == (0,) and g.public_to_act() == (0,)
    with pytest.raises(IllegalActionError) as info:
        g.apply(1, "pass")
    assert info.value.text is not None and info.value.text.key == "err.base.not_your_turn"


@pytest.mark.parametrize("cls, asked", [(GoujiGame, 2), (ClassicGoujiGame, 1)])
def test_pass_reentry_per_variant(cls, asked: int) -> None:
    # seat 1 passed on seat 0's 5; later its 对头 (seat 4) plays: 够级 lets it answer again,
    # 新够级 does not
    g = cls.position(["5 T 3", "3 3", "6 3", "7 3", "8 3", "4 4"], leader=0)
    for action in ("5", "pass", "6", "7", "8", "pass", "pass"):
        g.apply(g.to_act()[0], action)
    assert g.to_act() == (asked,)


def test_the_duitou_may_beat_its_opposites_play_after_all_when_nobody_else_did() -> None:
    g = GoujiGame.position(["5 3", "4 4", "4 4", "9 3", "4 4", "4 4"], leader=0)
    for action in ("5", "pass", "pass", "pass", "pass", "pass"):
        g.apply(g.to_act()[0], action)
    assert g.to_act() == (3,) and g.mode == "turn"
    g.apply(3, "pass")
    assert g.to_act() == (0,) and g.mode == "lead"


@pytest.mark.parametrize("play, opened", [
    ("AA", True), ("2", False), ("B", False), ("BAA", False), ("2AA", False),
])
def test_open_points_on_unanswered_gouji_plays(play: str, opened: bool) -> None:
    # 不开点: 花 plays, a single 2, (新够级) 贴钱
    g = GoujiGame.position([play + " 5", "4 4", "4 4", "3 3", "4 4", "4 4"], leader=0)
    g.apply(0, play)
    if g.mode == "window":
        for seat in g.to_act():
            g.apply(seat, "pass")
    assert (0 in g.kaidian) is opened and g.to_act() == (0,)


def test_classic_opens_money_plays_and_the_duitou_leads_after_passing() -> None:
    g = ClassicGoujiGame.position(["2AA 5", "4 4", "4 4", "3 3", "4 4", "4 4"], leader=0)
    g.apply(0, "2AA")
    g.apply(3, "pass")
    assert 0 in g.kaidian and g.to_act() == (3,)  # 000: "由对头发牌"


def test_new_gouji_a_big_flower_play_starts_a_new_round_at_once() -> None:
    g = GoujiGame.position(["R99 5", "BBAA 4", "4 4", "3 3", "4 4", "4 4"], leader=0)
    g.apply(0, "R99")
    assert g.mode == "lead" and g.to_act() == (0,)
    c = ClassicGoujiGame.position(["R99 5", "RRAA 4", "4 4", "3 3", "4 4", "4 4"], leader=0)
    c.apply(0, "R99")
    assert c.mode == "window"


def revolution_game(revolts: tuple[int, ...]) -> GoujiGame:
    g = GOUJI_NEW.new(Setup(seats=6, seed=5, options=GOUJI_NEW.validate({})))
    plain = parse_cards("3333 4444 5555 6666 7777 8888 9999 TTTT KKKK", 4)
    for seat in revolts:
        g.hands[seat] = plain
    return g


def test_revolution_head_choice_and_dead_gouji_plays() -> None:
    g = revolution_game((0,))
    assert g.phase() == "declare" and len(g.to_act()) == 6
    # bug: the table showed everyone's 宣点 choices, a 革命 button among them whenever some
    # hand held no 2 and no joker; the answers (and who may revolt) are private
    assert g.public_to_act() == ()
    assert [c.action for c in g.choices(0)] == ["declare", "nodeclare", "revolt"]
    g.hands[1] = parse_cards("2 3333", 4)
    with pytest.raises(IllegalActionError) as info:
        g.apply(1, "revolt")  # a 2 in hand: no revolution
    assert info.value.text is not None and info.value.text.key == "err.gouji.no_revolt"
    with pytest.raises(IllegalActionError) as info:
        g.apply(1, "AA")
    assert info.value.text is not None and info.value.text.key == "err.gouji.declare_now"
    g.apply(0, "revolt")
    for seat in range(1, 6):
        g.apply(seat, "declare" if seat == 3 else "nodeclare")
    assert g.phase() == "head" and g.to_act() == (3,)
    assert 3 in g.kaidian  # 革命算自动认点: the 对头 has opened
    assert g.legal_actions(3) == ["yaotou", "wutou"] and g.trustee(3) == "yaotou"
    assert g.view(None).phase.key == "gouji.phase.head"
    g.apply(3, "yaotou")
    assert g.phase() == "play" and not g.active(0) and g.dead_left[3] == 3
    # seat 3's first three 够级 plays are 够死级: only a burn answers; then it is 无头
    hands = ["", "R22 4", "5 5", "AA KK QQQ 3 3", "7 7", "8 8"]
    g.hands = [parse_cards(h, 4) if h else (0,) * 15 for h in hands]
    g.mode, g.turn, g.top = "lead", 3, None
    g.apply(3, "AA")
    assert g.top is not None and g.top.dead and g.dead_left[3] == 2
    assert g.window_seats == {1: "burn"}
    g.apply(1, "pass")
    for play in ("KK", "QQQ"):
        g.apply(3, play)
        for seat in g.to_act():
            assert g.window_seats[seat] == "burn"
            g.apply(seat, "pass")
    assert g.dead_left[3] == 0 and g.wutou[3]
    assert g.to_act() == (3,)  # nobody could burn: seat 3 leads again


def test_two_revolutions_void_the_game() -> None:
    g = revolution_game((0, 2))
    for seat in range(6):
        g.apply(seat, "revolt" if seat in (0, 2) else "nodeclare")
    assert g.is_over() and g.outcome().points == (0,) * 6


def test_ranks_with_a_revolutionary_and_three_in_a_row() -> None:
    g = revolution_game((1,))
    g.revolutionary, g._phase = 1, "play"
    g.finished = [3, 5, 0, 2]
    assert g.slots() == [3, 2, 4, 0, 5, 1]  # own alliance took 头科 and 二科: the rebel is 三科
    g.finished = [3, 0, 5, 2]
    assert g.slots()[1] == 3  # 四科 otherwise


def finish(g: GoujiGame, order: list[int]) -> None:
    g._phase = "play"
    g.finished = order
    g._finish()


def test_gj_e1_team_of_first_third_and_fifth_reached_by_play() -> None:
    # GJ-E1: 头科 + 三科 + 二落 → each 4 + 0 − 2 = 2; the finishing order is played through
    # apply (issue 23: worked examples played, not assembled)
    g = GoujiGame.position(["3 K", "5 A", "6 Q", "7 8", "9 T", "J 4 4"], leader=0)
    moves = [
        (0, "3"), (1, "5"), (2, "6"), (3, "8"), (4, "T"), (5, "J"),
        (0, "K"),  # seat 1 out first: 头科
        (1, "A"),  # seat 2 out: 二科; four seats left, 四户乱缠
        (2, "pass"), (3, "pass"), (4, "pass"), (5, "pass"),
        (2, "Q"),  # the round's last player is out: the next seat leads, and goes out (三科)
        (3, "pass"), (4, "pass"), (5, "pass"),
        (3, "7"),  # 四科
        (4, "9"),  # 二落; seat 6, alone with 44, is 大落
    ]
    for seat, action in moves:
        assert g.to_act() == (seat,), (seat, action)
        assert action in g.legal_actions(seat)
        g.apply(seat, action)
    assert g.is_over() and g.finished == [0, 1, 2, 3, 4]
    assert g.final_slots == [0, 1, 2, 3, 4, 5]
    # alliance 1 (seats 1, 3, 5) is 头科 + 三科 + 二落: 4 + 0 − 2 = 2 each; the other −2
    assert g.outcome().points == (2, -2, 2, -2, 2, -2)
    assert g.outcome().lines[0].args == {f"r{i}": i + 1 for i in range(6)}
    assert g.outcome().lines[1].args == {"a": 2, "b": -2}


def test_three_in_a_row_doubles_and_ends_the_tribute() -> None:
    g = GoujiGame.position(["3"] * 6, leader=0, options={"base": 3})
    finish(g, [0, 2, 4, 1, 3])
    assert g.outcome().points == (36, -36, 36, -36, 36, -36)
    assert g.next_carry() == {"game": 2, "tributes": [], "first": None}


def test_point_tribute_table() -> None:
    # (I declared, they declared, I opened, they opened) -> (I pay, they pay), 000/001
    table = {
        (True, True, True, False): (0, 4), (True, True, False, False): (2, 2),
        (True, True, True, True): (2, 2),
        (False, False, True, False): (0, 1), (False, False, False, False): (1, 1),
        (True, False, True, False): (0, 3), (True, False, False, False): (1, 2),
        (True, False, True, True): (2, 0), (True, False, False, True): (3, 0),
    }
    for (md, td, mo, to), pays in table.items():
        assert dian_pay(md, td, mo, to) == pays
        assert dian_pay(td, md, to, mo) == pays[::-1]


@pytest.mark.parametrize("cls, order", [
    (GoujiGame, ["dian", "shao", "men", "luo"]), (ClassicGoujiGame, ["men", "shao", "dian", "luo"]),
])
def test_tribute_order_of_each_variant(cls, order) -> None:
    g = cls.position(["3"] * 6, leader=0, declared=(0,), options={"beisan": True})
    g.men = [(5, 2)]
    g.shao = [(1, 0)]
    finish(g, [0, 1, 2, 3, 4])
    kinds = [t[3] for t in g.next_carry()["tributes"]]
    assert [k for i, k in enumerate(kinds) if k not in kinds[:i]] == order
    carry = g.next_carry()
    assert carry["first"] == 5  # 憋3: the 大落 leads the next game
    assert [5, 0, 2, "luo"] in carry["tributes"] and [4, 1, 1, "luo"] in carry["tributes"]


def test_tributes_move_the_biggest_cards_and_the_loser_s_tribute_is_returned() -> None:
    plain = GOUJI_NEW.new(Setup(seats=6, seed=8, options=GOUJI_NEW.validate({})))
    carry = {"game": 2, "tributes": [[5, 0, 2, "luo"], [1, 4, 1, "dian"]], "first": None}
    g = GOUJI_NEW.new(Setup(seats=6, seed=8, options=GOUJI_NEW.validate({}), carry=carry))
    assert sum(map(sum, g.hands)) == 216
    top5 = max(r for r, c in enumerate(plain.hands[5]) if c)
    assert g.hands[5][top5] < plain.hands[5][top5] or plain.hands[5][top5] >= 2
    assert sum(g.hands[0]) == sum(plain.hands[0]) and sum(g.hands[5]) == sum(plain.hands[5])
    assert sum(g.hands[1]) == 35 and sum(g.hands[4]) == 37
    with pytest.raises(OptionError):
        GOUJI_NEW.new(Setup(seats=6, seed=8, carry={"game": 9}))


def test_buying_threes_in_beisan() -> None:
    for seed in range(12):
        g = GOUJI_NEW.new(Setup(seats=6, seed=seed, options=GOUJI_NEW.validate({"beisan": True})))
        assert sum(map(sum, g.hands)) == 216
        for seat in range(6):
            assert g.hands[seat][0] or seat in g.revolted
    found = [t.key for seed in range(40) for t in GOUJI_NEW.new(Setup(
        seats=6, seed=seed, options=GOUJI_NEW.validate({"beisan": True}))).start_lines]
    assert "gouji.line.buy3" in found


def test_beisan_threes_go_last_and_together() -> None:
    g = GoujiGame.position(["333 5 R", "4 4", "4 4", "6 6", "4 4", "4 4"], leader=0,
                           options={"beisan": True})
    assert "333" not in g.legal_actions(0) and "3R" not in g.legal_actions(0)
    with pytest.raises(IllegalActionError) as info:
        g.apply(0, "333")
    assert info.value.text is not None and info.value.text.key == "err.gouji.beisan"


def test_card_counts_follow_baopai() -> None:
    g = GOUJI_NEW.new(Setup(seats=6, seed=1, options=GOUJI_NEW.validate({})))
    assert [s.count for s in g.view(None).seats] == [None] * 6  # 报牌: only at 10 or fewer
    g.hands[2] = parse_cards("3456789TJQ", 4)
    assert g.view(None).seats[2].count == 10
    c = GOUJI.new(Setup(seats=6, seed=1, options=GOUJI.validate({})))
    assert [s.count for s in c.view(None).seats] == [36] * 6


def test_four_seats_left_play_freely() -> None:
    g = GoujiGame.position(["", "", "AA 5", "3 3", "KK 4", "6 6"], leader=2)
    g.finished = [0, 1]
    assert g.luanchan()
    g.apply(2, "AA")  # a 够级 play, but in 四户乱缠 everyone answers in turn
    assert g.mode == "turn" and g.to_act() == (3,)


def test_errors_name_the_problem_and_change_nothing() -> None:
    g = GoujiGame.position(["AA 55 6", "R22 4", "3 3", "KK 9", "8 8", "T J"], leader=0)
    before = g.to_text()
    for text, kind, key in [
        ("pass", IllegalActionError, "err.gouji.must_lead"),
        ("56", IllegalActionError, "err.gouji.no_play"),
        ("AAA", IllegalActionError, "err.climb.not_held"),
        ("5X", NotationError, "err.climb.not_card"),
        ("rang", IllegalActionError, "err.gouji.no_rang"),
        ("burn AA", IllegalActionError, "err.gouji.no_burn_now"),
    ]:
        with pytest.raises(kind) as info:
            g.apply(0, text)
        assert info.value.text is not None and info.value.text.key == key, text
        assert g.to_text() == before
    g.apply(0, "55")
    with pytest.raises(IllegalActionError) as info:
        g.apply(1, "4")
    assert info.value.text is not None and info.value.text.key == "err.gouji.no_beat"
    g = GoujiGame.position(["AA 5 6", "R22 4 7", "3 3", "KK 9", "4 4", "T J"], leader=0)
    g.apply(0, "AA")
    for text, key in [("22", "err.gouji.only_duitou"), ("burn 2R", "err.gouji.burn_condition")]:
        with pytest.raises(IllegalActionError) as info:
            g.apply(1, text)
        assert info.value.text is not None and info.value.text.key == key
    with pytest.raises(OptionError):
        GOUJI_NEW.validate({"tribute_order": "sideways"})


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
@pytest.mark.parametrize("beisan", [False, True])
def test_seeded_self_play_legal_zero_sum_replayable_and_private(spec, beisan: bool) -> None:
    for seed in range(3):
        g = spec.new(Setup(seats=6, seed=seed, options=spec.validate({"beisan": beisan})))
        steps = 0
        while not g.is_over():
            for seat in g.to_act():
                action = g.trustee(seat)
                if steps % 3 == 0 or action.startswith("burn"):
                    assert action in g.legal_actions(seat), (g.phase(), g.mode, action)
                if action.startswith("burn"):  # never burns without meeting the conditions
                    from engines.gouji.patterns import burnable
                    assert g.top is not None
                    assert parse_cards(action[5:], 4) in burnable(
                        g.hands[seat], g.top.play, g.beisan, g.big_top)
                if steps % 17 == 0:
                    public = g.view(None)
                    assert public.hand is None and all(s.cards is None for s in public.seats)
                    mine = g.view(seat)
                    assert [s.cards is not None for s in mine.seats] == [
                        x == seat for x in range(6)]
                g.apply(seat, action)
                steps += 1
                break
        out = g.outcome()
        assert sum(out.points) == 0
        assert len({out.points[s] for s in (0, 2, 4)}) == 1
        assert not g.failed  # the trustee never fails a burn
        again = spec.from_record(g.to_record())
        assert again.outcome() == out and again.view(None) == g.view(None)
        nxt = spec.new(Setup(seats=6, seed=seed + 100, options=spec.validate({"beisan": beisan}),
                             carry=g.next_carry()))
        assert sum(map(sum, nxt.hands)) == 216


def test_the_picker_takes_all_36_cards_and_a_burn_window_picks_a_burn() -> None:
    g = GOUJI_NEW.new(Setup(seats=6, seed=2, options=GOUJI_NEW.validate({})))
    for seat in range(6):
        g.apply(seat, "nodeclare")
    picker = g.picker(0)
    assert picker is not None and len(picker.tokens) == 36 == len(set(picker.tokens))
    assert all(b - a <= 25 for a, b in picker.menus()) and len(picker.menus()) >= 2
    w = GoujiGame.position(["AA 5 6", "R22 4", "3 3", "KK 9", "8 8", "T J"], leader=0)
    w.apply(0, "AA")
    burner = w.picker(1)
    assert burner is not None and burner.action(["2", "2#2"]) == "burn 2 2#2"
    assert w.apply(1, burner.action(["2", "2#2"])) == "burn 22"


def test_beating_a_ke_s_gouji_bottom_hand_is_a_dead_gouji() -> None:
    # 头科 goes out with a 够级 底牌; its 对头 beats it: that play is 够死级 (only burns answer)
    g = GoujiGame.position(["AA", "4 4", "5 5", "22 9 9", "6 6", "BB 7"], leader=0)
    g.apply(0, "AA")
    assert g.finished == [0] and g.wutou[3]  # 新够级: a 科's 对家 is 无头
    for seat in g.to_act():
        g.apply(seat, "22" if seat == 3 else "pass")
    assert g.top is not None and g.top.owner == 3 and g.top.dead
    assert g.window_seats == {5: "burn"} and g.public_to_act() == ()


def test_a_wutou_seat_s_gouji_play_is_open_to_everyone_in_turn() -> None:
    g = GoujiGame.position(["3 3", "4 4", "5 5", "AA 9", "22 6", "KK 7"], leader=3)
    g.wutou[3] = True
    g.apply(3, "AA")
    assert g.mode == "turn" and g.to_act() == (4,)
    g.apply(4, "22")  # not its 对头's play, and no burn: 无头 may be beaten by anyone
    assert g.top is not None and g.top.owner == 4


def test_a_five_game_series_then_a_fresh_one() -> None:
    carry: dict = {}
    numbers = []
    for game_no in range(6):
        g = GOUJI_NEW.new(Setup(seats=6, seed=40 + game_no, options=GOUJI_NEW.validate({}),
                                carry=carry))
        numbers.append(g.game_no)
        paid = [t for t in g.start_lines if t.key == "gouji.line.tribute"]
        assert (not paid) if g.game_no == 1 else True
        assert sum(map(sum, g.hands)) == 216
        while not g.is_over():
            seat = g.to_act()[0]
            g.apply(seat, g.trustee(seat))
        carry = g.next_carry()
    assert numbers == [1, 2, 3, 4, 5, 1]
