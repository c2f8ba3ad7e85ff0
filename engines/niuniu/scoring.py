"""结算: banker-against-each-player settlement for the bull games (GAMES.md §3).

Every player is compared with the banker only. The winner's kind sets the multiplier
(``Kind.multiplier``) on the player's unit (底分, 下注 or 欢乐斗牛's 5 points). Escape
follows 欢乐斗牛 (001): the escaper pays a fixed penalty; an opponent who beats the
escaper is paid normally out of it, an opponent who loses to the escaper is not charged.
Nobody pays more than the points they carry (``caps``, GAMES.md §1.3 "只扣到0为止").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engines.niuniu.hands import Hand, Kind


@dataclass(frozen=True)
class Versus:
    """One banker-player comparison: who won, with which kind, and the nominal points."""

    player: int
    banker: int
    winner: int
    kind: Kind
    amount: int

    @property
    def loser(self) -> int:
        return self.banker if self.winner == self.player else self.player


def compare(banker: int, hands: Sequence[Hand], units: Mapping[int, int]) -> list[Versus]:
    """比牌: each player (seat order) against the banker; X = unit × winner's multiplier."""
    out = []
    for player in sorted(units):
        winner = player if hands[player].beats(hands[banker]) else banker
        kind = hands[winner].kind
        out.append(Versus(player, banker, winner, kind, units[player] * kind.multiplier))
    return out


def pro_rata(total: int, claims: Sequence[tuple[int, int]]) -> dict[int, int]:
    """Share ``total`` over ``claims`` (seat, amount) in proportion, never above a claim.

    Odd units go one each to the claims in order. ``total`` ≥ the sum pays every claim.
    """
    want = sum(a for _, a in claims)
    if total >= want:
        return {s: a for s, a in claims}
    shares = {s: total * a // want for s, a in claims}
    left = total - sum(shares.values())
    for s, a in claims:
        if left <= 0:
            break
        if shares[s] < a:
            shares[s] += 1
            left -= 1
    return shares


def settle(
    seats: int,
    results: Sequence[Versus],
    escaped: set[int],
    penalty: Callable[[int], int],
    caps: Sequence[int | None],
) -> list[int]:
    """Points per seat (signed). Zero-sum without escapes; with them, what an escaper pays
    beyond what its opponents are owed is forfeited (sum ≤ 0)."""
    points = [0] * seats
    if not results:
        return points
    banker = results[0].banker

    def cap(seat: int, amount: int) -> int:
        limit = caps[seat] if seat < len(caps) else None
        return amount if limit is None else max(0, min(amount, limit))

    # Players first: what each pays the banker (or forfeits on escape).
    received = 0
    for v in results:
        p = v.player
        owes = v.amount if v.winner == banker else 0
        if p in escaped:
            pay = cap(p, max(penalty(p), owes if banker not in escaped else 0))
            points[p] -= pay
            if owes and banker not in escaped:
                got = min(owes, pay)
                points[banker] += got
                received += got
        elif owes and banker not in escaped:
            pay = cap(p, owes)
            points[p] -= pay
            points[banker] += pay
            received += pay
    # Then the banker: pays the players who beat it (escaped players collect nothing).
    claims = [
        (v.player, v.amount) for v in results if v.winner == v.player and v.player not in escaped
    ]
    owed = sum(a for _, a in claims)
    if banker in escaped:
        pay = cap(banker, max(penalty(banker), owed))
        points[banker] -= pay
        shares = pro_rata(min(pay, owed), claims)
    else:
        limit = caps[banker] if banker < len(caps) else None
        available = owed if limit is None else max(0, limit) + received
        shares = pro_rata(min(available, owed), claims)
        points[banker] -= sum(shares.values())
    for seat, got in shares.items():
        points[seat] += got
    return points
