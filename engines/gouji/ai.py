"""托管: the trustee of 够级 / 新够级 — keeps its money, plays for its alliance, always legal.

It reads only what its seat may know: its own hand, the play on the table, the order out, and
the cards every seat has played (public: each play is shown; ``played``), from which it counts
what the other seats can still hold (``unseen``) and how many cards each has left (36 dealt,
the tributes shown at the deal, minus what it played).

- 宣点: no; 要头; never 革命 or 让牌. 烧牌 only when the rest after the beating play is one lead
  (sure to finish); while burning, each lead carries a 花 and keeps the rest burnable.
- **The hand** is one lead per natural rank; 2s and 花 are money that joins any rank. Every
  candidate play is scored by what it leaves: a natural rank played whole saves a lead;
  spending a 2, a 小花 or a 大花 costs (a 大花 most, and most in 新够级, where a 挂大花 play is
  never beaten and gives the lead back at once); splitting a rank costs a little, a high rank
  more. A play that will probably take the round (nothing unseen can beat it, a 挂大花 play in
  新够级, a 够级牌 its 对头 is unlikely to answer) earns the next lead.
- **Leading:** the whole hand when it is one play; when every lead but one will hold (its 大花
  in 新够级, plays nothing unseen beats), those first and the last lead after; else the lowest
  natural rank whole, without money.
- **Following an opponent:** the best-scoring beat, or pass when nothing scores above passing.
  Passing costs when the play's owner is about to go out (few cards left) — then it beats with
  money too — and, as the 对头 in a 够级 window of 新够级, because the owner leads again; as
  the 对头 in 够级 (classic), passing wins the lead (the 对头 leads the next round), so it
  passes unless the beat takes it out.
- **Its alliance's play:** pass, except to go out itself when that ally is not about to.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.climbing.notation import (
    BIG,
    NRANKS,
    PASS,
    SMALL,
    TWO,
    Counts,
    format_cards,
    minus,
)
from engines.gouji.patterns import Play, can_finish_burning, is_gouji, plays, read

if TYPE_CHECKING:
    from engines.gouji.game import GoujiGame

SEATS, DECKS = 6, 4
NEAR_OUT = 8
"""An opponent with this many cards or fewer is about to go out: stop it with money."""
W2, WB, WR, WR_NEW = 0.9, 1.2, 1.4, 2.2
"""What spending a 2, a 小花, a 大花 (大花 in 新够级) costs, counted in leads."""
LEAD_VALUE = 0.8
OPP_LEAD, OPP_LEAD_TURN = 1.0, 0.5
"""What passing costs when the play's owner then leads again: in a 新够级 window, in turn."""
"""What taking the next lead is worth, in leads."""
SPLIT, SPLIT_RANK = 0.35, 0.05
"""What playing part of a rank costs: a base and a rise per rank."""


def choose(game: GoujiGame, seat: int) -> str:
    """The trustee's action for ``seat``, which is in ``game.to_act()``."""
    phase = game.phase()
    if phase == "declare":
        return "nodeclare"
    if phase == "head":
        return "yaotou"
    hand = game.hands[seat]
    beisan, top_rule = game.beisan, game.big_top
    if game.mode == "lead":
        options = plays(hand, None, beisan, top_rule)
        whole = [c for c, _ in options if c == hand]
        if whole:
            return format_cards(whole[0])
        if game.burn is not None and game.burn[0] == seat:
            keep = [(c, p) for c, p in options
                    if p.jokers and can_finish_burning(minus(hand, c), beisan)]
            if keep:
                cards, _ = min(keep, key=lambda cp: (cp[1].jokers, cp[1].main, -cp[1].n))
                return format_cards(cards)
        return format_cards(_lead(game, seat, options))
    top = game.top
    assert top is not None
    if game.mode == "window" and game.window_seats[seat] == "burn":
        if top.owner % 2 == seat % 2:
            return PASS  # never burns its own alliance
        for cards, p in plays(hand, top.play, beisan, top_rule):
            rest = minus(hand, cards)
            if not any(rest) or (read(rest) is not None and can_finish_burning(rest, beisan)
                                 and not (beisan and rest[0] and rest != _only_threes(rest))):
                return "burn " + format_cards(cards)
        return PASS
    options = plays(hand, top.play, beisan, top_rule)
    if top.owner % 2 == seat % 2:
        out = [c for c, _ in options if c == hand]
        if out and cards_left(game, top.owner) > NEAR_OUT:
            return format_cards(out[0])
        return PASS
    choice = _follow(game, seat, options)
    return PASS if choice is None else format_cards(choice)


