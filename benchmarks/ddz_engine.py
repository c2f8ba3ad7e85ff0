"""斗地主 engine speed, side by side with RLCard's Dou Dizhu game.

Measures, for this engine and (when available) RLCard in the same run:

1. legal-play generation for random 20-card hands, leading (calls/s);
2. legal-play generation following a random legal play of another hand (calls/s);
3. rules-only random self-play: whole hands through the public Game API, every action drawn
   uniformly from ``legal_actions`` (games/s). This engine's hands include the 叫分 bidding
   (random bids, redeals included); RLCard's game has none.

RLCard is the benchmark's own dependency, never the project's. Install it in a separate
virtualenv and point ``RLCARD_PYTHON`` at its interpreter (default ``/tmp/benchvenv/bin/python``):

    python -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install rlcard

If RLCard can be imported here it is used directly, else through a worker process run by
that interpreter. Without it the script still runs and says so. The machine is shared, so
the two engines are measured in alternating rounds and the best round of each is kept.

Usage: python benchmarks/ddz_engine.py [--seconds 1.0] [--rounds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

RLCARD_PYTHON = os.environ.get("RLCARD_PYTHON", "/tmp/benchvenv/bin/python")
ROOT = Path(__file__).resolve().parent.parent


def _timed(work: Callable[[], int], seconds: float) -> float:
    """Units of work per second, running ``work`` (one batch) until ``seconds`` passed."""
    done = 0
    start = time.perf_counter()
    while True:
        done += work()
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return done / elapsed


# --- RLCard side (also runs inside the worker process) ------------------------------------------
class RLCardBench:
    """RLCard 1.x: ``rlcard.games.doudizhu`` (game, judger and card utilities)."""

    def __init__(self, seed: int = 1) -> None:
        import numpy as np  # noqa: F401  (RLCard needs it; imported here only)
        from rlcard.games.doudizhu.game import DoudizhuGame
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import CARD_RANK_STR

        self.game = DoudizhuGame()
        self.game.np_random.seed(seed)
        self.judger = DoudizhuJudger
        self.rng = random.Random(seed)
        deck = [c for c in CARD_RANK_STR[:13] for _ in range(4)] + ["B", "R"]
        self.hands = [
            "".join(sorted(self.rng.sample(deck, 20), key=CARD_RANK_STR.index)) for _ in range(200)
        ]
        # Following: the previous play is a random legal lead of another hand.
        self.prevs = []
        for i, hand in enumerate(self.hands):
            other = self.hands[(i + 1) % len(self.hands)]
            plays = sorted(self.judger.playable_cards_from_hand(other))
            self.prevs.append(self.rng.choice(plays))
        self.follow_cases = [
            (_Seat(hand=[_Card(c) for c in hand]), _Seat(played=prev))
            for hand, prev in zip(self.hands, self.prevs)
        ]
        self.version = "rlcard"
        try:
            import rlcard

            self.version = f"rlcard {rlcard.__version__}"
        except (ImportError, AttributeError):
            pass

    def lead(self) -> int:
        for hand in self.hands:
            self.judger.playable_cards_from_hand(hand)
        return len(self.hands)

    def follow(self) -> int:
        from rlcard.games.doudizhu.utils import get_gt_cards

        # RLCard's own path for following: get_gt_cards(player, greater_player).
        for player, greater in self.follow_cases:
            get_gt_cards(player, greater)
        return len(self.follow_cases)

    def selfplay(self) -> int:
        game = self.game
        rng = self.rng
        for _ in range(5):
            state, _ = game.init_game()
            while not game.is_over():
                actions = state["actions"]
                state, _ = game.step(actions[rng.randrange(len(actions))])
        return 5


class _Seat:
    """The attributes of RLCard's player that get_gt_cards reads."""

    def __init__(self, hand: list[_Card] | None = None, played: str = "") -> None:
        self.current_hand = hand or []
        self.played_cards = played


class _Card:
    """The minimal card object RLCard's get_gt_cards reads (rank and suit)."""

    def __init__(self, rank: str) -> None:
        self.rank = "" if rank in "BR" else rank
        self.suit = {"B": "BJ", "R": "RJ"}.get(rank, "S")

    def get_index(self) -> str:
        return self.suit + self.rank


