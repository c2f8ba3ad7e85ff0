"""斗地主 engine speed, side by side with DouZero's and RLCard's Dou Dizhu in the same run.

Measures, for this engine and (when available) DouZero and RLCard:

1. legal plays leading: random hands of 17-20 cards (calls/s);
2. legal plays following: the same hands against a random legal play of another hand
   (calls/s);
3. rules-only random self-play: whole hands through the public Game API, every action drawn
   uniformly from ``legal_actions`` (games/s); this engine's hands include the 叫分 bidding,
   RLCard's game has none (DouZero has no rules-only game loop without torch: not measured);
4. this engine only: 癞子斗地主's legal leads (``engines.doudizhu.wild.plays``) on 200 of the
   hands with a random 癞子 rank, memo emptied, overall and by the number of 癞子 held.

The legal-play cases are the same for all three: a pool of distinct (hand, previous play)
pairs given as the notation a player types, and every call goes from that text to the list
of plays, parsing included: ``legal_plays(hand, previous)`` here; DouZero's
``GameEnv.get_legal_card_play_actions`` on its card list (read from the same text); RLCard's
``DoudizhuJudger.playable_cards_from_hand`` (leading) and ``get_gt_cards`` (following) on
its card objects (read from the same text). A timed round makes whole passes over the pool,
and this engine's play memo is emptied before each pass, so no case is answered from a
memo filled by an earlier pass (the play book and the memo of previous plays are emptied). Previous plays are ones all three read the same way (no
play with two readings). This engine's generator tables (keyed by a 15-bit rank mask, so
bounded by 2**15 entries each and independent of the cases: precomputed tables, filled on
first use) stay filled between rounds; a cold pass with every table emptied is printed too.

DouZero and RLCard are the benchmark's own dependencies, never the project's. Install them in
a separate virtualenv (DouZero without torch: only its move generator is used):

    python -m venv /tmp/ddzbench && /tmp/ddzbench/bin/pip install rlcard \\
        && /tmp/ddzbench/bin/pip install --no-deps douzero

and point ``DOUZERO_PYTHON`` and ``RLCARD_PYTHON`` at its interpreter (default for both:
``/tmp/ddzbench/bin/python``). Each runs in a worker process of that interpreter; a missing
one is reported and skipped. The machine is shared, so the engines are measured in
alternating rounds, each in the CPU time of its own process, and the best round of each is
kept.

Usage: python benchmarks/ddz_engine.py [--seconds 1.0] [--rounds 5] [--cases 2000]
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
from typing import Any, ClassVar

DEFAULT_VENV = "/tmp/ddzbench/bin/python"
PYTHONS = {
    "douzero": os.environ.get("DOUZERO_PYTHON", DEFAULT_VENV),
    "rlcard": os.environ.get("RLCARD_PYTHON", DEFAULT_VENV),
}
ROOT = Path(__file__).resolve().parent.parent
ORDER = "3456789TJQKA2BR"


def _timed(work: Callable[[], int], seconds: float) -> float:
    """Units of work per CPU second of this process, running ``work`` (one batch) until
    ``seconds`` of CPU time passed: CPU time, not wall time, so that other processes on the
    shared machine weigh on neither side."""
    done = 0
    start = time.process_time()
    while True:
        done += work()
        elapsed = time.process_time() - start
        if elapsed >= seconds:
            return done / elapsed


# --- the other engines (run inside a worker process) -----------------------------------------------
class DouZeroBench:
    """DouZero 1.1: ``douzero.env.game.GameEnv.get_legal_card_play_actions`` (no torch)."""

    CARD: ClassVar[dict[str, int]] = dict(
        zip(ORDER, (3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 20, 30), strict=True)
    )

    def __init__(self, cases: list[list[Any]]) -> None:
        from douzero.env.game import GameEnv

        self.legal = GameEnv.get_legal_card_play_actions
        self.env = _Env()
        self.cases = cases
        from importlib.metadata import PackageNotFoundError, version

        try:
            self.version = f"douzero {version('douzero')}"
        except PackageNotFoundError:
            self.version = "douzero"

    def _call(self, hand: str, previous: str | None) -> int:
        card = self.CARD
        env = self.env  # one state object, refilled per call (its cheapest use)
        env.info_sets["landlord"].player_hand_cards = [card[c] for c in hand]
        env.card_play_action_seq = [[card[c] for c in previous]] if previous else []
        return len(self.legal(env))

    def lead(self) -> int:
        for hand, _ in self.cases:
            self._call(hand, None)
        return len(self.cases)

    def follow(self) -> int:
        for hand, previous in self.cases:
            self._call(hand, previous)
        return len(self.cases)

    def selfplay(self) -> int:
        raise NotImplementedError


class _InfoSet:
    def __init__(self) -> None:
        self.player_hand_cards: list[int] = []


class _Env:
    """The attributes of DouZero's GameEnv that get_legal_card_play_actions reads."""

    def __init__(self) -> None:
        self.acting_player_position = "landlord"
        self.info_sets = {"landlord": _InfoSet()}
        self.card_play_action_seq: list[list[int]] = []