# --- what the seat knows -------------------------------------------------------------------------
def played(game: GoujiGame, seat: int) -> Counts:
    """The cards ``seat`` has played this game: public, every play is shown on the table."""
    return minus(game.dealt[seat], game.hands[seat])


def cards_left(game: GoujiGame, seat: int) -> int:
    """Cards ``seat`` still holds: what it was dealt (36 and the tributes shown) less what it
    played — what any seat counting the table knows."""
    return sum(game.dealt[seat]) - sum(played(game, seat))


def unseen(game: GoujiGame, seat: int) -> Counts:
    """The cards ``seat`` cannot see: four decks less its hand and everything played."""
    full = [4 * DECKS] * NRANKS
    full[SMALL] = full[BIG] = DECKS
    out = [full[r] - game.hands[seat][r] for r in range(NRANKS)]
    for s in range(SEATS):
        gone = played(game, s)
        for r in range(NRANKS):
            out[r] -= gone[r]
    return tuple(max(0, x) for x in out)


# --- scoring -------------------------------------------------------------------------------------
def _weights(game: GoujiGame) -> tuple[float, float, float]:
    """What spending a 2, a 小花, a 大花 costs, in leads."""
    return (W2, WB, WR_NEW) if game.big_top else (W2, WB, WR)


def _naturals(hand: Counts) -> int:
    return sum(1 for r in range(TWO) if hand[r])


def _holds(game: GoujiGame, seat: int, cards: Counts, p: Play, hidden: Counts) -> float:
    """How likely a play of ``cards`` takes the round: 1 when nothing unseen can beat it."""
    if game.big_top and p.big_flower:
        return 1.0
    money = hidden[TWO] + hidden[SMALL] + hidden[BIG]
    if p.jokers:
        # over a 花 play: as many 花 and a higher rank
        if hidden[SMALL] + hidden[BIG] < p.jokers:
            return 1.0
        return 0.5
    best = max((hidden[r] for r in range(p.main + 1, TWO)), default=0)
    if p.main >= TWO:
        best = 0
    supply = best + money
    if p.main == TWO:
        supply = hidden[SMALL] + hidden[BIG]
    if supply < p.n:
        return 1.0
    others = [s for s in game.actives() if s != seat]
    if not others:
        return 1.0
    if is_gouji(p) and not game.luanchan():
        # only the 对头 (and 无头 seats) may answer: it holds about a fifth of what is unseen
        share = 1 / max(1, len(others))
        need = p.n / max(1.0, supply * share)
        return min(0.85, 0.25 + 0.3 * need)
    need = p.n / max(1.0, supply / max(1, len(others)))
    return min(0.7, 0.05 + 0.2 * need)


def _cost(game: GoujiGame, hand: Counts, cards: Counts) -> float:
    """What a play gives up: money spent and ranks split (a high rank more)."""
    w2, wb, wr = _weights(game)
    cost = cards[TWO] * w2 + cards[SMALL] * wb + cards[BIG] * wr
    for r in range(TWO):
        if cards[r] and cards[r] < hand[r]:
            cost += SPLIT + SPLIT_RANK * r
    return cost


