"""牌型 and 大小: every pattern of GAMES.md §2.0, the comparison table, the open cases."""

from __future__ import annotations

import pytest

from engines.doudizhu import Pattern, PatternRules, beats, legal_plays, parse_play
from engines.doudizhu.notation import parse_cards
from engines.doudizhu.patterns import play_of
from engines.errors import IllegalActionError

P = Pattern

# The seeds' own examples (000 范文十 §5, 001, 002, 003, 004), written as in the text.
SEED_EXAMPLES = [
    ("大王小王", P.ROCKET, "R"),
    ("7777", P.BOMB, "7"),
    ("5", P.SINGLE, "5"),
    ("44", P.PAIR, "4"),
    ("JJJ", P.TRIO, "J"),
    ("333+6", P.TRIO_SINGLE, "3"),
    ("444+99", P.TRIO_PAIR, "4"),
    ("45678", P.STRAIGHT, "8"),
    ("78910JQK", P.STRAIGHT, "K"),
    ("334455", P.PAIR_STRAIGHT, "5"),
    ("7788991010JJ", P.PAIR_STRAIGHT, "J"),
    ("333444", P.PLANE, "4"),
    # Four consecutive trios also read as a plane of three with wings: the reading is named.
    ("555666777888 三顺", P.PLANE, "8"),
    ("444555+79", P.PLANE_SINGLES, "5"),
    ("333444555+7799JJ", P.PLANE_PAIRS, "5"),
    ("5555+3+8", P.FOUR_SINGLES, "5"),
    ("4444+55+77", P.FOUR_PAIRS, "4"),
]


@pytest.mark.parametrize(("typed", "pattern", "key"), SEED_EXAMPLES)
def test_seed_pattern_examples(typed: str, pattern: Pattern, key: str) -> None:
    play = parse_play(typed)
    assert play is not None
    assert play.pattern is pattern
    assert "3456789TJQKA2BR"[play.key] == key
    assert play.size == len(play.text.split(" ")[0])


@pytest.mark.parametrize(
    ("typed", "pattern"),
    [
        ("B", P.SINGLE),
        ("R", P.SINGLE),
        ("2", P.SINGLE),
        ("22", P.PAIR),
        ("222", P.TRIO),
        ("2222", P.BOMB),
        ("222B", P.TRIO_SINGLE),  # a single joker is a fine kicker
        ("3456789TJQKA", P.STRAIGHT),  # the longest straight
        ("QQKKAA", P.PAIR_STRAIGHT),
        ("KKKAAA", P.PLANE),
        ("33344456", P.PLANE_SINGLES),
        ("3334442R", P.PLANE_SINGLES),
        ("333444555666789T", P.PLANE_SINGLES),
        ("33344455566677789TJQ", P.PLANE_SINGLES),  # 5 trios + 5 singles: 20 cards
        ("3334445566", P.PLANE_PAIRS),
        ("3333B2", P.FOUR_SINGLES),
    ],
)
def test_more_patterns(typed: str, pattern: Pattern) -> None:
    play = parse_play(typed)
    assert play is not None and play.pattern is pattern


@pytest.mark.parametrize(
    "typed",
    [
        "3345",  # nothing
        "34",  # two different singles
        "3344",  # two pairs: a 双顺 needs three
        "3456",  # four in a row: a 单顺 needs five
        "JQKA2",  # sequences never hold a 2 (§2.0)
        "QKA2B",
        "KKAA22",
        "AAA222",
        "33334444",  # two bombs together are nothing
        "333555",  # trios not consecutive
        "33345",  # a trio and two different singles
        "3334445",  # a plane needs as many wings as trios
        "333444556",
        "4444+5",
        "4444+5+6+7",
    ],
)
def test_not_patterns(typed: str) -> None:
    with pytest.raises(IllegalActionError):
        parse_play(typed)


# --- open cases decided (docs/games/doudizhu.md "Open cases") ---------------------------------
@pytest.mark.parametrize(
    "typed",
    [
        "3333BR",  # the rocket is never split: not 四带二 with two joker singles
        "333444BR",  # ... nor two wings of a plane
        "333BR",  # ... nor (obviously) a pair
    ],
)
def test_rocket_is_never_split(typed: str) -> None:
    with pytest.raises(IllegalActionError):
        parse_play(typed)
    assert typed.replace(" ", "") not in legal_plays("3333444BR")


