"""一局四川麻将: one hand of 四川麻将 / 血战到底 as a pure state machine.

Seats play in order ``s`` → ``s + 1`` (counter-clockwise, 逆时针). Phases (``phase()``, also the
timer keys):

- ``dingque``: 定缺 (room option ``dingque``; off by default) — every seat privately picks the
  suit it will be void in, all at once; the choices are shown when all four have chosen.
  Without it the seeds' 缺一门 applies: a win holds at most two suits, whichever they are.
- ``discard``: the seat to act has drawn (or claimed) and discards, konges (暗杠/补杠) or wins
  (自摸).
- ``claim``: a claim window after a discard (碰/杠/胡) or a 补杠 (抢杠胡). Only the seats that
  can claim act; each sees its own options privately; the table shows "waiting for claims".
  The window closes when every claimant has answered; 胡 beats 杠/碰 and every 胡 wins
  (一炮多响).

Actions are in ``engines.mahjong.notation``. Payments are kept as events in the order they
happen (kong money "paid at once") and settled into ``Outcome.transfers`` at the end, with the
per-pair cap and forfeits applied in that one pass. Rules and decisions:
docs/games/mahjong.md.

>>> from engines.base import Setup
>>> g = XuezhanGame(Setup(seats=4, seed=1))
>>> g.phase(), g.to_act() == (g.dealer,)
('discard', True)
>>> XuezhanGame(Setup(seats=4, seed=1, options={"dingque": True})).to_act()
(0, 1, 2, 3)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

from engines.base import (
    Choice,
    Game,
    Outcome,
    Picker,
    SeatView,
    Setup,
    T,
    Text,
    Transfer,
    View,
    Window,
    net_points,
)
from engines.errors import IllegalActionError, OptionError
from engines.mahjong import ai
from engines.mahjong.fan import FanResult, Meld, MeldKind, Situation, best_ready, evaluate
from engines.mahjong.names import group_text, or_list, tile_text
from engines.mahjong.notation import chi_action, parse_action, que_action
from engines.mahjong.props import PROPS, Shop, parse_prop
from engines.mahjong.rules import Rules, make_rules
from engines.mahjong.shape import is_win
from engines.mahjong.tiles import (
    SUITS,
    format_counts,
    format_run,
    parse_tile,
    parse_tiles,
    tile_name,
)

DINGQUE, DISCARD, CLAIM, OVER = "dingque", "discard", "claim", "over"
DINGQUE_KEY = -1
"""``Window.key`` of the 定缺 window (once, at the start; claim windows count from 1)."""
SEATS = 4
LAST_FOUR = 3
"""The last four tiles: a draw that leaves at most this many in the wall is one of them."""


@dataclass
class Claim:
    """An open claim window: the ``tile`` offered by ``source``, ``kind`` "discard" or "rob"
    (a 补杠 that may be robbed), each claimant's ``options`` and the ``answers`` so far."""

    kind: str
    tile: int
    source: int
    options: dict[int, list[str]]
    answers: dict[int, str] = field(default_factory=dict)
    after_kong: int | None = None


@dataclass(frozen=True)
class Win:
    """One 胡: the winner, the tile, who fed it (None: 自摸), the 番 and the event number
    (wins on one discard share it)."""

    seat: int
    tile: int
    source: int | None
    fan: FanResult
    event: int


@dataclass
class Event:
    """A payment as it happens: ``kind`` win / kong / transfer (呼叫转移) / huazhu / dajiao /
    refund / escape; ``refs``: the kong events a transfer or refund is about."""

    kind: str
    payer: int
    payee: int
    points: int
    reason: Text
    refs: tuple[int, ...] = ()


