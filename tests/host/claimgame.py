"""认牌: a small complete game with what mahjong asks of the host — private claim windows,
timeouts that are not misses, private hands that grow between turns, and pairwise payments.

Three seats. The seat in turn discards; the two others then decide at once and privately
whether to claim the discard (``claim``) or not (``pass``). Each claimer draws a tile and is
paid one point by the discarder. Then the next seat draws a tile and discards. Three discards
make a hand. Used by the host tests to drive the game interface through the real host.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import (
    Game,
    GameSpec,
    Outcome,
    SeatView,
    T,
    Transfer,
    View,
    Window,
    net_points,
)
from engines.errors import IllegalActionError

DISCARDS = 3
FEE = 5
"""Beans a claim costs the claimer at the house (like a prop bought during a hand)."""


class ClaimGame(Game):
    """认牌 as described in the module docstring."""

    def __init__(self, setup: Any) -> None:
        super().__init__(setup)
        self.turn = 0
        self.discards = 0
        self.windows = 0
        self.answers: dict[int, str] | None = None  # open claim window: seat → answer
        self.drawn = [1] * setup.seats
        self.transfers: list[Transfer] = []
        self.fees = [0] * setup.seats

    def decision(self) -> Window | None:
        """The claim window: the two other seats answer at once, privately, one deadline; an
        ignored claim is passed, no miss."""
        if self.answers is None or self.is_over():
            return None
        asked = tuple(s for s in range(self.setup.seats) if s != self.turn)
        return Window.claims(asked, self.windows, self.answers)

    def turn_seats(self) -> tuple[int, ...]:
        return () if self.is_over() else (self.turn,)

    def phase(self) -> str:
        return "claim" if self.answers is not None else "discard"

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        return ["claim", "pass"] if self.answers is not None else ["discard"]

    def _apply(self, seat: int, text: str) -> str:
        action = text.strip().lower()
        if action not in self.legal_actions(seat):
            raise IllegalActionError(
                f"{text!r} is not legal now",
                seat=seat,
                action=text,
                text=T("err.base.not_your_turn"),
            )
        if self.answers is None:
            self.answers = {}
            self.windows += 1
            return action
        self.answers[seat] = action
        if len(self.answers) == self.setup.seats - 1:
            for claimer in sorted(s for s, a in self.answers.items() if a == "claim"):
                self.drawn[claimer] += 1
                self.transfers.append(Transfer(self.turn, claimer, 1, T("note.claimed")))
                self.fees[claimer] += FEE
            self.answers = None
            self.discards += 1
            self.windows += 1
            self.turn = (self.turn + 1) % self.setup.seats
            if not self.is_over():
                self.drawn[self.turn] += 1
        return action

    def _trustee(self, seat: int, level: str = "normal") -> str:
        return "pass" if self.answers is not None else "discard"

    def is_over(self) -> bool:
        return self.discards >= DISCARDS

    def outcome(self) -> Outcome:
        points = net_points(self.setup.seats, self.transfers)
        return Outcome(
            points=points, scores=(0,) * self.setup.seats, transfers=tuple(self.transfers),
            fees=tuple(self.fees),
        )

    def view(self, seat: int | None) -> View:
        return View(
            phase=T("phase.claim" if self.answers is not None else "phase.discard"),
            seats=tuple(SeatView(count=n) for n in self.drawn),
            hand=None if seat is None else "x" * self.drawn[seat],
        )


def _max_loss(options: Mapping[str, Any], seats: int) -> int:
    return DISCARDS * (seats - 1)


SPEC = GameSpec(
    key="claims",
    name_zh="认牌",
    name_en="Claims",
    min_seats=3,
    max_seats=3,
    level_table="doudizhu",
    game=ClaimGame,
    phases=("discard", "claim"),
    max_loss=_max_loss,
)
