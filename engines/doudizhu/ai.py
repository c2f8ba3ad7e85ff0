"""托管: the one policy for timeouts, escaped seats and bot seats.

It sees only what the seat may see: its own hand, the cards played so far, the kitty once
shown and how many cards each seat holds. Its rules of thumb:

- bid from hand strength (jokers, 2s, bombs, and how few plays the hand needs);
- go out whenever one play empties the hand;
- lead low, from a split of the hand into as few plays as possible (拆牌), keeping bombs;
- as a farmer, never beat the partner's winning play (unless the landlord, next, is about
  to go out on it);
- use bombs and the rocket when an opponent is about to go out, or when they win the hand;
- never an illegal action: every choice comes from the legal plays of the position.

``hand_value`` scores a hand (lower is better): 10 per play needed, −12 per bomb/rocket,
−2 per big card (2, jokers). It is memoized; a decision takes about 0.15 ms on average (benchmarks/ddz_ai.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.doudizhu.moves import follow_plays, lead_plays
from engines.doudizhu.notation import ACE, BIG_JOKER, NRANKS, SMALL_JOKER, TWO, Counts
from engines.doudizhu.patterns import Pattern, Play, PlayBook, beats
from engines.doudizhu.rules import Bidding
from engines.memo import Memo

if TYPE_CHECKING:
    from engines.doudizhu.game import DoudizhuGame

_VALUE_LIMIT = 32_768
"""The most entries of each trustee memo (hand values, split fronts; ``engines.memo``)."""
_VALUE = Memo("engines.doudizhu.ai.hand_value", _VALUE_LIMIT)
_FULL = (4,) * 13 + (1, 1)


# --- hand evaluation -----------------------------------------------------------------------
# 拆牌: split a hand into as few plays as possible. A split is scored as a = sequences + trios
# and b = loose singles/pairs − trio units (each trio, each link of a 三顺, carries one single
# or pair); the plays needed are a + max(b, 0). Ranks 3..A are searched from low to high; the
# state after deciding rank r is the counts from r on, and each state maps to the Pareto front
# of its (a, b) pairs, memoized across calls. The memos hold only bytes and ints, which the
# garbage collector does not track, so a big memo never makes a collection pause.
_FRONT = Memo("engines.doudizhu.ai.front", _VALUE_LIMIT)
_LEFTOVER = ((0, 0), (0, 1), (0, 1), (1, -1))  # 0, a single, a pair, a trio left at a rank
_B = 64  # b is stored as b + 64 in one byte


def _front(suffix: bytes) -> bytes:
    """Pareto front of (a, b) over the ways to split ``suffix`` (counts of ranks r..A),
    as bytes a0, b0+64, a1, b1+64, ..."""
    hit = _FRONT.get(suffix)
    if hit is not None:
        return hit
    if not suffix:
        return bytes((0, _B))
    x = suffix[0]
    da, db = _LEFTOVER[x]
    tail = _front(suffix[1:])
    pairs = [(tail[i] + da, tail[i + 1] + db) for i in range(0, len(tail), 2)]
    for width, shortest in ((1, 5), (2, 3), (3, 2)):
        if x < width:
            continue
        run = 0
        while run < len(suffix) and suffix[run] >= width:
            run += 1
        link = -1 if width == 3 else 0
        for length in range(shortest, run + 1):
            rest = bytearray(suffix)
            for i in range(length):
                rest[i] -= width
            sub = _front(bytes(rest))
            shift = link * length
            pairs += [(sub[i] + 1, sub[i + 1] + shift) for i in range(0, len(sub), 2)]
    pairs.sort()
    out = bytearray()
    last_b = 1 << 30
    for a, b in pairs:
        if b < last_b:
            out += bytes((a, b))
            last_b = b
    front = bytes(out)
    _FRONT.keep(suffix, front)
    return front


def hand_value(counts: Counts) -> int:
    """牌力: lower is better; 10 per play needed to empty the hand, minus control."""
    key = bytes(counts)
    v = _VALUE.get(key)
    if v is not None:
        return v
    controls = 0
    fixed_a = fixed_b = 0
    if counts[SMALL_JOKER] and counts[BIG_JOKER]:
        controls += 1
        fixed_a += 1
    else:
        fixed_b += counts[SMALL_JOKER] + counts[BIG_JOKER]
    seq = bytearray(counts[:TWO])
    for r in range(TWO):
        if seq[r] == 4:
            seq[r] = 0
            controls += 1
            fixed_a += 1
    if counts[TWO] == 4:
        controls += 1
        fixed_a += 1
    else:
        da, db = _LEFTOVER[counts[TWO]]
        fixed_a += da
        fixed_b += db
    front = _front(bytes(seq))
    fixed_b -= _B
    needed = min(
        front[i] + fixed_a + max(front[i + 1] + fixed_b, 0) for i in range(0, len(front), 2)
    )
    big = counts[TWO] + counts[SMALL_JOKER] + counts[BIG_JOKER]
    v = 10 * needed - 12 * controls - 2 * big
    _VALUE.keep(key, v)
    return v


def plays_needed(counts: Counts) -> int:
    """How many plays the best split of the hand needs (bombs and the rocket included)."""
    v = hand_value(counts)
    controls = sum(1 for r in range(13) if counts[r] == 4)
    controls += 1 if counts[SMALL_JOKER] and counts[BIG_JOKER] else 0
    big = counts[TWO] + counts[SMALL_JOKER] + counts[BIG_JOKER]
    return (v + 12 * controls + 2 * big) // 10


def strength(counts: Counts) -> int:
    """叫牌力: jokers, 2s, bombs and As count for, plays needed counts against."""
    s = 4 * counts[BIG_JOKER] + 3 * counts[SMALL_JOKER] + 2 * counts[TWO]
    s += counts[ACE] // 2
    s += 5 * sum(1 for r in range(13) if counts[r] == 4)
    return 2 * s - plays_needed(counts)


BID_THRESHOLDS = (3, 8, 11)
"""Strength for 1, 2, 3 points (classic); 叫地主 at the first, 抢地主 at the second.