class RLCardBench:
    """RLCard 1.x: ``rlcard.games.doudizhu`` (game, judger and card utilities)."""

    def __init__(self, cases: list[list[Any]], seed: int = 1) -> None:
        import numpy as np  # noqa: F401  (RLCard needs it; imported here only)
        from rlcard.games.doudizhu.game import DoudizhuGame
        from rlcard.games.doudizhu.judger import DoudizhuJudger
        from rlcard.games.doudizhu.utils import get_gt_cards

        self.game = DoudizhuGame()
        self.game.np_random.seed(seed)
        self.judger = DoudizhuJudger
        self.gt = get_gt_cards
        self.rng = random.Random(seed)
        self.cases = cases
        self.version = "rlcard"
        try:
            import rlcard

            self.version = f"rlcard {rlcard.__version__}"
        except (ImportError, AttributeError):
            pass

    def lead(self) -> int:
        playable = self.judger.playable_cards_from_hand
        for hand, _ in self.cases:
            playable(hand)
        return len(self.cases)

    def follow(self) -> int:
        gt = self.gt
        for hand, previous in self.cases:
            gt(_Seat(hand=[_Card(c) for c in hand]), _Seat(played=previous))
        return len(self.cases)

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


BENCHES = {"douzero": DouZeroBench, "rlcard": RLCardBench}


