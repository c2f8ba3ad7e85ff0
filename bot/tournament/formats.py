"""赛制: how each format seats a round, who goes on, and the final standings (pure, no I/O).

The rules, as docs/tournaments.md states them:

- Everyone starts with ``START_CHIPS`` match chips (比赛积分, not beans); a hand adds each seat's
  points (the game's outcome) to its player's chips. Swiss scores match points instead: a
  win 2, a draw 1, a loss 0, a bye 2.
- **Standings** (排名): by chips, most first; equal chips share a place (and its prizes). A
  player eliminated earlier always ranks below one still playing.
- **Sit-and-go** (满人即开) and **scheduled** (定时赛): every round seats the whole field by
  standings (the leaders together at table 1, and so on); a sit-and-go's last round is its
  final table: the top ``seats`` players only (the others keep their standing).
  A scheduled event's last table, if short, is filled with bots (they earn no chips).
- **打立出局** (elimination): after each round the lowest are eliminated, down to two thirds
  of the field rounded down to whole tables (never fewer than one table); once one table is
  left it is the final table and plays the rest of the rounds.
- **Swiss** (瑞士制, two seats): players are paired by score, each with the best-placed player
  they have not met; with an odd field the lowest-placed player without a bye sits out with
  a bye. No two players meet twice (rounds are at most the field less one).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

START_CHIPS = 1000
"""Match chips each player starts an event with (not beans)."""

WIN, DRAW, BYE = 2, 1, 2
"""Swiss match points."""


def ranked(field: Sequence[int], chips: Mapping[int, int]) -> list[int]:
    """The field by standings: chips (most first), then registration order."""
    order = {uid: n for n, uid in enumerate(field)}
    return sorted(field, key=lambda u: (-chips.get(u, 0), order[u]))


def standings(field: Sequence[int], chips: Mapping[int, int],
              out: Sequence[Sequence[int]] = ()) -> list[list[int]]:
    """Final placings as groups of tied players, best first: those still playing by chips
    (equal chips tie), then each elimination round's players, the latest first.

    >>> standings([1, 2, 3, 4], {1: 5, 2: 7, 3: 5, 4: 9}, out=[[4]])
    [[2], [1, 3], [4]]
    """
    gone = {u for group in out for u in group}
    groups = _ties([u for u in ranked(field, chips) if u not in gone], chips)
    for group in reversed(out):
        groups += _ties(ranked(list(group), chips), chips)
    return groups


def _ties(order: Sequence[int], chips: Mapping[int, int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for uid in order:
        if groups and chips.get(groups[-1][0], 0) == chips.get(uid, 0):
            groups[-1].append(uid)
        else:
            groups.append([uid])
    return groups


def tables(order: Sequence[int], seats: int, *, fill: bool) -> list[list[int | None]]:
    """Split ``order`` into tables of ``seats`` in order; a short last table is filled with
    bots (None) when ``fill``; ValueError for a short table without ``fill``.

    >>> tables([1, 2, 3, 4, 5], 3, fill=True)
    [[1, 2, 3], [4, 5, None]]
    """
    groups: list[list[int | None]] = [list(order[i:i + seats]) for i in range(0, len(order), seats)]
    if groups and len(groups[-1]) < seats:
        if not fill:
            raise ValueError(f"{len(order)} players do not make tables of {seats}")
        groups[-1] += [None] * (seats - len(groups[-1]))
    return groups


def survivors(alive: int, seats: int) -> int:
    """打立出局: how many go on after a round of ``alive`` players at tables of ``seats``.

    >>> survivors(27, 3), survivors(9, 3), survivors(3, 3)
    (18, 6, 3)
    """
    return max(seats, (alive * 2 // 3) // seats * seats)


def swiss_pairs(order: Sequence[int], met: Iterable[tuple[int, int]],
                byes: Iterable[int] = ()) -> tuple[list[tuple[int, int]], int | None]:
    """瑞士制: pair ``order`` (by standings) so that nobody meets a past opponent; returns the
    pairs and the player with the bye (None for an even field). ValueError if no such pairing
    exists (more rounds than the field allows).

    >>> swiss_pairs([1, 2, 3, 4], {(1, 2)})
    ([(1, 3), (2, 4)], None)
    """
    seen = {frozenset(p) for p in met}
    players = list(order)
    bye: int | None = None
    if len(players) % 2:
        had = set(byes)
        candidates = [u for u in reversed(players) if u not in had] or list(reversed(players))
        for candidate in candidates:
            rest = [u for u in players if u != candidate]
            found = _pair(rest, seen)
            if found is not None:
                return found, candidate
        raise ValueError("no pairing without a repeat is left")
    found = _pair(players, seen)
    if found is None:
        raise ValueError("no pairing without a repeat is left")
    return found, bye


def _pair(players: list[int], seen: set[frozenset[int]]) -> list[tuple[int, int]] | None:
    """The first pairing, in standings order, with no repeat (backtracking), or None."""
    if not players:
        return []
    first, rest = players[0], players[1:]
    for n, other in enumerate(rest):
        if frozenset((first, other)) in seen:
            continue
        tail = _pair(rest[:n] + rest[n + 1:], seen)
        if tail is not None:
            return [(first, other), *tail]
    return None
