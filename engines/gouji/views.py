"""够级 views: what each seat and the table see (counts with 报牌, statuses, lines, pictures'
suits), the phase text, the buttons and the card picker.
"""

from __future__ import annotations

from typing import Any

from engines.base import Choice, Picker, SeatView, Shown, T, Text, View, Window
from engines.climbing.notation import PASS, format_cards, picker_tokens
from engines.gouji.scoring import GoujiScoring
from engines.gouji.state import DECLARE, DONE, HEAD, PLAY, SEATS, alliance, opposite


class GoujiViews(GoujiScoring):
    """Seat and table views, the phase text, buttons and the card picker."""

    # --- views ----------------------------------------------------------------------------------
    def _count(self, seat: int, viewer: int | None) -> int | None:
        n = sum(self.hands[seat])
        if viewer == seat or self._phase == DONE:
            return n
        if self.beisan:
            return None  # 憋3: 不报牌
        if self.opts["baopai"]:
            return n if n <= 10 else None  # 报牌: ten cards or fewer
        return n

    def private_face(self, seat: int) -> Any:
        """What a waiting DM shows, cheaply: its cards (counts, as bytes), and their suits where
        dealt with suits."""
        hand = self.hands[seat]
        suited = self.suits.hand(seat) if self.suits is not None and any(hand) else None
        return (bytes(hand), suited)

    def view(self, seat: int | None) -> View:
        over = self._phase == DONE
        slots = self.slots() if over and not self.void else None
        seats = []
        for s in range(SEATS):
            role: Text = T("gouji.role.alliance", a=alliance(s) + 1)
            if slots is not None:
                role = T("gouji.role.ranked", a=alliance(s) + 1, rank=T(f"gouji.rank.{slots[s]}"))
            status = self.status.get(s)
            if self._phase == DECLARE and s in self.answers and seat != s:
                status = T("gouji.status.answered")
            elif self._phase == DECLARE and s in self.answers:
                status = T(f"gouji.status.{self.answers[s]}")
            seats.append(SeatView(role=role, count=self._count(s, seat), status=status,
                                  cards=format_cards(self.hands[s]) if seat == s else None))
        # the opening facts (上班, 进贡, 买3) until the first play, so six seats stay readable
        lines: list[Text] = [] if self.played else list(self.start_lines)
        if self.revolutionary is not None:
            lines.append(Window.took(self.revolutionary, T("gouji.status.revolt")))
            if self.head is not None:
                lines.append(T(f"gouji.line.{self.head}",
                               seat=opposite(self.revolutionary) + 1))
        if self._phase not in (DECLARE,) and any(self.declared.values()):
            lines.append(T("gouji.line.declared", seats=" ".join(
                str(s + 1) for s in range(SEATS) if self.declared.get(s))))
        if self.kaidian:
            lines.append(T("gouji.line.kaidian", seats=" ".join(
                str(s + 1) for s in sorted(self.kaidian))))
        # the top play: the round's last play (View.round), its 够级 / 够死级 its note
        if self.burn is not None:
            lines.append(T("gouji.line.burning", seat=self.burn[0] + 1, victim=self.burn[1] + 1))
        lines.extend(self.events)
        if self.finished:
            lines.append(T("gouji.line.order", seats=" ".join(str(s + 1) for s in self.finished)))
        if over:
            lines.extend(self.outcome().lines)
        hand = format_cards(self.hands[seat]) if seat is not None else None
        return View(phase=self.window_phase(self._phase_text()), seats=tuple(seats),
                    lines=tuple(lines), hand=hand, shown=self._shown(seat, hand),
                    round=self.rounds.current(), last_round=self.rounds.last)

    def _shown(self, seat: int | None, hand: str | None) -> Shown | None:
        """The suited twin of the cards the view shows (``View.shown``, for pictures): the
        seat's own hand (also its seat's open cards) and each play of 本轮 and 上一轮; None
        where there is none (a written position has no suits). Another seat's hand never gets
        one."""
        if self.suits is None:
            return None
        mine = self.suits.hand(seat) if seat is not None and hand else None
        seats: tuple[str | None, ...] = ()
        if mine is not None:
            assert seat is not None
            seats = (None,) * seat + (mine,) + (None,) * (SEATS - seat - 1)
        played = tuple(self.round_suited)
        if mine is None and not played and not self.last_suited:
            return None
        return Shown(mine, seats, (), played, self.last_suited)

    def _phase_text(self) -> Text:
        if self._phase == DECLARE:
            return T("gouji.phase.declare")
        if self._phase == HEAD:
            assert self.revolutionary is not None
            return T("gouji.phase.head", seat=opposite(self.revolutionary) + 1)
        if self._phase == DONE:
            return T("gouji.phase.done")
        if self.mode == "lead":
            return T("gouji.phase.lead", seat=self.turn + 1)
        if self.mode == "window":
            assert self.top is not None
            if self.top.dead or "beat" not in self.window_seats.values():
                return T("gouji.phase.window_dead", seat=self.top.owner + 1)
            return T("gouji.phase.window", seat=self.top.owner + 1,
                     duitou=opposite(self.top.owner) + 1)
        return T("gouji.phase.follow", seat=self.turn + 1)

    def choices(self, seat: int) -> list[Choice]:
        if seat not in self.to_act():
            return []
        if self._phase == DECLARE:
            out = [Choice("declare", T("gouji.choice.declare"), "primary"),
                   Choice("nodeclare", T("gouji.choice.nodeclare"))]
            if self.may_revolt(seat):
                out.append(Choice("revolt", T("gouji.choice.revolt"), "danger"))
            return out
        if self._phase == HEAD:
            return [Choice("yaotou", T("gouji.choice.yaotou"), "primary"),
                    Choice("wutou", T("gouji.choice.wutou"))]
        if self._phase != PLAY or self.mode == "lead":
            return []
        out = [Choice(PASS, T("gouji.choice.noburn" if self.mode == "window"
                               and self.window_seats[seat] == "burn" else "gouji.choice.pass"))]
        if self.may_rang(seat):
            out.append(Choice("rang", T("gouji.choice.rang")))
        return out

    def picker(self, seat: int) -> Picker | None:
        """The seat's cards (up to 36), one menu per run of ranks of at most 25 cards; in a
        burn claim window the picked cards form ``burn <cards>``."""
        if self._phase != PLAY or not self.active(seat) or not any(self.hands[seat]):
            return None
        tokens, labels, groups = picker_tokens(self.hands[seat])
        template = "{}"
        if self.mode == "window" and self.window_seats.get(seat) == "burn":
            template = "burn {}"
        return Picker(tokens, labels, 1, len(tokens), template, " ", groups)
