"""五人斗地主 settlement: 倍数 (bombs, spring), the pairs between landlords and farmers, the
outcome and the escape penalty.
"""

from __future__ import annotations

from engines.base import Outcome, T, Text, Transfer
from engines.doudizhu.five_patterns import SEATS
from engines.doudizhu.five_state import FiveState
from engines.errors import IllegalActionError


class FiveSettlement(FiveState):
    """倍数, the landlord–farmer pairs, the outcome and the escape penalty."""

    def _on_escape(self, seat: int) -> None:
        self.escape_penalties[seat] = self.base * self.multiplier() * 3

    def escape_cost(self, seat: int) -> int | None:
        """底分 × 倍数 × 3 at the moment of escape (``_on_escape``); 0 once escaped."""
        if seat in self.escaped or self.is_over():
            return 0
        return self.base * self.multiplier() * 3

    # --- scoring ----------------------------------------------------------------------------
    def spring(self) -> bool:
        """失败方所有玩家一张牌也没出 (001): ×2."""
        if self.winner is None:
            return False
        won = self.winner in self.landlords
        return all(self.played[s] == 0 for s in range(SEATS) if (s in self.landlords) != won)

    def multiplier(self) -> int:
        """倍数: ×2 if anyone 亮出身份, ×2 per bomb from the 5-bomb up, ×2 for a spring."""
        m = 2 if any(self.revealed.values()) else 1
        for f in self.bomb_factors:
            m *= f
        return m * (2 if self.spring() else 1)

    def pairs(self) -> list[tuple[int, int, int]]:
        """(landlord, farmer, points) of every pair: 底分×倍数×加倍 / 地主数量, so a farmer's
        X is 底分×倍数 and a landlord's 农民数量×底分×倍数/地主数量 (001). With two landlords
        a farmer's two halves make one point: it goes to the 明地主 and the 暗地主 in turn
        (the 明地主's X rounded half up, the 暗地主's the rest); a lone half rounds up."""
        stake = self.base * self.multiplier()
        lands = self.landlords
        d = [2 if x else 1 for x in self.doubled]
        out: list[tuple[int, int, int]] = []
        k = 0
        for f in range(SEATS):
            if f in lands:
                continue
            amounts = {l: stake * d[l] * d[f] for l in lands}
            if len(lands) == 2:
                odd = [l for l in lands if amounts[l] % 2]
                halves = {l: amounts[l] // 2 for l in lands}
                if len(odd) == 2:
                    halves[odd[k % 2]] += 1
                    k += 1
                elif odd:
                    halves[odd[0]] += 1
                amounts = halves
            out.extend((l, f, amounts[l]) for l in lands)
        return out

    def outcome(self) -> Outcome:
        if self.winner is None:
            raise IllegalActionError("the hand is not over yet", text=T("err.base.not_over"))
        lands = self.landlords
        won = self.winner in lands
        transfers: list[Transfer] = []
        for seat, pen in sorted(self.escape_penalties.items()):
            mine = seat in lands
            opponents = [s for s in range(SEATS) if (s in lands) != mine]
            share, extra = divmod(pen, len(opponents))
            for i, o in enumerate(opponents):
                amount = share + (1 if i < extra else 0)
                if amount:
                    transfers.append(
                        Transfer(seat, o, amount, T("ddz.transfer.escape", seat=seat + 1))
                    )
        for l, f, amount in self.pairs():
            if amount and l not in self.escape_penalties and f not in self.escape_penalties:
                payer, payee = (f, l) if won else (l, f)
                transfers.append(Transfer(payer, payee, amount, T("ddz.transfer.hand")))
        points = [0] * SEATS
        for t in transfers:
            points[t.payer] -= t.points
            points[t.payee] += t.points
        lines: list[Text] = [
            T("ddz.out.five_landlords", seats=" ".join(str(s + 1) for s in lands)),
            T("ddz.out.five_landlords_win" if won else "ddz.out.farmers_win"),
            T("ddz.out.base", base=self.base),
        ]
        if any(self.revealed.values()):
            lines.append(T("ddz.out.five_reveal"))
        if self.bomb_factors:
            m = 1
            for f in self.bomb_factors:
                m *= f
            lines.append(T("ddz.out.bombs", n=len(self.bomb_factors), x=m))
        if self.spring():
            lines.append(T("ddz.out.spring", x=2))
        lines.append(T("ddz.out.multiplier", x=self.multiplier()))
        lines += [T("ddz.out.doubled", seat=s + 1) for s in range(SEATS) if self.doubled[s]]
        lines += [
            T("ddz.out.escape", seat=s + 1, penalty=p)
            for s, p in sorted(self.escape_penalties.items())
        ]
        winners = tuple(s for s in range(SEATS) if (s in lands) == won)
        return Outcome(
            points=tuple(points),
            scores=tuple(points),
            lines=tuple(lines),
            winners=winners,
            transfers=tuple(transfers),
        )
