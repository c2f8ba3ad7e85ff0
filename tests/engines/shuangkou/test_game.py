"""百变双扣 hands: turns, 接风, results and star doubling (SK-E2), contributions as transfers,
seeded self-play, replays, views and errors that change nothing."""

from __future__ import annotations

import pytest

from engines.base import Setup, Transfer
from engines.climbing.notation import parse_cards
from engines.errors import IllegalActionError, NotationError, OptionError
from engines.shuangkou import SHUANGKOU
from engines.shuangkou.game import ShuangkouGame, contribution, star_multiplier


def play(game: ShuangkouGame, *actions: str) -> None:
    for action in actions:
        game.apply(game.to_act()[0], action)


def play_out(game: ShuangkouGame) -> ShuangkouGame:
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    return game


def test_sk_e2_star_doubling_of_a_double_win() -> None:
    # SK-E2: 双扣 3 → 6 → 12 → 24 → 48 for 5★ … 8★; 9★ and 10★ count as 8★
    assert [3 * star_multiplier(s) for s in (0, 4, 5, 6, 7, 8, 9, 10)] == [
        3, 3, 6, 12, 24, 48, 48, 48]
    assert [contribution(s) for s in range(5, 12)] == [0, 2, 4, 8, 16, 32, 64]


@pytest.mark.parametrize("bomb, stars, each", [
    ("44", 0, 3), ("44444", 5, 6), ("444444", 6, 12), ("4444444", 7, 24), ("44444444", 8, 48),
])
def test_a_double_win_doubled_by_the_winners_stars(bomb: str, stars: int, each: int) -> None:
    # seat 0 holds the bomb and goes out first with it; seat 2 follows out: 双扣
    game = ShuangkouGame.position([bomb, "3", "5", "6"], leader=0)
    assert game.stars[0] == stars
    play(game, bomb, "pass", "pass", "pass")  # nobody beats: 接风, partner seat 2 leads
    assert game.view(None).lines[-1].key == "shuangkou.line.order"
    play(game, "5")
    assert game.is_over() and game.result_kind() == "double"
    out = game.outcome()
    gift = contribution(stars)
    assert out.points == (each + 3 * gift, -each - gift, each - gift, -each - gift)
    assert out.transfers[:2] == (Transfer(1, 0, each, out.transfers[0].reason),
                                 Transfer(3, 2, each, out.transfers[1].reason))
    assert sum(out.points) == 0 and out.winners == (0, 2)


def test_contributions_go_to_a_losing_holder_too() -> None:
    # seat 1 plays 666666 (6★) but its team loses: each other seat still pays it 2 基础分
    game = ShuangkouGame.position(["3 K", "666666 4 5", "A", "7 8 9"], leader=0, base=10)
    play(game, "3", "666666", "pass", "pass", "pass")  # the bomb stands: seat 1 leads
    play(game, "4", "A", "pass", "pass", "pass")  # seat 2 is out first; 接风 to seat 0
    play(game, "K")
    out = game.outcome()
    assert game.finished == [2, 0] and game.result_kind() == "double"
    assert [t for t in out.transfers if t.payee == 1] == [
        Transfer(s, 1, 20, out.transfers[2].reason) for s in (0, 2, 3)]
    assert out.points == (30 - 20, -30 + 60, 30 - 20, -30 - 20)


def test_stars_count_bombs_as_played_a_split_chain_pays_nothing() -> None:
    # issue 23: seat 0 was dealt 3333 4444 5555 (a 4×3 连炸, 7★) but plays it as three
    # 4-card bombs; stars are for bombs as played (4★): no doubling and no 贡献
    game = ShuangkouGame.position(["3333 4444 5555", "6", "7", "8"], leader=0)
    assert game.stars[0] == 7  # what the deal held
    play(game, "3333", "pass", "pass", "pass", "4444", "pass", "pass", "pass", "5555")
    play(game, "pass", "pass", "pass", "7")  # 接风: seat 2 goes out, 双扣
    out = game.outcome()
    assert game.result_kind() == "double" and game.played_stars == (4, 0, 0, 0)
    assert out.points == (3, -3, 3, -3)
    assert not any(t.reason is not None and t.reason.key == "shuangkou.reason.stars"
                   for t in out.transfers)


