"""托管 (hard): the 四川 / 血战 trustee that plans for value and defends.

- 胡 whenever it may.
- 定缺 (room option on): the suit whose loss leaves the hand worth most (``ai_plan.value``).
  Under 缺一门 the suit done without is chosen the same way at every decision, among the suits
  it has not melded.
- Its turn: each discard is scored as the hand's worth after it (expected 倍 x what a win
  pays: the seats still in play) less its risk (``ai_guard.discard_risk``: the chance an
  opponent is ready x the chance the tile completes it x what that win costs); a far hand
  (two draws or more from ready) weighs risk ``FAR_FOLD`` times more. A far, cheap hand
  facing a ready-looking opponent so throws its safest tiles (現物, 筋, the suits that
  opponent cannot win in); a ready hand keeps pushing. The shanten player's discard stands
  unless another is clearly better (``ANCHOR``; more so in 血战, where speed counts most).
  Tiles of the suit done without must go some time, later and riskier: only a share of
  their risk counts (``DEAD_RISK``), and in the last turns they go whatever it is (花猪). In
  血战 its middle tiles go first while it is early, its terminals are kept for the late turns.
- 杠 (暗杠, 补杠, and 直杠 on a discard) when the hand after it, with the kong's money, is worth
  at least as much as the best discard (so 根 kept concealed where the table counts only
  those, and a kong that breaks a ready hand refused).
- 碰 when the hand after it and its best discard is worth more than the hand as it is (a 碰
  feeds 对对胡 and 清一色 plans, and rarely 平胡).

Reads only what its seat may see (``ai_plan.Sight``, ``ai_guard``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.mahjong import ai_guard
from engines.mahjong.ai_plan import (Sight, duidui_shanten, qidui_shanten, speed, std_shanten,
                                     value)
from engines.mahjong.shape import shanten
from engines.mahjong.fan import Meld, MeldKind
from engines.mahjong.tiles import tile_name

if TYPE_CHECKING:
    from engines.mahjong.game import MahjongGame


def unseen_copies(game: MahjongGame, seat: int) -> list[int]:
    """Copies of each tile ``seat`` has not seen: 4 less its hand, every river and meld, the
    tiles won on."""
    seen = list(game.hands[seat])
    for s in range(game.N):
        for m in game.melds[s]:
            for t in m.tiles:
                seen[t] += 1
        for t in game.rivers[s]:
            seen[t] += 1
    for w in game.wins:
        seen[w.tile] += 1
    return [max(0, 4 - n) if t < game.KINDS else 0 for t, n in enumerate(seen)]


def sight(game: MahjongGame, seat: int) -> Sight:
    """What ``seat`` knows: unseen copies (``unseen_copies``), its draws still to come."""
    unseen = unseen_copies(game, seat)
    standing = max(1, len(game.standing()))
    hazard = 0.02 + 0.08 * sum(ai_guard.threat(game, s) for s in range(game.N) if s != seat)
    if game.rules.blood:
        hazard = 0.01  # 血战: the others' wins do not end this seat's hand
    return Sight(unseen, sum(unseen), game.wall_left() / standing, game.rules.table,
                 game.rules.cap, hazard)


def _suit_sets(game: MahjongGame, seat: int, melds: list[Meld]) -> list[tuple[int, ...]]:
    """The suits the hand may keep: without its 定缺; under 缺一门 each choice of two suits
    that keeps every melded suit (none once melds show all three: that hand is a 花猪)."""
    q = game.que[seat] if game.rules.dingque else None
    if q is not None:
        return [tuple(s for s in range(3) if s != q)]
    melded = {m.tile // 9 for m in melds}
    return [tuple(s for s in range(3) if s != drop) for drop in range(3) if drop not in melded]


def _worth(game: MahjongGame, seat: int, hand: list[int], melds: list[Meld],
           view: Sight) -> tuple[float, tuple[int, ...]]:
    """The hand's best worth over the suits it may keep, and those suits."""
    best = (-float(game.rules.huazhu), (0, 1, 2))
    kept = -1
    for suits in _suit_sets(game, seat, melds):
        v = value(hand, melds, suits, view)
        tiles = sum(hand[s * 9 + r] for s in suits for r in range(9))
        # equal worth (a hopeless hand late on): keep the suits holding the most tiles
        if v > best[0] or (v == best[0] and tiles > kept):
            best, kept = (v, suits), tiles
    return best


def _pay(game: MahjongGame) -> float:
    """Points one 倍 of a win brings: the base, from the seats still in play (自摸 from all,
    点炮 from one: about half way)."""
    others = max(1, len(game.standing()) - 1)
    return game.rules.base * (1 + others) / 2


