"""The common game interface: the host drives every game through these types only.

A game is a pure, synchronous state machine. The host never branches on which game it
runs; everything it needs (who acts, what they may do, what each seat may see, the
trustee's choice, the escape rule, the result in points) comes from here.

Life of one hand::

    game = spec.new(Setup(seats=3, seed=42, options=room_options))
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, "pass")          # or game.trustee(seat), or game.escape(seat)
    outcome = game.outcome()              # points per seat, level-score changes
    record = game.to_record()             # seed + options + action log: replays the hand
    same = spec.from_record(record)

Texts shown to players are ``Text`` values: a message key plus arguments. Each game ships
its own catalogue (``GameSpec.texts``) in zh-CN and en-US; the bot renders them.
"""

from __future__ import annotations

import functools
import json
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from engines.errors import GameError, IllegalActionError, NotationError, OptionError

ESCAPE = "escape"
"""Log entry action recorded when a seat escapes (逃跑); never a legal action to type."""

FORCED_PASS = "pass"
"""过/不出/要不起 in every game's notation (STYLE.md, Notation): what ``Game.forced_action``
answers when a seat may do nothing else."""

EASY, NORMAL, HARD = "easy", "normal", "hard"
LEVELS: tuple[str, ...] = (EASY, NORMAL, HARD)
"""托管水平, the trustee's levels (``Game.trustee``): ``easy`` plays today's trustee or a
simpler one, ``normal`` (the default) today's, ``hard`` a stronger and slower one (a search)
where the game has one, else today's. The host runs ``hard`` off its event loop."""


@dataclass(frozen=True, slots=True)
class Text:
    """A translatable text: catalogue ``key`` and format ``args`` (args may be Text too)."""

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def to_json(self) -> Any:
        return {
            "k": self.key,
            "a": {k: (v.to_json() if isinstance(v, Text) else v) for k, v in self.args.items()},
        }

    @classmethod
    def from_json(cls, data: Any) -> Text:
        args = {
            k: (cls.from_json(v) if isinstance(v, dict) and "k" in v else v)
            for k, v in data.get("a", {}).items()
        }
        return cls(data["k"], args)


NOBODY: frozenset[int] = frozenset()
"""The empty set of seats, one for every game (each ``frozenset()`` call makes a new one)."""


def T(key: str, **args: Any) -> Text:
    """Shorthand for ``Text(key, args)``."""
    return Text(key, args)


BASE_TEXTS: dict[str, dict[str, str]] = {
    "zh-CN": {
        "err.base.hand_over": "本局已经结束了。",
        "err.base.not_your_turn": "还没轮到你。",
        "err.base.not_seat_turn": "还没轮到这个座位。",
        "err.base.not_over": "对局还没有结束。",
        "err.base.no_seat": "没有 {seat} 号座位。",
        "err.base.seats": "本游戏需要 {low}～{high} 名玩家，现在是 {seats} 名。",
        "err.base.seats_exact": "本游戏需要 {low} 名玩家，现在是 {seats} 名。",
        "err.base.option_unknown": "没有“{option}”这个房间选项。",
        "err.base.option_type": "房间选项“{option}”应为{type}，不能是 {value}。",
        "err.base.option_min": "房间选项“{option}”不能小于 {min}。",
        "err.base.option_whole": "房间选项“{option}”必须是不小于 {min} 的整数。",
        "err.base.type.bool": "开关（true/false）",
        "err.base.type.int": "整数",
        "err.base.type.float": "数字",
        "err.base.type.str": "文字",
        "err.base.type.list": "列表",
        "err.base.start_choice": "开局选择无效：{seat} 号座位不能选“{choice}”（可选：{offered}）。",
        "base.window.private": "{phase}（私下应答的座位不公开，到时未答视为放弃）",
        "base.window.took": "{seat}号{what}",
    },
    "en-US": {
        "err.base.hand_over": "The hand is over.",
        "err.base.not_your_turn": "It is not your turn.",
        "err.base.not_seat_turn": "It is not this seat's turn.",
        "err.base.not_over": "The game is not over yet.",
        "err.base.no_seat": "There is no seat {seat}.",
        "err.base.seats": "{game} needs {low}-{high} seats, not {seats}.",
        "err.base.seats_exact": "{game} needs {low} seats, not {seats}.",
        "err.base.option_unknown": "{game} has no option '{option}'.",
        "err.base.option_type": "Option '{option}' must be {type}, not {value}.",
        "err.base.option_min": "Option '{option}': must be at least {min}.",
        "err.base.option_whole": "Option '{option}': must be a whole number ≥ {min}.",
        "err.base.type.bool": "true or false",
        "err.base.type.int": "a whole number",
        "err.base.type.float": "a number",
        "err.base.type.str": "text",
        "err.base.type.list": "a list",
        "err.base.start_choice": "Seat {seat} cannot choose '{choice}' at the start (the choices "
        "are {offered}).",
        "base.window.private": "{phase} (who may answer privately is not shown; no answer in "
        "time lets it pass)",
        "base.window.took": "Seat {seat} {what}",
    },
}
"""Texts of the errors every game shares (turns, seats, options) and of the table's words for
an open private window (``Game.window_phase``) and for what a closed one took
(``Window.took``); ``GameSpec`` merges them into each game's catalogue. Seat numbers are
1-based."""

BASE_TEXTS["zh-TW"] = {
    "err.base.hand_over": "本局已經結束了。",
    "err.base.not_your_turn": "還沒輪到你。",
    "err.base.not_seat_turn": "還沒輪到這個座位。",
    "err.base.not_over": "對局還沒有結束。",
    "err.base.no_seat": "沒有 {seat} 號座位。",
    "err.base.seats": "本遊戲需要 {low}～{high} 名玩家，現在是 {seats} 名。",
    "err.base.seats_exact": "本遊戲需要 {low} 名玩家，現在是 {seats} 名。",
    "err.base.option_unknown": "沒有「{option}」這個房間選項。",
    "err.base.option_type": "房間選項「{option}」應為{type}，不能是 {value}。",
    "err.base.option_min": "房間選項「{option}」不能小於 {min}。",
    "err.base.option_whole": "房間選項「{option}」必須是不小於 {min} 的整數。",
    "err.base.type.bool": "開關（true/false）",
    "err.base.type.int": "整數",
    "err.base.type.float": "數字",
    "err.base.type.str": "文字",
    "err.base.type.list": "列表",
    "err.base.start_choice": "開局選擇無效：{seat} 號座位不能選「{choice}」（可選：{offered}）。",
    "base.window.private": "{phase}（私下應答的座位不公開，到時未答視為放棄）",
    "base.window.took": "{seat}號{what}",
}
"""繁體中文 (Taiwan): kept complete by ``python -m bot.i18n.tw --fill``."""

_TYPE_KEYS: dict[type, str] = {
    bool: "err.base.type.bool",
    int: "err.base.type.int",
    float: "err.base.type.float",
    str: "err.base.type.str",
    list: "err.base.type.list",
}


def type_text(value: Any) -> Text | str:
    """The kind of ``value`` an option expects, as a Text (its type name if unknown)."""
    key = _TYPE_KEYS.get(type(value))
    return T(key) if key is not None else type(value).__name__


