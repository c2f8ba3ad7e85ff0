"""存档: the host's writes of its tables — what changed, never a copy of the live game.

The action log is the state of a running hand: while nothing else about a table changes, a
save appends the hand's new actions as rows, with the turn deadline and, where they changed,
the seats' flags (``Table.seat_flags``: 托管, misses, acted, covered — what a timeout or a
person's first action changes); the table is written whole (a snapshot) when its seats,
status, notes or DMs change, at a new hand and at a settlement, and after ``SNAPSHOT_EVERY``
appended actions so a restore replays little.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from bot.host.model import MAX_ID, Table
from storage import tables as table_store
from storage.db import Database

SNAPSHOT_EVERY = 256
"""Appended actions after which the table is written whole again (bounds a restore's replay)."""


@dataclass(slots=True)
class _Stored:
    """What the database holds of a table: its snapshot's ``Table.state_key``, the hand it was
    taken in, how much of the log is stored, the stored deadline and seat flags, and the
    actions appended since."""

    key: tuple[Any, ...]
    hand_id: int | None
    logged: int
    deadline: float | None
    window: int | None
    flags: str
    appended: int = 0


@dataclass(frozen=True)
class Loaded:
    """A saved table as read back: its row's key (``table_id``, ``guild_id``), its snapshot
    text (bytes when not UTF-8: a damaged row) and the actions appended since."""

    table_id: int
    guild_id: int
    state: str | bytes
    appended: tuple[table_store.SavedAction, ...]


class Saver:
    """Writes tables to ``storage.tables`` and remembers what each write left stored."""

    def __init__(self, db: Database) -> None:
        self.db = db
        self._stored: dict[int, _Stored] = {}

    async def save(self, table: Table, *, snapshot: bool = False) -> None:
        """Store what changed: the hand's new actions (the deadline, the seats' flags) when
        nothing else did, else the whole table."""
        game, stored = table.game, self._stored.get(table.id)
        key = table.state_key()
        if (
            not snapshot
            and game is not None
            and stored is not None
            and stored.key == key
            and stored.hand_id == table.hand_id
            and table.hand_id is not None
            and stored.logged <= len(game.log)
            and stored.appended < SNAPSHOT_EVERY
        ):
            new = game.log[stored.logged :]
            flags = table.seat_flags()
            if not new and (stored.deadline, stored.window, stored.flags) == (
                table.deadline, table.window, flags
            ):
                return
            if new:
                await table_store.append_actions(
                    self.db,
                    table.id,
                    table.hand_id,
                    stored.logged,
                    new,
                    table.deadline,
                    table.window,
                    None if flags == stored.flags else flags,
                )
                stored.logged += len(new)
                stored.appended += len(new)
                stored.deadline, stored.window, stored.flags = table.deadline, table.window, flags
                return
        await table_store.save_table(self.db, table.id, table.guild_id, table.id, table.to_json())
        self._stored[table.id] = _Stored(
            key,
            table.hand_id,
            len(game.log) if game is not None else 0,
            table.deadline,
            table.window,
            table.seat_flags(),
        )

    async def delete(self, table_id: int, *, release_seats: bool = False) -> None:
        """Forget a closed table, in the database and here (with ``release_seats``, free its
        seats in the same transaction)."""
        self._stored.pop(table_id, None)
        await table_store.delete_table(self.db, table_id, release_seats=release_seats)

    def opened(self, table: Table) -> None:
        """``table`` was just stored whole by another write (``storage.tables.open_tables``)."""
        self._stored[table.id] = _Stored(
            table.state_key(), table.hand_id, 0, table.deadline, table.window,
            table.seat_flags(),
        )

    def loaded(self, table: Table) -> None:
        """``table`` was just restored: its next save writes a fresh snapshot (dropping the
        appended actions it replayed)."""
        self._stored[table.id] = _Stored(
            table.state_key(),
            table.hand_id,
            len(table.game.log) if table.game else 0,
            table.deadline,
            table.window,
            table.seat_flags(),
            SNAPSHOT_EVERY,
        )

    async def load(self) -> list[Loaded]:
        """Every saved table, by id, with the actions appended since its snapshot."""
        appended = await table_store.load_actions(self.db)
        return [
            Loaded(table_id, guild_id, state, tuple(appended.get(table_id, ())))
            for table_id, guild_id, _channel, state in await table_store.load_tables(self.db)
        ]

    @staticmethod
    def replay(table: Table, appended: tuple[table_store.SavedAction, ...]) -> dict[str, Any]:
        """The saved hand's record with the actions appended since the snapshot (those of the
        same hand, in order from the snapshot's end); sets the table's deadline from the last,
        and its seats' flags from the last that carries them.

        ValueError when the snapshot holds no action log, or an entry of the log or an
        appended action is not (a seat of this table, an action as text, flags for its seats).
        """
        assert table.record is not None
        record = dict(table.record)
        if not isinstance(record.get("log"), list):
            raise ValueError("saved table: the record has no action log")  # noqa: TRY004
        moves = list(record["log"])
        for i, move in enumerate(moves):
            _check_move(table, move, f"the record's log[{i}]")
        for action in appended:
            if action.hand_id == table.hand_id and action.seq == len(moves):
                _check_move(table, [action.seat, action.action], f"appended action {action.seq}")
                _check_deadline(action)
                if action.flags is not None:
                    table.set_seat_flags(action.flags, f"appended action {action.seq}'s flags")
                moves.append([action.seat, action.action])
                table.deadline, table.window = action.deadline, action.window
        record["log"] = moves
        return record


def _check_move(table: Table, move: Any, where: str) -> None:
    """ValueError unless ``move`` is [seat, action]: a seat index of ``table``, text."""
    if not (
        isinstance(move, list)
        and len(move) == 2
        and isinstance(move[0], int)
        and not isinstance(move[0], bool)
        and 0 <= move[0] < len(table.seats)
        and isinstance(move[1], str)
    ):
        raise ValueError(f"saved table: {where} should be [seat, action], not {move!r:.60}")


def _check_deadline(action: table_store.SavedAction) -> None:
    deadline, window = action.deadline, action.window
    if not (deadline is None or (isinstance(deadline, (int, float)) and math.isfinite(deadline))):
        raise ValueError(f"saved table: appended action {action.seq} has deadline {deadline!r}")
    if not (window is None or (isinstance(window, int) and 0 <= window <= MAX_ID)):
        raise ValueError(f"saved table: appended action {action.seq} has window {window!r}")