def choose(game: MahjongGame, seat: int) -> str:
    """The hard trustee's action for ``seat`` (which acts now)."""
    legal = game.legal_actions(seat)
    if "hu" in legal:
        return "hu"
    phase = game.phase()
    view = sight(game, seat)
    if phase == "dingque":
        return _que(game, seat, view)
    if phase == "claim":
        return _claim(game, seat, legal, view)
    return _turn(game, seat, legal, view)


def _que(game: MahjongGame, seat: int, view: Sight) -> str:
    hand = game.hands[seat]

    def worth(drop: int) -> tuple[float, int]:
        suits = tuple(s for s in range(3) if s != drop)
        return value(hand, [], suits, view), -sum(hand[drop * 9 : drop * 9 + 9])

    return "que " + "mps"[max(range(3), key=worth)]


def _risks(game: MahjongGame, seat: int, view: Sight, hand: list[int]) -> dict[int, float]:
    values = [ai_guard.opponent_value(game, s) * game.rules.base for s in range(game.N)]
    return {t: ai_guard.discard_risk(game, seat, t, view.unseen, values)
            for t in range(game.KINDS) if hand[t]}


def best_discard(game: MahjongGame, seat: int, view: Sight, hand: list[int],
                 melds: list[Meld]) -> tuple[float, int]:
    """The best discard from ``hand`` (with ``melds``): its score (points: worth less risk)
    and its tile."""
    hand = list(hand)
    pay = _pay(game)
    risks = _risks(game, seat, view, hand)
    _, keep = _worth(game, seat, hand, melds, view)
    dead = sum(n for t, n in enumerate(hand) if t < 27 and t // 9 not in keep)
    late = game.wall_left() <= max(1, len(game.standing())) * (LATE_SPARE + 2 * dead)
    scores: dict[int, float] = {}
    fast: tuple[tuple[int, int, int, int], int] | None = None
    shs: dict[int, int] = {}
    for t in range(game.KINDS):
        if not hand[t]:
            continue
        hand[t] -= 1
        worth = value(hand, melds, keep, view)
        sh, useful = speed(hand, len(melds), keep, view)
        hand[t] += 1
        shs[t] = sh
        scores[t] = worth * pay
        edge = min(t % 9, 8 - t % 9)
        if t // 9 not in keep and not late and game.rules.blood:
            # 血战: the hand goes on to the last turns, when the others are readier and a
            # terminal completes fewer of their waits: the suit done without throws its middle
            # tiles while it is early and keeps its terminals for then. (四川: the first win
            # ends the hand, a tile held may never have to go; there that order measured no
            # better, and the terminals go first as the shanten player's do)
            edge = -edge
        key = (0 if t // 9 not in keep else 1, sh, -useful, edge)
        if fast is None or key < fast[0]:
            fast = (key, t)
        if t // 9 not in keep and late:
            scores[t] += game.rules.base * game.rules.huazhu  # surely before 查花猪
    assert fast is not None
    # a far hand (two draws or more from ready, whatever it throws) has little to lose by
    # folding: its risks count more (not in 血战: it has time to win after the others do)
    fold = FAR_FOLD if min(shs.values()) >= 2 and not game.rules.blood else 1.0
    for t in scores:
        # a tile of the suit done without must go some time, most likely later and riskier:
        # holding it gains only the chance the hand ends first
        scores[t] -= risks[t] * fold * (DEAD_RISK if t // 9 not in keep else 1.0)
    # the shanten player's discard (dead tiles first, then the fewest shanten, the most
    # useful draws) stands unless another is clearly better: more worth, or less risk
    anchor = fast[1]
    plan = _lean(game, hand, melds, keep, view)
    if plan:
        anchor = max(plan, key=lambda t: (scores[t], t == anchor))
        for t in plan:
            scores[t] += LEAN_BONUS * game.rules.base
    lean = ANCHOR_BLOOD if game.rules.blood else ANCHOR
    scores[anchor] += lean * max(scores[anchor], game.rules.base * 0.1)
    tile = max(scores, key=lambda t: (scores[t], t == anchor))
    # the plan's bonus chooses among the discards only: a kong or a 碰 is weighed without it
    return scores[tile] - (LEAN_BONUS * game.rules.base if tile in plan else 0.0), tile


def _kept(hand: list[int], suits: tuple[int, ...]) -> list[int]:
    x = [0] * 34
    for s in suits:
        x[s * 9 : s * 9 + 9] = hand[s * 9 : s * 9 + 9]
    return x


def _lean(game: MahjongGame, hand: list[int], melds: list[Meld], keep: tuple[int, ...],
          view: Sight) -> set[int]:
    """The discards that keep the plan the hand leans to (``_lean_plan``) nearest ready (清一色:
    the other suits' first); empty: no lean."""
    plan = _lean_plan(hand, melds, keep, view)
    if plan is None:
        return set()
    kind, suit = plan
    nm = len(melds)
    keys: dict[int, tuple[int, ...]] = {}
    for t in range(27):
        if not hand[t]:
            continue
        hand[t] -= 1
        y = _kept(hand, keep)
        if kind == "qing":
            keys[t] = (0 if t // 9 != suit else 1, std_shanten(_kept(hand, (suit,)), nm))
        elif kind == "qidui":
            keys[t] = (qidui_shanten(y, 0),)
        else:
            keys[t] = (duidui_shanten(y, nm),)
        hand[t] += 1
    low = min(keys.values())
    return {t for t, k in keys.items() if k == low}


def _lean_plan(hand: list[int], melds: list[Meld], keep: tuple[int, ...],
               view: Sight) -> tuple[str, int] | None:
    """The value plan the hand leans to, if it leans to one: 清一色 with
    ``QING_LEAN`` tiles of one suit (its melds counted; then its other tiles go), 七对 with
    ``PAIRS_LEAN`` pairs and no melds, 对对胡 with ``SETS_LEAN`` pairs, triplets and 碰 — each
    only while it is at most ``QING_SLACK`` (清一色) or ``LEAN_SLACK`` draws further from ready
    than the fastest shape, the hand is not ready already, and there are draws enough left to
    get there. The plan (``"qing"``, ``"qidui"``, ``"duidui"``) and its suit (清一色's);
    ``None``: no lean (平胡). ``_lean``: the discards that keep the plan nearest ready."""
    nm = len(melds)
    x = _kept(hand, keep)
    sh = std_shanten(x, nm)
    if sh < 0:
        return None
    cands: list[tuple[int, int, str, int]] = []  # (shanten, order, plan, suit)
    for suit in keep:
        if any(m.tile // 9 != suit for m in melds):
            continue
        one = _kept(hand, (suit,))
        n = sum(one) + 3 * nm
        if QING_LEAN <= n < 14:
            s1 = std_shanten(one, nm)
            if s1 <= sh + QING_SLACK and (s1 <= sh or sh >= 1):
                cands.append((s1, 0, "qing", suit))
    if not melds and sum(n // 2 for n in x) >= PAIRS_LEAN:
        sq = qidui_shanten(x, 0)
        if sq <= sh + LEAN_SLACK and (sq <= sh or sh >= 1):
            cands.append((sq, 1, "qidui", -1))
    if all(m.kind is not MeldKind.CHI for m in melds):
        sets = nm + sum(1 for n in x if n >= 2)
        sd = duidui_shanten(x, nm)
        if sets >= SETS_LEAN and sd <= sh + LEAN_SLACK and (sd <= sh or sh >= 1):
            cands.append((sd, 2, "duidui", -1))
    if not cands:
        return None
    target, _, kind, suit = min(cands)
    if view.draws < target + LEAN_DRAWS:
        return None
    return kind, suit


QING_LEAN = 9
"""Tiles of one suit (its melds counted) from which the hand leans to 清一色."""

PAIRS_LEAN = 4
"""Pairs (no melds) from which the hand leans to 七对."""

SETS_LEAN = 4
"""Pairs, triplets and 碰 from which the hand leans to 对对胡."""

QING_SLACK = 2
"""How many draws further from ready than the fastest shape a 清一色 may be."""

LEAN_BONUS = 0.5
"""What keeping to the plan is worth on top of the planner's estimate (a share of the base:
the planner, valuing a far hand, sees little in any plan)."""

LEAN_SLACK = 1
"""How many draws further from ready than the fastest shape a leaning plan may be."""

LEAN_DRAWS = 3
"""Own draws left, beyond the plan's shanten, for a lean to stand."""


LATE_SPARE = 3
"""The suit done without goes, whatever its risk, once the seat's own draws left are this
many more than twice its tiles of that suit (so surely before 查花猪, even when the suit it
keeps changes on the way)."""

FAR_FOLD = 3.0
"""How many times a far hand's risks count (on top of ``ai_guard.FOLD``)."""

DEAD_RISK = 0.4
"""Before those last turns, the share of a dead tile's risk that counts: held, it would be
thrown later, when the others are readier, unless the hand ends first. (Holding dangerous
dead tiles while folding only piled them up for the last turns.)"""

ANCHOR = 0.5
"""How much better (a share of its own score) another discard must be than the shanten
player's: the planner's estimates are rough, the shanten player's speed is not (measured:
a trustee that wins sooner ends 四川 hands before it can deal in)."""

ANCHOR_BLOOD = 1.6
"""The same in 血战, where speed counts more: the others' wins do not end the hand, a hand
that is won at all scores, and the cap keeps the big hands small (measured: +0.3 points per
hand against ``ANCHOR``, and fewer deal-ins: hands won sooner throw fewer tiles)."""


def _kong_melds(game: MahjongGame, seat: int, tile: int) -> tuple[list[int], list[Meld], float]:
    """The hand, melds and kong money after a kong of ``tile`` on the seat's own turn."""
    hand = list(game.hands[seat])
    melds = list(game.melds[seat])
    others = max(0, len(game.standing()) - 1)
    if hand[tile] == 4:
        hand[tile] = 0
        melds.append(Meld(MeldKind.ANGANG, tile))
        money = game.rules.angang * others
    else:
        hand[tile] -= 1
        i = next(i for i, m in enumerate(melds) if m.kind is MeldKind.PENG and m.tile == tile)
        melds[i] = Meld(MeldKind.BUGANG, tile, melds[i].source)
        money = game.rules.bugang * others
    return hand, melds, money * game.rules.base


def _turn(game: MahjongGame, seat: int, legal: list[str], view: Sight) -> str:
    score, tile = best_discard(game, seat, view, game.hands[seat], list(game.melds[seat]))
    for action in legal:
        if not action.startswith("gang "):
            continue
        t = next(k for k in range(game.KINDS) if tile_name(k) == action[5:])
        hand, melds, money = _kong_melds(game, seat, t)
        worth, _ = _worth(game, seat, hand, melds, view)
        risk = 0.0
        if game.hands[seat][t] < 4:  # a 补杠 may be robbed (抢杠) like a discard
            values = [ai_guard.opponent_value(game, s) * game.rules.base for s in range(game.N)]
            risk = ai_guard.discard_risk(game, seat, t, view.unseen, values)
        if worth * _pay(game) + money - risk >= score:
            return action
    return tile_name(tile)


def _claim(game: MahjongGame, seat: int, legal: list[str], view: Sight) -> str:
    claim = game.claim
    assert claim is not None
    tile = claim.tile
    hand = game.hands[seat]
    melds = list(game.melds[seat])
    pay = _pay(game)
    now, _ = _worth(game, seat, hand, melds, view)
    best = (now * pay, "pass")
    for action in legal:
        if action.startswith("gang"):
            after = list(hand)
            after[tile] = 0
            worth, _ = _worth(game, seat, after,
                              [*melds, Meld(MeldKind.ZHIGANG, tile, claim.source)], view)
            score = worth * pay + game.rules.zhigang * game.rules.base
            if score >= best[0]:
                best = (score, action)
        elif action == "peng":
            after = list(hand)
            after[tile] -= 2
            pengs = [*melds, Meld(MeldKind.PENG, tile, claim.source)]
            score, _ = best_discard(game, seat, view, after, pengs)
            # a 碰 spends a pair and shows the hand: only when it brings the hand closer to
            # ready, or a plan (对对胡, 清一色) gains clearly by it
            if _breaks_lean(game, seat, hand, melds, tile, view):
                continue
            closer = _closer(game, seat, hand, after, melds, pengs, view)
            if score > best[0] and (closer or score > PENG_GAIN * best[0]):
                best = (score, action)
    return best[1]


def _breaks_lean(game: MahjongGame, seat: int, hand: list[int], melds: list[Meld], tile: int,
                 view: Sight) -> bool:
    """Would a 碰 of ``tile`` end the plan the hand leans to (七对: any 碰; 清一色: one of
    another suit)?"""
    _, keep = _worth(game, seat, hand, melds, view)
    plan = _lean_plan(list(hand), melds, keep, view)
    if plan is None:
        return False
    kind, suit = plan
    return kind == "qidui" or (kind == "qing" and tile // 9 != suit)


PENG_GAIN = 1.6
"""A 碰 that leaves the shanten as it is must make the hand worth this much more."""


def _closer(game: MahjongGame, seat: int, hand: list[int], after: list[int],
            melds: list[Meld], pengs: list[Meld], view: Sight) -> bool:
    """Does the 碰 lower the shanten of the suits the hand keeps (after its best discard)?
    The shape alone is weighed (a 碰 always saves a draw of a tile the hand lacks; that alone
    is no reason to spend a pair)."""
    _, keep = _worth(game, seat, hand, melds, view)

    def sh(counts: list[int], nm: int) -> int:
        x = [0] * 34
        for s in keep:
            x[s * 9 : s * 9 + 9] = counts[s * 9 : s * 9 + 9]
        return shanten(x, nm)

    now = sh(hand, len(melds))
    best = 9
    for t in range(27):
        if after[t]:
            after[t] -= 1
            best = min(best, sh(after, len(pengs)))
            after[t] += 1
    return best < now
