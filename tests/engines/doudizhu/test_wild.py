"""癞子斗地主 (004 癞子场; GAMES.md §2.5): DDZ-E3…E6, the bomb tiers and multipliers, the
``cards=reading`` notation, the generator against a brute force of every substitution."""

from __future__ import annotations

import random
from itertools import combinations_with_replacement, product

import pytest
from ddz_support import SPEC, new, rig
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.i18n import render
from engines.doudizhu import DoudizhuGame, WildGame
from engines.doudizhu.notation import NRANKS, RANKS, SMALL_JOKER, format_cards, parse_cards
from engines.doudizhu.patterns import Pattern, playbook
from engines.doudizhu.wild import _MEMO, TIER, beats, bombs, make, plays, read, reference
from engines.errors import IllegalActionError

BOOK = playbook()
FULL = (4,) * 13 + (1, 1)


def rank(c: str) -> int:
    return RANKS.index(c)


def reading(hand: str, text: str, wild: str, previous: str | None = None) -> tuple[str, str]:
    w = rank(wild)
    prev = None if previous is None else read(previous, parse_cards(previous), w, None, BOOK)
    play = read(text, parse_cards(hand), w, prev, BOOK)
    return play.pattern.name, play.text


# --- the seeds' examples -----------------------------------------------------------------------
def test_e3_wild_seven_completes_a_pair_straight_and_alone_is_a_seven() -> None:
    assert reading("445567", "445567=445566", "7") == ("PAIR_STRAIGHT", "445567=445566")
    # typed without the reading: the cards are no pattern as they are, one reading fits
    assert reading("445567", "445567", "7") == ("PAIR_STRAIGHT", "445567=445566")
    pattern, text = reading("77", "77", "7")
    assert (pattern, text) == ("PAIR", "77")
    assert read("77", parse_cards("77"), rank("7"), None, BOOK).key == rank("7")
    with pytest.raises(IllegalActionError):
        reading("77", "77=33", "7")  # 癞子 alone are themselves


def test_e4_soft_bombs_and_the_player_chooses() -> None:
    assert reading("3335", "3335=3333", "5") == ("SOFT_BOMB", "3335=3333")
    assert reading("3335", "3335", "5") == ("TRIO_SINGLE", "3335")  # read as themselves
    assert reading("5577", "5577=7777", "5") == ("SOFT_BOMB", "5577=7777")
    listed = {p.text for p in plays(parse_cards("3335"), rank("5")) if p.size == 4}
    assert listed == {"3335", "3335=3333"}


def test_e5_e6_hard_and_pure_wild_bombs() -> None:
    assert reading("7777", "7777", "6") == ("BOMB", "7777")
    assert reading("5555", "5555", "5") == ("WILD_BOMB", "5555")


@pytest.mark.parametrize(
    ("play", "previous", "wild", "wins"),
    [
        ("3335=3333", "AAA5=AAAA", "5", False),  # soft by rank
        ("AAA5=AAAA", "3335=3333", "5", True),
        ("4444", "AAA5=AAAA", "5", True),  # any hard bomb over a soft one
        ("5555", "2222", "5", True),  # the pure 癞子 bomb over every hard bomb
        ("BR", "5555", "5", True),  # the rocket over all
        ("5555", "BR", "5", False),
        ("3335=3333", "BR", "5", False),
        ("3335=3333", "KKKQ", "5", True),
        ("445567=445566", "334455", "7", True),  # wild-built = natural (不区分大小)
        ("445566", "445567=445566", "7", False),
    ],
)
def test_bomb_tiers(play: str, previous: str, wild: str, wins: bool) -> None:
    w = rank(wild)
    a, b = (read(t, parse_cards(t.split("=")[0]), w, None, BOOK) for t in (play, previous))
    assert beats(a, b) is wins


def test_reading_errors_name_the_forms() -> None:
    with pytest.raises(IllegalActionError) as err:
        reading("3355", "3355", "5")  # 3355=3333 (bomb) or 3355=3335 (三带一)
    assert err.value.text is not None and err.value.text.key == "err.ddz.wild_choose"
    assert "`3355=3333`" in err.value.text.args["forms"]
    assert reading("3355", "3355", "5", previous="4445")[1] == "3355=3333"
    with pytest.raises(IllegalActionError):
        reading("3335", "3335=4444", "5")  # a 3 cannot become a 4
    with pytest.raises(IllegalActionError):
        reading("3335", "3336=3333", "5")  # not held