def option_type_error(key: str, default: Any, value: Any) -> OptionError:
    """The OptionError for room option ``key`` given ``value`` where ``default``'s type is
    expected."""
    kind = type(default).__name__
    return OptionError(
        key,
        f"expected {kind}, got {value!r}",
        text=T("err.base.option_type", option=key, type=type_text(default), value=repr(value)),
    )


@dataclass(frozen=True)
class Setup:
    """Everything a new hand is built from; with the action log it reproduces the hand.

    ``stakes``: per seat, the most points that seat can pay this hand (what it carried to
    the table divided by the room coefficient), or None where unlimited (score-only rooms,
    bot seats). Games with money-dependent rules (加倍 thresholds, bet limits) read it.
    ``ratings``: each seat's current level score (积分) in this game, for rating rules.
    ``carry``: what the previous hand at this table passed on (``Game.next_carry``), e.g.
    who bids first next or who stays banker.
    ``coefficient``: the room's beans per point (房间系数 N; 0 in a score-only room), for the
    rules a seed states in coins (e.g. 吃火锅's per-bet and per-loss caps).
    ``starts``: 开局选择, the choices people made at the waiting table before this hand was
    dealt (``Game.start_offers``), as (seat, action) in the order they were made.
    """

    seats: int
    seed: int
    options: Mapping[str, Any] = field(default_factory=dict)
    stakes: tuple[int | None, ...] = ()
    ratings: tuple[int, ...] = ()
    carry: Mapping[str, Any] = field(default_factory=dict)
    coefficient: int = 0
    starts: tuple[tuple[int, str], ...] = ()

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seats": self.seats,
            "seed": self.seed,
            "options": dict(self.options),
            "stakes": list(self.stakes),
            "ratings": list(self.ratings),
            "carry": dict(self.carry),
            "coefficient": self.coefficient,
        }
        if self.starts:  # only then: every other hand's record stays as it was
            data["starts"] = [[seat, action] for seat, action in self.starts]
        return data

    @classmethod
    def from_json(cls, data: Any) -> Setup:
        """Read a setup saved by ``to_json``, checking every field: a saved record is input.

        Raises ValueError naming the field: ``seats`` a count above 0, ``seed`` an integer,
        ``stakes`` and ``ratings`` one per seat (or none), stakes non-negative or null,
        ``coefficient`` non-negative, ``starts`` (seat, action) pairs of real seats.
        """
        if not isinstance(data, Mapping):
            raise ValueError(f"setup should be an object, not {data!r:.60}")  # noqa: TRY004

        def field_(name: str, check: Callable[[Any], bool], kind: str, default: Any = ...) -> Any:
            if name not in data:
                if default is ...:
                    raise ValueError(f"setup: field {name!r} is missing")
                return default
            value = data[name]
            if not check(value):
                raise ValueError(f"setup: field {name!r} should be {kind}, not {value!r:.60}")
            return value

        seats = field_("seats", lambda v: _is_int(v) and v > 0, "a seat count above 0")

        def per_seat(check: Callable[[Any], bool]) -> Callable[[Any], bool]:
            return lambda v: (isinstance(v, (list, tuple)) and len(v) in (0, seats)
                              and all(map(check, v)))

        def is_start(v: Any) -> bool:
            return (isinstance(v, (list, tuple)) and len(v) == 2 and _is_int(v[0])
                    and 0 <= v[0] < seats and isinstance(v[1], str))

        return cls(
            seats=seats,
            seed=field_("seed", _is_int, "an integer"),
            options=dict(field_("options", _is_str_keyed, "an object", {})),
            stakes=tuple(field_(
                "stakes", per_seat(lambda x: x is None or (_is_int(x) and x >= 0)),
                "a stake (points, or null) per seat", (),
            )),
            ratings=tuple(field_("ratings", per_seat(_is_int), "a rating per seat", ())),
            carry=dict(field_("carry", _is_str_keyed, "an object", {})),
            coefficient=field_("coefficient", lambda v: _is_int(v) and v >= 0,
                               "a non-negative integer", 0),
            starts=tuple(
                (seat, action) for seat, action in field_(
                    "starts", lambda v: isinstance(v, (list, tuple)) and all(map(is_start, v)),
                    "a list of (seat, action) pairs", (),
                )
            ),
        )


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _is_str_keyed(value: Any) -> bool:
    return isinstance(value, Mapping) and all(isinstance(k, str) for k in value)


@dataclass(frozen=True)
class SeatView:
    """What a viewer sees of one seat.

    ``role``: e.g. 地主/农民/庄家 (None before it is known). ``count``: cards left (报牌),
    None where not meaningful. ``cards``: cards of this seat the viewer may see, in the
    game's notation (own hand, 明牌, open cards), else None. ``status``: the seat's last
    action or state ("bid 2", "passed", "escaped" ...). ``melds``: what the seat has laid
    open (副露: 碰, 杠, 吃 ...; groups separated by spaces) and ``discards`` its discards
    (牌河) in order, in notation, where the game has them, else None.
    """

    role: Text | None = None
    count: int | None = None
    cards: str | None = None
    status: Text | None = None
    melds: str | None = None
    discards: str | None = None


@dataclass(frozen=True)
class Board:
    """A grid board for board games: ``size`` × ``size``; ``stones`` maps "H8" → colour index."""

    size: int
    stones: Mapping[str, int]
    last: str | None = None
    marks: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Shown:
    """牌面 with suits: the suited twin of the card texts a view shows, for pictures only.

    A game whose notation leaves out what its cards look like (斗地主 writes ranks, ``33344``,
    though every card was dealt with a suit) gives the same cards here as suited tokens in
    the card notation (``3s 3h 3d 4c 4h``, jokers ``B``/``R``): ``hand`` twins ``View.hand``,
    ``seats[i]`` twins ``View.seats[i].cards`` and ``lines[k]`` the cards of ``View.lines[k]``
    (its ``cards`` or ``card`` argument), ``round[k]`` the cards of ``View.round[k]`` and
    ``last_round[k]`` those of ``View.last_round.plays[k]``; None where there are no cards or
    no twin (a pass; an empty tuple: none for any; ``seat(i)``/``line(k)``/``play(k)``/
    ``last_play(k)`` read them). A twin is given only where the view itself shows those cards,
    so it tells a viewer nothing more than which suits it is looking at. Texts (DMs, embeds,
    hints, errors) never read it.
    """

    hand: str | None = None
    seats: tuple[str | None, ...] = ()
    lines: tuple[str | None, ...] = ()
    round: tuple[str | None, ...] = ()
    last_round: tuple[str | None, ...] = ()

    def seat(self, index: int) -> str | None:
        """The twin of seat ``index``'s open cards, or None."""
        return self.seats[index] if index < len(self.seats) else None

    def line(self, index: int) -> str | None:
        """The twin of the cards of line ``index``, or None."""
        return self.lines[index] if index < len(self.lines) else None

    def play(self, index: int) -> str | None:
        """The twin of the cards of ``View.round[index]``, or None."""
        return self.round[index] if index < len(self.round) else None

    def last_play(self, index: int) -> str | None:
        """The twin of the cards of ``View.last_round.plays[index]``, or None."""
        return self.last_round[index] if index < len(self.last_round) else None


