"""Table and seat state: plain data that survives a restart as JSON.

Each type writes its own JSON (``to_json``) and reads it back checking every field
(``from_json`` raises ValueError naming the bad field), so a corrupt save is refused on
load instead of failing later. The live game is never copied: a saved table holds the
game's record (setup and action log), from which the game is rebuilt.
"""

from __future__ import annotations

import hashlib
import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from engines.base import LEVELS, NORMAL, Choice, Game, SeatView, Shown, Text, View

WAITING = "waiting"
PLAYING = "playing"
STATUSES = (WAITING, PLAYING)

V = TypeVar("V")


class HostError(Exception):
    """An expected refusal (not your turn, table full ...); ``text`` is shown to the user."""

    def __init__(self, key: str, **args: Any) -> None:
        self.text = Text(key, args)
        super().__init__(key, args)


# what a digest starts with (``private_digest``): plain text, whose repr costs nothing
_WAITING, _TURN = "wait", "turn"


def dm_view(game: Game, seat: int, view: View | None = None, *, acting: bool | None = None
            ) -> View:
    """What a seat's private hand (its DM) shows of ``game.view(seat)``: its cards, the cards
    shown to it and its melds, and on the seat's turn also what it answers: the game's lines
    (the bid, the trump, the 癞子, the wall …), the round so far and the card counter. A
    waiting DM says it waits without naming the phase (``dm.wait``).

    Lines, round and counter change with most actions of anyone (the wall with every draw,
    the bid with every bid); a DM that drew them while its owner waits would need an edit per
    action per seat, and would go stale without one. The table message shows them; ``/hand``
    shows the whole view whenever asked."""
    view = game.view(seat) if view is None else view
    # of the seats, a private hand shows the cards shown to it and its own melds; never the
    # counts, roles or statuses, which the table message shows
    view = replace(view, seats=tuple(
        SeatView(cards=sv.cards, melds=sv.melds if i == seat else None)
        for i, sv in enumerate(view.seats)))
    if acting if acting is not None else seat in game.to_act():
        return view
    shown = view.shown
    if shown is not None and shown.hand is None and not any(shown.seats):
        shown = None  # it twinned only the round, which a waiting DM leaves out
    return replace(
        view, lines=(), round=None, last_round=None, counter=None,
        shown=None if shown is None else Shown(hand=shown.hand, seats=shown.seats),
    )


def private_digest(game: Game, seat: int, acting: tuple[int, ...] | None = None) -> int:
    """A fingerprint of everything a seat's private hand shows (``dm_view``) and offers
    (its open offers; on its turn its choices, its card picker and the decision window),
    the same in every process (kept in ``Table.sent`` across a restart): while it stays the
    same, the seat's DM needs no edit, and whenever it changes, it does — however the change
    came (the seat's own action from anywhere, another seat's, a timer, the trustee).

    Off its turn the picker is left out: it is made from the cards and the phase, which are
    in; and what the DM shows is read from ``Game.private_face``, the game's cheap key of a
    waiting hand (a waiting DM does not name the phase: a claim window for others opens one),
    so a waiting seat costs no ``view``. On an ordinary turn (no keyed window open) every
    action and escape moves ``Game.window``, so the window number, the phase, the face and
    the offers tell every change of the whole turn's DM without building it. Inside a keyed
    window, whose answers leave ``Game.window`` as it is, the whole ``dm_view``.
    """
    acting = game.to_act() if acting is None else acting
    parts: tuple[Any, ...]
    if seat in acting:
        window = game.decision()
        if window is None or window.key is None:
            parts = (_TURN, game.private_face(seat), game.window(), game.phase(),
                     game.open_offers(seat))
        else:
            parts = (dm_view(game, seat, acting=True), True, game.open_offers(seat),
                     game.choices(seat), game.picker(seat), game.window())
    else:
        parts = (_WAITING, game.private_face(seat), game.open_offers(seat))
    # repr, not hash(): Python salts str hashes per process, and the digest outlives one
    raw = hashlib.blake2b(repr(parts).encode(), digest_size=8).digest()
    return int.from_bytes(raw, "big") >> 2  # a count that fits the saved table's checks


