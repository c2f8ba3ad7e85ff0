"""托管: the trustee's move choice for 五子棋.

A short tactical ladder over a "five-window" score (every line of five points a stone would
join counts by how many stones of one colour it already holds):

1. make five; 2. block the opponent's five; 3. make a straight four (活四), a double four
(white / 无禁手 only) or a four-three; 4. block the opponent's open three (a point where the
opponent would make a straight four); 5. the best scored point (attack + defence).

Black in a 禁手 room never plays a forbidden point (except a five, which wins). Everything
is deterministic: ties go to the lowest point index.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

from engines.gomoku.notation import CENTER, POINTS, SIZE, point
from engines.gomoku.rules import (
    BLACK,
    EMPTY,
    RADIUS,
    WHITE,
    Position,
    count_fours,
    is_straight_four,
    other,
    rays,
    windows,
)

# Scores of a five-window by its stones: own stones (attack) and opponent stones (defence).
_ATTACK = (7, 35, 800, 15000, 800000)
_DEFEND = (7, 15, 400, 1800, 100000)


@lru_cache(maxsize=1)
def _point_windows() -> tuple[tuple[int, ...], ...]:
    """For each point, the indices of the five-windows that contain it."""
    table: list[list[int]] = [[] for _ in range(POINTS)]
    for i, win in enumerate(windows()):
        for p in win:
            table[p].append(i)
    return tuple(tuple(t) for t in table)


class Rules:
    """Which fives count and who has 禁手, for one room."""

    __slots__ = ("forbidden",)

    def __init__(self, forbidden: bool) -> None:
        self.forbidden = forbidden

    def exact(self, colour: int) -> bool:
        return self.forbidden and colour == BLACK

    def may_play(self, pos: Position, p: int, colour: int) -> bool:
        """Not a 禁手 for this colour (fives always may be played)."""
        return not (self.exact(colour) and pos.forbidden(p) is not None)


def window_counts(pos: Position) -> list[tuple[int, int]]:
    """(black, white) stones in every five-window."""
    cells = pos.cells
    out = []
    for win in windows():
        b = w = 0
        for q in win:
            v = cells[q]
            if v == BLACK:
                b += 1
            elif v == WHITE:
                w += 1
        out.append((b, w))
    return out


def candidates(pos: Position, reach: int = 2) -> list[int]:
    """Empty points within ``reach`` (king steps) of a stone; the centre on an empty board."""
    cells = pos.cells
    near = set()
    for p, v in enumerate(cells):
        if v == EMPTY:
            continue
        c0, r0 = p % SIZE, p // SIZE
        for dr in range(-reach, reach + 1):
            r = r0 + dr
            if not 0 <= r < SIZE:
                continue
            for dc in range(-reach, reach + 1):
                c = c0 + dc
                if 0 <= c < SIZE and cells[point(c, r)] == EMPTY:
                    near.add(point(c, r))
    if not near:
        return [CENTER] if cells[CENTER] == EMPTY else list(pos.empty_points())
    return sorted(near)


def point_score(counts: list[tuple[int, int]], p: int, colour: int) -> int:
    """Attack plus defence value of ``colour`` playing ``p`` (five-window score)."""
    total = 0
    for i in _point_windows()[p]:
        b, w = counts[i]
        mine, theirs = (b, w) if colour == BLACK else (w, b)
        if theirs == 0:
            total += _ATTACK[mine]
        elif mine == 0:
            total += _DEFEND[theirs]
    return total


def potential(counts: list[tuple[int, int]], colour: int) -> int:
    """How much ``colour`` could still build: open windows weighted by stones held."""
    weight = (0, 1, 10, 100, 1000, 0)
    total = 0
    for b, w in counts:
        mine, theirs = (b, w) if colour == BLACK else (w, b)
        if theirs == 0:
            total += weight[mine]
    return total


def win_points(
    pos: Position, counts: list[tuple[int, int]], colour: int, rules: Rules
) -> list[int]:
    """Points where ``colour`` makes five now (for the opponent: the fours to block)."""
    exact = rules.exact(colour)
    found = set()
    for i, win in enumerate(windows()):
        b, w = counts[i]
        mine, theirs = (b, w) if colour == BLACK else (w, b)
        if mine == 4 and theirs == 0:
            for q in win:
                if pos.cells[q] == EMPTY and pos.makes_five(q, colour, exact):
                    found.add(q)
    return sorted(found)


def shape(pos: Position, p: int, colour: int, rules: Rules) -> tuple[int, bool, int]:
    """(fours, straight four?, open threes) that ``colour`` at empty ``p`` would make."""
    exact = rules.exact(colour)
    cells = pos.cells
    cells[p] = colour
    try:
        fours = 0
        straight = False
        threes = 0
        for d in range(4):
            seg = pos.segment(p, d)
            n = count_fours(seg, colour, exact)
            if n:
                fours += n
                straight = straight or is_straight_four(seg, colour, exact)
                continue
            ray = rays(p)[d]
            for e in range(RADIUS - 3, RADIUS + 4):
                if seg[e] != EMPTY:
                    continue
                seg[e] = colour
                ok = is_straight_four(seg, colour, exact)
                seg[e] = EMPTY
                if ok and rules.may_play(pos, ray[e], colour):
                    threes += 1
                    break
        return fours, straight, threes
    finally:
        cells[p] = EMPTY


def _has_line_stones(counts: list[tuple[int, int]], p: int, colour: int, least: int) -> bool:
    for i in _point_windows()[p]:
        b, w = counts[i]
        mine, theirs = (b, w) if colour == BLACK else (w, b)
        if theirs == 0 and mine >= least:
            return True
    return False


def open_four_points(
    pos: Position, counts: list[tuple[int, int]], colour: int, rules: Rules, among: list[int]
) -> list[int]:
    """Points of ``among`` where ``colour`` would make a straight four it may play."""
    exact = rules.exact(colour)
    return [
        p
        for p in among
        if _has_line_stones(counts, p, colour, 3)
        and pos.makes_straight_four(p, colour, exact)
        and rules.may_play(pos, p, colour)
    ]


def choose_move(pos: Position, colour: int, rules: Rules) -> int:
    """The trustee's stone for ``colour`` on ``pos`` (which it leaves unchanged)."""
    foe = other(colour)
    counts = window_counts(pos)
    cands = candidates(pos)
    if len(cands) == 1:
        return cands[0]

    def scored(points: list[int]) -> list[int]:
        return sorted(points, key=lambda q: (-point_score(counts, q, colour), q))

    def first_playable(points: list[int]) -> int | None:
        for q in scored(points):
            if rules.may_play(pos, q, colour):
                return q
        return None

    # 1. five.
    wins = win_points(pos, counts, colour, rules)
    if wins:
        return wins[0]
    # 2. the opponent's four must be blocked.
    threats = win_points(pos, counts, foe, rules)
    if threats:
        block = first_playable(threats)
        if block is not None:
            return block
    else:
        # 3. own winning threats: straight four, then double four / four-three.
        strong = [q for q in cands if _has_line_stones(counts, q, colour, 2)]
        best_rank, best = 0, None
        for q in scored(strong):
            fours, straight, threes = shape(pos, q, colour, rules)
            rank = 3 if straight else 2 if fours >= 2 else 1 if fours and threes else 0
            if rank > best_rank and rules.may_play(pos, q, colour):
                best_rank, best = rank, q
                if rank == 3:
                    break
        if best is not None:
            return best
        # 4. the opponent's open three: leave it no straight four.
        danger = open_four_points(pos, counts, foe, rules, cands)
        if danger:
            block = _block_three(pos, counts, colour, foe, rules, danger, cands)
            if block is not None:
                return block
    # 5. the best scored point.
    pick = first_playable(cands)
    if pick is not None:
        return pick
    rest = [q for q in pos.empty_points() if q not in set(cands)]
    pick = first_playable(rest)
    if pick is not None:
        return pick
    return cands[0]  # every empty point is 禁手: black has lost whatever it plays


