"""百变双扣 (002): four seats, partners opposite, two decks, the 大王 wild, stars and 接风.

Rules and decisions: docs/games/shuangkou.md.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import (
    Choice,
    Game,
    Outcome,
    Picker,
    RoundLog,
    SeatView,
    Setup,
    T,
    Text,
    Transfer,
    View,
    net_points,
)
from engines.climbing.notation import (
    BIG,
    NRANKS,
    PASS,
    Counts,
    contains,
    counts,
    deal_ranks,
    format_cards,
    is_pass,
    minus,
    not_held,
    parse_cards,
    picker_tokens,
)
from engines.errors import IllegalActionError, OptionError
from engines.shuangkou import ai
from engines.shuangkou.patterns import (
    NAT,
    Pattern,
    beats,
    beats_any,
    best_stars,
    play_text,
    plays,
    readings,
)

PLAY, DONE = "play", "done"
DECKS, SEATS, EACH = 2, 4, 27
DEFAULTS: dict[str, Any] = {"base": 1}
MAX_BASE = 1_000_000
"""The largest 底注分 a room may set (points per 基础分)."""

RESULT_BASE = {"double": 3, "single": 2, "even": 1}
"""双扣 3, 单扣 2, 平扣 1 基础分 to each winner (002 积分计算)."""


def team(seat: int) -> int:
    """Seats 0 and 2 are team 0, seats 1 and 3 team 1 (对家 are partners)."""
    return seat % 2


def star_multiplier(stars: int) -> int:
    """星级翻倍 of the winning side: 5★ ×2, 6★ ×4, 7★ ×8, 8★ and more ×16 (9★, 10★ "按八星
    计算"; 11★ likewise, our reading).

    >>> [3 * star_multiplier(s) for s in (4, 5, 6, 7, 8, 11)]
    [3, 6, 12, 24, 48, 48]
    """
    return 1 if stars < 5 else 2 ** (min(stars, 8) - 4)


def contribution(stars: int) -> int:
    """贡献: what each other seat pays a holder of ``stars`` (6★ 2 … 11★ 64 基础分), else 0.

    >>> [contribution(s) for s in (5, 6, 7, 8, 9, 10, 11)]
    [0, 2, 4, 8, 16, 32, 64]
    """
    return 0 if stars < 6 else 2 ** (stars - 5)


class ShuangkouGame(Game):
    """百变双扣. Option ``base`` (底注分): points per 基础分 (1)."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        opts = {**DEFAULTS, **dict(setup.options)}
        self.check_options(opts)
        self.base: int = opts["base"]
        rng = random.Random(setup.seed)
        self.hands: list[Counts] = [counts(h) for h in deal_ranks(rng, DECKS, SEATS, EACH)]
        self.dealt: tuple[Counts, ...] = tuple(self.hands)
        self.stars: tuple[int, ...] = tuple(best_stars(h) for h in self.hands)
        """The most stars of any bomb each seat's dealt cards could form (a deal fact only:
        points count ``played_stars``)."""
        self.dealer = rng.randrange(SEATS)
        self._init_play(self.dealer)

    def _init_play(self, leader: int) -> None:
        self.turn = leader
        self.table: tuple[int, Counts, Pattern] | None = None
        self.passed: set[int] = set()
        self.rounds = RoundLog()
        self.status: dict[int, Text] = {}
        self.finished: list[int] = []
        self.played_stars: tuple[int, ...] = (0,) * SEATS
        """星级 as played: the most stars of any bomb each seat has played this hand."""
        self.jiefeng: int | None = None
        self._phase = PLAY
        self._outcome: Outcome | None = None

    @classmethod
    def position(cls, hands: Sequence[str], *, leader: int = 0, base: int = 1) -> ShuangkouGame:
        """A game from written hands (tests and examples): ``hands`` in notation, any sizes."""
        game = cls(Setup(seats=SEATS, seed=0, options={"base": base}))
        game.hands = [parse_cards(h, DECKS) if h else (0,) * NRANKS for h in hands]
        game.dealt = tuple(game.hands)
        game.stars = tuple(best_stars(h) for h in game.hands)
        game.dealer = leader
        game._init_play(leader)
        return game

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        base = options.get("base", 1)
        if not isinstance(base, int) or isinstance(base, bool) or not 1 <= base <= MAX_BASE:
            raise OptionError("base", f"must be a whole number from 1 to {MAX_BASE}",
                              text=T("err.shuangkou.option_base", max=MAX_BASE))

    # --- turns ----------------------------------------------------------------------------------
    def phase(self) -> str:
        return self._phase

    def is_over(self) -> bool:
        return self._phase == DONE

    def turn_seats(self) -> tuple[int, ...]:
        return () if self._phase == DONE else (self.turn,)

    def active(self) -> list[int]:
        """Seats still holding cards, in seat order."""
        return [s for s in range(SEATS) if s not in self.finished]

    def lead(self) -> Pattern | None:
        """The pattern to beat, or None when the seat to act leads."""
        return None if self.table is None else self.table[2]

    def legal_actions(self, seat: int) -> list[str]:
        """Every play (with its reading where a 大王 is wild) and ``pass`` when following."""
        if seat not in self.to_act():
            return []
        out = [play_text(c, p) for c, p in plays(self.hands[seat], self.lead())]
        if self.table is not None:
            out.append(PASS)
        return out

    def forced_action(self, seat: int) -> str | None:
        """``pass`` when following and nothing held beats the table: found without listing
        the plays."""
        lead = self.lead()
        if lead is None or seat not in self.to_act():
            return None
        return None if beats_any(self.hands[seat], lead) else PASS

    def _apply(self, seat: int, text: str) -> str:
        if is_pass(text):
            if self.table is None:
                raise IllegalActionError("you lead this round: play some cards", seat=seat,
                                         action=text, text=T("err.shuangkou.must_lead"))
            self._pass(seat)
            return PASS
        cards, pattern = self.read_play(seat, text)
        self._play(seat, cards, pattern)
        return play_text(cards, pattern)

    def read_play(self, seat: int, text: str) -> tuple[Counts, Pattern]:
        """Parse and check a play of ``seat``; the cards and the reading used.

        Raises NotationError or IllegalActionError (not held, no pattern, the reading does not
        fit the cards, does not beat the table)."""
        body, _, said = text.partition("=")
        cards = parse_cards(body, DECKS)
        if not contains(self.hands[seat], cards):
            raise not_held(seat, text, self.hands[seat], cards)
        options = readings(cards)
        if not options:
            raise IllegalActionError(
                f"{format_cards(cards)} is no pattern of 百变双扣", seat=seat, action=text,
                text=T("err.shuangkou.no_pattern", cards=format_cards(cards)))
        if said.strip():
            want = parse_cards(said, 4)
            options = tuple(p for p in options
                            if natural_key(want) == p.key() and fits(cards, want))
            if not options:
                raise IllegalActionError(
                    f"{format_cards(cards)} cannot be read as {format_cards(want)}", seat=seat,
                    action=text, text=T("err.shuangkou.reading", cards=format_cards(cards),
                                        reading=format_cards(want)))
        lead = self.lead()
        if lead is not None:
            good = [p for p in options if beats(p, lead)]
            if not good:
                assert self.table is not None
                shown = play_text(self.table[1], lead)
                if not options[0].bomb and (options[0].kind is not lead.kind
                                            or options[0].n != lead.n):
                    raise IllegalActionError(
                        f"{format_cards(cards)} is not the same pattern as {shown}", seat=seat,
                        action=text, text=T("err.shuangkou.shape", cards=format_cards(cards),
                                            table=shown, kind=T(f"shuangkou.kind.{lead.kind.value}"),
                                            n=lead.n))
                raise IllegalActionError(
                    f"{format_cards(cards)} does not beat {shown}", seat=seat, action=text,
                    text=T("err.shuangkou.no_beat", cards=format_cards(cards), table=shown))
            options = tuple(good)
        return cards, options[0]

    def _pass(self, seat: int) -> None:
        assert self.table is not None
        self.passed.add(seat)
        self.rounds.pass_(seat)
        self.status[seat] = T("shuangkou.status.pass")
        owner = self.table[0]
        if set(self.active()) - {owner} <= self.passed:
            # the round is over: its last player leads, or (接风) the partner of one who went out
            leader = owner
            if owner in self.finished:
                leader = (owner + 2) % SEATS
                self.jiefeng = leader
            self.table = None
            self.passed = set()
            self.rounds.close(owner)
            self.status = {}
            self.turn = leader
        else:
            self.turn = self._next(seat)

    def _next(self, seat: int) -> int:
        nxt = (seat + 1) % SEATS
        while nxt in self.finished:
            nxt = (nxt + 1) % SEATS
        return nxt

    def _play(self, seat: int, cards: Counts, pattern: Pattern) -> None:
        self.hands[seat] = minus(self.hands[seat], cards)
        self.table = (seat, cards, pattern)
        self.rounds.play(seat, play_text(cards, pattern))
        if pattern.stars > self.played_stars[seat]:
            # stars are for bombs as played: a 连炸 split into single bombs pays as those
            self.played_stars = tuple(pattern.stars if s == seat else n
                                      for s, n in enumerate(self.played_stars))
        self.passed = set()
        self.jiefeng = None
        self.status = {s: v for s, v in self.status.items() if s in self.finished}
        self.status[seat] = T("shuangkou.status.played", cards=play_text(cards, pattern),
                              kind=T(f"shuangkou.kind.{pattern.kind.value}"))
        if not any(self.hands[seat]):
            self.finished.append(seat)
            self.status[seat] = T("shuangkou.status.out", place=len(self.finished),
                                  cards=play_text(cards, pattern))
            if (seat + 2) % SEATS in self.finished:
                self._finish()
                return
        self.turn = self._next(seat)

    # --- the result -----------------------------------------------------------------------------
    def result_kind(self) -> str:
        """双扣 ("double"), 单扣 ("single") or 平扣 ("even"), from the order of going out."""
        first = self.finished[0]
        partner = (first + 2) % SEATS
        place = self.finished.index(partner) if partner in self.finished else 3
        return ("double", "single", "even")[place - 1]

    def _finish(self) -> None:
        self._phase = DONE
        first = self.finished[0]
        win = team(first)
        kind = self.result_kind()
        stars = max(self.played_stars[s] for s in range(SEATS) if team(s) == win)
        mult = star_multiplier(stars)
        each = RESULT_BASE[kind] * mult * self.base
        transfers: list[Transfer] = []
        reason = T(f"shuangkou.result.{kind}")
        for w in (first, (first + 2) % SEATS):
            transfers.append(Transfer((w + 1) % SEATS, w, each, reason))
        lines: list[Text] = [T("shuangkou.line.result", team=win + 1, kind=reason,
                               base=RESULT_BASE[kind])]
        if mult > 1:
            lines.append(T("shuangkou.line.doubled", stars=stars, mult=mult, points=each))
        for s in range(SEATS):
            played = self.played_stars[s]
            pay = contribution(played) * self.base
            if pay:
                why = T("shuangkou.reason.stars", stars=played)
                transfers.extend(Transfer(o, s, pay, why) for o in range(SEATS) if o != s)
                lines.append(T("shuangkou.line.contribution", seat=s + 1, stars=played,
                               points=pay))
        pts = net_points(SEATS, transfers)
        self._outcome = Outcome(points=pts, scores=pts, lines=tuple(lines),
                                winners=tuple(s for s in range(SEATS) if team(s) == win),
                                transfers=tuple(transfers))

    def outcome(self) -> Outcome:
        if self._outcome is None:
            raise IllegalActionError("the game is not over", text=T("err.base.not_over"))
        return self._outcome

    # --- trustee --------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: ``ai.choose``; always legal, never beats the partner's play."""
        return ai.choose(self, seat)

    # --- views ----------------------------------------------------------------------------------
    def view(self, seat: int | None) -> View:
        over = self._phase == DONE
        seats = []
        for s in range(SEATS):
            role = T("shuangkou.role.team", team=team(s) + 1)
            show = over or seat == s
            seats.append(SeatView(role=role, count=sum(self.hands[s]), status=self.status.get(s),
                                  cards=format_cards(self.hands[s]) if show else None))
        lines: list[Text] = []
        # what lies on the table: the round's plays, the top one last (View.round)
        if self.jiefeng is not None:
            lines.append(T("shuangkou.line.jiefeng", seat=self.jiefeng + 1))
        if self.finished:
            lines.append(T("shuangkou.line.order",
                           seats=" ".join(str(s + 1) for s in self.finished)))
        if over:
            lines.append(T("shuangkou.line.stars",
                           stars=" ".join(f"{s + 1}:{n}" for s, n in enumerate(self.played_stars))))
            lines.extend(self.outcome().lines)
        hand = format_cards(self.hands[seat]) if seat is not None else None
        return View(phase=self._phase_text(), seats=tuple(seats), lines=tuple(lines), hand=hand,
                    round=self.rounds.current(), last_round=self.rounds.last)

    def _phase_text(self) -> Text:
        if self._phase == DONE:
            return T("shuangkou.phase.done")
        if self.table is None:
            return T("shuangkou.phase.lead", seat=self.turn + 1)
        return T("shuangkou.phase.follow", seat=self.turn + 1)

    def choices(self, seat: int) -> list[Choice]:
        if seat not in self.to_act() or self.table is None:
            return []
        return [Choice(PASS, T("shuangkou.choice.pass"))]

    def picker(self, seat: int) -> Picker | None:
        """The seat's cards, one menu per run of ranks (each at most 25 cards); copies are
        told apart by ``#2`` … in their tokens. Shown all through play (the hand changes only
        when its seat plays)."""
        if self._phase != PLAY or not any(self.hands[seat]):
            return None
        tokens, labels, groups = picker_tokens(self.hands[seat])
        return Picker(tokens, labels, 1, len(tokens), "{}", " ", groups)


def natural_key(counts: Counts) -> tuple[object, ...] | None:
    """The comparison key of natural cards written as a reading (None if no pattern)."""
    from engines.shuangkou.patterns import natural

    if any(counts[NAT:]):
        return None
    p = natural(tuple(counts[:NAT]))
    return None if p is None else p.key()


def fits(cards: Counts, reading: Counts) -> bool:
    """True when ``reading`` is ``cards`` with each 大王 read as some natural card."""
    extra = [reading[r] - cards[r] for r in range(NAT)]
    return min(extra) >= 0 and sum(extra) == cards[BIG] and sum(reading) == sum(cards)


def max_loss(options: Mapping[str, Any], seats: int) -> int:
    """The most one seat can pay: 双扣 at 8★ (48) and a contribution of 64 to each of three
    holders (an upper bound; two decks cannot make three 11★ hands), times 底注分."""
    base = options.get("base", 1)
    return (3 * 16 + 3 * 64) * (base if isinstance(base, int) else 1)
