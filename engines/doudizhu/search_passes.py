"""托管 (hard): worlds that agree with the passes seen (读牌: a pass says what a seat lacks).

The rule read here: **a pass over an opponent's play is what today's trustee
(``ai.choose_play``) would have done holding that seat's cards then**. A world whose hand for
that seat (with the cards it has played since put back) would have made today's trustee beat
the play breaks that piece of evidence. A pass over the partner's play says nothing (a farmer
lets it stand on purpose), nor does one over a 癞子 reading the classic book cannot read.

Why today's trustee: it is the model the playouts already use for every seat, and it is what
sits in timed-out, 托管 and bot seats; in its own self-play the true hands never break it (888
passes over an opponent in 100 seeded classic hands, 835 in 100 癞子 hands). Why soft: a
person may pass by choice (holding a 2 back), so no card is ruled out for sure. A world that
breaks ``k`` pieces of the latest ``RECENT`` is kept with the odds ``KEEP ** k``, the others
always; each world is drawn up to ``TRIES`` times, the one breaking least kept when none is. So a pass that today's trustee would
make with nearly any hand (over a 3 early, most hands beat it the same) moves the worlds
little, and one only a few hands explain (a K passed while the As and a 2 are out) moves them
much.

The generator is the search's (seeded by the hand's seed, the log length and the seat), so the
same position gets the same worlds. It reads only the log (everyone's plays and passes), the
cards out and the counts held: what every seat may see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.doudizhu.ai import choose_play
from engines.doudizhu.notation import NRANKS, parse_cards
from engines.doudizhu.patterns import Pattern, Play, PlayBook

if TYPE_CHECKING:
    from collections.abc import Callable

    from engines.doudizhu.game import DoudizhuGame

KEEP = 0.05
"""The odds a world is kept per piece of pass evidence it breaks."""
TRIES = 12
"""The most draws per world."""
RECENT = 6
"""The most pieces of evidence weighed (the latest passes: they say most of the hands now)."""


@dataclass(frozen=True)
class Evidence:
    """One telling pass: ``seat`` passed ``previous`` (made by ``previous_seat``, an
    opponent), with ``left`` cards held per seat and ``out`` played by everyone then, having
    played ``played`` (counts per rank) itself."""

    seat: int
    previous: Play
    previous_seat: int
    left: tuple[int, ...]
    out: tuple[int, ...]
    played: tuple[int, ...]

    @property
    def pattern(self) -> Pattern:
        return self.previous.pattern

    @property
    def key(self) -> int:
        return self.previous.key


def evidence(game: DoudizhuGame, seat: int) -> list[Evidence]:
    """The telling passes of the seats other than ``seat`` in the hand so far, read from
    the log: who passed what, over whom, with what played before."""
    landlord = game.landlord
    if landlord is None:
        return []
    n = game.n
    book = game.book
    played = [[0] * NRANKS for _ in range(n)]
    left = [sum(h) + sum(p) for h, p in zip(game.hands, _played(game), strict=True)]
    out = [0] * NRANKS
    found: list[Evidence] = []
    last: Play | None = None  # the play to beat (None: a 癞子 reading, or leading)
    last_seat = -1
    for s, text in game.log:
        if text == "pass":
            if last is None:
                continue
            opponent = (s == landlord) != (last_seat == landlord)
            if opponent and s != seat and last.key >= 0:
                found.append(
                    Evidence(s, last, last_seat, tuple(left), tuple(out), tuple(played[s]))
                )
            if (s + 1) % n == last_seat:
                last = None
            continue
        try:
            cards = parse_cards(text.split()[0].split("=")[0])
        except ValueError:
            continue  # a bid, a double, a step: no cards
        play = _reading(book, text)
        # a play the classic book cannot read (a 癞子 reading) beats, but says nothing
        last = play if play is not None else _UNREAD
        last_seat = s
        for r, c in enumerate(cards):
            played[s][r] += c
            out[r] += c
        left[s] -= sum(cards)
    return found


_UNREAD = Play((0,) * NRANKS, Pattern.BOMB, -1, 0, "")
"""The play to beat when it is a reading the classic book has not (a 癞子 play)."""


def _reading(book: PlayBook, text: str) -> Play | None:
    """The classic Play of a play's text, or None."""
    play = book.known(text)
    if play is not None:
        return play
    try:
        return book.parse(text)
    except ValueError:
        return None


def breaks(
    ev: Evidence, hand: list[int], played: list[list[int]], landlord: int, book: PlayBook
) -> bool:
    """Does the world's ``hand`` of ``ev.seat`` (whose plays so far are ``played``) break
    the evidence: would today's trustee, holding what the seat held at the pass, have beaten?"""
    held = tuple(hand[r] + played[ev.seat][r] - ev.played[r] for r in range(NRANKS))
    if min(held) < 0:
        return True
    text = choose_play(
        held, ev.previous, ev.previous_seat, ev.seat, landlord, list(ev.left), ev.out, book
    )
    return text != "pass"


def _played(game: DoudizhuGame) -> list[list[int]]:
    """Per seat, the cards it has played so far (counts per rank), from the log."""
    played = [[0] * NRANKS for _ in range(game.n)]
    if game.landlord is None:
        return played
    for s, text in game.log:
        if text == "pass":
            continue
        try:
            cards = parse_cards(text.split()[0].split("=")[0])
        except ValueError:
            continue
        for r, c in enumerate(cards):
            played[s][r] += c
    return played


def sample_worlds(
    game: DoudizhuGame,
    seat: int,
    count: int,
    rng: random.Random,
    draw: Callable[[random.Random], list[list[int]]],
) -> list[list[list[int]]]:
    """``count`` worlds from ``draw`` (one deal of the unseen cards a call), each weighed
    against the pass evidence of the seats other than ``seat``: kept with ``KEEP`` odds per
    piece it breaks, drawn again up to ``TRIES`` times, the least breaking kept otherwise."""
    found = evidence(game, seat)
    if not found:
        return [draw(rng) for _ in range(count)]
    found = found[-RECENT:]
    played = _played(game)
    landlord = game.landlord
    assert landlord is not None
    book = game.book
    worlds: list[list[list[int]]] = []
    for _ in range(count):
        best: tuple[int, list[list[int]]] | None = None
        for _ in range(TRIES):
            hands = draw(rng)
            broken = sum(breaks(ev, hands[ev.seat], played, landlord, book) for ev in found)
            if broken == 0 or rng.random() < KEEP**broken:
                best = (0, hands)
                break
            if best is None or broken < best[0]:
                best = (broken, hands)
        assert best is not None
        worlds.append(best[1])
    return worlds


__all__ = ["KEEP", "RECENT", "TRIES", "Evidence", "breaks", "evidence", "sample_worlds"]
