"""对局: one game of 五子棋 as an ``engines.base.Game``.

Seats 0 and 1; ``Setup.carry["black"]`` names the seat that starts with black (default 0).
The three room modes of seed 000 are the options ``forbidden`` (禁手 for black) and
``opening``: ``standard``, ``swap3`` (三手交换: after the 3rd stone, white may swap colours)
or ``five2`` (五手两打: black offers two 5th moves, white picks one).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum
from functools import lru_cache
from typing import Any

from engines.base import Board, Choice, Game, Outcome, SeatView, Setup, T, Text, View
from engines.errors import IllegalActionError, OptionError
from engines.gomoku import ai
from engines.gomoku.notation import POINTS, SIZE, Action, Kind, point, point_name
from engines.gomoku.rules import BLACK, EMPTY, WHITE, Forbidden, Position
from engines.gomoku.scoring import draw_change, win_change

DEFAULT_OPTIONS: dict[str, Any] = {"forbidden": True, "opening": "standard"}


class Opening(Enum):
    """开局规则: how the first moves are played."""

    STANDARD = "standard"
    SWAP3 = "swap3"  # 三手交换
    FIVE2 = "five2"  # 五手两打


class Phase(Enum):
    MOVE = "move"
    SWAP = "swap"
    OFFER = "offer"
    CHOOSE = "choose"
    OVER = "over"


class Reason(Enum):
    FIVE = "five"
    FORBIDDEN = "forbidden"
    RESIGN = "resign"
    ESCAPE = "escape"
    DRAW = "draw"


@dataclass(frozen=True)
class Result:
    """How the game ended: ``winner`` seat (None for a draw) and why."""

    winner: int | None
    reason: Reason
    loser_colour: int | None = None
    shape: Forbidden | None = None
    point: int | None = None


def _colour_text(colour: int) -> Text:
    return T("gomoku.colour.black" if colour == BLACK else "gomoku.colour.white")


@lru_cache(maxsize=1)
def _symmetries() -> tuple[tuple[int, ...], ...]:
    """The 8 symmetries of the square board about H8, as point permutations."""
    n = SIZE - 1

    def image(k: int, c: int, r: int) -> int:
        if k & 4:  # reflect in the main diagonal first
            c, r = r, c
        if k & 1:
            c = n - c
        if k & 2:
            r = n - r
        return point(c, r)

    return tuple(tuple(image(k, p % SIZE, p // SIZE) for p in range(POINTS)) for k in range(8))


class GomokuGame(Game):
    """五子棋: 15 × 15, black first, five in a row wins; 禁手 for black if the room says so."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        options = {**DEFAULT_OPTIONS, **dict(setup.options)}
        self.check_options(options)
        self.opening = Opening(options["opening"])
        self.forbidden_rule: bool = options["forbidden"]
        self.rules = ai.Rules(self.forbidden_rule)
        black = setup.carry.get("black", 0)
        if black not in (0, 1):
            raise OptionError(
                "black", "the seat holding black is 0 or 1", text=T("err.gomoku.option_black")
            )
        self.first_black: int = int(black)
        self.black_seat: int = self.first_black
        self.pos = Position()
        self.moves: list[int] = []
        self.last_by: int | None = None  # the seat that placed the last stone
        self.swap_decided = False
        self.swapped = False
        self.offers: tuple[int, int] | None = None
        self.result: Result | None = None

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """``forbidden`` (禁手) true or false; ``opening`` one of ``Opening``; no other key.
        Raises OptionError naming the option."""
        for key in options:
            if key not in DEFAULT_OPTIONS:
                raise OptionError(
                    key,
                    "unknown option for gomoku",
                    text=T("err.base.option_unknown", option=key, game="Gomoku"),
                )
        forbidden = options.get("forbidden", DEFAULT_OPTIONS["forbidden"])
        if not isinstance(forbidden, bool):
            raise OptionError(
                "forbidden",
                "expected true or false",
                text=T(
                    "err.base.option_type",
                    option="forbidden",
                    type=T("err.base.type.bool"),
                    value=repr(forbidden),
                ),
            )
        opening = options.get("opening", DEFAULT_OPTIONS["opening"])
        if not isinstance(opening, str) or opening not in {o.value for o in Opening}:
            raise OptionError(
                "opening",
                "expected one of standard, swap3, five2",
                text=T("err.gomoku.option_opening", value=repr(opening)),
            )

    # --- state ----------------------------------------------------------------------------
    def colour_to_move(self) -> int:
        """The colour of the next stone (black on even move counts)."""
        return BLACK if len(self.moves) % 2 == 0 else WHITE

    def seat_of(self, colour: int) -> int:
        return self.black_seat if colour == BLACK else 1 - self.black_seat

    def colour_of(self, seat: int) -> int:
        return BLACK if seat == self.black_seat else WHITE

    def _phase(self) -> Phase:
        if self.result is not None:
            return Phase.OVER
        if self.opening is Opening.SWAP3 and len(self.moves) == 3 and not self.swap_decided:
            return Phase.SWAP
        if self.offers is not None:
            return Phase.CHOOSE
        if self.opening is Opening.FIVE2 and len(self.moves) == 4:
            return Phase.OFFER
        return Phase.MOVE

    def phase(self) -> str:
        return self._phase().value

    def turn_seats(self) -> tuple[int, ...]:
        ph = self._phase()
        if ph is Phase.OVER:
            return ()
        if ph in (Phase.SWAP, Phase.CHOOSE):
            return (self.seat_of(WHITE),)
        return (self.seat_of(self.colour_to_move()),)

    def is_over(self) -> bool:
        return self.result is not None

    def distinct_offers(self, a: int, b: int) -> bool:
        """五手两打: two offered points must not be mirror images on this position."""
        return a != b and all(sym[a] != b for sym in self._fixing_symmetries())

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        ph = self._phase()
        if ph is Phase.SWAP:
            return ["swap", "keep", "resign"]
        if ph is Phase.CHOOSE:
            assert self.offers is not None
            return [str(Action(Kind.CHOOSE, (p,))) for p in self.offers] + ["resign"]
        empty = sorted(self.pos.empty_points(), key=lambda p: (p % SIZE, p // SIZE))
        if ph is Phase.OFFER:
            fixing = self._fixing_symmetries()
            names = [point_name(p) for p in empty]
            out: list[str] = []
            for i, a in enumerate(empty):
                images = {sym[a] for sym in fixing}
                head = f"offer {names[i]} "
                out.extend(
                    head + names[j] for j in range(i + 1, len(empty)) if empty[j] not in images
                )
            return out + ["resign"]
        return [point_name(p) for p in empty] + ["resign"]

    def _fixing_symmetries(self) -> list[tuple[int, ...]]:
        """The board symmetries (other than the identity) that map the position onto itself."""
        cells = self.pos.cells
        return [s for s in _symmetries()[1:] if all(cells[s[p]] == cells[p] for p in range(POINTS))]

    # --- actions --------------------------------------------------------------------------
    def _apply(self, seat: int, text: str) -> str:
        action = Action.parse(text)
        ph = self._phase()
        if action.kind is Kind.RESIGN:
            self.result = Result(1 - seat, Reason.RESIGN, loser_colour=self.colour_of(seat))
            return str(action)
        if ph is Phase.SWAP:
            if action.kind not in (Kind.SWAP, Kind.KEEP):
                raise IllegalActionError(
                    "after the 3rd stone White first decides: swap or keep",
                    seat=seat,
                    action=text,
                    text=T("err.gomoku.swap_first"),
                )
            self.swap_decided = True
            if action.kind is Kind.SWAP:
                self.swapped = True
                self.black_seat = 1 - self.black_seat
            return str(action)
        if ph is Phase.OFFER:
            if action.kind is not Kind.OFFER:
                raise IllegalActionError(
                    "move 5 is offered as two points, e.g. offer H8 J9",
                    seat=seat,
                    action=text,
                    text=T("err.gomoku.offer_two"),
                )
            a, b = action.points
            for p in (a, b):
                self._check_empty(p, seat, text)
            if not self.distinct_offers(a, b):
                raise IllegalActionError(
                    "the two offered points are mirror images of each other; offer two "
                    "different-looking moves",
                    seat=seat,
                    action=text,
                    text=T("err.gomoku.offer_mirror", a=point_name(a), b=point_name(b)),
                )
            self.offers = (a, b)
            return str(action)
        if ph is Phase.CHOOSE:
            assert self.offers is not None
            if action.kind not in (Kind.CHOOSE, Kind.MOVE):
                raise IllegalActionError(
                    "pick one of the two offered 5th moves",
                    seat=seat,
                    action=text,
                    text=T("err.gomoku.choose_one"),
                )
            (p,) = action.points
            if p not in self.offers:
                one, other = (point_name(q) for q in self.offers)
                raise IllegalActionError(
                    f"pick {one} or {other}",
                    seat=seat,
                    action=text,
                    text=T("err.gomoku.choose_which", a=one, b=other),
                )
            self.offers = None
            self._place(p)
            return str(Action(Kind.CHOOSE, (p,)))
        if action.kind is not Kind.MOVE:
            raise IllegalActionError(
                "place a stone by its point, e.g. H8",
                seat=seat,
                action=text,
                text=T("err.gomoku.place"),
            )
        (p,) = action.points
        self._check_empty(p, seat, text)
        self._place(p)
        return str(action)

    def _check_empty(self, p: int, seat: int, text: str) -> None:
        if self.pos.cells[p] != EMPTY:
            raise IllegalActionError(
                f"{point_name(p)} is already taken",
                seat=seat,
                action=text,
                text=T("err.gomoku.taken", point=point_name(p)),
            )

    def _place(self, p: int) -> None:
        """Put the next stone at empty ``p`` and referee it."""
        colour = self.colour_to_move()
        exact = self.rules.exact(colour)
        shape = self.pos.forbidden(p) if exact else None
        self.pos.cells[p] = colour
        self.moves.append(p)
        self.last_by = self.seat_of(colour)
        if shape is not None:
            # 禁手: the referee points it out at once and black loses.
            self.result = Result(self.seat_of(WHITE), Reason.FORBIDDEN, BLACK, shape=shape, point=p)
        elif self.pos.has_five_at(p, colour, exact):
            self.result = Result(self.seat_of(colour), Reason.FIVE, other_colour(colour), point=p)
        elif self.pos.is_full() or not (
            self.pos.can_still_five(BLACK, self.rules.exact(BLACK))
            or self.pos.can_still_five(WHITE, False)
        ):
            # 和棋: neither side can make five any more.
            self.result = Result(None, Reason.DRAW)

    def _on_escape(self, seat: int) -> None:
        # 一方自行终止比赛，判负.
        self.result = Result(1 - seat, Reason.ESCAPE, loser_colour=self.colour_of(seat))

    # --- trustee --------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        ph = self._phase()
        if ph is Phase.SWAP:
            return "swap" if ai.wants_swap(self.pos) else "keep"
        if ph is Phase.OFFER:
            a, b = ai.choose_offer(self.pos.copy(), self.rules, self.distinct_offers)
            return str(Action.parse(f"offer {point_name(a)} {point_name(b)}"))
        if ph is Phase.CHOOSE:
            assert self.offers is not None
            return str(Action(Kind.CHOOSE, (ai.choose_offered(self.pos.copy(), self.offers),)))
        return point_name(ai.choose_move(self.pos.copy(), self.colour_to_move(), self.rules))

    # --- result ---------------------------------------------------------------------------
    def outcome(self) -> Outcome:
        if self.result is None:
            raise IllegalActionError("the game is not over", text=T("err.base.not_over"))
        ratings = tuple(self.setup.ratings) + (0, 0)
        r0, r1 = int(ratings[0]), int(ratings[1])
        res = self.result
        if res.winner is None:
            return Outcome(points=(0, 0), scores=draw_change(r0, r1), lines=self._result_lines())
        w = res.winner
        gain, loss = win_change((r0, r1)[w], (r0, r1)[1 - w])
        scores = (gain, loss) if w == 0 else (loss, gain)
        points = (1, -1) if w == 0 else (-1, 1)
        return Outcome(points=points, scores=scores, lines=self._result_lines(), winners=(w,))

    def _result_lines(self) -> tuple[Text, ...]:
        res = self.result
        if res is None:
            return ()
        if res.reason is Reason.DRAW:
            return (T("gomoku.result.draw"),)
        if res.reason is Reason.FIVE:
            assert res.winner is not None
            return (T("gomoku.result.five", colour=_colour_text(self.colour_of(res.winner))),)
        if res.reason is Reason.FORBIDDEN:
            assert res.shape is not None and res.point is not None
            return (
                T(
                    "gomoku.result.forbidden",
                    point=point_name(res.point),
                    shape=T(f"gomoku.shape.{res.shape.value}"),
                ),
            )
        assert res.loser_colour is not None
        return (T(f"gomoku.result.{res.reason.value}", colour=_colour_text(res.loser_colour)),)

    def next_carry(self) -> dict[str, Any]:
        """The next game at the table: the other seat starts with black (轮流执黑)."""
        return {"black": 1 - self.first_black}

    # --- views ----------------------------------------------------------------------------
    def board(self) -> Board:
        """The public board: stones (0 black, 1 white), last stone, marks.

        Marks: ``×`` on a 禁手 stone, ``5`` on each offered 5th move.
        """
        stones = {point_name(p): self.pos.cells[p] - 1 for p in self.moves}
        marks: dict[str, str] = {}
        if self.result is not None and self.result.reason is Reason.FORBIDDEN:
            assert self.result.point is not None
            marks[point_name(self.result.point)] = "×"
        if self.offers is not None:
            for p in self.offers:
                marks[point_name(p)] = "5"
        last = point_name(self.moves[-1]) if self.moves else None
        return Board(size=SIZE, stones=stones, last=last, marks=marks)

    def view(self, seat: int | None) -> View:
        ph = self._phase()
        if ph is Phase.MOVE:
            phase = T("gomoku.phase.move", colour=_colour_text(self.colour_to_move()))
        else:
            phase = T(f"gomoku.phase.{ph.value}")
        acting = self.to_act()
        seats = []
        for s in range(2):
            colour = self.colour_of(s)
            role = T("gomoku.role.black" if colour == BLACK else "gomoku.role.white")
            status: Text | None = None
            if s in self.escaped:
                status = T("gomoku.status.escaped")
            elif self.result is not None:
                key = (
                    "draw"
                    if self.result.winner is None
                    else "won"
                    if self.result.winner == s
                    else "lost"
                )
                status = T(f"gomoku.status.{key}")
            elif s in acting:
                status = T("gomoku.status.thinking")
            elif s == self.last_by and self.moves:
                # the stone this seat just placed, so a play between two turns can be told
                status = T("gomoku.status.placed", point=point_name(self.moves[-1]))
            seats.append(SeatView(role=role, status=status))
        lines: list[Text] = [
            T(
                "gomoku.line.mode",
                forbidden=T(
                    "gomoku.forbidden.on" if self.forbidden_rule else "gomoku.forbidden.off"
                ),
                opening=T(f"gomoku.opening.{self.opening.value}"),
            ),
            T("gomoku.line.moves", n=len(self.moves)),
        ]
        if self.moves:
            lines.append(T("gomoku.line.last", point=point_name(self.moves[-1])))
        if self.swap_decided:
            lines.append(T("gomoku.line.swapped" if self.swapped else "gomoku.line.kept"))
        if self.offers is not None:
            a, b = (point_name(p) for p in self.offers)
            lines.append(T("gomoku.line.offers", a=a, b=b))
        if ph is Phase.MOVE:
            lines.append(T("gomoku.line.turn", colour=_colour_text(self.colour_to_move())))
        lines.extend(self._result_lines())
        return View(phase=phase, seats=tuple(seats), lines=tuple(lines), board=self.board())

    def choices(self, seat: int) -> list[Choice]:
        """Buttons: swap / keep after the 3rd stone; the two offered points to pick from."""
        if seat not in self.to_act():
            return []
        ph = self._phase()
        if ph is Phase.SWAP:
            return [
                Choice("swap", T("gomoku.choice.swap"), "primary"),
                Choice("keep", T("gomoku.choice.keep")),
            ]
        if ph is Phase.CHOOSE:
            assert self.offers is not None
            return [
                Choice(
                    str(Action(Kind.CHOOSE, (p,))),
                    T("gomoku.choice.choose", point=point_name(p)),
                    "primary",
                )
                for p in self.offers
            ]
        return []


def other_colour(colour: int) -> int:
    return BLACK + WHITE - colour
