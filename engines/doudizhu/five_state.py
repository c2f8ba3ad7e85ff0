"""五人斗地主's hand as data: the deal with its 明牌 marker, the 明地主 and the hidden 暗地主,
the steps (亮出身份, 加倍) as windows and offers, and the whole state as plain data.

``FiveGame`` (engines.doudizhu.five) builds on ``FiveState`` through settlement and views.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from engines.base import Choice, Game, RoundLog, Setup, T, Window
from engines.cards import Layout, Shoe, deal
from engines.doudizhu.five_patterns import (
    _YES,
    FIVE_OPTIONS,
    HAND,
    SEATS,
    STEP_KEYS,
    _physical,
    five_rules,
    plays,
)
from engines.doudizhu.notation import NRANKS, SMALL_JOKER, format_cards
from engines.doudizhu.patterns import Play
from engines.doudizhu.rules import merge_options
from engines.doudizhu.suits import Suits, card
from engines.errors import IllegalActionError, OptionError


class FiveState(Game):
    """五人斗地主's hand as data: the deal, the two landlords, the steps and offers."""

    def __init__(self, setup: Setup) -> None:
        super().__init__(setup)
        if setup.seats != SEATS:
            raise OptionError(
                "seats",
                "this 斗地主 is for 5 players",
                text=T("err.ddz.seats", n=SEATS, seats=setup.seats),
            )
        self.base = five_rules(setup.options)
        self.counter_mode = merge_options(FIVE_OPTIONS, setup.options)["counter"]
        self.n = SEATS
        rng = random.Random(setup.seed)
        # Every card is (rank, suit, deck); jokers have suit 0 and deck 0/1. The shared card
        # model deals them, laid out as this game always has (same seed, same deal).
        shoe = deal(rng, Shoe(2, jokers=True), Layout.RANK_SUIT_DECK, SEATS, HAND, form=_physical)
        dealt, kitty = shoe.hands, shoe.kitty
        # 明牌: a random non-joker card among those dealt (the kitty is nobody's).
        in_order = [dealt[p % SEATS][p // SEATS] for p in range(SEATS * HAND)]
        marker = rng.choice([c for c in in_order if c[0] < SMALL_JOKER])
        twin = (marker[0], marker[1], 1 - marker[2])
        self.marker = marker[:2]
        self.landlord = next(s for s in range(SEATS) if marker in dealt[s])
        twin_seat = next((s for s in range(SEATS) if twin in dealt[s]), None)
        # The twin in the kitty or in the 明地主's hand: one landlord only.
        self.partner: int | None = None if twin_seat in (None, self.landlord) else twin_seat
        self.hands: list[list[int]] = []
        for cards in dealt:
            counts = [0] * NRANKS
            for c in cards:
                counts[c[0]] += 1
            self.hands.append(counts)
        self.kitty = tuple(sum(1 for c in kitty if c[0] == r) for r in range(NRANKS))
        for r, k in enumerate(self.kitty):
            self.hands[self.landlord][r] += k
        # The physical cards, for pictures (engines.doudizhu.suits); the 暗地主's twin leaves
        # first of its rank, as the play that makes it known counts it (001).
        self.suits = Suits(
            [[(c[0], card(*c)) for c in h] for h in dealt], [(c[0], card(*c)) for c in kitty]
        )
        self.suits.take_kitty(self.landlord)
        if self.partner is not None:
            self.suits.keep_first(self.partner, card(*twin))
        self.known = False  # the 暗地主 (or its absence) is public
        self.revealed: dict[int, bool] = {}
        self.doubled: list[bool | None] = [None] * SEATS
        self._phase = "reveal"
        # 亮出身份 is the 明地主's step; the 暗地主's is an offer (``open_offers``), so whether
        # there is one never shows in whom the table waits for, or for how long (issue 23)
        self.pending = [self.landlord]
        self.turn = self.landlord
        self.last: Play | None = None
        self.last_seat: int | None = None
        self.rounds = RoundLog()  # 本轮: the plays and passes since the last lead
        self.round_plays: dict[int, Play] = {}  # each seat's last play in it (for its suits)
        self.played = [0] * SEATS
        self.bomb_factors: list[int] = []
        self.status: list[str | None] = [None] * SEATS
        self.winner: int | None = None
        self.escape_penalties: dict[int, int] = {}

    # --- sides ----------------------------------------------------------------------------
    @property
    def landlords(self) -> tuple[int, ...]:
        """明地主 first, then the 暗地主 if there is one."""
        return (self.landlord,) if self.partner is None else (self.landlord, self.partner)

    def knows_landlords(self, seat: int | None) -> tuple[int, ...]:
        """The landlord seats ``seat`` knows of (None: the public)."""
        if self.known or self.winner is not None or seat in self.landlords and seat == self.partner:
            return self.landlords
        if seat == self.landlord and self.partner is None:
            return self.landlords
        return (self.landlord,)

    # --- the Game interface ---------------------------------------------------------------
    def decision(self) -> Window | None:
        """The two simultaneous steps, each one window with one deadline, public (亮出身份
        waits for the 明地主 alone, 加倍 for all five): both optional, so a timeout is 放弃 /
        不加倍 and no miss. The 暗地主's 亮出身份 is an offer inside them, and taking it
        restarts nobody's clock."""
        if self.winner is not None or self._phase not in STEP_KEYS:
            return None
        return Window(tuple(self.pending), key=STEP_KEYS[self._phase],
                      timeout="no" + self._phase, miss=False)

    def turn_seats(self) -> tuple[int, ...]:
        return () if self.winner is not None else (self.turn,)

    def phase(self) -> str:
        return self._phase

    def is_over(self) -> bool:
        return self.winner is not None

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        five_rules(options)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self._phase == "reveal":
            return ["reveal", "noreveal"]
        if self._phase == "double":
            return ["double", "nodouble"]
        acts = [p.text for p in plays(tuple(self.hands[seat]), self.last)]
        if self.last is not None:
            acts.append("pass")
        return acts

    # --- the 暗地主's 亮出身份: an offer, never a step the table waits for -------------------
    def open_offers(self, seat: int) -> tuple[Choice, ...]:
        """亮出身份 for the 暗地主 while it is hidden: from the deal through the 亮出身份 step
        and the 加倍 step until its own 加倍 answer (001: 亮出身份, then 加倍), never once the
        play starts. An offer puts nobody in ``to_act``: 亮出身份 waits for the 明地主 alone and
        加倍 for all five, with or without a 暗地主, so nothing the table sees (who is
        waited for, for how long, the windows) tells whether one exists; there is nothing to
        decline, and letting it lapse shows nothing either."""
        if (
            seat != self.partner
            or self.known
            or self._phase not in ("reveal", "double")
            or self.doubled[seat] is not None
        ):
            return ()
        return (Choice("reveal", T("ddz.choice.reveal"), "primary"),)

    def read_offer(self, seat: int, text: str) -> str | None:
        """亮出身份 (``reveal``) typed by the 暗地主 takes its offer; once it has lapsed, a clear
        refusal (only the 暗地主 can meet it, so it tells nobody else anything). Every other
        seat's ``reveal`` is an ordinary action (the 明地主's step, or refused)."""
        low = " ".join(text.strip().lower().split())
        if seat != self.partner or _YES.get(low) != "reveal":
            return None
        if self.open_offers(seat):
            return "reveal"
        raise IllegalActionError(
            "亮出身份 is no longer open",
            seat=seat,
            action=text,
            text=T("err.ddz.five_reveal_closed"),
        )

    def _take_offer(self, seat: int, action: str) -> str:
        self.revealed[seat] = True
        self.known = True
        self.status[seat] = "reveal"
        return action

    def snapshot(self) -> dict[str, Any]:
        """The whole state as plain data: equal snapshots mean equal states."""
        return {
            "phase": self._phase,
            "hands": [format_cards(tuple(h)) for h in self.hands],
            "landlords": list(self.landlords),
            "known": self.known,
            "revealed": sorted(self.revealed.items()),
            "doubled": list(self.doubled),
            "turn": self.turn,
            "last": None if self.last is None else [self.last_seat, self.last.text],
            "played": list(self.played),
            "bombs": list(self.bomb_factors),
            "winner": self.winner,
            "escaped": sorted(self.escaped),
        }