# --- the generator against every substitution ----------------------------------------------------
def brute_force(hand: tuple[int, ...], wild: int) -> set[str]:
    """Every sub-multiset, every choice of rank for each 癞子 in it (jokers excepted); one play
    per (cards, pattern, key, size): the fewest 癞子 standing in, then the first reading."""
    best: dict[tuple[object, ...], tuple[int, str, str]] = {}
    for phys in product(*(range(c + 1) for c in hand)):
        k = phys[wild]
        for targets in combinations_with_replacement(range(SMALL_JOKER), k):
            read_counts = list(phys)
            read_counts[wild] -= k
            for t in targets:
                read_counts[t] += 1
            if max(read_counts) > 4:
                continue
            subs = sum(1 for t in targets if t != wild)
            if subs and sum(phys) == k:
                continue
            for r in BOOK.readings(tuple(read_counts)):
                play = make(tuple(phys), r, wild, subs)
                key = (tuple(phys), play.pattern, play.key, play.size)
                cand = (subs, r.text, play.text)
                if key not in best or cand < best[key]:
                    best[key] = cand
    return {v[2] for v in best.values()}


DECK = [r for r in range(NRANKS) for _ in range(FULL[r])]


def deal(rnd: random.Random, size: int, wilds: int) -> tuple[tuple[int, ...], int]:
    """``size`` cards holding exactly ``wilds`` 癞子 of a random rank."""
    wild = rnd.randrange(SMALL_JOKER)
    hand = [0] * NRANKS
    hand[wild] = wilds
    for r in rnd.sample([c for c in DECK if c != wild], size - wilds):
        hand[r] += 1
    return tuple(hand), wild


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False), st.integers(2, 7), st.integers(0, 4))
def test_generator_against_brute_force(rnd: random.Random, n: int, wilds: int) -> None:
    hand, wild = deal(rnd, n + wilds, wilds)
    listed = [p.text for p in plays(hand, wild)]
    assert len(listed) == len(set(listed))
    assert set(listed) == brute_force(hand, wild)
    assert [p.text for p in reference(hand, wild)] == listed
    for text in listed:  # every listed play reads back as itself
        assert read(text, hand, wild, None, BOOK).text == text
    bomb_texts = [p.text for p in bombs(hand, wild)]
    assert bomb_texts == sorted(p.text for p in plays(hand, wild) if p.is_bomb)


def test_generator_against_the_reference_leading_and_following() -> None:
    """Two hundred hands of up to 10 cards with 0-4 癞子, each led and following a random
    play of another hand: the same plays (and order) as the reference, each once."""
    rnd = random.Random(17)
    for i in range(200):
        wilds = i % 5
        hand, wild = deal(rnd, rnd.randint(wilds + 1, 10 if wilds < 4 else 7), wilds)
        _MEMO.clear()
        expected = reference(hand, wild)
        listed = plays(hand, wild)
        assert [p.text for p in listed] == [p.text for p in expected], format_cards(hand)
        assert listed == expected and [p.parts for p in listed] == [p.parts for p in expected]
        assert len({(p.parts, p.pattern, p.key, p.size) for p in listed}) == len(listed)
        other, _ = deal(random.Random(i), 17, 0)
        leads = plays(other, wild)
        previous = leads[rnd.randrange(len(leads))]
        _MEMO.clear()  # following from scratch (no lead list to filter)
        beating = [p.text for p in plays(hand, wild, previous)]
        assert beating == [p.text for p in expected if beats(p, previous)], previous.text


def test_generator_against_the_reference_on_whole_hands() -> None:
    """Dealt hands of 17 and 20 cards (the landlord's) with 0-3 癞子."""
    rnd = random.Random(4)
    for i in range(16):
        hand, wild = deal(rnd, 17 if i % 2 else 20, i % 4)
        _MEMO.clear()
        assert [p.text for p in plays(hand, wild)] == [p.text for p in reference(hand, wild)]


@pytest.mark.parametrize(
    ("hand", "wild", "play"),
    [
        # three 癞子 and a 3: 三带一 of any rank the 癞子 stand for (not only themselves)
        ("3222", "2", "3222=3555"),
        ("3222", "2", "3222"),
        # a 癞子 completes the attached pair
        ("3334Q", "Q", "3334Q=33344"),
        # two 癞子 as the pair of 四带两对 beside a natural pair
        ("5555669T", "T", "5555669T=55556699"),
        # 666 (癞子 as themselves) in the plane: the fourth 癞子 is a wing standing for a rank
        # the hand lacks (listed as the first such reading)
        ("55566669", "6", "55566669=35556669"),
    ],
)
def test_wilds_in_attachments(hand: str, wild: str, play: str) -> None:
    """An attached card may be a 癞子, as itself or standing in (004: "癞子不妨和其他牌搭配成
    上述各种牌型", any pattern)."""
    assert play in {p.text for p in plays(parse_cards(hand), rank(wild))}


