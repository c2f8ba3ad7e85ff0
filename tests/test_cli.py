"""The gamehall command as an admin runs it: run without a token, wallet, play, bad settings."""

from __future__ import annotations

import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from bot.__main__ import main

ROOT = Path(__file__).resolve().parents[1]
COMMANDS = (["run"], ["play", "doudizhu", "--no-timer"], ["wallet", "1"])


def gamehall(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
        env=env, cwd=ROOT, timeout=120, check=False,  # tests read the exit code
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


def test_the_terminal_offers_the_start_choice_of_the_start_buttons(tmp_path: Path) -> None:
    """欢乐斗地主's 明牌开始 ×5 is asked before the deal, as the second Start button offers it;
    an answer that is not a choice is named and asked again, and nothing is dealt meanwhile."""
    result = gamehall("play", "doudizhu_happy", "--room", "novice", "--seed", "3", "--no-timer",
                      env=environment(tmp_path), stdin="bogus\nshow 5\ntrustee\nn\n")
    assert result.returncode == 0, result.stderr
    out = result.stdout
    prompt = next(line for line in out.split("\n") if "开局" in line)  # after the welcome
    assert "`show 5`" in prompt and "== " not in out.split(prompt, 1)[0]
    before_deal, dealt = out.split("bogus", 1)[1].split("== ", 1)
    assert "show 5" in before_deal and "手牌" not in before_deal  # named; no card shown yet
    assert "明牌 ×5" in dealt.split("\n")[1]  # the seat shows its hand from the deal on, ×5
    assert "第 1 局结算" in dealt and "明牌 ×5" in dealt.split("第 1 局结算", 1)[1]
    plain = gamehall("play", "doudizhu", "--room", "novice", "--seed", "3", "--no-timer",
                     env=environment(tmp_path), stdin="trustee\nn\n")
    assert plain.returncode == 0 and "show 5" not in plain.stdout  # classic has no 明牌


def refused(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    """Run ``gamehall argv`` in this process; it must exit 2 with one line on stderr."""
    with pytest.raises(SystemExit) as exited:
        main(argv)
    assert exited.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert "Traceback" not in err
    return err


@pytest.fixture
def env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> pytest.MonkeyPatch:
    monkeypatch.delenv("GAMEHALL_CONFIG", raising=False)
    monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")  # run gets past the token check
    monkeypatch.setenv("GAMEHALL_DB", str(tmp_path / "hall.db"))
    return monkeypatch


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: argv[0])
def test_config_files_that_cannot_be_read_stop_every_command(
    argv: list[str], tmp_path: Path, env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    gbk = tmp_path / "gbk.toml"  # the Chinese Windows code page, not UTF-8
    gbk.write_bytes('[rooms.novice]\nname_zh = "新手场"\n'.encode("gbk"))
    env.setenv("GAMEHALL_CONFIG", str(gbk))
    err = refused(argv, capsys)
    assert "GAMEHALL_CONFIG" in err and "not UTF-8" in err and str(gbk) in err
    env.setenv("GAMEHALL_CONFIG", str(tmp_path))
    err = refused(argv, capsys)
    assert "GAMEHALL_CONFIG" in err and "is a directory" in err
    env.setenv("GAMEHALL_CONFIG", str(gbk / "mine.toml"))
    assert "cannot read config file" in refused(argv, capsys)
    assert not (tmp_path / "hall.db").exists()  # stopped before the database was touched


@pytest.mark.parametrize("argv", COMMANDS, ids=lambda argv: argv[0])
def test_an_unusable_database_stops_every_command(
    argv: list[str], tmp_path: Path, env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("GAMEHALL_DB", str(tmp_path))
    err = refused(argv, capsys)
    assert f"cannot use the database {tmp_path} (GAMEHALL_DB): it is a directory" in err
    text = tmp_path / "notes.txt"
    text.write_text("not a database, just notes\n" * 10, encoding="utf-8")
    env.setenv("GAMEHALL_DB", str(text))
    assert "file is not a database" in refused(argv, capsys)
    assert text.read_text(encoding="utf-8").startswith("not a database")  # left as it was
    env.setenv("GAMEHALL_DB", str(text / "hall.db"))  # a folder that cannot be created
    assert "cannot create its folder" in refused(argv, capsys)


def test_a_metrics_port_in_use_stops_run_with_one_line(
    tmp_path: Path, env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("0.0.0.0", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = tmp_path / "hall.toml"
        config.write_text(f"[metrics]\nport = {port}\n", encoding="utf-8")
        env.setenv("GAMEHALL_DB", str(tmp_path / "hall.db"))
        env.setenv("GAMEHALL_CONFIG", str(config))
        env.setenv("DISCORD_TOKEN", "not-a-real-token")
        err = refused(["run"], capsys)
    assert f"cannot serve metrics on port {port} ([metrics] port)" in err


@pytest.mark.skipif(not Path("/proc/self").is_dir(), reason="needs Linux /proc (read-only)")
def test_a_database_in_a_read_only_place_that_does_not_exist(
    env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env.setenv("GAMEHALL_DB", "/proc/gamehall/hall.db")
    assert "cannot use the database /proc/gamehall/hall.db" in refused(["run"], capsys)
    env.setenv("GAMEHALL_DB", "/proc/hall.db")
    assert "unable to open database file" in refused(["wallet", "1"], capsys)


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write anywhere")
def test_a_database_in_a_read_only_folder(
    tmp_path: Path, env: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    locked = tmp_path / "locked"
    locked.mkdir()
    locked.chmod(0o555)
    env.setenv("GAMEHALL_DB", str(locked / "hall.db"))
    assert "cannot use the database" in refused(["play", "doudizhu"], capsys)
    env.setenv("GAMEHALL_DB", str(locked / "sub" / "hall.db"))
    assert "cannot create its folder" in refused(["wallet", "1"], capsys)
    frozen = tmp_path / "frozen.db"
    sqlite3.connect(frozen).execute("CREATE TABLE t (x)").connection.close()
    frozen.chmod(0o444)
    env.setenv("GAMEHALL_DB", str(frozen))
    assert "readonly database" in refused(["wallet", "1"], capsys)


def test_bad_files_give_one_line_and_no_traceback_from_the_real_command(tmp_path: Path) -> None:
    folder = tmp_path / "conf.d"
    folder.mkdir()
    result = gamehall("run", env=environment(tmp_path, GAMEHALL_CONFIG=str(folder),
                                             DISCORD_TOKEN="x"))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"gamehall: invalid settings: GAMEHALL_CONFIG: {folder} is a directory, not a config file"
    )
    junk = tmp_path / "junk.db"
    junk.write_bytes(bytes(range(256)) * 8)
    result = gamehall("play", "doudizhu", env=environment(tmp_path, GAMEHALL_DB=str(junk)))
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"gamehall: cannot use the database {junk} (GAMEHALL_DB): file is not a database"
    )


async def _hands_in_two_servers(path: Path, uid: int, servers: tuple[int, int]) -> None:
    """``uid`` plays a hand against two bots in each server (taking the hints), and
    escapes from a second hand in the second server: wallets, level scores and a leaver
    record in two per-server economies, all written by the real host."""
    from bot.host.model import PLAYING
    from bot.host.tables import TableManager
    from bot.settings import load_settings
    from bot.terminal import TerminalNotifier
    from engines import registry
    from storage.db import open_database
    from storage.wallet import Wallet

    settings = load_settings(environ={"GAMEHALL_DB": str(path)},
                             known_games=registry.specs().keys())
    db = await open_database(settings.database)
    notifier = TerminalNotifier(uid=uid, locale="en-US", out=lambda _line: None)
    manager = TableManager(settings, db, Wallet.from_settings(db, settings), notifier,
                           clock=lambda: 1_700_000_000.0, seed_source=lambda: 5)
    notifier.manager = manager
    try:
        for channel, server in enumerate(servers, 900):
            await manager.create(server, channel, "doudizhu", "novice", uid, "ann")
            await manager.add_bot(channel, uid)
            await manager.add_bot(channel, uid)
            table = await manager.start(channel, uid)
            while table.status == PLAYING:  # the bots act on their own
                await manager.act(channel, uid, manager.hint(channel, uid))
            if server == servers[0]:
                await manager.member_left(server, uid)  # and moves to the other server
        await manager.start(channel, uid)
        await manager.leave(channel, uid)  # 逃跑: a strike in the second server
    finally:
        await manager.shutdown()
        await db.close()


def test_wallet_of_a_discord_player_takes_a_server(tmp_path: Path) -> None:
    # issue 23: under the default per-server economies, `gamehall wallet USER` looked only in
    # the global economy and found no player who had only ever played in Discord servers
    import asyncio

    env = environment(tmp_path)
    uid, home, away = 4242, 1111, 2222
    asyncio.run(_hands_in_two_servers(tmp_path / "hall.db", uid, (home, away)))
    listed = gamehall("wallet", str(uid), env=env)
    assert listed.returncode == 0, listed.stderr
    assert f"player {uid} has wallets in 2 servers" in listed.stdout
    assert f"--server {home}" in listed.stdout and f"--server {away}" in listed.stdout
    shown = gamehall("wallet", str(uid), "--server", str(away), env=env)
    assert shown.returncode == 0, shown.stderr
    out = shown.stdout
    assert f"player {uid} in server {away}: balance" in out and "held 0" in out
    # what /beans shows: the leaver record, each game's level score and title
    assert "leaver record: 1 strike(s) (escapes 1, hands left to the trustee 0, " \
           "full tables abandoned 0)" in out
    assert "doudizhu" in out and "score" in out
    assert "grant:start" in out and "hand " in out
    home_out = gamehall("wallet", str(uid), "--server", str(home), env=env).stdout
    assert f"player {uid} in server {home}: balance" in home_out
    assert "leaver record" not in home_out, "each server's economy keeps its own record"
    missing = gamehall("wallet", str(uid), "--server", "3333", env=env)
    assert missing.returncode == 1 and f"no player {uid} in server 3333" in missing.stderr
    bad = gamehall("wallet", str(uid), "--server", "-4", env=env)
    assert bad.returncode == 2 and "--server" in bad.stderr
