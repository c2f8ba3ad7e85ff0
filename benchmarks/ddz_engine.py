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
pairs given as the notation a player types. Every side's inputs are built before the clock
starts, each in the form its call takes: here the texts themselves (``legal_plays(hand,
previous)`` parses them, and that parsing is timed); DouZero's card lists (its
``GameEnv.get_legal_card_play_actions`` on a state refilled per call); RLCard's hand text
(``DoudizhuJudger.playable_cards_from_hand``, leading) and its card objects
(``get_gt_cards``, following). Previous plays are ones all three read the same way (no play
with two readings). This engine's per-case memos (the play book, the memo of previous plays)
are emptied before every pass, so no case is answered from a memo filled by an earlier
pass; its generator tables are fixed, built when the module is imported (the import's CPU
time is printed for every side). Two more rows give this engine its own input form too,
built before the clock as the peers' are: ``lead_plays(counts)`` and ``follow_plays(counts,
play)`` on counts vectors and Play objects (the peers' figures there are their same calls).

Warm: ``--rounds`` rounds, the sides interleaved (the order turning each round), each side
timed for ``--seconds`` of its own process's CPU time; the median round is reported. Cold:
``--rounds`` repetitions, each starting every side in a fresh process (imported, inputs
built) and timing its first pass over the cases, the sides again interleaved; the median is
reported.

DouZero and RLCard are the benchmark's own dependencies, never the project's. Install them in
a separate virtualenv (DouZero without torch: only its move generator is used):

    python -m venv /tmp/ddzbench && /tmp/ddzbench/bin/pip install rlcard \\
        && /tmp/ddzbench/bin/pip install --no-deps douzero

and point ``DOUZERO_PYTHON`` and ``RLCARD_PYTHON`` at its interpreter (default for both:
``/tmp/ddzbench/bin/python``). Each runs in a worker process of that interpreter; a missing
one is reported and skipped. Every side, this engine too, runs in a worker process, timed
in that process's CPU time, so the shared machine's other load weighs on no side.

Usage: python benchmarks/ddz_engine.py [--seconds 1.0] [--rounds 5] [--cases 2000]
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
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


def _once(work: Callable[[], int]) -> float:
    """Units of work per CPU second of one batch (a cold pass)."""
    start = time.process_time()
    done = work()
    return done / (time.process_time() - start)


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
        card = self.CARD
        # its inputs, built before the clock starts: a card list and the previous play's
        self.cases = [([card[c] for c in hand], [card[c] for c in prev]) for hand, prev in cases]
        from importlib.metadata import PackageNotFoundError, version

        try:
            self.version = f"douzero {version('douzero')}"
        except PackageNotFoundError:
            self.version = "douzero"

    def _call(self, hand: list[int], previous: list[int] | None) -> int:
        env = self.env  # one state object, refilled per call (its cheapest use)
        env.info_sets["landlord"].player_hand_cards = hand
        env.card_play_action_seq = [previous] if previous else []
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

    lead_native = lead  # its own input form already
    follow_native = follow


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
        # its inputs for following, built before the clock starts: card objects
        self.seats = [
            (_Seat(hand=[_Card(c) for c in hand]), _Seat(played=previous))
            for hand, previous in cases
        ]
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
        for seat, previous in self.seats:
            gt(seat, previous)
        return len(self.seats)

    lead_native = lead  # its own input forms already (hand text; card objects)
    follow_native = follow

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


IMPORTS = {
    "douzero": "douzero.env.game",
    "rlcard": "rlcard.games.doudizhu.game",
    "ours": "engines.doudizhu",
}


def worker(which: str) -> None:
    """Run one engine's measurements on request: one JSON line in, one JSON line out."""
    import importlib

    cases = json.loads(sys.stdin.readline())
    sys.path.insert(0, str(ROOT))
    start = time.process_time()
    importlib.import_module(IMPORTS[which])  # ours builds its fixed tables here
    imported = time.process_time() - start
    bench = BENCHES[which](cases)
    print(json.dumps({"ready": getattr(bench, "version", which), "import": imported}), flush=True)
    for line in sys.stdin:
        job = json.loads(line)
        try:
            work = getattr(bench, job["what"])
            rate: float | None = _once(work) if job["once"] else _timed(work, job["seconds"])
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
        ready = json.loads(line)
        self.version = str(ready["ready"])
        self.imported = float(ready["import"])

    def rate(self, what: str, seconds: float, once: bool = False) -> float | None:
        assert self.proc.stdin is not None and self.proc.stdout is not None
        job = {"what": what, "seconds": seconds, "once": once}
        self.proc.stdin.write(json.dumps(job) + "\n")
        self.proc.stdin.flush()
        rate = json.loads(self.proc.stdout.readline())["rate"]
        return None if rate is None else float(rate)

    def close(self) -> None:
        if self.proc.stdin:
            self.proc.stdin.close()
        self.proc.wait(timeout=30)


def remote(which: str, cases: list[tuple[str, str]]) -> tuple[Remote | None, str]:
    python = sys.executable if which == "ours" else PYTHONS[which]
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
        self.version = "this engine"
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
        # the engine's own input form, built before the clock as the peers' are: counts
        # vectors and Play objects (the ``native`` rows)
        from engines.doudizhu.moves import follow_plays, lead_plays
        from engines.doudizhu.notation import parse_cards
        from engines.doudizhu.patterns import parse_play

        self.lead_plays, self.follow_plays = lead_plays, follow_plays
        self.native = [(parse_cards(hand), parse_play(previous)) for hand, previous in cases]

    def lead_native(self) -> int:
        self.clear_memos()
        lead_plays = self.lead_plays
        for counts, _ in self.native:
            lead_plays(counts)
        return len(self.native)

    def follow_native(self) -> int:
        self.clear_memos()
        follow_plays = self.follow_plays
        for counts, previous in self.native:
            follow_plays(counts, previous)
        return len(self.native)

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


BENCHES: dict[str, Any] = {"ours": OursBench, "douzero": DouZeroBench, "rlcard": RLCardBench}
SIDES = ("ours", "douzero", "rlcard")


def interleaved(
    sides: dict[str, Remote], what: str, rounds: int, seconds: float
) -> dict[str, float | None]:
    """Warm: the median round of each side, the sides interleaved (the order turning)."""
    names = list(sides)
    rates: dict[str, list[float]] = {n: [] for n in names}
    unmeasured: set[str] = set()
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            rate = sides[name].rate(what, seconds)
            if rate is None:
                unmeasured.add(name)
            else:
                rates[name].append(rate)
    return {n: None if n in unmeasured else statistics.median(rates[n]) for n in names}


def cold(
    names: list[str], cases: list[tuple[str, str]], what: str, rounds: int
) -> dict[str, float]:
    """Cold: each repetition starts every side afresh and times its first pass."""
    rates: dict[str, list[float]] = {n: [] for n in names}
    for r in range(rounds):
        for name in names[r % len(names) :] + names[: r % len(names)]:
            side, _ = remote(name, cases)
            assert side is not None
            rate = side.rate(what, 0.0, once=True)
            side.close()
            rates[name].append(rate or 0.0)
    return {n: statistics.median(v) for n, v in rates.items()}


def ratios(rates: dict[str, float | None], what: str) -> list[str]:
    ours = rates["ours"] or 0.0
    return [f"{ours / rate:.1f}x {n} {what}" for n, rate in rates.items() if n != "ours" and rate]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="per measurement round")
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds per figure")
    parser.add_argument("--cases", type=int, default=2000, help="distinct legal-play cases")
    parser.add_argument("--worker", choices=sorted(BENCHES), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        worker(args.worker)
        return
    cases = make_cases(args.cases)
    sides: dict[str, Remote] = {}
    print(f"python {sys.version.split()[0]}; {len(cases)} distinct cases")
    for which in SIDES:
        side, how = remote(which, cases)
        if side is None:
            print(f"{which}: - ({how})")
            continue
        sides[which] = side
        print(f"{which}: {side.version} ({how}; import {side.imported * 1000:.0f} ms CPU)")
    if "ours" not in sides:
        raise SystemExit("this engine's worker did not start")
    rows = [
        ("lead", "legal plays, leading (text in, plays out)", "calls/s"),
        ("follow", "legal plays, following (text in, plays out)", "calls/s"),
        ("lead_native", "  leading, ours from counts (lead_plays)", "calls/s"),
        ("follow_native", "  following, ours from counts, Play (follow_plays)", "calls/s"),
        ("selfplay", "random self-play, whole hands via the Game API", "games/s"),
    ]
    warm: dict[str, dict[str, float | None]] = {}
    colds: dict[str, dict[str, float]] = {}
    for what, title, unit in rows:
        warm[what] = interleaved(sides, what, args.rounds, args.seconds)
        if what in ("lead", "follow"):
            colds[what] = cold(list(sides), cases, what, args.rounds)
        for kind, rates in (("warm", warm[what]), ("cold", colds.get(what))):
            if rates is None:
                continue
            label = title if kind == "warm" else f"  cold (first pass, fresh process), {what}"
            line = f"{label:<48} ours {rates['ours'] or 0:>9,.0f} {unit}"
            for which in SIDES[1:]:
                rate = rates.get(which)
                if which not in sides:
                    line += f" | {which}: not available"
                elif rate is None:
                    line += f" | {which}: not measured"
                else:
                    line += f" | {which} {rate:>8,.0f} ({(rates['ours'] or 0) / rate:5.1f}x)"
            print(line)
    ours = OursBench(cases)
    by_wilds = ours.wild()
    hands = sum(n for n, _ in by_wilds.values())
    overall = hands / sum(n / rate for n, rate in by_wilds.values())
    print(f"{'legal plays with a 癞子, leading (memo emptied)':<48} ours {overall:>9,.0f} calls/s")
    for w, (n, rate) in by_wilds.items():
        print(f"{f'  holding {w} 癞子 ({n} hands)':<48} ours {rate:>9,.0f} calls/s")
    for side in sides.values():
        side.close()
    summary = ratios(warm["lead"], "lead") + ratios(warm["follow"], "follow")
    sp = warm["selfplay"]
    if sp.get("rlcard"):
        summary.append(f"selfplay {(sp['ours'] or 0) / (sp['rlcard'] or 1):.1f}x rlcard")
    print(
        f"ddz_legal_plays: {warm['lead']['ours'] or 0:.0f} lead / "
        f"{warm['follow']['ours'] or 0:.0f} follow calls/s"
        + (f" ({', '.join(summary)})" if summary else " (douzero, rlcard not available)")
    )
    summary = ratios(warm["lead_native"], "lead") + ratios(warm["follow_native"], "follow")
    print(
        f"ddz_legal_plays_native: {warm['lead_native']['ours'] or 0:.0f} lead / "
        f"{warm['follow_native']['ours'] or 0:.0f} follow calls/s"
        + (f" ({', '.join(summary)})" if summary else " (douzero, rlcard not available)")
    )
    summary = ratios(dict(colds["lead"]), "lead") + ratios(dict(colds["follow"]), "follow")
    print(
        f"ddz_legal_plays_cold: {colds['lead']['ours']:.0f} lead / "
        f"{colds['follow']['ours']:.0f} follow calls/s"
        + (f" ({', '.join(summary)})" if summary else " (douzero, rlcard not available)")
    )


if __name__ == "__main__":
    main()
