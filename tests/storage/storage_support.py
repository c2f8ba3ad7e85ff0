"""Shared constants and helpers of the storage tests (imported by the test modules)."""

from __future__ import annotations

GRANT = 10_000
RELIEF = 2_000
THRESHOLD = 1_000
COOLDOWN = 86_400.0
MOD = 999


class Clock:
    """A settable time source: ``clock()`` returns ``clock.now``."""

    def __init__(self, now: float = 1_700_000_000.0) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now
