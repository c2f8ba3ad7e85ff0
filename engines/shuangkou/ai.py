"""托管: the trustee of 百变双扣 — plays its hand in the fewest plays, keeps its bombs for when
they count, plays for its partner, always legal.

It reads only what its seat may know: its own hand, the play on the table, every seat's
count (public) and the cards every seat has played (public: each play is shown), from which
it counts what the other three can still hold (``unseen``).

- **The hand** is valued by its best split into plays (``value``, a search over the natural
  cards: groups of a rank, 顺子, 连对, 连三张; a rank of four or more kept whole is a bomb):
  each play costs one, a bomb is worth keeping (it takes a round back), a high single or pair
  a little; 大王 (wild) and 小王 count as control.
- **Leading:** out at once when one play empties the hand; when every play but one will hold
  (bombs, plays nothing unseen can beat), those first; else the play of a best split that
  holds the lowest card (the longer one on a tie), never a bomb or a wild while something else
  is left. With its partner on one card it leads its lowest single; with an opponent on few
  cards it leads a play longer than that opponent's count when it can.
- **Following an opponent:** the play that leaves the best hand, counting the next lead
  when the play will probably hold the round; a bomb when the opponent is about to go out,
  when nothing else beats and the round is worth taking, or when the bomb earns stars
  (6★ or more pays 贡献 only once played; a bomb still in hand at the end counts nothing).
  Pass when nothing scores above passing.
- **Following the partner:** pass (never overtakes it), unless one play takes it out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.climbing.notation import ACE, BIG, NRANKS, PASS, SMALL, TWO, Counts, minus
from engines.memo import memoized
from engines.shuangkou.patterns import NAT, Pattern, beats, play_text, plays, readings

if TYPE_CHECKING:
    from engines.shuangkou.game import ShuangkouGame

SEATS, DECKS = 4, 2
NEAR_OUT = 6
"""An opponent with this many cards or fewer is about to go out."""
BOMB_KEEP = 1.6
"""What a bomb in hand is worth (it takes a round back), in plays."""
WILD = 1.1
"""What a 大王 in hand is worth, in plays."""
LEAD_VALUE = 0.9
"""What taking the next lead is worth, in plays."""
STAR_GAIN = 0.6
"""Per 基础分 of 贡献 a played bomb earns (6★ and more), in plays."""


def choose(game: ShuangkouGame, seat: int) -> str:
    """The trustee's action for ``seat``, whose turn it is."""
    hand = game.hands[seat]
    n = sum(hand)
    table = game.table
    lead = None if table is None else table[2]
    if hand[BIG] and n > 12 and _danger(game, seat) == 0:
        # a long hand keeps its 大王 except to make a bomb of one rank (reading every wild
        # play of 27 cards is slow, and this is no time to spend them)
        options = plays(hand[:BIG] + (0,), lead) + _wild_bombs(hand, lead)
    else:
        options = plays(hand, lead)
    for cards, p in options:
        if sum(cards) == n:
            return play_text(cards, p)  # go out
    if table is None:
        return play_text(*_lead(game, seat, _tame(options)))
    owner = table[0]
    if owner % 2 == seat % 2 or not options:
        return PASS
    pool = _tame(options) if sum(game.hands[owner]) > NEAR_OUT else options
    pick = _follow(game, seat, pool)
    return PASS if pick is None else play_text(*pick)


def _wild_bombs(hand: Counts, lead: Pattern | None) -> list[tuple[Counts, Pattern]]:
    """Bombs of one rank with one or more 大王 added, that may be played over ``lead``."""
    out = []
    for r in range(NAT):
        for w in range(1, hand[BIG] + 1):
            if hand[r] and hand[r] + w >= 4:
                cards = tuple(hand[r] if i == r else 0 for i in range(NAT)) + (0, w)
                for p in readings(cards):
                    if p.bomb and (lead is None or beats(p, lead)):
                        out.append((cards, p))
                        break
    return out


_ONE_RANK = frozenset({"single", "pair", "triple", "bomb"})


def _tame(options: list[tuple[Counts, Pattern]]) -> list[tuple[Counts, Pattern]]:
    """The plays worth weighing: a 大王 joins another play only as part of a bomb (it is
    kept as control, and this keeps the search fast); all of them when nothing else is left."""
    out = [(c, p) for c, p in options if not c[BIG] or p.bomb or not any(c[:NAT])]
    return out or options


# --- what the seat knows -------------------------------------------------------------------------
def unseen(game: ShuangkouGame, seat: int) -> Counts:
    """The cards ``seat`` cannot see: two decks less its hand and everything played."""
    out = [4 * DECKS] * NAT + [DECKS, DECKS]
    for r in range(NRANKS):
        out[r] -= game.hands[seat][r]
    for s in range(SEATS):
        gone = minus(game.dealt[s], game.hands[s])  # played: shown on the table
        for r in range(NRANKS):
            out[r] -= gone[r]
    return tuple(max(0, x) for x in out)


# --- the hand's value ----------------------------------------------------------------------------
@memoized(16_384)
def _split(h: tuple[int, ...]) -> float:
    """The best split of natural cards (13 counts): −1 per play, + what each play is worth."""
    lo = next((r for r in range(NAT) if h[r]), None)
    if lo is None:
        return 0.0
    rest = list(h)
    k = h[lo]
    rest[lo] = 0
    group = -1.0 + (BOMB_KEEP if k >= 4 else 0.0) + (0.35 if lo >= ACE else 0.0) * (k < 4)
    if lo == TWO and k < 4:
        group += 0.2
    best = group + _split(tuple(rest))
    if lo < ACE:
        for size, shortest in ((1, 5), (2, 3), (3, 3)):
            if h[lo] < size:
                continue
            longest = 0
            while lo + longest <= ACE and h[lo + longest] >= size:
                longest += 1
            # the shortest and the longest run from the lowest card (keeps the search small)
            for length in {shortest, longest} if longest >= shortest else ():
                cur = list(h)
                for r in range(lo, lo + length):
                    cur[r] -= size
                best = max(best, -1.0 + _split(tuple(cur)))
    return best


