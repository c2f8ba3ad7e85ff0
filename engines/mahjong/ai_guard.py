"""防守: how dangerous a discard is for the ``hard`` trustee, from what its seat may see.

Only public things are read: every seat's river and melds, who has won, the 定缺 choices once
shown, the wall's length; of the seat's own tiles, only through ``Sight.unseen``.

- **Threat** (``threat``): the chance an opponent is ready (听牌), measured against shanten
  players: none while its river is only its opening run of the suit it does without (it
  holds three suits), then growing by 0.055 a discard to 0.35 (a third of them are ready from
  their 9th discard); from its 6th discard 0.55 when it threw a middle tile of a kept suit
  among its last three ("a ready-looking discard pattern": it cuts tiles it would keep
  unless the hand were done), else 0.7 of that level; each 碰/杠 adds 0.12 (a set it no
  longer needs to build); a seat that has won (血战) is no threat.
- **Which suits** it can win in (``live_suits``): not its 定缺; under 缺一门 not the third suit
  once its melds show two, and hardly the suit of its river's first tile (the suit it does
  without: so for 99 ready shanten players in 100; surer when the second tile is of it too);
  with its melds all of one suit (清一色 building) the other suits less.
- **Danger of a tile** (``danger``) for a ready opponent, relative to a middle tile of a live
  suit (measured win rates): 现物 (genbutsu: the tile is in that opponent's river) 0.05 —
  四川 has no furiten, yet a ready hand seldom waits on what it gave up; 筋 (suji: the tile
  three away was thrown) 0.35 when it covers every side (and for a 5), 0.75 for one side of
  two; a tile whose every other copy is visible 0.45; terminals 0.35.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from engines.mahjong.game import MahjongGame

FOLD = 1.5
"""A discard's risk counts this many times: a hand that pushes now will push again on later
turns, with like risks, unless it folds (the one-step risk alone undervalues folding)."""

FOLD_BLOOD = 1.0
"""The same in 血战: the others' wins do not end the hand, a fold gives up more and a deal-in
costs less (capped 番); measured, the trustee scores most pushing more there."""

WAIT_SHARE = 0.12
"""The chance a dangerous (middle, live) tile completes one given ready hand: a wait covers
two or three of the twenty-odd kinds a 缺一门 hand may still use."""


def live_suits(game: MahjongGame, seat: int) -> list[float]:
    """How likely each suit (万 筒 条) is one ``seat`` can win with (0 never, 1 fully)."""
    if game.rules.dingque:
        q = game.que[seat]
        if q is not None and game.phase() != "dingque":
            return [0.0 if s == q else 1.0 for s in range(3)]
        return [1.0, 1.0, 1.0]
    melded = {m.tile // 9 for m in game.melds[seat] if m.tile < 27}
    if len(melded) >= 2:
        return [1.0 if s in melded else 0.0 for s in range(3)]
    out = [1.0, 1.0, 1.0]
    river = game.rivers[seat]
    first = _first_suit(river)
    if first is not None and first not in melded:
        # the suit it threw first is the one it does without (measured: 99 times in 100 for a
        # ready shanten player), surer when it opened with a run of it
        out[first] = 0.05 if len(river) >= 2 and river[1] // 9 == first else 0.1
    if len(melded) == 1 and len(game.melds[seat]) >= 2:
        suit = next(iter(melded))
        for s in range(3):
            if s != suit:
                out[s] = min(out[s], 0.6)  # 碰s of one suit: maybe a 清一色 on the way
    return out


def _first_suit(river: Sequence[int]) -> int | None:
    """The suit a 缺一门 river opens with, or None."""
    if not river or river[0] >= 27:
        return None
    return river[0] // 9


def threat(game: MahjongGame, seat: int) -> float:
    """The chance ``seat`` is ready now (0 for a seat that has won).

    Measured against shanten players (about 1 in 3 are ready from their 9th discard on, a
    hand still holding three suits never): it grows with the discards of the suits it keeps
    while its river is only its opening run of the suit it does without it is none, more
    than half when it cut a middle tile of a kept suit in its last three discards; each meld
    adds to it."""
    if seat in game.winners():
        return 0.0
    river = game.rivers[seat]
    melds = len(game.melds[seat])
    live = live_suits(game, seat)
    p = min(READY_MAX, max(0.0, (len(river) - 3) * READY_STEP))
    if _first_suit(river) is not None and all(live[t // 9] < 0.5 for t in river if t < 27):
        p *= 0.1  # still throwing its opening run: it holds three suits, it cannot win
    elif len(river) >= 6:
        late = river[-3:]
        cut = any(t < 27 and live[t // 9] >= 1 and 2 <= t % 9 <= 6 for t in late)
        p = CUT_READY if cut else p * 0.7
    return min(0.9, p + MELD_THREAT * melds)


READY_STEP = 0.055
"""The chance of being ready gained per discard (measured: 0.07 at the 4th, 0.3 at the 8th)."""

READY_MAX = 0.35
"""Where that chance levels off without other signs."""

MELD_THREAT = 0.12
"""Each 碰/杠 is a set the hand no longer needs to build."""

CUT_READY = 0.55
"""A middle tile of a kept suit thrown among the last three (from its 6th discard): measured,
such seats are ready more than half the time, the others about 0.7 of the level above."""


def danger(game: MahjongGame, tile: int, seat: int, unseen: Sequence[int]) -> float:
    """How dangerous discarding ``tile`` is against ``seat`` if that seat is ready (0..~1.2)."""
    if tile >= 27:
        river_has = tile in game.rivers[seat]
        return 0.0 if unseen[tile] == 0 else (0.3 if river_has else 0.6)
    live = live_suits(game, seat)[tile // 9]
    if live == 0:
        return 0.0
    river = game.rivers[seat]
    if tile in river:
        return GENBUTSU * live
    r = tile % 9
    d = 0.35 if r in (0, 8) else 1.0
    low = r >= 3 and tile - 3 in river
    high = r <= 5 and tile + 3 in river
    sides = (r >= 3) + (r <= 5)
    if (low or high) and (low + high == sides or r == 4):
        d *= 0.35
    elif low or high:
        d *= 0.75
    if unseen[tile] == 0:
        d *= 0.45
    return d * live


GENBUTSU = 0.05
"""现物: 四川 has no furiten, yet a ready shanten player waits on what it threw about one
time in twenty as often as on a live middle tile (measured)."""


def discard_risk(game: MahjongGame, me: int, tile: int, unseen: Sequence[int],
                 values: Sequence[float]) -> float:
    """Expected points lost by throwing ``tile`` now: over the opponents, the chance each is
    ready x the chance this tile completes it x what its win would cost (``values[s]``)."""
    risk = 0.0
    for s in range(game.N):
        if s == me:
            continue
        p = threat(game, s)
        if p:
            risk += p * WAIT_SHARE * danger(game, tile, s, unseen) * values[s]
    return risk * (FOLD_BLOOD if game.rules.blood else FOLD)


def opponent_value(game: MahjongGame, seat: int) -> float:
    """倍 an opponent's win would likely cost: 2 by default, more with a one-suit 碰 hand."""
    melds = game.melds[seat]
    suits = {m.tile // 9 for m in melds if m.tile < 27}
    value = 2.0
    if melds and len(suits) == 1 and len(melds) >= 2:
        value *= 3  # 清一色 / 清对 on the way
    kongs = sum(1 for m in melds if m.kind.is_kong)
    return value * 2**kongs  # 根
