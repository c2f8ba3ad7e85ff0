"""二人麻将's table: roles (报听), the 花牌 and offer lines, phase, outcome lines, buttons and
the swap picker.
"""

from __future__ import annotations

from engines.base import Choice, Picker, T, Text
from engines.mahjong.erren_state import SWAP, ErrenState
from engines.mahjong.game import DISCARD, Win
from engines.mahjong.names import group_text, spell, tile_text
from engines.mahjong.tiles import parse_tile, tile_name


class ErrenViews(ErrenState):
    """What 二人麻将's table shows over the core's views."""

    def _role(self, seat: int, viewer: int | None) -> Text | None:
        ting = self.riichi[seat]
        if seat == self.dealer:
            return T("mj.role.er_dealer_ting") if ting else T("mj.role.dealer")
        return T("mj.role.er_ting") if ting else None

    def _extra_lines(self, seat: int | None) -> list[Text]:
        """The 花牌 and 海底捞月 for everyone; the seat to act alone sees its offers."""
        flowers = spell(" ".join(tile_name(t) for t in sorted(self.flowers)))
        lines = [T("mj.line.er_flowers", tiles=flowers)]
        if self.haidi is not None and not self.ended:
            lines.append(T("mj.line.er_haidi", seat=self.haidi + 1, n=self.haidi_left))
        if seat is not None and not self.ended and self._phase == SWAP and not self.swapped[seat]:
            lines.append(T("mj.line.er_swap_how"))
        mine = seat is not None and seat == self.turn and self._phase == DISCARD
        if mine and not self.ended and self.cuo_offer:
            lines.append(T("mj.line.er_cuo"))
        if mine and not self.ended and self.huan_offer is not None:
            lines.append(T("mj.line.er_huan", tiles=group_text([self.huan_offer] * 3)))
        return lines

    def _phase_text(self) -> Text:
        if not self.ended and self._phase == SWAP:
            return T("mj.phase.er_swap")
        return super()._phase_text()

    def _win_lines(self, w: Win) -> list[Text]:
        how = w.fan.items[-1][0]
        lines = [
            T(
                f"mj.out.er_{'zimo' if how in ('zimo', 'qianggang') else 'dianpao'}",
                seat=w.seat + 1,
                source=(w.source or 0) + 1,
                tile=tile_text(w.tile),
                fan=w.fan.fan,
            )
        ]
        for key, fan in w.fan.items[:-1]:
            lines.append(T("mj.out.item", name=T(f"mj.fan.er_{key}"), fan=fan))
        return lines

    def _draw_line(self) -> Text:
        return T("mj.out.er_draw")

    def choices(self, seat: int) -> list[Choice]:
        if self._phase == SWAP and seat in self.to_act():
            return [Choice("swap -", T("mj.choice.er_keep"), "primary")]
        out = super().choices(seat)
        out += [
            Choice(a, T("mj.choice.er_ting", tile=tile_text(parse_tile(a[5:]))), "primary")
            for a in self.legal_actions(seat)
            if a.startswith("ting")
        ]
        if self._phase == DISCARD and (self.riichi[seat] or self.haidi is not None):
            return [
                Choice("hu", T("mj.choice.zimo"), "success"),
                Choice("pass", T("mj.choice.pass")),
            ]
        return out

    def picker(self, seat: int) -> Picker | None:
        if self.ended or seat not in self.to_act():
            return None
        if self._phase == SWAP:
            tokens = tuple(tile_name(t) for t in range(34) if self.hands[seat][t])
            return Picker(tokens, tokens, 1, len(tokens), "swap {}", "")
        if self.riichi[seat] or self.haidi is not None:
            return None
        return super().picker(seat)
