"""明牌开始 ×5: chosen at the Start button before the deal (``Game.start_offers``), carried into
the hand as ``Setup.starts``; it counts as 003's ×5 明牌 and replays from the record."""

from __future__ import annotations

import json

import pytest
from ddz_support import SPEC, new, play_out

from engines.base import Choice, Game, Setup, T, Text
from engines.doudizhu import DoudizhuGame
from engines.doudizhu.notation import format_cards
from engines.errors import IllegalActionError, OptionError

SHOW5 = "show 5"


def happy(seed: int = 8, starts: tuple[tuple[int, str], ...] = (), **options: object
          ) -> DoudizhuGame:
    return new("doudizhu_happy", seed=seed, carry={"first": 0}, options=options,
               starts=starts)


@pytest.mark.parametrize("key", ["doudizhu_happy", "doudizhu_2p", "doudizhu_hot", "doudizhu_wild"])
def test_every_game_with_open_hands_offers_the_open_hand_start(key: str) -> None:
    spec = SPEC[key]
    assert spec.game.start_offers(spec.validate({})) == (
        Choice(SHOW5, T("ddz.phase.show_start"), "success"),
    )
    assert spec.game.start_offers(spec.validate({"mingpai": False})) == ()
    # the button's label names the choice in every language, ×5 included
    for locale in ("zh-CN", "en-US"):
        assert "×5" in spec.texts[locale]["ddz.phase.show_start"]
    assert "明牌开始" in spec.texts["zh-CN"]["ddz.phase.show_start"]


@pytest.mark.parametrize("key", ["doudizhu", "doudizhu_four", "doudizhu_mala", "doudizhu_five"])
def test_games_without_open_hands_offer_nothing_at_the_start(key: str) -> None:
    spec = SPEC[key]
    assert spec.game.start_offers(spec.validate({})) == ()
    with pytest.raises(OptionError) as err:
        spec.new(Setup(seats=spec.min_seats, seed=1, starts=((0, SHOW5),)))
    assert err.value.text == Text("err.base.start_choice",
                                  {"seat": 1, "choice": SHOW5, "offered": "—"})


def test_a_start_chooser_shows_from_the_deal_at_five_and_calls_first() -> None:
    plain = happy()
    game = happy(starts=((2, SHOW5),))
    # the same seed deals the same cards: the choice is made before the deal, not from it
    assert game.hands == plain.hands and game.kitty == plain.kitty
    assert plain.to_act() == (0,)
    # 003 二.2: the first 明牌 player calls first
    assert game.phase() == "bid" and game.to_act() == (2,)
    assert game.shown == [0, 0, 5] and game.multiplier() == 5
    cards = format_cards(tuple(game.hands[2]))
    for viewer in (None, 0, 1):  # every view, the public one included, from the start
        assert game.view(viewer).seats[2].cards == cards
    assert game.view(None).seats[2].status == Text("ddz.status.show", {"x": 5})
    assert Text("ddz.line.multiplier", {"x": 5}) in game.view(None).lines
    assert game.view(None).seats[0].cards is None  # the others stay hidden
    # nothing more to show for it; the others may still show at ×3, the largest factor counts
    assert game.open_offers(2) == ()
    assert [c.action for c in game.open_offers(0)] == ["show 3"]
    game.apply(0, "show 3")
    assert game.multiplier() == 5 and game.to_act() == (2,)
    assert game.log == [(0, "show 3")], "the start choice is not in the log"
    # the first bidder still rotates from the seeded one, as in a hand nobody showed in
    assert game.next_carry() == plain.next_carry()


def test_the_first_to_choose_calls_first() -> None:
    first = happy(starts=((1, SHOW5), (2, SHOW5)))
    assert first.to_act() == (1,) and first.shown == [0, 5, 5] and first.multiplier() == 5
    second = happy(starts=((2, SHOW5), (1, SHOW5)))
    assert second.to_act() == (2,)


