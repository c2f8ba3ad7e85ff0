"""升级 views: what each seat and the table see, the phase text, the buttons and the card
picker.
"""

from __future__ import annotations

from typing import Any

from engines.base import Choice, Picker, T, Text, View
from engines.shengji.rules import DEAL, PACKETS
from engines.shengji.state import BURY, COUNTER, DECLARE, DONE, PLAY, ShengjiState
from engines.trick.cards import level_name

ROLES = ("shengji.role.zhuang", "shengji.role.xian")


class ShengjiViews(ShengjiState):
    """Seat and table views, the phase text, buttons and the card picker."""

    def private_face(self, seat: int) -> Any:
        """What a waiting DM shows, cheaply: its cards (a count per card id) and the trump
        picture that sorts them — plain bytes and numbers, nothing sorted or listed."""
        ctx = self.ctx
        return bytes(self.hands[seat]), ctx.level, ctx.trump, ctx.fixed_two

    def view(self, seat: int | None) -> View:
        declared = None
        if self.decl is not None and self._phase == DECLARE:
            declared = (self.decl.seat,
                        T("shengji.status.declared", cards=self._decl_text(self.decl)))
        seats = self._seat_views(seat, True, declared, ROLES)
        lines: list[Text] = [
            T("shengji.line.levels", a=level_name(self.levels[0]), b=level_name(self.levels[1])),
            self._trump_text(),
        ]
        if self.decl is not None:
            lines.append(self._declared_line(self.decl.seat, self._decl_text(self.decl)))
        if self._phase in (PLAY, DONE):
            lines.append(T("shengji.line.points", points=self.xian_points))
        # the trick so far, the last trick and a failed 甩牌: View.round, View.last_round
        if self.HAPPY and (self.fanzhu or self.fandi):
            lines.append(T("shengji.line.happy_now", fanzhu=self.fanzhu, fandi=self.fandi))
        return self._table_view(seat, seats, lines, self._phase_text())

    def _phase_text(self) -> Text:
        if self._phase == DECLARE:
            return T("shengji.phase.declare", packet=self.packet, packets=PACKETS)
        if self._phase == COUNTER:
            return T("shengji.phase.counter")
        if self._phase == BURY:
            assert self.kitty_owner is not None
            return T("shengji.phase.bury", seat=self.kitty_owner + 1, n=DEAL[self.decks][1])
        if self._phase == PLAY:
            return T("shengji.phase.play", seat=self.turn + 1, trick=self.tricks + 1)
        return T("shengji.phase.done")

    def choices(self, seat: int) -> list[Choice]:
        if seat not in self.to_act() or self._phase not in (DECLARE, COUNTER):
            return []
        verb = "declare" if self._phase == DECLARE else "counter"
        out = [Choice(f"{verb} {self._decl_text(d)}",
                      T(f"shengji.choice.{verb}", cards=self._decl_text(d)), "primary")
               for d in self._declarations(seat)]
        out.append(Choice("pass", T("shengji.choice.pass")))
        return out

    def picker(self, seat: int) -> Picker | None:
        """The seat's cards, one menu per suit and one for trumps (a group over 25 is cut);
        identical cards are told apart by ``#2``/``#3`` in their tokens."""
        if self._phase not in (BURY, PLAY) or not any(self.hands[seat]):
            return None
        if self._phase == BURY and seat != self.kitty_owner:
            return None
        tokens, labels, groups = self.ctx.menus(self.hands[seat], Picker.MENU_SIZE)
        if self._phase == BURY:
            k = DEAL[self.decks][1]
            return Picker(tuple(tokens), tuple(labels), k, k, "bury {}", " ", tuple(groups))
        return Picker(tuple(tokens), tuple(labels), 1, len(tokens), "{}", " ", tuple(groups))
