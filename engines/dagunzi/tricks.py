"""打滚子's tricks: legal plays and follows, a play, closing a trick (扣底), and the hand's
score with the next hand's levels.
"""

from __future__ import annotations

from itertools import combinations

from engines.base import Outcome, T, Text
from engines.dagunzi.rules import ACE, beats, follow_problem, level_points, level_result, pattern_of
from engines.dagunzi.state import BURY, DECLARE, DONE, JOKERS, RETURN, SHOW, DagunziState, team
from engines.errors import IllegalActionError
from engines.trick.cards import BIG, SMALL, SUITS, TRUMP, format_ids, ids_of, points


class DagunziTricks(DagunziState):
    """Plays and follows, tricks and 扣底, and the hand's score."""

    def legal_actions(self, seat: int) -> list[str]:
        """Exhaustive, except for the bury and the tribute's return (the trustee's choice
        stands for them: too many forms to list)."""
        if seat not in self.to_act():
            return []
        if self._phase == DECLARE:
            return ["pass"] + [f"declare {self._decl_text(d)}" for d in self._declarations(seat)]
        if self._phase == SHOW:
            return ["pass", "show"]
        if self._phase == JOKERS:
            return ["pass"] + [f"bury {format_ids(o)}" for o in self._joker_options(seat)]
        if self._phase in (BURY, RETURN):
            return [self.trustee(seat)]
        cards = ids_of(self.hands[seat])
        if not self.trick:
            return sorted({format_ids([c] * k, self.ctx) for c in set(cards)
                           for k in range(1, self.hands[seat][c] + 1)})
        return sorted({format_ids(p, self.ctx) for p in self._follows(seat)})

    def forced_action(self, seat: int) -> str | None:
        """Never ``pass`` alone: the 亮主, 亮 and joker windows ask only the seats that have
        something to declare, show or bury (``to_act``), 亮 offers show or pass, and a bury,
        a return or a play is never a pass — so nothing needs computing
        (tests/engines/test_forced_action.py holds this to the listing)."""
        return None

    def _follows(self, seat: int) -> list[list[int]]:
        """Every legal answer to the trick's lead (cards of the led suit first: only the rest
        is combined)."""
        lead = self.trick[0][1]
        n = len(lead)
        cards = ids_of(self.hands[seat])
        suit = self.ctx.eff[lead[0]]
        held = sorted(c for c in cards if self.ctx.eff[c] == suit)
        if len(held) >= n:
            plays = {tuple(c) for c in combinations(held, n)}
        else:
            others = sorted(c for c in cards if self.ctx.eff[c] != suit)
            plays = {tuple(held) + c for c in combinations(others, n - len(held))}
        return [list(p) for p in sorted(plays)
                if follow_problem(self.hands[seat], lead, p, self.ctx, self.dead) is None]

    def _apply_play(self, seat: int, text: str) -> str:
        ids = self._parse(text)
        self._check_held(seat, ids, text)
        if not self.trick:
            if pattern_of(ids) is None:
                raise IllegalActionError("lead a single, a 棒子 or a 滚子", seat=seat,
                                         action=text, text=T("err.dagunzi.lead_pattern"))
        else:
            lead = self.trick[0][1]
            problem = follow_problem(self.hands[seat], lead, ids, self.ctx, self.dead)
            if problem is not None:
                suit = self.ctx.eff[lead[0]]
                name = T("shengji.suit.trump") if suit == TRUMP else T(
                    f"shengji.suit.{SUITS[suit]}")
                if problem == "count":
                    raise IllegalActionError("play as many cards as the lead", seat=seat,
                                             action=text, text=T("err.dagunzi.follow_count",
                                                                 n=len(lead)))
                if problem == "suit":
                    raise IllegalActionError("follow suit", seat=seat, action=text,
                                             text=T("err.dagunzi.follow_suit", suit=name))
                key = "err.dagunzi.follow_bang" if problem == "bang" else "err.dagunzi.follow_gun"
                raise IllegalActionError(f"死棒: you owe a {problem}", seat=seat, action=text,
                                         text=T(key, suit=name))
        for cid in ids:
            self.hands[seat][cid] -= 1
        self.trick.append((seat, list(ids)))
        self.rounds.play(seat, format_ids(ids, self.ctx))
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
        else:
            self._close_trick()
        return format_ids(ids, self.ctx)

    def _close_trick(self) -> None:
        assert self.dealer is not None
        lead = self.trick[0][1]
        best_seat, best = self.trick[0]
        for s, play in self.trick[1:]:
            if beats(play, best, lead, self.ctx):
                best_seat, best = s, play
        if self._take_trick(best_seat):
            if team(best_seat) != team(self.dealer):
                self.koudi = True
                self.xian_points += 2 * sum(points(c) for c in self.kitty)  # 抠底 doubles
            self._finish()

    # --- the end ---------------------------------------------------------------------------
    def _finish(self) -> None:
        assert self.dealer is not None
        self._phase = DONE
        s = self.xian_points
        zteam, xteam = team(self.dealer), 1 - team(self.dealer)
        big, small = self.kitty.count(BIG), self.kitty.count(SMALL)
        joker_levels = 0 if self.dry else 2 * big + small
        side, n = level_result(s, self.koudi, joker_levels)
        lines: list[Text] = [T(f"dagunzi.line.result_{side}", points=s, n=n)]
        special = 0
        if s <= 0:
            special = -50
        elif self._took_every_point() or (big == 3 and not self.dry and s >= 120 and self.koudi):
            special = 50
        per = [0] * 4
        if special:
            lines.append(T("dagunzi.line.special", points=abs(special),
                           side=T("dagunzi.side.xian" if special > 0 else "dagunzi.side.zhuang")))
            for seat in range(4):
                per[seat] = special if team(seat) == xteam else -special
        else:
            gain = level_points(side, n)
            up = zteam if side == "zhuang" else xteam
            for seat in range(4):
                per[seat] = gain if team(seat) == up else -gain
        if self.tribute is not None:
            payer, receiver, cards = self.tribute
            per[payer] -= len(cards)
            per[receiver] += len(cards)
            lines.append(T("dagunzi.line.tribute", payer=payer + 1, receiver=receiver + 1,
                           n=len(cards)))
        lines.append(T("dagunzi.line.kitty", cards=format_ids(self.kitty, self.ctx)))
        if self.dry:
            lines.append(T("dagunzi.line.dry"))
        levels = list(self.levels)
        if side in ("zhuang", "xian"):
            levels[zteam if side == "zhuang" else xteam] += n
        nxt = (self.dealer + 2) % 4 if s < 120 else (self.dealer + 1) % 4
        over = special != 0 or max(levels) > ACE
        if over:
            lines.append(T("dagunzi.line.match_over"))
            self._carry = {"levels": [2, 2], "dealer": None}
        else:
            self._carry = {"levels": levels, "dealer": nxt, "score": s,
                           "jokers": joker_levels}
        pts = tuple(per)
        self._outcome = Outcome(points=pts, scores=pts, lines=tuple(lines),
                                winners=tuple(i for i in range(4) if pts[i] > 0))

    def _took_every_point(self) -> bool:
        """抓分方得"300"分: every point of the three decks, the kitty counted once (decision: a
        doubled kitty raises the score, not the points taken)."""
        kitty = sum(points(c) for c in self.kitty) if self.koudi else 0
        return self.xian_points - kitty >= 300