def test_all_decline_makes_the_start_chooser_landlord_without_a_redeal() -> None:
    game = happy(starts=((1, SHOW5),), doubling=False)
    game.apply(0, "show 3")  # a later 明牌 comes second in the order of 明牌 players
    for seat in (1, 2, 0):
        game.apply(seat, "nocall")
    # 都不叫 with a 明牌 player: the first one is landlord, no redeal (003 二.3)
    assert game.deal_no == 0 and game.landlord == 1 and game.phase() == "play"
    assert game.multiplier() == 5
    assert game.open_offers(1) == ()  # the landlord's ×2 is not offered to a shown hand


def test_the_start_choice_settles_at_five_and_replays_from_the_record() -> None:
    game = happy(starts=((1, SHOW5),), doubling=False)
    for seat in (1, 2, 0):
        game.apply(seat, "nocall")
    play_out(game)
    outcome = game.outcome()
    spring = 2 if game.spring() else 1
    assert game.multiplier() == 5 * game.bomb_multiplier() * spring
    assert Text("ddz.out.show", {"x": 5}) in outcome.lines
    assert abs(outcome.points[1]) == 2 * 4 * game.multiplier()  # 底分 4, landlord ×2
    record = game.to_record()
    assert record["setup"]["starts"] == [[1, SHOW5]]
    text = json.loads(game.to_text())
    again = SPEC["doudizhu_happy"].from_record(text)
    assert isinstance(again, DoudizhuGame)
    assert again.snapshot() == game.snapshot() and again.outcome() == outcome
    assert again.setup.starts == ((1, SHOW5),)


def test_a_hand_without_start_choices_is_recorded_and_played_as_before() -> None:
    game = happy()
    assert "starts" not in game.to_record()["setup"]
    assert game.setup.starts == () and game.shown == [0, 0, 0] and game.multiplier() == 1
    assert Setup.from_json(game.setup.to_json()) == game.setup


def test_the_pinned_deal_is_the_same_with_a_start_choice() -> None:
    # the deal pinned for seed 2024 (tests/engines/doudizhu/test_game.py)
    spec = SPEC["doudizhu_happy"]
    options = spec.validate({})
    for starts in ((), ((0, SHOW5),), ((2, SHOW5), (0, SHOW5))):
        game = spec.new(Setup(seats=3, seed=2024, options=options, starts=starts))
        assert isinstance(game, DoudizhuGame)
        assert [format_cards(tuple(h)) for h in game.hands] == [
            "55679TJJQQKKKA22B", "33446668888TQKA2R", "33445777999TTJJA2"]
        assert format_cards(game.kitty) == "5QA"


@pytest.mark.parametrize(
    "starts",
    [
        ((0, "show 3"),),  # ×3 is an offer during the calling, not a start choice
        ((0, "show 4"),),  # a chat table has no half-dealt moment
        ((3, SHOW5),),  # no fourth seat
        ((-1, SHOW5),),
        ((1, SHOW5), (1, SHOW5)),  # one choice per seat
    ],
)
def test_a_start_choice_the_rules_do_not_offer_is_refused(
    starts: tuple[tuple[int, str], ...]
) -> None:
    with pytest.raises(OptionError) as err:
        happy(starts=starts)
    assert err.value.text is not None and err.value.text.key == "err.base.start_choice"
    assert err.value.text.args["offered"] == SHOW5


def test_open_hands_off_refuses_the_start_choice() -> None:
    with pytest.raises(OptionError):
        happy(starts=((0, SHOW5),), mingpai=False)


def test_the_start_choice_cannot_be_taken_once_the_cards_are_seen() -> None:
    game = happy()
    for seat in (0, 1):
        with pytest.raises(IllegalActionError) as err:
            game.apply(seat, SHOW5)
        assert err.value.text == Text("err.ddz.show_closed", {"now": "show 3"})
    assert game.shown == [0, 0, 0] and game.log == []


def test_the_base_game_offers_no_start_choice() -> None:
    assert Game.start_offers({}) == ()