def _block_three(
    pos: Position,
    counts: list[tuple[int, int]],
    colour: int,
    foe: int,
    rules: Rules,
    danger: list[int],
    cands: list[int],
) -> int | None:
    """The playable point that leaves the fewest of ``danger`` as straight-four points."""
    exact = rules.exact(foe)
    lines = set()
    for q in danger:
        for ray in rays(q):
            for k in range(RADIUS - 4, RADIUS + 5):
                if ray[k] >= 0 and pos.cells[ray[k]] == EMPTY:
                    lines.add(ray[k])
    best_key: tuple[int, int, int] | None = None
    best = None
    cells = pos.cells
    for b in sorted(lines & set(cands)):
        cells[b] = colour
        try:
            left = sum(
                1 for q in danger if cells[q] == EMPTY and pos.makes_straight_four(q, foe, exact)
            )
        finally:
            cells[b] = EMPTY
        key = (left, -point_score(counts, b, colour), b)
        if best_key is None or key < best_key:
            if not rules.may_play(pos, b, colour):
                continue
            best_key, best = key, b
    return best


def black_advantage(pos: Position) -> int:
    """Static balance of the position from black's side (potential difference)."""
    counts = window_counts(pos)
    return potential(counts, BLACK) - potential(counts, WHITE)


def wants_swap(pos: Position) -> bool:
    """三手交换: take black when black's stones already share an open line of five."""
    return any(b >= 2 and w == 0 for b, w in window_counts(pos))


def choose_offer(
    pos: Position, rules: Rules, distinct: Callable[[int, int], bool]
) -> tuple[int, int]:
    """五手两打: black's two offered 5th moves: the two best points that are not mirror
    images of each other (``distinct(p, q)`` says whether two points may be offered)."""
    counts = window_counts(pos)
    ranked = sorted(candidates(pos), key=lambda q: (-point_score(counts, q, BLACK), q))
    ranked = [q for q in ranked if rules.may_play(pos, q, BLACK)]
    first = ranked[0]
    for q in ranked[1:]:
        if distinct(first, q):
            return first, q
    for q in pos.empty_points():
        if q != first and distinct(first, q):
            return first, q
    raise AssertionError("no second point to offer")  # pragma: no cover - 220 empty points


def choose_offered(pos: Position, offers: tuple[int, int]) -> int:
    """White's pick of the offered 5th moves: the one leaving black weaker."""
    best = None
    best_key = None
    for q in offers:
        pos.cells[q] = BLACK
        try:
            key = (black_advantage(pos), q)
        finally:
            pos.cells[q] = EMPTY
        if best_key is None or key < best_key:
            best_key, best = key, q
    assert best is not None
    return best
