"""托管 (hard): worlds that agree with the passes seen (读牌: a pass says what a seat lacks).

A pass may be a choice (holding back a 2 for later), so a pass rules out no card for sure. But
some passes are telling: today's trustee (``ai.choose_play``), and most players, never let an
opponent's small play stand while holding a big card that costs the hand nothing to spend. The
rule read here, **over an opponent's play** (never a partner's: a farmer lets the partner's
play stand on purpose):

- a single below the 2 passed: the seat held no lone 2 (exactly one 2);
- a single below a joker passed: the seat held no lone joker (exactly one, not the rocket) above it;
- a farmer passing the landlord's pair below 2s: it held no pair of 2s (exactly two).

A lone 2 or joker is a loose single: playing it never needs one play more (the hand is split
the same without it) and costs only its worth as a big card, within what today's trustee lets a
farmer spend (``ai.FARMER_SPEND``), and a pair of 2s likewise; the landlord spends less
(``ai.LANDLORD_SPEND``) and sometimes holds a lone 2 back for a cheaper play it will not make,
so the pair rule is the farmers' only. "Held" is at the pass: the cards the seat has played
since count as still held.

The evidence is soft: a world that breaks ``k`` pieces of it is kept with the odds
``KEEP ** k`` (a player may hold back), the others always; each world is drawn up to ``TRIES``
times, the world breaking least kept when none passes. The generator is the search's (seeded
by the hand's seed, the log length and the seat), so the same position gets the same worlds.
It reads only the log (everyone's plays and passes), the cards out and the counts held: what
every seat may see.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engines.doudizhu.notation import BIG_JOKER, NRANKS, SMALL_JOKER, TWO, parse_cards
from engines.doudizhu.patterns import Pattern

if TYPE_CHECKING:
    from collections.abc import Callable

    from engines.doudizhu.game import DoudizhuGame

KEEP = 0.125
"""The odds a world is kept per piece of pass evidence it breaks."""
TRIES = 12
"""The most draws per world."""


@dataclass(frozen=True)
class Evidence:
    """One telling pass: ``seat`` passed a ``pattern`` (single or pair) of rank ``key`` by
    an opponent, having played ``played`` (counts per rank) before it."""

    seat: int
    pattern: Pattern
    key: int
    played: tuple[int, ...]


def evidence(game: DoudizhuGame, seat: int) -> list[Evidence]:
    """The telling passes of the seats other than ``seat`` in the hand so far, read from
    the log: who passed what, over whom, with what played before."""
    landlord = game.landlord
    if landlord is None:
        return []
    n = game.n
    book = game.book
    played = [[0] * NRANKS for _ in range(n)]
    found: list[Evidence] = []
    last: tuple[Pattern, int] | None = None  # the play to beat: pattern and key
    last_seat = -1
    for s, text in game.log:
        if text == "pass":
            if last is None:
                continue
            opponent = (s == landlord) != (last_seat == landlord)
            if opponent and s != seat and _telling(last, s == landlord):
                found.append(Evidence(s, last[0], last[1], tuple(played[s])))
            if (s + 1) % n == last_seat:
                last = None
            continue
        try:
            cards = parse_cards(text.split()[0].split("=")[0])
        except ValueError:
            continue  # a bid, a double, a step: no cards
        play = book.known(text)
        # a play the classic book cannot read (a 癞子 reading) beats, but says nothing
        last = (play.pattern, play.key) if play is not None else (Pattern.BOMB, -1)
        last_seat = s
        for r, c in enumerate(cards):
            played[s][r] += c
    return found


def _telling(last: tuple[Pattern, int], landlord: bool) -> bool:
    pattern, key = last
    if pattern is Pattern.SINGLE:
        return key < BIG_JOKER
    return pattern is Pattern.PAIR and key < TWO and not landlord


def breaks(ev: Evidence, hand: list[int], played: list[list[int]]) -> bool:
    """Does the world's ``hand`` of ``ev.seat`` (whose plays so far are ``played``) break
    the evidence: did it hold, at the pass, what beats there at no cost?"""
    held = [hand[r] + played[ev.seat][r] - ev.played[r] for r in range(NRANKS)]
    if ev.pattern is Pattern.PAIR:
        return held[TWO] == 2
    if ev.key < TWO and held[TWO] == 1:
        return True
    jokers = held[SMALL_JOKER] + held[BIG_JOKER]
    if jokers != 1:
        return False
    joker = SMALL_JOKER if held[SMALL_JOKER] else BIG_JOKER
    return joker > ev.key


def played_cards(game: DoudizhuGame) -> list[list[int]]:
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
    played = played_cards(game)
    worlds: list[list[list[int]]] = []
    for _ in range(count):
        best: tuple[int, list[list[int]]] | None = None
        for _ in range(TRIES):
            hands = draw(rng)
            broken = sum(breaks(ev, hands[ev.seat], played) for ev in found)
            if broken == 0 or rng.random() < KEEP**broken:
                best = (0, hands)
                break
            if best is None or broken < best[0]:
                best = (broken, hands)
        assert best is not None
        worlds.append(best[1])
    return worlds


__all__ = ["KEEP", "TRIES", "Evidence", "breaks", "evidence", "played_cards", "sample_worlds"]
