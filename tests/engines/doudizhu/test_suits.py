"""花色: every 斗地主 keeps the suits of the cards it dealt, for the pictures (``View.shown``).

The notation stays rank-only; the views carry the suited twin of exactly the cards they show.
"""

from __future__ import annotations

import itertools
from collections import Counter

import pytest
from ddz_support import SPEC, new, rig

from engines.base import Setup, Shown, View
from engines.cards import Card, climb_counts, parse_cards
from engines.doudizhu import DoudizhuGame, FiveGame
from engines.doudizhu.game import WildGame
from engines.doudizhu.notation import RANKS, ranked
from engines.doudizhu.notation import parse_cards as parse_ranks
from engines.doudizhu.suits import Suits

KEYS = tuple(SPEC)
SEEDS = (1, 7, 2024)


def start(key: str, seed: int, **kwargs: object) -> DoudizhuGame | FiveGame:
    spec = SPEC[key]
    game = spec.new(Setup(seats=spec.min_seats, seed=seed, options=spec.options, **kwargs))
    assert isinstance(game, DoudizhuGame | FiveGame)
    return game


def kitty_holder(game: DoudizhuGame | FiveGame) -> int | None:
    """The seat the kitty went to (None: still face down)."""
    if isinstance(game, FiveGame):
        return game.landlord
    return game.landlord if game.kitty_taken else None


def given(game: DoudizhuGame | FiveGame, seat: int) -> list[Card]:
    """The physical cards dealt to ``seat``, and the kitty if it took it."""
    cards = list(game.suits.dealt[seat])
    return cards + list(game.suits.kitty) if kitty_holder(game) == seat else cards


def held(game: DoudizhuGame | FiveGame) -> list[list[Card]]:
    out = []
    for seat in range(game.n):
        cards = game.suits.cards(seat, game.hands[seat])
        assert cards is not None
        out.append(cards)
    return out


def order(card: Card) -> tuple[int, int]:
    """The documented leaving order within a rank: ♠ ♥ ♣ ♦, the first deck's copy first."""
    return (card.suit.index if card.suit else 0, card.copy)


def tokens(text: str | None) -> list[str]:
    return text.split() if text else []


def ranks_of(text: str) -> str:
    """The rank-only notation of suited tokens (``3s 3h B`` → ``33B``)."""
    return "".join(t[0] for t in text.split())


def check_twins(game: DoudizhuGame | FiveGame, view: View) -> None:
    """The twin shows exactly the cards the view shows, and nothing the view does not."""
    shown = view.shown or Shown()
    if view.hand is None:
        assert shown.hand is None
    elif view.hand:
        assert shown.hand is not None and ranks_of(shown.hand) == view.hand
    assert len(shown.seats) in (0, len(view.seats))
    for i, sv in enumerate(view.seats):
        twin = shown.seat(i)
        if sv.cards is None:
            assert twin is None, (i, twin)
        elif sv.cards:
            assert twin is not None and ranks_of(twin) == sv.cards
    assert len(shown.lines) in (0, len(view.lines))
    for k, line in enumerate(view.lines):
        twin = shown.line(k)
        cards = line.args.get("cards", line.args.get("card"))
        if twin is None:
            assert line.key != "ddz.line.kitty", line
            continue
        assert isinstance(cards, str)
        # a 癞子 play is written cards=reading (the twin: the cards given up), a plane may end
        # in its reading word, the open card is labelled ``10`` or ``B 小王``
        assert ranks_of(twin) == str(cards).split("=")[0].split(" ")[0].replace("10", "T")
    # the round: each seat's last play has its twin, its earlier plays and a pass none
    played = view.round or ()
    assert len(shown.round) in (0, len(played))
    last = {p.seat: k for k, p in enumerate(played)}
    for k, p in enumerate(played):
        twin = shown.play(k)
        if p.cards is None or last[p.seat] != k:
            assert twin is None, (k, p, twin)
        else:
            assert twin is not None and ranks_of(twin) == p.cards.split("=")[0]


def play_through(game: DoudizhuGame | FiveGame) -> int:
    """Let the trustee play the hand out, checking the suits after every action; the number
    of plays checked."""
    every = Counter(c for s in range(game.n) for c in game.suits.dealt[s]) + Counter(
        game.suits.kitty
    )
    # one physical card is dealt once: no two places hold the same card of the same deck
    assert max(every.values()) == 1
    plays = 0
    while not game.is_over():
        seat = game.to_act()[0]
        before = held(game)
        deal_no = getattr(game, "deal_no", 0)
        action = game.apply(seat, game.trustee(seat))
        if getattr(game, "deal_no", 0) != deal_no:
            return plays + play_through(game)  # 都不叫: a new deal, new cards
        after = held(game)
        for s in range(game.n):
            mine = Counter(after[s])
            # every card from the real deal, of this seat's, once; counts per rank as the hand
            assert not mine - Counter(given(game, s)), (s, mine - Counter(given(game, s)))
            assert climb_counts(after[s]) == tuple(game.hands[s])
        left = Counter(before[seat]) - Counter(after[seat])
        public = game.view(None)
        if sum(left.values()):
            plays += 1
            assert public.round and public.round[-1].seat == seat
            k = len(public.round) - 1
            assert public.shown is not None
            # the last play is drawn with the suits that left the hand
            assert sorted(tokens(public.shown.play(k))) == sorted(map(str, left.elements()))
            twin = partner_twin(game, seat)
            for rank in {c for c in left.elements()}:
                of_rank = sorted((c for c in before[seat] if c.rank == rank.rank), key=order)
                if twin is not None and twin in of_rank:
                    of_rank.remove(twin)
                    of_rank.insert(0, twin)
                gone = [c for c in left.elements() if c.rank == rank.rank]
                assert sorted(gone, key=order) == sorted(of_rank[: len(gone)], key=order), action
        else:
            assert after[seat] == before[seat] or kitty_holder(game) == seat
        for viewer in (*range(game.n), None):
            view = game.view(viewer)
            check_twins(game, view)
            if viewer is not None and view.hand:
                assert view.shown is not None
                assert view.shown.hand == " ".join(map(str, after[viewer]))
    return plays


