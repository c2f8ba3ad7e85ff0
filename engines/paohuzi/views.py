"""跑胡子's table: each seat's view (a face-down 偎 hidden from the others), the table's
lines, the phase, the buttons and the discard menu.
"""

from __future__ import annotations

from engines.base import Choice, Picker, SeatView, T, Text, View
from engines.paohuzi.settlement import PaohuziSettlement
from engines.paohuzi.state import CLAIM, DISCARD, SEATS
from engines.paohuzi.tiles import format_zh, parse_tiles, tile_name, tile_zh, tiles_of


class PaohuziViews(PaohuziSettlement):
    """The views: what each seat and the table see, the choices and the picker."""

    def hand_text(self, seat: int) -> str:
        return format_zh(tiles_of(self.hands[seat]))

    def melds_text(self, seat: int, viewer: int | None) -> str:
        hidden = viewer != seat and not self.ended
        return " ".join(g.text(hidden) for g in self.groups[seat])

    def view(self, seat: int | None) -> View:
        seats = []
        for s in range(SEATS):
            open_hand = s == seat or self.ended is not None
            status = T("phz.status.escaped") if s in self.escaped else self.status[s]
            seats.append(
                SeatView(
                    role=T("phz.role.dealer") if s == self.dealer else None,
                    count=sum(self.hands[s]),
                    cards=self.hand_text(s) if open_hand else None,
                    status=status,
                    melds=self.melds_text(s, seat),
                    discards=format_zh(self.rivers[s]) if self.rivers[s] else "",
                )
            )
        lines = [T("phz.line.stock", n=self.stock_left(), dealer=self.dealer + 1)]
        for s in range(SEATS):
            lines.append(
                T(
                    "phz.line.huxi",
                    seat=s + 1,
                    huxi=self.open_huxi(s, seat),
                    wilds=self.shown_wilds[s],
                )
            )
        if self.last_event is not None:
            lines.append(self.last_event)
        if self.win is not None:
            lines.append(
                T(
                    "phz.line.won",
                    seat=self.win.seat + 1,
                    huxi=self.win.huxi,
                    zi=self.zi(),
                    fan=self.win.fan.total,
                )
            )
        if seat is not None and self.claim is not None and seat in self.to_act():
            lines.append(
                T(
                    "phz.line.claim_you",
                    tile=tile_zh(self.claim.tile),
                    options=", ".join(self.claim.options[seat]),
                )
            )
        return View(
            phase=self.window_phase(self._phase_text()),
            seats=tuple(seats),
            lines=tuple(lines),
            hand=self.hand_text(seat) if seat is not None else None,
        )

    def _phase_text(self) -> Text:
        if self.ended:
            return T(f"phz.phase.over_{self.ended}")
        if self._phase == CLAIM:
            return T("phz.phase.claims")
        return T("phz.phase.turn", seat=self.turn + 1)

    def choices(self, seat: int) -> list[Choice]:
        """Buttons for the legal actions: 胡, 跑, 碰 and 过 first, then each way to 吃."""
        out: list[Choice] = []
        legal = self.legal_actions(seat)
        order = [a for a in legal if not a.startswith("chi")]
        order += [a for a in legal if a.startswith("chi")]
        for a in order:
            if a == "hu":
                key = "phz.choice.hu" if self._phase == CLAIM else "phz.choice.zimo"
                out.append(Choice(a, T(key), "success"))
            elif a in ("peng", "pao"):
                assert self.claim is not None
                out.append(
                    Choice(a, T(f"phz.choice.{a}", tile=tile_zh(self.claim.tile)), "primary")
                )
            elif a.startswith("chi"):
                groups = " ".join(format_zh(parse_tiles(w)) for w in a.split()[1:])
                out.append(Choice(a, T("phz.choice.chi", groups=groups), "primary"))
            elif a == "pass":
                out.append(Choice(a, T("phz.choice.pass")))
        return out

    def picker(self, seat: int) -> Picker | None:
        """The tiles the seat may discard on its turn (small, then big): at most 20 kinds, so
        one menu, and a pick discards at once."""
        if self.ended or self._phase != DISCARD or seat != self.turn or not self.must_discard:
            return None
        tiles = self.discardable(seat)
        tokens = tuple(tile_name(t) for t in tiles)
        labels = tuple(tile_zh(t) for t in tiles)
        return Picker(tokens, labels, 1, 1, "{}", "")