def test_rocket_kickers_absent_from_generator() -> None:
    plays = legal_plays("3333444BR")
    assert "3333BR" not in plays and "333444BR" not in plays
    assert "33334B" in plays and "33334R" in plays  # one joker as a kicker is fine


@pytest.mark.parametrize(
    "typed",
    [
        "3335555",  # a bomb is never wings (333 + 5555 is not a plane of anything)
        "3334445555",  # 333444 + 55 + 55: two pairs of one rank are a bomb, not wings
        "33335",  # 333 + 3 + 5? The 3s are a bomb: not 三带一 (kicker = trio rank)
        "3333444",  # plane 333444 + 3? wings never share a rank with the chain
        "33334445",  # 333444 + 3 + 5: a wing of the chain's rank
        "55556666",  # 5555 + 66 + 66 / 6666 + 55 + 55: a bomb is not two pairs
    ],
)
def test_wings_never_bombs_nor_chain_ranks(typed: str) -> None:
    with pytest.raises(IllegalActionError):
        parse_play(typed)


# --- attachments that share a rank (DouZero and RLCard both accept them) ----------------------
@pytest.mark.parametrize(
    ("typed", "pattern", "key"),
    [
        ("3333+55", P.FOUR_SINGLES, "3"),  # 四带二: two singles of one rank
        ("555566", P.FOUR_SINGLES, "5"),
        ("555666+88", P.PLANE_SINGLES, "6"),  # plane wings holding a pair
        ("33344455", P.PLANE_SINGLES, "4"),
        ("333+QQQKKKAAA", P.PLANE_SINGLES, "A"),  # 三顺 QKA + the three singles 333
        ("QQQKKKAAA+222", P.PLANE_SINGLES, "A"),  # 2s never extend a chain: one reading
        ("333555666777", P.PLANE_SINGLES, "7"),  # four trios, not all consecutive
        ("333444555777", P.PLANE_SINGLES, "5"),
        ("3334445556667778", P.PLANE_SINGLES, "7"),  # 4567 + 333 + 8: the higher chain
        ("333444555666 plane", P.PLANE_SINGLES, "6"),  # read as 456 + 333, the higher key
        ("333444555666 chain", P.PLANE, "6"),
    ],
)
def test_attachments_may_share_a_rank(typed: str, pattern: Pattern, key: str) -> None:
    play = parse_play(typed)
    assert play is not None
    assert (play.pattern, "3456789TJQKA2BR"[play.key]) == (pattern, key)


@pytest.mark.parametrize(
    "typed", ["3333BR", "333444555BR6", "3333+4444", "3334445555+6666", "333444555+6666"]
)
def test_rockets_and_bombs_are_never_attachments(typed: str) -> None:
    with pytest.raises(IllegalActionError):
        parse_play(typed)


@pytest.mark.parametrize(
    ("typed", "reading"),
    [
        ("333444555666 plane", "plane"),
        ("333444555666 Wings", "plane"),
        ("333444555666飞机", "plane"),
        ("333444555666 带翅膀", "plane"),
        ("333444555666 chain", "chain"),
        ("333444555666 TRIOS", "chain"),
        ("333444555666三顺", "chain"),
    ],
)
def test_reading_words_and_aliases(typed: str, reading: str) -> None:
    play = parse_play(typed)
    assert play is not None and play.text == f"333444555666 {reading}"
    assert parse_play(play.text) == play  # the canonical text reads back the same


def test_a_bare_ambiguous_play_names_its_typed_forms() -> None:
    with pytest.raises(IllegalActionError) as err:
        parse_play("3 3 3 4 4 4 5 5 5 6 6 6")
    assert err.value.text is not None and err.value.text.key == "err.ddz.ambiguous"
    assert "`333444555666 chain` / `333444555666 plane`" == err.value.text.args["forms"]
    with pytest.raises(IllegalActionError) as err:
        parse_play("333444 plane")  # a reading the cards do not have
    assert err.value.text is not None and err.value.text.key == "err.ddz.no_reading"


