"""The engine benchmarks compare like with like and say so: each measure names the peer's
call, reports against the fastest peer, cold and warm, in summary lines of the form
``name: value unit (ratio)``. Run small (a few seconds each)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SUMMARY = re.compile(r"^(\w+): ([\d.]+(?: \w+ / [\d.]+ \w+)?) ([\w/]+) \((.+)\)$")


def run(script: str, *args: str, **env: str) -> list[str]:
    result = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / script), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
        env={**os.environ, **env},
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def summaries(lines: list[str]) -> dict[str, str]:
    out = {}
    for line in lines:
        found = SUMMARY.match(line)
        if found:
            out[found[1]] = found[4]
    return out


def test_mahjong_reports_every_measure_cold_and_warm_against_the_fastest_named_peer() -> None:
    pytest.importorskip("MahjongGB")
    pytest.importorskip("mahjong.agari")
    lines = run("mahjong.py", "--hands", "60", "--rounds", "1", "--games", "0")
    found = summaries(lines)
    for measure in ("win", "waits", "shanten"):
        for kind in ("warm", "cold"):
            ratio = found[f"mahjong_{measure}_{kind}"]
            assert re.fullmatch(r"[\d.]+x .+, the fastest peer", ratio), ratio
    text = "\n".join(lines)
    # PyMahjongGB's cheapest complete-hand judgement is one fan-calculator call, and the
    # shanten judge removes one tile, not every distinct one
    assert "PyMahjongGB MahjongFanCalculator" in text
    assert "one removal" in text
    assert re.search(r"MahjongFanCalculator .* agrees with ours on (\d+)/\1", text)
    assert "mahjong Agari.is_agari" in text and "PyMahjongGB MahjongShanten" in text


def test_ddz_reports_cold_and_warm_even_without_the_peers() -> None:
    missing = str(ROOT / "no-such-python")
    lines = run(
        "ddz_engine.py",
        "--seconds",
        "0.05",
        "--rounds",
        "1",
        "--cases",
        "40",
        DOUZERO_PYTHON=missing,
        RLCARD_PYTHON=missing,
    )
    found = summaries(lines)
    assert {"ddz_legal_plays", "ddz_legal_plays_cold"} <= set(found), lines[-3:]
    assert any(
        line.lstrip().startswith("cold (first pass, fresh process), follow") for line in lines
    )


def test_the_memo_benchmark_reports_every_memo_the_games_fill_and_the_budget() -> None:
    lines = run("memos.py", "--hands", "2", "--games", "doudizhu_wild,shuangkou")
    found = summaries(lines)
    assert re.fullmatch(r"[\d.]+x the budget of 40 MB", found["memos_full"]), lines[-3:]
    names = {line.split()[0] for line in lines if line.startswith("engines.")}
    assert {"engines.doudizhu.wild.plays", "engines.shuangkou.ai._split"} <= names, names
    assert any(line.startswith("the collector tracks ") for line in lines)