def final_view(result: Mapping[str, Any] | None) -> View | None:
    """The final public board a settled hand's result (``Table.last_result``) keeps: every
    hand revealed (亮牌), the last plays. Kept as its JSON text (a table between hands holds
    one; as nested objects it took several times the table's own size); a snapshot written
    before that holds the object itself, read alike."""
    board = result.get("view") if result else None
    if not board:
        return None
    return View.from_json(json.loads(board) if isinstance(board, str) else board)


def _field(
    data: Mapping[str, Any],
    name: str,
    check: Callable[[Any], bool],
    kind: str,
    default: Any = ...,
    where: str = "",
) -> Any:
    """``data[name]`` if ``check`` accepts it; ValueError naming the field otherwise."""
    path = where + name
    if name not in data:
        if default is ...:
            raise ValueError(f"saved table: field {path!r} is missing")
        return default
    value = data[name]
    if not check(value):
        raise ValueError(f"saved table: field {path!r} should be {kind}, not {value!r:.60}")
    return value


MAX_ID = 2**63 - 1
"""The largest id or count a save may hold: storage keeps them as signed 64-bit integers, so a
bigger one (a flipped bit) could never be written back or looked up."""


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _is_id(v: Any) -> bool:
    """A channel, server, user or message id: a non-negative 64-bit integer."""
    return _is_int(v) and 0 <= v <= MAX_ID


def _is_opt_id(v: Any) -> bool:
    return v is None or _is_id(v)


def _is_count(v: Any) -> bool:
    """A count or epoch: a non-negative 64-bit integer."""
    return _is_int(v) and 0 <= v <= MAX_ID


def _is_opt_count(v: Any) -> bool:
    return v is None or _is_count(v)


def _is_opt_hand_id(v: Any) -> bool:
    return v is None or (_is_int(v) and 0 < v <= MAX_ID)


def _is_decimal(k: Any) -> bool:
    """A map key that is a number written in decimal (a seat index, a user id)."""
    return isinstance(k, str) and k.isascii() and k.isdecimal() and int(k) <= MAX_ID


def _is_count_map(v: Any) -> bool:
    """Seat index or user id (decimal text) → a non-negative 64-bit integer."""
    return isinstance(v, dict) and all(_is_decimal(k) and _is_count(x) for k, x in v.items())


def _is_text(v: Any) -> bool:
    """A ``Text`` as saved (``Text.to_json``): a key and, if any, its arguments."""
    return isinstance(v, dict) and isinstance(v.get("k"), str) and isinstance(v.get("a", {}), dict)


def _is_text_list(v: Any) -> bool:
    return isinstance(v, list) and all(_is_text(x) for x in v)


def _is_num(v: Any) -> bool:
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def _is_opt_num(v: Any) -> bool:
    return v is None or _is_num(v)


def _is_str(v: Any) -> bool:
    return isinstance(v, str)


def _is_opt_str(v: Any) -> bool:
    return v is None or isinstance(v, str)


def _is_bool(v: Any) -> bool:
    return isinstance(v, bool)


def _is_dict(v: Any) -> bool:
    return isinstance(v, dict)


def _is_opt_dict(v: Any) -> bool:
    return v is None or isinstance(v, dict)


def _is_str_list(v: Any) -> bool:
    return isinstance(v, list) and all(isinstance(x, str) for x in v)


def _is_id_list(v: Any) -> bool:
    return isinstance(v, list) and all(_is_id(x) for x in v)


