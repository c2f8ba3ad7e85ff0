"""够级 plays: 宣点 and 要头 answers, plays and passes, 让牌, the turn order and rounds, and who
answers a play (the 够级 window is opened here and answered in ``engines.gouji.windows``).
"""

from __future__ import annotations

from engines.base import Outcome, T
from engines.climbing.notation import (
    BIG,
    PASS,
    SMALL,
    TWO,
    Counts,
    contains,
    format_cards,
    minus,
    not_held,
    parse_cards,
)
from engines.errors import IllegalActionError
from engines.gouji.patterns import (
    THREE,
    Play,
    beats,
    beats_any,
    burnable,
    burns_any,
    is_gouji,
    plays,
    read,
)
from engines.gouji.scoring import GoujiScoring
from engines.gouji.state import DECKS, DECLARE, DONE, HEAD, PLAY, SEATS, Top, opposite


class GoujiPlays(GoujiScoring):
    """宣点, plays, passes and 让牌, the turn order, rounds and who answers a play."""

    # --- legal actions ------------------------------------------------------------------------
    def legal_actions(self, seat: int) -> list[str]:
        """宣点 window: ``declare``, ``nodeclare``, ``revolt`` (when eligible); 要头: ``yaotou``,
        ``wutou``; play: every play (and ``pass``, ``rang``), in a window ``burn <cards>``."""
        if seat not in self.to_act():
            return []
        if self._phase == DECLARE:
            return ["declare", "nodeclare"] + (["revolt"] if self.may_revolt(seat) else [])
        if self._phase == HEAD:
            return ["yaotou", "wutou"]
        hand = self.hands[seat]
        if self.mode == "lead":
            return [format_cards(c) for c, _ in plays(hand, None, self.beisan, self.big_top)]
        assert self.top is not None
        if self.mode == "window" and self.window_seats[seat] == "burn":
            return ["burn " + format_cards(c)
                    for c in burnable(hand, self.top.play, self.beisan, self.big_top)] + [PASS]
        out = [format_cards(c) for c, _ in plays(hand, self.top.play, self.beisan, self.big_top)]
        out.append(PASS)
        if self.may_rang(seat):
            out.append("rang")
        return out

    def forced_action(self, seat: int) -> str | None:
        """``pass`` when nothing beats the top play (and 让牌 is not open to the seat), or, in a
        烧 window, when the seat has nothing to burn with: found without listing the plays."""
        if seat not in self.to_act() or self._phase in (DECLARE, HEAD) or self.mode == "lead":
            return None
        assert self.top is not None
        hand = self.hands[seat]
        if self.mode == "window" and self.window_seats[seat] == "burn":
            return None if burns_any(hand, self.top.play, self.beisan, self.big_top) else PASS
        if beats_any(hand, self.top.play, self.beisan, self.big_top) or self.may_rang(seat):
            return None
        return PASS

    def _apply_declare(self, seat: int, word: str, text: str) -> str:
        words = {"declare": "declare", "宣点": "declare", "nodeclare": "nodeclare",
                 "不宣": "nodeclare", "pass": "nodeclare", "revolt": "revolt", "革命": "revolt"}
        action = words.get(word)
        if action is None:
            raise IllegalActionError("declare (宣点), nodeclare or revolt (革命) now", seat=seat,
                                     action=text, text=T("err.gouji.declare_now"))
        if action == "revolt" and not self.may_revolt(seat):
            raise IllegalActionError("only a hand without 花 and 2s may revolt", seat=seat,
                                     action=text, text=T("err.gouji.no_revolt"))
        self.answers[seat] = action
        if len(self.answers) == SEATS:
            self._end_declare()
        return action

    def _end_declare(self) -> None:
        revolts = [s for s, a in self.answers.items() if a == "revolt"]
        self.declared = {s: a == "declare" for s, a in self.answers.items()}
        for s in range(SEATS):
            if self.declared[s]:
                self.status[s] = T("gouji.status.declared")
        if len(revolts) >= 2:
            # "如同时出现2个(含2个)以上革命者，则该局作废"
            self.void = True
            self._phase = DONE
            self.events.append(T("gouji.line.void", seats=" ".join(str(s + 1) for s in revolts)))
            self._outcome = Outcome(points=(0,) * SEATS, scores=(0,) * SEATS,
                                    lines=(T("gouji.line.void", seats=" ".join(
                                        str(s + 1) for s in revolts)),))
            self._carry = self._next_carry_void()
            return
        if revolts:
            r = revolts[0]
            self.revolutionary = r
            self.status[r] = T("gouji.status.revolt")
            self.kaidian.add(opposite(r))  # 革命算自动认点: 对家开点
            self._phase = HEAD
            return
        self._start_play()

    def _start_play(self) -> None:
        self._phase = PLAY
        self.mode = "lead"
        if not self.active(self.leader):
            self.leader = self._next_active(self.leader)
        self.turn = self.leader

    def _read_cards(self, seat: int, body: str, text: str) -> tuple[Counts, Play]:
        cards = parse_cards(body, DECKS)
        hand = self.hands[seat]
        if not contains(hand, cards):
            raise not_held(seat, text, hand, cards)
        p = read(cards)
        if p is None:
            raise IllegalActionError(
                f"{format_cards(cards)} is not one rank (2s and jokers may join a rank)",
                seat=seat, action=text, text=T("err.gouji.no_play", cards=format_cards(cards)))
        if self.beisan and cards[THREE] and (cards != hand or cards[TWO] or cards[SMALL]
                                              or cards[BIG]):
            raise IllegalActionError(
                "憋3: the 3s go out last, all together, with no 2 or joker", seat=seat,
                action=text, text=T("err.gouji.beisan"))
        top = self.top
        if self.mode != "lead" and top is not None and not beats(p, top.play, self.big_top):
            raise IllegalActionError(
                f"{format_cards(cards)} does not beat {format_cards(top.cards)}", seat=seat,
                action=text, text=T("err.gouji.no_beat", cards=format_cards(cards),
                                    table=format_cards(top.cards), n=top.play.n))
        return cards, p

    def _open_point(self, top: Top) -> None:
        """开点: a 够级牌 that nobody answered (not 花 plays, a single 2, nor in 新够级 贴钱
        plays or plays after 乱缠)."""
        p = top.play
        if not top.gouji or p.jokers or (p.n == 1 and p.main == TWO):
            return
        if self.opts["kaidian"] == "new" and (p.money or self.luanchan()):
            return
        if top.owner not in self.kaidian:
            self.kaidian.add(top.owner)
            self.events.append(T("gouji.event.kaidian", seat=top.owner + 1))

    def _may_answer(self, seat: int) -> bool:
        if not self.active(seat) or seat in self.passed_now:
            return False
        if seat not in self.passed_round:
            return True
        assert self.top is not None
        if self.luanchan():
            return self.opts["pass_reentry"] == "classic" or seat not in self.reentered
        # 000/001-够级: after passing, only the 对头's play may be beaten again
        return self.opts["pass_reentry"] == "classic" and self.top.owner == opposite(seat)

    def _pass_turn(self, seat: int) -> None:
        self.passed_now.add(seat)
        self.passed_round.add(seat)
        self.status[seat] = T("gouji.status.pass")
        self.rounds.pass_(seat)
        self.round_suited.append(None)
        if self.rang_by == seat:
            self.rang_by = None
        self._next_turn(seat)

    def _next_turn(self, cur: int) -> None:
        top = self.top
        assert top is not None
        owner = top.owner
        s = cur
        for _ in range(SEATS):
            s = (s + 1) % SEATS
            if s == owner:
                break
            if s != self.rang_by and self._may_answer(s):
                self.turn = s
                return
        if self.rang_by is not None and not self.rang_asked and self.active(self.rang_by):
            self.turn = self.rang_by  # both seats after the 让牌 seat passed: it decides now
            self.rang_asked = True
            self.second_used = True
            return
        o = opposite(owner)
        if (not self.luanchan() and o in self.passed_now and not self.second_used
                and self.active(o) and self.rang_by != o):
            # the 对家's play that nobody else beat may be beaten after all (001 过牌 (1))
            self.second_used = True
            self.passed_now.discard(o)
            self.turn = o
            return
        if top.gouji:
            self._open_point(top)
        self._end_round(owner)

    def _end_round(self, leader: int) -> None:
        if self._phase != PLAY:
            return
        if not self.active(leader):
            leader = self._next_active(leader)
        self.rounds.close(None if self.top is None else self.top.owner)
        if self.round_suited:
            self.last_suited = tuple(self.round_suited)
        self.round_suited = []
        self.top = None
        self.mode = "lead"
        self.turn = leader
        self.passed_round = set()
        self.passed_now = set()
        self.reentered = set()
        self.second_used = False
        self.rang_by = None
        self.rang_asked = False
        self.status = {s: v for s, v in self.status.items()
                       if s in self.finished or s in self.failed or s == self.revolutionary}

    def _play(self, seat: int, cards: Counts, p: Play, *, via_burn: bool = False,
              restricted: bool = False) -> None:
        prev = self.top
        lead = self.mode == "lead"
        self.played = True
        if seat in self.passed_round:
            self.reentered.add(seat)
        if prev is not None and prev.owner != seat:
            if self.men_watch[prev.owner]:
                self.men.append((prev.owner, seat))  # 被闷: the hand before the 3s was beaten
                self.events.append(T("gouji.event.men", seat=prev.owner + 1, by=seat + 1))
                self.men_watch[prev.owner] = False
            if self.burn is not None and self.burn[0] == prev.owner and not via_burn:
                self.events.append(T("gouji.event.jieshao", seat=prev.owner + 1))
                self.burn = None
            if (prev.final and prev.gouji and prev.owner in self.finished[:2]
                    and seat == opposite(prev.owner) and not via_burn):
                self.dead_left[seat] += 1  # the 对头 beat a 科's 够级 底牌: one 够死级
        rest = minus(self.hands[seat], cards)
        suited = None if self.suits is None else self.suits.take(seat, cards)
        # 烧失败: while burning, a lead without 花 that is not the last
        failed = (self.burn is not None and self.burn[0] == seat and lead and not via_burn
                  and not p.jokers and any(rest))
        self.hands[seat] = rest
        self.men_watch[seat] = (self.beisan and any(rest)
                                and sum(rest) == rest[THREE])
        gouji = is_gouji(p)
        dead = False
        if gouji and self.dead_left[seat] and not self.luanchan():
            dead = True
            self.dead_left[seat] -= 1
            if self.yaotou == seat and self.dead_left[seat] == 0:
                self.wutou[seat] = True  # 三次够死级之后算无头
        self.top = Top(seat, cards, p, gouji, dead=dead, restricted=restricted,
                       final=not any(rest), suited=suited)
        self.passed_now = set()
        self.second_used = False
        if self.rang_by is not None and self.rang_by != seat:
            self.passed_round.add(self.rang_by)
        self.rang_by = None
        self.rang_asked = False
        self.status[seat] = T("gouji.status.played", cards=format_cards(cards))
        # what the table should know of the play, the weightiest one: 烧失败, 烧牌, 够死级 (no
        # answer but a 烧), 够级 (a window for the 对头 and the burners)
        note = (T("gouji.note.shao_fail") if failed else T("gouji.note.burn") if via_burn
                else T("gouji.tag.dead") if dead else T("gouji.tag.gouji") if gouji else None)
        self.rounds.play(seat, format_cards(cards), note)
        self.round_suited.append(suited)
        if failed:
            assert self.burn is not None
            self.failed.append(seat)
            self.events.append(T("gouji.event.shao_fail", seat=seat + 1))
            self.status[seat] = T("gouji.status.failed", cards=format_cards(cards))
            self.burn = None
        elif not any(rest):
            self.finished.append(seat)
            self.status[seat] = T("gouji.status.out", place=len(self.finished),
                                  cards=format_cards(cards))
            if self.burn is not None and self.burn[0] == seat:
                self.shao.append((self.burn[1], seat))
                self.events.append(T("gouji.event.shao_ok", seat=seat + 1,
                                     victim=self.burn[1] + 1))
                self.burn = None
            if self.opts["wutou_after_ke"] and len(self.finished) <= 2:
                self.wutou[opposite(seat)] = True  # 新够级: a 科's 对家 is 无头
        if len(self.actives()) <= 1:
            self._finish()
            return
        self.events = self.events[-3:]
        self._respond(seat)

    def _respond(self, seat: int) -> None:
        """Who answers the play just made: nobody (挂大花), the 够级 window, or turn by turn."""
        top = self.top
        assert top is not None
        if self.big_top and top.play.big_flower:
            self._end_round(seat)  # 新够级: "挂大花的牌为最大牌，直接开始下一轮发牌"
            return
        if self.luanchan() or not (top.gouji or top.restricted) or (
                self.wutou[seat] and not top.dead and not top.restricted):
            self.mode = "turn"
            self._next_turn(seat)
            return
        seats: dict[int, str] = {}
        o = opposite(seat)
        if not top.dead and self.active(o):
            seats[o] = "beat"
        if not top.dead and not top.restricted:
            for s in self.actives():
                if s not in (seat, o) and self.wutou[s]:
                    seats[s] = "beat"
        if not top.restricted:
            for s in self.actives():
                if s != seat and s not in seats and burns_any(self.hands[s], top.play,
                                                              self.beisan, self.big_top):
                    seats[s] = "burn"
        if not seats:
            self._open_point(top)
            leader = seat
            if self.opts["new_round_leader"] == "duitou" and self.active(o):
                leader = o
            self._end_round(leader)
            return
        self.mode = "window"
        self.window_seats = seats
        self.window_answers = {}
        self.window_start += 1
