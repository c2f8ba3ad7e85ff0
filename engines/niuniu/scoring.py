"""结算: banker-against-each-player settlement for the bull games (GAMES.md §3).

Every player is compared with the banker only. The winner's kind sets the multiplier
(``Kind.multiplier``) on the player's unit (底分, 下注 or 欢乐斗牛's 5 points). The hand
settles as pairwise transfers (``engines.base.Transfer``): each 闲 against the 庄, then the
escape penalties. Escape follows 欢乐斗牛 (001): the escaper pays a fixed penalty; an
opponent who beats the escaper is paid normally out of it, an opponent who loses to the
escaper is not charged, and the rest of the penalty goes to the escaper's opponents.
Nobody pays more than the points they carry (``caps``, GAMES.md §1.3 "只扣到0为止").
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from engines.base import T, Text, Transfer
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


def _split(total: int, seats: Sequence[int]) -> list[tuple[int, int]]:
    """``total`` in equal shares over ``seats`` (in that order; odd points to the first)."""
    base, odd = divmod(total, len(seats))
    return [(s, base + (1 if i < odd else 0)) for i, s in enumerate(seats)]


def settle(
    seats: int,
    results: Sequence[Versus],
    escaped: set[int],
    penalty: Callable[[int], int],
    caps: Sequence[int | None],
) -> list[Transfer]:
    """The hand as pairwise payments, in the order settlement applies them.

    1. 闲 → 庄: each player who loses to the banker pays it (an escaped banker collects
       nothing: its opponent "is not charged").
    2. 庄 → 闲: the banker pays each player who beats it (escaped players collect nothing);
       a banker short of points pays them pro rata out of what it carries plus what it won.
    3. 逃跑: an escaper pays ``max(penalty, what it owes)`` in all (its owed payments above
       count towards it); the rest of the penalty goes to its opponents still at the table
       (the banker, or the players in equal shares from the escaper's left), else to every
       seat still at the table. No one pays more than ``caps`` (GAMES.md §1.3).
    """
    if not results:
        return []
    banker = results[0].banker

    def cap(seat: int, amount: int) -> int:
        limit = caps[seat] if seat < len(caps) else None
        return amount if limit is None else max(0, min(amount, limit))

    pays: list[Transfer] = []
    fines: list[Transfer] = []
    present = [s for s in range(seats) if s not in escaped]

    def fine(escaper: int, total: int, opponents: list[int]) -> None:
        to = [s for s in opponents if s not in escaped] or [s for s in present if s != escaper]
        to.sort(key=lambda s: (s - escaper) % seats)
        if total > 0 and to:
            fines.extend(
                Transfer(escaper, s, n, T("niuniu.reason.escape"))
                for s, n in _split(total, to)
                if n
            )

    received = 0
    for v in results:
        p = v.player
        owes = v.amount if v.winner == banker and banker not in escaped else 0
        total = cap(p, max(penalty(p), owes)) if p in escaped else cap(p, owes)
        paid = min(owes, total)
        if paid:
            pays.append(Transfer(p, banker, paid, T("niuniu.reason.versus", kind=_kind(v))))
            received += paid
        if p in escaped:
            fine(p, total - paid, [banker])
    claims = [
        (v.player, v.amount) for v in results if v.winner == v.player and v.player not in escaped
    ]
    claims.sort(key=lambda c: (c[0] - banker) % seats)  # odd points from the banker's left
    kinds = {v.player: _kind(v) for v in results}
    owed = sum(a for _, a in claims)
    if banker in escaped:
        total = cap(banker, max(penalty(banker), owed))
        shares = pro_rata(min(total, owed), claims)
    else:
        limit = caps[banker] if banker < len(caps) else None
        available = owed if limit is None else max(0, limit) + received
        shares = pro_rata(min(available, owed), claims)
    pays.extend(
        Transfer(banker, s, n, T("niuniu.reason.versus", kind=kinds[s]))
        for s, n in shares.items()
        if n
    )
    if banker in escaped:
        fine(banker, total - sum(shares.values()), [v.player for v in results])
    return pays + fines


def _kind(v: Versus) -> Text:
    return T(v.kind.text_key)
