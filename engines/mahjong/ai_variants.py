"""托管 (hard) of the rule sets beyond 四川 / 血战: 陕西, 武汉, 永州, 二人麻将.

``ai_hard`` plans for 四川's 番 (two kept suits, no honours, 定缺 / 缺一门) and reads danger
through 缺一门 (the suit an opponent does without); neither holds here (honours, 吃, wilds, no
缺一门, two seats). What carries over is its way of choosing: every legal discard is scored as
the chance the hand then wins (``chance``: by its 向听 and the unseen copies of its useful
draws, from ``ai_hard.unseen_copies``) x what a win brings, less the risk of the tile (``ai_guard``'s
product, read without 缺一门); the shanten player's discard keeps an edge (``ANCHOR``)
so only a clear gain moves it.
Kongs and claims are the ``normal`` trustee's (``game._trustee(seat, "normal")``; 二人: fewer
claims, below).

Per rule set:

- 陕西: every other seat pays for any win (放胡 too), so a deal-in costs no more than another
  seat's win: no defence, speed only. 炮子 are staked by the hand's chance to win (each 炮子
  brings 3 x A when the seat wins and costs A when another does): all 4 on a hand at most
  ``PAO_SHANTEN`` 向听 at the deal (a chance above the break-even), else 0.
- 武汉: the 癞子 is kept and counted as any tile (向听 of the natural tiles less the wilds);
  a ready hand needs its 2/5/8 pair (``wild.need``), and its waits are the tiles that
  complete it. A hand rich in one suit is also weighed as a 清一色 (a 大胡, ``FLUSH``: 8 times a
  小胡), so it throws the other suits. The discarder pays double (放冲), so it defends.
- 永州: the discarder pays the whole win: it defends. The honours that score (门风, 圈风,
  dragons) are worth their 番 kept; a hand rich in one suit is weighed as a 清一色 / 混一色.
- 二人麻将: the swap gives away the one tile whose exchange for a random unseen tile leaves
  the hand closest to ready on average (or keeps the hand when none gains); a 搓牌 offer takes
  the unused tile that brings the hand closest (a win first), a 换牌 offer only when the
  triplet brings the hand closer; 吃 / 碰 only when they leave the hand ready (opening it costs
  门清 and 门清报听); an opponent's 报听 is a sure threat. (The swap is of one tile:
  ``legal_actions`` lists single tiles, the menu of every subset would be huge.)

Reads only what its seat may see: its hand, every river and meld, the offers its legal
actions name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.mahjong import ai_hard
from engines.mahjong.ai_guard import WAIT_SHARE
from engines.mahjong.shape import shanten
from engines.mahjong.tiles import parse_tiles, tile_name
from engines.mahjong.wild import ANY_PAIR, PAIR_258, need

if TYPE_CHECKING:
    from engines.mahjong.game import MahjongGame

KEYS = ("shaanxi", "wuhan", "yongzhou", "erren")
"""The rule sets this module plays at ``hard``."""

WIN = {"shaanxi": 4.0, "wuhan": 16.0, "yongzhou": 6.0, "erren": 3.0}
"""What a win brings, in ``rules.base`` (rough means: the score and what it denies others)."""

FEED = {"shaanxi": 0.0, "wuhan": 8.0, "yongzhou": 1.2, "erren": 1.5}
"""What feeding a win costs beyond another seat's win, in ``rules.base``: 陕西 nothing (all
pay alike), 武汉 the 放冲's double, 永州 the whole win (else a third of a 自摸), 二人 the win
less the chance the opponent would win anyway."""

FOLD = 2.5
"""A discard's risk counts this many times (a hand that pushes now pushes again, with like
risks): the figure these rule sets' ``WIN`` and ``FEED`` were measured with, kept apart from
四川's (``ai_guard.FOLD``, re-fitted to 四川's own threat and danger readings)."""

ANCHOR = 0.3
"""The fastest discard's edge over the others, as a share of its score (``ai_hard.ANCHOR``'s
role; the value these rule sets were measured with)."""
HONGZHONG = 31


def choose(game: MahjongGame, seat: int) -> str:
    """The hard trustee's action for ``seat`` (which acts now) in ``KEYS``."""
    legal = game.legal_actions(seat)
    if "hu" in legal:
        return "hu"
    phase = game.phase()
    if phase == "paozi":
        return _pao(game, seat)
    if phase == "swap":
        return _swap(game, seat)
    if legal in (["hu", "pass"], ["pass"]):
        return "pass"  # 报听 / 海底: only a win would be played
    normal = game._trustee(seat, "normal")
    if phase == "claim" and game.KEY == "erren" and normal != "pass":
        return normal if _claim_ready(game, seat, normal) else "pass"
    if phase == "claim" or normal.startswith("gang"):
        return normal
    if game.KEY == "erren":
        offer = _offer(game, seat, legal)
        if offer is not None:
            return offer
    tile = _discard(game, seat, legal)
    if f"ting {tile}" in legal:
        return f"ting {tile}"
    return tile


