"""五人斗地主 views: what each seat and the public see (the landlords each seat knows of, with
the suits for pictures), 记牌器, the buttons and the card picker.
"""

from __future__ import annotations

from engines.base import Choice, Picker, SeatView, T, Text, View
from engines.doudizhu import four
from engines.doudizhu.counter import counter_shown, counter_text
from engines.doudizhu.five_patterns import SEATS, SUITS
from engines.doudizhu.five_settlement import FiveSettlement
from engines.doudizhu.notation import NRANKS, RANKS, format_cards
from engines.doudizhu.suits import Texts, with_shown


class FiveViews(FiveSettlement):
    """Seat and public views, 记牌器, buttons and the card picker."""

    # --- views ------------------------------------------------------------------------------
    def marker_text(self) -> str:
        """The 明牌 as suit and rank, e.g. ``♠7``."""
        return SUITS[self.marker[1]] + RANKS[self.marker[0]]

    def view(self, seat: int | None) -> View:
        """``plain_view`` with its suited twin for pictures (``View.shown``; which card of a
        rank leaves a hand: ``engines.doudizhu.suits``)."""
        return with_shown(self.plain_view(seat), seat, self._suited_hand, self._suited_line,
                          self._suited_play)

    def _suited_hand(self, seat: int) -> Texts | None:
        return self.suits.hand(seat, self.hands[seat])

    def _suited_line(self, key: str) -> Texts | None:
        if key == "ddz.line.kitty":
            return self.suits.kitty_texts()
        return None

    def _suited_play(self, seat: int) -> Texts | None:
        """``seat``'s last play of the round (``View.round``) as (rank-only, suited) notation."""
        return self.suits.play_texts(seat, self.hands[seat], self.round_plays.get(seat))

    def plain_view(self, seat: int | None) -> View:
        """What ``seat`` sees, in notation: the 暗地主 is shown only to itself until it is
        known; then the two landlords see each other's cards (privately); everything at the
        end."""
        over = self.winner is not None
        lands = self.knows_landlords(seat)
        team = seat is not None and seat in lands and self.known
        seats = []
        for s in range(SEATS):
            if s in lands:
                role: Text | None = T("ddz.role.landlord")
            elif s == seat or len(lands) == len(self.landlords) and (self.known or over):
                role = T("ddz.role.farmer")
            else:
                role = None
            shown = s == seat or over or team and s in lands
            cards = format_cards(tuple(self.hands[s])) if shown else None
            status = T("ddz.status.escaped") if s in self.escaped else self._status(s)
            seats.append(SeatView(role=role, count=sum(self.hands[s]), cards=cards, status=status))
        lines: list[Text] = [
            T("ddz.line.five_marker", card=self.marker_text(), seat=self.landlord + 1),
            T("ddz.line.base", base=self.base),
            T("ddz.line.multiplier", x=self.multiplier()),
        ]
        if seat is not None and seat == self.partner and not self.known:
            lines.append(T("ddz.line.five_hidden", card=self.marker_text()))
            if self.open_offers(seat):
                lines.append(T("ddz.line.five_reveal_open"))
        if seat == self.landlord and self.partner is None and not (self.known or over):
            lines.append(T("ddz.line.five_alone"))
        if self.known and self.partner is None:
            lines.append(T("ddz.line.five_no_partner"))
        if seat == self.landlord:
            lines.append(T("ddz.line.kitty", cards=format_cards(self.kitty)))
        # the plays of the round, the top one last: View.round
        if self.last is None and self._phase == "play" and not over:
            lines.append(T("ddz.line.lead", seat=self.turn + 1))
        hand = format_cards(tuple(self.hands[seat])) if seat is not None else None
        return View(
            phase=T(f"ddz.phase.{'over' if over else self._phase}"),
            seats=tuple(seats),
            lines=tuple(lines),
            hand=hand,
            counter=self.counter(seat),
            round=self.rounds.current(),
            last_round=self.rounds.last,
        )

    def counter(self, seat: int | None) -> str | None:
        """记牌器: the cards of the other four hands by rank (all 108 are dealt, the kitty
        into the 明地主's hand), in the seat's own view while the room offers it."""
        if seat is None or self.winner is not None:
            return None
        if not counter_shown(self.counter_mode, self.setup.coefficient):
            return None
        return counter_text([sum(self.hands[s][r] for s in range(SEATS) if s != seat)
                             for r in range(NRANKS)])

    def _status(self, seat: int) -> Text | None:
        action = self.status[seat]
        if action is None:
            return None
        if action in ("reveal", "noreveal"):
            # 放弃 is the 明地主's alone (the 暗地主 never declines: its reveal is an offer);
            # shown as no status, as a reveal not taken.
            return T("ddz.status.reveal") if action == "reveal" else None
        if action in ("double", "nodouble", "pass"):
            return T(f"ddz.status.{action}")
        return T("ddz.status.play", cards=action)

    def choices(self, seat: int) -> list[Choice]:
        acts = [] if self._phase == "play" else self.legal_actions(seat)
        out = [
            Choice(a, T(f"ddz.choice.{a}"), "secondary" if a.startswith("no") else "primary")
            for a in acts
        ]
        if self._phase == "play" and seat in self.to_act() and self.last is not None:
            out.append(Choice("pass", T("ddz.choice.pass")))
        return out

    def picker(self, seat: int) -> Picker | None:
        if self._phase != "play" or self.winner is not None or not any(self.hands[seat]):
            return None
        return four.picker(self.hands[seat])
