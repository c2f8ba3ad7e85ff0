"""斗地主 views: what each seat and the public see (with the suits for pictures), 记牌器,
the buttons and the card picker.
"""

from __future__ import annotations

from typing import Any

from engines.base import Choice, Picker, SeatView, T, Text, View
from engines.doudizhu.auction import NO, YES
from engines.doudizhu.counter import counter_shown, counter_text
from engines.doudizhu.notation import BIG_JOKER, SMALL_JOKER, format_cards, label
from engines.doudizhu.plays import DoudizhuPlays
from engines.doudizhu.suits import Texts, with_shown

_SUIT_TAGS = "shcd"
_LAST_PLAY_LINES = frozenset({"ddz.line.can_beat", "ddz.line.cannot_beat"})
_STATUS_WORDS = frozenset(NO.values()) | frozenset(YES.values()) | {"pass"}


class DoudizhuViews(DoudizhuPlays):
    """Seat and public views, 记牌器, buttons and the card picker."""

    def private_face(self, seat: int) -> Any:
        """What a waiting DM shows, cheaply: the cards of every seat it sees (its own, the
        明牌 shown, all once the hand is over), as counts (bytes); their suited twins follow
        them."""
        shown, over = self.shown, self.over
        return tuple(bytes(self.visible_hand(s)) if s == seat or shown[s] or over else None
                     for s in range(self.n))

    def view(self, seat: int | None) -> View:
        """``plain_view`` with its suited twin for pictures (``View.shown``; which card of a
        rank leaves a hand: ``engines.doudizhu.suits``)."""
        return with_shown(self.plain_view(seat), seat, self._suited_hand, self._suited_line,
                          self._suited_play)

    def _suited_hand(self, seat: int) -> Texts | None:
        return self.suits.hand(seat, self.visible_hand(seat))

    def _suited_play(self, seat: int) -> Texts | None:
        """``seat``'s last play of the round (``View.round``) as (rank-only, suited) notation."""
        return self.suits.play_texts(seat, self.hands[seat], self.round_plays.get(seat))

    def _suited_line(self, key: str) -> Texts | None:
        """The cards a line shows as (rank-only, suited) notation: the kitty, the last play
        named by the line of what the seat to act may answer."""
        if key == "ddz.line.kitty":
            return self.suits.kitty_texts()
        if key in _LAST_PLAY_LINES and self.last is not None and self.last_seat is not None:
            seat = self.last_seat
            played = self.suits.played(seat, self.hands[seat], self.last.parts)
            return None if played is None else (self.last.text, played)
        return None

    def plain_view(self, seat: int | None) -> View:
        """What ``seat`` (None: the public) sees, in notation (``view`` adds the suits)."""
        seats = []
        for s in range(self.n):
            role = None
            if self.landlord is not None:
                role = T("ddz.role.landlord" if s == self.landlord else "ddz.role.farmer")
            visible = self.visible_hand(s)
            # 亮牌: once the hand is over every seat's remaining cards are shown.
            shown = s == seat or self.shown[s] or self.over
            cards = format_cards(visible) if shown else None
            status = T("ddz.status.escaped") if s in self.escaped else self._status_text(s)
            seats.append(SeatView(role=role, count=sum(visible), cards=cards, status=status))
        lines: list[Text] = []
        if self.deal_no:
            lines.append(T("ddz.line.redeal", n=self.deal_no + 1))
        if self.high:
            lines.append(T("ddz.line.bid", bid=self.high, seat=(self.auction.high_seat or 0) + 1))
        lines.append(T("ddz.line.base", base=self.base_score()))
        lines.append(T("ddz.line.multiplier", x=self.multiplier()))
        if self.kitty_taken:
            lines.append(T("ddz.line.kitty", cards=format_cards(self.kitty)))
        # the plays of the round, the top one last: View.round
        if self.last is None and self._phase == "play":
            lines.append(T("ddz.line.lead", seat=self.turn + 1))
        if seat is not None and self.peeks[seat]:
            lines.append(T("ddz.line.peek", cards=self.peeked(seat)))
        if seat is not None and self._phase == "play" and self._acting(seat):
            lines.append(self._options_line(seat))
        hand = format_cards(self.visible_hand(seat)) if seat is not None else None
        return View(
            phase=T(f"ddz.phase.{self._phase_label()}"),
            seats=tuple(seats),
            lines=tuple(lines),
            hand=hand,
            counter=self.counter(seat),
            round=self.rounds.current(),
            last_round=self.rounds.last,
        )

    def counter(self, seat: int | None) -> str | None:
        """记牌器: the ranks still out as ``seat`` may know them (not in its hand, not played;
        the kitty before it is shown and removed cards count as out), or None for the public,
        where the room turns it off (option ``counter``), and once the hand is over."""
        if seat is None or self.over or not counter_shown(self.rules.counter, self.setup.coefficient):
            return None
        whole = self.rules.decks
        return counter_text(
            [4 * whole - h - o for h, o in zip(self.hands[seat][:SMALL_JOKER], self.out)]
            + [whole - self.hands[seat][r] - self.out[r] for r in (SMALL_JOKER, BIG_JOKER)]
        )

    def _options_line(self, seat: int) -> Text:
        """The seat to play: how many plays it may lead, how many beat the table, or 要不起."""
        n = len(self.plays(seat))
        if self.last is None:
            return T("ddz.line.you_lead", n=n)
        if n:
            return T("ddz.line.can_beat", n=n, cards=self.last.text)
        return T("ddz.line.cannot_beat", cards=self.last.text)

    def _status_text(self, seat: int) -> Text | None:
        action = self.status[seat]
        if action is None:
            return None
        if action.startswith("bid "):
            return T("ddz.status.bid", n=int(action[4:]))
        if action == "show":
            return T("ddz.status.show", x=self.shown[seat])
        if action in _STATUS_WORDS:
            return T(f"ddz.status.{action}")
        return T("ddz.status.play", cards=action)

    def choices(self, seat: int) -> list[Choice]:
        acts = [] if self._phase == "play" else self.legal_actions(seat)
        out: list[Choice] = []
        for a in acts:
            if a.startswith("peek "):
                out.append(Choice(a, T("ddz.choice.peek", places=" + ".join(a[5:]))))
            elif a.startswith("bid "):
                out.append(Choice(a, T("ddz.choice.bid", n=int(a[4:])), "primary"))
            elif a in ("call", "grab", "double"):
                out.append(Choice(a, T(f"ddz.choice.{a}"), "primary"))
            else:
                out.append(Choice(a, T(f"ddz.choice.{a}")))
        if self._phase == "play" and seat in self.to_act() and self.last is not None:
            out.append(Choice("pass", T("ddz.choice.pass")))
        return out

    def picker(self, seat: int) -> Picker | None:
        """The seat's cards as tokens: ``3s``, ``3h`` … (unique values; suits are ignored).

        Offered during the whole play phase, not only on the seat's turn: a seat's cards change
        only when it plays, so a picker shown while others play is still right when its turn
        comes (picking out of turn is refused by ``apply``)."""
        if self._phase != "play" or self.over or not self.hands[seat]:
            return None
        tokens: list[str] = []
        labels: list[str] = []
        for rank, c in enumerate(self.hands[seat]):
            for i in range(c):
                tokens.append(
                    "BR"[rank - SMALL_JOKER]
                    if rank >= SMALL_JOKER
                    else "3456789TJQKA2"[rank] + _SUIT_TAGS[i]
                )
                labels.append(label(rank))
        tokens, labels = tokens[:25], labels[:25]
        return Picker(tuple(tokens), tuple(labels), 1, len(tokens), "{}", "")
