"""够级 windows: the 够级牌 window (the 对头 beats, the others may 烧) and the 宣点 window, as
``Window`` values; the answers and how a window resolves.
"""

from __future__ import annotations

from engines.base import T, Window
from engines.climbing.notation import PASS, format_cards, is_pass, parse_cards
from engines.errors import IllegalActionError
from engines.gouji.patterns import burnable, read
from engines.gouji.plays import GoujiPlays
from engines.gouji.state import DECKS, DECLARE, DECLARE_KEY, PLAY, SEATS, alliance, opposite


class GoujiWindows(GoujiPlays):
    """The decision windows (宣点, 够级牌's beat/烧) and how a 够级 window resolves."""

    def decision(self) -> Window | None:
        """宣点 is answered privately by all (a public 革命 button would tell that some hand
        holds no 2 and no joker) and lapses to no, no miss. In a 够级 window the seats that
        may beat show and answer as on a turn; 烧 claims are private and lapse to no, no
        miss. Each window has one deadline."""
        if self._phase == DECLARE:
            return Window(tuple(s for s in range(SEATS) if s not in self.answers), private=True,
                          key=DECLARE_KEY, timeout="nodeclare", miss=False)
        if self._phase == PLAY and self.mode == "window":
            seats = self.window_seats
            return Window.claims(tuple(sorted(seats)), self.window_start, self.window_answers,
                                 seats, shown=tuple(s for s in seats if seats[s] == "beat"))
        return None

    def _answer_window(self, seat: int, word: str, text: str) -> str:
        assert self.top is not None
        role = self.window_seats[seat]
        if is_pass(word):
            self.window_answers[seat] = PASS
            self._maybe_resolve()
            return PASS
        if role == "burn":
            body = word.removeprefix("burn").removeprefix("烧牌").removeprefix("烧")
            if body == word:
                raise IllegalActionError(
                    "only the 对头 may beat a 够级牌: claim a burn (burn <cards>) or pass",
                    seat=seat, action=text, text=T("err.gouji.only_duitou"))
            cards, _ = self._read_cards(seat, body, text)
            if cards not in burnable(self.hands[seat], self.top.play, self.beisan,
                                     self.big_top):
                raise IllegalActionError(
                    "after this play the rest cannot be led out with a joker in every lead",
                    seat=seat, action=text,
                    text=T("err.gouji.burn_condition", cards=format_cards(cards)))
            canonical = "burn " + format_cards(cards)
        else:
            if word.startswith(("burn", "烧")):
                raise IllegalActionError("you may simply beat it", seat=seat, action=text,
                                         text=T("err.gouji.no_burn_now"))
            cards, _ = self._read_cards(seat, text, text)
            canonical = format_cards(cards)
        self.window_answers[seat] = canonical
        self._maybe_resolve()
        return canonical

    def _maybe_resolve(self) -> None:
        if any(s not in self.window_answers for s in self.window_seats):
            return
        top = self.top
        assert top is not None
        owner = top.owner
        answers = self.window_answers
        burns = sorted((s for s, a in answers.items() if a.startswith("burn ")),
                       key=lambda s: (alliance(s) != alliance(owner), (s - owner) % SEATS))
        beaters = sorted((s for s, a in answers.items()
                          if self.window_seats[s] == "beat" and a != PASS),
                         key=lambda s: (s != opposite(owner), (s - owner) % SEATS))
        # only the passes of seats that could beat it are told: who could have burnt is not
        for s in sorted(answers, key=lambda s: (s - owner) % SEATS):
            if self.window_seats[s] == "beat" and answers[s] == PASS:
                self.passed_now.add(s)
                self.passed_round.add(s)
                self.status[s] = T("gouji.status.pass")
                self.rounds.pass_(s)
                self.round_suited.append(None)
        self.mode = "turn"
        self.window_seats = {}
        self.window_answers = {}
        if burns:
            burner = burns[0]
            cards = parse_cards(answers[burner][5:], DECKS)
            p = read(cards)
            assert p is not None
            if self.burn is not None:
                self.events.append(T("gouji.event.jieshao", seat=self.burn[0] + 1))
            self.burn = (burner, owner)
            self.events.append(Window.took(burner, T("gouji.took.burn", victim=owner + 1)))
            self._play(burner, cards, p, via_burn=True)
            return
        if beaters:
            s = beaters[0]
            cards = parse_cards(answers[s], DECKS)
            p = read(cards)
            assert p is not None
            self._play(s, cards, p)
            return
        # nobody answered the 够级牌: a new round
        self._open_point(top)
        leader = owner
        if self.opts["new_round_leader"] == "duitou" and self.active(opposite(owner)):
            leader = opposite(owner)  # 000/001-够级: "由对头发牌"
        self._end_round(leader)
