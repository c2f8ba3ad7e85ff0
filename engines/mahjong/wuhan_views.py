"""武汉麻将's table: roles (openings), the 癞子 and 海底 lines, the outcome's factor lines,
and the 海底 buttons.
"""

from __future__ import annotations

from engines.base import Choice, Picker, T, Text
from engines.mahjong.game import SEATS, Win
from engines.mahjong.names import tile_text
from engines.mahjong.wuhan_pay import WuhanPay


class WuhanViews(WuhanPay):
    """What 武汉麻将's table shows over the core's views."""

    def _role(self, seat: int, viewer: int | None) -> Text | None:
        if seat == self.dealer:
            return T("mj.role.wh_dealer", n=self.opens[seat])
        return T("mj.role.wh_open", n=self.opens[seat]) if self.opens[seat] else None

    def _extra_lines(self, seat: int | None) -> list[Text]:
        lines = [T("mj.line.wh_laizi", flip=tile_text(self.flipped), laizi=tile_text(self.laizi))]
        if self.haidi and not self.ended:
            lines.append(T("mj.line.wh_haidi"))
        return lines

    def _win_lines(self, w: Win) -> list[Text]:
        how = w.fan.items[-1][0]
        lines = [
            T(
                f"mj.out.wh_{how}",
                seat=w.seat + 1,
                source=(w.source or 0) + 1,
                tile=tile_text(w.tile),
            )
        ]
        for key, base in w.fan.items[:-1]:
            lines.append(T("mj.out.wh_item", name=T(f"mj.fan.{key}"), base=base))
        if w.tile == self.laizi:
            lines.append(T("mj.out.wh_laizi_tile", tile=tile_text(w.tile)))
        lines.append(T("mj.out.wh_winner", seat=w.seat + 1, factors=self._factors_text(w.seat)))
        for s in range(SEATS):
            if s != w.seat:
                lines.append(T("mj.out.wh_loss", seat=s + 1, x=self.losses[s],
                               factors=self._factors_text(s)))
        if self.liable is not None:
            lines.append(T("mj.out.wh_chengbao", seat=self.liable + 1))
        return lines

    def _won_line(self, w: Win) -> Text:
        names = [T(f"mj.fan.{k}") for k, _ in w.fan.items[:-1]]
        return T("mj.line.wh_won", seat=w.seat + 1, how=names[0])

    def _draw_line(self) -> Text:
        return T("mj.out.wh_draw")

    def choices(self, seat: int) -> list[Choice]:
        if self.haidi and not self.ended:
            return [
                Choice("hu", T("mj.choice.zimo"), "success"),
                Choice("pass", T("mj.choice.pass")),
            ]
        return super().choices(seat)

    def picker(self, seat: int) -> Picker | None:
        if self.haidi:
            return None
        return super().picker(seat)
