"""The gamehall command as an admin runs it: run without a token, wallet, play, bad settings."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def gamehall(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
        env=env, cwd=ROOT, timeout=120,
    )


def environment(tmp_path: Path, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "GAMEHALL_CONFIG")}
    env["GAMEHALL_DB"] = str(tmp_path / "hall.db")
    env.update(extra)
    return env


def test_run_without_a_token_says_what_is_missing(tmp_path: Path) -> None:
    result = gamehall("run", env=environment(tmp_path))
    assert result.returncode != 0
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "DISCORD_TOKEN" in lines[0] and "gamehall play" in lines[0]


def test_invalid_settings_stop_start_up_naming_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text("[rooms.novice]\ncoefficient = -3\n", encoding="utf-8")
    result = gamehall("run", env=environment(tmp_path, GAMEHALL_CONFIG=str(bad),
                                             DISCORD_TOKEN="x"))
    assert result.returncode == 2
    assert "rooms.novice.coefficient" in result.stderr
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("[rooms.novice.options.doudizhu]\nwild = true\n", encoding="utf-8")
    result = gamehall("games", env=environment(tmp_path, GAMEHALL_CONFIG=str(unknown)))
    assert result.returncode == 2
    assert "rooms.novice.options.doudizhu.wild" in result.stderr


def test_play_a_hand_in_the_terminal_then_read_the_wallet(tmp_path: Path) -> None:
    env = environment(tmp_path)
    # a bad action is refused and changes nothing; then the trustee plays the hand out
    result = gamehall("play", "doudizhu", "--room", "novice", "--seed", "3", "--no-timer",
                      env=env, stdin="33@@\ntrustee\nn\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "❌" in out
    assert "第 1 局结算" in out or "Hand #1 settled" in out
    wallet = gamehall("wallet", "1", env=env)
    assert wallet.returncode == 0, wallet.stderr
    assert "player 1: balance" in wallet.stdout
    assert "grant:start" in wallet.stdout and "hand 1" in wallet.stdout
    assert "doudizhu" in wallet.stdout
    missing = gamehall("wallet", "424242", env=env)
    assert missing.returncode == 1 and "no player 424242" in missing.stderr
