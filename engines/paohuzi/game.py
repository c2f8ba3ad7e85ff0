"""一局王炸跑胡子: one hand of 王炸跑胡子 (003) as a pure state machine.

Three seats play in order ``s`` → ``s + 1`` (counter-clockwise, 逆时针); ``s + 1`` is the 下家.
Phases (``phase()``, also the timer keys):

- ``discard``: the seat to act discards a tile (or declares 自摸 when its own draw completed
  the hand).
- ``claim``: a tile is on offer — a discard, or a tile just drawn and shown (翻牌) — and the
  seats that may 胡 / 跑 / 碰 / 吃 it answer privately; the table shows "waiting for claims".
  胡 beats 跑, 跑 beats 碰, 碰 beats 吃 (撇跑胡: a win beats a 跑 on the same tile).

Forced actions happen by themselves, so no one can skip them: the 提 of four dealt alike,
啸 (偎) when a seat draws the third of a pair it holds (臭啸 after a 忍碰 of that tile), 倾 when
it draws the fourth of a 坎 or 偎. Rules and every decision on an open point:
docs/games/paohuzi.md.

>>> from engines.base import Setup
>>> g = PaohuziGame(Setup(seats=3, seed=1))
>>> g.phase(), g.to_act() == (g.dealer,), g.stock_left()
('discard', True, 21)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

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
from engines.paohuzi import ai
from engines.paohuzi.groups import Group, Kind, best_huxi, is_run, same_value
from engines.paohuzi.notation import parse_action
from engines.paohuzi.scoring import MIN_HUXI, Fan, fan_of, shen_count, zi
from engines.paohuzi.tiles import (
    KINDS,
    WILD,
    WORD_KINDS,
    format_group,
    format_zh,
    full_set,
    next_tile,
    parse_tiles,
    tile_name,
    tile_zh,
    tiles_of,
)

DISCARD, CLAIM, OVER = "discard", "claim", "over"
SEATS = 3
DEALT = 20
"""Tiles dealt to each seat; the dealer gets one more (003 砌牌: 21 / 20 / 20)."""
OPTIONS: dict[str, Any] = {"di": 0}
"""Room options: ``di`` — the 底 added to every win's 子 (PH-E1 "加了个底"), 0–10."""
MAX_DI = 10
WANGBA_PAY = 5
"""黄牌: each 王霸 held costs its holder 5 stakes to each seat holding none."""


def _bad_option(key: str, value: Any) -> OptionError:
    return OptionError(
        key,
        f"must be a whole number 0-{MAX_DI}, not {value!r}",
        text=T("err.phz.option_di", option=key, max=MAX_DI, value=repr(value)),
    )


def check_options(options: Any) -> int:
    """The 底 of room ``options``; OptionError unless it is a whole number 0–10."""
    di = options.get("di", 0)
    if isinstance(di, bool) or not isinstance(di, int) or not 0 <= di <= MAX_DI:
        raise _bad_option("di", di)
    return di


def max_loss(options: Any, seats: int) -> int:
    """The most points one seat can pay in a hand: one win at most 30 + 底 子 (every group a big
    倾 would be 84 胡息 → 24 子, and 6 省) times the largest 番 product, 32 (黑胡王闯)."""
    return (31 + check_options(options)) * 32


