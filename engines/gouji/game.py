"""够级 / 新够级 (000, 001): six seats in two alliances of three, four decks, 够级牌 answered by
the 对头 alone, 烧牌 claim windows, 让牌, 开点, 革命, 四户乱缠, ranks and team scores, and the
5-game 进贡 series.

Rules and decisions: docs/games/gouji.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.base import Setup, T
from engines.climbing.notation import NRANKS, PASS, format_cards, is_pass, parse_cards
from engines.errors import IllegalActionError
from engines.gouji import ai
from engines.gouji.state import (
    BURN,
    CLASSIC,
    DECKS,
    DECLARE,
    DONE,
    HEAD,
    NEW,
    PLAY,
    SEATS,
    GoujiState,
    Top,
    alliance,
    dian_pay,
    opposite,
)
from engines.gouji.views import GoujiViews
from engines.gouji.windows import GoujiWindows


class GoujiGame(GoujiViews, GoujiWindows):
    """够级 / 新够级 with the option flags of ``NEW`` / ``CLASSIC`` (docs/games/gouji.md).

    Its jobs live in layers of their own, each a module of this package, each calling only the
    layers under it: the hand's state, the deal, 进贡 and 买3 (``state``); the result and the
    series (``scoring``); 宣点, plays and turns (``plays``); the decision windows
    (``windows``); what each seat sees (``views``). This class adds the actions' entry point,
    written positions and the trustee.
    """

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        if len(self.answers) == SEATS:
            self._end_declare()

    # --- set-up -------------------------------------------------------------------------------
    @classmethod
    def position(cls, hands: list[str], *, leader: int = 0, declared: tuple[int, ...] = (),
                 options: Mapping[str, Any] | None = None) -> GoujiGame:
        """A game in play from written hands (tests and examples): ``hands`` in notation, any
        sizes; ``declared`` the seats that 宣点; nobody revolts."""
        game = cls(Setup(seats=SEATS, seed=0, options=dict(options or {})))
        game.hands = [parse_cards(h, DECKS) if h else (0,) * NRANKS for h in hands]
        game.suits = None  # written hands were never dealt: no suits to show
        game.dealt = tuple(game.hands)
        game.revolted = []
        game.answers = {s: "declare" if s in declared else "nodeclare" for s in range(SEATS)}
        game.leader = leader
        game.start_lines = []
        game.status = {}
        game._end_declare()
        return game

    # --- actions --------------------------------------------------------------------------------
    def _apply(self, seat: int, text: str) -> str:
        word = text.strip().lower()
        if self._phase == DECLARE:
            return self._apply_declare(seat, word, text)
        if self._phase == HEAD:
            if word not in ("yaotou", "wutou", "要头", "无头"):
                raise IllegalActionError("choose yaotou (要头) or wutou (无头)", seat=seat,
                                         action=text, text=T("err.gouji.head_now"))
            choice = "yaotou" if word in ("yaotou", "要头") else "wutou"
            self.head = choice
            o = seat
            if choice == "yaotou":
                self.dead_left[o] = 3
                self.yaotou = o
            else:
                self.wutou[o] = True
            self.status[seat] = T(f"gouji.status.{choice}")
            self._start_play()
            return choice
        return self._apply_play(seat, word, text)

    def _apply_play(self, seat: int, word: str, text: str) -> str:
        if self.mode == "window":
            return self._answer_window(seat, word, text)
        if is_pass(word):
            if self.mode == "lead":
                raise IllegalActionError("you lead: play some cards", seat=seat, action=text,
                                         text=T("err.gouji.must_lead"))
            self._pass_turn(seat)
            return PASS
        if word in ("rang", "让", "让牌"):
            if not self.may_rang(seat):
                raise IllegalActionError(
                    "让牌 only on your 对头's play after the two seats before you passed",
                    seat=seat, action=text, text=T("err.gouji.no_rang"))
            self.rang_by = seat
            self.status[seat] = T("gouji.status.rang")
            self.rounds.pass_(seat, T("gouji.status.rang"))
            self.round_suited.append(None)
            self._next_turn(seat)
            return "rang"
        if word.startswith(("burn", "烧")):
            raise IllegalActionError("烧牌 is claimed only when a 够级牌 is answered",
                                     seat=seat, action=text, text=T("err.gouji.no_burn_now"))
        cards, p = self._read_cards(seat, text, text)
        restricted = self.rang_by == seat
        self._play(seat, cards, p, restricted=restricted)
        return format_cards(cards)

    # --- trustee --------------------------------------------------------------------------------
    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: ``ai.choose``; always legal, burns only when the rest is one lead."""
        return ai.choose(self, seat)


class ClassicGoujiGame(GoujiGame):
    """够级 (000, 001-够级): the classic flags."""

    DEFAULTS = CLASSIC


def max_loss(options: Mapping[str, Any], seats: int) -> int:
    """The most one seat can lose: its team's 0 − 2 − 4 doubled by 串三户, times 底注."""
    base = options.get("base", 1)
    return 12 * (base if isinstance(base, int) else 1)


__all__ = ["BURN", "CLASSIC", "DECLARE", "DONE", "HEAD", "NEW", "PLAY", "SEATS", "ClassicGoujiGame",
           "GoujiGame", "GoujiState", "Top", "alliance", "dian_pay", "max_loss", "opposite"]
