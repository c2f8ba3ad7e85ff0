"""打滚子 views: what each seat and the table see, the phase text, the buttons and the card
picker.
"""

from __future__ import annotations

from engines.base import Choice, Picker, T, Text, View
from engines.dagunzi.rules import KITTY
from engines.dagunzi.state import BURY, DECLARE, DONE, JOKERS, PACKETS, PLAY, RETURN, SHOW
from engines.dagunzi.tricks import DagunziTricks
from engines.trick.cards import SMALL, SUITS, format_ids, level_name

ROLES = ("dagunzi.role.zhuang", "dagunzi.role.xian")


class DagunziViews(DagunziTricks):
    """Seat and table views, the phase text, buttons and the card picker."""

    def view(self, seat: int | None) -> View:
        seats = self._seat_views(seat, self._phase != DECLARE, None, ROLES)
        lines: list[Text] = [
            T("shengji.line.levels", a=level_name(self.levels[0]), b=level_name(self.levels[1])),
            T("dagunzi.line.mode_dead" if self.dead else "dagunzi.line.mode_live"),
        ]
        if self.trump is not None:
            lines.append(T("shengji.trump.suit", suit=T(f"shengji.suit.{SUITS[self.trump]}"),
                           level=level_name(self.level)))
        elif self.decl is not None:
            lines.append(self._declared_line(self.decl.seat, self._decl_text(self.decl)))
        if self.first_line is not None and self._phase in (BURY, JOKERS):
            lines.append(self.first_line)
        if self.tribute_note is not None:
            lines.append(self.tribute_note)
        if self.tribute is not None:
            payer, receiver, cards = self.tribute
            lines.append(T("dagunzi.line.tribute", payer=payer + 1, receiver=receiver + 1,
                           n=len(cards)))
        if self.dealt_kitty is not None and not self.dry and self._phase in (BURY, JOKERS):
            lines.append(T("dagunzi.line.dealt_kitty",
                           cards=format_ids(self.dealt_kitty, self.ctx)))
        if self.dry and self._phase == BURY:
            assert self.dealt_kitty is not None
            lines.append(T("dagunzi.line.dealt_kitty",
                           cards=format_ids(self.dealt_kitty, self.ctx)))
            lines.append(T("dagunzi.line.dry_now"))
        if self._phase == JOKERS:
            # while the joker window is open the table sees the kitty as the 庄 buried it: a
            # joker buried in the window shows once it closes, or who could bury one would
            kitty = self.buried_by_dealer
            if self.dry or any(c >= SMALL for c in kitty):
                lines.append(T("dagunzi.line.kitty", cards=format_ids(kitty, self.ctx)))
        elif self.kitty_shown and self._phase in (PLAY, DONE):
            lines.append(T("dagunzi.line.kitty", cards=format_ids(self.kitty, self.ctx)))
        if self._phase in (PLAY, DONE):
            lines.append(T("shengji.line.points", points=self.xian_points))
        # the trick so far and the last trick: View.round, View.last_round
        return self._table_view(seat, seats, lines, self._phase_text())

    def _phase_text(self) -> Text:
        if self._phase == DECLARE:
            return T("shengji.phase.declare", packet=self.packet, packets=PACKETS)
        if self._phase == SHOW:
            return T("dagunzi.phase.show")
        if self._phase == RETURN:
            assert self.tribute is not None
            return T("dagunzi.phase.return", seat=self.tribute[1] + 1, n=len(self.tribute[2]))
        if self._phase == BURY:
            assert self.dealer is not None
            return T("shengji.phase.bury", seat=self.dealer + 1, n=KITTY)
        if self._phase == JOKERS:
            return T("dagunzi.phase.jokers")
        if self._phase == PLAY:
            return T("shengji.phase.play", seat=self.turn + 1, trick=self.tricks + 1)
        return T("shengji.phase.done")

    def choices(self, seat: int) -> list[Choice]:
        if self._phase == BURY and self.dry and seat in self.to_act():
            action = self.trustee(seat)  # 干锅: the one bury there is, the kitty as dealt
            return [Choice(action, T("dagunzi.choice.dry", cards=action[5:]), "primary")]
        if seat not in self.to_act() or self._phase not in (DECLARE, SHOW, JOKERS):
            return []
        if self._phase == SHOW:
            claim = self._big_claim(seat)
            assert claim is not None
            suit = T(f"shengji.suit.{SUITS[claim[1]]}")
            return [Choice("show", T("dagunzi.choice.show", suit=suit), "primary"),
                    Choice("pass", T("dagunzi.choice.no_show"), "secondary")]
        return [Choice(a, T("dagunzi.choice.action", action=a),
                       "secondary" if a == "pass" else "primary")
                for a in self.legal_actions(seat)]

    def picker(self, seat: int) -> Picker | None:
        """One menu per suit and one for trumps (cut at 25); ``#2``/``#3`` mark copies."""
        if self._phase not in (BURY, RETURN, PLAY) or not any(self.hands[seat]):
            return None
        if self._phase != PLAY and seat not in self.to_act() or self._phase == BURY and self.dry:
            return None
        tokens, labels, groups = self.ctx.menus(self.hands[seat], Picker.MENU_SIZE)
        if self._phase == BURY:
            return Picker(tuple(tokens), tuple(labels), KITTY, KITTY, "bury {}", " ",
                          tuple(groups))
        if self._phase == RETURN:
            assert self.tribute is not None
            n = len(self.tribute[2])
            return Picker(tuple(tokens), tuple(labels), n, n, "return {}", " ", tuple(groups))
        return Picker(tuple(tokens), tuple(labels), 1, 3, "{}", " ", tuple(groups))