def _score(game: GoujiGame, seat: int, hand: Counts, cards: Counts, p: Play,
           hidden: Counts, lead_value: float) -> float:
    rest = minus(hand, cards)
    if not any(rest):
        return 100.0
    saved: float = _naturals(hand) - _naturals(rest)
    if not any(rest[:TWO]) and not read(rest):
        saved -= 0.5  # only money left in pieces
    return saved - _cost(game, hand, cards) + lead_value * _holds(game, seat, cards, p, hidden)


def _lead(game: GoujiGame, seat: int, options: list[tuple[Counts, Play]]) -> Counts:
    hand = game.hands[seat]
    hidden = unseen(game, seat)
    plain = [(c, p) for c, p in options
             if not c[TWO] and not c[SMALL] and not c[BIG] and c[p.main] == hand[p.main]]
    # the run home: every lead but the last holds
    leads = _naturals(hand)
    sure = [(c, p) for c, p in options if _holds(game, seat, c, p, hidden) >= 1.0
            and (p.main >= TWO or c[p.main] == hand[p.main])]
    if leads >= 2 and sure:
        spendable_r = hand[BIG] if game.big_top else 0
        winners = {p.main for c, p in sure if not c[BIG]}
        if len(winners) + spendable_r >= leads - 1:
            natural_sure = [(c, p) for c, p in sure if not c[BIG] and not c[SMALL] and not c[TWO]]
            pool = natural_sure or sorted(sure, key=lambda cp: (_cost(game, hand, cp[0]),
                                                                 cp[1].main))
            if pool:
                return min(pool, key=lambda cp: (_cost(game, hand, cp[0]), cp[1].main))[0]
    danger = _danger(game, seat)
    if plain:
        if danger:
            # an opponent about to go out: lead more cards than it holds, else the biggest
            bigger = [(c, p) for c, p in plain if p.n > danger]
            if bigger:
                return min(bigger, key=lambda cp: cp[1].main)[0]
        return min(plain, key=lambda cp: cp[1].main)[0]
    w = (lambda cp: (_cost(game, hand, cp[0]), cp[1].main, -cp[1].n))
    return min(options, key=w)[0]


def _danger(game: GoujiGame, seat: int) -> int:
    """The fewest cards an active opponent holds when it is about to go out, else 0."""
    near = [cards_left(game, s) for s in game.actives() if s % 2 != seat % 2]
    near = [n for n in near if n <= NEAR_OUT]
    return min(near) if near else 0


def _follow(game: GoujiGame, seat: int, options: list[tuple[Counts, Play]]) -> Counts | None:
    top = game.top
    assert top is not None
    hand = game.hands[seat]
    hidden = unseen(game, seat)
    window = game.mode == "window"
    owner_left = cards_left(game, top.owner)
    pass_score = 0.0
    lead_value = LEAD_VALUE
    if owner_left <= NEAR_OUT:
        pass_score -= 3.0 if owner_left > 4 else 5.0
    if window and game.window_seats.get(seat) == "beat":
        if seat == (top.owner + 3) % SEATS and game.opts["new_round_leader"] == "duitou":
            pass_score += lead_value  # 够级: the 对头 who passes leads the next round
        else:
            pass_score -= OPP_LEAD  # 新够级: its owner leads again
    elif not window and not _ally_after(game, seat):
        pass_score -= OPP_LEAD_TURN  # the round comes back to its owner
    best, best_score = None, pass_score
    for cards, p in options:
        s = _score(game, seat, hand, cards, p, hidden, lead_value)
        if s > best_score + 1e-9:
            best, best_score = cards, s
    return best


def _ally_after(game: GoujiGame, seat: int) -> bool:
    """Whether an ally still to act in this round (before it comes back to the play's owner)
    may beat it: what the table shows of who passed."""
    top = game.top
    assert top is not None
    s = seat
    for _ in range(SEATS):
        s = (s + 1) % SEATS
        if s == top.owner:
            return False
        if s % 2 == seat % 2 and game._may_answer(s):
            return True
    return False


def _only_threes(hand: tuple[int, ...]) -> tuple[int, ...]:
    return tuple(c if r == 0 else 0 for r, c in enumerate(hand))