Calibrated by self-play of the trustee (3,000 seeded hands, landlord forced): a landlord
at strength 3 wins about 53 %, at 8 about 65 %, at 11 about 70 %."""
DOUBLE_AT = 14
"""Strength at which the trustee doubles (加倍): a landlord there wins about 75 %."""


def bid_for(counts: Counts) -> int:
    """The bid (0-3) the hand is worth."""
    s = strength(counts)
    return sum(1 for t in BID_THRESHOLDS if s >= t)


# --- playing ---------------------------------------------------------------------------------
def _can_beat(unseen: Counts, play: Play, bombs: bool = True) -> bool:
    """Could any cards still unseen beat ``play``? (main part only; kickers assumed).

    ``bombs`` False: ignore bombs, which could beat anything led either way."""
    pat = play.pattern
    if pat is Pattern.ROCKET:
        return False
    if bombs:
        rocket = unseen[SMALL_JOKER] and unseen[BIG_JOKER]
        low = play.key + 1 if pat is Pattern.BOMB else 0
        if rocket or any(unseen[r] == 4 for r in range(low, 13)):
            return True
    if pat is Pattern.BOMB:
        return False
    key = play.key
    if pat is Pattern.SINGLE:
        return any(unseen[r] for r in range(key + 1, NRANKS))
    width = {
        Pattern.PAIR: 2,
        Pattern.TRIO: 3,
        Pattern.TRIO_SINGLE: 3,
        Pattern.TRIO_PAIR: 3,
        Pattern.FOUR_SINGLES: 4,
        Pattern.FOUR_PAIRS: 4,
    }.get(pat)
    if width is not None:
        return any(unseen[r] >= width for r in range(key + 1, 13))
    if pat is Pattern.STRAIGHT:
        width, length = 1, play.size
    elif pat is Pattern.PAIR_STRAIGHT:
        width, length = 2, play.size // 2
    else:
        width = 3
        length = play.size // {Pattern.PLANE: 3, Pattern.PLANE_SINGLES: 4}.get(pat, 5)
    for s in range(key - length + 2, ACE - length + 2):
        if all(unseen[r] >= width for r in range(s, s + length)):
            return True
    return False


def _minus(hand: Counts, cards: Counts) -> Counts:
    return tuple([h - c for h, c in zip(hand, cards)])


def _breaks_bomb(hand: Counts, play: Play) -> bool:
    """True if ``play`` spends cards of a bomb other than as that bomb (incl. 四带二)."""
    if play.pattern is Pattern.BOMB:
        return False
    cards = play.cards
    return any(hand[r] == 4 and cards[r] for r in range(13))


def choose_play(
    hand: Counts,
    previous: Play | None,
    previous_seat: int | None,
    seat: int,
    landlord: int,
    left: list[int],
    out: list[int] | Counts,
    book: PlayBook,
) -> str:
    """出牌: the trustee's play (or "pass") for ``seat`` holding ``hand``.

    ``previous``/``previous_seat``: the play to beat and who made it (None when leading);
    ``left``: cards left per seat; ``out``: cards played so far by everyone.
    """
    n = len(left)
    rules = book.rules
    opponents = [s for s in range(n) if s != seat and (s == landlord or seat == landlord)]
    danger = min(left[o] for o in opponents)
    for whole in book.readings(hand):
        if previous is None or beats(whole, previous):
            return whole.text  # 出完: go out whenever one play empties the hand
    unseen = tuple(_FULL[r] - hand[r] - out[r] for r in range(NRANKS))
    if previous is None:
        return _lead(hand, seat, landlord, left, danger, unseen, book)
    assert previous_seat is not None
    nxt = (seat + 1) % n
    if seat != landlord and previous_seat != landlord:
        # The partner's play stands: let it win, unless the landlord (next) could go out.
        danger_next = nxt == landlord and left[landlord] <= 2 and previous.size <= 2
        if danger_next and _can_beat(unseen, previous):
            options = [book.of_text(p) for p in follow_plays(hand, previous, rules)]
            plain = [p for p in options if not p.is_bomb]
            if plain:
                return max(plain, key=lambda p: p.key).text
        return "pass"
    return _follow(hand, previous, previous_seat, seat, landlord, left, danger, unseen, book)


LANDLORD_SPEND = 2
"""How much worse (hand_value) the landlord lets its hand get to beat a farmer's play."""
FARMER_SPEND_FIRST = 14
"""The same for the farmer who plays right after the landlord (tuned by self-play: farmers
that contest the landlord's plays win more than farmers that save their cards)."""
FARMER_SPEND = 14
"""The same for the farmer who plays right before the landlord."""
THREAT = 3
"""An opponent with this many cards or fewer who made the play to beat is a threat."""

