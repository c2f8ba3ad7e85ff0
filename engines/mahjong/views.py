"""牌桌: what a mahjong table shows — each seat's view (hand, melds, river, status), the
table's lines, the phase, the buttons and the discard menus.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engines.base import Choice, Picker, SeatView, T, Text, View, net_points
from engines.mahjong.fan import MeldKind
from engines.mahjong.names import group_text, or_list, tile_text
from engines.mahjong.prop_use import PropUse
from engines.mahjong.settlement import MahjongSettlement
from engines.mahjong.state import CLAIM, DINGQUE, DISCARD
from engines.mahjong.tiles import (
    SUITS,
    format_counts,
    format_run,
    parse_tile,
    parse_tiles,
    tile_name,
)


class MahjongViews(PropUse, MahjongSettlement):
    """The views: what each seat and the table see, the choices and the picker."""

    def hand_text(self, seat: int) -> str:
        """The seat's concealed tiles sorted, the tile just drawn apart: ``123m45p 6p``; a
        winner's hand shows its winning tile apart."""
        hand = list(self.hands[seat])
        apart = None
        won = next((w for w in self.wins if w.seat == seat), None)
        if won is not None:
            apart = won.tile
        elif self.drawn is not None and seat == self.turn and self._phase == DISCARD:
            apart = self.drawn
            hand[apart] -= 1
        text = format_counts(hand)
        return f"{text} {tile_name(apart)}".strip() if apart is not None else text

    def melds_text(self, seat: int) -> str:
        """副露: ``555p`` 碰, ``5555p`` 明杠/补杠, ``[5555p]`` 暗杠 (its tile is shown)."""
        out = []
        for m in self.melds[seat]:
            group = format_run(m.tiles)
            out.append(f"[{group}]" if m.kind is MeldKind.ANGANG else group)
        return " ".join(out)

    def _role(self, seat: int, viewer: int | None) -> Text | None:
        que = self.que[seat]
        shown = que is not None and (self._phase != DINGQUE or seat == viewer or self.ended)
        if seat == self.dealer:
            if shown:
                return T("mj.role.dealer_que", suit=T(f"mj.suit.{SUITS[que or 0]}"))
            return T("mj.role.dealer")
        return T("mj.role.que", suit=T(f"mj.suit.{SUITS[que or 0]}")) if shown else None

    def private_face(self, seat: int) -> Any:
        """What a waiting DM shows, cheaply: the concealed tiles of every hand it sees (its
        own, the winners', all once the hand ended; a count per tile, as bytes) with the tile
        ``hand_text`` sets apart, and its own melds (an 暗杠 is drawn apart: the kind tells)."""
        melds = tuple((m.kind, m.tile) for m in self.melds[seat])
        drawn = self.drawn if self._phase == DISCARD else None
        if not self.wins and self.ended is None:  # most of a hand: its own tiles only
            own = (bytes(self.hands[seat]), drawn if seat == self.turn else None)
            return ((None,) * seat + (own,) + (None,) * (self.N - 1 - seat), melds)
        winners: dict[int, int] = {}
        for w in self.wins:
            winners.setdefault(w.seat, w.tile)  # a seat's first win sets its tile apart
        hands: list[tuple[bytes, int | None] | None] = []
        for s in range(self.N):
            if s == seat or s in winners or self.ended is not None:
                apart = winners.get(s)
                if apart is None and s == self.turn:
                    apart = drawn
                hands.append((bytes(self.hands[s]), apart))
            else:
                hands.append(None)
        return (tuple(hands), melds)

    def view(self, seat: int | None) -> View:
        seats = []
        for s in range(self.N):
            open_hand = s == seat or s in self.winners() or self.ended is not None
            status = self.status[s]
            if s in self.escaped:
                status = T("mj.status.escaped")
            seats.append(
                SeatView(
                    role=self._role(s, seat),
                    count=sum(self.hands[s]),
                    cards=self.hand_text(s) if open_hand else None,
                    status=status,
                    melds=self.melds_text(s),
                    # one by one: a run of one suit (984s7m) reads like a sequence
                    discards=" ".join(tile_name(t) for t in self.rivers[s]),
                )
            )
        lines = [
            T("mj.line.wall", n=self.wall_left()),
            T("mj.line.dice", a=self.dice[0], b=self.dice[1], dealer=self.dealer + 1),
        ]
        if self.last_discard is not None and self._phase == CLAIM:
            ls, lt = self.last_discard
            if self.claim is not None and self.claim.kind == "rob":
                lines.append(
                    T("mj.line.bugang", seat=self.claim.source + 1, tile=tile_text(self.claim.tile))
                )
            else:
                lines.append(T("mj.line.discard", seat=ls + 1, tile=tile_text(lt)))
        lines += self._extra_lines(seat)
        lines += self._prop_lines(seat)
        for w in self.wins:
            lines.append(self._won_line(w))
        net = net_points(self.N, self.settle())
        if any(net):
            lines.append(T("mj.line.points", points=" / ".join(f"{p:+d}" for p in net)))
        if seat is not None and self.claim is not None and seat in self.to_act():
            lines.append(self._claim_prompt(seat, self.claim.tile))
        return View(
            phase=self.window_phase(self._phase_text()),
            seats=tuple(seats),
            lines=tuple(lines),
            hand=self.hand_text(seat) if seat is not None else None,
        )

    def _claim_prompt(self, seat: int, tile: int) -> Text:
        """"你可以对 九筒 碰或胡，也可以过": only the claims this seat is offered."""
        words = []
        for a in self.legal_actions(seat):
            word = a.split(" ")[0]
            if word in ("chi", "peng", "gang", "hu") and word not in words:
                words.append(word)
        order = ("chi", "peng", "gang", "hu")
        words.sort(key=order.index)
        return T(
            "mj.line.claim_you",
            tile=tile_text(tile),
            options=or_list([T(f"mj.claim.{w}") for w in words]),
        )

    def _extra_lines(self, seat: int | None) -> list[Text]:
        """Lines a preset adds to the table (炮子 stakes …); the same for every viewer."""
        return []

    def _phase_text(self) -> Text:
        if self.ended:
            return T(f"mj.phase.over_{self.ended}")
        if self._phase == DINGQUE:
            return T("mj.phase.dingque")
        if self._phase == CLAIM:
            return T("mj.phase.claims")
        return T("mj.phase.turn", seat=self.turn + 1)

    def choices(self, seat: int) -> list[Choice]:
        out: list[Choice] = []
        for a in self.legal_actions(seat):
            if a.startswith("que"):
                out.append(Choice(a, T("mj.choice.que", suit=T(f"mj.suit.{a[-1]}")), "primary"))
            elif a == "hu":
                key = "mj.choice.hu" if self._phase == CLAIM else "mj.choice.zimo"
                out.append(Choice(a, T(key), "success"))
            elif a.startswith("gang"):
                label = T("mj.choice.gang", tile=tile_text(parse_tile(a[5:])))
                out.append(Choice(a, label, "primary"))
            elif a == "peng":
                assert self.claim is not None
                out.append(
                    Choice(a, T("mj.choice.peng", tile=tile_text(self.claim.tile)), "primary")
                )
            elif a.startswith("chi"):
                label = T("mj.choice.chi", tiles=group_text(parse_tiles(a[4:])))
                out.append(Choice(a, label, "primary"))
            elif a == "pass":
                out.append(Choice(a, T("mj.choice.pass")))
            elif a.startswith("prop ") and " " not in a[5:] and self.shop is not None:
                prop = a[5:]
                out.append(
                    Choice(a, T("mj.choice.prop", prop=T(f"mj.prop.{prop}"),
                                beans=self.shop.prices[prop]))
                )
        return out

    def picker(self, seat: int) -> Picker | None:
        """The tiles to discard on the seat's own turn, one menu per suit."""
        if self.ended or self._phase != DISCARD or seat != self.turn:
            return None
        tokens = [tile_name(t) for t in range(34) if self.hands[seat][t]]
        groups = Counter(t[-1] for t in tokens)
        sizes = tuple(groups[s] for s in SUITS if groups[s])
        return Picker(tuple(tokens), tuple(tokens), 1, 1, "{}", "", sizes)
