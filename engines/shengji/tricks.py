"""升级's tricks: legal plays, follows and throws (甩牌), a trick's winner, and the hand's
score with the levels it moves.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engines.base import Outcome, T, Text
from engines.errors import IllegalActionError
from engines.shengji.patterns import (
    Lead,
    beats,
    decompose,
    failed_throw,
    follow_problem,
    kitty_multiplier,
    legal_follows,
    shortfall,
    suit_cards,
)
from engines.shengji.rules import ACE, level_change, match_points, rating_multiplier
from engines.shengji.state import BURY, COUNTER, DECLARE, DONE, HAPPY_CAP, ShengjiState, team
from engines.trick.cards import format_ids, ids_of, points


class ShengjiTricks(ShengjiState):
    """Plays, follows and throws, tricks, and the hand's score."""

    # --- actions ------------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[str]:
        """Every legal action in the declaration windows. A bury or a throw has too many forms
        to list: in the bury phase the trustee's choice; leading, every single and the
        components of each suit as read by ``decompose``; following, every legal follow among
        the first 5,000 candidate sets. The trustee's choice is always included."""
        if seat not in self.to_act():
            return []
        if self._phase in (DECLARE, COUNTER):
            verb = "declare" if self._phase == DECLARE else "counter"
            return ["pass"] + [f"{verb} {self._decl_text(d)}" for d in self._declarations(seat)]
        if self._phase == BURY:
            return [self.trustee(seat)]
        cards = ids_of(self.hands[seat])
        out: set[str] = {self.trustee(seat)}
        if not self.trick:
            for suit in {self.ctx.eff[c] for c in cards}:
                held = [c for c in cards if self.ctx.eff[c] == suit]
                for comp in decompose(held, self.ctx):
                    out.add(format_ids(comp.ids, self.ctx))
                out.update(format_ids([c], self.ctx) for c in held)
        else:
            assert self.lead is not None
            out.update(format_ids(combo, self.ctx)
                       for combo in legal_follows(self.hands[seat], self.lead, self.ctx))
        return sorted(out)

    def forced_action(self, seat: int) -> str | None:
        """Never ``pass`` alone: the declaration windows ask only the seats that have
        something to declare (``to_act``), and a bury or a play is never a pass — so nothing
        needs computing (tests/engines/test_forced_action.py holds this to the listing)."""
        return None

    def _apply_play(self, seat: int, text: str) -> str:
        ids = self._parse(text)
        self._check_held(seat, ids, text)
        ctx = self.ctx
        if not self.trick:
            suits = {ctx.eff[c] for c in ids}
            if len(suits) != 1:
                raise IllegalActionError("a lead must be of one suit (or all trumps)", seat=seat,
                                         action=text, text=T("err.shengji.lead_one_suit"))
            others = [self.hands[s] for s in range(4) if s != seat]
            forced = failed_throw(ids, others, ctx)
            canonical = format_ids(ids, ctx)
            self.failed = None
            note = None
            if forced is not None:
                self.failed = (seat, canonical, forced.text(ctx))
                note = T("shengji.note.failed", tried=canonical, played=self.failed[2])
                ids = list(forced.ids)
            self.lead = Lead.of(ids, ctx)
            self._put(seat, ids, note)
            return canonical
        assert self.lead is not None
        problem = follow_problem(self.hands[seat], self.lead, ids, ctx)
        if problem is not None:
            raise self._follow_error(seat, text, ids, problem)
        self._put(seat, ids)
        return format_ids(ids, ctx)

    def _follow_error(self, seat: int, text: str, ids: Sequence[int],
                      problem: tuple[str, Any, Any]) -> IllegalActionError:
        assert self.lead is not None
        what, best, got = problem
        suit = self._suit_text(self.lead.suit)
        if what == "count":
            return IllegalActionError(
                f"play {self.lead.n} cards, as many as the lead", seat=seat, action=text,
                text=T("err.shengji.follow_count", n=self.lead.n, got=len(ids)))
        if what == "suit":
            held = len(suit_cards(self.hands[seat], self.ctx, self.lead.suit))
            return IllegalActionError(
                f"you still hold {held} card(s) of the led suit; follow suit first", seat=seat,
                action=text, text=T("err.shengji.follow_suit", suit=suit, held=held))
        kind = shortfall(got, best)
        return IllegalActionError(
            f"you still hold a {kind} of the led suit; a {self.lead.kind} was led", seat=seat,
            action=text, text=T("err.shengji.follow_structure", suit=suit,
                                kind=T(f"shengji.kind.{kind}"),
                                led=T(f"shengji.kind.{self.lead.kind}")))

    def _put(self, seat: int, ids: Sequence[int], note: Text | None = None) -> None:
        for cid in ids:
            self.hands[seat][cid] -= 1
        self.trick.append((seat, list(ids)))
        self.rounds.play(seat, format_ids(ids, self.ctx), note)
        if len(self.trick) < 4:
            self.turn = (seat + 1) % 4
            return
        assert self.lead is not None
        best_seat, best = self.trick[0]
        for s, play in self.trick[1:]:
            if beats(play, best, self.lead, self.ctx):
                best_seat, best = s, play
        self.leader = best_seat
        if self._take_trick(best_seat):
            assert self.dealer is not None
            if team(best_seat) != team(self.dealer):
                mult = kitty_multiplier(self.lead)
                bonus = sum(points(c) for c in self.buried) * mult
                self.kitty_bonus = (mult, bonus)
                self.xian_points += bonus
            self._finish()

    # --- the end of the hand ------------------------------------------------------------------
    def _finish(self) -> None:
        assert self.dealer is not None
        self._phase = DONE
        side, n = level_change(self.xian_points, self.decks)
        zteam = team(self.dealer)
        up = zteam if side == "zhuang" else 1 - zteam
        base = match_points(side, n, self.sweep)
        x = base * rating_multiplier(self.setup.ratings)
        mult = 1
        if self.HAPPY:
            mult = min(HAPPY_CAP, 2 ** (self.fanzhu + self.fandi))
            x *= mult
        pts = tuple(x if team(s) == up else -x for s in range(4))
        lines: list[Text] = [T("shengji.line.result_" + side, points=self.xian_points, n=n,
                               team=up + 1)]
        if self.kitty_bonus:
            lines.append(T("shengji.line.kitty_bonus", mult=self.kitty_bonus[0],
                           bonus=self.kitty_bonus[1]))
        lines.append(T("shengji.line.kitty", cards=format_ids(self.buried, self.ctx)))
        if self.HAPPY and mult > 1:
            lines.append(T("shengji.line.happy", fanzhu=self.fanzhu, fandi=self.fandi, mult=mult))
        levels = list(self.levels)
        levels[up] += n
        winner = None
        if levels[up] > ACE:
            winner = up
            lines.append(T("shengji.line.match", team=up + 1))
        nxt = (self.dealer + 2) % 4 if side == "zhuang" else (self.dealer + 1) % 4
        self._carry = ({"levels": [2, 2], "dealer": None} if winner is not None
                       else {"levels": levels, "dealer": nxt})
        self.new_levels = levels
        self._outcome = Outcome(points=pts, scores=pts, lines=tuple(lines),
                                winners=tuple(s for s in range(4) if team(s) == up))
