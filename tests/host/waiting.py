"""Waiting on real timers in host tests: poll for what a timer does, with a generous bound.

A fixed ``asyncio.sleep(delay + margin)`` fails on a loaded machine whenever the expiry takes
longer than the margin; polling stops as soon as the effect is seen and gives up only after
``within`` seconds (then the test's own assertion says what did not happen)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable


async def until(condition: Callable[[], bool], within: float = 15.0, step: float = 0.02) -> None:
    """Return once ``condition()`` holds, or after ``within`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not condition() and loop.time() < deadline:
        await asyncio.sleep(step)
