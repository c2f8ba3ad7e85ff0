"""升级's claim windows as the host asks them: worked out once per state change, or on every ask.

The host asks a game about its open window many times per action (``to_act`` before and after
the action, for the trustee, the clock and the auto-pass check, ``public_to_act`` for the table
message, ``window`` for the deadline): ``ASKS`` asks here. At every position of seeded trustee
self-play where a declaration window (亮主/反主, 反底) is open, it times, in CPU time:

- once: the window forgotten as after a state change, then the ``ASKS`` asks (the first works
  it out, the rest read it: ``TrickHand.decision``), as the engine runs now;
- every: the window forgotten before each ask, so each reads every hand again, as before.

Rounds interleave the two on the same positions; each figure is the median of ``--rounds``.
The machine is shared: CPU time (``time.process_time``), not wall time.

Usage: python benchmarks/shengji_windows.py [--hands 12] [--rounds 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines.base import Setup
from engines.shengji import SHENGJI, SHENGJI_HAPPY
from engines.trick.hand import TrickHand

ASKS = 10


def _positions(hands: int) -> list[TrickHand]:
    """A copy of every self-play position with a declaration window open."""
    out: list[TrickHand] = []
    for spec in (SHENGJI, SHENGJI_HAPPY):
        for seed in range(hands):
            game = spec.new(Setup(seats=4, seed=seed, options=spec.validate({})))
            while not game.is_over():
                if game.decision() is not None:
                    out.append(spec.from_record(game.to_record()))  # type: ignore[arg-type]
                seat = game.to_act()[0]
                game.apply(seat, game.trustee(seat))
    return out


def _ask(game: TrickHand) -> None:
    for _ in range(ASKS // 5):
        game.to_act()
        game.public_to_act()
        game.window()
        game.to_act()
        game.decision()


def _once(positions: list[TrickHand]) -> float:
    start = time.process_time()
    for game in positions:
        game._claims = None  # a state change
        _ask(game)
    return time.process_time() - start


def _every(positions: list[TrickHand]) -> float:
    start = time.process_time()
    for game in positions:
        for _ in range(ASKS // 5):
            for ask in (game.to_act, game.public_to_act, game.window, game.to_act,
                        game.decision):
                game._claims = None  # worked out again on every ask
                ask()
    return time.process_time() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    positions = _positions(args.hands)
    asks = len(positions) * ASKS
    _once(positions)  # warm: every position's window built once before timing
    _every(positions)
    once, every = [], []
    for _ in range(args.rounds):
        once.append(asks / _once(positions))
        every.append(asks / _every(positions))
    a, b = statistics.median(once), statistics.median(every)
    print(f"window positions         {len(positions):>10,}  ({ASKS} asks each)")
    print(f"worked out once          {a:>10,.0f} asks/CPU-s")
    print(f"worked out on every ask  {b:>10,.0f} asks/CPU-s")
    print(f"shengji_window_asks: {a:.0f} asks/s ({a / b:.1f}x working it out on every ask, "
          f"{b:.0f} asks/s; CPU time, median of {args.rounds} interleaved rounds)")


if __name__ == "__main__":
    main()