def partner_twin(game: DoudizhuGame | FiveGame, seat: int) -> Card | None:
    """五人's 暗地主 plays the 明牌's twin first of its rank."""
    if not isinstance(game, FiveGame) or seat != game.partner:
        return None
    rank, suit = game.marker
    return next(
        c for c in game.suits.dealt[seat]
        if c.suit is not None and c.suit.index == suit and RANKS[_climb(c)] == RANKS[rank]
    )  # fmt: skip


def _climb(card: Card) -> int:
    return climb_counts([card]).index(1)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("key", KEYS)
def test_every_variant_keeps_the_dealt_suits_through_a_whole_hand(key: str, seed: int) -> None:
    game = start(key, seed)
    if isinstance(game, DoudizhuGame):
        # the suited deal is the pinned deal (tests/engines/cards/golden_deals.json) with suits
        for s in range(game.n):
            assert [_climb(c) for c in game.suits.dealt[s]] == game.dealt[s]
        assert tuple(_climb(c) for c in game.suits.kitty) == game.kitty_cards
    else:
        for s in range(game.n):
            assert list(climb_counts(given(game, s))) == game.hands[s]
        rank, suit = game.marker
        marker = [c for c in game.suits.dealt[game.landlord] if _climb(c) == rank]
        assert any(c.suit is not None and c.suit.index == suit for c in marker)
    assert play_through(game) > 0


def test_a_shown_hand_carries_its_suits_to_every_view() -> None:
    """明牌开始: seat 0's cards are public, so every view draws them with their suits."""
    game = start("doudizhu_happy", 5, starts=((0, "show 5"),))
    own = game.view(0).shown
    assert own is not None and own.hand
    for viewer in (None, 1, 2):
        view = game.view(viewer)
        assert view.seats[0].cards and view.shown is not None
        assert view.shown.seat(0) == own.hand
        assert all(view.shown.seat(s) is None for s in (1, 2) if s != viewer)
    play_through(game)


def test_a_restored_game_shows_the_same_suits() -> None:
    for key in KEYS:
        game = start(key, 11)
        for _ in range(20):
            if game.is_over():
                break
            seat = game.to_act()[0]
            game.apply(seat, game.trustee(seat))
        again = SPEC[key].from_record(game.to_record())
        for viewer in (*range(game.n), None):
            assert again.view(viewer) == game.view(viewer), (key, viewer)
        assert again.view(0).shown is not None and again.view(0).shown.hand  # type: ignore[union-attr]


def test_the_public_view_has_no_hand_and_the_kitty_keeps_its_suits_hidden() -> None:
    game = new(seed=3)
    kitty = {str(c) for c in game.suits.kitty}
    for viewer in (None, 0, 1, 2):
        view = game.view(viewer)
        shown = view.shown or Shown()
        seen = tokens(shown.hand) + [t for s in shown.seats for t in tokens(s)]
        seen += [t for line in shown.lines for t in tokens(line)]
        mine = {str(c) for c in game.suits.dealt[viewer]} if viewer is not None else set()
        # before the kitty is turned up nobody sees its suits, nor another seat's
        assert not set(seen) & kitty and set(seen) <= mine
    assert game.view(None).shown is None
    bidder = game.to_act()[0]
    game.apply(bidder, "bid 3")
    public = game.view(None)
    assert public.hand is None and public.shown is not None and public.shown.hand is None
    k = next(k for k, t in enumerate(public.lines) if t.key == "ddz.line.kitty")
    assert set(tokens(public.shown.line(k))) == kitty
    assert all(s is None for s in public.shown.seats)


