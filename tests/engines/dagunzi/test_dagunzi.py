"""打滚子: the text's rules (001 《打滚子》, GAMES.md §6) and the decisions of
docs/games/dagunzi.md as tests; seeded self-play, replays and private views."""

from __future__ import annotations

import doctest

import pytest

from bot.host.model import private_digest
from engines.base import Picker, Setup, T, Window
from engines.dagunzi import DAGUNZI, rules
from engines.dagunzi.game import DagunziGame, team
from engines.dagunzi.rules import beats, follow_problem, level_points, level_result
from engines.errors import IllegalActionError, OptionError
from engines.trick.cards import BIG, NCARDS, SMALL, Context, counts_of, ids_of, parse_ids

CTX = Context(5, 1, True)  # 打5, trump ♥; jokers and 2s are 常主


def test_doctests() -> None:
    assert doctest.testmod(rules).failed == 0


def test_trump_order() -> None:
    # 大王 > 小王 > 主花色级牌 > 其它花色级牌 > 主2 > 副2 > 主花色 A…3 > 其他花色 A…3
    order = [CTX.order[c] for c in parse_ids("R B 5h 5s 2h 2s Ah 3h")]
    assert order == sorted(order, reverse=True) and len(set(order)) == 8
    assert CTX.order[parse_ids("5s")[0]] == CTX.order[parse_ids("5c")[0]]
    assert not CTX.is_trump(parse_ids("As")[0]) and CTX.is_trump(parse_ids("2d")[0])


def _p(text: str) -> list[int]:
    return parse_ids(text)


def test_a_different_pattern_is_always_smaller_and_equals_go_to_the_first() -> None:
    lead = _p("9s 9s")
    assert not beats(_p("As Ks"), lead, lead, CTX)  # not a 棒子
    assert beats(_p("Js Js"), lead, lead, CTX)
    assert not beats(_p("9s 9s"), lead, lead, CTX)  # the first played stands
    assert beats(_p("3h 3h"), lead, lead, CTX)  # a trump 棒子 ruffs
    assert not beats(_p("Ac Ac"), lead, lead, CTX)  # another side suit never wins
    assert beats(_p("4h"), _p("As"), _p("3s"), CTX)


@pytest.mark.parametrize(("hand", "lead", "play", "dead", "problem"), [
    ("Ks Ks 4s 3h", "9s", "3h", True, "suit"),          # follow suit first
    ("Ks Ks 4s 3h", "9s 9s", "Ks 4s", True, "bang"),    # 死棒: 打棒必须出棒
    ("Ks Ks 4s 3h", "9s 9s", "Ks 4s", False, None),     # 活棒: 打棒时可以不跟棒
    ("Ks Ks Ks 4s", "9s 9s", "Ks 4s", True, None),      # 没棒有滚子时可以不出滚子
    ("Ks Ks Ks 4s 3s", "9s 9s 9s", "Ks Ks 4s", True, "gun"),  # 打滚子必须出滚子
    ("Ks Ks 4s 3s", "9s 9s 9s", "Ks 4s 3s", True, "bang"),    # …else 棒 + 单张
    ("Ks Ks 4s 3s", "9s 9s 9s", "Ks Ks 3s", True, None),
    ("Ks Qs 4s 3s", "9s 9s 9s", "Ks 4s 3s", True, None),      # …else three singles
    ("Ks Ks Ks 4s 3s", "9s 9s 9s", "Ks 4s 3s", False, None),  # 活棒: need not follow 滚子
    ("Ks 4d 3d", "9s 9s", "Ks 4d", True, None),         # short of the suit: all of it
    ("Ks 4d 3d", "9s 9s", "4d 3d", True, "suit"),
])
def test_follow_duties(hand: str, lead: str, play: str, dead: bool, problem: str | None) -> None:
    assert follow_problem(counts_of(_p(hand)), _p(lead), _p(play), CTX, dead) == problem


