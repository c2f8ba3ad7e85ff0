"""麻辣斗地主 (001 《麻辣斗地主》; GAMES.md §2.9): the 明牌 card, 闷抓/看牌, 倒拉垒沃 per pair,
the kitty seen only by a 闷抓 landlord, singles-only attachments."""

from __future__ import annotations

import random

import pytest
from ddz_support import SPEC, new

from engines.doudizhu import DoudizhuGame, MalaGame, parse_play
from engines.doudizhu.patterns import PatternRules
from engines.errors import IllegalActionError

MALA = PatternRules(pair_kickers=False)


def mala(seed: int = 1) -> DoudizhuGame:
    game = new("doudizhu_mala", seed=seed)
    assert isinstance(game, MalaGame)
    return game


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("3334", "TRIO_SINGLE"),
        ("333444+56", "PLANE_SINGLES"),
        ("3333+56", "FOUR_SINGLES"),
        ("3333+55", "FOUR_SINGLES"),  # two singles of one rank, as in classic
    ],
)
def test_singles_attachments(cards: str, name: str) -> None:
    play = parse_play(cards, MALA)
    assert play is not None and play.pattern.name == name


@pytest.mark.parametrize("cards", ["33344", "333444+5566", "3333+5566"])
def test_no_pair_attachments(cards: str) -> None:
    with pytest.raises(IllegalActionError):
        parse_play(cards, MALA)


def test_the_open_card_holder_decides_first_and_nobody_has_looked() -> None:
    holders = set()
    for seed in range(20):
        game = mala(seed)
        holder = game.open_seat
        holders.add(holder)
        assert game.to_act() == (holder,) and game.phase() == "blind"
        assert game.hands[holder][game.open_rank] >= 1  # the card is in its hand
        for viewer in (None, 0, 1, 2):
            view = game.view(viewer)
            assert view.lines[0].key == "ddz.line.open_card"
            assert view.lines[0].args["seat"] == holder + 1
            assert view.hand is None and all(sv.cards is None for sv in view.seats)
        assert game.picker(holder) is None
        assert game.legal_actions(holder) == ["blind", "look"]
    assert holders == {0, 1, 2}


def test_look_then_call_and_the_pair_steps() -> None:
    game = mala(4)
    holder = game.open_seat
    epoch = game.private_epoch(holder)
    assert game.apply(holder, "看牌") == "look"
    assert game.private_epoch(holder) != epoch
    assert all(game.view(s).hand for s in range(3))  # everyone has looked
    assert game.phase() == "bid" and game.to_act() == (holder,)
    game.apply(holder, "叫地主")
    landlord = holder
    a, b = (landlord + 1) % 3, (landlord + 2) % 3
    assert game.landlord == landlord and game.phase() == "dao"
    assert [t.args["cards"] for t in game.view(a).lines if t.key == "ddz.line.kitty"]
    assert game.to_act() == (a,) and game.legal_actions(a) == ["dao", "nodao"]
    game.apply(a, "倒")
    game.apply(b, "不倒")
    assert game.to_act() == (landlord,) and game.legal_actions(landlord) == ["la", "nola"]
    game.apply(landlord, "拉")
    game.apply(a, "垒")
    game.apply(landlord, "沃")
    assert game.phase() == "play" and game.pairs[a] == 4 and game.pairs[b] == 0
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    out = game.outcome()
    stake = game.base_score() * game.multiplier()
    sign = 1 if game.winner == landlord else -1
    # pair a: 倒拉垒沃 ×16; pair b: ×1
    assert out.points[a] == -sign * 16 * stake and out.points[b] == -sign * stake
    assert out.points[landlord] == sign * 17 * stake
    assert any(t.key == "ddz.out.pair" and t.args["x"] == 16 for t in out.lines)


def test_blind_grab_the_kitty_only_for_the_landlord_blind_dao() -> None:
    game = mala(6)
    landlord = game.open_seat
    game.apply(landlord, "闷抓")
    a, b = (landlord + 1) % 3, (landlord + 2) % 3
    assert game.landlord == landlord and game.phase() == "dao"
    assert game.legal_actions(a) == ["mendao", "look"]
    game.apply(a, "闷倒")  # without looking
    assert game.view(a).hand is None
    assert game.legal_actions(b) == ["mendao", "look"]
    game.apply(b, "看牌")
    assert game.view(b).hand is not None and game.legal_actions(b) == ["dao", "nodao"]
    game.apply(b, "nodao")
    for viewer in (None, 0, 1, 2):  # the kitty: nobody, not even the landlord yet
        assert all(t.key != "ddz.line.kitty" for t in game.view(viewer).lines)
    assert game.view(landlord).hand is None
    game.apply(landlord, "不拉")
    assert game.phase() == "play"
    assert [t.key for t in game.view(landlord).lines].count("ddz.line.kitty") == 1
    for viewer in (None, a, b):
        assert all(t.key != "ddz.line.kitty" for t in game.view(viewer).lines)
    assert sum(game.hands[landlord]) == 20 and game.view(landlord).hand is not None
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    out = game.outcome()
    stake = game.base_score() * game.multiplier()
    sign = 1 if game.winner == landlord else -1
    # 闷抓 ×2 in both pairs; 闷倒 ×2 more with a
    assert out.points[a] == -sign * 4 * stake and out.points[b] == -sign * 2 * stake
    assert any(t.key == "ddz.out.blind" for t in out.lines)


def test_bad_words_in_the_pair_steps_change_nothing() -> None:
    game = mala(4)
    game.apply(game.open_seat, "look")
    game.apply(game.open_seat, "call")
    farmer = game.to_act()[0]
    before = game.snapshot()
    for text in ("拉", "mendao", "bid 3", "333"):
        with pytest.raises(IllegalActionError):
            game.apply(farmer, text)
    assert game.snapshot() == before
    assert game.apply(farmer, "pass") == "nodao"


def test_trustee_self_play_records_and_sums() -> None:
    rng = random.Random(8)
    for seed in range(25):
        game = mala(seed)
        while not game.is_over():
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            action = game.trustee(seat) if rng.random() < 0.6 else rng.choice(legal)
            assert action in legal
            game.apply(seat, action)
        out = game.outcome()
        assert sum(out.points) == 0
        again = SPEC["doudizhu_mala"].from_record(game.to_record())
        assert again.snapshot() == game.snapshot() and again.outcome() == out