_MAIN_WIDTH = {
    Pattern.TRIO_SINGLE: 3,
    Pattern.TRIO_PAIR: 3,
    Pattern.PLANE_SINGLES: 3,
    Pattern.PLANE_PAIRS: 3,
    Pattern.FOUR_SINGLES: 4,
    Pattern.FOUR_PAIRS: 4,
}
_VARIANTS = 2


def _candidates(texts: list[str], book: PlayBook) -> list[Play]:
    """The plays worth weighing: of the plays that differ only in their kickers (带牌), the
    two with the lowest kickers."""
    plain: list[Play] = []
    kicked: dict[tuple[Pattern, int, int], list[tuple[int, Play]]] = {}
    for text in texts:
        play = book.of_text(text)
        width = _MAIN_WIDTH.get(play.pattern)
        if width is None:
            plain.append(play)
            continue
        if (
            width == 3
            and play.pattern is not Pattern.TRIO_SINGLE
            and (play.pattern is not Pattern.TRIO_PAIR)
        ):
            k = play.size // (4 if play.pattern is Pattern.PLANE_SINGLES else 5)
            mains = range(play.key - k + 1, play.key + 1)
        else:
            mains = range(play.key, play.key + 1)
        # Every attached card counts: a pair spent as two singles weighs twice its rank.
        weight = sum(r * c for r, c in play.parts if r not in mains)
        kicked.setdefault((play.pattern, play.key, play.size), []).append((weight, play))
    for variants in kicked.values():
        variants.sort(key=lambda wp: wp[0])
        plain.extend(p for _, p in variants[:_VARIANTS])
    return plain


def _lead(
    hand: Counts,
    seat: int,
    landlord: int,
    left: list[int],
    danger: int,
    unseen: Counts,
    book: PlayBook,
) -> str:
    n = len(left)
    needed = plays_needed(hand)
    partner_next = seat != landlord and (seat + 1) % n != landlord
    partner = (seat + 1) % n if partner_next else (seat + 2) % n
    # 二人斗地主 has no partner.
    partner_low = seat != landlord and n > 2 and left[partner] <= 2
    best_score = None
    best_text = ""
    has_bomb = any(hand[r] == 4 for r in range(13)) or (hand[SMALL_JOKER] and hand[BIG_JOKER])
    for play in _candidates(lead_plays(hand, book.rules), book):
        text = play.text
        if play.is_bomb and needed > 2:
            continue
        if has_bomb and _breaks_bomb(hand, play):
            continue
        rest = _minus(hand, play.cards)
        score = hand_value(rest) * 4 + play.key * 2 - play.size
        pat = play.pattern
        if needed <= 3 and not _can_beat(unseen, play, bombs=False):
            score -= 100  # an unbeatable play keeps the lead: play it before the last one
        if pat is Pattern.SINGLE:
            if danger == 1:
                score += 200 - play.key * 8  # an opponent on one card: only the highest single
            if partner_low and left[partner] == 1:
                score += play.key * 8 - 150  # feed the partner the lowest single
        elif pat is Pattern.PAIR:
            if danger == 2:
                score += 120 - play.key * 6
            if partner_low and left[partner] == 2:
                score += play.key * 8 - 150
        if best_score is None or score < best_score:
            best_score, best_text = score, text
    if not best_text:
        # Only bombs (or bomb-breaking plays) left: the lowest legal play.
        return lead_plays(hand, book.rules)[0]
    return best_text