def test_a_chain_played_whole_pays_its_stars() -> None:
    # the same cards played as one 连炸: 7★ doubles the 双扣 to 24 and earns a 贡献 of 4
    game = ShuangkouGame.position(["3333 4444 5555", "6", "7", "8"], leader=0)
    play(game, "333344445555", "pass", "pass", "pass", "7")
    out = game.outcome()
    assert game.played_stars == (7, 0, 0, 0)
    assert out.points == (24 + 3 * 4, -24 - 4, 24 - 4, -24 - 4)


def test_a_bomb_never_played_earns_nothing() -> None:
    # seat 3 still holds 66666666 (8★) when the hand ends: stars are for bombs played
    game = ShuangkouGame.position(["3", "4 5", "9", "66666666 7"], leader=0)
    play(game, "3", "pass", "pass", "pass", "9")
    out = game.outcome()
    assert game.stars[3] == 8 and game.played_stars == (0, 0, 0, 0)
    assert out.points == (3, -3, 3, -3)
    assert any(line.key == "shuangkou.line.stars" and line.args["stars"] == "1:0 2:0 3:0 4:0"
               for line in game.view(None).lines)


def test_single_and_even_wins() -> None:
    # 单扣: the team of the first out also has the third out: 2 基础分 each
    game = ShuangkouGame.position(["3", "4", "5", "6 7"], leader=0)
    play(game, "3", "4", "5")
    assert game.finished == [0, 1, 2] and game.result_kind() == "single"
    assert game.outcome().points == (2, -2, 2, -2)
    # 平扣: first and fourth: "第1名、第4名 各得 1基础分"
    game = ShuangkouGame.position(["3", "4", "6 8", "7"], leader=0)
    play(game, "3", "4", "6", "7")
    assert game.finished == [0, 1, 3] and game.result_kind() == "even"
    assert game.outcome().points == (1, -1, 1, -1)
    assert game.view(None).seats[2].cards == "8"  # remaining hands are shown at the end


def test_jiefeng_only_when_nobody_beats_the_last_play() -> None:
    game = ShuangkouGame.position(["9", "T 3", "4 5", "6 7"], leader=0)
    play(game, "9", "T")  # seat 0 is out, seat 1 beats it: no 接风
    play(game, "pass", "pass")
    assert game.to_act() == (1,) and game.jiefeng is None
    game = ShuangkouGame.position(["9", "8 3", "4 5", "6 7"], leader=0)
    play(game, "9", "pass", "pass", "pass")
    assert game.to_act() == (2,) and game.jiefeng == 2
    assert any(line.key == "shuangkou.line.jiefeng" for line in game.view(None).lines)


def test_a_seat_that_passed_may_play_again_in_the_same_round() -> None:
    game = ShuangkouGame.position(["3 4 K", "5 A", "6 3", "7 3"], leader=0)
    play(game, "3", "pass", "6", "7", "K", "A")
    assert game.table is not None and game.table[0] == 1


def test_the_leader_cannot_pass_and_errors_change_nothing() -> None:
    game = ShuangkouGame.position(["33 4444 R 5", "66 7", "88 9", "TT J"], leader=0)
    before = game.to_text()
    for bad, kind, key in [
        ("pass", IllegalActionError, "err.shuangkou.must_lead"),
        ("3X", NotationError, "err.climb.not_card"),
        ("333", IllegalActionError, "err.climb.not_held"),
        ("345", IllegalActionError, "err.shuangkou.no_pattern"),
        ("4444R=33333", IllegalActionError, "err.shuangkou.reading"),
    ]:
        with pytest.raises(kind) as info:
            game.apply(0, bad)
        assert info.value.text is not None and info.value.text.key == key, bad
        assert game.to_text() == before
    assert game.apply(0, "4444R") == "4444R=44444"
    with pytest.raises(IllegalActionError) as info:
        game.apply(1, "66")
    assert info.value.text is not None and info.value.text.key == "err.shuangkou.shape"
    game = ShuangkouGame.position(["33 5", "22 7", "88 9", "TT J"], leader=0)
    play(game, "33")
    with pytest.raises(IllegalActionError) as info:
        game.apply(1, "7")
    assert info.value.text is not None and info.value.text.key == "err.shuangkou.shape"
    play(game, "22")
    with pytest.raises(IllegalActionError) as info:
        game.apply(2, "88")
    assert info.value.text is not None and info.value.text.key == "err.shuangkou.no_beat"