@dataclass(frozen=True, slots=True)
class Play:
    """One seat's turn in the round so far (本轮): ``cards`` played, in the game's notation, or
    None for a pass (不出); ``note`` says what else the table should know of it (甩牌失败：the
    throw tried and what it was forced to, 让牌, 烧牌).

    >>> Play.from_json(Play(2, "8h", T("k")).to_json()) == Play(2, "8h", T("k"))
    True
    """

    seat: int
    cards: str | None
    note: Text | None = None

    def to_json(self) -> list[Any]:
        return [self.seat, self.cards, None if self.note is None else self.note.to_json()]

    @classmethod
    def from_json(cls, data: Any) -> Play:
        seat, cards, note = data
        if not isinstance(seat, int) or not (cards is None or isinstance(cards, str)):
            raise ValueError(f"not a play: {data!r}")
        return cls(seat, cards, None if note is None else Text.from_json(note))


@dataclass(frozen=True, slots=True)
class Trick:
    """A finished trick (墩) or round (轮): its plays in order and ``winner``, the seat whose
    play took it (None where a family names none)."""

    plays: tuple[Play, ...]
    winner: int | None = None

    def to_json(self) -> dict[str, Any]:
        return {"plays": [p.to_json() for p in self.plays], "winner": self.winner}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Trick:
        winner = data.get("winner")
        if winner is not None and not isinstance(winner, int):
            raise ValueError(f"not a seat: {winner!r}")
        return cls(tuple(Play.from_json(p) for p in data["plays"]), winner)


class RoundLog:
    """本轮 and 上一轮: the plays of the trick or round in progress and the previous one, kept
    by every climbing and trick-taking family the same way (``View.round``,
    ``View.last_round``). A family calls ``play``/``pass_`` as seats act, ``note`` when a
    play turns out to be more than its cards (a failed 甩牌), and ``close`` when the trick or
    round ends; a view reads ``current()`` and ``last``.

    >>> log = RoundLog(); log.play(0, "33"); log.pass_(1); log.close(0)
    >>> log.current(), [p.cards for p in log.last.plays], log.last.winner
    ((), ['33', None], 0)
    """

    __slots__ = ("last", "plays")

    def __init__(self) -> None:
        self.plays: list[Play] = []
        self.last: Trick | None = None

    def play(self, seat: int, cards: str, note: Text | None = None) -> None:
        self.plays.append(Play(seat, cards, note))

    def pass_(self, seat: int, note: Text | None = None) -> None:
        self.plays.append(Play(seat, None, note))

    def close(self, winner: int | None = None) -> None:
        """The trick or round is over: it becomes ``last``; nothing is played in the next."""
        if self.plays:
            self.last = Trick(tuple(self.plays), winner)
        self.plays = []

    def current(self) -> tuple[Play, ...]:
        return tuple(self.plays)