def worker(which: str) -> None:
    """Run one engine's measurements on request: one JSON line in, one JSON line out."""
    cases = json.loads(sys.stdin.readline())
    bench = BENCHES[which](cases)
    print(json.dumps({"ready": bench.version}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        try:
            rate: float | None = _timed(getattr(bench, job["what"]), job["seconds"])
        except NotImplementedError:
            rate = None
        print(json.dumps({"rate": rate}), flush=True)


class Remote:
    """Another engine in its own interpreter (a worker process)."""

    def __init__(self, which: str, python: str, cases: list[tuple[str, str]]) -> None:
        self.proc = subprocess.Popen(
            [python, __file__, "--worker", which],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps(cases) + "\n")
        self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise OSError(f"the {which} worker did not start (is it installed there?)")
        self.version = str(json.loads(line)["ready"])

    def rate(self, what: str, seconds: float) -> float | None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.proc.stdin.write(json.dumps({"what": what, "seconds": seconds}) + "\n")
        self.proc.stdin.flush()
        rate = json.loads(self.proc.stdout.readline())["rate"]
        return None if rate is None else float(rate)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def remote(which: str, cases: list[tuple[str, str]]) -> tuple[Remote | None, str]:
    python = PYTHONS[which]
    if not Path(python).exists():
        return None, (
            f"not installed (no {python}); python -m venv /tmp/ddzbench && "
            "/tmp/ddzbench/bin/pip install rlcard && "
            "/tmp/ddzbench/bin/pip install --no-deps douzero"
        )
    try:
        return Remote(which, python, cases), f"worker process {python}"
    except (OSError, ValueError, json.JSONDecodeError) as err:
        return None, f"worker at {python} failed: {err}"


# --- this engine's side ------------------------------------------------------------------------
class OursBench:
    def __init__(self, cases: list[tuple[str, str]]) -> None:
        sys.path.insert(0, str(ROOT))
        from engines.base import Setup
        from engines.doudizhu import SPECS, legal_plays
        from engines.doudizhu.moves import clear_memos, clear_tables
        from engines.doudizhu.patterns import playbook

        self.clear_tables = clear_tables
        self.clear_memos = clear_memos
        self.spec = SPECS[0]
        self.setup = Setup
        self.legal_plays = legal_plays
        self.book = playbook()
        self.cases = cases
        self.rng = random.Random(1)
        self.seed = 0

    def lead(self) -> int:
        self.book.clear()  # no answer from a memo filled by an earlier pass
        self.clear_memos()
        legal_plays = self.legal_plays
        for hand, _ in self.cases:
            legal_plays(hand)
        return len(self.cases)

    def follow(self) -> int:
        self.book.clear()
        self.clear_memos()
        legal_plays = self.legal_plays
        for hand, previous in self.cases:
            legal_plays(hand, previous)
        return len(self.cases)

    def wild(self, count: int = 200) -> dict[int, tuple[int, float]]:
        """癞子斗地主: legal leads of the cases' first ``count`` hands, each with a 癞子 rank
        drawn at random, memo emptied, by how many 癞子 the hand holds: (hands, calls/s)."""
        from engines.doudizhu import wild
        from engines.doudizhu.notation import parse_cards

        rng = random.Random(5)
        spent: dict[int, list[float]] = {}
        for hand, _ in self.cases[:count]:
            counts = parse_cards(hand)
            rank = rng.randrange(13)
            wild._MEMO.clear()
            start = time.process_time()
            wild.plays(counts, rank)
            spent.setdefault(counts[rank], []).append(time.process_time() - start)
        return {w: (len(t), len(t) / sum(t)) for w, t in sorted(spent.items())}

    def cold(self, what: str) -> float:
        """Calls/s of one pass with every table and memo emptied first."""
        self.clear_tables()
        start = time.process_time()
        done = getattr(self, what)()
        return done / (time.process_time() - start)

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


def make_cases(count: int, seed: int = 1) -> list[tuple[str, str]]:
    """Distinct (hand, previous play) pairs in notation: hands of 17-20 random cards written
    canonically (as the card picker writes them), previous plays a random legal lead of
    another hand that has one reading."""
    sys.path.insert(0, str(ROOT))
    from engines.doudizhu import legal_plays

    rng = random.Random(seed)
    deck = [c for c in ORDER[:13] for _ in range(4)] + ["B", "R"]
    seen: set[str] = set()
    cases: list[tuple[str, str]] = []
    while len(cases) < count:
        hand = "".join(sorted(rng.sample(deck, rng.randint(17, 20)), key=ORDER.index))
        if hand in seen:
            continue
        seen.add(hand)
        other = "".join(rng.sample(deck, 20))
        previous = rng.choice([p for p in legal_plays(other) if " " not in p])
        cases.append((hand, previous))
    return cases


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement round")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per figure")
    parser.add_argument("--cases", type=int, default=2000, help="distinct legal-play cases")
    parser.add_argument("--worker", choices=sorted(BENCHES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    cases = make_cases(args.cases)
    ours = OursBench(cases)
    others: dict[str, Remote] = {}
    print(f"python {sys.version.split()[0]}; {len(cases)} distinct cases")
    for which in ("douzero", "rlcard"):
        side, how = remote(which, cases)
        print(f"{which}: {side.version if side else '-'} ({how})")
        if side is not None:
            others[which] = side
    rows = [
        ("lead", "legal plays, leading (text in, plays out)", "calls/s"),
        ("follow", "legal plays, following (text in, plays out)", "calls/s"),
        ("selfplay", "random self-play, whole hands via the Game API", "games/s"),
    ]
    results: dict[str, dict[str, float | None]] = {}
    for what, title, unit in rows:
        best: dict[str, float | None] = {"ours": 0.0, **{w: 0.0 for w in others}}
        for _ in range(args.rounds):
            best["ours"] = max(best["ours"] or 0.0, _timed(getattr(ours, what), args.seconds))
            for which, side in others.items():
                rate = side.rate(what, args.seconds)
                best[which] = None if rate is None else max(best[which] or 0.0, rate)
        results[what] = best
        line = f"{title:<48} ours {best['ours']:>9,.0f} {unit}"
        for which in ("douzero", "rlcard"):
            rate = best.get(which)
            if which not in others:
                line += f" | {which}: not available"
            elif rate is None:
                line += f" | {which}: not measured"
            else:
                line += f" | {which} {rate:>8,.0f} ({(best['ours'] or 0) / rate:5.1f}x)"
        print(line)
    for what in ("lead", "follow"):
        print(
            f"{'  cold pass (tables emptied), ' + what:<48} ours {ours.cold(what):>9,.0f} calls/s"
        )
    by_wilds = ours.wild()
    hands = sum(n for n, _ in by_wilds.values())
    overall = hands / sum(n / rate for n, rate in by_wilds.values())
    print(f"{'legal plays with a 癞子, leading (memo emptied)':<48} ours {overall:>9,.0f} calls/s")
    for w, (n, rate) in by_wilds.items():
        print(f"{f'  holding {w} 癞子 ({n} hands)':<48} ours {rate:>9,.0f} calls/s")
    for side in others.values():
        side.close()
    summary = []
    for what in ("lead", "follow"):
        ours_rate = results[what]["ours"] or 0.0
        for which in ("douzero", "rlcard"):
            rate = results[what].get(which)
            if rate:
                summary.append(f"{ours_rate / rate:.1f}x {which} {what}")
    sp = results["selfplay"]
    if sp.get("rlcard"):
        summary.append(f"selfplay {(sp['ours'] or 0) / (sp['rlcard'] or 1):.1f}x rlcard")
    follow = results["follow"]["ours"] or 0.0
    lead = results["lead"]["ours"] or 0.0
    print(
        f"ddz_legal_plays: {lead:.0f} lead / {follow:.0f} follow calls/s"
        + (f" ({', '.join(summary)})" if summary else " (douzero, rlcard not available)")
    )


if __name__ == "__main__":
    main()
