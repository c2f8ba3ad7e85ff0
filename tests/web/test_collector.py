"""The hall process's collector (``tune_collector``): start-up's heap frozen, fewer young
collections. Run in a process of its own: the collector is the whole process's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import gc
from bot.host.memory import COLLECTOR_THRESHOLDS, tune_collector
kept = [[i] for i in range(5000)]  # start-up's objects
tune_collector()
print(gc.get_threshold() == COLLECTOR_THRESHOLDS, gc.get_freeze_count() >= 5000,
      COLLECTOR_THRESHOLDS[0] > 700)
"""


def test_tune_collector_freezes_the_start_up_heap_and_raises_the_young_threshold() -> None:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "True", "True"]
