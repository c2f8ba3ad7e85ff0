"""托管 (hard): a determinized search over the fast move generator.

The hard trustee plays like today's (``ai.choose``) outside the play phase and wherever the
position leaves no choice worth weighing; in the play phase it weighs a few candidate plays:

1. **Candidates**: today's choice, and of the plays that differ only in their kickers the two
   with the lowest (``ai._candidates``), ranked by how good a hand they leave
   (``ai.hand_value``), at most ``CANDIDATES``; when following, also ``pass``. Every
   candidate is one of the seat's legal actions.
2. **Determinization**: ``WORLDS`` deals of the cards the seat cannot see, each seat dealt as
   many as it holds; the landlord keeps the kitty's cards it has not played yet (the kitty is
   shown face up, so those are known to be in its hand). The passes seen weigh the deals
   (``engines.doudizhu.search_passes``): a deal in which today's trustee, holding that seat's
   cards, would have beaten an opponent's play the seat passed is mostly drawn again (a pass
   may be a choice, so none rules a card out for sure).
3. **Playouts**: each candidate is played in each world, and the hand is played out to the
   end by today's trustee in every seat (``ai.choose_play``); a candidate scores the worlds its
   side wins (a farmer's world is won when either farmer goes out first). Every candidate
   meets the same worlds, world by world. The best score wins; today's choice keeps the move
   unless another wins more worlds than it (``MARGIN``). A candidate that can no longer reach
   that is dropped, and the weighing stops once one candidate can no longer be caught: the
   answer of playing every world, for less work.

The worlds come from a generator seeded by the hand's seed, the log length and the seat, never
the global one: the same position always gets the same choice. The work is bounded by counts
(``WORLDS``, ``CANDIDATES``, ``STEPS``), not by the clock, so a slow machine plays the same
moves, only later; benchmarks/ddz_search.py measures the time per decision (p99 well under
200 ms on the project's 2-core machine) and the strength against today's trustee.

It sees only what the seat may see (its hand, the cards played, the kitty once shown, how many
cards each seat holds, who made the play to beat): the other hands are never read.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from engines.doudizhu.ai import _FULL, _candidates, _minus, choose_play, hand_value
from engines.doudizhu.moves import follow_plays, lead_plays
from engines.doudizhu.notation import NRANKS, Counts, parse_cards
from engines.doudizhu.patterns import Pattern, Play
from engines.doudizhu.search_passes import sample_worlds

if TYPE_CHECKING:
    from engines.doudizhu.game import DoudizhuGame

CANDIDATES = 5
"""The most plays weighed per decision (today's choice among them)."""
WORLDS = 16
"""The most sampled deals of the unseen cards per decision."""
STEPS = 800
"""The most trustee steps of all playouts of one decision (about ``sum(left) // 2`` a
playout): fewer worlds when hands are long, and no search below ``MIN_WORLDS``."""
MIN_WORLDS = 6
"""Fewer worlds than this say too little: today's choice stands (early in long hands)."""
MARGIN = 2
"""Worlds by which another candidate must beat today's choice to replace it."""
_PLAYOUT_LIMIT = 200
"""A playout longer than this many steps (never seen) counts as lost for the seat's side."""
_CLASSIC_PATTERNS = frozenset(p for p in Pattern if p not in (Pattern.SOFT_BOMB, Pattern.WILD_BOMB))


def choose_hard(game: DoudizhuGame, seat: int, normal: str) -> str:
    """The hard trustee's play for ``seat`` (whose turn it is in the play phase); ``normal``
    is today's choice there, which the search keeps unless a candidate does better."""
    if game.landlord is None or game.turn != seat:
        return normal
    hand: Counts = tuple(game.hands[seat])
    last = game.last
    if last is not None and last.pattern not in _CLASSIC_PATTERNS:
        return normal  # over a 癞子 bomb: today's rules of thumb (the playouts know none)
    legal = set(game.legal_actions(seat))
    candidates = _pick_candidates(game, hand, normal, legal)
    if len(candidates) < 2:
        return normal
    left = [sum(h) for h in game.hands]
    steps_each = max(1, sum(left) // 2)  # a playout takes about this many steps
    worlds = min(WORLDS, STEPS // (steps_each * len(candidates)))
    if worlds < MIN_WORLDS:
        return normal
    return _weigh(game, seat, candidates, sample(game, seat, worlds), left)


def sample(game: DoudizhuGame, seat: int, count: int = WORLDS) -> list[list[list[int]]]:
    """The ``count`` worlds the search weighs for ``seat`` now: every seat's hand, dealt from
    the cards ``seat`` cannot see and weighed against the passes seen
    (``engines.doudizhu.search_passes``), from a generator seeded by the hand's seed, the log
    length and the seat."""
    hand: Counts = tuple(game.hands[seat])
    left = [sum(h) for h in game.hands]
    rng = random.Random(f"ddz-search:{game.setup.seed}:{len(game.log)}:{seat}")
    return sample_worlds(game, seat, count, rng, lambda r: _sample(game, seat, hand, left, r))


def _weigh(
    game: DoudizhuGame,
    seat: int,
    candidates: list[tuple[str, Play | None]],
    deals: list[list[list[int]]],
    left: list[int],
) -> str:
    """Play every candidate in every world, world by world, and answer the winner: today's
    choice (the first candidate) unless another wins ``MARGIN`` worlds more, the one winning
    most (the first of those tied). A candidate is dropped as soon as it can no longer reach
    today's score plus ``MARGIN``, and the weighing stops as soon as the answer is settled:
    the same answer as playing every world out, for less work."""
    landlord = game.landlord
    assert landlord is not None
    mine = _side(seat, landlord)
    normal = candidates[0][0]
    scores = [0] * len(candidates)
    alive = list(range(1, len(candidates)))
    for done, hands in enumerate(deals):
        for i in [0, *alive]:
            winner = _playout(game, [list(h) for h in hands], seat, candidates[i][1], left, game.n)
            # either farmer going out first wins the world for both
            if winner is not None and _side(winner, landlord) == mine:
                scores[i] += 1
        rest = len(deals) - done - 1
        alive = [i for i in alive if scores[i] + rest >= scores[0] + MARGIN]
        if not alive:
            return normal
        lead = max(alive, key=lambda i: (scores[i], -i))
        sure = scores[lead] >= scores[0] + rest + MARGIN
        if sure and all(scores[i] + rest < scores[lead] for i in alive if i != lead):
            return candidates[lead][0]
    best = max(alive, key=lambda i: (scores[i], -i))
    return candidates[best][0] if scores[best] >= scores[0] + MARGIN else normal


def _side(seat: int, landlord: int) -> bool:
    return seat == landlord


def _pick_candidates(
    game: DoudizhuGame, hand: Counts, normal: str, legal: set[str]
) -> list[tuple[str, Play | None]]:
    """Today's choice first, then the best-ranked other plays (and ``pass`` when following),
    each a legal action of the seat with the Play it stands for (None for ``pass``)."""
    book = game.book
    rules = book.rules
    last = game.last
    texts = lead_plays(hand, rules) if last is None else follow_plays(hand, last, rules)
    ranked: list[tuple[int, Play]] = []
    for play in _candidates(texts, book):
        if play.text == normal or play.text not in legal:
            continue
        rest = _minus(hand, play.cards)
        ranked.append((hand_value(rest) * 4 + play.key * 2 - play.size, play))
    ranked.sort(key=lambda sp: (sp[0], sp[1].text))
    out: list[tuple[str, Play | None]] = []
    first = _play_of(game, normal)
    if first is _NO_PLAY:
        return []  # today's choice is a reading the playouts cannot follow (a 癞子 play)
    out.append((normal, first))
    if last is not None and normal != "pass" and "pass" in legal:
        out.append(("pass", None))
    for _, play in ranked:
        if len(out) >= CANDIDATES:
            break
        out.append((play.text, play))
    return out


_NO_PLAY = Play((0,) * NRANKS, Pattern.SINGLE, -1, 0, "")
"""What ``_play_of`` answers for a text that is no classic play (a 癞子 reading)."""


def _play_of(game: DoudizhuGame, text: str) -> Play | None:
    """The classic Play of ``text`` (None for pass), or ``_NO_PLAY`` if it is none."""
    if text == "pass":
        return None
    play = game.book.known(text)
    if play is None:
        try:
            play = game.book.of_text(text)
        except ValueError:
            return _NO_PLAY
    return play


def _known_kitty(game: DoudizhuGame) -> list[int]:
    """Per rank, the kitty's cards the landlord still holds for sure: the kitty, shown face up,
    less what the landlord has played of each rank."""
    landlord = game.landlord
    assert landlord is not None
    if not game.kitty_taken:
        return [0] * NRANKS
    known = list(game.kitty)
    for s, text in game.log:
        if s != landlord or not text:
            continue
        # a play's cards: the text before a reading word (" chain") or a 癞子 reading ("=...")
        try:
            cards = parse_cards(text.split()[0].split("=")[0])
        except ValueError:
            continue  # a bid, a pass, a step: no cards
        for r, c in enumerate(cards):
            known[r] = max(0, known[r] - c)
    return known


def _sample(
    game: DoudizhuGame, seat: int, hand: Counts, left: list[int], rng: random.Random
) -> list[list[int]]:
    """One world: every seat's hand, ``seat``'s as it is and the others dealt from the unseen
    cards, the landlord holding the kitty's cards it has not played."""
    n = game.n
    landlord = game.landlord
    assert landlord is not None
    out = game.out
    unseen = [_FULL[r] - hand[r] - out[r] for r in range(NRANKS)]
    hands = [[0] * NRANKS for _ in range(n)]
    hands[seat] = list(hand)
    need = list(left)
    need[seat] = 0
    if landlord != seat:
        for r, c in enumerate(_known_kitty(game)):
            c = min(c, unseen[r], need[landlord])
            if c > 0:
                hands[landlord][r] += c
                unseen[r] -= c
                need[landlord] -= c
    pool = [r for r in range(NRANKS) for _ in range(max(0, unseen[r]))]
    rng.shuffle(pool)
    i = 0
    for s in range(n):
        for _ in range(need[s]):
            if i < len(pool):
                hands[s][pool[i]] += 1
                i += 1
    return hands


def _playout(
    game: DoudizhuGame,
    hands: list[list[int]],
    seat: int,
    first: Play | None,
    left: list[int],
    n: int,
) -> int | None:
    """Play ``first`` for ``seat`` in the world ``hands`` (changed in place), then today's
    trustee in every seat to the end; the winner, or None past ``_PLAYOUT_LIMIT`` steps."""
    landlord = game.landlord
    assert landlord is not None
    book = game.book
    out = list(game.out)
    left = list(left)
    last: Play | None = game.last
    last_seat = game.last_seat
    turn = seat
    play = first
    for _ in range(_PLAYOUT_LIMIT):
        if play is None:
            nxt = (turn + 1) % n
            if nxt == last_seat:
                last = None
            turn = nxt
        else:
            hand = hands[turn]
            for r, c in play.parts:
                hand[r] -= c
                out[r] += c
            left[turn] -= play.size
            if left[turn] <= 0:
                return turn
            last, last_seat = play, turn
            turn = (turn + 1) % n
        text = choose_play(
            tuple(hands[turn]), last, last_seat, turn, landlord, left, out, book
        )
        if text == "pass":
            play = None
        else:
            play = book.known(text) or book.of_text(text)
    return None


__all__ = ["CANDIDATES", "MARGIN", "STEPS", "WORLDS", "choose_hard", "sample"]
