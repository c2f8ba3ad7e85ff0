"""斗地主 plays: the legal actions, 要不起, reading a typed play, passes and plays.
"""

from __future__ import annotations

from engines.base import T
from engines.doudizhu.auction import NO, YES
from engines.doudizhu.bidding import DoudizhuBidding
from engines.doudizhu.moves import can_beat, follow_plays, lead_plays
from engines.doudizhu.patterns import Play, ambiguous, beats
from engines.errors import IllegalActionError


class DoudizhuPlays(DoudizhuBidding):
    """The play phase: legal actions, 要不起, reading plays, passes and plays."""

    def legal_actions(self, seat: int) -> list[str]:
        if not self._acting(seat):
            return []
        p = self._phase
        if p == "play":
            acts = self.plays(seat)
            if self.last is not None:
                acts.append("pass")
            return acts
        if p == "auction":
            return self._peek_actions(seat) + self.auction.legal(seat)
        return [YES[p], NO[p]]

    def forced_action(self, seat: int) -> str | None:
        """要不起: ``pass`` when the seat follows and nothing it holds beats the table (found
        without listing the plays); outside the play phase the few actions are listed."""
        if self._phase != "play":
            return super().forced_action(seat)
        if self.last is None or not self._acting(seat):
            return None
        return None if self._can_follow(seat) else "pass"

    def _can_follow(self, seat: int) -> bool:
        """Whether ``plays(seat)`` (following) has any play. A variant with plays of its own
        (四人's, 癞子's) answers from them."""
        if type(self).plays is not DoudizhuPlays.plays:
            return bool(self.plays(seat))
        assert self.last is not None
        return can_beat(tuple(self.hands[seat]), self.last, self.rules.patterns)

    def plays(self, seat: int) -> list[str]:
        """The seat's plays now: every lead, or every play beating the table (no pass)."""
        hand = tuple(self.hands[seat])
        if self.last is None:
            return lead_plays(hand, self.rules.patterns)
        return follow_plays(hand, self.last, self.rules.patterns)

    def read_play(self, seat: int, text: str) -> Play | None:
        """The play typed in the play phase (None: pass); IllegalActionError or
        NotationError when it is no play."""
        known = self.book.known(text)
        if known is not None:
            return known
        options = self.book.options(text)
        if len(options) > 1:
            # One set of cards, two readings (三顺 or 飞机带翅膀): leading, the player
            # names one; following, the one that answers the table is meant.
            if self.last is None:
                raise ambiguous(options)
            fitting = [p for p in options if beats(p, self.last)]
            same = [p for p in options if p.pattern is self.last.pattern]
            options = tuple(fitting or same or options)
        return options[0] if options else None

    def beats(self, play: Play, previous: Play) -> bool:
        """管得上 under this variant's ranking (classic: ``patterns.beats``)."""
        return beats(play, previous)

    def _pass(self, seat: int) -> str:
        if self.last is None:
            raise IllegalActionError(
                "you lead this round: play any pattern (首出不能不出)",
                seat=seat,
                action="pass",
                text=T("err.ddz.must_lead"),
            )
        self.status[seat] = "pass"
        self.rounds.pass_(seat)
        nxt = (seat + 1) % self.n
        if nxt == self.last_seat:
            self.last = None  # everyone passed: the player who played last leads
            self.rounds.close(nxt)
            self.round_plays = {}
        self.turn = nxt
        return "pass"

    def _play(self, seat: int, play: Play | None) -> str:
        if play is None:
            return self._pass(seat)
        hand = self.hands[seat]
        for r, c in play.parts:
            if c > hand[r]:
                raise IllegalActionError(
                    "you do not hold these cards",
                    seat=seat,
                    action=play.text,
                    text=T("err.ddz.not_held", cards=play.text),
                )
        last = self.last
        if last is not None and not self.beats(play, last):
            raise IllegalActionError(
                f"does not beat {last.text} ({last.pattern.value}): play the same pattern "
                "with the same number of cards and higher, a bomb, or pass",
                seat=seat,
                action=play.text,
                text=T(
                    "err.ddz.not_beat",
                    cards=play.text,
                    last=last.text,
                    pattern=T("ddz.pattern." + last.pattern.name.lower()),
                ),
            )
        out = self.out
        for r, c in play.parts:
            hand[r] -= c
            out[r] += c
        self.played_hands[seat] += 1
        if play.is_bomb:
            self.bombs += 1
            self.bomb_factors.append(self.bomb_factor(play))
        self.last = play
        self.last_seat = seat
        self.rounds.play(seat, play.text)
        self.round_plays[seat] = play
        self.status[seat] = play.text
        if not any(hand):
            self.winner = seat
            self.over = True
            self._phase = "over"
        else:
            self.turn = (seat + 1) % self.n
        return play.text
