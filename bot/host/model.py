"""Table and seat state: plain data that survives a restart as JSON."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

from engines.base import Game, Text

WAITING = "waiting"
PLAYING = "playing"


class HostError(Exception):
    """An expected refusal (not your turn, table full ...); ``text`` is shown to the user."""

    def __init__(self, key: str, **args: Any) -> None:
        self.text = Text(key, args)
        super().__init__(key, args)


@dataclass
class Seat:
    """One seat: a person (``uid``) or a bot (``uid`` None)."""

    uid: int | None
    name: str
    trustee: bool = False
    misses: int = 0
    escaped: bool = False
    kicked: bool = False

    @property
    def is_bot(self) -> bool:
        return self.uid is None

    @property
    def automatic(self) -> bool:
        """The trustee acts for this seat (bots, 托管, escaped or kicked players)."""
        return self.uid is None or self.trustee or self.escaped or self.kicked


@dataclass
class Table:
    """A table in a channel (``id`` is the channel id) and, while a hand runs, its game."""

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
    message_id: int | None = None
    hand_no: int = 0
    carry: dict[str, Any] = field(default_factory=dict)
    carry_seats: list[str] = field(default_factory=list)
    holds: dict[str, int] = field(default_factory=dict)
    dealt: list[int] = field(default_factory=list)
    last_result: dict[str, Any] | None = None
    locale: str = "zh-CN"
    notes: list[dict[str, Any]] = field(default_factory=list)
    game: Game | None = field(default=None, repr=False, compare=False)

    def seat_of(self, uid: int) -> int | None:
        """Index of ``uid``'s seat, ignoring seats whose player escaped or was kicked."""
        for i, seat in enumerate(self.seats):
            if seat.uid == uid and not (seat.escaped or seat.kicked):
                return i
        return None

    def seating(self) -> list[str]:
        """Who sits where, as text: a carry from the last hand is valid only for the same seating."""
        return [f"u{s.uid}" if s.uid is not None else f"b:{s.name}" for s in self.seats]

    def humans(self) -> list[int]:
        return [s.uid for s in self.seats if s.uid is not None]

    def note(self, text: Text) -> None:
        """Keep the last few table events for the table message."""
        self.notes = (self.notes + [text.to_json()])[-3:]

    def to_json(self) -> str:
        data = asdict(self)
        data.pop("game")
        if self.game is not None:
            data["record"] = self.game.to_record()
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, text: str) -> Table:
        data = json.loads(text)
        data["seats"] = [Seat(**s) for s in data["seats"]]
        return cls(**data)
