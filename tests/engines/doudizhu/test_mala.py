"""麻辣斗地主 (001 《麻辣斗地主》; GAMES.md §2.9): the 明牌 card, 闷抓/看牌, 倒拉垒沃 per pair,
the kitty seen only by a 闷抓 landlord, singles-only attachments."""

from __future__ import annotations

import random

import pytest
from ddz_support import SPEC, new, rig
from test_moves import ORDER, SEQ, _counts, _minus, reference_beats, reference_texts, subsets

from engines.base import Setup
from engines.doudizhu import DoudizhuGame, MalaGame, parse_play
from engines.doudizhu.moves import follow_plays, lead_plays
from engines.doudizhu.notation import format_cards, parse_cards
from engines.errors import IllegalActionError
from bot.host.model import private_digest

MALA = SPEC["doudizhu_mala"].new(Setup(seats=3, seed=0)).rules.patterns  # type: ignore[attr-defined]


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
        ("QQQKKKAAA+345", "PLANE_SINGLES"),
    ],
)
def test_singles_attachments(cards: str, name: str) -> None:
    play = parse_play(cards, MALA)
    assert play is not None and play.pattern.name == name


@pytest.mark.parametrize(
    "cards",
    [
        "33344", "333444+5566", "3333+5566",
        # Bug (issue 23): "均只能带单张，不能带对子" — two attached singles forming a pair
        # were accepted in 麻辣 (as classic allows them)
        "333355", "33344455", "QQQKKKAAA+335", "QQQKKKAAA+333", "333444555666 plane",
    ],
)  # fmt: skip
def test_no_pair_attachments(cards: str) -> None:
    with pytest.raises(IllegalActionError) as refused:
        parse_play(cards, MALA)
    assert refused.value.text is not None
    assert refused.value.text.key == "err.ddz.singles_only"  # says why, not just "no pattern"


@pytest.mark.parametrize("cards", ["333355", "33344455", "44455", "333444555666 plane"])
def test_other_variants_keep_paired_attachments(cards: str) -> None:
    assert parse_play(cards) is not None  # classic, 欢乐, 火拼 ... (000/001/002/003/004)


def test_four_trios_in_mala_are_only_the_chain() -> None:
    play = parse_play("333444555666", MALA)  # no second reading left: 456 + 333 is a trio wing
    assert play is not None and play.pattern.name == "PLANE"


def mala_kinds(m: dict[str, int]) -> list[tuple[str, tuple[str, int, int]]]:
    """The classic reference readings (test_moves) of one set of cards kept to 麻辣's: no pair
    attached, and the attached singles of 四带二 and 飞机 all of different ranks."""
    out = []
    for text, kind in reference_texts(m):
        name, key, size = kind
        if name in ("trio+2", "four+22", "plane+2"):
            continue
        if name == "four+2":
            rest = _minus(m, {ORDER[key]: 4})
        elif name == "plane+1":
            rest = _minus(m, {SEQ[r]: 3 for r in range(key - size // 4 + 1, key + 1)})
        else:
            rest = {}
        assert rest is not None
        if all(n == 1 for n in rest.values()):
            out.append((text, kind))
    if len(out) == 1:  # one reading left: no reading word
        out = [(out[0][0].split(" ")[0], out[0][1])]
    return out


def mala_reference(hand: str, previous: str | None) -> set[str]:
    """Every 麻辣 play of ``hand`` (that beats ``previous``), by brute force over subsets."""
    found = [tk for sub in subsets(_counts(hand)) for tk in mala_kinds(sub)]
    if previous is None:
        return {t for t, _ in found}
    prev = next(k for t, k in mala_kinds(_counts(previous.split(" ")[0])) if t == previous)
    return {t for t, k in found if reference_beats(k, prev)}


def test_generator_matches_the_mala_reference_on_random_hands() -> None:
    rng = random.Random(23)
    deck = [r for r in ORDER[:13] for _ in range(4)] + ["B", "R"]
    checked = 0
    for _ in range(150):
        hand = format_cards(parse_cards("".join(rng.sample(deck, rng.randint(6, 11)))))
        counts = parse_cards(hand)
        leads = set(lead_plays(counts, MALA))
        assert leads == mala_reference(hand, None), hand
        other = format_cards(parse_cards("".join(rng.sample(deck, 11))))
        for previous in rng.sample(sorted(mala_reference(other, None)), 3):
            prev = parse_play(previous, MALA)
            assert prev is not None
            assert set(follow_plays(counts, prev, MALA)) == mala_reference(hand, previous)
            checked += 1
    assert checked == 450


def mala_in_play() -> tuple[DoudizhuGame, int]:
    """A 麻辣 hand in play, the landlord holding 3333 444 55 and singles (kitty AAA)."""
    game = mala(4)
    landlord = game.open_seat
    hands = ["", "", ""]
    hands[landlord] = "333344455678 9TJQK"
    hands[(landlord + 1) % 3] = "66778899TTJJQQKK2"
    rig(game, hands, "AAA")
    game.apply(landlord, "look")
    game.apply(landlord, "call")
    game.apply((landlord + 1) % 3, "nodao")
    game.apply((landlord + 2) % 3, "nodao")
    assert game.phase() == "play" and game.to_act() == (landlord,)
    return game, landlord


def test_mala_game_refuses_paired_singles_and_never_offers_them() -> None:
    game, landlord = mala_in_play()
    legal = game.legal_actions(landlord)
    assert "333356" in legal and "33344456" in legal and "3333" in legal
    assert not {"333355", "33344455", "44455", "333344455"} & set(legal)
    for play in legal:  # every generated play is a 麻辣 play
        parse_play(play, MALA)
    before = game.snapshot()
    for text in ("333355", "3333 55", "33344455", "44455"):
        with pytest.raises(IllegalActionError) as refused:
            game.apply(landlord, text)
        assert refused.value.text is not None
        assert refused.value.text.key == "err.ddz.singles_only"
    assert game.snapshot() == before
    hint = game.hint(landlord)
    assert hint in legal


def test_mala_trustee_and_hint_play_only_mala_plays() -> None:
    for seed in range(30):
        game = mala(seed)
        while not game.is_over():
            seat = game.to_act()[0]
            legal = game.legal_actions(seat)
            if game.phase() == "play":
                hand = format_cards(tuple(game.hands[seat]))
                if sum(game.hands[seat]) <= 10:
                    previous = None if game.last is None else game.last.text
                    assert set(legal) - {"pass"} == mala_reference(hand, previous)
                for play in legal:
                    if play != "pass":
                        parse_play(play, MALA)
            action = game.trustee(seat)
            assert action in legal and game.hint(seat) in legal
            game.apply(seat, action)


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
    digest = private_digest(game, holder)
    assert game.apply(holder, "看牌") == "look"
    assert private_digest(game, holder) != digest, "the DM shows the cards now looked at"
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
