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


def test_a_saved_run_pairs_with_the_next_deal_by_deal(tmp_path: Path) -> None:
    # the same code on the same deals: every deal's difference is nought
    saved = tmp_path / "before.json"
    match = [sys.executable, str(ROOT / "benchmarks" / "mahjong_match.py"), "--deals", "2",
             "--keys", "sichuan", "--levels", "normal"]
    first = subprocess.run([*match, "--save", str(saved)], capture_output=True, text=True,
                           check=False, timeout=600)
    assert first.returncode == 0, first.stderr
    again = subprocess.run([*match, "--against", str(saved)], capture_output=True, text=True,
                           check=False, timeout=600)
    assert again.returncode == 0, again.stderr
    assert re.search(r"normal now − saved \(paired, 2 deals\): \+0\.00 ± 0\.00 points per hand; "
                     r"deal-ins (\d+) vs \1; mean 番 ([\d.]+) \((\d+) wins\) vs \2 \(\3\)",
                     again.stdout), again.stdout
    other = subprocess.run([*match, "--against", str(saved), "--seed", "7"],
                           capture_output=True, text=True, check=False, timeout=600)
    assert other.returncode != 0 and "played from seed 1, not 7" in other.stderr
