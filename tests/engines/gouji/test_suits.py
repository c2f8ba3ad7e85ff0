"""花色 (issue 26, "够级 cards with suits"): 够级 keeps the suits of the cards it dealt, for the
pictures (``View.shown``). The notation and every text stay rank-only; the views carry the
suited twin of exactly the cards they show: the seat's own hand, the play on the table and
each play of the round so far (and of the previous round). Which card of a rank leaves a hand
on a rank-only play: the first in the hand's order ♠ ♥ ♣ ♦ (docs/games/gouji.md)."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engines.base import GameSpec, Setup, Shown, View
from engines.climbing.notation import RANKS, deal_ranks
from engines.gouji import GOUJI, GOUJI_NEW
from engines.gouji.game import GoujiGame

SPECS = (GOUJI_NEW, GOUJI)
SUITS = "shcd"


def new(spec: GameSpec, seed: int, carry: dict | None = None, **options: object) -> GoujiGame:
    game = spec.new(Setup(seats=6, seed=seed, options=spec.validate(dict(options)),
                          carry=carry or {}))
    assert isinstance(game, GoujiGame)
    return game


def dealt(seed: int) -> list[list[str]]:
    """Each seat's dealt cards as suited tokens, from the seed alone (the deal is the first
    thing the seed's random numbers do): ``3s``, ``Td``, jokers ``B``/``R``."""
    return [[token(r, s) for r, s in hand] for hand in deal_ranks(random.Random(seed), 4, 6, 36)]


def token(rank: int, suit: int) -> str:
    return RANKS[rank] if RANKS[rank] in "BR" else RANKS[rank] + SUITS[suit]


def tokens(text: str | None) -> list[str]:
    return text.split() if text else []


def ranks_of(text: str | None) -> str:
    return "".join(t[0] for t in tokens(text))


def by_rank(cards: list[str]) -> dict[str, list[str]]:
    """Suited tokens grouped by rank, each rank in the hand's order ♠ ♥ ♣ ♦."""
    out: dict[str, list[str]] = {}
    for t in sorted(cards, key=lambda t: SUITS.index(t[1]) if len(t) > 1 else 0):
        out.setdefault(t[0], []).append(t)
    return out


def check_private(view: View, seat: int | None) -> None:
    """The twin shows exactly the cards the view shows, and nothing the view does not."""
    shown = view.shown or Shown()
    if seat is None or not view.hand:
        assert shown.hand is None
    else:
        assert ranks_of(shown.hand) == view.hand
        assert all(len(t) == 2 or t in "BR" for t in tokens(shown.hand))
    for i, sv in enumerate(view.seats):
        if sv.cards:
            assert ranks_of(shown.seat(i)) == sv.cards
        else:
            assert shown.seat(i) is None, (seat, i)  # another seat's hand carries no suits
    for k, line in enumerate(view.lines):
        twin = shown.line(k)
        if twin is not None:
            assert ranks_of(twin) == line.args["cards"]
    plays = view.round or ()
    assert len(shown.round) in (0, len(plays))
    for k, p in enumerate(plays):
        assert ranks_of(shown.play(k)) == (p.cards or "")
    last = view.last_round.plays if view.last_round is not None else ()
    assert len(shown.last_round) in (0, len(last))
    for k, p in enumerate(last):
        assert ranks_of(shown.last_play(k)) == (p.cards or "")


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
def test_a_seat_sees_its_hand_with_the_suits_it_was_dealt(spec: GameSpec) -> None:
    seed = 3
    game = new(spec, seed)
    for seat, cards in enumerate(dealt(seed)):
        view = game.view(seat)
        assert view.shown is not None and view.hand
        # the same cards as the text says (which is unchanged), with their suits
        assert ranks_of(view.shown.hand) == view.hand == view.seats[seat].cards
        assert Counter(tokens(view.shown.hand)) == Counter(cards)
        assert view.shown.seat(seat) == view.shown.hand
        assert any(t[-1] in "hd" for t in tokens(view.shown.hand))
        assert any(t[-1] in "sc" for t in tokens(view.shown.hand))
        check_private(view, seat)
    check_private(game.view(None), None)


