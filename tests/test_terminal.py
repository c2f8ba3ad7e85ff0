"""The terminal table as a newcomer meets it: `gamehall play` with typed (piped) input.

Each test runs the real command in a subprocess on a fresh database, as the Quick start does,
and reads what the screen shows.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CJK = re.compile(r"[\u3400-\u9fff\uff00-\uffef\u3000-\u303f]")
DDZ_CARDS = re.compile(r"^[2-9TJQKABR]+$")
"""斗地主's card notation: what an ASCII word on a Chinese screen may be, besides commands."""


def environment(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "GAMEHALL_CONFIG")}
    env["GAMEHALL_DB"] = str(tmp_path / "hall.db")
    env["PYTHONUNBUFFERED"] = "1"  # the screen as it is printed, also to a pipe
    return env


def gamehall(tmp_path: Path, *args: str, stdin: str = "") -> str:
    result = subprocess.run(
        [sys.executable, "-m", "bot", *args], input=stdin, capture_output=True, text=True,
        env=environment(tmp_path), cwd=ROOT, timeout=180, check=False,
    )
    assert result.returncode == 0, result.stderr
    assert "Traceback" not in result.stderr, result.stderr
    return result.stdout


def play(tmp_path: Path, game: str, stdin: str, *extra: str) -> str:
    return gamehall(tmp_path, "play", game, "--seed", "3", *extra, stdin=stdin)


def settlement(out: str) -> str:
    match = re.search(r"第 \d+ 局结算|Hand #?\d+ settled", out)
    assert match, out
    return out[match.start():]


def test_play_and_hint_are_accepted_as_in_discord(tmp_path: Path) -> None:
    """`/play X` and `/hint`, as Discord's commands are written, are the same as `X` and
    `hint`: the bid is taken and the hint answered, nothing refused."""
    out = play(tmp_path, "doudizhu", "/play bid 3\n/hint\nhint\ntrustee\nn\n", "--no-timer")
    assert "❌" not in out
    assert "· 你：叫3分" in out  # the bid typed as /play bid 3 was made
    assert out.count("提示：") == 2
    assert re.search(r"\d\. 你: 地主", out)  # and it made us the landlord


def test_play_with_nothing_after_it_says_what_is_missing(tmp_path: Path) -> None:
    out = play(tmp_path, "doudizhu", "/play\ntrustee\nn\n", "--no-timer")
    assert "❌ 出什么？在 /play 后面写上要出的牌或操作。" in out


def test_help_lists_the_terminal_commands_and_no_discord_controls(tmp_path: Path) -> None:
    out = play(tmp_path, "doudizhu", "bid 3\nhelp\ntrustee\nn\n", "--no-timer")
    assert "❌" not in out  # help is a command, not a refused action
    helped = out.split("> 指令：", 1)[1].split("\n> ", 1)[0]
    for command in ("`hint`", "`trustee`", "`help`", "`quit`", "托管", "逃跑"):
        assert command in helped, command
    for discord_only in ("菜单", "/replay", "/verify", "按钮", "/play 33344"):
        assert discord_only not in out, discord_only
    assert "`gamehall verify " in settlement(out)  # the terminal's way to check the shuffle


def test_each_turn_lists_what_the_seat_may_type(tmp_path: Path) -> None:
    """A phase's choices as typed (斗地主's bids), and the tiles a seat may discard (四川,
    whose dealer discards first: 缺一门 needs no 定缺 step)."""
    bids = play(tmp_path, "doudizhu", "trustee\nn\n", "--no-timer")
    assert "可以输入：`bid 1` (1 分), `bid 2` (2 分), `bid 3` (3 分), `nobid` (不叫)" in bids
    out = play(tmp_path, "sichuan", "trustee\nn\n", "--no-timer")
    hand = re.findall(r"你的手牌：(.+)", out)[-1]  # the hand at the discard turn
    held = {f"{digit}{suit}" for run, suit in re.findall(r"(\d+)([mps])", hand) for digit in run}
    listed = re.search(r"可出（输入其一）：(.+)", out)
    assert listed, out
    tiles = listed[1].split()
    assert set(tiles) == held and len(tiles) == len(held)  # each tile held, once