@dataclass
class Claim:
    """A tile on offer: ``tile`` from ``source``, ``kind`` "draw" (shown after drawing) or
    "discard"; each claimant's ``options`` and the ``answers`` so far."""

    kind: str
    tile: int
    source: int
    options: dict[int, list[str]]
    answers: dict[int, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Win:
    """One 胡: winner, tile (None: the hand completed on the seat's own forced draw), who
    offered it (None for the seat's own draw), 胡息, 番 and how the 王霸 were used."""

    seat: int
    tile: int | None
    source: int | None
    huxi: int
    fan: Fan
    tiles: tuple[int, ...]
    self_drawn: bool


class PaohuziGame(Game):
    """王炸跑胡子 (003): 3 seats, 80 word tiles and two 王霸."""

    def __init__(self, setup: Setup, stack: Sequence[int] | None = None) -> None:
        """A new hand; ``stack`` puts all 82 tiles in dealing order (dealer's 21, then its 下家's
        20, then the third seat's 20, then the stock in drawing order) for tests and puzzles; a
        stacked hand does not replay from its record."""
        super().__init__(setup)
        if setup.seats != SEATS:
            raise OptionError(
                "seats", "王炸跑胡子 is for 3 players", text=T("err.phz.seats", seats=setup.seats)
            )
        self.di = check_options(setup.options)
        rng = random.Random(setup.seed)
        tiles = full_set()
        rng.shuffle(tiles)
        if stack is not None:
            if sorted(stack) != full_set():
                raise OptionError("stack", "not the 82 tiles", text=T("err.phz.stack"))
            tiles = list(stack)
        dealer = setup.carry.get("dealer")
        if not isinstance(dealer, int) or isinstance(dealer, bool) or not 0 <= dealer < SEATS:
            dealer = rng.randrange(SEATS)
        self.dealer: int = dealer
        self.hands: list[list[int]] = [[0] * KINDS for _ in range(SEATS)]
        pos = 0
        for k in range(SEATS):
            n = DEALT + (1 if k == 0 else 0)
            for t in tiles[pos : pos + n]:
                self.hands[(dealer + k) % SEATS][t] += 1
            pos += n
        self.stock: list[int] = tiles[pos:]
        self.pos = 0
        self.groups: list[list[Group]] = [[] for _ in range(SEATS)]
        self.rivers: list[list[int]] = [[] for _ in range(SEATS)]
        self.chou: list[set[int]] = [set() for _ in range(SEATS)]  # 臭牌: no 吃/碰 of these
        self.renpeng: list[set[int]] = [set() for _ in range(SEATS)]  # 忍碰: 偎 becomes 臭偎
        self.paos = [0] * SEATS  # 跑, 倾 and 提 made: the second and later are 重跑
        self.owed = [0] * SEATS  # discards a seat skips for the 提 it was dealt beyond one
        self.shown_wilds = [0] * SEATS  # 王霸 drawn (and so shown)
        self.status: list[Text | None] = [None] * SEATS
        self.epochs = [1] * SEATS
        self.claim: Claim | None = None
        self.win: Win | None = None
        self.shen_tile: int | None = None
        self.shen_flip: list[int] = []
        self.ended: str | None = None
        self.turn = dealer
        self.must_discard = True
        self.self_draw = False  # the turn seat's hand was completed by its own draw
        self.last_drawn: int | None = None
        self.last_event: Text | None = None
        self._phase = DISCARD
        for s in range(SEATS):
            dealt = 0
            for t in range(WORD_KINDS):
                if self.hands[s][t] == 4:  # 倾/提 "在进第一牌之前，必须放到桌面示众"
                    self.hands[s][t] = 0
                    self.groups[s].append(Group(Kind.QING, (t,) * 4))
                    dealt += 1
            self.paos[s] = dealt
            self.owed[s] = max(0, dealt - 1)
        self._turn_start(dealer, discard=True, self_draw=True)

    # --- queries -------------------------------------------------------------------------
    def stock_left(self) -> int:
        return len(self.stock) - self.pos

    def open_huxi(self, seat: int, viewer: int | None = None) -> int:
        """胡息 of the seat's open groups; to another viewer a face-down 偎 counts nothing."""
        return sum(
            g.value
            for g in self.groups[seat]
            if not (g.kind is Kind.WEI and viewer != seat and not self.ended)
        )

    def _group_of(self, seat: int, tile: int, *kinds: Kind) -> int | None:
        for i, g in enumerate(self.groups[seat]):
            if g.kind in kinds and g.tiles[0] == tile:
                return i
        return None

    def discardable(self, seat: int) -> list[int]:
        """Tiles the seat may discard: never a 王霸, never from a 坎 while it holds another."""
        hand = self.hands[seat]
        free = [t for t in range(WORD_KINDS) if 0 < hand[t] < 3]
        return free or [t for t in range(WORD_KINDS) if hand[t]]

    def _keeps_a_discard(self, hand: list[int]) -> bool:
        return any(hand[:WORD_KINDS])

    def win_check(self, seat: int, tile: int | None, how: str) -> Win | None:
        """The best 胡 of ``seat`` now, or None: ``how`` is "self" (the hand as it stands after
        the seat's own draw), "own" (its own shown draw ``tile``), "draw" (another seat's shown
        draw) or "discard". A 王霸 holder wins only on its own draw; 15 胡息 at least."""
        hand = self.hands[seat]
        if how in ("draw", "discard") and hand[WILD]:
            return None
        groups = self.groups[seat]
        base = sum(g.value for g in groups)
        options: list[tuple[int, list[int], int | None]] = []
        if tile is None:
            options.append((0, list(hand), None))
        else:
            added = list(hand)
            added[tile] += 1
            options.append((0, added, tile if how in ("draw", "discard") else None))
            pao = same_value(Kind.PAO, tile)
            peng = self._group_of(seat, tile, Kind.PENG)
            if how in ("own", "draw") and peng is not None:
                options.append((pao - groups[peng].value, list(hand), None))
            wei = self._group_of(seat, tile, Kind.WEI, Kind.CHOU_WEI)
            if how in ("draw", "discard") and wei is not None:
                options.append((pao - groups[wei].value, list(hand), None))
            if how in ("draw", "discard") and hand[tile] == 3:
                rest = list(hand)
                rest[tile] = 0
                options.append((pao, rest, None))
        best: int | None = None
        for extra, counts, peng_tile in options:
            value = best_huxi(counts, peng_tile)
            if value is not None and (best is None or base + extra + value > best):
                best = base + extra + value
        if best is None or best < MIN_HUXI:
            return None
        tiles = [t for g in groups for t in g.tiles] + tiles_of(hand)
        if tile is not None:
            tiles.append(tile)
        before = list(hand)
        if tile is None and self.last_drawn == WILD and before[WILD]:
            before[WILD] -= 1
        wang = None
        if sum(before[:WORD_KINDS]) == 0 and before[WILD]:
            if before[WILD] == 2:
                wang = "wangchuang"
            else:
                won_on = WILD if tile is None and self.last_drawn == WILD else tile
                wang = "wangdiaowang" if won_on == WILD else "wangdiao"
        self_drawn = how in ("self", "own")
        fan = fan_of((t for t in tiles if t != WILD), self_drawn, wang)
        return Win(seat, tile, None, best, fan, tuple(sorted(tiles)), self_drawn)

    def chi_options(self, seat: int, tile: int) -> list[str]:
        """Every way ``seat`` may 吃 ``tile``: a 一句话 or 绞牌 with it, then 下火 groups that lay
        down every other copy of it the seat holds (003 玩法规则 10); never with a 坎 or a 王霸,
        and the seat must keep a tile to discard."""
        hand = self.hands[seat]
        avail = [n if n < 3 else 0 for n in hand[:WORD_KINDS]]
        found: set[str] = set()

        def groups_with(t: int, pool: list[int]) -> list[tuple[int, ...]]:
            out = []
            for combo in _runs(t):
                need = list(combo)
                need.remove(t)
                rest = list(pool)
                ok = True
                for u in need:
                    if rest[u] == 0:
                        ok = False
                        break
                    rest[u] -= 1
                if ok:
                    out.append(combo)
            return out

        def place(pool: list[int], done: list[tuple[int, ...]], first: tuple[int, ...]) -> None:
            if pool[tile] == 0:
                left = list(hand)
                for g in [first, *done]:
                    for u in g:
                        left[u] -= 1
                left[tile] += 1  # the claimed tile is not from the hand
                if self._keeps_a_discard(left):
                    # the claimed tile and a held copy are alike: only the set of groups counts
                    names = sorted(format_group(g) for g in [first, *done])
                    found.add(" ".join(["chi", *names]))
                return
            for combo in _runs(tile):
                if done and combo < done[-1]:
                    continue  # groups in sorted order: each set of 下火 groups once
                rest = list(pool)
                ok = True
                for u in combo:
                    if rest[u] == 0:
                        ok = False
                        break
                    rest[u] -= 1
                if ok:
                    place(rest, [*done, combo], first)

        for combo in groups_with(tile, avail):
            pool = list(avail)
            need = list(combo)
            need.remove(tile)
            for u in need:
                pool[u] -= 1
            place(pool, [], combo)
        return sorted(found)

    # --- the Game interface ---------------------------------------------------------------
    def is_over(self) -> bool:
        return self.ended is not None

    def phase(self) -> str:
        return OVER if self.ended else self._phase

    def decision(self) -> Window | None:
        """A tile on offer is claimed privately (the table names nobody while it is open), one
        deadline, an ignored claim is passed, no miss. A 自摸 offer with no discard due is the
        seat's own turn, in public, and also lapses to ``pass``, no miss."""
        if self.ended:
            return None
        if self._phase == CLAIM:
            claim = self.claim
            assert claim is not None
            return Window.claims(tuple(sorted(claim.options)), self.window_key, claim.answers,
                                 claim.options)
        if not self.must_discard:
            return Window((self.turn,), timeout="pass", miss=False)
        return None

    def turn_seats(self) -> tuple[int, ...]:
        return () if self.ended else (self.turn,)

    def private_epoch(self, seat: int) -> int:
        return self.epochs[seat]

    @classmethod
    def check_options(cls, options: Any) -> None:
        check_options(options)

    def legal_actions(self, seat: int) -> list[str]:
        if seat not in self.to_act():
            return []
        if self._phase == CLAIM:
            assert self.claim is not None
            return list(self.claim.options[seat])
        acts = ["hu"] if self.self_draw and self.win_check(seat, None, "self") else []
        if not self.must_discard:
            return [*acts, "pass"]
        return acts + [tile_name(t) for t in self.discardable(seat)]

    def _apply(self, seat: int, text: str) -> str:
        kind, value = parse_action(text)
        if self._phase == CLAIM:
            action = self._claim_action(seat, kind, value, text)
            assert self.claim is not None
            self.claim.answers[seat] = action
            if len(self.claim.answers) == len(self.claim.options):
                self._resolve(self.claim)
            return action
        legal = self.legal_actions(seat)
        if kind == "hu" and "hu" in legal:
            self._win(self.win_check(seat, None, "self"), None)
            return "hu"
        if kind == "pass" and "pass" in legal:
            self.status[seat] = T("phz.status.pass")
            self._next_draw(seat)
            return "pass"
        if kind == "discard" and self.must_discard:
            tile = value[0]
            if tile == WILD:
                raise IllegalActionError(
                    "a 王霸 is never discarded",
                    seat=seat,
                    action=text,
                    text=T("err.phz.wild_discard"),
                )
            if not self.hands[seat][tile]:
                raise IllegalActionError(
                    f"you have no {tile_name(tile)}",
                    seat=seat,
                    action=text,
                    text=T("err.phz.not_held", tile=tile_zh(tile)),
                )
            if tile not in self.discardable(seat):
                raise IllegalActionError(
                    "a 坎 is never split",
                    seat=seat,
                    action=text,
                    text=T("err.phz.kan", tile=tile_zh(tile)),
                )
            self._discard(seat, tile)
            return tile_name(tile)
        if kind == "hu":
            raise IllegalActionError(
                "your hand is not complete", seat=seat, action=text, text=T("err.phz.no_hu")
            )
        raise IllegalActionError(
            f"you may now: {', '.join(legal)}",
            seat=seat,
            action=text,
            text=T("err.phz.options", options=", ".join(legal)),
        )

    # --- turns and draws ----------------------------------------------------------------
    def _turn_start(self, seat: int, *, discard: bool, self_draw: bool) -> None:
        """``seat`` now acts: it discards unless ``discard`` is False (重跑), a dealt 提 is owed
        a skipped discard, or it holds nothing but 王霸; it may 胡 when ``self_draw``."""
        if discard and self.owed[seat]:
            self.owed[seat] -= 1
            discard = False
        if discard and not self._keeps_a_discard(self.hands[seat]):
            discard = False
        self.turn = seat
        self.self_draw = self_draw
        self.must_discard = discard
        self._phase = DISCARD
        if not discard and not (self_draw and self.win_check(seat, None, "self")):
            self._next_draw(seat)

    def _next_draw(self, after: int) -> None:
        """The 下家 of ``after`` draws; unclaimed shown tiles go to the drawer's river and the
        next seat draws, until someone must act or the stock runs out (荒庄)."""
        seat = (after + 1) % SEATS
        while True:
            if self.stock_left() == 0:
                self._end("wall")
                return
            tile = self.stock[self.pos]
            self.pos += 1
            self.epochs[seat] += 1
            self.last_drawn = tile
            hand = self.hands[seat]
            if tile == WILD:  # 摸牌过程中抓到的王霸需要明示
                hand[WILD] += 1
                self.shown_wilds[seat] += 1
                self.last_event = T("phz.event.wild", seat=seat + 1)
                self.status[seat] = T("phz.status.wild")
                self._turn_start(seat, discard=True, self_draw=True)
                return
            if hand[tile] == 2:  # 啸 (偎): forced; 臭啸 after a 忍碰 of the tile
                hand[tile] = 0
                kind = Kind.CHOU_WEI if tile in self.renpeng[seat] else Kind.WEI
                self.groups[seat].append(Group(kind, (tile,) * 3))
                if kind is Kind.CHOU_WEI:  # 臭啸 is shown (两张暗一张明)
                    self.last_event = T("phz.event.chouwei", seat=seat + 1, tile=tile_zh(tile))
                    self.status[seat] = T("phz.status.chouwei", tile=tile_zh(tile))
                else:  # 啸 stays face down: the table learns nothing of the tile
                    self.last_event = T("phz.event.wei", seat=seat + 1)
                    self.status[seat] = T("phz.status.wei")
                self._turn_start(seat, discard=True, self_draw=True)
                return
            wei = self._group_of(seat, tile, Kind.WEI, Kind.CHOU_WEI)
            if hand[tile] == 3 or wei is not None:  # 倾: forced, shown
                if wei is not None:
                    self.groups[seat][wei] = Group(Kind.QING, (tile,) * 4)
                else:
                    hand[tile] = 0
                    self.groups[seat].append(Group(Kind.QING, (tile,) * 4))
                self.last_event = T("phz.event.qing", seat=seat + 1, tile=tile_zh(tile))
                self.status[seat] = T("phz.status.qing", tile=tile_zh(tile))
                again = self.paos[seat] > 0
                self.paos[seat] += 1
                self._turn_start(seat, discard=not again, self_draw=True)
                return
            self.last_event = T("phz.event.draw", seat=seat + 1, tile=tile_zh(tile))
            options = self._offer_options("draw", tile, seat)
            if options:
                self._open_claim(Claim("draw", tile, seat, options))
                return
            self._to_river(seat, tile)
            seat = (seat + 1) % SEATS

    def _to_river(self, seat: int, tile: int) -> None:
        self.rivers[seat].append(tile)

    def _offer_options(self, kind: str, tile: int, source: int) -> dict[int, list[str]]:
        """Who may do what with ``tile`` offered by ``source`` ("draw": shown after drawing,
        "discard")."""
        options: dict[int, list[str]] = {}
        for k in range(SEATS):
            s = (source + k) % SEATS
            own = s == source
            if own and kind == "discard":
                continue
            hand = self.hands[s]
            opts: list[str] = []
            how = "own" if own else kind
            if self.win_check(s, tile, how) is not None:
                opts.append("hu")
            if not own and (
                hand[tile] == 3 or self._group_of(s, tile, Kind.WEI, Kind.CHOU_WEI) is not None
            ):
                opts.append("pao")
            elif kind == "draw" and self._group_of(s, tile, Kind.PENG) is not None:
                opts.append("pao")  # 别人(或自己)从墩上摸得的牌是自己已经碰的牌
            if not own and hand[tile] == 2 and tile not in self.chou[s]:
                left = list(hand)
                left[tile] -= 2
                if self._keeps_a_discard(left):
                    opts.append("peng")
            eater = own or (s == (source + 1) % SEATS)
            if eater and tile not in self.chou[s] and hand[tile] < 3:
                opts += self.chi_options(s, tile)
            if opts:
                options[s] = [*opts, "pass"]
        return options

    def _open_claim(self, claim: Claim) -> None:
        self.claim = claim
        self._phase = CLAIM
        self._open_window()
        for s in claim.options:
            self.epochs[s] += 1

    def _discard(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 1
        self.status[seat] = T("phz.status.discard", tile=tile_zh(tile))
        self.last_event = T("phz.event.discard", seat=seat + 1, tile=tile_zh(tile))
        self.self_draw = False
        options = self._offer_options("discard", tile, seat)
        if options:
            self._open_claim(Claim("discard", tile, seat, options))
            return
        self._to_river(seat, tile)
        self._next_draw(seat)

    # --- claims ---------------------------------------------------------------------------
    def _claim_action(self, seat: int, kind: str, value: list[Any], text: str) -> str:
        claim = self.claim
        assert claim is not None
        options = claim.options[seat]
        action = kind
        if kind == "chi":
            chis = [o for o in options if o.startswith("chi")]
            typed = [list(g) for g in value]
            if typed and len(typed[0]) == 2:
                typed[0].append(claim.tile)
            wanted = sorted(format_group(g) for g in typed)
            action = " ".join(["chi", *wanted])
            if not typed and len(chis) == 1:
                action = chis[0]
            elif len(wanted) == 1 and action not in chis:
                found = [o for o in chis if wanted[0] in o.split()[1:]]
                if len(found) == 1:
                    action = found[0]
        elif kind == "discard":
            action = "?"
        if action not in options:
            raise IllegalActionError(
                f"you may now: {', '.join(options)}",
                seat=seat,
                action=text,
                text=T("err.phz.options", options=", ".join(options)),
            )
        return action

    def _resolve(self, claim: Claim) -> None:
        self.claim = None
        order = sorted(claim.options, key=lambda s: (s - claim.source) % SEATS)
        t = claim.tile
        taken = False
        for s in order:
            if claim.answers[s] == "hu":
                how = "own" if s == claim.source else claim.kind
                win = self.win_check(s, t, how)
                assert win is not None
                source = None if s == claim.source else claim.source
                self._win(win, source)
                return
        # Declined chances: 臭牌 for a 吃/碰 passed up, 忍碰 for a 碰 passed up.
        for s in order:
            opts, answer = claim.options[s], claim.answers[s]
            if answer == "pass":
                if any(o == "peng" or o.startswith("chi") for o in opts):
                    self.chou[s].add(t)
                if "peng" in opts:
                    self.renpeng[s].add(t)
                # no "passed" on the seat line: only a seat that could claim can pass, so the
                # table would learn who held a pair of the tile (issue 23)
        for wanted in ("pao", "peng", "chi"):
            for s in order:
                if claim.answers[s].startswith(wanted):
                    if wanted == "pao":
                        self._pao(s, t)
                    elif wanted == "peng":
                        self._peng(s, t)
                    else:
                        self._chi(s, t, claim.answers[s])
                    taken = True
                    break
            if taken:
                return
        self._to_river(claim.source, t)
        self._next_draw(claim.source)

    def _pao(self, seat: int, tile: int) -> None:
        hand = self.hands[seat]
        i = self._group_of(seat, tile, Kind.WEI, Kind.CHOU_WEI, Kind.PENG)
        if hand[tile] == 3:
            hand[tile] = 0
            self.groups[seat].append(Group(Kind.PAO, (tile,) * 4))
        else:
            assert i is not None
            self.groups[seat][i] = Group(Kind.PAO, (tile,) * 4)
        self.status[seat] = T("phz.status.pao", tile=tile_zh(tile))
        self.last_event = T("phz.event.pao", seat=seat + 1, tile=tile_zh(tile))
        again = self.paos[seat] > 0
        self.paos[seat] += 1
        self._turn_start(seat, discard=not again, self_draw=False)  # 重跑: no discard

    def _peng(self, seat: int, tile: int) -> None:
        self.hands[seat][tile] -= 2
        self.groups[seat].append(Group(Kind.PENG, (tile,) * 3))
        self.status[seat] = T("phz.status.peng", tile=tile_zh(tile))
        self.last_event = T("phz.event.peng", seat=seat + 1, tile=tile_zh(tile))
        self._turn_start(seat, discard=True, self_draw=False)

    def _chi(self, seat: int, tile: int, action: str) -> None:
        hand = self.hands[seat]
        hand[tile] += 1  # the claimed tile joins, then every group goes down
        names = []
        for word in action.split()[1:]:
            group = tuple(parse_tiles(word))
            for u in group:
                hand[u] -= 1
            self.groups[seat].append(Group(Kind.CHI, group))
            names.append("".join(tile_zh(u) for u in group))
        self.status[seat] = T("phz.status.chi", groups=" ".join(names))
        self.last_event = T("phz.event.chi", seat=seat + 1, groups=" ".join(names))
        self._turn_start(seat, discard=True, self_draw=False)

    # --- the end -------------------------------------------------------------------------
    def _win(self, win: Win | None, source: int | None) -> None:
        assert win is not None
        self.win = Win(win.seat, win.tile, source, win.huxi, win.fan, win.tiles, win.self_drawn)
        # 省: turn up the next stock tile (past any 王霸); an empty stock turns up nothing.
        while self.stock_left():
            flipped = self.stock[self.pos]
            self.pos += 1
            self.shen_flip.append(flipped)
            if flipped != WILD:
                self.shen_tile = next_tile(flipped)
                break
        key = "phz.status.zimo" if win.self_drawn else "phz.status.hu"
        self.status[win.seat] = T(key, huxi=win.huxi)
        self._end("win")

    def _end(self, how: str) -> None:
        self.ended = how
        self.claim = None
        self._phase = OVER

    def shen(self) -> int:
        """省 of the win (0 without a win)."""
        if self.win is None:
            return 0
        return shen_count(self.win.tiles, self.shen_tile)

    def zi(self) -> int:
        """子 of the win (0 without a win)."""
        if self.win is None:
            return 0
        return zi(self.win.huxi, self.shen(), self.di)

    def settle(self) -> list[Transfer]:
        """The hand's payments: on a win each other seat pays 子 × 番; at 荒庄 each 王霸 holder
        pays each seat holding none 5 per 王霸. A seat that escaped collects nothing."""
        out: list[Transfer] = []
        if self.win is not None:
            w = self.win
            points = self.zi() * w.fan.total
            if w.seat not in self.escaped:
                reason = T(
                    "phz.pay.zimo" if w.self_drawn else "phz.pay.hu", zi=self.zi(), fan=w.fan.total
                )
                for s in range(SEATS):
                    if s != w.seat:
                        out.append(Transfer(s, w.seat, points, reason))
        elif self.ended == "wall":
            for h in range(SEATS):
                n = self.hands[h][WILD]
                if not n:
                    continue
                for s in range(SEATS):
                    if not self.hands[s][WILD] and s not in self.escaped:
                        out.append(Transfer(h, s, WANGBA_PAY * n, T("phz.pay.wangba", n=n)))
        return out

    def outcome(self) -> Outcome:
        if not self.ended:
            raise IllegalActionError("the hand is not over yet", text=T("err.base.not_over"))
        transfers = self.settle()
        points = net_points(SEATS, transfers)
        lines: list[Text] = []
        winners: tuple[int, ...] = ()
        if self.win is not None:
            w = self.win
            winners = (w.seat,)
            how = "zimo" if w.self_drawn else "hu"
            lines.append(
                T(f"phz.out.{how}", seat=w.seat + 1, source=(w.source or 0) + 1, huxi=w.huxi)
            )
            shen_tile = "-" if self.shen_tile is None else tile_zh(self.shen_tile)
            lines.append(
                T(
                    "phz.out.shen",
                    tile=shen_tile,
                    n=self.shen(),
                    flipped=format_zh(self.shen_flip) or "-",
                )
            )
            for key, x in w.fan.items:
                lines.append(T("phz.out.fan", name=T(f"phz.fan.{key}"), x=x))
            lines.append(
                T(
                    "phz.out.points",
                    zi=self.zi(),
                    fan=w.fan.total,
                    points=self.zi() * w.fan.total,
                    di=self.di,
                )
            )
        else:
            lines.append(T("phz.out.wall"))
        for s in sorted(self.escaped):
            lines.append(T("phz.out.escaped", seat=s + 1))
        return Outcome(points, points, tuple(lines), winners, tuple(transfers))

    def next_carry(self) -> dict[str, Any]:
        """The winner deals the next hand; after 荒庄 the dealer deals again."""
        return {"dealer": self.win.seat if self.win is not None else self.dealer}

    # --- views ----------------------------------------------------------------------------
    def hand_text(self, seat: int) -> str:
        return format_zh(tiles_of(self.hands[seat]))

    def melds_text(self, seat: int, viewer: int | None) -> str:
        hidden = viewer != seat and not self.ended
        return " ".join(g.text(hidden) for g in self.groups[seat])

    def view(self, seat: int | None) -> View:
        seats = []
        for s in range(SEATS):
            open_hand = s == seat or self.ended is not None
            status = T("phz.status.escaped") if s in self.escaped else self.status[s]
            seats.append(
                SeatView(
                    role=T("phz.role.dealer") if s == self.dealer else None,
                    count=sum(self.hands[s]),
                    cards=self.hand_text(s) if open_hand else None,
                    status=status,
                    melds=self.melds_text(s, seat),
                    discards=format_zh(self.rivers[s]) if self.rivers[s] else "",
                )
            )
        lines = [T("phz.line.stock", n=self.stock_left(), dealer=self.dealer + 1)]
        for s in range(SEATS):
            lines.append(
                T(
                    "phz.line.huxi",
                    seat=s + 1,
                    huxi=self.open_huxi(s, seat),
                    wilds=self.shown_wilds[s],
                )
            )
        if self.last_event is not None:
            lines.append(self.last_event)
        if self.win is not None:
            lines.append(
                T(
                    "phz.line.won",
                    seat=self.win.seat + 1,
                    huxi=self.win.huxi,
                    zi=self.zi(),
                    fan=self.win.fan.total,
                )
            )
        if seat is not None and self.claim is not None and seat in self.to_act():
            lines.append(
                T(
                    "phz.line.claim_you",
                    tile=tile_zh(self.claim.tile),
                    options=", ".join(self.claim.options[seat]),
                )
            )
        return View(
            phase=self._phase_text(),
            seats=tuple(seats),
            lines=tuple(lines),
            hand=self.hand_text(seat) if seat is not None else None,
        )

    def _phase_text(self) -> Text:
        if self.ended:
            return T(f"phz.phase.over_{self.ended}")
        if self._phase == CLAIM:
            return T("phz.phase.claims")
        return T("phz.phase.turn", seat=self.turn + 1)

    def choices(self, seat: int) -> list[Choice]:
        """Buttons for the legal actions: 胡, 跑, 碰 and 过 first, then each way to 吃."""
        out: list[Choice] = []
        legal = self.legal_actions(seat)
        order = [a for a in legal if not a.startswith("chi")]
        order += [a for a in legal if a.startswith("chi")]
        for a in order:
            if a == "hu":
                key = "phz.choice.hu" if self._phase == CLAIM else "phz.choice.zimo"
                out.append(Choice(a, T(key), "success"))
            elif a in ("peng", "pao"):
                assert self.claim is not None
                out.append(
                    Choice(a, T(f"phz.choice.{a}", tile=tile_zh(self.claim.tile)), "primary")
                )
            elif a.startswith("chi"):
                groups = " ".join(format_zh(parse_tiles(w)) for w in a.split()[1:])
                out.append(Choice(a, T("phz.choice.chi", groups=groups), "primary"))
            elif a == "pass":
                out.append(Choice(a, T("phz.choice.pass")))
        return out

    def picker(self, seat: int) -> Picker | None:
        """The tiles the seat may discard on its turn (small, then big): at most 20 kinds, so
        one menu, and a pick discards at once."""
        if self.ended or self._phase != DISCARD or seat != self.turn or not self.must_discard:
            return None
        tiles = self.discardable(seat)
        tokens = tuple(tile_name(t) for t in tiles)
        labels = tuple(tile_zh(t) for t in tiles)
        return Picker(tokens, labels, 1, 1, "{}", "")

    def _trustee(self, seat: int, level: str = "normal") -> str:
        """托管: ``ai.choose`` (timeouts, escaped seats and bots alike); always legal."""
        return ai.choose(self, seat)

    # --- tests and debugging -----------------------------------------------------------------
    def census(self) -> list[int]:
        """Every physical tile once, sorted: stock, hands, groups, rivers, the tile on offer,
        the tile won on and the tiles turned up for 省."""
        out = list(self.stock[self.pos :]) + list(self.shen_flip)
        for s in range(SEATS):
            out += tiles_of(self.hands[s])
            out += [t for g in self.groups[s] for t in g.tiles]
            out += self.rivers[s]
        if self.claim is not None:
            out.append(self.claim.tile)
        if self.win is not None and self.win.tile is not None:
            out.append(self.win.tile)
        return sorted(out)


@cache
def _runs(tile: int) -> list[tuple[int, ...]]:
    """一句话 and 绞牌 containing ``tile`` (sorted tuples)."""
    out = set()
    for a in range(WORD_KINDS):
        for b in range(a, WORD_KINDS):
            for c in range(b, WORD_KINDS):
                if tile in (a, b, c) and is_run((a, b, c)):
                    out.add((a, b, c))
    return sorted(out)


def stacked(hands: Sequence[str], draws: str = "", dealer: int = 0) -> list[int]:
    """A stack that deals ``hands[s]`` to seat ``s`` (21 tiles for ``dealer``, 20 for the
    others; written in any tile notation) and then yields ``draws`` in order; the remaining
    tiles follow sorted. For tests and puzzles: ``PaohuziGame(setup, stack=...)`` with
    ``carry={"dealer": dealer}``."""
    order: list[int] = []
    for k in range(SEATS):
        s = (dealer + k) % SEATS
        dealt = parse_tiles(hands[s])
        if len(dealt) != DEALT + (1 if k == 0 else 0):
            raise ValueError(f"seat {s} gets {len(dealt)} tiles")
        order += dealt
    order += parse_tiles(draws) if draws else []
    rest = Counter(full_set())
    rest.subtract(order)
    if any(n < 0 for n in rest.values()):
        raise ValueError("more than four of a tile (or two 王霸)")
    return order + sorted(rest.elements())