# --- what the seat sees ----------------------------------------------------------------------
def _unseen(game: MahjongGame, seat: int) -> list[int]:
    unseen = ai_hard.unseen_copies(game, seat)
    for t in getattr(game, "flowers", ()):  # 二人: the 花牌 are out of play, face up
        unseen[t] = max(0, unseen[t] - 1)
    return unseen


def _draws(game: MahjongGame) -> float:
    """The seat's own draws still to come."""
    left = game.wall_left()
    if game.KEY == "shaanxi":
        left -= game.reserve()  # type: ignore[attr-defined]
    elif game.KEY == "wuhan":
        left -= 10  # 海底's reserve, never drawn
    return max(0.5, left / max(1, len(game.standing())))


# --- speed: 向听 and useful draws ---------------------------------------------------------------
def _wild(game: MahjongGame) -> int | None:
    return getattr(game, "laizi", None) if game.KEY == "wuhan" else None


def speed(game: MahjongGame, hand: list[int], melds: int, unseen: list[int]
          ) -> tuple[int, int]:
    """(向听, unseen copies of the draws that lower it) of a 13-tile ``hand`` (a ready 武汉
    hand: the draws that complete it)."""
    wild = _wild(game)
    if wild is None:
        sh = shanten(hand, melds)
        useful = 0
        for t in range(game.KINDS):
            if unseen[t] and hand[t] < 4:
                hand[t] += 1
                if shanten(hand, melds) < sh:
                    useful += unseen[t]
                hand[t] -= 1
        return sh, useful
    nat = list(hand)
    w = nat[wild]
    nat[wild] = 0
    ready = need(nat, PAIR_258) <= w + 1
    base = shanten(nat, melds)
    sh = 0 if ready else max(1, base - w)
    useful = unseen[wild]
    for t in range(34):
        if t == wild or t == HONGZHONG or not unseen[t] or nat[t] >= 4:
            continue
        nat[t] += 1
        if (need(nat, PAIR_258) <= w) if ready else (shanten(nat, melds) < base):
            useful += unseen[t]
        nat[t] -= 1
    return sh, useful


CHANCE = (0.55, 0.35, 0.2, 0.1, 0.05, 0.02)
"""A hand's chance to win by its 向听 (0: ready) with a full wall and the usual useful draws
(``USUAL``): rough shares of a four-seat table, for weighing speed against a tile's risk."""
USUAL = (6, 20, 40, 60, 80, 100)
"""The unseen useful draws a hand of each 向听 usually has."""
FULL = 18.0
"""A seat's own draws from a full wall (four seats, 136 tiles)."""


