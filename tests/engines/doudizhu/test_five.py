"""五人斗地主 (001 《五人斗地主》; GAMES.md §2.8): two decks, 明地主 / hidden 暗地主, 亮出身份,
加倍, the bomb ladder with 双王/三王/天王, the 2-vs-3 formula, privacy, records, the trustee."""

from __future__ import annotations

import doctest
import itertools
import random

import pytest
from ddz_support import SPEC

import engines.doudizhu.five as five_module
from engines.base import Setup, Timeout, net_points
from engines.doudizhu.five import FiveGame, beats, bomb_factor, classify, plays
from engines.doudizhu.four import LIMITS, parse
from engines.doudizhu.notation import NRANKS, RANKS, format_cards
from engines.doudizhu.patterns import Play
from engines.errors import IllegalActionError, NotationError, OptionError


def five(seed: int = 1, **options: object) -> FiveGame:
    game = SPEC["doudizhu_five"].new(Setup(seats=5, seed=seed, options=options))
    assert isinstance(game, FiveGame)
    return game


def with_partner(two: bool) -> FiveGame:
    """The first seeded deal with (or without) a 暗地主."""
    for seed in itertools.count():
        game = five(seed)
        if (game.partner is not None) == two:
            return game
    raise AssertionError


def rig(game: FiveGame, hands: dict[int, str]) -> None:
    """Give some seats chosen cards (the rest of the state is the seeded deal's)."""
    for seat, text in hands.items():
        game.hands[seat] = list(parse(text))


def play_of(text: str) -> Play:
    play = classify(parse(text))
    assert play is not None, text
    return play


def pattern(text: str) -> str | None:
    play = classify(parse(text))
    return None if play is None else play.pattern.name


@pytest.mark.parametrize(
    ("cards", "name"),
    [
        ("3", "SINGLE"),
        ("B", "SINGLE"),
        ("34567", "STRAIGHT"),  # 顺子: five or more
        ("3456", None),
        ("TJQKA2", None),  # 2 and jokers never in a sequence
        ("55", "PAIR"),
        ("BB", "ROCKET"),  # 对子: 除王外; two small jokers are 双王炸弹
        ("RR", "ROCKET"),
        ("BR", None),
        ("556677", "PAIR_STRAIGHT"),  # the seed's example
        ("5566", None),
        ("333", "TRIO"),
        ("555666", "PLANE"),  # the seed's example
        ("55577", "TRIO_PAIR"),  # the seed's example
        ("5557", None),
        ("555BB", None),  # a joker pair is no pair
        ("555666777+99JJKK", "PLANE_PAIRS"),  # the seed's example
        ("555666+9J", None),
        ("6666", "BOMB"),  # the seed's examples
        ("777777", "BOMB"),
        ("22222222", "BOMB"),
        ("3333+56", None),  # no 四带二
        ("BBR", "ROCKET"),  # 三王炸弹: any three jokers
        ("BRR", "ROCKET"),
        ("BBRR", "KING_BOMB"),  # 天王炸弹
        ("3B", None),
    ],
)
def test_patterns(cards: str, name: str | None) -> None:
    assert pattern(cards) == name


LADDER = ["AAAA", "BB", "33333", "333333", "BBR", "3333333", "33333333", "BBRR"]
"""001: 4炸 < 双王 < 5炸 < 6炸 < 三王 < 7炸 < 8炸 < 天王炸弹."""


def test_bomb_ladder() -> None:
    bombs = [classify(parse(t)) for t in LADDER]
    for (i, low), (j, high) in itertools.product(enumerate(bombs), repeat=2):
        assert low is not None and high is not None
        assert beats(high, low) == (j > i), (LADDER[j], LADDER[i])
    # the same step: by rank
    assert beats(play_of("RR"), play_of("BB"))
    assert beats(play_of("BRR"), play_of("BBR"))
    assert beats(play_of("44444"), play_of("33333"))
    # any bomb beats any non-bomb; non-bombs need the same pattern and size
    assert beats(play_of("3333"), play_of("22"))
    assert not beats(play_of("22"), play_of("3333"))
    assert not beats(play_of("45678"), play_of("33"))