def worker() -> None:
    """Run RLCard measurements on request: one JSON line in, one JSON line out."""
    bench = RLCardBench()
    print(json.dumps({"ready": bench.version}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        rate = _timed(getattr(bench, job["what"]), job["seconds"])
        print(json.dumps({"rate": rate}), flush=True)


class RLCardRemote:
    """RLCard in its own interpreter (a worker process)."""

    def __init__(self, python: str) -> None:
        self.proc = subprocess.Popen(
            [python, __file__, "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdout is not None
        hello = json.loads(self.proc.stdout.readline())
        self.version = str(hello["ready"])

    def rate(self, what: str, seconds: float) -> float:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"what": what, "seconds": seconds}) + "\n")
        self.proc.stdin.flush()
        return float(json.loads(self.proc.stdout.readline())["rate"])

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


class RLCardLocal:
    def __init__(self) -> None:
        self.bench = RLCardBench()
        self.version = self.bench.version

    def rate(self, what: str, seconds: float) -> float:
        return _timed(getattr(self.bench, what), seconds)

    def close(self) -> None:
        pass


def rlcard_side() -> tuple[Any | None, str]:
    try:
        import rlcard  # noqa: F401

        return RLCardLocal(), "imported here"
    except ImportError:
        pass
    if Path(RLCARD_PYTHON).exists():
        try:
            remote = RLCardRemote(RLCARD_PYTHON)
            return remote, f"worker process {RLCARD_PYTHON}"
        except (OSError, ValueError, json.JSONDecodeError) as err:
            return None, f"worker at {RLCARD_PYTHON} failed: {err}"
    return None, (
        f"not installed (no 'import rlcard' here, no {RLCARD_PYTHON}); "
        "python -m venv /tmp/benchvenv && /tmp/benchvenv/bin/pip install rlcard"
    )


# --- this engine's side ------------------------------------------------------------------------
class OursBench:
    def __init__(self, seed: int = 1) -> None:
        sys.path.insert(0, str(ROOT))
        from engines.base import Setup
        from engines.doudizhu import SPECS, follow_plays, lead_plays, parse_play
        from engines.doudizhu.notation import parse_cards

        self.spec = SPECS[0]
        self.setup = Setup
        self.lead_plays = lead_plays
        self.follow_plays = follow_plays
        self.rng = random.Random(seed)
        deck = [c for c in "3456789TJQKA2" for _ in range(4)] + ["B", "R"]
        self.hands = [parse_cards("".join(self.rng.sample(deck, 20))) for _ in range(200)]
        self.prevs = []
        for i in range(len(self.hands)):
            other = self.hands[(i + 1) % len(self.hands)]
            self.prevs.append(parse_play(self.rng.choice(lead_plays(other))))
        self.seed = 0

    def lead(self) -> int:
        lead_plays = self.lead_plays
        for hand in self.hands:
            lead_plays(hand)
        return len(self.hands)

    def follow(self) -> int:
        follow_plays = self.follow_plays
        for hand, prev in zip(self.hands, self.prevs):
            follow_plays(hand, prev)
        return len(self.hands)

    def selfplay(self) -> int:
        rng = self.rng
        for _ in range(5):
            self.seed += 1
            game = self.spec.new(self.setup(seats=3, seed=self.seed))
            while not game.is_over():
                seat = game.to_act()[0]
                actions = game.legal_actions(seat)
                game.apply(seat, actions[rng.randrange(len(actions))])
        return 5


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement round")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per figure")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker()
        return
    ours = OursBench()
    theirs, how = rlcard_side()
    print(f"python {sys.version.split()[0]}; RLCard: {theirs.version if theirs else '-'} ({how})")
    rows = [
        ("lead", "legal plays, leading, random 20-card hands", "calls/s"),
        ("follow", "legal plays, following a random legal play", "calls/s"),
        ("selfplay", "random self-play, whole hands via the Game API", "games/s"),
    ]
    results: dict[str, tuple[float, float | None]] = {}
    for what, title, unit in rows:
        best_ours, best_theirs = 0.0, 0.0
        for _ in range(args.rounds):
            best_ours = max(best_ours, _timed(getattr(ours, what), args.seconds))
            if theirs is not None:
                best_theirs = max(best_theirs, theirs.rate(what, args.seconds))
        results[what] = (best_ours, best_theirs if theirs is not None else None)
        line = f"{title:<50} ours {best_ours:>11,.0f} {unit}"
        if theirs is not None:
            line += f"   rlcard {best_theirs:>9,.0f} {unit}   ratio {best_ours / best_theirs:6.1f}x"
        else:
            line += "   rlcard: not available"
        print(line)
    if theirs is not None:
        theirs.close()
    ours_sp, theirs_sp = results["selfplay"]
    if theirs_sp:
        print(f"ddz_selfplay: {ours_sp:.0f} games/s ({ours_sp / theirs_sp:.1f}x rlcard)")
    else:
        print(f"ddz_selfplay: {ours_sp:.0f} games/s (rlcard not available)")


if __name__ == "__main__":
    main()
