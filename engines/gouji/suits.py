"""花色: the suited cards behind 够级's rank-only notation, for pictures.

够级 plays by rank (``22333``): a suit decides only 上班 (the most same-suit 3s), which is worked
out from the deal itself, so the notation has none. The deal still deals physical cards
(``deal_ranks``: (rank index, suit) pairs), and a player expects the picture of its hand to
show the cards it was dealt. ``Suits`` keeps each seat's suits rank by rank and follows every
card that moves: 进贡 and 还贡, 买3/要3 (the 3 and the money), and the plays.

**Which card leaves.** A play (or a tribute, a 3 sold, a 2 paid) names ranks only, so of a rank
the seat holds several of, the cards that leave are the **first of that rank in the hand's
order**, and a hand is kept in suit order ♠ ♥ ♣ ♦ (left to right, as its picture draws a
rank; the four decks' copies of a card are alike). A card that joins a hand (a tribute, a 3
bought) takes its place in that order. Everything is decided by the deal and the log, so a
restored game (``Game.from_record`` replays the log from the seed) shows the same suits.

>>> s = Suits([[(0, 3), (0, 0), (14, 0)], [(11, 1)]])
>>> s.hand(0)
'3s 3d R'
>>> s.take(0, (1,) + (0,) * 14), s.hand(0)
('3s', '3d R')
>>> s.move(1, 0, (0,) * 11 + (1,) + (0,) * 3), s.hand(0), s.hand(1)
(None, '3d Ah R', '')
"""

from __future__ import annotations

from collections.abc import Sequence

from engines.climbing.notation import NRANKS, RANKS, SMALL, Counts

_TOKENS = tuple(
    tuple(RANKS[r] if r >= SMALL else RANKS[r] + suit for suit in "shcd") for r in range(NRANKS)
)
"""The suited token of (rank index, suit index): ``3s`` … ``2d``; a joker is ``B``/``R``."""


class Suits:
    """Each seat's cards as suit indexes (0..3 for ♠ ♥ ♣ ♦; 0 for a joker), rank by rank, in
    leaving order; made from the deal as it comes (``deal_ranks``). A rank's suits are one
    ``bytes`` (CPython shares the empty and one-byte ones), not a list of ints: six hands of
    four decks are most of a 够级 table's memory otherwise."""

    __slots__ = ("_held", "_texts")

    def __init__(self, dealt: Sequence[Sequence[tuple[int, int]]]) -> None:
        self._held: list[list[bytes]] = []
        for cards in dealt:
            ranks: list[list[int]] = [[] for _ in range(NRANKS)]
            for rank, suit in cards:
                ranks[rank].append(suit)
            self._held.append([bytes(sorted(suits)) for suits in ranks])
        self._texts: list[str | None] = [None] * len(dealt)

    def take(self, seat: int, cards: Counts) -> str:
        """``cards`` leave ``seat``'s hand, the first of each rank: their suited text."""
        held = self._held[seat]
        out: list[str] = []
        for rank, n in enumerate(cards):
            if n:
                suits = held[rank]
                names = _TOKENS[rank]
                out += [names[s] for s in suits[:n]]
                held[rank] = suits[n:]
        self._texts[seat] = None
        return " ".join(out)

    def move(self, giver: int, taker: int, cards: Counts) -> None:
        """``cards`` go from ``giver`` (the first of each rank) to ``taker``'s hand."""
        for rank, n in enumerate(cards):
            if n:
                suits = self._held[giver][rank]
                self._held[taker][rank] = bytes(sorted(self._held[taker][rank] + suits[:n]))
                self._held[giver][rank] = suits[n:]
        self._texts[giver] = self._texts[taker] = None

    def hand(self, seat: int) -> str:
        """``seat``'s cards in suited notation, by rank, each rank ♠ ♥ ♣ ♦ (kept until the
        hand changes)."""
        text = self._texts[seat]
        if text is None:
            text = " ".join(
                _TOKENS[rank][s] for rank, suits in enumerate(self._held[seat]) for s in suits
            )
            self._texts[seat] = text
        return text
