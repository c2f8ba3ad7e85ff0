"""The engines' process-wide memos (``engines.memo``): each bounded, all full within the budget.

A hall runs for weeks and every memo fills in the end, so what counts is what a full memo
holds: its limit times what one entry holds. Before the budget, 癞子斗地主's memo of plays
(20,000 entries of about 24 KB) alone would have held about 480 MB, 四人斗地主's about 340 MB
and 双扣's three about 110 MB; 20 hands of 双扣 kept 24 MB."""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
import types
from pathlib import Path

import pytest

import engines
from engines import registry
from engines.memo import BUDGET, FIXED_DOMAIN, Memo, memoized, memos

REFERENCE = {
    "engines.mahjong.decompose._decomp",
    "engines.mahjong.decompose._and",
    "engines.mahjong.decompose._combine",
    "engines.mahjong.decompose._front",
}
"""Unbounded on purpose: the reference recursions ``tablegen`` builds the shape tables from
(every suit of up to 14 tiles); in play they answer only a suit the tables do not hold (more
than 14 tiles of one suit), so play never fills them."""


def engine_modules() -> list[types.ModuleType]:
    return [importlib.import_module(m.name)
            for m in pkgutil.walk_packages(engines.__path__, "engines.")]


def test_every_functools_cache_of_an_engine_keeps_a_fixed_small_domain() -> None:
    unbounded = []
    for module in engine_modules():
        for name, fn in vars(module).items():
            if not hasattr(fn, "cache_info") or fn.__module__ != module.__name__:
                continue
            size = fn.cache_parameters()["maxsize"]
            if f"{module.__name__}.{name}" not in REFERENCE and (
                    size is None or size > FIXED_DOMAIN):
                unbounded.append(f"{module.__name__}.{name} (maxsize {size})")
    assert unbounded == [], "caches that grow with play belong in a Memo: " + ", ".join(
        unbounded)


def test_a_full_memo_lets_its_older_half_go_and_keeps_what_was_asked_lately() -> None:
    m = Memo("test.lately", limit=10)
    assert m in memos()
    for k in range(25):
        assert m.keep(k, -k) == -k
        assert len(m) <= 10
    assert m.get(24) == -24 and m.get(0) is None
    assert set(m) == set(range(15, 25))  # full at 20: 0-9 went at 10, 10-14 at 20


def test_a_memoized_function_answers_once_and_raises_afresh() -> None:
    calls: list[object] = []

    def square(x: int) -> int:
        calls.append(x)
        if x < 0:
            raise ValueError(x)
        return x * x

    def add(a: int, b: int) -> int:
        calls.append((a, b))
        return a + b

    one, two = memoized(8)(square), memoized(8)(add)
    assert [one(3), one(3), two(1, 2), two(1, 2)] == [9, 9, 3, 3]
    assert calls == [3, (1, 2)]
    for _ in range(2):
        with pytest.raises(ValueError):
            one(-1)
    assert calls == [3, (1, 2), -1, -1] and -1 not in one.memo  # type: ignore[attr-defined]


def test_the_memos_all_full_fit_the_budget() -> None:
    # benchmarks/memos.py's play: the trustee's or a random legal action, half and half
    path = Path(__file__).resolve().parents[2] / "benchmarks" / "memos.py"
    found = importlib.util.spec_from_file_location("memo_benchmark", path)
    assert found is not None and found.loader is not None
    bench = importlib.util.module_from_spec(found)
    found.loader.exec_module(bench)
    for m in memos():
        m.clear()  # what this play leaves, whatever other tests asked before
    for key in registry.specs():
        bench.play(key, hands=2)
    full = {}
    for m in memos():
        if m:
            full[f"{m.name} ({len(m)} of {m.limit})"] = m.full_bytes()
    assert len(full) >= 12, sorted(full)  # the games filled the memos they use
    report = ", ".join(f"{name} {size / 2**20:.1f} MB" for name, size in
                       sorted(full.items(), key=lambda kv: -kv[1]))
    assert sum(full.values()) <= BUDGET, report