@pytest.mark.parametrize(
    ("hand", "wild", "whole"),
    [
        # 四带两对: two 癞子 pair as themselves, the other two must stand for another rank
        ("33339999", "9", ["33339999=33334499"]),
        # three 癞子 beside 444555666: as themselves they make 777 (the chain 5-7), standing
        # in they make other planes whose chain ends at 6
        (
            "444555666777",
            "7",
            [
                "444555666777 chain",
                "444555666777 plane",
                "444555666777=333444555666 chain",
                "444555666777=344455566677",
            ],
        ),
    ],
)
def test_wilds_standing_in_where_themselves_would_change_the_play(
    hand: str, wild: str, whole: list[str]
) -> None:
    counts, w = parse_cards(hand), rank(wild)
    listed = plays(counts, w)
    assert [p.text for p in listed if p.size == len(hand)] == whole
    assert [p.text for p in listed] == [p.text for p in reference(counts, w)]


# --- the game -----------------------------------------------------------------------------------
def wild_game(seed: int = 1) -> DoudizhuGame:
    game = new("doudizhu_wild", seed=seed, carry={"first": 0})
    assert isinstance(game, WildGame)
    return game


def test_the_wild_rank_is_shown_to_everyone_and_redrawn_each_deal() -> None:
    seen = set()
    for seed in range(30):
        game = wild_game(seed)
        for viewer in (None, 0, 1, 2):
            assert game.view(viewer).lines[0].key == "ddz.line.wild"
        seen.add(game.wild)
    assert len(seen) > 6 and all(0 <= w < SMALL_JOKER for w in seen)


def test_multipliers_of_the_bombs_played() -> None:
    game = wild_game(2)
    rig(game, ["33355557777BR2222", "4444666688889999T", ""], kitty="TTJ")
    game.wild = rank("5")
    game.apply(0, "call")
    game.apply(1, "nograb")
    game.apply(2, "nograb")
    while game.phase() != "play":
        game.apply(game.to_act()[0], game.legal_actions(game.to_act()[0])[-1])
    assert game.landlord == 0 and game.multiplier() == 1
    game.apply(0, "3335=3333")  # soft ×2
    game.apply(1, "4444")  # hard ×4
    game.apply(2, "pass")
    game.apply(0, "pass")
    game.apply(1, "66")
    game.apply(2, "pass")
    game.apply(0, "BR")  # rocket ×4
    game.apply(1, "pass")
    game.apply(2, "pass")
    game.apply(0, "55")
    assert game.last is not None and game.last.pattern is Pattern.PAIR  # 癞子 as themselves
    assert game.multiplier() == 32
    assert [TIER[p] for p in (Pattern.SOFT_BOMB, Pattern.BOMB, Pattern.WILD_BOMB)] == [1, 2, 3]


def test_trustee_self_play_is_legal_and_records_replay() -> None:
    rng = random.Random(9)
    for seed in range(10):
        game = wild_game(seed)
        while not game.is_over():
            seats = game.to_act()
            seat = seats[rng.randrange(len(seats))]
            legal = game.legal_actions(seat)
            action = game.trustee(seat) if rng.random() < 0.7 else rng.choice(legal)
            assert action in legal
            game.apply(seat, action)
        out = game.outcome()
        assert sum(out.points) == 0
        again = SPEC["doudizhu_wild"].from_record(game.to_record())
        assert again.snapshot() == game.snapshot() and again.outcome() == out
        assert format_cards(tuple(game.out)) or game.void


@pytest.mark.parametrize(
    ("hand", "wild"), [("3555578QKBR", "5"), ("345666TTTT2", "6"), ("3336A", "6")]
)
def test_bombs_are_the_bombs_among_the_plays_with_many_wilds(hand: str, wild: str) -> None:
    counts, w = parse_cards(hand), rank(wild)
    assert [p.text for p in bombs(counts, w)] == sorted(
        p.text for p in plays(counts, w) if p.is_bomb
    )


def test_the_play_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    """Leads and follow candidates are memoized per hand; a full memo lets its older half go."""
    monkeypatch.setattr(_MEMO, "limit", 40)
    _MEMO.clear()
    rnd = random.Random(3)
    previous = read("33", parse_cards("33"), rank("5"), None, BOOK)
    for _ in range(200):
        hand, wild = deal(rnd, 6, rnd.randint(0, 2))
        plays(hand, wild, previous)  # the follow candidates, then the leads
        plays(hand, wild)
        assert len(_MEMO) <= 40
    _MEMO.clear()


