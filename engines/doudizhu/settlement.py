"""斗地主 settlement: 底分, 倍数 (grabs, 明牌, bombs, spring), the settlement and the escape
penalty, and what the next hand carries (the first bidder).
"""

from __future__ import annotations

from typing import Any

from engines.base import Outcome, T, Text, Transfer
from engines.doudizhu.patterns import Play
from engines.doudizhu.scoring import escape_penalty, settle, settle_escapes
from engines.doudizhu.state import DoudizhuState
from engines.errors import IllegalActionError


class DoudizhuSettlement(DoudizhuState):
    """底分, 倍数, the outcome with its transfers, and the escape penalty."""

    # --- scoring -------------------------------------------------------------------------
    def base_score(self) -> int:
        """底分: classic = room base × the bid (002); happy = the room's 底分 (004)."""
        return self.rules.base * self.auction.base_factor()

    def pair_doubles(self) -> list[int]:
        """Per seat, the factor it brings to its landlord–farmer pairs (×2 if it doubled)."""
        return [2 if d else 1 for d in self.doubled]

    def bomb_factor(self, play: Play) -> int:
        """倍数 factor of one bomb or rocket played: ×2 (000 §8)."""
        return 2

    def bomb_multiplier(self) -> int:
        """The product of the factors of the bombs played so far."""
        m = 1
        for f in self.bomb_factors:
            m *= f
        return m

    def spring(self) -> str | None:
        """ "spring" (春天), "anti" (反春) or None, once the hand is over (000 §8)."""
        if self.winner is None or self.landlord is None:
            return None
        if self.winner == self.landlord:
            farmers = [s for s in range(self.n) if s != self.landlord]
            if all(self.played_hands[f] == 0 for f in farmers):
                return "spring"
        elif self.played_hands[self.landlord] == 1:
            return "anti"
        return None

    def multiplier(self) -> int:
        """倍数: initial × 2 per grab × the largest 明牌 × 2 per bomb/rocket × spring."""
        m: int = (self.rules.multiplier << self.grabs) * self.bomb_multiplier()
        m *= max(self.shown) or 1
        if self.spring():
            m *= self.rules.spring
        return m

    def outcome(self) -> Outcome:
        if not self.over:
            raise IllegalActionError("the hand is not over yet", text=T("err.base.not_over"))
        base = self.base_score()
        mult = self.multiplier()
        escapes = dict(self.escape_penalties)
        doubles = self.pair_doubles()
        landlord_won = self.winner is not None and self.winner == self.landlord
        landlord = None if self.void else self.landlord
        transfers: tuple[Transfer, ...] = ()
        if escapes or (self.rules.pairwise and landlord is not None):
            transfers = tuple(
                Transfer(payer, payee, amount, T(reason, seat=payer + 1))
                for payer, payee, amount, reason in settle_escapes(
                    self.n, landlord, landlord_won, base * mult, doubles, escapes
                )
            )
            points = [0] * self.n
            for t in transfers:
                points[t.payer] -= t.points
                points[t.payee] += t.points
        else:
            points = settle(self.n, landlord, landlord_won, base * mult, doubles)
        lines: list[Text] = []
        winners: tuple[int, ...] = ()
        if self.void:
            lines.append(T("ddz.out.void", deals=self.deal_no))
        else:
            assert self.landlord is not None
            if landlord_won:
                lines.append(T("ddz.out.landlord_wins", seat=self.landlord + 1))
                winners = (self.landlord,)
            else:
                lines.append(T("ddz.out.farmers_win"))
                winners = tuple(s for s in range(self.n) if s != self.landlord)
            lines.append(T("ddz.out.base", base=base))
            if self.grabs:
                lines.append(T("ddz.out.grabs", n=self.grabs, x=2**self.grabs))
            if max(self.shown):
                lines.append(T("ddz.out.show", x=max(self.shown)))
            if self.bombs:
                lines.append(T("ddz.out.bombs", n=self.bombs, x=self.bomb_multiplier()))
            sp = self.spring()
            if sp:
                lines.append(T(f"ddz.out.{sp}", x=self.rules.spring))
            lines.append(T("ddz.out.multiplier", x=mult))
            for s in range(self.n):
                if self.doubled[s]:
                    lines.append(T("ddz.out.doubled", seat=s + 1))
        for s in sorted(self.escaped):
            if s in escapes:
                lines.append(T("ddz.out.escape", seat=s + 1, penalty=escapes[s]))
            else:  # 002: 托管 to the end, no penalty; the seat settled as the hand ended
                lines.append(T("ddz.out.escape_trustee", seat=s + 1))
        return Outcome(
            points=tuple(points),
            scores=tuple(points),
            lines=tuple(lines),
            winners=winners,
            transfers=transfers,
        )

    def next_carry(self) -> dict[str, Any]:
        """The first bidder rotates in turn order from hand to hand (000 §3)."""
        return {"first": (self.rotation_first + 1) % self.n}

    def _on_escape(self, seat: int) -> None:
        # "还没人叫牌时逃跑" (000 §8): nobody has bid/called in the current deal yet.
        before = self.auction.before_bid()
        self.escape_before_bid[seat] = before
        if self.rules.escape_penalty:
            self.escape_penalties[seat] = self.escape_penalty(seat, before)

    def escape_cost(self, seat: int) -> int | None:
        """The escape penalty if ``seat`` escaped now (``escape_penalty``), 0 once escaped."""
        if seat in self.escaped or self.is_over():
            return 0
        return self.escape_penalty(seat, self.auction.before_bid())

    def escape_penalty(self, seat: int, before: bool) -> int:
        """逃跑扣分 (000/001): 底分 × 倍数 × 3 at the moment of escape (not as the trustee later
        ends it), or the flat 3 points before anyone bid."""
        return escape_penalty(
            self.base_score(),
            self.multiplier(),
            self.rules.escape_factor,
            self.rules.escape_early,
            before,
        )