# Cases where DouZero 1.1.0 and RLCard 1.2.0 agree, checked against both with a comparison
# run over random and trio-rich hands (the judges themselves are not needed here):
# (hand, previous, plays the judges list that the old rule refused, plays nobody lists).
JUDGED = [
    ("333355", None, ["333355"], []),
    ("33335566", None, ["333355", "333366", "333356", "33335566"], ["3333566"]),
    ("5556668899", None, ["55566688", "55566699"], []),
    ("555566BR", "444433", ["555566"], ["5555BR"]),
    ("5556667788", "33344456", ["55566677", "55566688"], []),
    ("33344455", "3333+66", [], ["33344455"]),
    ("3456789TJQKA", "34567", ["789TJ"], ["3456789"]),
    ("33334444BR", None, ["333344", "334444"], ["33334444", "3333BR", "3334444"]),
]


@pytest.mark.parametrize(("hand", "previous", "listed", "refused"), JUDGED)
def test_agrees_with_douzero_and_rlcard(
    hand: str, previous: str | None, listed: list[str], refused: list[str]
) -> None:
    plays = legal_plays(hand, previous)
    assert set(listed) <= set(plays)
    assert not set(refused) & set(plays)


def test_trio_kicker_may_be_a_two_or_a_joker() -> None:
    assert parse_play("KKK2").pattern is P.TRIO_SINGLE  # type: ignore[union-attr]
    assert parse_play("KKKR").pattern is P.TRIO_SINGLE  # type: ignore[union-attr]
    assert parse_play("KKK22").pattern is P.TRIO_PAIR  # type: ignore[union-attr]


def test_single_kicker_rules_without_pair_kickers() -> None:
    """麻辣斗地主's rules (attachments are singles only) are a PatternRules flag."""
    spicy = PatternRules(pair_kickers=False)
    assert play_of(parse_cards("44499"), spicy) is None
    assert play_of(parse_cards("4449"), spicy) is not None
    assert play_of(parse_cards("4444+55+77"), spicy) is None
    assert play_of(parse_cards("333444+7799"), spicy) is None
    no_four = PatternRules(four_with_two=False)
    assert play_of(parse_cards("5555+3+8"), no_four) is None
    assert play_of(parse_cards("5555"), no_four) is not None


# --- comparison (牌型的大小) --------------------------------------------------------------------
COMPARISONS = [
    # rocket beats everything; nothing beats the rocket
    ("BR", "2222", True),
    ("BR", "3", True),
    ("BR", "333444555666789T", True),
    ("2222", "BR", False),
    ("BR", "BR", False),
    # bombs beat every non-bomb, compare by rank
    ("3333", "2", True),
    ("3333", "AAA22", True),
    ("3333", "3456789TJQKA", True),
    ("3333", "2222+K+A", True),  # a bomb beats 四带二 (四带二 is not a bomb)
    ("4444", "3333", True),
    ("3333", "4444", False),
    ("2222", "AAAA", True),
    ("5555+3+8", "4444", False),  # 四带二 is not a bomb
    ("2", "3333", False),
    # singles by rank; jokers above 2
    ("4", "3", True),
    ("3", "4", False),
    ("2", "A", True),
    ("B", "2", True),
    ("R", "B", True),
    ("B", "R", False),
    ("3", "3", False),
    # same pattern and same count only
    ("44", "3", False),
    ("33", "22", False),
    ("KK", "QQ", True),
    ("JJJ", "TTT", True),
    ("JJJ", "TTT5", False),
    ("JJJ3", "TTT5", True),
    ("JJJ3", "TTT55", False),  # 三带一 and 三带一对 are different patterns
    ("33JJJ", "TTTAA", True),  # the kicker does not matter
    ("TTT2", "JJJ3", False),
    ("56789", "45678", True),
    ("56789", "3456789", False),  # different lengths
    ("456789", "45678", False),
    ("TJQKA", "9TJQK", True),
    ("445566", "334455", True),
    ("445566", "33445566", False),
    ("444555", "333444", True),
    ("444555", "333444555", False),
    ("44455567", "33344489", True),  # planes by the trio chain
    ("33344489", "444555TJ", False),
    ("4445556677", "33344489", False),  # single wings vs pair wings
    ("4445556677", "3334448899", True),
    ("6666+3+4", "5555+A+2", True),  # 四带二 by the four
    ("6666+33+44", "5555+AA+22", True),
    ("6666+3+4", "5555+AA+22", False),
]


@pytest.mark.parametrize(("a", "b", "expected"), COMPARISONS)
def test_comparison_table(a: str, b: str, expected: bool) -> None:
    pa, pb = parse_play(a), parse_play(b)
    assert pa is not None and pb is not None
    assert beats(pa, pb) is expected
    assert (pa.text in legal_plays(pa.text, pb.text)) is expected