def test_levels_and_score_table() -> None:
    assert level_result(120, True, 0) == ("xian", 1)
    assert level_result(150, True, 2 * 1 + 1) == ("xian", 4)  # a 大王 +2, a 小王 +1
    assert level_result(125, False, 3) == ("xian", 0)  # 上台 without levelling
    assert level_result(60, False, 0) == ("zhuang", 1)  # 保底
    assert level_result(60, True, 2) == ("none", 0)
    assert level_points("zhuang", 2) == 6 and level_points("xian", 0) == 1
    assert level_points("xian", 2) == 7 and level_points("none", 0) == 0


def play_out(game: DagunziGame) -> DagunziGame:
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    return game


def _claims(game: DagunziGame) -> list[tuple[int, int, int]]:
    """(deal position, seat, suit): each seat's first 大王 in the dealing order (seat 1 first,
    one card at a time) and the suit of the first suited card dealt to it after."""
    out = []
    for s in range(4):
        dealt = game.dealt[s]
        if BIG in dealt:
            i = dealt.index(BIG)
            suit = next((c // 13 for c in dealt[i + 1:] if c < SMALL), None)
            if suit is not None:
                out.append((4 * i + s, s, suit))
    return sorted(out)


def _shown(seed: int) -> DagunziGame:
    """A match's first hand where every seat dealt a 大王 shows it (亮大王)."""
    game = DAGUNZI.new(Setup(seats=4, seed=seed))
    while game.phase() == "show":
        game.apply(game.to_act()[0], "show")
    return game


def test_first_hand_a_seat_dealt_a_big_joker_may_show_it_and_the_first_dealt_wins() -> None:
    # issue 23: "若第一局没人抢亮大王" implies a choice; the claim was automatic. Decision: a
    # seat dealt a 大王 may show it or not; of those who show, the one dealt a 大王 first is 庄
    # ("先抓到大王的玩家成为庄") and the next suited card dealt to it gives the suit
    for seed in range(12):
        game = DAGUNZI.new(Setup(seats=4, seed=seed))
        claims = _claims(game)
        assert game.phase() == "show" and game.dealer is None and len(game.kitty) == 6
        assert game.to_act() == tuple(sorted(s for _, s, _ in claims))
        assert all(sum(game.hands[s]) == 39 for s in range(4))
        seat = game.to_act()[0]
        assert game.legal_actions(seat) == ["pass", "show"]
        assert [c.action for c in game.choices(seat)] == ["show", "pass"]
        assert game.choices(seat)[0].label.key == "dagunzi.choice.show"
        assert game.timeout_action(seat).action == "pass" and not game.timeout_action(seat).miss
        while game.phase() == "show":
            game.apply(game.to_act()[0], "show")
        _, first, suit = claims[0]
        assert game.dealer == first and game.trump == suit and game.phase() == "bury"
        # the record names the one that took (base's form), not who else showed
        assert Window.took(first, T("dagunzi.took.shown")) in game.view(None).lines


def test_seed_7_the_earliest_big_joker_among_those_shown_makes_the_dealer() -> None:
    # seed 7: 大王 first dealt to seat 4 (card 24), then seat 2 (card 82), then seat 3
    game = DAGUNZI.new(Setup(seats=4, seed=7))
    assert [s for _, s, _ in _claims(game)] == [3, 1, 2]
    game.apply(3, "不亮")
    game.apply(2, "亮大王")
    assert game.phase() == "show"  # seat 2 has not answered yet
    game.apply(1, "show")
    suit = _claims(game)[1][2]
    assert game.dealer == 1 and game.trump == suit and game.phase() == "bury"
    assert game.dealt_kitty is not None  # the 大王 shown is a 亮主: the kitty is shown


def test_nobody_shows_a_big_joker_so_the_kitty_flip_decides() -> None:
    # "若第一局没人抢亮大王，则 4 家都从底牌中翻牌，以翻出最小牌的一家为庄，并以该牌的花色为主花色"
    game = DAGUNZI.new(Setup(seats=4, seed=7))
    kitty = list(game.kitty)
    for seat in game.to_act():
        game.apply(seat, game.timeout_action(seat).action)
    flips = [(c % 13, s, c) for s, c in enumerate(kitty[:4]) if c < SMALL]
    _, seat, card = min(flips)
    assert game.dealer == seat and game.trump == card // 13 and game.phase() == "bury"
    assert game.dealt_kitty is None and not game.dry  # no 亮主: the kitty stays hidden
    assert any(line.key == "dagunzi.line.flipped" for line in game.view(None).lines)


def test_showing_refuses_bad_input_and_changes_nothing() -> None:
    game = DAGUNZI.new(Setup(seats=4, seed=0))
    assert game.to_act() == (0, 3)
    before = game.to_record(), game.view(0), game.view(None)
    with pytest.raises(IllegalActionError):
        game.apply(1, "show")  # seat 2 holds no 大王
    for typed in ("declare 2h", "bury R", "show B", "Ah"):
        with pytest.raises(IllegalActionError) as info:
            game.apply(0, typed)
        assert info.value.text is not None and info.value.text.key == "err.dagunzi.show_now"
    assert (game.to_record(), game.view(0), game.view(None)) == before


def test_the_trustee_shows_a_big_joker_with_a_third_of_the_hand_in_trumps() -> None:
    # seed 7: with the suit its 大王 would name, seat 4 would hold 11 trumps and seat 3 16
    game = DAGUNZI.new(Setup(seats=4, seed=7))
    assert game.trustee(3) == "pass" and game.trustee(2) == "show"
    for seed in range(12):
        game = DAGUNZI.new(Setup(seats=4, seed=seed))
        for _, seat, suit in _claims(game):
            ctx = Context(2, suit, True)
            trumps = sum(1 for c in game.dealt[seat] if ctx.is_trump(c))
            assert game.trustee(seat) == ("show" if trumps >= 13 else "pass"), (seed, seat)


def test_self_play_is_legal_replays_and_carries_the_match() -> None:
    carry: dict = {}
    for seed in range(6):
        mode = "dead" if seed % 2 else "live"
        game = DAGUNZI.new(Setup(seats=4, seed=seed, options=DAGUNZI.validate({"mode": mode}),
                                 carry=carry))
        while not game.is_over():
            seat = game.to_act()[0]
            action = game.trustee(seat)
            if game.phase() not in ("bury", "return"):
                assert action in game.legal_actions(seat)
            game.apply(seat, action)
        outcome = game.outcome()
        assert sum(outcome.points) == 0
        again = DAGUNZI.from_record(game.to_record())
        assert again.outcome() == outcome and again.view(None) == game.view(None)
        nxt = game.next_carry()
        assert game.dealer is not None
        if nxt.get("dealer") is not None:
            expect = (game.dealer + 2) % 4 if game.xian_points < 120 else (game.dealer + 1) % 4
            assert nxt["dealer"] == expect and nxt["score"] == game.xian_points
        carry = nxt
    assert carry != {}


def test_no_view_shows_another_seat_s_hand_and_pickers_fit_45_cards() -> None:
    game = _shown(3)
    dealer = game.to_act()[0]
    picker = game.picker(dealer)
    assert picker is not None and len(picker.tokens) == 45 and picker.max_values == 6
    assert all(0 < b - a <= Picker.MENU_SIZE for a, b in picker.menus())
    for viewer in (None, 0, 1, 2, 3):
        view = game.view(viewer)
        assert all(v.cards is None or s == viewer for s, v in enumerate(view.seats))


def _later(seed: int, **carry: object) -> DagunziGame:
    full = {"levels": [5, 5], "dealer": 0, "score": 100, "jokers": 0, **carry}
    return DAGUNZI.new(Setup(seats=4, seed=seed, carry=full))


def test_declaring_three_jokers_names_any_suit_and_beats_level_cards() -> None:
    game = _later(1)
    game.hands = [[0] * NCARDS for _ in range(4)]
    for s, cards in enumerate(["5h 5h 5h", "B B B", "5s", "R R R"]):
        for c in parse_ids(cards):
            game.hands[s][c] += 1
    game.packet = 3
    game._phase = "declare"
    assert game.to_act() == (0, 1, 2, 3)
    before = [private_digest(game, s) for s in range(4)]
    game.apply(2, "declare 5s")
    # bug: the others' DMs kept offering declarations this one made too weak; their private
    # picture changed, so it is shown anew
    assert all(private_digest(game, s) != before[s] for s in (0, 1, 3))
    game.apply(0, "declare 5h 5h 5h")  # three beat one
    with pytest.raises(IllegalActionError):
        game.apply(2, "declare 5s")
    game.apply(1, "declare B B B c")  # three 小王 name ♣
    assert game.decl is not None and game.decl.suit == 2
    game.apply(3, "亮 R R R d")  # 大王 outranks 小王
    assert game.trump == 3 and game.dealer == 0  # the 庄 stays; the suit is ♦


def test_tribute_from_the_last_score_and_the_return() -> None:
    for seed in range(30):
        game = _later(seed, score=55)  # 25 short of 80: three cards
        if game.phase() == "declare":
            while game.phase() == "declare":
                game.apply(game.to_act()[0], "pass")
        if game.phase() == "return":
            break
    else:
        pytest.fail("no tribute")
    assert game.tribute is not None
    payer, receiver, cards = game.tribute
    assert (payer, receiver) == (3, 0) and len(cards) == 3  # the 庄's 上家 pays the 庄
    top = sorted(ids_of(game.hands[receiver]), key=game.ctx.sort_key, reverse=True)
    assert game.ctx.sort_key(cards[0]) >= game.ctx.sort_key(top[3])
    points_card = next(c for c in ids_of(game.hands[0]) if c < SMALL and c % 13 + 2 in (5, 10, 13)
                       and not game.ctx.is_trump(c))
    with pytest.raises(IllegalActionError):
        game.apply(0, "return " + " ".join([_name(points_card)] + _low_side(game, 2)))
    game.apply(0, "return " + " ".join(_low_side(game, 3)))
    assert game.phase() == "bury" and sum(game.hands[0]) == 45 and sum(game.hands[3]) == 39
    play_out(game)
    assert any(line.key == "dagunzi.line.tribute" for line in game.outcome().lines)


def _name(cid: int) -> str:
    from engines.trick.cards import card_text

    return card_text(cid)


def _low_side(game: DagunziGame, n: int) -> list[str]:
    cards = [c for c in ids_of(game.hands[0]) if not game.ctx.is_trump(c)
             and c % 13 + 2 not in (5, 10, 13)]
    return [_name(c) for c in sorted(cards, key=game.ctx.sort_key)[:n]]


def test_big_jokers_are_buried_before_small_ones_and_others_may_bury_jokers() -> None:
    game = _shown(0)
    dealer = game.to_act()[0]
    game.hands[dealer][BIG] = 1
    game.hands[dealer][SMALL] = 1
    low = [c for c in sorted(ids_of(game.hands[dealer]), key=game.ctx.sort_key)
           if c < SMALL and not game.ctx.is_trump(c)][:4]
    low.append(next(c for c in ids_of(game.hands[dealer]) if game.ctx.is_trump(c) and c < SMALL))
    with pytest.raises(IllegalActionError) as info:
        game.apply(dealer, "bury B " + " ".join(_name(c) for c in low))
    assert info.value.text is not None and info.value.text.key == "err.dagunzi.big_first"
    game.apply(dealer, "bury R " + " ".join(_name(c) for c in low))
    assert game.kitty_shown and not game.dry  # R + five side cards: no 干锅 (decision)
    other = (dealer + 1) % 4
    game.hands[other][BIG] = 0
    game.hands[other][SMALL] = 1
    game.passed = set()
    game._phase = "jokers"
    assert other in game.to_act()
    before = sum(game.hands[other])
    game.apply(other, "bury B")
    assert SMALL in game.kitty and sum(game.hands[other]) == before
    assert len(game.kitty) == 6


def test_the_joker_window_is_private_and_reaches_each_claimant() -> None:
    # bug: the table showed the window's seats and their choices as public buttons
    # ("bury R R" …), telling everyone who held how many jokers; and the claimants' DMs were
    # not refreshed, so they were never offered the claim where they look
    for seed in range(40):
        game = _shown(seed)
        dealer = game.to_act()[0]
        before = [private_digest(game, s) for s in range(4)]
        game.apply(dealer, game.trustee(dealer))
        if game.phase() == "jokers" and len(game.to_act()) >= 2:
            break
    else:
        pytest.fail("no seed opens the joker window to two seats")
    assert game.public_to_act() == ()
    claimants = game.to_act()
    for seat in range(4):
        if seat != dealer:  # the dealer's own hand changed by its burying anyway
            assert (private_digest(game, seat) != before[seat]) == (seat in claimants)
    first, second = claimants[:2]
    assert any(c.action.startswith("bury ") for c in game.choices(first))
    assert game.timeout_action(first).action == "pass" and not game.timeout_action(first).miss
    offered = private_digest(game, second)
    game.apply(first, next(a for a in game.legal_actions(first) if a.startswith("bury ")))
    # while the window is open, another claimant learns nothing of the first one's answer
    # (docs/games/dagunzi.md: the kitty shows as the 庄 buried it until the window closes)
    assert private_digest(game, second) == offered


def test_option_and_carry_errors() -> None:
    with pytest.raises(OptionError):
        DAGUNZI.validate({"mode": "both"})
    with pytest.raises(OptionError):
        DagunziGame(Setup(seats=4, seed=1, carry={"levels": [2, 2], "dealer": 0, "score": "x"}))


def test_dealer_team_and_scores_are_zero_sum_with_specials() -> None:
    game = play_out(DAGUNZI.new(Setup(seats=4, seed=8)))
    game.xian_points = 0
    game._finish()
    assert game.dealer is not None
    pts = game.outcome().points
    assert sum(pts) == 0
    assert all(p == (50 if team(s) == team(game.dealer) else -50) for s, p in enumerate(pts))
    assert game.next_carry() == {"levels": [2, 2], "dealer": None}  # 该轮结束: a new round


def test_gan_guo_is_the_kitty_as_dealt_and_it_may_not_be_replaced() -> None:
    # bug (issue 23): 干锅 was judged on the six cards the 庄 buried, so "干锅时底牌不能替换"
    # never applied. Seed 2024: the 庄 (seat 1) finds As Qh Ad Kd 9d 3d in the kitty, all side
    # cards at trump ♣: 干锅. It must put the kitty back as dealt, and nobody buries jokers.
    game = _shown(2024)
    dealt = sorted(parse_ids("As Qh Ad Kd 9d 3d"))
    assert game.dealer == 0 and game.dry and game.phase() == "bury"
    assert any(line.key == "dagunzi.line.dealt_kitty" for line in game.view(None).lines)
    (choice,) = game.choices(0)  # one button: the kitty back as it came
    assert choice.action.startswith("bury ") and sorted(parse_ids(choice.action[5:])) == dealt
    assert game.picker(0) is None
    low = _low_side(game, 6)
    assert sorted(parse_ids(" ".join(low))) != dealt
    before = game.to_record(), game.view(0)
    with pytest.raises(IllegalActionError) as info:
        game.apply(0, "bury " + " ".join(low))
    assert info.value.text is not None and info.value.text.key == "err.dagunzi.dry_bury"
    assert (game.to_record(), game.view(0)) == before  # refused: nothing changed
    assert game.hands[2][BIG] == 1  # seat 3 could bury its 大王, were it not 干锅
    game.apply(0, game.trustee(0))
    assert game.phase() == "play" and sorted(game.kitty) == dealt
    play_out(game)
    assert game.next_carry().get("jokers", 0) == 0
    assert any(line.key == "dagunzi.line.dry" for line in game.outcome().lines)


def test_a_big_joker_and_five_side_cards_buried_is_no_gan_guo() -> None:
    # bug (issue 23): the natural bury R + five low side cards counted as 干锅 and the 大王's
    # +2 levels were dropped; the dealt kitty (seed 0) is no 干锅, so the buried 大王 counts
    game = _shown(0)
    dealer = game.to_act()[0]
    assert not game.dry and game.hands[dealer][BIG] >= 1
    game.apply(dealer, "bury R " + " ".join(_low_side(game, 5)))
    assert not game.dry and game.kitty_shown and BIG in game.kitty
    while game.phase() == "jokers":
        game.apply(game.to_act()[0], "pass")
    play_out(game)
    assert not any(line.key == "dagunzi.line.dry" for line in game.outcome().lines)
    assert game.next_carry()["jokers"] == 2 * game.kitty.count(BIG) + game.kitty.count(SMALL) >= 2


def test_an_all_points_bury_stops_joker_burying() -> None:
    game = _shown(0)
    dealer = game.to_act()[0]
    for s in range(4):
        game.hands[s][SMALL] = max(1, game.hands[s][SMALL])
    counts = [0] * NCARDS
    pts = []
    for c in ids_of(game.hands[dealer]):
        if c < SMALL and c % 13 + 2 in (5, 10, 13) and counts[c] < game.hands[dealer][c]:
            pts.append(c)
            counts[c] += 1
    game.apply(dealer, "bury " + " ".join(_name(c) for c in pts[:6]))
    assert game.phase() == "play"  # 庄 buried only point cards: nobody may bury jokers


def test_tribute_rounds_the_same_way_below_80_and_above_150() -> None:
    # bug (issue 23): 75 (5 short of 80) paid a card but 155 (5 over 150) paid none. Decision:
    # each started 10 counts on both sides ("每少得10分，多进一张" / "每多得10分便多得一张")
    assert rules.tribute_count(75, 0) == ("xian", 1)
    assert rules.tribute_count(155, 0) == ("zhuang", 1)
    assert rules.tribute_count(150, 0) == ("zhuang", 0)
    assert rules.tribute_count(160, 2) == ("zhuang", 3)
    assert rules.tribute_count(165, 0) == ("zhuang", 2)
    assert rules.tribute_count(70, 0) == ("xian", 1) and rules.tribute_count(65, 0) == ("xian", 2)


def _last_trick(seed: int, before: int, kitty: str) -> DagunziGame:
    """A hand driven to its play, then cut to one card each: the 庄 leads 3s, its 下家 (抓分方)
    takes the trick with R, a K (10 points) falls; the 抓分方 hold ``before`` points and the
    kitty is ``kitty``."""
    game = DAGUNZI.new(Setup(seats=4, seed=seed))
    while game.phase() != "play":
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    assert game.dealer is not None
    d = game.dealer
    game.hands = [[0] * NCARDS for _ in range(4)]
    for s, card in zip((d, d + 1, d + 2, d + 3), ("3s", "R", "4s", "Ks"), strict=True):
        game.hands[s % 4][parse_ids(card)[0]] += 1
    game.kitty = parse_ids(kitty)
    game.xian_points = before
    for s in (d, d + 1, d + 2, d + 3):
        game.apply(s % 4, game.trustee(s % 4))
    assert game.is_over() and game.koudi
    return game


def test_the_300_special_needs_every_point_not_a_doubled_kitty() -> None:
    # bug (issue 23): "抓分方得“300”分" fired on a doubled kitty (265 + 10 won, a 20-point
    # kitty counted twice = 315) though the 庄 side had kept points. Decision: "300" is every
    # point of the three decks: the tricks plus the kitty dug out, counted once
    kept = _last_trick(0, 265, "Kh Th 3c 3c 4c 4c")  # 265 + 10 + 20 = 295 points taken
    assert kept.xian_points == 315
    assert not any(line.key == "dagunzi.line.special" for line in kept.outcome().lines)
    assert max(kept.outcome().points) < 50
    everything = _last_trick(0, 265, "Kh Th 5c 3c 4c 4c")  # 265 + 10 + 25 = 300
    assert any(line.key == "dagunzi.line.special" for line in everything.outcome().lines)
    assert sorted(everything.outcome().points) == [-50, -50, 50, 50]


def _public(game: DagunziGame, watcher: int) -> tuple[object, ...]:
    return (game.view(None).to_json(), game.view(watcher).to_json(), game.public_to_act(),
            game.window(), game.phase())


def _joker_window(extra_eligible: bool) -> DagunziGame:
    """Seed 0 after the 庄 (seat 1) buried R and five low side cards: seat 4 holds a 小王
    and may bury it; seat 2 holds one too, or a 3s in its place (the same count)."""
    game = _shown(0)
    assert game.dealer == 0
    for s in (1, 2, 3):
        for joker in (BIG, SMALL):
            game.hands[s][parse_ids("3s")[0]] += game.hands[s][joker]
            game.hands[s][joker] = 0
    for s in ((1, 3) if extra_eligible else (3,)):
        game.hands[s][parse_ids("3s")[0]] -= 1
        game.hands[s][SMALL] += 1
    game.apply(0, "bury R " + " ".join(_low_side(game, 5)))
    return game


@pytest.mark.parametrize("answer", ["decline", "timeout"])
def test_who_could_bury_a_joker_is_never_shown(answer: str) -> None:
    # hidden information (issue 23): tables that differ only in whether seat 2 may bury a
    # joker look the same to everyone else, while the window is open and after it closes
    with_two, with_one = _joker_window(True), _joker_window(False)
    assert with_two.to_act() == (1, 3) and with_one.to_act() == (3,)
    assert _public(with_two, 2) == _public(with_one, 2)

    def say(game: DagunziGame, seat: int) -> None:
        game.apply(seat, "pass" if answer == "decline" else game.timeout_action(seat).action)

    say(with_two, 1)
    assert with_two.phase() == "jokers"
    assert _public(with_two, 2) == _public(with_one, 2)
    say(with_two, 3)
    say(with_one, 3)
    assert with_two.phase() == with_one.phase() == "play"
    assert _public(with_two, 2) == _public(with_one, 2)
    for game in (with_two, with_one):
        game.apply(0, game.trustee(0))
    assert _public(with_two, 2) == _public(with_one, 2)


def _show_window(extra_eligible: bool) -> DagunziGame:
    """Seed 0's first hand: seat 1 is dealt a 大王 (card 61); seat 4 too (card 80), or a 3s in
    each of its 大王's places (the same deal otherwise)."""
    game = DAGUNZI.new(Setup(seats=4, seed=0))
    if not extra_eligible:
        three = parse_ids("3s")[0]
        game.dealt[3] = [three if c == BIG else c for c in game.dealt[3]]
        game.hands[3][three] += game.hands[3][BIG]
        game.hands[3][BIG] = 0
    return game


@pytest.mark.parametrize("answer", ["decline", "timeout"])
@pytest.mark.parametrize("first", ["show", "pass"])
def test_who_may_show_a_big_joker_is_never_shown(answer: str, first: str) -> None:
    # hidden information (issue 23): first hands that differ only in whether seat 4 was dealt
    # a 大王 look the same to everyone else while the window is open and after it closes,
    # whether seat 1 shows its 大王 (庄) or not (the kitty flip)
    with_two, with_one = _show_window(True), _show_window(False)
    assert with_two.to_act() == (0, 3) and with_one.to_act() == (0,)
    assert with_two.public_to_act() == ()
    for watcher in (0, 1):
        assert _public(with_two, watcher) == _public(with_one, watcher)
    seat4 = "pass" if answer == "decline" else with_two.timeout_action(3).action
    with_two.apply(3, seat4)
    assert with_two.phase() == "show"
    for watcher in (0, 1):
        assert _public(with_two, watcher) == _public(with_one, watcher)
    for game in (with_two, with_one):
        game.apply(0, first)
    assert with_two.phase() == with_one.phase() == "bury"
    assert with_two.dealer == with_one.dealer == (0 if first == "show" else with_two.dealer)
    for watcher in (0, 1):
        assert _public(with_two, watcher) == _public(with_one, watcher)
