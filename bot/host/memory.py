"""内存: how a long-running hall keeps Python's cyclic garbage collector out of the way.

A hall with thousands of live hands holds a few hundred thousand small containers (each
game's card lists, each table's notes and last result). CPython's collector scans all of them
on every full collection, and with the default thresholds it runs one every few hundred hands:
at 5,000 tables that was most of the process's time, in pauses of 200-400 ms
(``benchmarks/host.py --collector plain``). Call ``tune_collector`` once the hall has started
(after ``TableManager.restore``).
"""

from __future__ import annotations

import gc

YOUNG = 50_000
"""Allocations before the youngest generation is collected (CPython's default is 700): most
of what a host call allocates is gone by then, so far less survives into the old generations
whose collections are the long pauses."""


def tune_collector(young: int = YOUNG) -> None:
    """Freeze what exists now (code, settings, restored tables: ``gc.freeze``) so collections
    skip it, and collect the youngest generation every ``young`` allocations."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(young, max(middle, 20), max(old, 20))
