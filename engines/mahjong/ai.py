"""托管: the trustee of a mahjong seat — always legal, using only what the seat may see.

The levels ``easy`` and ``normal`` play as below; ``hard`` in 四川 / 血战 is ``ai_hard`` (plans
for 番, chooses its 缺 by value, defends), in the other rule sets ``ai_variants`` (its speed
and defence read for honours, wilds, 吃 and two seats; 陕西's 炮子 and 二人's swap and offers
by value).

- 定缺: the suit it holds fewest of (ties: fewer pairs and triplets in it, then 万 筒 条).
- The suit it does without (``MahjongGame.void_suit``): its 定缺, or under 缺一门 the suit it
  holds fewest of while it holds all three; it never claims or konges a tile of that suit.
- Its turn: 胡 whenever it can; discard that suit first; 暗杠/补杠 when the hand stays as
  close to ready; otherwise the discard that leaves the lowest shanten (向听), then the most
  useful tiles (有效牌: draws that lower the shanten, counted by copies it has not seen).
- Claims: 胡 whenever it can; 杠 when the hand stays as close to ready; 碰 or 吃 when it lowers
  the shanten; otherwise 过.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engines.mahjong import ai_hard, ai_variants
from engines.mahjong.notation import parse_action
from engines.mahjong.rules import SICHUAN_KEYS
from engines.mahjong.shape import shanten
from engines.mahjong.tiles import tile_name

if TYPE_CHECKING:
    from engines.mahjong.game import MahjongGame


def choose(game: MahjongGame, seat: int, level: str = "normal") -> str:
    """The trustee's action for ``seat`` (which must be in ``game.to_act()``): at ``hard``
    in 四川 / 血战 the planning, defending player of ``ai_hard``, in the other rule sets that
    of ``ai_variants``; otherwise this module's."""
    if level == "hard" and game.KEY in SICHUAN_KEYS:
        return ai_hard.choose(game, seat)
    if level == "hard" and game.KEY in ai_variants.KEYS:
        return ai_variants.choose(game, seat)
    legal = game.legal_actions(seat)
    if "hu" in legal:
        return "hu"
    phase = game.phase()
    if phase == "dingque":
        return _que(game.hands[seat])
    if phase == "claim":
        return _claim(game, seat, legal)
    return _turn(game, seat, legal)


def _que(hand: list[int]) -> str:
    def weight(suit: int) -> tuple[int, int, int]:
        part = hand[suit * 9 : suit * 9 + 9]
        return sum(part), sum(1 for n in part if n >= 2), suit

    suit = min(range(3), key=weight)
    return "que " + "mps"[suit]


def _clean(game: MahjongGame, seat: int, hand: list[int]) -> list[int]:
    """The hand without its void suit (those tiles only wait to be thrown away)."""
    q = game.void_suit(seat)
    out = list(hand)
    if q is not None:
        for t in range(q * 9, q * 9 + 9):
            out[t] = 0
    return out


def _seen(game: MahjongGame, seat: int) -> list[int]:
    """Copies of each tile the seat can see: its hand, every meld, every discard."""
    seen = list(game.hands[seat])
    for s in range(len(game.melds)):
        for m in game.melds[s]:
            for t in m.tiles:
                seen[t] += 1
        for t in game.rivers[s]:
            seen[t] += 1
    return seen


def _useful(hand: list[int], melds: int, base: int, seen: list[int], que: int | None) -> int:
    """有效牌: unseen copies of the tiles that would lower the shanten of ``hand``."""
    count = 0
    for t in range(len(hand)):
        if t // 9 == que or seen[t] >= 4:
            continue
        r = t % 9
        if t >= 27:  # an honour only pairs or triples with itself
            near = hand[t] > 0
        else:
            near = any(hand[u] for u in range(t - min(r, 2), t + min(8 - r, 2) + 1))
        if not near:
            continue
        hand[t] += 1
        if shanten(hand, melds) < base:
            count += 4 - seen[t]
        hand[t] -= 1
    return count


def best_discard(game: MahjongGame, seat: int) -> tuple[int, str]:
    """The shanten after the best discard and that discard (notation)."""
    hand = game.hands[seat]
    q = game.void_suit(seat)
    if q is not None:
        for t in range(q * 9 + 8, q * 9 - 1, -1):
            if hand[t]:
                return 9, tile_name(t)
    melds = len(game.melds[seat])
    seen = _seen(game, seat)
    best: tuple[int, int, int, int] | None = None
    for t in range(game.KINDS):
        if not hand[t]:
            continue
        hand[t] -= 1
        sh = shanten(hand, melds)
        hand[t] += 1
        if best is not None and sh > best[0]:
            continue
        hand[t] -= 1
        useful = _useful(hand, melds, sh, seen, q)
        hand[t] += 1
        # throw honours, then terminals, before middle tiles on a tie
        edge = -1 if t >= 27 else min(t % 9, 8 - t % 9)
        key = (sh, -useful, edge, t)
        if best is None or key < best:
            best = key
    assert best is not None
    return best[0], tile_name(best[3])


def _turn(game: MahjongGame, seat: int, legal: list[str]) -> str:
    sh, discard = best_discard(game, seat)
    melds = len(game.melds[seat])
    for action in legal:
        if not action.startswith("gang"):
            continue
        tile = next(t for t in range(game.KINDS) if tile_name(t) == action[5:])
        if tile < 27 and tile // 9 == game.void_suit(seat):
            continue  # a kong of the suit it does without
        hand = _clean(game, seat, game.hands[seat])
        if hand[tile] == 4:
            hand[tile] = 0
            after = shanten(hand, melds + 1)
        else:
            hand[tile] -= 1
            after = shanten(hand, melds)
        if after <= sh:
            return action
    return discard


def _claim(game: MahjongGame, seat: int, legal: list[str]) -> str:
    claim = game.claim
    assert claim is not None
    tile = claim.tile
    if tile < 27 and tile // 9 == game.void_suit(seat):
        return "pass"  # a claim of the suit it does without would only keep it there
    melds = len(game.melds[seat])
    hand = _clean(game, seat, game.hands[seat])
    now = shanten(hand, melds)
    for action in legal:
        if action.startswith("gang"):
            hand[tile] -= 3
            after = shanten(hand, melds + 1)
            hand[tile] += 3
            if after <= now:
                return action
        if action.startswith("chi"):
            start = parse_action(action)[1]
            assert start is not None
            others = [t for t in (start, start + 1, start + 2) if t != tile]
            if all(hand[t] for t in others):
                for t in others:
                    hand[t] -= 1
                best = min(
                    (_after_discard(hand, t, melds + 1) for t in range(game.KINDS) if hand[t]),
                    default=9,
                )
                for t in others:
                    hand[t] += 1
                if best < now:
                    return action
        if action == "peng":
            hand[tile] -= 2
            best = min(
                (_after_discard(hand, t, melds + 1) for t in range(game.KINDS) if hand[t]),
                default=9,
            )
            hand[tile] += 2
            if best < now:
                return action
    return "pass"


def _after_discard(hand: list[int], tile: int, melds: int) -> int:
    hand[tile] -= 1
    sh = shanten(hand, melds)
    hand[tile] += 1
    return sh