def _follow(
    hand: Counts,
    previous: Play,
    previous_seat: int,
    seat: int,
    landlord: int,
    left: list[int],
    danger: int,
    unseen: Counts,
    book: PlayBook,
) -> str:
    options = follow_plays(hand, previous, book.rules)
    if not options:
        return "pass"
    base = hand_value(hand)
    threat = left[previous_seat] <= THREAT or danger <= 2
    has_bomb = any(hand[r] == 4 for r in range(13))
    best: tuple[int, str] | None = None
    bombs: list[Play] = []
    for play in _candidates(options, book):
        text = play.text
        if play.is_bomb:
            bombs.append(play)
            continue
        if has_bomb and _breaks_bomb(hand, play) and not threat:
            continue
        rest = _minus(hand, play.cards)
        delta = hand_value(rest) - base
        score = delta * 4 + (-play.key if threat else play.key) * 2
        if best is None or score < best[0]:
            best = (score, text)
    if best is not None:
        play = book.of_text(best[1])
        delta = hand_value(_minus(hand, play.cards)) - base
        if seat == landlord:
            limit = LANDLORD_SPEND
        elif previous_seat == landlord and (seat + 1) % len(left) != landlord:
            limit = FARMER_SPEND_FIRST  # the farmer right after the landlord tops it (顶牌)
        else:
            limit = FARMER_SPEND
        if threat or delta <= limit:
            return best[1]
        # A big card spent on a small play early is a waste unless it is a clean unit.
        if seat == landlord and delta <= 8 and sum(hand) <= 8:
            return best[1]
    if bombs:
        # 炸: to stop an opponent about to go out, or when the bomb wins the hand.
        bombs.sort(key=lambda p: (p.pattern is Pattern.ROCKET, p.key))
        for bomb in bombs:
            rest = _minus(hand, bomb.cards)
            if threat or plays_needed(rest) <= 1:
                return bomb.text
    return "pass"


# --- phases ------------------------------------------------------------------------------------
def choose(game: DoudizhuGame, seat: int, level: str = "normal") -> str:
    """The trustee's action for ``seat`` in ``game`` now (always one of its legal actions) at
    ``level`` (``engines.base.LEVELS``): ``normal`` the rules of thumb above, ``easy`` the
    simple rule player (``choose_easy``) in the play phase, ``hard`` the search
    (``engines.doudizhu.search``) in the play phase. Every level bids alike."""
    phase = game.phase()
    hand = tuple(game.hands[seat])
    if phase == "bid":
        if game.rules.bidding is Bidding.SCORE:
            bid = bid_for(hand)
            return f"bid {bid}" if bid > game.high else "nobid"
        return "call" if bid_for(hand) >= 1 else "nocall"
    if phase == "grab":
        return "grab" if bid_for(hand) >= 2 else "nograb"
    if phase == "double":
        return "double" if strength(hand) >= DOUBLE_AT else "nodouble"
    assert game.landlord is not None
    left = [sum(h) for h in game.hands]
    if level == "easy":
        return choose_easy(hand, game.last, game.last_seat, seat, game.landlord, game.book)
    normal = choose_play(
        hand, game.last, game.last_seat, seat, game.landlord, left, game.out, game.book
    )
    if level == "hard":
        from engines.doudizhu.search import choose_hard  # the search needs this module

        return choose_hard(game, seat, normal)
    return normal


def choose_easy(
    hand: Counts,
    previous: Play | None,
    previous_seat: int | None,
    seat: int,
    landlord: int,
    book: PlayBook,
) -> str:
    """出牌 at level easy, a simple rule player that reads only its hand and the play to beat:
    go out when one play empties the hand; lead the play with the lowest rank (the most cards
    of it, bombs last); let a partner's play stand; else the lowest play that beats the table,
    a bomb only when nothing else does."""
    for whole in book.readings(hand):
        if previous is None or beats(whole, previous):
            return whole.text
    rules = book.rules
    if previous is None:
        plays = [book.of_text(t) for t in lead_plays(hand, rules)]
        return min(plays, key=lambda p: (p.is_bomb, p.key, -p.size, p.text)).text
    if previous_seat is not None and seat != landlord and previous_seat != landlord:
        return "pass"
    options = [book.of_text(t) for t in follow_plays(hand, previous, rules)]
    if not options:
        return "pass"
    return min(options, key=lambda p: (p.is_bomb, p.pattern is Pattern.ROCKET, p.key, p.text)).text


__all__ = ["bid_for", "choose", "choose_easy", "choose_play", "hand_value", "plays_needed", "strength"]