def one_suit(game: MahjongGame, hand: list[int], melds: list, unseen: list[int],
             draws: float, honours: bool = False) -> float:
    """The best chance, over the suits its melds allow, that ``hand`` (13 tiles) wins as a
    清一色 (``honours``: a 混一色, the honours kept too): 向听 of those tiles (``ai_plan``'s
    ``std_shanten``: the other tiles are draws short); 武汉's 癞子 as any tile, any pair."""
    from engines.mahjong.ai_plan import std_shanten

    wild = _wild(game)
    w = hand[wild] if wild is not None else 0
    nm = len(melds)
    best = 0.0
    for suit in range(3):
        if any(m.tile // 9 != suit and not (honours and m.tile >= 27) for m in melds):
            continue
        kinds = [*range(suit * 9, suit * 9 + 9), *(range(27, 34) if honours else ())]
        x = [0] * 34
        for t in kinds:
            x[t] = hand[t]
        if wild is not None:
            x[wild] = 0
        if sum(x[suit * 9 : suit * 9 + 9]) + w + 3 * nm < 8:
            continue  # too few of the suit
        base = std_shanten(x, nm)
        sh = max(0, base - w)
        if sh == 0 and wild is not None and need(x, ANY_PAIR) > w + 1:
            sh = 1
        useful = unseen[wild] if wild is not None else 0
        for t in kinds:
            if t != wild and unseen[t] and x[t] < 4:
                x[t] += 1
                if wild is not None and sh == 0:
                    better = need(x, ANY_PAIR) <= w
                else:
                    better = std_shanten(x, nm) < base
                if better:
                    useful += unseen[t]
                x[t] -= 1
        best = max(best, chance(sh, useful, draws))
    return best


FLUSH = {"wuhan": (8.0, 0.0), "yongzhou": (10.0, 3.0)}
"""What a 清一色 and a 混一色 bring over a plain win: 武汉 a 大胡 (10 base) against a 小胡 (1, x2
when 硬胡), no 混一色; 永州 (set A) 4番 and 2番 against a plain win's 0-1番 (x 2^番)."""


def _flush(game: MahjongGame, hand: list[int], melds: list, unseen: list[int],
           draws: float) -> float:
    """The flush plans' chance x what they bring over a plain win (``FLUSH``)."""
    qing, hun = FLUSH.get(game.KEY, (0.0, 0.0))
    best = 0.0
    if qing:
        best = qing * one_suit(game, hand, melds, unseen, draws)
    if hun:
        best = max(best, hun * one_suit(game, hand, melds, unseen, draws, honours=True))
    return best


def chance(sh: int, useful: int, draws: float) -> float:
    """The chance a hand ``sh`` 向听 from ready with ``useful`` unseen useful draws wins in
    ``draws`` own draws: ``CHANCE`` scaled by the square root of its useful draws against
    ``USUAL`` and by the wall left, once per draw it needs. (``ai_plan.reach`` values 四川's
    番 plans; its thinning of useful draws ranks a far hand with many of them above a nearer
    one, and only the order of speed is weighed here.)"""
    k = min(max(sh, 0), len(CHANCE) - 1)
    share = min(1.5, (useful / USUAL[k]) ** 0.5) if useful else 0.0
    return CHANCE[k] * share * min(1.0, draws / FULL) ** (k + 1)


def _claim_ready(game: MahjongGame, seat: int, action: str) -> bool:
    """二人: does the claim leave the hand ready (after its best discard)? Opening the hand
    costs 门清 (and 门清报听), 1番 each, so only a claim that makes it ready is worth it."""
    from engines.mahjong.notation import parse_action

    claim = game.claim
    assert claim is not None
    tile = claim.tile
    hand = list(game.hands[seat])
    melds = len(game.melds[seat]) + 1
    if action.startswith("chi"):
        start = parse_action(action)[1]
        assert start is not None
        for t in (start, start + 1, start + 2):
            if t != tile:
                hand[t] -= 1
        return shanten(hand, melds) <= 0
    if action == "peng":
        hand[tile] -= 2
        return shanten(hand, melds) <= 0
    return True  # a kong: as normal


# --- defence ---------------------------------------------------------------------------------
def threat(game: MahjongGame, seat: int) -> float:
    """The chance ``seat`` is ready: ``ai_guard.threat``'s reading of turns, melds and late
    middle-tile cuts, without its 缺一门 suit; a 报听 (二人) is certain."""
    if seat in game.winners():
        return 0.0
    if getattr(game, "riichi", None) and game.riichi[seat]:  # type: ignore[attr-defined]
        return 1.0
    river = game.rivers[seat]
    melds = len(game.melds[seat])
    p = (len(river) + melds - 3) / 10 + 0.12 * melds
    if len(river) >= 6:
        p += 0.06 * sum(1 for t in river[-3:] if t < 27 and 2 <= t % 9 <= 6)
    return min(0.9, max(0.0, p))


def danger(game: MahjongGame, tile: int, seat: int, unseen: list[int]) -> float:
    """How likely ``tile`` completes ``seat``'s ready hand, relative to a middle tile: as
    ``ai_guard.danger`` (现物 0.6, 筋, terminals, a tile with no copy left for a pair), every
    suit live; an honour with no unseen copy is safe, with one only a single wait."""
    river = game.rivers[seat]
    if tile >= 27:
        if not unseen[tile]:
            return 0.0
        return 0.3 if tile in river else (0.4 if unseen[tile] == 1 else 0.6)
    if tile in river:
        return 0.6
    r = tile % 9
    d = 0.65 if r in (0, 8) else 0.85 if r in (1, 7) else 1.0
    low = r >= 3 and tile - 3 in river
    high = r <= 5 and tile + 3 in river
    if (low or high) and low + high == (r >= 3) + (r <= 5):
        d *= 0.75
    elif low or high:
        d *= 0.9
    if not unseen[tile]:
        d *= 0.55
    return d


def risk(game: MahjongGame, me: int, tile: int, unseen: list[int]) -> float:
    """Expected points lost by throwing ``tile``: ``ai_guard.discard_risk``'s product (threat
    x ``WAIT_SHARE`` x danger x cost, x ``FOLD``), the cost the rule set's ``FEED``."""
    cost = FEED[game.KEY] * game.rules.base
    if not cost:
        return 0.0
    total = 0.0
    for s in range(game.N):
        if s != me:
            p = threat(game, s)
            if p:
                total += p * WAIT_SHARE * danger(game, tile, s, unseen)
    return total * cost * FOLD


# --- the turn ----------------------------------------------------------------------------------
def _discard(game: MahjongGame, seat: int, legal: list[str]) -> str:
    """The discard: chance to win after it x ``WIN`` less its risk; the fastest discard
    (fewest 向听, most useful draws, honours and terminals first) keeps ``ANCHOR``'s edge."""
    hand = list(game.hands[seat])
    melds = len(game.melds[seat])
    unseen = _unseen(game, seat)
    draws = _draws(game)
    win = WIN[game.KEY] * game.rules.base
    names = set(legal)
    scores: dict[int, float] = {}
    fast: tuple[tuple[int, int, int, int], int] | None = None
    for t in range(game.KINDS):
        if not hand[t] or tile_name(t) not in names:
            continue
        hand[t] -= 1
        sh, useful = speed(game, hand, melds, unseen)
        hand[t] += 1
        gain = 2 ** _honour_fan(game, seat, hand, t)
        odds = chance(sh, useful, draws)
        if game.KEY in FLUSH:
            hand[t] -= 1
            odds = max(odds, _flush(game, hand, game.melds[seat], unseen, draws))
            hand[t] += 1
        scores[t] = odds * win * gain - risk(game, seat, t, unseen)
        edge = -1 if t >= 27 else min(t % 9, 8 - t % 9)
        key = (sh, -useful, edge, t)
        if fast is None or key < fast[0]:
            fast = (key, t)
    if fast is None:  # nothing but specials (武汉's 癞子 / 红中) to put out
        return next(a for a in legal if a.split()[0] not in ("hu", "chi", "peng"))
    anchor = fast[1]
    scores[anchor] += ANCHOR * max(scores[anchor], game.rules.base * 0.1)
    return tile_name(max(scores, key=lambda t: (scores[t], t == anchor)))


HONOUR_FAN = (0.0, 0.05, 0.4, 1.0, 1.0)
"""永州: the 番 a value honour (门风, 圈风, each dragon) held 0-4 times is expected to bring (a
triplet 1; a pair, a 碰 away, 0.4)."""


def _honour_fan(game: MahjongGame, seat: int, hand: list[int], out: int) -> float:
    """永州: the expected 番 of the value honours ``hand`` keeps once ``out`` is thrown."""
    if game.KEY != "yongzhou":
        return 0.0
    winds = (game.seat_wind(seat), game.round_wind)  # type: ignore[attr-defined]
    fan = 0.0
    for t in (*winds, 31, 32, 33):
        fan += HONOUR_FAN[hand[t] - (t == out)]
    for m in game.melds[seat]:
        fan += sum(1 for t in (*winds, 31, 32, 33) if m.tile == t and m.kind.name != "CHI")
    return min(fan, 3.0)


# --- 陕西's 炮子 ----------------------------------------------------------------------------------
PAO_SHANTEN = 3
"""Stake when the hand at the deal is this many 向听 or fewer. Each 炮子 brings 3 x A from the
others when the seat wins and costs A when another seat wins: worth it when 4p > the share of
hands someone wins (about 0.96 here, 荒庄 being rare). In 300 hands of the normal trustee at all
four seats a hand 2 or 3 向听 at the deal won 28-29 % of the time, 4 向听 20 %, 5 17 %."""


def _pao(game: MahjongGame, seat: int) -> str:
    from engines.mahjong.notation import PAO_MAX

    sh = shanten(game.hands[seat], 0)  # the dealer's 14: after its best discard
    return f"pao {PAO_MAX if sh <= PAO_SHANTEN else 0}"


# --- 二人麻将: the swap and the offers ------------------------------------------------------------
def _mean_shanten(hand: list[int], melds: int, unseen: list[int]) -> float:
    """The mean 向听 of ``hand`` (one tile short) once a random unseen tile joins it."""
    total = sum(unseen)
    acc = 0.0
    for t in range(34):
        if unseen[t] and hand[t] < 4:
            hand[t] += 1
            acc += unseen[t] * shanten(hand, melds)
            hand[t] -= 1
    return acc / max(1, total)


def swap_choice(game: MahjongGame, seat: int) -> int | None:
    """The tile whose exchange (for a random unseen tile) leaves the hand closest to ready on
    average, or None when keeping the hand is as good."""
    hand = list(game.hands[seat])
    unseen = _unseen(game, seat)
    keep = float(shanten(hand, 0))
    best: tuple[float, int, int] | None = None
    for t in range(34):
        if not hand[t]:
            continue
        hand[t] -= 1
        mean = _mean_shanten(hand, 0, unseen)
        hand[t] += 1
        edge = -1 if t >= 27 else min(t % 9, 8 - t % 9)
        key = (mean, edge, t)
        if best is None or key < best:
            best = key
    if best is None or best[0] >= keep:
        return None
    return best[2]


def _swap(game: MahjongGame, seat: int) -> str:
    tile = swap_choice(game, seat)
    return "swap -" if tile is None else f"swap {tile_name(tile)}"


def _offer(game: MahjongGame, seat: int, legal: list[str]) -> str | None:
    """搓牌: the unused tile (instead of the one drawn) that wins, else brings the hand
    closest to ready; 换牌: three tiles for the triplet when it brings the hand closer."""
    hand = list(game.hands[seat])
    melds = len(game.melds[seat])
    now = shanten(hand, melds)
    best: tuple[int, str] | None = None
    drawn = game.drawn
    for action in legal:
        if action.startswith("cuo ") and drawn is not None:
            (t,) = parse_tiles(action[4:])
            hand[drawn] -= 1
            hand[t] += 1
            key = (shanten(hand, melds), action)
            hand[t] -= 1
            hand[drawn] += 1
        elif action.startswith("huan "):
            offer = game.huan_offer  # type: ignore[attr-defined]
            give = parse_tiles(action[5:])
            for t in give:
                hand[t] -= 1
            hand[offer] += 3
            key = (shanten(hand, melds), action)
            hand[offer] -= 3
            for t in give:
                hand[t] += 1
        else:
            continue
        if key[0] < now and (best is None or key < best):
            best = key
    return None if best is None else best[1]


__all__ = ["KEYS", "chance", "choose", "danger", "risk", "speed", "swap_choice", "threat"]
