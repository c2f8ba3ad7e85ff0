"""内存: how a long-running hall keeps Python's cyclic garbage collector out of the way.

A hall with thousands of live hands holds a few hundred thousand small containers (each
game's card lists, each table's notes and last result). CPython's collector scans all of them
on every full collection, and with the default thresholds it runs one every few hundred hands:
at 5,000 tables that was most of the process's time, in pauses of 200-400 ms
(``benchmarks/host.py --collector plain``). Call ``tune_collector`` once the hall has started
(after ``TableManager.restore``). ``own_bytes`` measures what one live hand or table holds of
its own (the memory-budget tests and ``benchmarks/host.py``).
"""

from __future__ import annotations

import gc
import sys
import types

COLLECTOR_THRESHOLDS = (50_000, 20, 100)
"""The collector's thresholds for a long-running hall (CPython's defaults: 700, 10, 10): most
of what a host call allocates is gone before 50,000 allocations, so far less survives into the
old generations whose collections are the long pauses."""


def tune_collector(thresholds: tuple[int, int, int] = COLLECTOR_THRESHOLDS) -> None:
    """Set the cyclic collector for a hall that must answer in milliseconds: everything alive
    after start-up (modules, the engines' tables, the restored tables) is frozen, so no
    collection walks it again (``gc.freeze``), and the young generation collects every
    ``thresholds[0]`` allocations instead of every 700 (docs/web.md, Measured)."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*thresholds)


_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType)


def _reachable(root: object) -> dict[int, object]:
    """Every object ``root`` reaches (``gc.get_referents``), classes and code left out."""
    seen: dict[int, object] = {}
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, _SHARED):
            continue
        seen[id(obj)] = obj
        stack.extend(gc.get_referents(obj))
    return seen


def own_bytes(obj: object, other: object) -> int:
    """Bytes (``sys.getsizeof``) of what ``obj`` holds of its own: the objects it reaches that
    ``other`` — another object of the same kind, e.g. another hand of the same game — does not
    reach, so what every such object shares (rules, tables of patterns, interned names, small
    ints, the process's caches) is not counted for one of them."""
    theirs = _reachable(other)
    return sum(sys.getsizeof(o) for i, o in _reachable(obj).items() if i not in theirs)
