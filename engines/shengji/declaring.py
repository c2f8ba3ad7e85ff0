"""升级's declaring and kitty: the packets with their declaration windows (亮主, 自保, 反主,
自反, 反无主), the 庄 taking and burying the kitty (扣底), 反底 in 欢乐升级, and the start of play.
"""

from __future__ import annotations

from engines.base import T
from engines.errors import IllegalActionError
from engines.shengji.rules import DEAL, PACKETS
from engines.shengji.state import BURY, COUNTER, DECLARE, PLAY, ShengjiState, team
from engines.trick.cards import format_ids, level_name


class ShengjiDeclaring(ShengjiState):
    """The packets and their declaration windows, the kitty and its bury, 反底, play's start."""

    # --- the deal and the declaration windows ------------------------------------------------
    def _deal_packet(self) -> None:
        """Deal packets until some seat may declare (a window opens) or the deal is done."""
        if not self._deal_packets(self.per, PACKETS, self.dealt):
            self._end_declaring()

    def _end_declaring(self) -> None:
        if self.dealer is None:
            # 争庄: "先亮者为庄": the first declarer deals; later declarations change the trump
            first = self.decl_history[0].seat if self.decl_history else self.fallback_dealer
            self.dealer = first
            self.level = self.levels[team(self.dealer)]
        self._set_trump(self.decl)
        self.counter_strength = self.decl.counter_strength() if self.decl else (0, 0)
        self._take_kitty(self.dealer)

    def _take_kitty(self, seat: int) -> None:
        for cid in self.kitty:
            self.hands[seat][cid] += 1
        self.kitty = []
        self.kitty_owner = seat
        self._phase = BURY

    def _apply_window(self, seat: int, verb: str, rest: str, text: str) -> str:
        if verb == "pass":
            self.passed.add(seat)
            self._after_window()
            return "pass"
        want = "declare" if self._phase == DECLARE else "counter"
        if verb != want:
            key = "err.shengji.declare_now" if want == "declare" else "err.shengji.counter_now"
            raise IllegalActionError(f"now {want} or pass", seat=seat, action=text, text=T(key))
        ids = self._parse(rest)
        self._check_held(seat, ids, text)
        match = [d for d in self._declarations(seat)
                 if sorted(self._decl_ids(d)) == sorted(ids)]
        if not match:
            raise IllegalActionError(
                "not a declaration stronger than the current one", seat=seat, action=text,
                text=T("err.shengji.weak_declaration", cards=format_ids(ids),
                       level=level_name(self.level)))
        d = match[0]
        canonical = f"{want} {self._decl_text(d)}"
        if self._phase == DECLARE:
            if self.decl is not None and self.decl.seat != seat:
                self.fanzhu += 1
            self.decl = d
            self.decl_history.append(d)
            self._after_window()
        else:
            self.fandi += 1
            self.counter_strength = d.counter_strength()
            self.decl = d
            self.decl_history.append(d)
            self._set_trump(d)
            self._take_kitty(seat)
        return canonical

    def _after_window(self) -> None:
        if self._eligible():
            return
        if self._phase == DECLARE:
            self._deal_packet()
        else:
            self._start_play()

    def _apply_bury(self, seat: int, rest: str, text: str) -> str:
        ids = self._parse(rest)
        k = DEAL[self.decks][1]
        if len(ids) != k:
            raise IllegalActionError(f"bury exactly {k} cards", seat=seat, action=text,
                                     text=T("err.shengji.bury_count", n=k, got=len(ids)))
        self._check_held(seat, ids, text)
        for cid in ids:
            self.hands[seat][cid] -= 1
        self.kitty = list(ids)
        self.buried = list(ids)
        if self.HAPPY:
            self._phase = COUNTER
            if not self._open_claims():
                self._start_play()
        else:
            self._start_play()
        return "bury " + format_ids(ids, self.ctx)

    def _start_play(self) -> None:
        assert self.dealer is not None
        self._phase = PLAY
        self.leader = self.turn = self.dealer