@dataclass(slots=True)
class Seat:
    """One seat: a person (``uid``) or a bot (``uid`` None).

    ``acted``: the person acted themselves during the current hand; ``covered``: the trustee
    or a timeout acted for them. Someone covered who never acted was not there for the hand.
    ``start``: the person's start choice for the next hand (``Game.start_offers``, e.g. 明牌开始),
    made at the waiting table before any card exists, and ``start_no`` when (the table's start
    choices in the order they were made: 1, 2, …); both cleared at the deal. Never a bot's.
    ``level``: a bot's trustee level (``engines.base.LEVELS``, /table addbot level:); a
    person's seat plays at the room's ``trustee_level`` when the trustee covers it.
    """

    uid: int | None
    name: str
    trustee: bool = False
    misses: int = 0
    escaped: bool = False
    kicked: bool = False
    acted: bool = False
    covered: bool = False
    start: str | None = None
    start_no: int = 0
    level: str = NORMAL

    @property
    def is_bot(self) -> bool:
        return self.uid is None

    @property
    def automatic(self) -> bool:
        """The trustee acts for this seat (bots, 托管, escaped or kicked players)."""
        return self.uid is None or self.trustee or self.escaped or self.kicked

    @property
    def absent(self) -> bool:
        """A person the trustee played for all hand long (托管 throughout, or never acted)."""
        return self.uid is not None and self.covered and not self.acted

    def to_json(self) -> dict[str, Any]:
        return {
            "uid": self.uid,
            "name": self.name,
            "trustee": self.trustee,
            "misses": self.misses,
            "escaped": self.escaped,
            "kicked": self.kicked,
            "acted": self.acted,
            "covered": self.covered,
            "start": self.start,
            "start_no": self.start_no,
            "level": self.level,
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "seat.") -> Seat:
        """ValueError naming the field (prefixed by ``where``) when ``data`` is not a seat."""
        if not isinstance(data, dict):
            raise ValueError(  # noqa: TRY004 - a corrupt save is a bad value, not a bug
                f"saved table: {where[:-1]!r} should be a seat, not {data!r:.60}"
            )

        def field_(name: str, check: Callable[[Any], bool], kind: str, default: Any = ...) -> Any:
            return _field(data, name, check, kind, default, where)

        return cls(
            uid=field_("uid", _is_opt_id, "a user id or null"),
            name=field_("name", _is_str, "text"),
            trustee=field_("trustee", _is_bool, "true or false", False),
            misses=field_("misses", _is_count, "a count", 0),
            escaped=field_("escaped", _is_bool, "true or false", False),
            kicked=field_("kicked", _is_bool, "true or false", False),
            acted=field_("acted", _is_bool, "true or false", False),
            covered=field_("covered", _is_bool, "true or false", False),
            start=field_("start", _is_opt_str, "a start choice or null", None),
            start_no=field_("start_no", _is_count, "a count", 0),
            level=field_("level", lambda v: v in LEVELS, "one of " + ", ".join(LEVELS), NORMAL),
        )