# --- typed without "=": the readings that are legal now (issue 26) --------------------------------
def refusal(hand: str, text: str, wild: str, previous: str | None = None) -> IllegalActionError:
    with pytest.raises(IllegalActionError) as err:
        reading(hand, text, wild, previous)
    return err.value


def test_the_only_reading_that_answers_is_taken() -> None:
    # 癞子 T over 22: 666T as itself is 三带一 (no answer to a pair); 666T=6666 is a soft bomb
    assert reading("666T", "666T", "T", previous="22") == ("SOFT_BOMB", "666T=6666")
    # over 7778 the 三带一 of 6s is too low: the bomb is its one answer
    assert reading("666T", "666T", "T", previous="7778") == ("SOFT_BOMB", "666T=6666")
    # where the cards as themselves answer, they are read so (the listed text "666T")
    assert reading("666T", "666T", "T", previous="5553") == ("TRIO_SINGLE", "666T")
    assert reading("666T", "666T", "T") == ("TRIO_SINGLE", "666T")


def test_no_reading_that_answers_is_refused_naming_the_readings() -> None:
    err = refusal("9T", "9T", "T", previous="22")  # 9T=99, its one reading, is below 22
    assert err.text is not None and err.text.key == "err.ddz.wild_not_beat"
    zh, en = render(err.text, "zh-CN"), render(err.text, "en-US")
    assert "`9T=99`" in zh and "压不过" in zh and "22" in zh and "几种" not in zh
    assert "`9T=99`" in en and "22" in en and "several" not in en
    err = refusal("666T", "666T", "T", previous="BR")  # neither 三带一 nor the soft bomb
    assert err.text is not None and err.text.key == "err.ddz.wild_none_beat"
    assert "`666T`" in render(err.text, "zh-CN") and "`666T=6666`" in render(err.text, "zh-CN")


def test_asked_to_choose_only_among_the_readings_that_answer_with_the_form_taught() -> None:
    # 癞子 T, 66TT over 5553: 66TT=666T (三带一 of 6s) and 66TT=6666 (soft bomb) both answer
    err = refusal("66TT", "66TT", "T", previous="5553")
    assert err.text is not None and err.text.key == "err.ddz.wild_choose"
    forms = err.text.args["forms"]
    assert "`66TT=6666`" in forms and "`66TT=666T`" in forms
    assert reading("66TT", "66TT=6666", "T", previous="5553") == ("SOFT_BOMB", "66TT=6666")
    # over 22 only the bomb answers: taken without asking
    assert reading("66TT", "66TT", "T", previous="22") == ("SOFT_BOMB", "66TT=6666")
    zh, en = render(err.text, "zh-CN"), render(err.text, "en-US")
    assert "=" in zh.replace(forms, "") and "=" in en.replace(forms, "")  # the form is taught


def rigged_wild_table() -> DoudizhuGame:
    """Landlord 0 holds 22; seat 1 holds 666T and no fourth 6; 癞子 T; the play phase."""
    game = wild_game(3)
    rig(game, ["22333444555789JQK", "666TJQKA789TAA4KQ", ""], kitty="BRJ")
    game.wild = rank("T")
    for seat, action in ((0, "call"), (1, "nograb"), (2, "nograb")):
        game.apply(seat, action)
    while game.phase() != "play":
        game.apply(game.to_act()[0], game.legal_actions(game.to_act()[0])[-1])
    assert game.landlord == 0
    return game


def test_the_one_answering_reading_is_logged_in_full_and_replays() -> None:
    game = rigged_wild_table()
    game.apply(0, "22")
    assert "666T=6666" in game.legal_actions(1)  # /hint and the buttons list it
    assert game.trustee(1) in game.legal_actions(1)
    game.apply(1, "666T")
    assert game.log[-1] == (1, "666T=6666")
    assert game.last is not None and game.last.pattern is Pattern.SOFT_BOMB
    assert game.multiplier() == 2  # a soft bomb ×2
    again = rigged_wild_table()  # the logged form rebuilds the same table
    for seat, action in game.log[len(again.log):]:
        again.apply(seat, action)
    assert again.snapshot() == game.snapshot()


def test_a_refused_reading_changes_nothing() -> None:
    game = rigged_wild_table()
    game.apply(0, "22")
    before = game.to_text()
    with pytest.raises(IllegalActionError) as err:
        game.apply(1, "9T")
    assert err.value.text is not None and err.value.text.key == "err.ddz.wild_not_beat"
    assert game.to_text() == before