def test_a_wild_play_is_read_to_beat_the_table() -> None:
    # 45678R reads as 345678 or 456789: over 345678 only 456789 beats, and is chosen
    game = ShuangkouGame.position(["345678 K", "45678R Q", "9", "T"], leader=0)
    play(game, "345678")
    assert game.legal_actions(1) == ["45678R=456789", "pass"]
    assert game.apply(1, "R45678") == "45678R=456789"


def test_options_are_checked() -> None:
    assert SHUANGKOU.validate({"base": 5}) == {"base": 5}
    for bad in (0, 10**7):
        with pytest.raises(OptionError):
            SHUANGKOU.validate({"base": bad})


def test_seeded_self_play_is_legal_zero_sum_and_replays() -> None:
    for seed in range(12):
        game = SHUANGKOU.new(Setup(seats=4, seed=seed, options=SHUANGKOU.validate({})))
        assert [sum(h) for h in game.hands] == [27] * 4
        steps = 0
        while not game.is_over():
            seat = game.to_act()[0]
            action = game.trustee(seat)
            if steps % 5 == 0:
                assert action in game.legal_actions(seat)
            table = game.table
            if table is not None and table[0] % 2 == seat % 2:
                # never beats the partner, unless the play takes it out
                assert action == "pass" or len(action.partition("=")[0]) == sum(game.hands[seat])
            game.apply(seat, action)
            steps += 1
        out = game.outcome()
        assert sum(out.points) == 0
        win = set(out.winners)
        assert win in ({0, 2}, {1, 3}) and game.finished[0] in win
        again = SHUANGKOU.from_record(game.to_record())
        assert again.outcome() == out and again.view(None) == game.view(None)
        final = game.view(None)
        assert all(sv.cards is not None for sv in final.seats)
        assert sum(len(sv.cards or "") for sv in final.seats) == sum(sum(h) for h in game.hands)


def test_no_view_shows_another_seat_s_hand() -> None:
    game = SHUANGKOU.new(Setup(seats=4, seed=4, options=SHUANGKOU.validate({})))
    for _ in range(40):
        public = game.view(None)
        assert public.hand is None and all(sv.cards is None for sv in public.seats)
        for seat in range(4):
            mine = game.view(seat)
            assert [sv.cards is not None for sv in mine.seats] == [s == seat for s in range(4)]
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))


def test_an_escaped_seat_is_played_by_the_trustee_without_penalty() -> None:
    game = SHUANGKOU.new(Setup(seats=4, seed=9, options=SHUANGKOU.validate({})))
    game.escape(2)
    plain = play_out(SHUANGKOU.new(Setup(seats=4, seed=9, options=SHUANGKOU.validate({}))))
    assert play_out(game).outcome() == plain.outcome()


def test_the_picker_takes_the_whole_hand_in_menus_of_at_most_25() -> None:
    game = SHUANGKOU.new(Setup(seats=4, seed=1, options=SHUANGKOU.validate({})))
    picker = game.picker(0)
    assert picker is not None and len(picker.tokens) == 27 == len(set(picker.tokens))
    menus = picker.menus()
    assert len(menus) >= 2 and all(b - a <= 25 for a, b in menus)
    seat = game.to_act()[0]
    mine = game.picker(seat)
    assert mine is not None
    low = [t for t in mine.tokens if not t.endswith(("#2", "#3"))][:1]
    assert game.apply(seat, mine.action(low)) == parse_and_format(low[0])


def parse_and_format(token: str) -> str:
    from engines.climbing.notation import format_cards

    return format_cards(parse_cards(token, 2))
