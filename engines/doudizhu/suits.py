"""花色: the suited cards behind 斗地主's rank-only notation, for pictures.

斗地主 plays by rank (``33344``): a suit never decides anything, so the notation has none. The
deal still deals physical cards (``engines.cards.Card``), and a player expects the picture of
its hand to show the cards it was dealt. ``Suits`` keeps the physical cards of one deal —
each seat's, the kitty's, where the kitty went — and gives the suited twin of what a view
shows (``engines.base.Shown``): a seat's cards, the kitty, the last play.

**Which card leaves.** A play names ranks only, so of a rank the seat holds several of, the
cards that leave are the **first of that rank in the hand's order**, and a hand is kept in
suit order ♠ ♥ ♣ ♦, the first deck's copy before the second's (left to right, as its picture
draws a rank). In 癞子斗地主 the cards that leave are the ones given up (``Play.parts``: the
癞子 card itself where it stands for another rank). In 五人斗地主 the 暗地主 keeps the 明牌's
twin first of its rank, so its first card of that rank to leave — the one that makes it known
(001) — is the twin.

Since cards only ever leave a hand by that rule, and enter it only before the first play (the
deal, then the kitty), a seat's suited hand follows from its rank counts alone: of each rank,
the cards it was given less the first ones, as many as it has played. Nothing is moved per
play; the twin is worked out when a view asks for it (and kept until the counts change), and
a restored game (``Game.from_record`` replays the log from the seed) shows the same suits.

>>> from engines.cards import parse_cards
>>> from engines.doudizhu.notation import ranked
>>> def cards(text): return [ranked(c) for c in parse_cards(text, jokers=True)]
>>> s = Suits([cards("7d 3h 7s B")], cards("3s"))
>>> s.hand(0, (1,) + (0,) * 3 + (2,) + (0,) * 8 + (1, 0))
('377B', '3h 7s 7d B')
>>> s.take_kitty(0)
>>> s.hand(0, (2,) + (0,) * 3 + (1,) + (0,) * 8 + (1, 0))  # one 7 played: the 7♠ left
('337B', '3s 3h 7d B')
>>> s.played(0, (2,) + (0,) * 3 + (1,) + (0,) * 8 + (1, 0), ((4, 1),))
'7s'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engines.base import Shown, View
from engines.cards import Card, Suit, climb_index
from engines.doudizhu.notation import CH, NRANKS, Ranked
from engines.doudizhu.patterns import Play

Texts = tuple[str, str]
"""The same cards as (rank-only notation, suited notation)."""

_SUITS = tuple(Suit)  # ♠ ♥ ♣ ♦: Suit.index order
_CARD_RANKS = (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 1, 2, 14, 15)  # Card.rank by rank index


def card(rank: int, suit: int = 0, copy: int = 0) -> Card:
    """The physical card of rank index ``rank`` (``RANKS`` order), suit index ``suit`` (0..3
    for ♠ ♥ ♣ ♦; ignored for a joker) and deck ``copy``.

    >>> str(card(0, 3)), str(card(7, 1, 1)), str(card(14))
    ('3d', 'Th', 'R')
    """
    value = _CARD_RANKS[rank]
    return Card(value, None if value > 13 else _SUITS[suit], copy)


def _order(c: Card) -> tuple[int, int]:
    return (0 if c.suit is None else c.suit.index, c.copy)


def _pair_order(pair: Ranked) -> tuple[int, int]:
    return _order(pair[1])


def suited(cards: Sequence[Card]) -> str:
    """Cards in the suited notation of the pictures, by rank (3 … 2, 小王, 大王), within a rank
    ♠ ♥ ♣ ♦ and deck by deck: ``3s 3h Td B``."""
    return " ".join(map(str, sorted(cards, key=lambda c: (climb_index(c), _order(c)))))


class Suits:
    """The physical cards of one deal (``dealt[seat]``, ``kitty``) and where the kitty went.

    Made from the deal as it comes, (rank index, ``Card``) pairs (``notation.deal_suited``):
    a hand's cards are sorted out only when a view first asks for them."""

    __slots__ = (
        "_bottom", "_cache", "_first", "_hands", "_kitty_texts", "_kitty_to", "_lists", "_played"
    )  # fmt: skip

    def __init__(
        self, dealt: Sequence[Sequence[Ranked]], kitty: Sequence[Ranked] = ()
    ) -> None:
        self._hands = dealt
        self._bottom = kitty
        self._kitty_to: int | None = None
        self._first: dict[int, Card] = {}
        self._lists: dict[int, list[list[Card]]] = {}
        self._cache: dict[int, tuple[tuple[int, ...], Texts | None]] = {}
        self._kitty_texts: Texts | None = None
        self._played: dict[int, tuple[int, str | None]] = {}

    @property
    def dealt(self) -> tuple[tuple[Card, ...], ...]:
        """Each seat's cards in the order dealt."""
        return tuple(tuple(c for _, c in h) for h in self._hands)

    @property
    def kitty(self) -> tuple[Card, ...]:
        """The kitty (底牌), in the order dealt."""
        return tuple(c for _, c in self._bottom)

    def take_kitty(self, seat: int) -> None:
        """地主 takes the kitty (before any play): its cards join ``seat``'s hand."""
        self._kitty_to = seat
        self._lists.pop(seat, None)
        self._cache.pop(seat, None)

    def keep_first(self, seat: int, c: Card) -> None:
        """Put ``c`` first of its rank in ``seat``'s hand, so it is the first to leave."""
        self._first[seat] = c
        self._lists.pop(seat, None)
        self._cache.pop(seat, None)

    def given(self, seat: int) -> list[list[Card]]:
        """The cards ``seat`` was given (its deal, and the kitty if it took it), by rank, each
        rank in leaving order."""
        known = self._lists.get(seat)
        if known is not None:
            return known
        cards = list(self._hands[seat])
        if seat == self._kitty_to:
            cards += self._bottom
        lists: list[list[Card]] = [[] for _ in range(NRANKS)]
        for rank, c in sorted(cards, key=_pair_order):
            lists[rank].append(c)
        first = self._first.get(seat)
        if first is not None:
            same = lists[climb_index(first)]
            same.insert(0, same.pop(same.index(first)))
        self._lists[seat] = lists
        return lists

    def cards(self, seat: int, counts: Sequence[int]) -> list[Card] | None:
        """The physical cards ``seat`` holds with ``counts`` of each rank left, in rank order;
        None when it holds more of a rank than it was given (a hand not from this deal)."""
        out: list[Card] = []
        for have, given in zip(counts, self.given(seat), strict=True):
            if have:
                if have > len(given):
                    return None
                out += given[len(given) - have :]
        return out

    def hand(self, seat: int, counts: Sequence[int]) -> Texts | None:
        """``seat``'s cards (see ``cards``) as (rank-only, suited) notation; None as there."""
        key = tuple(counts)
        hit = self._cache.get(seat)
        if hit is not None and hit[0] == key:
            return hit[1]
        cards = self.cards(seat, key)
        texts = None
        if cards is not None:
            texts = ("".join([CH[r][c] for r, c in enumerate(key) if c]), " ".join(map(str, cards)))
        self._cache[seat] = (key, texts)
        return texts

    def played(
        self, seat: int, counts: Sequence[int], parts: Sequence[tuple[int, int]]
    ) -> str | None:
        """The suited cards of ``seat``'s last play (``Play.parts``: rank, count), the seat now
        holding ``counts``: of each rank the ones just before those it still holds."""
        mark = sum(counts)  # a hand only shrinks: its size names the seat's last play
        hit = self._played.get(seat)
        if hit is not None and hit[0] == mark:
            return hit[1]
        text = self._left(seat, counts, parts)
        self._played[seat] = (mark, text)
        return text

    def play_texts(self, seat: int, counts: Sequence[int], play: Play | None) -> Texts | None:
        """``seat``'s last play of the round (``View.round``) as (rank-only, suited) notation,
        the seat now holding ``counts``; None if it has none or its suits are not known."""
        if play is None:
            return None
        played = self.played(seat, counts, play.parts)
        return None if played is None else (play.text, played)

    def _left(
        self, seat: int, counts: Sequence[int], parts: Sequence[tuple[int, int]]
    ) -> str | None:
        given = self.given(seat)
        out: list[Card] = []
        for rank, c in parts:
            cards, left = given[rank], counts[rank]
            if left + c > len(cards):
                return None
            out += cards[len(cards) - left - c : len(cards) - left]
        return " ".join(map(str, out))

    def kitty_texts(self) -> Texts:
        """The kitty as (rank-only, suited) notation."""
        if self._kitty_texts is None:
            counts = [0] * NRANKS
            for rank, _ in self._bottom:
                counts[rank] += 1
            ranks = "".join([CH[r][n] for r, n in enumerate(counts) if n])
            self._kitty_texts = ranks, suited(self.kitty)
        return self._kitty_texts