@pytest.mark.parametrize(
    ("bomb", "factor"),
    [
        ("AAAA", 1),
        ("BB", 1),
        ("33333", 2),
        ("333333", 2),
        ("BBR", 2),
        ("3333333", 2),
        ("33333333", 2),
        ("BBRR", 2),
    ],
)
def test_bomb_factors(bomb: str, factor: int) -> None:
    """001: each 5炸, 6炸, 三王, 7炸, 8炸, 天王 played ×2."""
    play = classify(parse(bomb))
    assert play is not None and bomb_factor(play) == factor


def brute(counts: tuple[int, ...]) -> set[str]:
    out = set()
    for sub in itertools.product(*(range(c + 1) for c in counts)):
        play = classify(sub) if any(sub) else None
        if play is not None:
            out.add(play.text)
    return out


@pytest.mark.parametrize("seed", range(30))
def test_generator_against_brute_force(seed: int) -> None:
    rnd = random.Random(seed)
    deck = [r for r in range(NRANKS) for _ in range(LIMITS[r])]
    counts = [0] * NRANKS
    for r in rnd.sample(deck, 12):
        counts[r] += 1
    hand = tuple(counts)
    generated = [p.text for p in plays(hand)]
    assert len(generated) == len(set(generated))
    assert set(generated) == brute(hand)
    for previous in plays(hand)[:: max(1, len(generated) // 5)]:
        assert {p.text for p in plays(hand, previous)} == {
            t for t in brute(hand) if beats(play_of(t), previous)
        }


def test_deal_and_landlords() -> None:
    """Two decks, 21 each, 3 kitty cards to the 明地主; the 明牌 is no joker; the 暗地主 holds
    the twin; when the twin is in the kitty or the 明地主's own hand there is one landlord."""
    seen = {1: 0, 2: 0}
    for seed in range(60):
        game = five(seed)
        sizes = [sum(h) for h in game.hands]
        assert sizes == [24 if s == game.landlord else 21 for s in range(5)]
        total = [sum(h[r] for h in game.hands) for r in range(NRANKS)]
        assert tuple(total) == LIMITS
        rank = game.marker[0]
        assert RANKS[rank] not in "BR"
        assert game.hands[game.landlord][rank] >= 1
        if game.partner is not None:
            assert game.hands[game.partner][rank] >= 1
        seen[len(game.landlords)] += 1
        assert game.phase() == "reveal"
        # 亮出身份 waits for the 明地主 alone; the 暗地主's is an offer to it only
        assert game.to_act() == game.public_to_act() == (game.landlord,)
        offered = {s: [c.action for c in game.open_offers(s)] for s in range(5)}
        assert offered == {s: ["reveal"] if s == game.partner else [] for s in range(5)}
    assert seen[1] and seen[2]


def farmer_views_hide_partner(game: FiveGame) -> None:
    partner = game.partner
    if partner is None or game.known:
        return
    for viewer in [None, *[s for s in range(5) if s not in game.landlords]]:
        view = game.view(viewer)
        assert view.seats[partner].role is None
        assert view.seats[partner].cards is None
        assert all(
            line.key not in ("ddz.line.five_hidden", "ddz.line.five_no_partner")
            for line in view.lines
        )
        assert partner not in game.public_to_act() or game.phase() != "reveal"
    # nor to the 明地主, until it is known
    assert game.view(game.landlord).seats[partner].cards is None


@pytest.mark.parametrize("seed", range(40))
def test_privacy_at_every_step(seed: int) -> None:
    """The 暗地主 is never shown to a farmer (nor the public) before it is known; once known
    the two landlords see each other's cards and the farmers still see none."""
    game = five(seed)
    rnd = random.Random(seed)
    farmer_views_hide_partner(game)
    while not game.is_over():
        offers = [(s, c.action) for s in range(5) for c in game.open_offers(s)]
        if offers and rnd.random() < 0.3:  # the 暗地主 reveals, sometimes
            game.apply(*offers[0])
            farmer_views_hide_partner(game)
            continue
        seat = game.to_act()[0]
        acts = game.legal_actions(seat)
        action = rnd.choice(acts) if game.phase() == "reveal" else game.trustee(seat)
        assert action in acts
        game.apply(seat, action)
        farmer_views_hide_partner(game)
        if game.known and game.partner is not None and not game.is_over():
            a, b = game.landlords
            assert game.view(a).seats[b].cards == format_cards(tuple(game.hands[b]))
            assert game.view(b).seats[a].cards == format_cards(tuple(game.hands[a]))
            for f in range(5):
                if f not in game.landlords:
                    assert game.view(f).seats[a].cards is None
                    assert game.view(f).seats[b].cards is None
                    assert game.view(f).seats[b].role is not None
    everyone = game.view(None)
    assert all(s.cards is not None for s in everyone.seats)


def test_partner_sees_itself_and_the_reveal_doubles() -> None:
    """The 暗地主 reveals when it likes while the 明地主 decides: ×2 and known to all, and the
    step still waits for the 明地主 alone, on the same deadline (``window``)."""
    game = with_partner(True)
    partner = game.partner
    assert partner is not None
    view = game.view(partner)
    assert view.seats[partner].role is not None
    keys = [line.key for line in view.lines]
    assert "ddz.line.five_hidden" in keys and "ddz.line.five_reveal_open" in keys
    assert game.public_to_act() == game.to_act() == (game.landlord,)
    assert game.multiplier() == 1
    window = game.window()
    assert game.apply(partner, "亮出身份") == "reveal"
    assert game.known and game.multiplier() == 2
    assert game.view(None).seats[partner].role is not None
    assert game.view(None).seats[partner].status is not None  # shown: 亮出身份
    assert "ddz.line.five_reveal_open" not in [line.key for line in game.view(partner).lines]
    assert game.phase() == "reveal" and game.to_act() == (game.landlord,)
    assert game.window() == window and game.open_offers(partner) == ()
    game.apply(game.landlord, "放弃")
    assert game.phase() == "double" and len(game.to_act()) == 5 and game.multiplier() == 2


def test_the_hidden_reveal_stays_open_until_its_own_double_answer() -> None:
    """001: 亮出身份, then 加倍. The 明地主's 放弃 closes the 亮出身份 step at once; the
    暗地主 may still reveal during 加倍 until it answers 加倍 itself (or its time runs out),
    never once the play starts; a late reveal is refused and changes nothing."""
    game = with_partner(True)
    partner = game.partner
    assert partner is not None
    game.apply(game.landlord, "放弃")
    assert game.phase() == "double" and not game.known
    assert [c.action for c in game.open_offers(partner)] == ["reveal"]
    window = game.window()
    assert game.apply(partner, "reveal") == "reveal"
    assert game.known and game.multiplier() == 2 and game.window() == window
    assert partner in game.to_act()  # its 加倍 is still to come
    game = with_partner(True)
    game.apply(game.landlord, "noreveal")
    game.apply(partner, game.timeout_action(partner).action)  # 不加倍 by the clock
    assert game.open_offers(partner) == ()
    before = game.snapshot()
    with pytest.raises(IllegalActionError) as exc:
        game.apply(partner, "亮出身份")
    assert exc.value.text is not None and exc.value.text.key == "err.ddz.five_reveal_closed"
    assert game.snapshot() == before and not game.known
    for seat in list(game.to_act()):
        game.apply(seat, "nodouble")
    assert game.phase() == "play" and game.open_offers(partner) == ()
    with pytest.raises(IllegalActionError):
        game.apply(partner, "reveal")
    assert not game.known


def test_a_timed_out_reveal_is_no_miss() -> None:
    """亮出身份 is optional: the 明地主's timed-out step is 放弃 and no miss (the 暗地主 is
    never timed: its reveal is an offer)."""
    game = with_partner(True)
    assert game.partner is not None and game.to_act() == (game.landlord,)
    timeout = game.timeout_action(game.landlord)
    assert timeout.action == "noreveal" and not timeout.miss
    game.apply(game.landlord, timeout.action)
    # 加倍 is optional too: letting its window pass is 不加倍, no miss; a card play is not
    assert game.phase() == "double"
    assert all(game.timeout_action(s) == Timeout("nodouble", miss=False) for s in range(5))
    for seat in list(game.to_act()):
        game.apply(seat, "nodouble")
    assert game.phase() == "play" and game.timeout_action(game.to_act()[0]).miss


def test_both_decline_then_the_twin_identifies_the_partner() -> None:
    """Neither reveals (the 明地主's 放弃, the 暗地主's offer left to lapse): the 暗地主 is known
    when it plays a card of the 明牌's rank (the twin), not before; then the two landlords'
    private pictures change (they see each other)."""
    game = with_partner(True)
    partner = game.partner
    assert partner is not None
    game.apply(game.landlord, "noreveal")
    for s in range(5):
        game.apply(s, "nodouble")
    assert game.phase() == "play" and game.to_act() == (game.landlord,)
    rank = RANKS[game.marker[0]]
    other = "3" if rank != "3" else "4"
    rig(game, {partner: rank + other + "K"})
    game.turn = partner  # the partner to lead
    game.apply(partner, other)
    assert not game.known
    assert game.view(game.landlord).seats[partner].cards != "K"
    game.last = None
    game.turn = partner
    game.apply(partner, rank)
    assert game.known and game.multiplier() == 1  # no reveal, no ×2
    assert game.view(game.landlord).seats[partner].cards == "K"


def finished(game: FiveGame, winner: int, doubled: tuple[int, ...] = ()) -> FiveGame:
    """End the hand at ``winner`` after every seat played once (no spring)."""
    game._phase = "play"
    game.pending = []
    game.doubled = [s in doubled for s in range(5)]
    game.played = [1] * 5
    game.winner = winner
    return game


def test_two_landlords_formula_and_rounding() -> None:
    """地主X = 农民数量×底分×倍数/地主数量 = 1.5×底分×倍数 (the 明地主 rounded half up, the
    暗地主 the rest), 农民X = 底分×倍数."""
    game = finished(with_partner(True), winner=with_partner(True).landlord)
    a, b = game.landlords
    out = game.outcome()
    assert out.points[a] == 2 and out.points[b] == 1
    assert all(out.points[f] == -1 for f in range(5) if f not in (a, b))
    assert out.points == net_points(5, out.transfers)
    game = finished(with_partner(True), winner=next(s for s in range(5) if s not in (a, b)))
    game.bomb_factors = [2]  # 倍数 2: 1.5×2 = 3 each, no rounding
    out = game.outcome()
    assert out.points[a] == out.points[b] == -3
    assert all(out.points[f] == 2 for f in range(5) if f not in (a, b))


def test_lone_landlord_formula_and_doubling() -> None:
    """One landlord against four: 地主X = 4×底分×倍数; a farmer's 加倍 doubles its own X."""
    game = with_partner(False)
    landlord = game.landlord
    farmers = [s for s in range(5) if s != landlord]
    out = finished(game, winner=landlord, doubled=(farmers[0],)).outcome()
    assert out.points[landlord] == 5
    assert out.points[farmers[0]] == -2
    assert all(out.points[f] == -1 for f in farmers[1:])
    assert any(line.key == "ddz.out.doubled" for line in out.lines)


def test_base_option_and_spring() -> None:
    """底分 = the room base; 失败方所有玩家一张牌也没出 ×2."""
    game = with_partner(False)
    seed = game.setup.seed
    game = finished(five(seed, base=3), winner=game.landlord)
    game.played = [1 if s == game.landlord else 0 for s in range(5)]
    assert game.spring() and game.multiplier() == 2
    assert game.outcome().points[game.landlord] == 4 * 3 * 2
    with pytest.raises(OptionError):
        five(1, base=0)
    with pytest.raises(OptionError):
        five(1, bid=2)


def test_escape_is_paid_by_the_escaper_alone() -> None:
    game = with_partner(True)
    a, b = game.landlords
    farmer = next(s for s in range(5) if s not in (a, b))
    game.escape(farmer)
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    out = game.outcome()
    escaped = [
        t for t in out.transfers if t.reason is not None and t.reason.key == "ddz.transfer.escape"
    ]
    assert escaped and all(t.payer == farmer for t in escaped)
    assert {t.payee for t in escaped} == {a, b}
    assert sum(t.points for t in escaped) == game.escape_penalties[farmer]
    assert all(farmer not in (t.payer, t.payee) for t in out.transfers if t not in escaped)
    assert sum(out.points) == 0


def test_bad_input_changes_nothing() -> None:
    game = with_partner(True)
    before = game.snapshot()
    farmer = next(s for s in range(5) if s not in game.landlords)
    with pytest.raises(IllegalActionError):
        game.apply(farmer, "reveal")  # a farmer is never asked
    with pytest.raises(IllegalActionError):
        game.apply(game.landlord, "33")
    assert game.partner is not None
    with pytest.raises(IllegalActionError):
        game.apply(game.partner, "noreveal")  # the 暗地主 has nothing to decline
    assert game.snapshot() == before
    game.apply(game.landlord, "noreveal")
    for s in range(5):
        game.apply(s, "nodouble")
    before = game.snapshot()
    with pytest.raises(IllegalActionError):
        game.apply(game.landlord, "pass")  # the landlord leads
    with pytest.raises(NotationError):
        game.apply(game.landlord, "3X")
    with pytest.raises(IllegalActionError):
        game.apply(game.landlord, "BR")  # no pattern
    with pytest.raises(IllegalActionError):
        game.apply((game.landlord + 1) % 5, "3")  # not its turn
    missing = next(r for r in range(NRANKS) if game.hands[game.landlord][r] == 0)
    with pytest.raises(IllegalActionError):
        game.apply(game.landlord, RANKS[missing])
    assert game.snapshot() == before


@pytest.mark.parametrize("seed", range(25))
def test_trustee_self_play_is_legal_and_replays(seed: int) -> None:
    """The trustee of every seat, its offers too (the 暗地主's reveal), legal; the record
    replays the hand."""
    game = five(seed)
    while not game.is_over():
        offers = [(s, a) for s in range(5) if (a := game.trustee_offer(s)) is not None]
        if offers:  # as the host does: the trustee's offers first
            seat, action = offers[0]
            assert action in [c.action for c in game.open_offers(seat)]
        else:
            seat = game.to_act()[0]
            action = game.trustee(seat)
            assert action in game.legal_actions(seat)
        game.apply(seat, action)
    out = game.outcome()
    assert sum(out.points) == 0 and out.points == net_points(5, out.transfers)
    again = SPEC["doudizhu_five"].from_record(game.to_record())
    assert isinstance(again, FiveGame) and again.snapshot() == game.snapshot()
    assert again.outcome() == out


def test_picker_offers_every_card() -> None:
    game = five(3)
    game.apply(game.landlord, "noreveal")
    for s in range(5):
        game.apply(s, "nodouble")
    picker = game.picker(game.landlord)
    assert picker is not None and len(picker.tokens) == 24
    assert all(size <= 25 for size in picker.groups)


def test_docstring_examples() -> None:
    result = doctest.testmod(five_module, raise_on_error=False)
    assert result.attempted > 0 and result.failed == 0