def test_quit_mid_hand_asks_first_naming_the_escape_penalty(tmp_path: Path) -> None:
    """四川 (000): 16 倍 to each of the three others, 288 points at 底分 6; `n` plays on, `y`
    escapes and the settlement charges exactly what the question named."""
    out = play(tmp_path, "sichuan", "quit\nn\nquit\ny\n", "--no-timer")
    questions = re.findall(r"逃跑罚分至少 (\d+) 分.*真的要离开吗？\[y/N\]", out)
    assert len(questions) == 2
    penalty = int(questions[0])
    assert penalty > 0
    first = out.index("真的要离开吗")
    assert "好的，继续本局。" in out[first:]
    assert out.index("好的，继续本局。") < out.index("真的要离开吗", first + 1)
    result = settlement(out)
    assert "1号位（你）逃跑" in result
    assert re.search(rf"1号位（你）：-{penalty} 分", result)


def test_quit_declined_then_trustee_is_no_escape(tmp_path: Path) -> None:
    out = play(tmp_path, "doudizhu", "bid 3\nquit\nn\ntrustee\nn\n", "--no-timer")
    assert re.search(r"逃跑罚分至少 \d+ 分", out)
    assert "逃跑" not in settlement(out)


def test_input_ending_mid_hand_is_no_escape(tmp_path: Path) -> None:
    out = play(tmp_path, "sichuan", "hint\n", "--no-timer")
    assert "输入已结束：由托管替你打完本局（不算逃跑）。" in out
    assert "逃跑" not in settlement(out).replace("不算逃跑", "")


def test_no_countdown_without_a_timer(tmp_path: Path) -> None:
    quiet = play(tmp_path, "doudizhu", "bid 3\ntrustee\nn\n", "--no-timer")
    for countdown in ("超时", "还剩", "in 1", "秒"):
        assert countdown not in quiet, countdown
    timed = play(tmp_path, "doudizhu", "bid 3\ntrustee\nn\n")
    assert re.search(r"还剩 \d+ 秒", timed)  # with a timer, the seconds left, in Chinese


def test_hands_are_numbered_per_table(tmp_path: Path) -> None:
    """The database keeps every hand ever played; a new terminal table still starts at 第 1 局,
    and its second hand is 第 2 局."""
    first = play(tmp_path, "doudizhu", "trustee\nn\n", "--no-timer")
    again = play(tmp_path, "doudizhu", "trustee\ny\ntrustee\nn\n", "--no-timer")
    assert "第 1 局结算" in first and "第 1 局" in first.split("== ", 2)[1]
    assert "第 1 局结算" in again and "第 2 局结算" in again
    assert "第 3 局" not in again


def test_en_us_screen_is_english(tmp_path: Path) -> None:
    out = play(tmp_path, "doudizhu", "bid 3\nhelp\nhint\nquit\nn\ntrustee\nn\n", "--no-timer",
               "--lang", "en-US")
    assert "Commands:" in out and "Hint: " in out and "Leave anyway? [y/N]" in out
    assert "Another hand? [Y/n]" in out
    assert not CJK.findall(out), sorted(set(CJK.findall(out)))


def test_zh_cn_screen_has_no_english_words(tmp_path: Path) -> None:
    """Only commands (in backticks) and cards are ASCII on a Chinese screen: no "you", no
    "hint:", no "Another hand? [Y/n]"."""
    out = play(tmp_path, "doudizhu", "bid 3\nhelp\nhint\nquit\nn\ntrustee\nn\n", "--no-timer")
    prose = re.sub(r"`[^`]*`", "", out).replace("/play", "").replace("[Y/n]", "")
    prose = prose.replace("[y/N]", "")
    words = {w for w in re.findall(r"[A-Za-z]{2,}", prose) if not DDZ_CARDS.match(w)}
    assert not words, sorted(words)
    assert "提示：" in out and "再来一局？" in out


def test_zh_tw_screen(tmp_path: Path) -> None:
    out = play(tmp_path, "doudizhu", "bid 3\nhint\ntrustee\nn\n", "--no-timer", "--lang", "zh-TW")
    assert "鬥地主" in out and "指令：" in out and "再來一局？" in out and "託管" in out


def test_every_play_between_your_turns_is_printed(tmp_path: Path) -> None:
    """After our lead, each bot's answer is printed before the table comes back to us, as the
    table then shows it."""
    out = play(tmp_path, "doudizhu", "bid 3\n/hint\ntrustee\nn\n", "--no-timer")
    lead = re.search(r"提示：(\S+)", out)
    assert lead
    out = play(tmp_path, "doudizhu", f"bid 3\n{lead[1]}\ntrustee\nn\n", "--no-timer")
    after = out.split(f"· 你：出 {lead[1]}", 1)[1]
    plays, table = after.split("\n== ", 1)
    shown = re.findall(r"· (电脑 \d)：(.+)", plays)
    assert [name for name, _ in shown][:2] == ["电脑 1", "电脑 2"]
    for name, action in shown[-2:]:  # the last play of each is what the table shows now
        seat = next(line for line in table.split("\n") if f". {name} " in line)
        assert seat.endswith(action) or f"· {action}" in seat, (seat, action)


