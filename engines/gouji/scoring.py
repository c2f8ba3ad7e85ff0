"""够级 scoring: the 科 ranks, team points with 串三户, and what the series carries (进贡).
"""

from __future__ import annotations

from typing import Any

from engines.base import Outcome, T, Text
from engines.errors import IllegalActionError
from engines.gouji.state import (
    DONE,
    RANK_POINTS,
    SEATS,
    SERIES,
    TRIBUTE_ORDER,
    GoujiState,
    alliance,
    dian_pay,
    opposite,
)


class GoujiScoring(GoujiState):
    """The result: 科 ranks, team points (串三户 doubles) and the next game's 进贡."""

    # --- the result -----------------------------------------------------------------------------
    def slots(self) -> list[int]:
        """The rank of each seat: 0 头科 … 5 大落 (decided once the hand is over)."""
        slot: dict[int, int] = {}
        free = list(range(SEATS))
        r = self.revolutionary
        if r is not None:
            mine = self.finished[:2]
            s = 2 if len(mine) == 2 and all(alliance(x) == alliance(r) for x in mine) else 3
            slot[r] = s
            free.remove(s)
        for seat in self.failed:  # 烧失败 counts as 大落: from the bottom
            slot[seat] = free.pop()
        for seat in self.finished + [s for s in range(SEATS) if s not in slot
                                     and s not in self.finished]:
            if seat not in slot:
                slot[seat] = free.pop(0)
        return [slot[s] for s in range(SEATS)]

    def _finish(self) -> None:
        self._phase = DONE
        self.top = None
        slots = self.slots()
        team = [sum(RANK_POINTS[slots[s]] for s in range(SEATS) if alliance(s) == a)
                for a in (0, 1)]
        chuan = any(sorted(slots[s] for s in range(SEATS) if alliance(s) == a) == [0, 1, 2]
                    for a in (0, 1))
        mult = 2 if chuan else 1
        pts = tuple(team[alliance(s)] * mult * self.base for s in range(SEATS))
        seat_at = {slots[s]: s + 1 for s in range(SEATS)}
        lines: list[Text] = [T("gouji.line.ranks", **{f"r{i}": seat_at[i] for i in range(SEATS)})]
        lines.append(T("gouji.line.team", a=team[0] * mult, b=team[1] * mult))
        if chuan:
            lines.append(T("gouji.line.chuan"))
        win = max((0, 1), key=lambda a: team[a])
        winners = tuple(s for s in range(SEATS) if alliance(s) == win) if team[win] > 0 else ()
        self.final_slots = slots
        self._outcome = Outcome(points=pts, scores=pts, lines=tuple(lines), winners=winners)
        self._carry = self._next_carry(slots, chuan)

    def tributes(self, slots: list[int], chuan: bool) -> list[tuple[int, int, int, str]]:
        """进贡 owed to the next game of the series, in the variant's order."""
        if chuan:
            return []  # 串三户: "同时不再进贡"
        by_kind: dict[str, list[tuple[int, int, int, str]]] = {k: [] for k in TRIBUTE_ORDER["new"]}
        for payer, payee in self.men:
            by_kind["men"].append((payer, payee, 1, "men"))
        for payer, payee in self.shao:
            by_kind["shao"].append((payer, payee, 1, "shao"))
        for a in range(3):
            b = opposite(a)
            da = self.declared.get(a, False) and a != self.revolutionary
            db = self.declared.get(b, False) and b != self.revolutionary
            pa, pb = dian_pay(da, db, a in self.kaidian, b in self.kaidian)
            if pa:
                by_kind["dian"].append((a, b, pa, "dian"))
            if pb:
                by_kind["dian"].append((b, a, pb, "dian"))
        seat_at = {slots[s]: s for s in range(SEATS)}
        by_kind["luo"].append((seat_at[5], seat_at[0], 2, "luo"))
        by_kind["luo"].append((seat_at[4], seat_at[1], 1, "luo"))
        order = TRIBUTE_ORDER[self.opts["tribute_order"]]
        return [t for kind in order for t in by_kind[kind]]

    def _next_carry(self, slots: list[int], chuan: bool) -> dict[str, Any]:
        if not self.opts["tribute"]:
            return {}
        nxt = self.game_no % SERIES + 1
        tributes = self.tributes(slots, chuan) if nxt != 1 else []
        first = slots.index(5) if self.beisan else None  # 憋3: 本局大落下一局第一个发牌
        return {"game": nxt, "tributes": [list(t) for t in tributes], "first": first}

    def _next_carry_void(self) -> dict[str, Any]:
        if not self.opts["tribute"]:
            return {}
        return {"game": self.game_no % SERIES + 1, "tributes": [], "first": None}

    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise IllegalActionError("the game is not over", text=T("err.base.not_over"))
        return self._outcome

    def next_carry(self) -> dict[str, Any]:
        return dict(self._carry)
