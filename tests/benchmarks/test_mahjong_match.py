"""benchmarks/mahjong_match.py: the hard and normal trustees against the shanten baseline in
duplicate seating, both keys; every figure the goals name is printed, then one summary line.
Run small (two deals)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_match_prints_every_figure_and_a_summary_line() -> None:
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "mahjong_match.py"), "--deals", "2"],
        capture_output=True, text=True, check=False, timeout=600,
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for key in ("sichuan", "xuezhan"):
        for level in ("hard", "normal"):
            assert any(re.match(rf"{key}\s+{level}\s+trustee − baseline [+-][\d.]+ ± [\d.]+ "
                                r"points per hand \(2 deals, 4 games\)", line)
                       for line in lines), (key, level)
    text = result.stdout
    assert text.count("deal-in per seat-hand: trustee") == 4
    assert text.count("mean 番 of wins: trustee") == 4
    assert text.count("hard vs normal: mean 番") == 2
    assert text.count("decision CPU ms: p50") == 4
    assert re.match(r"^mahjong_match: (?:[\d.]+|inf) x deal-in ratio \(hard, worst key\), (?:[\d.]+|inf) x mean "
                    r"fan vs normal, p99 [\d.]+ ms$", lines[-1]), lines[-1]