class MahjongGame(Game):
    """四川麻将 (000 "QQ classic"); ``XuezhanGame`` is the 血战到底 preset (002)."""

    KEY: ClassVar[str] = "sichuan"
    N: ClassVar[int] = SEATS
    """Seats at the table (4; 二人麻将 2)."""
    KINDS: ClassVar[int] = 27
    """Tile kinds in play: the three suits (27) or with the honours (34)."""

    @classmethod
    def full_set(cls) -> list[int]:
        """Every tile of the game's set, four of each kind, sorted."""
        return [t for t in range(cls.KINDS) for _ in range(4)]

    def __init__(self, setup: Setup, wall: Sequence[int] | None = None) -> None:
        """A new hand; ``wall`` stacks the whole 108-tile wall in draw order (tests and
        puzzles; a stacked hand does not replay from its record)."""
        super().__init__(setup)
        self.rules: Rules = make_rules(self.KEY, setup.options)
        if setup.seats != self.N:
            raise OptionError(
                "seats",
                f"this mahjong is for {self.N} players",
                text=T("err.mj.seats", seats=setup.seats, need=self.N),
            )
        rng = random.Random(setup.seed)
        self.dice = (rng.randint(1, 6), rng.randint(1, 6))
        tiles = self.full_set()
        rng.shuffle(tiles)
        if wall is not None:
            if sorted(wall) != self.full_set():
                raise OptionError(
                    "wall",
                    f"not the {len(tiles)} tiles",
                    text=T("err.mj.wall", n=len(tiles)),
                )
            tiles = list(wall)
        dealer = setup.carry.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < self.N:
            dealer = (sum(self.dice) - 1) % self.N
        self.dealer: int = dealer
        if wall is None:
            tiles = self._arrange(tiles, rng)
        self.wall: list[int] = tiles
        self.hands: list[list[int]] = [[0] * 34 for _ in range(self.N)]
        for k in range(self.N):
            for t in tiles[13 * k : 13 * k + 13]:
                self.hands[(dealer + k) % self.N][t] += 1
        self.hands[dealer][tiles[13 * self.N]] += 1
        self.pos = 13 * self.N + 1
        self.melds: list[list[Meld]] = [[] for _ in range(self.N)]
        self.rivers: list[list[int]] = [[] for _ in range(self.N)]
        self.que: list[int | None] = [None] * self.N
        self._phase = DINGQUE if self.rules.dingque else DISCARD
        self.turn = dealer
        self.drawn: int | None = tiles[13 * self.N]
        self.turn_kong: int | None = None  # the kong whose replacement this turn drew
        self.claim: Claim | None = None
        self.wins: list[Win] = []
        self.won_tiles: list[int] = []  # discarded or robbed tiles won on, once per event
        self.blocked: set[int] = set()  # 过手: passed a 胡, may not 胡 on a discard until drawing
        self.events: list[Event] = []
        self.kongs: list[tuple[int, int]] = []  # (seat, first event index of its payments)
        self.kong_events: list[list[int]] = []
        self.transferred: set[int] = set()  # kongs whose income went to a winner (呼叫转移)
        self.status: list[Text | None] = [None] * self.N
        self.claimed = False  # any 碰/杠 yet (ends 天胡/地胡)
        self.discarded = [False] * self.N
        self.ended: str | None = None
        self.last_discard: tuple[int, int] | None = None
        self.epochs = [0] * self.N
        self.shop: Shop | None = Shop.open(setup.options, self.N, setup.seed)

    def _arrange(self, tiles: list[int], rng: random.Random) -> list[int]:
        """The shuffled wall in draw order (a preset may roll for the break here)."""
        return tiles

    # --- queries -------------------------------------------------------------------------
    def exhausted(self) -> bool:
        """No more draws: the wall is empty (a preset may keep a reserve, 荒庄)."""
        return self.wall_left() == 0

    def wall_left(self) -> int:
        return len(self.wall) - self.pos

    def standing(self) -> list[int]:
        """Seats still playing (not yet won), in seat order."""
        return [s for s in range(self.N) if s not in self.winners()]

    def winners(self) -> list[int]:
        """Seats that have won, in the order they won."""
        seen: list[int] = []
        for w in self.wins:
            if w.seat not in seen:
                seen.append(w.seat)
        return seen

    def last_four(self) -> bool:
        """最后四张: the wall is down to its last four tiles (one of them has appeared)."""
        return self.wall_left() <= LAST_FOUR

    def holds_que(self, seat: int) -> bool:
        q = self.que[seat]
        return q is not None and any(self.hands[seat][q * 9 : q * 9 + 9])

    def suits_held(self, seat: int, tile: int | None = None) -> set[int]:
        """The suits (0 万, 1 筒, 2 条) among the seat's tiles in hand and melds, and ``tile``."""
        hand = self.hands[seat]
        held = {s for s in range(3) if any(hand[s * 9 : s * 9 + 9])}
        held |= {m.tile // 9 for m in self.melds[seat] if m.tile < 27}
        if tile is not None and tile < 27:
            held.add(tile // 9)
        return held

    def is_huazhu(self, seat: int) -> bool:
        """花猪 ("手上拿着3门牌"): a seat holding tiles of all three suits (with 定缺: a tile
        of its chosen suit), so that it could never win."""
        if self.rules.dingque:
            return self.holds_que(seat)
        return self.rules.two_suits and len(self.suits_held(seat)) == 3

    def void_suit(self, seat: int) -> int | None:
        """The suit ``seat`` has to do without: its 定缺; under 缺一门 the suit it holds none of
        once it holds two, or (holding all three) the one without a meld it holds fewest of;
        None while any suit may still go."""
        if self.rules.dingque:
            return self.que[seat]
        if not self.rules.two_suits:
            return None
        held = self.suits_held(seat)
        if len(held) == 2:
            return next(s for s in range(3) if s not in held)
        if len(held) < 3:
            return None
        melded = {m.tile // 9 for m in self.melds[seat]}
        free = [s for s in range(3) if s not in melded]
        if not free:
            return None
        hand = self.hands[seat]
        return min(free, key=lambda s: (sum(hand[s * 9 : s * 9 + 9]), s))

    def can_win_with(self, seat: int, tile: int | None, *, discard: bool) -> bool:
        """Could ``seat`` 胡 with ``tile`` added (None: its hand as it is, 自摸)? 缺一门 is
        required (with 定缺: none of the chosen suit); on a discard 过手 blocks unless it is
        the last four tiles."""
        if seat in self.winners():
            return False
        if self.rules.dingque:
            if self.que[seat] is None or self.holds_que(seat):
                return False
            if tile is not None and tile // 9 == self.que[seat]:
                return False
        elif self.rules.two_suits and len(self.suits_held(seat, tile)) == 3:
            return False
        if discard and seat in self.blocked and not self.last_four():
            return False
        hand = self.hands[seat]
        if tile is None:
            return is_win(hand, len(self.melds[seat]))
        hand[tile] += 1
        try:
            return is_win(hand, len(self.melds[seat]))
        finally:
            hand[tile] -= 1

    def kong_options(self, seat: int) -> list[str]:
        """暗杠 and 补杠 open to the seat on its turn (never of its 定缺 suit; a kong needs a
        replacement tile in the wall)."""
        if self.exhausted():
            return []
        hand = self.hands[seat]
        tiles = {t for t in range(self.KINDS) if hand[t] == 4}
        tiles |= {m.tile for m in self.melds[seat] if m.kind is MeldKind.PENG and hand[m.tile]}
        return [f"gang {tile_name(t)}" for t in sorted(tiles) if t // 9 != self.que[seat]]

    # --- the Game interface ---------------------------------------------------------------
    def is_over(self) -> bool:
        return self.ended is not None

    def phase(self) -> str:
        return OVER if self.ended else self._phase

    def decision(self) -> Window | None:
        """定缺 is chosen by all at once, in public, one deadline (a timeout: the trustee's
        suit). A claim window is private (the table names nobody: who may 碰/杠/胡 would tell
        their hands), one deadline; an ignored claim is passed (过), no miss."""
        if self.ended:
            return None
        if self._phase == CLAIM:
            claim = self.claim
            assert claim is not None
            return Window.claims(tuple(sorted(claim.options)), self.window_key, claim.answers,
                                 claim.options)
        if self._phase == DINGQUE:
            return Window(tuple(s for s in range(self.N) if self.que[s] is None), key=DINGQUE_KEY)
        return None

    def turn_seats(self) -> tuple[int, ...]:
        return () if self.ended else (self.turn,)

    def private_epoch(self, seat: int) -> int:
        return self.epochs[seat]

    @classmethod
    def check_options(cls, options: Any) -> None:
        make_rules(cls.KEY, options)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self._phase == DINGQUE:
            return [que_action(s) for s in range(3)] + self.prop_actions(seat)
        if self._phase == CLAIM:
            assert self.claim is not None
            return list(self.claim.options[seat])
        acts = (
            ["hu"]
            if self.drawn is not None and self.can_win_with(seat, None, discard=False)
            else []
        )
        acts += self.kong_options(seat)
        acts += [tile_name(t) for t in range(34) if self.hands[seat][t]]
        return acts + self.prop_actions(seat)

    def forced_action(self, seat: int) -> str | None:
        """``pass`` when a claim window offers the seat nothing else; on its own turn a seat
        always has a tile to discard, and 定缺 offers three suits — so no win test runs. A
        variant with legal actions of its own answers from them."""
        if type(self).legal_actions is not MahjongGame.legal_actions:
            return super().forced_action(seat)
        if self._phase == CLAIM and seat in self.to_act():
            assert self.claim is not None
            return "pass" if list(self.claim.options[seat]) == ["pass"] else None
        if self._phase == DINGQUE or seat not in self.to_act() or any(self.hands[seat]):
            return None
        return super().forced_action(seat)

    def _apply(self, seat: int, text: str) -> str:
        prop = parse_prop(text)
        if prop is not None:
            return self._use_prop(seat, *prop, text)
        kind, value = parse_action(text)
        if self._phase == DINGQUE:
            if kind != "que":
                raise IllegalActionError(
                    "choose the suit to be void in first (que m, que p or que s)",
                    seat=seat,
                    action=text,
                    text=T("err.mj.que_first"),
                )
            assert value is not None
            self.que[seat] = value
            self.status[seat] = T("mj.status.que_chosen")
            if all(q is not None for q in self.que):
                self._phase = DISCARD
                self.status = [None] * self.N
                # every private picture changes: the choices are shown and the dealer's turn starts
                self.epochs = [e + 1 for e in self.epochs]
            return que_action(value)
        if kind == "que":
            if not self.rules.dingque:
                raise IllegalActionError(
                    "this table plays without 定缺 (缺一门: no third suit at the win)",
                    seat=seat,
                    action=text,
                    text=T("err.mj.que_off"),
                )
            raise IllegalActionError(
                "定缺 is over", seat=seat, action=text, text=T("err.mj.que_done")
            )
        if self._phase == CLAIM:
            return self._answer(seat, kind, value, text)
        action = self._turn_action(seat, kind, value, text)
        return action

    # --- a seat's own turn -------------------------------------------------------------
    def _turn_action(self, seat: int, kind: str, value: int | None, text: str) -> str:
        if kind == "hu":
            if self.drawn is None or not self.can_win_with(seat, None, discard=False):
                raise IllegalActionError(
                    "your hand is not complete", seat=seat, action=text, text=T("err.mj.no_hu")
                )
            self._tsumo(seat)
            return "hu"
        if kind == "gang":
            options = self.kong_options(seat)
            if value is None and len(options) == 1:
                action = options[0]
            elif value is not None and f"gang {tile_name(value)}" in options:
                action = f"gang {tile_name(value)}"
            else:
                raise IllegalActionError(
                    "no such kong",
                    seat=seat,
                    action=text,
                    text=T("err.mj.no_gang", options=", ".join(options) or "-"),
                )
            self._kong(seat, int(SUITS.index(action[-1]) * 9 + int(action[-2]) - 1))
            return action
        if kind != "discard":
            raise IllegalActionError(
                "it is your turn: discard a tile",
                seat=seat,
                action=text,
                text=T("err.mj.your_turn"),
            )
        assert kind == "discard" and value is not None
        if not self.hands[seat][value]:
            raise IllegalActionError(
                f"you have no {tile_name(value)}",
                seat=seat,
                action=text,
                text=T("err.mj.not_held", tile=tile_text(value)),
            )
        self._discard(seat, value)
        return tile_name(value)

    def _draw(self, seat: int, kong: int | None = None) -> None:
        tile = self.wall[self.pos]
        self.pos += 1
        self.hands[seat][tile] += 1
        self.drawn = tile
        self.turn = seat
        self.turn_kong = kong
        self._phase = DISCARD
        self.blocked.discard(seat)  # 过手: drawing lifts the block
        self.epochs[seat] += 1
        if self.last_four() and self.can_win_with(seat, None, discard=False):
            self._tsumo(seat)  # 最后四张自动胡: the seat may not decline

    def _next_draw(self, after: int) -> None:
        """The next seat still playing after ``after`` draws; an empty wall ends the hand."""
        if self.exhausted():
            self._end_wall()
            return
        seat = (after + 1) % self.N
        while seat in self.winners():
            seat = (seat + 1) % self.N
        self._draw(seat)

    def _discard(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 1
        self.rivers[seat].append(tile)
        self.discarded[seat] = True
        gold = self.shop is not None and seat in self.shop.gold
        self.status[seat] = T(
            "mj.status.discard_gold" if gold else "mj.status.discard", tile=tile_text(tile)
        )
        if self.shop is not None:
            self.shop.turns[seat] += 1
        self.last_discard = (seat, tile)
        after_kong = self.turn_kong
        self.drawn = None
        self.turn_kong = None
        options: dict[int, list[str]] = {}
        forced: list[int] = []
        for k in range(1, self.N):
            s = (seat + k) % self.N
            if s in self.winners():
                continue
            opts = []
            if self.can_win_with(s, tile, discard=True):
                if self.last_four():
                    forced.append(s)
                    continue
                opts.append("hu")
            if self._claimable(s, tile):
                if self.hands[s][tile] == 3 and not self.exhausted():
                    opts.append(f"gang {tile_name(tile)}")
                if self.hands[s][tile] >= 2:
                    opts.append("peng")
                if k == 1:
                    opts += self._chi_options(s, tile)
            if opts:
                options[s] = [*opts, "pass"]
        if forced:
            self._ron(forced, tile, seat, robbed=False, after_kong=after_kong)
        elif options:
            self._open_claim(Claim("discard", tile, seat, options, after_kong=after_kong))
        else:
            self._next_draw(seat)

    def _claimable(self, seat: int, tile: int) -> bool:
        """May ``seat`` 碰/杠 (吃) ``tile`` at all? Not a tile of its 定缺 suit (缺一门 without
        定缺 refuses no claim: the seeds do not)."""
        return tile // 9 != self.que[seat]

    def _chi_options(self, seat: int, tile: int) -> list[str]:
        """吃 open to the seat after the discarder (none in the Sichuan presets)."""
        return []

    def chi_runs(self, seat: int, tile: int, barred: tuple[int, ...] = ()) -> list[str]:
        """The 吃 of ``tile`` the seat's hand allows: runs whose other two tiles it holds
        (none of them a ``barred`` kind)."""
        if tile >= 27:
            return []
        hand = self.hands[seat]
        out = []
        for start in range(max(tile - 2, tile - tile % 9), min(tile, tile - tile % 9 + 6) + 1):
            others = [t for t in (start, start + 1, start + 2) if t != tile]
            if all(hand[t] and t not in barred for t in others):
                out.append(chi_action(start))
        return out

    def _open_claim(self, claim: Claim) -> None:
        self.claim = claim
        self._phase = CLAIM
        self._open_window()
        for s in claim.options:
            self.epochs[s] += 1

    # --- claims ---------------------------------------------------------------------------
    def _answer(self, seat: int, kind: str, value: int | None, text: str) -> str:
        claim = self.claim
        assert claim is not None
        options = claim.options[seat]
        action = kind
        if kind == "gang":
            action = f"gang {tile_name(claim.tile)}"
            if value is not None and value != claim.tile:
                action = "?"
        elif kind == "chi":
            chis = [o for o in options if o.startswith("chi")]
            action = (
                chi_action(value) if value is not None else (chis[0] if len(chis) == 1 else "?")
            )
        if action not in options:
            raise IllegalActionError(
                f"you may now: {', '.join(options)}",
                seat=seat,
                action=text,
                text=T("err.mj.claim_options", options=", ".join(options)),
            )
        claim.answers[seat] = action
        if len(claim.answers) == len(claim.options):
            self._resolve(claim)
        return action

    def _resolve(self, claim: Claim) -> None:
        self.claim = None
        for s in claim.options:  # the window closed: the claimants' offers are gone
            self.epochs[s] += 1
        order = sorted(claim.options, key=lambda s: (s - claim.source) % self.N)
        hus = [s for s in order if claim.answers[s] == "hu"]
        for s in order:
            # a declined 胡 is private: only an eligible seat could pass, so the table keeps
            # the seat's last public action (issue 23); 过手 is noted for the rules alone
            if "hu" in claim.options[s] and claim.answers[s] != "hu":
                self._passed_win(s, claim.tile)
        if claim.kind == "rob":
            if hus:
                self._ron(hus, claim.tile, claim.source, robbed=True, after_kong=None)
            else:
                self._complete_bugang(claim.source, claim.tile)
            return
        if hus:
            self._ron(hus, claim.tile, claim.source, robbed=False, after_kong=claim.after_kong)
            return
        for s in order:
            answer = claim.answers[s]
            if answer.startswith("gang"):
                self._zhigang(s, claim.tile, claim.source)
                return
            if answer == "peng":
                self._peng(s, claim.tile, claim.source)
                return
        for s in order:
            answer = claim.answers[s]
            if answer.startswith("chi"):
                self._chi(s, claim.tile, claim.source, answer)
                return
        self._next_draw(claim.source)

    def _passed_win(self, seat: int, tile: int) -> None:
        """The seat declined a 胡 on ``tile``: 002's 过手 blocks it until it draws."""
        if self.rules.guoshou:
            self.blocked.add(seat)

    def _take_discard(self, source: int, tile: int) -> None:
        taken = self.rivers[source].pop()
        assert taken == tile

    def _peng(self, seat: int, tile: int, source: int) -> None:
        self._take_discard(source, tile)
        self.hands[seat][tile] -= 2
        self.melds[seat].append(Meld(MeldKind.PENG, tile, source))
        self.claimed = True
        self.turn, self.drawn, self.turn_kong = seat, None, None
        self._phase = DISCARD
        self.status[seat] = T("mj.status.peng", tile=tile_text(tile))

    def _chi(self, seat: int, tile: int, source: int, action: str) -> None:
        """吃 (上): the run ``action`` names, the discard with two tiles of the hand."""
        self._take_discard(source, tile)
        start = parse_action(action)[1]
        assert start is not None
        for t in (start, start + 1, start + 2):
            if t != tile:
                self.hands[seat][t] -= 1
        self.melds[seat].append(Meld(MeldKind.CHI, start, source, tile))
        self.claimed = True
        self.turn, self.drawn, self.turn_kong = seat, None, None
        self._phase = DISCARD
        self.status[seat] = T("mj.status.chi", tiles=group_text(parse_tiles(action[4:])))

    # --- kongs (刮风下雨) -------------------------------------------------------------------
    def _kong_money(self, seat: int, kind: MeldKind, tile: int, source: int | None) -> None:
        r = self.rules
        start = len(self.events)
        reason = self._kong_reason(kind, tile)
        if kind is MeldKind.ZHIGANG:
            assert source is not None
            payers = [(source, r.zhigang)]
        else:
            each = r.angang if kind is MeldKind.ANGANG else r.bugang
            payers = [(s, each) for s in self.standing() if s != seat]
        refs = []
        for payer, times in payers:
            refs.append(len(self.events))
            self.events.append(Event("kong", payer, seat, times * r.base, reason))
        self.kongs.append((seat, start))
        self.kong_events.append(refs)
        self.claimed = True

    def _kong(self, seat: int, tile: int) -> None:
        """A kong on the seat's own turn: 暗杠 of four in hand, else 补杠 onto its 碰."""
        if self.hands[seat][tile] == 4:
            self._angang(seat, tile)
        else:
            self._bugang(seat, tile)

    def _kong_reason(self, kind: MeldKind, tile: int) -> Text:
        return T(f"mj.pay.{kind.value}", tile=tile_text(tile))

    def _angang(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 4
        self.melds[seat].append(Meld(MeldKind.ANGANG, tile))
        self.status[seat] = T("mj.status.angang", tile=tile_text(tile))
        self._kong_money(seat, MeldKind.ANGANG, tile, None)
        self._draw(seat, kong=len(self.kongs) - 1)

    def _bugang(self, seat: int, tile: int) -> None:
        """面下杠: others may rob it (抢杠胡) first; the tile stays in hand until it stands."""
        self.drawn = None
        self.status[seat] = T("mj.status.bugang", tile=tile_text(tile))
        robbers = [
            (seat + k) % self.N
            for k in range(1, self.N)
            if self.can_win_with((seat + k) % self.N, tile, discard=True)
        ]
        if robbers and self.last_four():
            self._ron(robbers, tile, seat, robbed=True, after_kong=None)
        elif robbers:
            self._open_claim(Claim("rob", tile, seat, {s: ["hu", "pass"] for s in robbers}))
        else:
            self._complete_bugang(seat, tile)

    def _complete_bugang(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 1
        melds = self.melds[seat]
        i = next(i for i, m in enumerate(melds) if m.kind is MeldKind.PENG and m.tile == tile)
        melds[i] = Meld(MeldKind.BUGANG, tile, melds[i].source)
        self._kong_money(seat, MeldKind.BUGANG, tile, None)
        self._draw(seat, kong=len(self.kongs) - 1)

    def _zhigang(self, seat: int, tile: int, source: int) -> None:
        self._take_discard(source, tile)
        self.hands[seat][tile] -= 3
        self.melds[seat].append(Meld(MeldKind.ZHIGANG, tile, source))
        self.status[seat] = T("mj.status.zhigang", tile=tile_text(tile))
        self._kong_money(seat, MeldKind.ZHIGANG, tile, source)
        self._draw(seat, kong=len(self.kongs) - 1)

    # --- wins -----------------------------------------------------------------------------
    def _situation(self, seat: int, source: int | None = None, **flags: bool) -> Situation:
        """The win's circumstances; ``source`` fed the tile (None: 自摸).

        天胡: the dealer on its first 14 tiles. 地胡 (002 "閑家摸第一張牌即胡牌…如果莊家打出一張
        牌后，就有閑家胡牌了，算地胡"): a 闲家 on its own first draw, or on the 庄's first discard
        — not on another 闲家's discard — with no 碰 or 杠 before."""
        untouched = not self.claimed
        idle_discarded = any(self.discarded[s] for s in range(self.N) if s != self.dealer)
        heaven = seat == self.dealer and untouched and not any(self.discarded)
        if source is None:
            earth = seat != self.dealer and not self.discarded[seat]
        else:
            earth = seat != self.dealer and source == self.dealer and not idle_discarded
        return Situation(
            heaven=heaven and flags.get("self_draw", False), earth=earth and untouched, **flags
        )

    def _score(self, seat: int, counts: list[int], situation: Situation) -> FanResult:
        result = evaluate(self.rules.table, counts, self.melds[seat], situation, self.rules.cap)
        assert result is not None
        return result

    def _tsumo(self, seat: int) -> None:
        tile = self.drawn
        assert tile is not None
        sit = self._situation(seat, self_draw=True, kong_draw=self.turn_kong is not None)
        fan = self._score(seat, self.hands[seat], sit)
        event = len(self.wins) and self.wins[-1].event + 1
        self.hands[seat][tile] -= 1  # the winning tile is kept apart, in the Win
        self.wins.append(Win(seat, tile, None, fan, event))
        points = self.rules.base * self.rules.multiple(fan.fan)
        reason = T("mj.pay.zimo", fan=fan.fan)
        for s in self.standing():
            if s != seat:
                self.events.append(Event("win", s, seat, points, reason))
        self.status[seat] = T("mj.status.zimo", fan=fan.fan)
        self.drawn = None
        self.turn_kong = None
        self._after_win(seat)

    def _ron(
        self,
        winners: list[int],
        tile: int,
        source: int,
        *,
        robbed: bool,
        after_kong: int | None,
    ) -> None:
        if robbed:
            self.hands[source][tile] -= 1
        else:
            self._take_discard(source, tile)
        self.won_tiles.append(tile)
        event = len(self.wins) and self.wins[-1].event + 1
        for w in winners:
            hand = list(self.hands[w])
            hand[tile] += 1
            sit = self._situation(
                w, source, robbed=robbed, kong_discard=after_kong is not None
            )
            fan = self._score(w, hand, sit)
            self.wins.append(Win(w, tile, source, fan, event))
            points = self.rules.base * self.rules.multiple(fan.fan)
            key = "mj.pay.qianggang" if robbed else "mj.pay.dianpao"
            self.events.append(Event("win", source, w, points, T(key, fan=fan.fan)))
            if after_kong is not None:
                # 呼叫转移 / 杠上炮: the kong's income goes to each winner, a full copy each.
                refs = tuple(self.kong_events[after_kong])
                self.transferred.add(after_kong)
                self.events.append(Event("transfer", source, w, 0, T("mj.pay.transfer"), refs))
            self.status[w] = T("mj.status.hu", fan=fan.fan)
        self.status[source] = T("mj.status.fed", tile=tile_text(tile))
        last = max(winners, key=lambda s: (s - source) % self.N)
        self._after_win(last)

    def _after_win(self, last: int) -> None:
        if not self.rules.blood or len(self.winners()) >= self.N - 1:
            self._end("win")
            return
        self._next_draw(last)

    # --- the end -------------------------------------------------------------------------
    def _end(self, how: str) -> None:
        self.ended = how
        self.claim = None
        self._phase = OVER

    def ready_fan(self, seat: int) -> FanResult | None:
        """查大叫: the most 番 ``seat``'s hand could win with now, or None if not ready (a 花猪
        never is; its waits are in the suits a win may still hold)."""
        if self.is_huazhu(seat) or (self.rules.dingque and self.que[seat] is None):
            return None
        void = self.void_suit(seat)
        suits = [s for s in range(3) if s != void]
        return best_ready(
            self.rules.table, self.hands[seat], self.melds[seat], suits, self.rules.cap
        )

    def _end_wall(self) -> None:
        """流局: 查花猪, then 查大叫 with refunds of kong money (000 §7, 002)."""
        r = self.rules
        standing = self.standing()
        if len(standing) >= 2:
            pigs = [s for s in standing if self.is_huazhu(s)]
            ready = {s: self.ready_fan(s) for s in standing if s not in pigs}
            for pig in pigs:
                for other in range(self.N):
                    if other not in pigs:
                        self.events.append(
                            Event("huazhu", pig, other, r.huazhu * r.base, T("mj.pay.huazhu"))
                        )
            for s in standing:
                if s in pigs or ready[s] is not None:
                    continue
                for w, fan in ready.items():
                    if fan is not None:
                        points = r.base * r.multiple(fan.fan)
                        self.events.append(
                            Event("dajiao", s, w, points, T("mj.pay.dajiao", fan=fan.fan))
                        )
            for s in standing:
                if s in pigs or ready[s] is None:
                    self.events.append(Event("refund", s, s, 0, T("mj.pay.refund")))
        self._end("wall")

    def _on_escape(self, seat: int) -> None:
        """000: a seat still playing who escapes ends the hand and pays 16 倍 to each other
        seat still playing (in the last four tiles, their 查大叫 instead if higher); 002: the
        trustee plays on. Either way an escaped seat collects no 番 money (see ``settle``)."""
        if not self.rules.escape_penalty or seat in self.winners():
            return
        r = self.rules
        others = [s for s in self.standing() if s != seat]
        penalty = [(s, 16 * r.base) for s in others]
        reason = T("mj.pay.escape")
        if self.last_four():
            dajiao = []
            for s in others:
                fan = self.ready_fan(s)
                if fan is not None:
                    dajiao.append((s, r.base * r.multiple(fan.fan)))
            if sum(p for _, p in dajiao) > sum(p for _, p in penalty):
                penalty, reason = dajiao, T("mj.pay.escape_dajiao")
        for s, points in penalty:
            self.events.append(Event("escape", seat, s, points, reason))
        self._end("escape")

    def escape_cost(self, seat: int) -> int | None:
        """000: 16 倍 to each other seat still playing (at least: in the last four tiles their
        查大叫 instead, which depends on hands the seat cannot see); 002, a seat that has won,
        or one escaped already: 0. The variants that end the hand otherwise say their own."""
        if not self.rules.escape_penalty or seat in self.winners() or seat in self.escaped:
            return 0
        return 16 * self.rules.base * len([s for s in self.standing() if s != seat])

    def settle(self) -> list[Transfer]:
        """The payments so far as transfers, in order: a seat that escaped collects no 番,
        呼叫转移, 花猪 or 查大叫 money (it keeps its kong money) and gets no refunds; no
        payer pays one payee more than the pair cap (refunds undo payments and are outside
        it)."""
        cap = self.rules.pair_cap * self.rules.base
        paid: Counter[tuple[int, int]] = Counter()
        actual: dict[int, int] = {}
        out: list[Transfer] = []
        forfeit = self.escaped

        def pay(payer: int, payee: int, points: int, reason: Text, capped: bool = True) -> int:
            if capped and cap:
                points = min(points, cap - paid[(payer, payee)])
            if points <= 0:
                return 0
            paid[(payer, payee)] += points
            out.append(Transfer(payer, payee, points, reason))
            return points

        for i, e in enumerate(self.events):
            if e.kind == "refund":
                for k, refs in enumerate(self.kong_events):
                    if self.kongs[k][0] != e.payer or k in self.transferred:
                        continue
                    for j in refs:
                        back = self.events[j]
                        if actual.get(j) and back.payer not in forfeit:
                            pay(e.payer, back.payer, actual[j], e.reason, capped=False)
            elif e.kind == "transfer":
                if e.payee not in forfeit:
                    amount = sum(actual.get(j, 0) for j in e.refs)
                    actual[i] = pay(e.payer, e.payee, amount, e.reason)
            elif e.kind == "kong" or e.payee not in forfeit:
                actual[i] = pay(e.payer, e.payee, e.points, e.reason)
        return out

    def outcome(self) -> Outcome:
        if not self.ended:
            raise IllegalActionError("the hand is not over yet", text=T("err.base.not_over"))
        transfers = self.settle()
        points = net_points(self.N, transfers)
        lines: list[Text] = []
        for w in self.wins:
            lines += self._win_lines(w)
        if self.ended == "wall":
            lines.append(self._draw_line())
        for s in sorted(self.escaped):
            lines.append(T("mj.out.escaped", seat=s + 1))
        fees: tuple[int, ...] = ()
        if self.shop is not None and any(self.shop.spent):
            fees = tuple(self.shop.spent)
            for s, prop, price in self.shop.bought:
                lines.append(T("mj.out.prop", seat=s + 1, prop=T(f"mj.prop.{prop}"), beans=price))
        return Outcome(
            points, points, tuple(lines), tuple(self.winners()), tuple(transfers), fees
        )

    def _win_lines(self, w: Win) -> list[Text]:
        """The outcome's lines about one win: who, on what, the 番 and the patterns."""
        how = "zimo" if w.source is None else "dianpao"
        lines = [
            T(
                f"mj.out.{how}",
                seat=w.seat + 1,
                source=(w.source or 0) + 1,
                tile=tile_text(w.tile),
                fan=w.fan.fan,
                x=w.fan.multiple,
            )
        ]
        for key, fan in w.fan.items:
            lines.append(T("mj.out.item", name=T(f"mj.fan.{key}"), fan=fan))
        return lines

    def _draw_line(self) -> Text:
        return T("mj.out.draw")

    def _won_line(self, w: Win) -> Text:
        """The table's line about a win while the hand goes on or has ended."""
        return T(
            "mj.line.won",
            seat=w.seat + 1,
            fan=w.fan.fan,
            how=T("mj.how.zimo" if w.source is None else "mj.how.dianpao"),
        )

    def next_carry(self) -> dict[str, Any]:
        """Who deals next (docs/games/mahjong.md): 002 the first winner (the discarder when
        the first win was 一炮多响), a hand nobody won keeps its dealer; 000 the 点炮 seat (the
        winner on 自摸), a draw keeps the dealer; 000's 血战 mode throws dice every hand."""
        if self.rules.key == "sichuan" and self.rules.blood:
            return {}
        if not self.wins:
            return {"dealer": self.dealer}
        first = self.wins[0]
        multi = sum(1 for w in self.wins if w.event == first.event) > 1
        if self.rules.key == "xuezhan":
            return {"dealer": first.source if multi and first.source is not None else first.seat}
        return {"dealer": first.seat if first.source is None else first.source}

    # --- views ----------------------------------------------------------------------------
    def hand_text(self, seat: int) -> str:
        """The seat's concealed tiles sorted, the tile just drawn apart: ``123m45p 6p``; a
        winner's hand shows its winning tile apart."""
        hand = list(self.hands[seat])
        apart = None
        won = next((w for w in self.wins if w.seat == seat), None)
        if won is not None:
            apart = won.tile
        elif self.drawn is not None and seat == self.turn and self._phase == DISCARD:
            apart = self.drawn
            hand[apart] -= 1
        text = format_counts(hand)
        return f"{text} {tile_name(apart)}".strip() if apart is not None else text

    def melds_text(self, seat: int) -> str:
        """副露: ``555p`` 碰, ``5555p`` 明杠/补杠, ``[5555p]`` 暗杠 (its tile is shown)."""
        out = []
        for m in self.melds[seat]:
            group = format_run(m.tiles)
            out.append(f"[{group}]" if m.kind is MeldKind.ANGANG else group)
        return " ".join(out)

    def _role(self, seat: int, viewer: int | None) -> Text | None:
        que = self.que[seat]
        shown = que is not None and (self._phase != DINGQUE or seat == viewer or self.ended)
        if seat == self.dealer:
            if shown:
                return T("mj.role.dealer_que", suit=T(f"mj.suit.{SUITS[que or 0]}"))
            return T("mj.role.dealer")
        return T("mj.role.que", suit=T(f"mj.suit.{SUITS[que or 0]}")) if shown else None

    def view(self, seat: int | None) -> View:
        seats = []
        for s in range(self.N):
            open_hand = s == seat or s in self.winners() or self.ended is not None
            status = self.status[s]
            if s in self.escaped:
                status = T("mj.status.escaped")
            seats.append(
                SeatView(
                    role=self._role(s, seat),
                    count=sum(self.hands[s]),
                    cards=self.hand_text(s) if open_hand else None,
                    status=status,
                    melds=self.melds_text(s),
                    # one by one: a run of one suit (984s7m) reads like a sequence
                    discards=" ".join(tile_name(t) for t in self.rivers[s]),
                )
            )
        lines = [
            T("mj.line.wall", n=self.wall_left()),
            T("mj.line.dice", a=self.dice[0], b=self.dice[1], dealer=self.dealer + 1),
        ]
        if self.last_discard is not None and self._phase == CLAIM:
            ls, lt = self.last_discard
            if self.claim is not None and self.claim.kind == "rob":
                lines.append(
                    T("mj.line.bugang", seat=self.claim.source + 1, tile=tile_text(self.claim.tile))
                )
            else:
                lines.append(T("mj.line.discard", seat=ls + 1, tile=tile_text(lt)))
        lines += self._extra_lines(seat)
        lines += self._prop_lines(seat)
        for w in self.wins:
            lines.append(self._won_line(w))
        net = net_points(self.N, self.settle())
        if any(net):
            lines.append(T("mj.line.points", points=" / ".join(f"{p:+d}" for p in net)))
        if seat is not None and self.claim is not None and seat in self.to_act():
            lines.append(self._claim_prompt(seat, self.claim.tile))
        return View(
            phase=self._phase_text(),
            seats=tuple(seats),
            lines=tuple(lines),
            hand=self.hand_text(seat) if seat is not None else None,
        )

    def _claim_prompt(self, seat: int, tile: int) -> Text:
        """"你可以对 九筒 碰或胡，也可以过": only the claims this seat is offered."""
        words = []
        for a in self.legal_actions(seat):
            word = a.split(" ")[0]
            if word in ("chi", "peng", "gang", "hu") and word not in words:
                words.append(word)
        order = ("chi", "peng", "gang", "hu")
        words.sort(key=order.index)
        return T(
            "mj.line.claim_you",
            tile=tile_text(tile),
            options=or_list([T(f"mj.claim.{w}") for w in words]),
        )

    def _extra_lines(self, seat: int | None) -> list[Text]:
        """Lines a preset adds to the table (炮子 stakes …); the same for every viewer."""
        return []

    def _phase_text(self) -> Text:
        if self.ended:
            return T(f"mj.phase.over_{self.ended}")
        if self._phase == DINGQUE:
            return T("mj.phase.dingque")
        if self._phase == CLAIM:
            return T("mj.phase.claims")
        return T("mj.phase.turn", seat=self.turn + 1)

    def choices(self, seat: int) -> list[Choice]:
        out: list[Choice] = []
        for a in self.legal_actions(seat):
            if a.startswith("que"):
                out.append(Choice(a, T("mj.choice.que", suit=T(f"mj.suit.{a[-1]}")), "primary"))
            elif a == "hu":
                key = "mj.choice.hu" if self._phase == CLAIM else "mj.choice.zimo"
                out.append(Choice(a, T(key), "success"))
            elif a.startswith("gang"):
                label = T("mj.choice.gang", tile=tile_text(parse_tile(a[5:])))
                out.append(Choice(a, label, "primary"))
            elif a == "peng":
                assert self.claim is not None
                out.append(
                    Choice(a, T("mj.choice.peng", tile=tile_text(self.claim.tile)), "primary")
                )
            elif a.startswith("chi"):
                label = T("mj.choice.chi", tiles=group_text(parse_tiles(a[4:])))
                out.append(Choice(a, label, "primary"))
            elif a == "pass":
                out.append(Choice(a, T("mj.choice.pass")))
            elif a.startswith("prop ") and " " not in a[5:] and self.shop is not None:
                prop = a[5:]
                out.append(
                    Choice(a, T("mj.choice.prop", prop=T(f"mj.prop.{prop}"),
                                beans=self.shop.prices[prop]))
                )
        return out

    def picker(self, seat: int) -> Picker | None:
        """The tiles to discard on the seat's own turn, one menu per suit."""
        if self.ended or self._phase != DISCARD or seat != self.turn:
            return None
        tokens = [tile_name(t) for t in range(34) if self.hands[seat][t]]
        groups = Counter(t[-1] for t in tokens)
        sizes = tuple(groups[s] for s in SUITS if groups[s])
        return Picker(tuple(tokens), tuple(tokens), 1, 1, "{}", "", sizes)

    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: ``ai.choose`` (timeouts, escaped seats and bots alike); always legal."""
        return ai.choose(self, seat)

    # --- 道具 (props) --------------------------------------------------------------------------
    def _prop_turn_open(self, seat: int) -> bool:
        """Is it ``seat``'s own turn to discard, where the turn props may be used?"""
        return not self.ended and self._phase == DISCARD and seat == self.turn

    def _prop_refusal(self, seat: int, prop: str, tiles: tuple[int, ...]) -> Text | None:
        """Why ``seat`` may not use ``prop`` with ``tiles`` now (None: it may)."""
        shop = self.shop
        if shop is None:
            return T("err.mj.prop_off")
        name = T(f"mj.prop.{prop}")
        price = shop.prices[prop]
        if not price:
            return T("err.mj.prop_not_sold", prop=name)
        if self.setup.coefficient <= 0:
            return T("err.mj.prop_score_only")
        stake = self.setup.stakes[seat] if seat < len(self.setup.stakes) else None
        left = 0 if stake is None else stake * self.setup.coefficient - shop.spent[seat]
        if price > left:
            return T("err.mj.prop_stake", prop=name, price=price, left=max(left, 0))
        if shop.once(seat, prop) in shop.used:
            return T("err.mj.prop_used", prop=name)
        if prop == "qiankun":
            first = not self.discarded[seat] and not self.melds[seat] and not self.ended
            if not first or not (
                (self._phase == DINGQUE and self.que[seat] is None)
                or self._prop_turn_open(seat)
            ):
                return T("err.mj.prop_not_now", prop=name)
            return None
        if not self._prop_turn_open(seat):
            return T("err.mj.prop_not_now", prop=name)
        for t in tiles:
            if t >= self.KINDS:
                return T("err.mj.prop_no_tile", tile=tile_text(t))
        wall = self.wall[self.pos :]
        if prop in ("toutian", "yihua"):
            if not self.hands[seat][tiles[0]]:
                return T("err.mj.not_held", tile=tile_text(tiles[0]))
            if not wall:
                return T("err.mj.prop_wall_empty", prop=name)
        if prop == "toutian":
            if tiles[1] == tiles[0]:
                return T("err.mj.prop_same", tile=tile_text(tiles[0]))
            if tiles[1] not in wall:
                return T("err.mj.prop_not_in_wall", tile=tile_text(tiles[1]))
        if prop == "shunfeng" and not wall:
            return T("err.mj.prop_wall_empty", prop=name)
        return None

    def prop_actions(self, seat: int) -> list[str]:
        """The prop actions ``seat`` may take now (none without a shop, or refused)."""
        if self.shop is None or seat not in self.to_act():
            return []
        out = []
        held = [t for t in range(self.KINDS) if self.hands[seat][t]]
        wall = sorted(set(self.wall[self.pos :]))
        for prop in PROPS:
            combos: list[tuple[int, ...]]
            if prop == "toutian":
                combos = [(g, t) for g in held for t in wall if t != g]
            elif prop == "yihua":
                combos = [(g,) for g in held]
            elif prop == "qianliyan":
                combos = [(t,) for t in range(self.KINDS)]
            else:
                combos = [()]
            for tiles in combos:
                if self._prop_refusal(seat, prop, tiles) is None:
                    out.append(" ".join(["prop", prop, *(tile_name(t) for t in tiles)]))
                else:
                    break  # a refusal that is not about the tiles refuses them all
        return out

    def _use_prop(self, seat: int, prop: str, tiles: tuple[int, ...], text: str) -> str:
        refusal = self._prop_refusal(seat, prop, tiles)
        if refusal is not None:
            raise IllegalActionError(
                f"{prop} refused: {refusal.key}", seat=seat, action=text, text=refusal
            )
        shop = self.shop
        assert shop is not None
        shop.buy(seat, prop)
        getattr(self, f"_prop_{prop}")(seat, shop, *tiles)
        self.status[seat] = T("mj.status.prop", prop=T(f"mj.prop.{prop}"))
        self.epochs[seat] += 1
        return " ".join(["prop", prop, *(tile_name(t) for t in tiles)])

    def _swap_with_wall(self, seat: int, give: int, at: int) -> int:
        """The tile at wall index ``at`` goes to the seat's hand, ``give`` takes its place."""
        take = self.wall[at]
        self.wall[at] = give
        self.hands[seat][give] -= 1
        self.hands[seat][take] += 1
        if self.drawn == give and seat == self.turn:
            self.drawn = take  # the tile just drawn was the one given away
        return take

    def _prop_qiankun(self, seat: int, shop: Shop) -> None:
        """乾坤大挪移: the seat's concealed tiles go back into the wall, which is shuffled; it
        is dealt as many again, all but two of one suit (not its 缺) as far as the wall has
        them."""
        hand = self.hands[seat]
        n = sum(hand)
        pool = [t for t in range(self.KINDS) for _ in range(hand[t])] + self.wall[self.pos :]
        shop.rng.shuffle(pool)
        suit = shop.rng.choice([s for s in range(3) if s != self.que[seat]])
        suited = [i for i, t in enumerate(pool) if t // 9 == suit][: n - 2]
        rest = [i for i in range(len(pool)) if i not in set(suited)]
        dealt_at = suited + rest[: n - len(suited)]
        dealt = [pool[i] for i in dealt_at]
        taken = set(dealt_at)
        self.wall[self.pos :] = [t for i, t in enumerate(pool) if i not in taken]
        self.hands[seat] = [0] * 34
        for t in dealt:
            self.hands[seat][t] += 1
        if self.drawn is not None and seat == self.turn:
            self.drawn = dealt[-1]
        shop.note(seat, T("mj.line.prop_qiankun", suit=T(f"mj.suit.{'mps'[suit]}")))

    def _prop_toutian(self, seat: int, shop: Shop, give: int, want: int) -> None:
        """偷天换日: a copy of ``want`` (one of those in the wall, at random) for ``give``."""
        at = shop.rng.choice([i for i in range(self.pos, len(self.wall)) if self.wall[i] == want])
        self._swap_with_wall(seat, give, at)
        shop.note(seat, T("mj.line.prop_swap", prop=T("mj.prop.toutian"),
                          give=tile_text(give), take=tile_text(want)))

    def _prop_yihua(self, seat: int, shop: Shop, give: int) -> None:
        """移花接木: a random tile of the wall for ``give``."""
        take = self._swap_with_wall(seat, give, shop.rng.randrange(self.pos, len(self.wall)))
        shop.note(seat, T("mj.line.prop_swap", prop=T("mj.prop.yihua"),
                          give=tile_text(give), take=tile_text(take)))

    def _prop_qianliyan(self, seat: int, shop: Shop, tile: int) -> None:
        """千里眼: which quarter of the wall left (1 = drawn soonest) holds the next ``tile``."""
        wall = self.wall[self.pos :]
        if tile not in wall:
            shop.note(seat, T("mj.line.prop_qianliyan_none", tile=tile_text(tile)))
            return
        quarter = wall.index(tile) * 4 // len(wall) + 1
        shop.note(seat, T("mj.line.prop_qianliyan", tile=tile_text(tile), n=len(wall),
                          q=quarter))

    def _prop_shunfeng(self, seat: int, shop: Shop) -> None:
        """顺风耳: the next tile of the wall (as it stands now)."""
        shop.note(seat, T("mj.line.prop_shunfeng", tile=tile_text(self.wall[self.pos]),
                          n=self.wall_left()))

    def _prop_jinshouzhi(self, seat: int, shop: Shop) -> None:
        """金手指: the seat's discards carry the golden finger for the rest of the hand."""
        shop.gold.add(seat)

    def _prop_lines(self, seat: int | None) -> list[Text]:
        """The last prop used (its name only, for everyone), the golden fingers, and the
        viewer's own prop notes."""
        shop = self.shop
        if shop is None:
            return []
        lines = [T("mj.line.prop_gold", seat=s + 1) for s in sorted(shop.gold)]
        if shop.bought:
            s, prop, _ = shop.bought[-1]
            lines.append(T("mj.line.prop_used", seat=s + 1, prop=T(f"mj.prop.{prop}")))
        if seat is not None:
            lines += shop.notes[seat]
        return lines

    # --- tests and debugging -----------------------------------------------------------------
    def census(self) -> Counter[int]:
        """Every physical tile once: wall, hands, melds, discards and the tiles won on."""
        c: Counter[int] = Counter(self.wall[self.pos :])
        for s in range(self.N):
            for t, n in enumerate(self.hands[s]):
                c[t] += n
            for m in self.melds[s]:
                c.update(m.tiles)
            c.update(self.rivers[s])
        c.update(w.tile for w in self.wins if w.source is None)
        c.update(self.won_tiles)
        return +c


class XuezhanGame(MahjongGame):
    """血战到底 (002): the hand goes on after each win until three have won or the wall is
    empty; 2^番 capped at 3番, 过手胡, 呼叫转移, 24 points at most per payer and payee."""

    KEY: ClassVar[str] = "xuezhan"


def stacked_wall(
    hands: Sequence[str], draws: str = "", dealer: int = 0, kinds: int = 27
) -> list[int]:
    """A wall that deals ``hands[s]`` (13 tiles each, notation) to seat ``s`` when ``dealer``
    deals, then yields ``draws`` in order (the dealer's 14th tile first); the remaining tiles
    follow sorted. ``kinds``: 27 for the 108-tile set, 34 with the honours (136). For tests
    and puzzles: pass it as ``MahjongGame(setup, wall=...)``."""
    from engines.mahjong.tiles import parse_tiles

    order: list[int] = []
    n = len(hands)
    for k in range(n):
        dealt = parse_tiles(hands[(dealer + k) % n])
        assert len(dealt) == 13, hands[(dealer + k) % n]
        order += dealt
    order += parse_tiles(draws) if draws else []
    rest = Counter(t for t in range(kinds) for _ in range(4))
    rest.subtract(order)
    if any(n < 0 for n in rest.values()):
        raise ValueError("more than four of a tile")
    return order + sorted(rest.elements())