def test_a_killed_terminals_table_does_not_reappear(tmp_path: Path) -> None:
    """SIGKILL mid-hand in a bean room: the next `gamehall play` starts a new table, the
    killed hand is not resumed or settled, and its beans come back (nothing lost or made)."""
    env = environment(tmp_path)
    killed = subprocess.Popen(
        [sys.executable, "-m", "bot", "play", "sichuan", "--room", "novice", "--seed", "3",
         "--no-timer"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env=env, cwd=ROOT,
    )
    seen = ""
    deadline = time.monotonic() + 120
    assert killed.stdout is not None
    while "轮到你了" not in seen and time.monotonic() < deadline:
        seen += killed.stdout.readline()
    assert "轮到你了" in seen
    killed.send_signal(signal.SIGKILL)
    killed.wait(timeout=30)
    killed.stdout.close()
    assert killed.stdin is not None and killed.stderr is not None
    killed.stdin.close()
    killed.stderr.close()
    dealt = re.search(r"你的手牌：(\S+)", seen)
    assert dealt
    held = gamehall(tmp_path, "wallet", "1")
    assert re.search(r"held [1-9]", held)  # the killed hand still holds our beans

    out = gamehall(tmp_path, "play", "sichuan", "--room", "novice", "--seed", "7",
                   "--no-timer", stdin="quit\ny\n")
    first_table = out.split("\n== ", 1)
    assert "牌桌已关闭" not in first_table[0]
    assert dealt[1] not in out  # the killed hand is never shown again
    assert out.count("局结算") == 1 and "第 1 局结算" in out
    balance = re.search(r"号位（你）：-?\d+ 分，欢乐豆 -?\d+，余额 (\d+)", out)
    assert balance
    wallet = gamehall(tmp_path, "wallet", "1")
    assert f"balance {balance[1]}, held 0" in wallet  # the killed hand's escrow came back
    ledger = [line for line in wallet.split("\n") if line.strip().startswith("#")]
    assert "grant:start" in ledger[-1]  # newest first: then only the new hand moved beans
    assert all("hand 2" in line for line in ledger[:-1]) and len(ledger) >= 2


def test_a_board_games_moves_are_printed_between_turns(tmp_path: Path) -> None:
    """五子棋: the bot's stone is told between your turns, as every other game's plays are
    (the seat that placed the last stone shows 落子 and the point)."""
    out = play(tmp_path, "gomoku", "H8\nquit\ny\n", "--no-timer")
    assert re.search(r"· 电脑 1：落子 [A-O]\d{1,2}\n", out), out


def test_level_hard_seats_hard_bots_that_play_the_hand_out(tmp_path: Path) -> None:
    """`gamehall play doudizhu --level hard`: the bots' seats say 困难 and the hand, the
    trustee finishing ours, is settled; without the flag they say 普通."""
    out = play(tmp_path, "doudizhu", "bid 3\ntrustee\nn\n", "--no-timer", "--level", "hard")
    assert re.search(r"电脑 1 \(机器人, 困难\)", out), out[:600]
    assert "普通" not in out.split("结算")[0]
    settlement(out)
    normal = play(tmp_path, "doudizhu", "bid 3\ntrustee\nn\n", "--no-timer")
    assert re.search(r"电脑 1 \(机器人, 普通\)", normal), normal[:600]


def test_an_unknown_level_is_refused_naming_the_levels(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "play", "doudizhu", "--level", "expert"],
        capture_output=True, text=True, env=environment(tmp_path), cwd=ROOT, timeout=60,
        check=False,
    )
    assert result.returncode != 0
    assert "easy" in result.stderr and "hard" in result.stderr and "expert" in result.stderr


def test_level_with_web_is_refused_rather_than_ignored(tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "bot", "play", "doudizhu", "--web", "--level", "hard"],
        capture_output=True, text=True, env=environment(tmp_path), cwd=ROOT, timeout=60,
        check=False,
    )
    assert result.returncode == 2
    assert "--level is for the terminal table" in result.stderr
