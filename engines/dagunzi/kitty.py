"""打滚子's kitty: 进贡 between the 庄 and its 上家 (and 还贡), the 庄 taking and burying the
kitty, the others burying jokers, and the start of play.
"""

from __future__ import annotations

from engines.base import T
from engines.dagunzi.rules import KITTY, PER, is_dry, tribute_count
from engines.dagunzi.state import BURY, JOKERS, PLAY, RETURN, DagunziState
from engines.errors import IllegalActionError
from engines.trick.cards import BIG, SMALL, format_ids, ids_of, points


class DagunziKitty(DagunziState):
    """进贡 and 还贡, the 庄's bury, the others' joker burying, and the start of play."""

    # --- 进贡 ----------------------------------------------------------------------------------
    def _start_tribute(self) -> None:
        assert self.dealer is not None
        first = self.setup.carry.get("dealer") is None
        side, n = tribute_count(self.last_score, self.last_jokers)
        upper = (self.dealer + 3) % 4
        payer, receiver = (upper, self.dealer) if side == "xian" else (self.dealer, upper)
        if not first and n > 0:
            if self.hands[payer][BIG] == 3:
                payer, receiver = receiver, payer  # three 大王: the tribute turns round
                self.tribute_note = T("dagunzi.line.tribute_flipped")
            elif self.hands[(payer + 2) % 4][BIG] == 3:
                self.tribute_note = T("dagunzi.line.tribute_none")
                n = 0
            if n > 0:
                n = min(n, PER // 2)
                best = sorted(ids_of(self.hands[payer]), key=self.ctx.sort_key, reverse=True)[:n]
                for cid in best:
                    self.hands[payer][cid] -= 1
                    self.hands[receiver][cid] += 1
                self.tribute = (payer, receiver, best)
                self._phase = RETURN
                return
        self._take_kitty()

    def _take_kitty(self) -> None:
        """The 庄 picks up the kitty. After a 亮主 it is shown as dealt first, and judged:
        干锅 when its cards other than jokers are all trumps or all side cards ("底牌没有公开
        （无人亮主）的情况不产生干锅")."""
        assert self.dealer is not None
        if self.declared:
            self.dealt_kitty = list(self.kitty)
            self.dry = is_dry(self.kitty, self.ctx)
        for cid in self.kitty:
            self.hands[self.dealer][cid] += 1
        self.kitty = []
        self._phase = BURY

    def _apply_return(self, seat: int, rest: str, text: str) -> str:
        ids = self._parse(rest)
        self._check_held(seat, ids, text)
        assert self.tribute is not None
        if self._return_problem(seat, ids):
            n = len(self.tribute[2])
            raise IllegalActionError(f"return {n} side cards without points", seat=seat,
                                     action=text, text=T("err.dagunzi.return_cards", n=n))
        payer = self.tribute[0]
        for cid in ids:
            self.hands[seat][cid] -= 1
            self.hands[payer][cid] += 1
        self.returned = list(ids)
        self._take_kitty()
        return "return " + format_ids(ids, self.ctx)

    def _apply_bury(self, seat: int, rest: str, text: str) -> str:
        ids = self._parse(rest)
        if len(ids) != KITTY:
            raise IllegalActionError(f"bury exactly {KITTY} cards", seat=seat, action=text,
                                     text=T("err.dagunzi.bury_count", n=KITTY, got=len(ids)))
        self._check_held(seat, ids, text)
        if self.dry and self.dealt_kitty is not None and sorted(ids) != sorted(self.dealt_kitty):
            # 干锅时底牌不能替换，也不能在底牌中扣王
            cards = format_ids(self.dealt_kitty, self.ctx)
            raise IllegalActionError("干锅: put the kitty back as dealt", seat=seat,
                                     action=text, text=T("err.dagunzi.dry_bury", cards=cards))
        if not self.dry and SMALL in ids and ids.count(BIG) < self.hands[seat][BIG]:
            raise IllegalActionError("bury your 大王 before any 小王", seat=seat, action=text,
                                     text=T("err.dagunzi.big_first"))
        for cid in ids:
            self.hands[seat][cid] -= 1
        self.kitty = list(ids)
        self.buried_by_dealer = list(ids)
        self.kitty_shown = self.dry or any(c >= SMALL for c in ids)
        self._phase = JOKERS
        if not self._open_claims():
            self._start_play()
        return "bury " + format_ids(ids, self.ctx)

    def _apply_jokers(self, seat: int, verb: str, rest: str, text: str) -> str:
        if verb == "pass":
            self.passed.add(seat)
        elif verb == "bury":
            ids = sorted(self._parse(rest))
            options = [sorted(o) for o in self._joker_options(seat)]
            if ids not in options:
                raise IllegalActionError("bury jokers only, 大王 before 小王", seat=seat,
                                         action=text, text=T("err.dagunzi.jokers_only"))
            for cid in ids:
                self.hands[seat][cid] -= 1
            back = sorted((c for c in self.kitty if c < SMALL and not points(c)),
                          key=self.ctx.sort_key)[: len(ids)]
            for cid in back:
                self.kitty.remove(cid)
                self.hands[seat][cid] += 1
            self.kitty += ids
            self.kitty_shown = True
            self.joker_buriers.append((seat, ids, back))
        else:
            raise IllegalActionError("bury jokers or pass", seat=seat, action=text,
                                     text=T("err.dagunzi.jokers_now"))
        if not self._eligible():
            self._start_play()
        return "pass" if verb == "pass" else "bury " + format_ids(ids)

    def _start_play(self) -> None:
        assert self.dealer is not None
        self._phase = PLAY
        self.turn = self.dealer