def play_through(game: GoujiGame, given: list[list[str]]) -> int:
    """Let the trustee play the hand out, checking after every play that its cards left the
    seat's hand as the first of their rank (♠ ♥ ♣ ♦) and that nobody sees another's suits;
    the number of plays checked."""
    plays = 0
    held = {s: tokens((game.view(s).shown or Shown()).hand) for s in range(6)}
    assert sorted(sum(held.values(), [])) == sorted(sum(given, []))
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
        for viewer in (None, *range(6)):
            check_private(game.view(viewer), viewer)
        public = game.view(None)
        shown = public.shown or Shown()
        assert public.round is not None
        now = {s: tokens((game.view(s).shown or Shown()).hand) for s in range(6)}
        for s in range(6):
            left = Counter(held[s]) - Counter(now[s])
            if not left:
                continue
            assert not Counter(now[s]) - Counter(held[s])  # nothing enters a hand in play
            # the play just made, as the round shows it (上一轮 when it closed the round, as
            # 挂大花 does in 新够级): its twin is the cards that left
            last = public.last_round.plays if public.last_round is not None else ()
            mine = [shown.play(k) for k, p in enumerate(public.round) if p.seat == s and p.cards]
            mine = mine or [shown.last_play(k) for k, p in enumerate(last)
                            if p.seat == s and p.cards]
            played = tokens(mine[-1])
            assert Counter(played) == left
            before = by_rank(held[s])
            for rank, cards in by_rank(played).items():
                assert before[rank][:len(cards)] == cards, (s, rank, before[rank], cards)
            plays += 1
        held = now
        # the round's twins are public: every seat sees the same suits of the plays
        for viewer in range(6):
            mine = game.view(viewer).shown or Shown()
            assert (mine.round, mine.last_round) == (shown.round, shown.last_round)
    return plays


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.key)
@pytest.mark.parametrize("seed", [1, 7])
def test_the_cards_that_leave_a_hand_are_the_first_of_their_rank(spec: GameSpec,
                                                                   seed: int) -> None:
    game = new(spec, seed)
    assert play_through(game, dealt(seed)) > 20


def test_suits_are_a_function_of_the_deal_and_the_log() -> None:
    """A restored game (the log replayed from the seed) shows the same suits, mid-hand and at
    the end."""
    game = new(GOUJI_NEW, 11)
    for step in range(200):
        if game.is_over():
            break
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
        if step in (30, 90):
            again = GOUJI_NEW.from_record(game.to_record())
            for viewer in (None, *range(6)):
                assert again.view(viewer).shown == game.view(viewer).shown
                assert again.view(viewer) == game.view(viewer)
            public = game.view(None).shown
            assert public is not None and (public.round or public.last_round)
    again = GOUJI.from_record(new(GOUJI, 11).to_record())
    assert again.view(2).shown == new(GOUJI, 11).view(2).shown


def test_tribute_moves_the_first_cards_of_the_biggest_ranks_with_their_suits() -> None:
    seed = 8
    carry = {"game": 2, "tributes": [[5, 0, 2, "luo"], [1, 4, 1, "dian"]], "first": None}
    game = new(GOUJI_NEW, seed, carry)
    deal = dealt(seed)
    hands = [tokens((game.view(s).shown or Shown()).hand) for s in range(6)]
    for s in range(6):
        assert ranks_of(" ".join(hands[s])) == game.view(s).hand
    assert sorted(sum(hands, [])) == sorted(sum(deal, []))  # no card made or lost
    # 点贡 1 from seat 2 to seat 5: seat 2's biggest card, the first of its rank (♠ ♥ ♣ ♦)
    biggest = max(deal[1], key=lambda t: RANKS.index(t[0]))[0]
    moved = by_rank(deal[1])[biggest][0]
    assert Counter(hands[4]) - Counter(deal[4]) == Counter([moved])
    assert Counter(deal[1]) - Counter(hands[1]) == Counter([moved])
    # 落贡 2 from seat 6 to seat 1, and 还贡: what seat 1 gives back joins seat 6's hand
    assert len(hands[0]) == len(hands[5]) == 36
    assert not Counter(hands[5]) - Counter(deal[5]) - (Counter(deal[0]) - Counter(hands[0]))


def test_buying_threes_moves_suited_cards() -> None:
    for seed in range(6):
        game = new(GOUJI_NEW, seed, beisan=True)
        hands = [tokens((game.view(s).shown or Shown()).hand) for s in range(6)]
        assert sorted(sum(hands, [])) == sorted(sum(dealt(seed), []))
        for s in range(6):
            assert ranks_of(" ".join(hands[s])) == game.view(s).hand


def test_a_written_position_has_no_suits_to_show() -> None:
    """Hands written in the rank-only notation (tests, examples) were never dealt: no twin."""
    game = GoujiGame.position(["AA 5 6", "R22 4", "R22 7", "KK 9", "8 8", "T J"], leader=0)
    game.apply(0, "AA")
    assert game.view(0).shown is None and game.view(None).shown is None


def test_the_suits_module_examples() -> None:
    import doctest

    import engines.gouji.suits

    assert doctest.testmod(engines.gouji.suits).failed == 0