def value(hand: Counts) -> float:
    """How good a hand is, in plays (higher is better)."""
    v = _split(tuple(hand[:NAT]))
    b, r = hand[SMALL], hand[BIG]
    if b + r >= 3:
        v += -1.0 + BOMB_KEEP + 0.5 * (b + r - 3)  # 三王 / 天王 kept whole
        return v
    if b:
        v += -1.0 + 0.6  # 小王s: a single or a pair of the highest cards but 大王
    v += r * WILD
    if not any(hand[:NAT]) and r and not b:
        v -= 1.0  # 大王s alone are a play of their own
    return v


def _contribution(stars: int) -> int:
    return 0 if stars < 6 else 2 ** (stars - 5)


def _holds(game: ShuangkouGame, seat: int, cards: Counts, p: Pattern, hidden: Counts) -> float:
    """How likely a play takes the round: nothing unseen beats it, else a guess by its top."""
    wild = hidden[BIG]
    bombs_possible = (any(hidden[r] + wild >= 4 for r in range(NAT))
                      or hidden[SMALL] + hidden[BIG] >= 3)
    if p.bomb:
        bigger = any(hidden[r] + wild > p.n for r in range(NAT)) or (
            p.stars < 7 and hidden[SMALL] + hidden[BIG] >= 3 + (p.stars >= 6))
        return 0.6 if bigger else 1.0
    per = {"single": 1, "pair": 2, "triple": 3}.get(p.kind.value)
    if per is not None:
        higher = [r for r in range(p.top + 1, NAT) if hidden[r] + wild >= per]
        if per == 1 and p.top < SMALL and hidden[SMALL]:
            higher.append(SMALL)
        if per == 1 and p.top < BIG and hidden[BIG]:
            higher.append(BIG)
        if per == 2 and p.top < SMALL and hidden[SMALL] + hidden[BIG] >= 2:
            higher.append(SMALL)
        if not higher:
            return 0.65 if bombs_possible else 1.0
        return min(0.6, 0.08 + 0.06 * max(0, p.top - 5) + (0.15 if len(higher) <= 2 else 0.0))
    # sequences: a longer one is harder to follow
    return min(0.6, 0.2 + 0.04 * p.n + 0.03 * p.top)


def _danger(game: ShuangkouGame, seat: int) -> int:
    near = [sum(game.hands[s]) for s in game.active() if s % 2 != seat % 2]
    near = [n for n in near if n <= NEAR_OUT]
    return min(near) if near else 0


def _lead(game: ShuangkouGame, seat: int,
          options: list[tuple[Counts, Pattern]]) -> tuple[Counts, Pattern]:
    hand = game.hands[seat]
    hidden = unseen(game, seat)
    partner = (seat + 2) % SEATS
    low = min(r for r in range(NRANKS) if hand[r])
    danger = _danger(game, seat)
    if partner not in game.finished and sum(game.hands[partner]) == 1 and not danger:
        singles = [(c, p) for c, p in options if p.n == 1 and not c[BIG]]
        if singles:
            return singles[0]  # feed the partner its last card
    base = value(hand)
    scored = []
    # a lead of one rank takes the whole rank (a split rank costs a play later)
    whole = [(c, p) for c, p in options
             if p.kind.value not in _ONE_RANK or c[p.top] == hand[p.top] or c[BIG]]
    for cards, p in whole or options:
        rest = minus(hand, cards)
        after = value(rest)
        gain = after - base  # about 0 for a play of a best split
        hold = _holds(game, seat, cards, p, hidden)
        s = gain + 1.0
        if p.bomb:
            s += _contribution(p.stars) * STAR_GAIN + hold * LEAD_VALUE - 0.3
        else:
            s += hold * LEAD_VALUE * (0.6 if after > -2.5 else 0.25)
            s += 0.25 if cards[low] else 0.0
            s -= 0.02 * p.top
            s += 0.01 * p.n
        if danger and not p.bomb and p.n <= danger:
            s -= 0.8 * (1 - hold)
        scored.append((s, -p.top, cards, p))
    _, _, cards, p = max(scored, key=lambda t: (t[0], t[1]))
    return cards, p


def _follow(game: ShuangkouGame, seat: int,
            options: list[tuple[Counts, Pattern]]) -> tuple[Counts, Pattern] | None:
    table = game.table
    assert table is not None
    owner = table[0]
    hand = game.hands[seat]
    hidden = unseen(game, seat)
    base = value(hand)
    left = sum(game.hands[owner])
    pass_score = 0.0
    if left <= NEAR_OUT:
        pass_score -= 3.0 if left > 3 else 6.0
    # the partner still to play after this seat may take it instead
    best, best_score = None, pass_score
    for cards, p in options:
        rest = minus(hand, cards)
        s = value(rest) - base
        hold = _holds(game, seat, cards, p, hidden)
        s += hold * LEAD_VALUE
        if p.bomb:
            s += _contribution(p.stars) * STAR_GAIN
        if s > best_score + 1e-9:
            best, best_score = (cards, p), s
    return best