def with_shown(
    view: View,
    seat: int | None,
    hand: Callable[[int], Texts | None],
    line: Callable[[str], Texts | None],
    played: Callable[[int], Texts | None] = lambda seat: None,
) -> View:
    """``view`` with its suited twin (``View.shown``): every card text the view shows — the
    hand, each seat's open cards, the ``cards``/``card`` of a line — gets the suited text of
    the same cards where they match its rank-only text (``hand(seat)``, ``line(key)``; None:
    no twin), and each seat's last play of the round (``View.round``) that of ``played(seat)``
    (earlier plays of the round get none). A text whose cards do not match gets none, and nothing the view does not show
    gets one, so the twin never tells a viewer more than its view. Called on every table
    update: it only reads what is cached (``Suits.hand``) and builds one new view."""
    mine = None
    if view.hand and seat is not None:
        texts = hand(seat)
        if texts is not None and texts[0] == view.hand:
            mine = texts[1]
    seats: list[str | None] | None = None
    for s, sv in enumerate(view.seats):
        if sv.cards:
            texts = hand(s)
            if texts is not None and texts[0] == sv.cards:
                if seats is None:
                    seats = [None] * len(view.seats)
                seats[s] = texts[1]
    rows: list[str | None] | None = None
    for k, text in enumerate(view.lines):
        args = text.args
        cards = args["cards"] if "cards" in args else args.get("card")
        if cards is None:
            continue
        texts = line(text.key)
        if texts is not None and texts[0] == cards:
            if rows is None:
                rows = [None] * len(view.lines)
            rows[k] = texts[1]
    plays: list[str | None] | None = None
    last = {p.seat: k for k, p in enumerate(view.round or ())}
    for s, k in last.items():
        cards = view.round[k].cards if view.round else None
        texts = played(s) if cards else None
        if texts is not None and texts[0] == cards:
            if plays is None:
                plays = [None] * len(view.round or ())
            plays[k] = texts[1]
    if mine is None and seats is None and rows is None and plays is None:
        return view
    shown = Shown(mine, () if seats is None else tuple(seats), () if rows is None else tuple(rows),
                  () if plays is None else tuple(plays))
    # A copy of the (frozen) view with ``shown`` set, field for field: dataclasses.replace
    # costs several times more, on every table update.
    out = object.__new__(View)
    out.__dict__.update(view.__dict__)
    out.__dict__["shown"] = shown
    return out
