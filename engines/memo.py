"""备忘: the engines' process-wide memos, each bounded, all within one byte budget.

Some answers are worth keeping across hands and tables: the plays a hand can make, the
reading of a set of cards, a trustee's value of a split. Such a memo lives as long as the
process, and a hall runs for weeks, so every one is a ``Memo``: a dict of at most ``limit``
entries that, when full, lets its older half go (insertion order: what was asked lately
stays). Bounding entries is not enough on its own — one 癞子 hand's plays are a tuple of
hundreds of plays (about 24 KB), one 够级 reading a few hundred bytes — so each limit is set
from what an entry holds, and ``tests/engines/test_memos.py`` plays every game, measures the
bytes per entry of each memo and fails when the memos, all full, would pass ``BUDGET``.

A game's own answers for one state are kept elsewhere (``Game.remember``); a table of fixed
rules built at import (no growth) is no memo. ``functools`` caches are left for a fixed, small
domain only (at most ``FIXED_DOMAIN`` entries).

>>> m = Memo("example", limit=4)
>>> for k in range(6):
...     _ = m.keep(k, k * k)
>>> sorted(m.items()), m.get(5)
([(2, 4), (3, 9), (4, 16), (5, 25)], 25)
"""

from __future__ import annotations

import functools
import gc
import itertools
import sys
import types
import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

BUDGET = 40 * 2**20
"""Bytes every memo together may hold when all are full: at 5,000 tables 8 KiB each (the
whole of a mid-hand table, game and host, should stay within 20 KiB)."""

FIXED_DOMAIN = 64
"""The most entries a ``functools`` cache of an engine may keep (a fixed domain: a table per
tile, per rule set, per board); anything that grows with play is a ``Memo``."""

_MEMOS: weakref.WeakValueDictionary[int, Memo] = weakref.WeakValueDictionary()
_made = itertools.count()

_MISSING: Any = object()
_SHARED = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType)
_F = TypeVar("_F", bound=Callable[..., Any])


class Memo(dict[Any, Any]):
    """A process-wide memo of at most ``limit`` entries (``memos`` lists it while it lives).
    Read it as a dict (``get``: C speed); add through ``keep``, which makes room first when
    full."""

    __slots__ = ("name", "limit", "__weakref__")

    def __init__(self, name: str, limit: int) -> None:
        super().__init__()
        if limit < 2:
            raise ValueError(f"memo {name}: a limit of {limit} keeps nothing")
        self.name = name
        self.limit = limit
        _MEMOS[next(_made)] = self

    def keep(self, key: Hashable, value: Any) -> Any:
        """Store ``value`` under ``key`` and return it; when full, the older half goes."""
        if len(self) >= self.limit:
            for old in list(itertools.islice(self, len(self) // 2)):
                del self[old]
        self[key] = value
        return value

    def footprint(self) -> int:
        """Bytes its entries reach (``sys.getsizeof``, each object once; classes and code
        left out), its own table not counted (``full_bytes`` adds a full one)."""
        seen: set[int] = set()
        total = 0
        stack: list[object] = [*self.keys(), *self.values()]
        while stack:
            obj = stack.pop()
            if id(obj) in seen or obj is None or isinstance(obj, _SHARED):
                continue
            seen.add(id(obj))
            total += sys.getsizeof(obj)
            stack.extend(gc.get_referents(obj))
        return total

    def full_bytes(self) -> float:
        """What it would hold full: ``limit`` entries like those it holds, and the table of a
        dict of ``limit`` entries (0 when empty)."""
        if not self:
            return 0.0
        return self.footprint() / len(self) * self.limit + _table_bytes(self.limit)

    def __repr__(self) -> str:
        return f"Memo({self.name!r}, {len(self)} of {self.limit})"


@functools.lru_cache(maxsize=FIXED_DOMAIN)
def _table_bytes(entries: int) -> int:
    """Bytes of a dict's own table holding ``entries`` entries."""
    return sys.getsizeof(dict.fromkeys(range(entries)))


def memos() -> list[Memo]:
    """Every memo alive, in the order made (the budget test reads them)."""
    return list(_MEMOS.values())


def memoized(limit: int) -> Callable[[_F], _F]:
    """Answer ``fn`` from a ``Memo`` of ``limit`` entries keyed by its arguments (all
    positional and hashable; one argument is the key itself). Its memo is ``fn.memo``; an
    exception is raised afresh each time, never kept."""

    def wrap(fn: _F) -> _F:
        memo = Memo(f"{fn.__module__}.{fn.__qualname__}", limit)
        get, keep = memo.get, memo.keep

        @functools.wraps(fn)
        def one(arg: Any) -> Any:
            found = get(arg, _MISSING)
            return keep(arg, fn(arg)) if found is _MISSING else found

        @functools.wraps(fn)
        def many(*args: Any) -> Any:
            found = get(args, _MISSING)
            return keep(args, fn(*args)) if found is _MISSING else found

        code = getattr(fn, "__code__", None)
        call = one if code is not None and code.co_argcount == 1 else many
        call.memo = memo  # type: ignore[attr-defined]
        return call  # type: ignore[return-value]

    return wrap