@dataclass(slots=True)
class Table:
    """A table in a channel (``id`` is the channel id) and, while a hand runs, its game.

    ``deadline``: when the current decision window (``window``, from ``Game.window``) times
    out, in the host clock's seconds. ``sent``: seat index as text → the ``private_digest``
    of what that person's private hand showed when last drawn; a seat is in it once its
    hand was first shown. ``dms``: seat index as text → the message id of that person's DM
    hand, so it is edited rather than sent again. Both are cleared at each new hand.

    The creator's settings (/table settings): ``timer_scale``, every phase's time in percent
    of the configured one; ``bots``, whether bots may be added; ``private``, only the creator
    and the people in ``invited`` may sit down.

    ``start_offers``: the start choices the game offers at this table (``Game.start_offers``
    under the room's options), for the buttons beside Start; set by the host, never saved.
    """

    id: int
    guild_id: int
    game_key: str
    room: str
    owner: int
    seats: list[Seat] = field(default_factory=list)
    status: str = WAITING
    hand_id: int | None = None
    record: dict[str, Any] | None = None
    deadline: float | None = None
    window: int | None = None
    message_id: int | None = None
    hand_no: int = 0
    carry: dict[str, Any] = field(default_factory=dict)
    carry_seats: list[str] = field(default_factory=list)
    holds: dict[str, int] = field(default_factory=dict)
    sent: dict[str, int] = field(default_factory=dict)
    dms: dict[str, int] = field(default_factory=dict)
    last_result: dict[str, Any] | None = None
    locale: str = "zh-CN"
    notes: list[dict[str, Any]] = field(default_factory=list)
    timer_scale: int = 100
    bots: bool = True
    private: bool = False
    invited: list[int] = field(default_factory=list)
    game: Game | None = field(default=None, repr=False, compare=False)
    start_offers: tuple[Choice, ...] = field(default=(), repr=False, compare=False)

    def seat_of(self, uid: int) -> int | None:
        """Index of ``uid``'s seat, ignoring seats whose player escaped or was kicked."""
        for i, seat in enumerate(self.seats):
            if seat.uid == uid and not (seat.escaped or seat.kicked):
                return i
        return None

    def seating(self) -> list[str]:
        """Who sits where, as text: a carry from the last hand is valid only for the same seating."""
        return [f"u{s.uid}" if s.uid is not None else f"b:{s.name}" for s in self.seats]

    def final_view(self) -> View | None:
        """The last settled hand's final board, while the table waits (``final_view``)."""
        return final_view(self.last_result)

    def humans(self) -> list[int]:
        return [s.uid for s in self.seats if s.uid is not None]

    def seated_uids(self) -> set[int]:
        """People who hold a seat here (escaped and kicked players hold none)."""
        return {s.uid for s in self.seats if s.uid is not None and not (s.escaped or s.kicked)}

    def note(self, text: Text) -> None:
        """Keep the last few table events for the table message."""
        self.notes = (self.notes + [text.to_json()])[-3:]

    def meta(self) -> dict[str, Any]:
        """Everything but the game's record and the deadline: what an action rarely changes."""
        return {
            "id": self.id,
            "guild_id": self.guild_id,
            "game_key": self.game_key,
            "room": self.room,
            "owner": self.owner,
            "seats": [s.to_json() for s in self.seats],
            "status": self.status,
            "hand_id": self.hand_id,
            "message_id": self.message_id,
            "hand_no": self.hand_no,
            "carry": self.carry,
            "carry_seats": self.carry_seats,
            "holds": self.holds,
            "sent": self.sent,
            "dms": self.dms,
            "last_result": self.last_result,
            "locale": self.locale,
            "notes": self.notes,
            "timer_scale": self.timer_scale,
            "bots": self.bots,
            "private": self.private,
            "invited": self.invited,
        }

    def state_key(self) -> tuple[Any, ...]:
        """A cheap fingerprint of what an action rarely changes (seats, status, notes, DMs):
        while it stays the same, only the action log, the deadline and the seats' flags
        (``seat_flags``, which the saved actions carry) moved. ``last_result`` and ``carry``
        are left out: they change only together with ``status``/``hand_id``."""
        return (
            self.status,
            self.hand_id,
            self.hand_no,
            self.message_id,
            self.owner,
            self.locale,
            tuple(
                (s.uid, s.name, s.escaped, s.kicked, s.start, s.start_no) for s in self.seats
            ),
            # which seats were shown their hand, not what they were last shown: a digest
            # changes with most actions, and the table is not written whole for it (the
            # next snapshot carries it; a restore compares, so a stale one costs one edit)
            tuple(self.sent),
            tuple(self.dms.items()),
            tuple(self.holds.items()),
            tuple(self.notes),
            (self.timer_scale, self.bots, self.private, tuple(self.invited)),
        )

    def to_json(self) -> str:
        """The whole table as JSON text: the game as its record (never a copy of the game)."""
        data = self.meta()
        data["record"] = self.game.to_record() if self.game is not None else self.record
        data["deadline"], data["window"] = self.deadline, self.window
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    def seat_flags(self) -> str:
        """What actions change of the seats, besides the game (托管 on, misses in a row, acted
        themselves, covered by the trustee), as compact text: the saved actions carry it
        (``Saver``), so a timeout or a first action needs no snapshot of the whole table.

        >>> seats = [Seat(5, "a", misses=1), Seat(6, "b", acted=True)]
        >>> Table(1, 2, "doudizhu", "free", 5, seats).seat_flags()
        '0100,0010'
        """
        # %-formatting of a list: half the time of f-strings with format specs over a
        # generator, and it runs at every save
        return ",".join(["%d%d%d%d" % (s.trustee, s.misses, s.acted, s.covered)
                         for s in self.seats])

    def set_seat_flags(self, text: Any, where: str = "seat flags") -> None:
        """Set the seats' flags from ``seat_flags`` text; ValueError naming ``where`` when it
        is not flags for each of this table's seats (nothing changes then)."""
        parts = text.split(",") if isinstance(text, str) else None
        if parts is None or len(parts) != len(self.seats) or not all(
            len(p) >= 4 and p[0] in "01" and p[-2] in "01" and p[-1] in "01"
            and p[1:-2].isdigit() and p[1:-2].isascii() for p in parts
        ):
            raise ValueError(
                f"saved table: {where} should be flags for {len(self.seats)} seats, "
                f"not {text!r:.60}"
            )
        for seat, p in zip(self.seats, parts, strict=True):
            seat.trustee, seat.misses = p[0] == "1", int(p[1:-2])
            seat.acted, seat.covered = p[-2] == "1", p[-1] == "1"

    @classmethod
    def from_json(cls, text: str | bytes) -> Table:
        """Read a saved table; ValueError naming the first field that is not what it should be.

        Every field is checked for its type and range (ids and counts fit in 64 bits), and the
        table as a whole for its shape: each person holds one seat, a running hand has its hand
        id and record, a waiting table has neither. ``bytes`` must be UTF-8.
        """
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError as exc:
                raise ValueError(f"saved table: not UTF-8 text (byte {exc.start})") from None
        data = json.loads(text)
        if not isinstance(data, dict):
            raise ValueError("saved table: not a JSON object")  # noqa: TRY004 - a bad value
        seats = _field(data, "seats", lambda v: isinstance(v, list), "a list")
        table = cls(
            id=_field(data, "id", _is_id, "a channel id"),
            guild_id=_field(data, "guild_id", _is_id, "a server id"),
            game_key=_field(data, "game_key", _is_str, "a game key"),
            room=_field(data, "room", _is_str, "a room key"),
            owner=_field(data, "owner", _is_id, "a user id"),
            seats=[Seat.from_json(s, f"seats[{i}].") for i, s in enumerate(seats)],
            status=_field(data, "status", lambda v: v in STATUSES, " or ".join(STATUSES)),
            hand_id=_field(data, "hand_id", _is_opt_hand_id, "a hand id or null", None),
            record=_field(data, "record", _is_opt_dict, "a game record or null", None),
            deadline=_field(data, "deadline", _is_opt_num, "a time or null", None),
            window=_field(data, "window", _is_opt_count, "a window number or null", None),
            message_id=_field(data, "message_id", _is_opt_id, "a message id or null", None),
            hand_no=_field(data, "hand_no", _is_count, "a count", 0),
            carry=_field(data, "carry", _is_dict, "an object", {}),
            carry_seats=_field(data, "carry_seats", _is_str_list, "a list of text", []),
            holds=_field(data, "holds", _is_count_map, "beans per player id", {}),
            # saves from before private digests kept only the seats already sent ("dealt");
            # an epoch saved before digests differs from every digest: one edit after restore
            sent=_field(
                data,
                "sent",
                _is_count_map,
                "a digest per seat",
                {str(i): 0 for i in data.get("dealt", ()) if _is_count(i)},
            ),
            dms=_field(
                data, "dms", lambda v: _is_count_map(v) and all(map(_is_id, v.values())),
                "a message id per seat", {},
            ),
            last_result=_field(data, "last_result", _is_opt_dict, "an object or null", None),
            locale=_field(data, "locale", _is_str, "a locale", "zh-CN"),
            notes=_field(data, "notes", _is_text_list, "a list of texts", []),
            timer_scale=_field(
                data, "timer_scale", lambda v: _is_count(v) and v > 0, "a percent above 0", 100
            ),
            bots=_field(data, "bots", _is_bool, "true or false", True),
            private=_field(data, "private", _is_bool, "true or false", False),
            invited=_field(data, "invited", _is_id_list, "a list of user ids", []),
        )
        table.check_shape()
        return table

    def check_shape(self) -> None:
        """ValueError if the table's fields, each valid, do not fit together: one seat per
        person, a running hand with its hand id and record, a waiting table with neither."""
        people = [s.uid for s in self.seats if s.uid is not None]
        if len(people) != len(set(people)):
            doubled = next(u for u in people if people.count(u) > 1)
            raise ValueError(f"saved table: user {doubled} holds two seats")
        if self.status == PLAYING and (self.hand_id is None or self.record is None):
            raise ValueError("saved table: a running hand needs its hand id and record")
        if self.status == WAITING and (self.hand_id is not None or self.record is not None):
            raise ValueError(
                f"saved table: a waiting table has no hand, yet hand {self.hand_id} is saved"
            )