@dataclass(frozen=True)
class View:
    """Everything one viewer (a seat, or None for the public) may see right now.

    ``hand``: the viewer's private cards (None for the public view). ``lines``: table-wide
    facts such as the multiplier, the kitty once shown, the last play, the pot.
    ``counter``: 记牌器, what the viewer may know of the cards still out (neither in its hand nor
    played), in the game's notation with counts (``R×1 B×0 2×3 …``); only ever in a seat's own
    view, where the game and the room offer it; None otherwise.
    ``shown``: the suited twin of the cards above, for pictures (``Shown``), where the game's
    notation has no suits; None for every game whose notation draws as it is written.
    ``round``: 本轮, the round so far in climbing and trick-taking games: each seat's play or
    pass in this trick or round, in order (``Play``); () when nothing is played yet, None in
    games without rounds (their rivers show the history). ``last_round``: 上一轮, the
    previous trick or round, complete, with who took it (``Trick``), or None.
    """

    phase: Text
    seats: tuple[SeatView, ...]
    lines: tuple[Text, ...] = ()
    hand: str | None = None
    board: Board | None = None
    counter: str | None = None
    shown: Shown | None = None
    round: tuple[Play, ...] | None = None
    last_round: Trick | None = None

    def to_json(self) -> dict[str, Any]:
        """Plain data, e.g. to keep a finished hand's final picture; ``from_json`` reverses it."""

        def text(value: Text | None) -> Any:
            return None if value is None else value.to_json()

        return {
            "phase": text(self.phase),
            "seats": [
                {"role": text(s.role), "count": s.count, "cards": s.cards, "status": text(s.status),
                 "melds": s.melds, "discards": s.discards}
                for s in self.seats
            ],
            "lines": [line.to_json() for line in self.lines],
            "hand": self.hand,
            "board": None if self.board is None else {
                "size": self.board.size, "stones": dict(self.board.stones),
                "last": self.board.last, "marks": dict(self.board.marks),
            },
            "counter": self.counter,
            "shown": None if self.shown is None else {
                "hand": self.shown.hand, "seats": list(self.shown.seats),
                "lines": list(self.shown.lines), "round": list(self.shown.round),
                "last_round": list(self.shown.last_round),
            },
            "round": None if self.round is None else [p.to_json() for p in self.round],
            "last_round": None if self.last_round is None else self.last_round.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> View:
        def text(value: Any) -> Text | None:
            return None if value is None else Text.from_json(value)

        board = data.get("board")
        shown = data.get("shown")  # (absent from the views saved before it existed)
        played, last = data.get("round"), data.get("last_round")  # (likewise)
        return cls(
            phase=Text.from_json(data["phase"]),
            seats=tuple(
                SeatView(text(s["role"]), s["count"], s["cards"], text(s["status"]),
                         s.get("melds"), s.get("discards"))
                for s in data["seats"]
            ),
            lines=tuple(Text.from_json(line) for line in data["lines"]),
            hand=data.get("hand"),
            board=None if board is None else Board(
                board["size"], dict(board["stones"]), board["last"], dict(board["marks"])),
            counter=data.get("counter"),
            shown=None if shown is None else Shown(
                shown.get("hand"), tuple(shown.get("seats", ())), tuple(shown.get("lines", ())),
                tuple(shown.get("round", ())), tuple(shown.get("last_round", ()))),
            round=None if played is None else tuple(Play.from_json(p) for p in played),
            last_round=None if last is None else Trick.from_json(last),
        )


def waiting_face(view: View, seat: int) -> tuple[Any, ...]:
    """What a waiting private hand shows of ``view`` (``Game.private_face``'s default): the
    hand, each seat's cards shown to the viewer, the viewer's own melds, the board, and the
    suited twins of the hand and of those cards (None when they twin nothing)."""
    shown = view.shown
    twin = None
    if shown is not None and (shown.hand is not None or any(shown.seats)):
        twin = (shown.hand, shown.seats)
    melds = view.seats[seat].melds if seat < len(view.seats) else None
    return (view.hand, tuple(sv.cards for sv in view.seats), melds, view.board, twin)


@dataclass(frozen=True)
class Choice:
    """A ready-made action for a button: ``action`` in notation, ``label`` to show."""

    action: str
    label: Text
    style: str = "secondary"  # "primary" | "secondary" | "success" | "danger"


@dataclass(frozen=True)
class Picker:
    """A multi-select over the seat's cards; the picked tokens joined form an action.

    ``tokens``: selectable items in notation, any number; each is used at most once.
    ``groups``: sizes of consecutive runs of ``tokens`` shown as one menu each (e.g. by suit),
    each at most ``MENU_SIZE``; empty means "cut into menus of ``MENU_SIZE``". With one menu a
    pick acts at once; with several, picks are gathered across menus and confirmed.
    ``template``: how picked tokens become an action, ``{}`` replaced by them joined
    with ``sep`` (e.g. "{}" for a play of cards, "split {}" for choosing a split).
    """

    tokens: tuple[str, ...]
    labels: tuple[str, ...]
    min_values: int = 1
    max_values: int = 1
    template: str = "{}"
    sep: str = ""
    groups: tuple[int, ...] = ()

    MENU_SIZE: ClassVar[int] = 25
    """The most options one menu holds (Discord's select limit)."""

    def action(self, picked: list[str]) -> str:
        return self.template.format(self.sep.join(picked))

    def menus(self) -> list[tuple[int, int]]:
        """(start, stop) index ranges of ``tokens``, one per menu.

        >>> Picker(tuple("abc"), tuple("abc"), groups=(2, 1)).menus()
        [(0, 2), (2, 3)]
        >>> [len(range(*m)) for m in Picker(tuple("x" * 33), tuple("x" * 33)).menus()]
        [25, 8]

        Raises ValueError when the groups do not cover the tokens or one exceeds MENU_SIZE.
        """
        sizes = self.groups or tuple(
            min(self.MENU_SIZE, len(self.tokens) - i)
            for i in range(0, len(self.tokens), self.MENU_SIZE)
        )
        if sum(sizes) != len(self.tokens) or any(not 0 < n <= self.MENU_SIZE for n in sizes):
            raise ValueError(f"picker groups {sizes} do not cut {len(self.tokens)} tokens")
        ranges, start = [], 0
        for n in sizes:
            ranges.append((start, start + n))
            start += n
        return ranges


@dataclass(frozen=True, slots=True)
class Window:
    """决策窗口: a decision several seats may answer at once (a claim on a discard, 烧, 反主,
    加倍, 炮子), declared by a game's ``decision`` and read by base, which derives from it
    who acts (``to_act``), who the table names (``public_to_act``), the deadline
    (``window``) and what a timeout answers (``timeout_action``).

    ``seats``: the seats asked, in order. ``answers``: what each seat answered so far (a
    seat that answered no longer acts). ``options``: each asked seat's options in the game's
    own form (its claims, ``beat``/``burn``), or None where ``legal_actions`` tells them.
    ``private``: who is asked would tell what they hold, so the table names nobody (but the
    seats in ``shown``, whose answer is a public turn, e.g. 够级's beaters beside the private
    烧); the table shows the phase and the countdown only. ``key``: the window's identity,
    None where every answer is a decision point of its own (its own deadline); with a key,
    the whole window has one deadline, and answers inside it never restart anyone's clock or
    show in ``Game.window``. ``timeout``: what a seat that lets the time pass answers (one
    action for all, or one per seat), None for the trustee's choice; ``miss``: whether that
    counts towards the two-miss trustee rule (letting an optional claim lapse does not). A
    seat in ``shown`` times out as on any turn: the trustee's choice, a miss.

    >>> w = Window((0, 2, 3), answers={2: "pass"}, private=True, key=7, timeout="pass",
    ...            miss=False)
    >>> w.waiting, w.timeout_for(3)
    ((0, 3), Timeout(action='pass', miss=False))
    """

    seats: tuple[int, ...]
    answers: Mapping[int, str] = field(default_factory=dict)
    options: Mapping[int, Any] | None = None
    private: bool = False
    shown: tuple[int, ...] = ()
    key: int | None = None
    timeout: str | Mapping[int, str] | None = None
    miss: bool = True
    waiting: tuple[int, ...] = field(init=False)

    def __post_init__(self) -> None:
        answers = self.answers
        object.__setattr__(
            self, "waiting",
            tuple(s for s in self.seats if s not in answers) if answers else tuple(self.seats),
        )

    @classmethod
    def claims(cls, seats: tuple[int, ...], key: int, answers: Mapping[int, str] | None = None,
               options: Mapping[int, Any] | None = None, shown: tuple[int, ...] = ()) -> Window:
        """The usual private window: optional claims (碰/杠/胡, 烧, 反主, 埋王) that the table
        never names, one deadline, letting it pass is ``pass`` and no miss."""
        return cls(seats, {} if answers is None else answers, options, private=True,
                   shown=shown, key=key, timeout="pass", miss=False)

    @staticmethod
    def took(seat: int, what: Text) -> Text:
        """窗口结果: the public record of a closed window, in one form for every family — the
        seat that took and what it took (``what``: the family's words, the same the taker's
        seat line shows), and nothing else: who else was asked, who declined and who lost to
        a stronger claim never show, so a window where one seat could answer reads like one
        where three could. A window that took nothing leaves no record at all.

        >>> took = Window.took(2, T("phz.status.peng", tile="五"))
        >>> took.key, took.args["seat"], took.args["what"].key
        ('base.window.took', 3, 'phz.status.peng')
        """
        return T("base.window.took", seat=seat + 1, what=what)

    def public(self) -> tuple[int, ...]:
        """The waiting seats the table names: all of them, or in a private window only those
        in ``shown``."""
        if not self.private:
            return self.waiting
        return tuple(s for s in self.waiting if s in self.shown)

    def timeout_for(self, seat: int) -> Timeout | None:
        """The declared timeout answer of ``seat``, or None for the trustee's choice."""
        if self.timeout is None or seat in self.shown:
            return None
        action = self.timeout if isinstance(self.timeout, str) else self.timeout[seat]
        return Timeout(action, miss=self.miss)


@dataclass(frozen=True)
class Timeout:
    """What happens to a seat whose time runs out: ``action`` is applied for it, and ``miss``
    says whether it counts towards the two-miss trustee rule (an ignored optional claim
    timing out to 过 is no miss)."""

    action: str
    miss: bool = True


@dataclass(frozen=True)
class Transfer:
    """One payment of the hand between two seats: ``payer`` owes ``payee`` ``points`` (×N in
    beans), for ``reason`` (点炮, 自摸, 刮风, 查大叫, an escape penalty ...).

    Settlement applies a hand's transfers in order, each at most what the payer still holds
    (deduct only down to 0) and at most what the payee carried (GAMES.md §1.3).
    """

    payer: int
    payee: int
    points: int
    reason: Text | None = None

    def __post_init__(self) -> None:
        if self.payer == self.payee or self.points <= 0:
            raise ValueError(f"bad transfer {self.payer}->{self.payee}: {self.points}")

    def to_json(self) -> dict[str, Any]:
        return {
            "payer": self.payer, "payee": self.payee, "points": self.points,
            "reason": None if self.reason is None else self.reason.to_json(),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Transfer:
        reason = data.get("reason")
        return cls(int(data["payer"]), int(data["payee"]), int(data["points"]),
                   None if reason is None else Text.from_json(reason))


def net_points(seats: int, transfers: Sequence[Transfer]) -> tuple[int, ...]:
    """Each seat's net points from a list of transfers (what ``Outcome.points`` must be).

    >>> net_points(3, [Transfer(0, 1, 5), Transfer(2, 1, 5)])
    (-5, 10, -5)
    """
    net = [0] * seats
    for t in transfers:
        net[t.payer] -= t.points
        net[t.payee] += t.points
    return tuple(net)


@dataclass(frozen=True)
class Outcome:
    """The result of a finished hand.

    ``points``: X per seat, signed, zero-sum unless a rule says otherwise; beans move as
    X·N with the room's coefficient N. ``scores``: change of each seat's level score (积分).
    ``lines``: summary facts for the settlement message ("春天 ×2", "地主胜").
    ``transfers``: where a game's payments run between pairs of seats (点炮, 自摸, kong money,
    an escaper's penalty), the payments in order; then ``points`` must be their
    ``net_points`` and beans move pair by pair. Empty (the default): losers pay into one pot
    that winners share (storage/settlement.py).
    ``fees``: beans (not points) each seat spent at the house during the hand — props (道具)
    bought with beans, a bean sink; settled with the rake, before any payment between seats,
    each at most what the seat holds. Empty (the default): none.
    """

    points: tuple[int, ...]
    scores: tuple[int, ...]
    lines: tuple[Text, ...] = ()
    winners: tuple[int, ...] = ()
    transfers: tuple[Transfer, ...] = ()
    fees: tuple[int, ...] = ()

    def __post_init__(self) -> None:
        if self.transfers and net_points(len(self.points), self.transfers) != tuple(self.points):
            raise ValueError("outcome points are not the net of its transfers")
        if self.fees and (len(self.fees) != len(self.points) or min(self.fees) < 0):
            raise ValueError("outcome fees need one non-negative amount per seat")

    def to_json(self) -> dict[str, Any]:
        return {
            "points": list(self.points),
            "scores": list(self.scores),
            "winners": list(self.winners),
            "lines": [t.to_json() for t in self.lines],
            "transfers": [t.to_json() for t in self.transfers],
            "fees": list(self.fees),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Outcome:
        return cls(
            points=tuple(int(p) for p in data["points"]),
            scores=tuple(int(p) for p in data["scores"]),
            lines=tuple(Text.from_json(t) for t in data.get("lines", ())),
            winners=tuple(int(w) for w in data.get("winners", ())),
            transfers=tuple(Transfer.from_json(t) for t in data.get("transfers", ())),
            fees=tuple(int(f) for f in data.get("fees", ())),
        )


class FaceKind(Enum):
    """What a face in a picture is: a suited or plain card, a joker, a tile, a card's back."""

    CARD = "card"
    JOKER = "joker"
    TILE = "tile"
    BACK = "back"


@dataclass(frozen=True)
class Face:
    """牌面: how one card or tile is drawn in pictures (the notation stays the truth).

    ``label``: the rank or the tile's text ("10", "A", "大王", "5", "東", "贰"). ``suit``: for
    cards ``s h c d`` ("" where the game ignores suits), for tiles ``m p s z`` (万 筒 条 字) or
    a game's own script letter. ``red``: drawn in red (♥ ♦, 大王, 中, red word tiles).
    ``gap``: drawn a little apart from the face before it (a new group: a meld, the tile just
    drawn).
    """

    kind: FaceKind
    label: str
    suit: str = ""
    red: bool = False
    gap: bool = False


def no_faces(notation: str) -> tuple[Face, ...] | None:
    """The default of ``GameSpec.faces``: no pictures of this game's cards (text only)."""
    return None


class ActionLog(Sequence[tuple[int, str]]):
    """A hand's action log (``Game.log``): (seat, action) in order, read like a list of
    pairs (``len``, iteration, indexing, slices as lists, ``==`` with a list) but kept as one
    byte per seat and the action texts, not a tuple per action: the log is most of a running
    hand's memory.

    >>> log = ActionLog(); log.append((2, "pass")); log.append((0, "33"))
    >>> log[1], log[-1:], list(log) == [(2, "pass"), (0, "33")], log == [(2, "pass"), (0, "33")]
    ((0, '33'), [(0, '33')], True, True)
    """

    __slots__ = ("_actions", "_seats")

    def __init__(self, entries: Sequence[tuple[int, str]] = ()) -> None:
        self._seats = bytearray()
        self._actions: list[str] = []
        for entry in entries:
            self.append(entry)

    def append(self, entry: tuple[int, str]) -> None:
        seat, action = entry
        self._seats.append(seat)  # ValueError beyond 0..255: no game seats that many
        self._actions.append(sys.intern(action))  # one "pass", one "33" for every table

    def __len__(self) -> int:
        return len(self._actions)

    def __iter__(self) -> Any:
        return zip(self._seats, self._actions)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return list(zip(self._seats[index], self._actions[index]))
        return (self._seats[index], self._actions[index])

    def __eq__(self, other: object) -> bool:
        if isinstance(other, ActionLog):
            return self._seats == other._seats and self._actions == other._actions
        if isinstance(other, (list, tuple)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return repr(list(self))


MEMO_HOOKS: tuple[str, ...] = (
    "decision", "to_act", "legal_actions", "forced_action", "private_face", "view", "choices",
    "picker", "open_offers",
)
"""The hooks the host asks several times about one state (after every action: who acts, each
waiting seat's forced pass and face, the acting seats' views and choices): between the host's
``Game.remember`` and ``Game.forget``, ``Game`` answers each once per state and keeps the
answer until the state changes (``apply``, ``escape``). A game overrides them as usual; base
wraps every override when the class is made (``Game.__init_subclass__``). Outside that span
every question is answered afresh, so a test or a tool may change a game's fields directly."""


_MISSING = object()
"""No answer kept (``_memoized``): None is an answer like any other."""


def _memoized(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` answered once per state of the game and arguments (``MEMO_HOOKS``). Keyed by the
    function itself, so an override calling ``super()`` keeps its own answer apart. A list is
    handed out as a copy (a caller may change its own); never while an action is being
    applied (the state is then half changed), nor outside the host's ``Game.remember``."""

    @functools.wraps(fn)
    def hook(self: Game, *args: Any, **kwargs: Any) -> Any:
        memo = self._memo
        if memo is None or kwargs:
            return fn(self, *args, **kwargs)
        key = (fn, *args)
        try:
            value = memo.get(key, _MISSING)  # a miss is as common as a hit: no KeyError
        except TypeError:  # an argument that cannot be a key: asked afresh
            return fn(self, *args)
        if value is _MISSING:
            value = memo[key] = fn(self, *args)
        return value.copy() if type(value) is list else value

    hook.memoized = True  # type: ignore[attr-defined]
    return hook


class Remembering:
    """The host's memo of ``MEMO_HOOKS`` (a part of ``Game``, which inherits it): every
    override of a hook is wrapped when its class is made, and the answers are kept between
    ``remember`` and ``forget``, each until ``apply``/``escape`` changes the state."""

    _memo: dict[Any, Any] | None = None

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in MEMO_HOOKS:
            fn = cls.__dict__.get(name)
            if callable(fn) and not getattr(fn, "memoized", False):
                setattr(cls, name, _memoized(fn))

    def remember(self) -> None:
        """Keep the answers of ``MEMO_HOOKS`` from now on, each until the state changes: the
        host calls it before its questions about an action, and ``forget`` when it is done."""
        if self._memo is None:
            self._memo = {}

    def forget(self) -> None:
        """Keep no answers any more (``remember``): a table waiting for its next action holds
        none, and a change made to the game's fields directly is seen at once."""
        self._memo = None

    def _changing(self) -> bool:
        """The state is about to change: no kept answer holds, none is kept meanwhile.
        Returns whether answers were being kept (``_changed`` keeps them again)."""
        kept = self._memo is not None
        self._memo = None
        return kept

    def _changed(self, kept: bool) -> None:
        self._memo = {} if kept else None


class Game(Remembering, ABC):
    """One hand (or one game) of a game: a pure state machine driven by actions in notation.

    Subclasses implement the abstract methods; ``apply`` and ``escape`` are the only
    mutators and both append to ``log`` so ``from_record(to_record())`` rebuilds the state.
    Bad input raises ``NotationError`` or ``IllegalActionError`` and changes nothing.
    """

    def __init__(self, setup: Setup) -> None:
        self.setup = setup
        self.log = ActionLog()
        # who escaped: a frozenset, new at each escape (no hand has many), so the usual hand
        # holds the one empty frozenset every game shares, not a set of its own (216 bytes)
        self.escaped: frozenset[int] = NOBODY
        self._memo = None  # MEMO_HOOKS' answers for this state, while the host remembers
        if setup.starts:
            self.check_starts(setup)

    # --- who acts, and what they may do -------------------------------------------------
    _decisions: int = 0
    """Decision points so far (``window``): every action and escape outside a keyed window
    is one, a keyed window is one however many seats answer it."""

    def decision(self) -> Window | None:
        """The decision window open now (``Window``: several seats answering at once, a claim,
        an optional step with its own timeout answer), or None on an ordinary turn. A game
        declares its windows here and base derives ``to_act``, ``public_to_act``, ``window``
        and ``timeout_action`` from it; asked after every action, so it must be cheap (None at
        once outside a window phase). Default: no windows."""
        return None

    @_memoized
    def to_act(self) -> tuple[int, ...]:
        """Seats that may act now (several for simultaneous choices); () when over: the open
        window's seats still to answer (``decision``), else ``turn_seats``."""
        window = self.decision()
        return self.turn_seats() if window is None else window.waiting

    def turn_seats(self) -> tuple[int, ...]:
        """Whose turn it is outside any decision window (the seat to play, bid, bury, or the
        seats betting at once where each answer is its own decision); () when over. Every game
        overrides this; ``to_act`` is base's."""
        return ()

    def public_to_act(self) -> tuple[int, ...]:
        """Seats the table shows as acting now (▶, public buttons). Seats in ``to_act()`` but
        not here answer privately (a ``Window`` declared ``private``): showing who may
        碰/杠/胡 would give their hands away; the table then says so through the public view's
        phase. Derived from ``decision``."""
        window = self.decision()
        return self.to_act() if window is None else window.public()

    def window_phase(self, phase: Text) -> Text:
        """What the table shows as the phase (``View.phase``) while a decision window is open,
        built here for every family: each game's views pass their own words for the phase
        (which name no seat the window asks privately) and get them back as the table shows
        them. A private window whose timeout lets the decision pass (``Window.claims``, 宣点)
        reads ``base.window.private`` — the phase, that who may answer privately is not shown,
        and that no answer in time lets it pass — in every family alike, beside the countdown
        the host adds; who is asked, who answered and who declined never show. Any other phase:
        ``phase`` as it is. What a closed window took shows as the move it was (a 碰's meld,
        the taker's seat line) and in the record ``Window.took`` builds."""
        window = self.decision()
        if window is None or not window.private or window.timeout is None or window.miss:
            return phase
        return T("base.window.private", phase=phase)

    def window(self) -> int:
        """The current decision window: the host keeps one deadline per window, so a seat's
        clock does not restart when another seat of the same window answers. Derived from
        ``decision``: a number that changes with every action outside a keyed window and once
        per keyed window, so it never tells how many seats answered one."""
        return self._decisions

    window_key: int = 0
    """The key of the keyed window opened last (``_open_window``)."""

    def _open_window(self) -> int:
        """A keyed window opens now: a new key for its ``Window.key``, kept in ``window_key``
        (keys count from 1; a game may give a window that opens once a fixed key below 1)."""
        self.window_key += 1
        return self.window_key

    def _window_key(self) -> int | None:
        window = self.decision()
        return None if window is None else window.key

    def timeout_action(self, seat: int, level: str = NORMAL) -> Timeout:
        """What a timeout does for ``seat`` (which is in ``to_act()``): the open window's
        timeout answer (``Window.timeout``), else the trustee's choice at ``level``, counted
        as a miss."""
        window = self.decision()
        declared = None if window is None else window.timeout_for(seat)
        return Timeout(self.trustee(seat, level)) if declared is None else declared

    # --- start choices: made at the waiting table, before any card exists ---------------
    @classmethod
    def start_offers(cls, options: Mapping[str, Any]) -> tuple[Choice, ...]:
        """开局选择 (start choices): what a person may choose with the Start button (or when
        confirming a rematch), before the hand is dealt, under room ``options`` — 欢乐斗地主's
        明牌开始 ×5, chosen blind. The bot shows one more Start button per choice; the host
        passes each person's choice into the new hand as ``Setup.starts`` and the game applies
        them as it deals, before anyone sees a card.

        Why a ``Setup`` field and not logged actions: a start choice is made before the hand
        exists, so it belongs to what the hand is built from, like the seed. Replays, ``/verify``
        and a saved table's restore rebuild the hand from its setup and so re-apply it; nothing
        can be typed later to take it once the cards are seen (an action in the log would be
        one more action anyone could send after the deal); and the trustee, timers and bots
        never meet it, since no seat is ever asked. A game refuses (OptionError) a setup whose
        starts it does not offer. Default: none."""
        return ()

    @classmethod
    def check_starts(cls, setup: Setup) -> None:
        """OptionError unless every start choice in ``setup`` is one ``start_offers`` gives,
        for a seat of the hand, at most one per seat."""
        offered = [c.action for c in cls.start_offers(setup.options)]
        seen: set[int] = set()
        for seat, action in setup.starts:
            if action not in offered or not 0 <= seat < setup.seats or seat in seen:
                listed = ", ".join(offered) or "—"
                raise OptionError(
                    "starts",
                    f"seat {seat + 1} cannot choose {action!r} at the start (offered: {listed})",
                    text=T("err.base.start_choice", seat=seat + 1, choice=action, offered=listed),
                )
            seen.add(seat)

    # --- offers: optional choices that never hold the table up --------------------------
    def open_offers(self, seat: int) -> tuple[Choice, ...]:
        """可选操作 (offers): optional actions ``seat`` may take now, in turn or not, that the
        hand never waits for. An offer stays open while the game moves on and lapses when the
        rules say, without anyone having to decline it; its value may change as the game moves
        (欢乐斗地主's 明牌: ×3 while the landlord is chosen, ×2 for the landlord until its
        first play). Its ``action`` names exactly what is taken (``show 3``), so a click on an
        offer that has since changed or closed is refused instead of taking something else.

        Offers are not in ``legal_actions`` and put no seat in ``to_act``: timers and
        auto-pass never take them, the trustee only where the game says so
        (``trustee_offer``), and nothing waits for them. ``apply`` takes an
        open offer from any seat (``read_offer``, then ``_take_offer``), so the host accepts
        it under the same lock, log and checks as any action, and a replay re-takes it at the
        same point; the bot shows offers as buttons on the seat's private hand only.

        For a new game: return the open offers from the state and perform one in
        ``_take_offer``. An optional timed window (加倍 where a seed gives every seat a window
        rather than a turn, a mahjong claim a seat may ignore) becomes an offer that lapses
        when the next required decision is made, instead of a step that waits on a timer.
        Default: none."""
        return ()

    def read_offer(self, seat: int, text: str) -> str | None:
        """The canonical action of the open offer that ``text`` names for ``seat``, or None
        when ``text`` names no offer (it is then an ordinary action). A game may raise
        IllegalActionError for an offer that is no longer open (a clear message; nothing
        changes). Default: ``text`` equals an open offer's action, case and spaces aside."""
        offers = self.open_offers(seat)
        if not offers:
            return None
        typed = " ".join(text.lower().split())
        for choice in offers:
            if choice.action == typed:
                return choice.action
        return None

    def _take_offer(self, seat: int, action: str) -> str:
        """Perform the open offer ``action`` (canonical, from ``read_offer``) for ``seat``,
        which may not be in ``to_act()``; return the action for the log. Default: ``_apply``."""
        return self._apply(seat, action)

    def trustee_offer(self, seat: int) -> str | None:
        """托管 of offers: the open offer (its ``action``) the trustee takes for ``seat`` now,
        in turn or not, or None to leave the offers open. The host asks it after every action
        and before each trustee step, for every seat the trustee plays that still plays its
        own hand (bots, 托管, kicked; not escaped), and applies what it returns, as it applies
        ``trustee`` for a seat in ``to_act``; so a game returns an action only while that
        offer is open, and taking it must close or change it (the host asks again until
        None). The decision may read only what the seat knows, as ``trustee`` does. Default:
        None (the trustee takes no offer; 欢乐's 明牌 is left to people)."""
        return None

    notation_errors: ClassVar[frozenset[str]] = frozenset()
    """Text keys of this game's IllegalActionErrors that refuse how an action was written (cards
    in no pattern, an action of another phase), beside every NotationError."""

    @classmethod
    def names_notation(cls, error: GameError) -> bool:
        """Whether ``error`` refuses how an action was written (the game's notation), so the
        player is pointed to the game's notation help: a NotationError, or an error whose text
        key is in ``notation_errors``."""
        if isinstance(error, NotationError):
            return True
        return error.text is not None and error.text.key in cls.notation_errors

    @classmethod
    def check_options(cls, options: Mapping[str, Any]) -> None:
        """Reject room options whose values the rules cannot play (OptionError naming the
        option), beyond the type checks of ``GameSpec.validate``. Default: all accepted."""

    @abstractmethod
    def phase(self) -> str:
        """Key of the current phase ("bid", "double", "play" ...), used for turn timers."""

    @abstractmethod
    def legal_actions(self, seat: int) -> list[str]:
        """Every legal action of ``seat`` now, canonical, no duplicates; [] if not its turn."""

    @_memoized
    def forced_action(self, seat: int) -> str | None:
        """``pass`` when it is the only legal action of ``seat`` now (要不起: nothing it holds
        beats the table, no claim it may make), else None — None too when the seat's one
        legal action is something else (the one card it may follow with is still a decision),
        or when it is not its turn. The host asks this of every waiting seat after every
        action (要不起 auto-pass), so it must be cheap.

        Default: ``legal_actions(seat) == ["pass"]``. A game whose ``legal_actions`` lists
        many plays overrides it with a test that stops at the first play it finds (can
        anything beat the table?); the override must agree with this default on every
        position (tests/engines/test_forced_action.py checks every registered game)."""
        return FORCED_PASS if self.legal_actions(seat) == [FORCED_PASS] else None

    @abstractmethod
    def _apply(self, seat: int, text: str) -> str:
        """Validate and perform ``text`` for ``seat``; return the canonical action.

        Must raise before changing anything when the action is malformed or illegal.
        """

    def apply(self, seat: int, text: str) -> str:
        """Perform an action typed in the game's notation; returns its canonical form.

        Raises NotationError (unreadable) or IllegalActionError (not allowed now).
        """
        if self.is_over():
            raise IllegalActionError(
                "the hand is over", seat=seat, action=text, text=T("err.base.hand_over")
            )
        key = self._window_key()
        offer = self.read_offer(seat, text) if self._may_offer(seat) else None
        if offer is None and seat not in self.to_act():
            raise IllegalActionError(
                "it is not your turn", seat=seat, action=text, text=T("err.base.not_your_turn")
            )
        kept = self._changing()
        try:
            action = self._apply(seat, text) if offer is None else self._take_offer(seat, offer)
            self.log.append((seat, action))
        finally:
            self._changed(kept)
        if key is None or self._window_key() != key:
            self._decisions += 1  # an answer inside a window that stays open is no new one
        return action

    def _may_offer(self, seat: int) -> bool:
        """Offers are for seats at the table that still play their own hand."""
        return 0 <= seat < self.setup.seats and seat not in self.escaped

    def escape(self, seat: int) -> None:
        """逃跑: the seat leaves mid-hand; the game's escape rule applies at the outcome
        and the trustee plays the seat from now on."""
        if not 0 <= seat < self.setup.seats:
            raise IllegalActionError(
                f"no seat {seat}", seat=seat, text=T("err.base.no_seat", seat=seat + 1)
            )
        if seat in self.escaped or self.is_over():
            return
        key = self._window_key()
        kept = self._changing()
        try:
            self.escaped = self.escaped | {seat}
            self._on_escape(seat)
            self.log.append((seat, ESCAPE))
        finally:
            self._changed(kept)
        if key is None or self._window_key() != key:
            self._decisions += 1

    def _on_escape(self, seat: int) -> None:
        """Hook for games that must note when the escape happened (e.g. before bidding)."""

    def escape_cost(self, seat: int) -> int | None:
        """逃跑的代价: the fewest points ``seat`` loses by its game's escape rule if it escapes
        now, worked out only from what that seat may see (the person is asked to confirm before
        they leave mid-hand, and told this). More may follow where the rule also counts what the
        seat cannot see (四川's 查大叫 in the last four tiles) or how the trustee ends the hand.
        0: escaping costs nothing beyond the trustee finishing the hand. None (the default):
        the rule fixes no amount in advance; the host then names the rule without a number."""
        return None

    def trustee(self, seat: int, level: str = NORMAL) -> str:
        """托管: the action the trustee would take for ``seat`` now (always legal): ``_trustee``
        chooses it at ``level`` (one of ``LEVELS``), once this checks that ``seat`` acts now
        (its turn, or a seat still to answer the open window).

        Raises ValueError naming the levels for an unknown ``level``, IllegalActionError
        (``err.base.not_seat_turn``) when the seat does not act now, or the hand is over."""
        if level not in LEVELS:
            raise ValueError(f"no trustee level {level!r}: one of {', '.join(LEVELS)}")
        if seat not in self.to_act() or self.is_over():
            raise IllegalActionError(
                "it is not this seat's turn", seat=seat, text=T("err.base.not_seat_turn")
            )
        return self._trustee(seat, level)

    @abstractmethod
    def _trustee(self, seat: int, level: str = NORMAL) -> str:
        """The trustee's choice for ``seat`` at ``level``, which acts now (``trustee`` checked
        both). A game without levels of its own plays every level as ``normal``."""

    def hint(self, seat: int) -> str:
        """提示: a suggested action; by default the trustee's choice."""
        return self.trustee(seat)

    # --- end of the hand ---------------------------------------------------------------
    @abstractmethod
    def is_over(self) -> bool:
        """True once the hand has a result."""

    @abstractmethod
    def outcome(self) -> Outcome:
        """The result; raises IllegalActionError if the hand is not over."""

    def next_carry(self) -> dict[str, Any]:
        """What the next hand at the same table inherits (``Setup.carry``)."""
        return {}

    # --- what people see ------------------------------------------------------------------
    @abstractmethod
    def view(self, seat: int | None) -> View:
        """What ``seat`` may see (None: the public). Never another seat's hidden cards."""

    @_memoized
    def private_face(self, seat: int) -> Any:
        """私有牌面: a key of what ``seat``'s private hand shows while the seat waits — its
        cards, the cards shown to it, its own melds, the board and their suited twins (the
        part of ``view(seat)`` a waiting DM draws) — that changes exactly when that does. The
        host compares it after every action to know whether a waiting seat's DM needs an
        edit, so it should be cheap; it is compared, and written with ``repr`` into a digest
        kept across processes: plain values only (no sets, no hash-ordered containers).

        Default: read from ``view(seat)`` (``waiting_face``). A game may return a tuple of its
        own state instead, that changes exactly when the default does (a property test over
        every registered game checks it)."""
        return waiting_face(self.view(seat), seat)

    def choices(self, seat: int) -> list[Choice]:
        """Phase actions offered as buttons to ``seat`` now (bids, grab, double, pass)."""
        return []

    def picker(self, seat: int) -> Picker | None:
        """A card picker for ``seat`` now, or None when the phase has none. A picker may hold
        more tokens than one menu (``Picker.groups``)."""
        return None

    # --- records --------------------------------------------------------------------------
    def to_record(self) -> dict[str, Any]:
        """The hand as plain data: setup and action log (JSON-serializable)."""
        return {"setup": self.setup.to_json(), "log": [[s, a] for s, a in self.log]}

    def to_text(self) -> str:
        """The record as one line of JSON text (for history and persistence)."""
        return json.dumps(self.to_record(), ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Game:
        """Rebuild a hand by replaying its log from its setup."""
        game = cls(Setup.from_json(record["setup"]))
        for seat, action in record["log"]:
            if action == ESCAPE:
                game.escape(int(seat))
            else:
                game.apply(int(seat), action)
        return game

    @classmethod
    def from_text(cls, text: str) -> Game:
        return cls.from_record(json.loads(text))


@dataclass(frozen=True)
class GameSpec:
    """A registered game: how the hall names, seats, configures and builds it.

    ``options``: default option values; a room's ``options`` table overrides them and
    ``validate`` rejects unknown keys and bad values (OptionError). ``max_loss``: the most
    points one seat can lose in a hand with these options, or None if the rules set no
    bound (then only the room limits bound what a seat carries). ``phases``: phase keys
    the game uses (turn timers may be configured for each). ``texts``: the game's
    message catalogue, {locale: {key: format string}} for "zh-CN" and "en-US"; the
    shared error texts ``BASE_TEXTS`` are merged in (the game's own entries win).
    """

    key: str
    name_zh: str
    name_en: str
    min_seats: int
    max_seats: int
    level_table: str
    game: type[Game]
    options: Mapping[str, Any] = field(default_factory=dict)
    phases: tuple[str, ...] = ()
    texts: Mapping[str, Mapping[str, str]] = field(default_factory=dict)
    max_loss: Callable[[Mapping[str, Any], int], int | None] = lambda options, seats: None
    seats_default: int = 0
    faces: Callable[[str], tuple[Face, ...] | None] = no_faces
    """牌面: the faces a string of the game's notation shows (a hand, a play, the kitty), or
    None where it is no cards of this game; the default draws no pictures."""
    spell: Callable[[str], Text | None] = lambda notation: None
    """读法: how a seat's melds or discards, in the game's notation, read in texts (麻将:
    ``5z`` → 红中), or None to show the notation as written (the default)."""

    OPTION_TYPES: ClassVar[tuple[type, ...]] = (bool, int, float, str, list)

    def __post_init__(self) -> None:
        merged = {
            locale: {**BASE_TEXTS.get(locale, {}), **self.texts.get(locale, {})}
            for locale in (*BASE_TEXTS, *(k for k in self.texts if k not in BASE_TEXTS))
        }
        object.__setattr__(self, "texts", merged)

    def validate(self, options: Mapping[str, Any]) -> dict[str, Any]:
        """Merge room options over the defaults; OptionError names an unknown or mistyped key."""
        merged = dict(self.options)
        for key, value in options.items():
            if key not in self.options:
                raise OptionError(
                    key,
                    f"unknown option for {self.key}",
                    text=T("err.base.option_unknown", option=key, game=self.name_en),
                )
            default = self.options[key]
            if isinstance(default, bool) != isinstance(value, bool) or not isinstance(
                value, type(default) if not isinstance(default, float) else (int, float)
            ):
                raise option_type_error(key, default, value)
            merged[key] = value
        self.game.check_options(merged)
        return merged

    def new(self, setup: Setup) -> Game:
        """Build a new hand; seats must be within the game's bounds (OptionError)."""
        self.check_seats(setup.seats)
        return self.game(setup)

    def check_seats(self, seats: int) -> None:
        """OptionError unless ``seats`` is within the game's bounds."""
        low, high = self.min_seats, self.max_seats
        if not low <= seats <= high:
            key = "err.base.seats_exact" if low == high else "err.base.seats"
            raise OptionError(
                "seats",
                f"{self.key} needs {low}-{high} seats",
                text=T(key, game=self.name_en, low=low, high=high, seats=seats),
            )

    def from_record(self, record: Mapping[str, Any]) -> Game:
        """Rebuild a hand from its record; the seat count is checked as in ``new``."""
        self.check_seats(Setup.from_json(record["setup"]).seats)
        return self.game.from_record(record)
