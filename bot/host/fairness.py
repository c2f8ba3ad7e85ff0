"""公平洗牌 (provably fair shuffles): a hand's commitment, and re-dealing a hand from its record.

At the deal the table shows ``commitment(seed)``: the SHA-256 of the seed's canonical text, the
seed written in decimal ASCII digits with no sign, spaces or newline (``printf %s SEED |
sha256sum`` gives the same digest). The seed stays secret until the hand is settled; the
settlement reveals it, and anyone can hash it and compare with the digest the table showed before
the first card was played.

No salt is added: the seed is 62 bits from the operating system's random source, and a player's
own dealt cards already let them test any guessed seed, so a salt would hide nothing more; an
unsalted digest keeps the check one shell command long. (Offline terminal play with ``--seed``
chooses guessable seeds on purpose; it has no beans at stake.)

``verify`` re-deals a stored hand from its record: it rebuilds the hand from the recorded setup,
replays every recorded action (a changed seed deals other cards, so the recorded plays stop being
legal), and reports each seat's cards as dealt, the digest of the stored seed and whether it
equals the digest a player copied from the table message.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from typing import Any

from engines.base import ESCAPE, GameSpec
from engines.errors import GameError


def seed_text(seed: int) -> str:
    """The seed's canonical text: decimal digits.

    >>> seed_text(7)
    '7'
    """
    return str(int(seed))


def commitment(seed: int) -> str:
    """承诺: the SHA-256 hex digest of the seed's canonical text.

    >>> commitment(7)[:16]
    '7902699be42c8a8e'
    """
    return hashlib.sha256(seed_text(seed).encode("ascii")).hexdigest()


def read_commitment(text: str | None) -> str | None:
    """A typed digest in canonical form (64 lower-case hex digits), or None if it is not one.

    >>> read_commitment(" 7902699BE42C8A8E46FBBB4501726517E86B22C56A189F7625A6DA49081B2451 ")[:4]
    '7902'
    >>> read_commitment("xyz") is None
    True
    """
    if not isinstance(text, str):
        return None
    digest = text.strip().lower()
    if len(digest) != 64 or not set(digest) <= set("0123456789abcdef"):
        return None
    return digest


@dataclass(frozen=True)
class Verification:
    """What re-dealing a hand showed. ``seed``/``commitment``: the stored seed and its digest.
    ``claimed``: the digest the player supplied (None if none). ``dealt``: each seat's cards as
    first dealt (None for a seat that was dealt nothing). ``replayed``: every recorded action
    was legal against the re-dealt cards. ``problem``: why the replay stopped, else None."""

    seed: int
    commitment: str
    claimed: str | None
    dealt: tuple[str | None, ...]
    replayed: bool
    problem: str | None = None

    @property
    def matches(self) -> bool | None:
        """The stored seed hashes to the claimed digest (None when no digest was given)."""
        return None if self.claimed is None else self.claimed == self.commitment

    @property
    def ok(self) -> bool:
        """Verified: the record replays from its seed, and the digest matches where given."""
        return self.replayed and self.matches is not False


def verify(spec: GameSpec, record: dict[str, Any] | str, claimed: str | None = None
           ) -> Verification:
    """Re-deal the hand in ``record`` (the engine's record, as text or data) and check it."""
    if isinstance(record, str):
        record = json.loads(record)
    assert isinstance(record, dict)
    setup = record["setup"]
    seed = int(setup["seed"])
    game = spec.from_record({"setup": setup, "log": []})
    seats = game.setup.seats
    dealt: list[str | None] = [None] * seats
    problem: str | None = None
    # some games show a seat its cards only after a phase (the rest of the deal, the kitty):
    # keep the first private hand each seat could see
    for step in [*record["log"], None]:
        for seat in range(seats):
            if dealt[seat] is None:
                dealt[seat] = game.view(seat).hand or None
        if step is None:
            break
        seat, action = int(step[0]), step[1]
        try:
            if action == ESCAPE:
                game.escape(seat)
            else:
                game.apply(seat, action)
        except GameError as exc:
            problem = f"seat {seat + 1}: {action!r}: {exc}"
            break
    return Verification(
        seed=seed, commitment=commitment(seed), claimed=claimed, dealt=tuple(dealt),
        replayed=problem is None, problem=problem,
    )