def test_the_blind_kitty_and_an_unseen_hand_carry_no_suits() -> None:
    """麻辣 闷抓: the kitty stays hidden (even its suits), and a hand not looked at is unseen."""
    game = SPEC["doudizhu_mala"].new(Setup(seats=3, seed=6))
    assert isinstance(game, DoudizhuGame)
    landlord = game.open_seat  # type: ignore[attr-defined]
    for viewer in (None, 0, 1, 2):
        assert game.view(viewer).shown is None or game.view(viewer).shown.hand is None  # type: ignore[union-attr]
    game.apply(landlord, "闷抓")
    kitty = {str(c) for c in game.suits.kitty}
    for viewer in (None, 0, 1, 2):
        shown = game.view(viewer).shown or Shown()
        assert shown.hand is None  # nobody has looked
        assert not any(shown.lines[k] and set(tokens(shown.lines[k])) & kitty
                       for k in range(len(shown.lines))
                       if game.view(viewer).lines[k].key != "ddz.line.open_card")
    # the open card, public to all, is drawn as the very card dealt
    line = game.view(None).lines[0]
    assert line.key == "ddz.line.open_card"
    open_card = game.view(None).shown.line(0)  # type: ignore[union-attr]
    assert open_card is not None and open_card[0] == RANKS[game.open_rank]  # type: ignore[attr-defined]
    assert any(str(c) == open_card for c in game.suits.dealt[landlord])


def test_the_five_partner_stays_hidden_in_every_picture_until_known() -> None:
    """五人: the 明地主 does not see the 暗地主's cards (nor their suits) before it is known;
    then the two see each other's, suits and all; and the 暗地主 plays the twin first."""
    for seed in itertools.count():
        game = start("doudizhu_five", seed)
        assert isinstance(game, FiveGame)
        if game.partner is not None:
            break
    partner, landlord = game.partner, game.landlord
    assert partner is not None
    twin = partner_twin(game, partner)
    assert twin is not None
    # the twin is drawn first of its rank in the 暗地主's own picture
    hand = tokens(game.view(partner).shown.hand)  # type: ignore[union-attr]
    assert next(t for t in hand if t[0] == str(twin)[0]) == str(twin)
    for viewer in (None, *(s for s in range(5) if s != partner)):
        shown = game.view(viewer).shown or Shown()
        assert shown.seat(partner) is None
        assert shown.hand is None or viewer is not None
    game.apply(partner, "reveal")
    game.apply(landlord, "noreveal")
    mine = game.view(landlord).shown
    assert mine is not None and mine.seat(partner) == game.view(partner).shown.hand  # type: ignore[union-attr]
    for farmer in (s for s in range(5) if s not in (landlord, partner)):
        assert (game.view(farmer).shown or Shown()).seat(partner) is None


def test_a_wild_card_standing_in_leaves_as_itself() -> None:
    """癞子: ``445567=445566`` gives up the 7 (the 癞子); the picture of the last play shows
    the real 7 that left the hand, not a 6 the hand never held."""
    for seed in itertools.count():
        game = start("doudizhu_wild", seed)
        assert isinstance(game, WildGame)
        while not game.is_over():
            seat = game.to_act()[0]
            before = held(game)[seat]
            action = game.apply(seat, game.trustee(seat))
            if "=" not in action:
                continue
            gone = Counter(before) - Counter(held(game)[seat])
            given_up = action.split("=")[0]
            assert "".join(sorted((str(c)[0] for c in gone.elements()), key=RANKS.index)) \
                == given_up
            wild = [c for c in gone.elements() if _climb(c) == game.wild]
            assert wild  # the 癞子 card itself left the hand
            public = game.view(None)
            assert public.round is not None
            k = len(public.round) - 1
            assert public.round[k].cards == action  # the text is as it always was
            assert sorted(tokens(public.shown.play(k))) == sorted(map(str, gone.elements()))  # type: ignore[union-attr]
            return
        assert seed < 200


def test_a_hand_set_outside_the_deal_gets_no_suits() -> None:
    """A hand that holds more of a rank than it was dealt (a rigged test deal) is drawn by its
    notation: no twin is made up for it."""
    game = new(seed=1)
    rig(game, ["3333444455556", "", "666777788889"], "99T")
    dealt = Counter(_climb(c) for c in game.suits.dealt[0])
    assert any(game.hands[0][r] > dealt[r] for r in range(15))
    view = game.view(0)
    assert view.hand == "3333444455556" and (view.shown is None or view.shown.hand is None)


def test_old_saved_views_load_and_new_ones_round_trip() -> None:
    game = start("doudizhu", 4)
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    final = game.view(None)
    assert final.shown is not None
    assert all(final.shown.seat(i) for i, sv in enumerate(final.seats) if sv.cards)
    assert View.from_json(final.to_json()) == final
    old = final.to_json()
    del old["shown"]  # a final view saved before the suits existed
    assert View.from_json(old).shown is None


def test_suits_leave_in_the_documented_order() -> None:
    """The rule of ``engines.doudizhu.suits``: of a rank, ♠ then ♥ then ♣ then ♦ leave."""
    suits = Suits([[ranked(c) for c in parse_cards("7d 7c 7s 7h 3d", jokers=True)]])
    seven = RANKS.index("7")
    for left, text in ((4, "3d 7s 7h 7c 7d"), (3, "3d 7h 7c 7d"), (1, "3d 7d")):
        counts = list(parse_ranks("3" + "7" * left))
        assert suits.hand(0, counts) == ("3" + "7" * left, text)
    counts = list(parse_ranks("37"))
    assert suits.played(0, counts, ((seven, 2),)) == "7h 7c"
