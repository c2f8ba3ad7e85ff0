"""`gamehall play KEY --web`: the terminal table's twin, played in a page on this machine."""

from __future__ import annotations

import asyncio
import os
import re
import sys
from pathlib import Path

import aiohttp
from webhelpers import Client

ROOT = Path(__file__).resolve().parents[2]
URL = re.compile(r"(http://127\.0\.0\.1:(\d+))/seat/([\w.-]+)")


async def test_play_web_serves_a_seat_page_that_plays_hands_until_quit(tmp_path: Path) -> None:
    """The command prints the seat's link (no browser here), the page plays the hand to its
    settlement, deals the next one and follows into it with a new link; `quit` ends it."""
    env = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "GAMEHALL_CONFIG")}
    env |= {"GAMEHALL_DB": str(tmp_path / "hall.db"), "PYTHONUNBUFFERED": "1",
            "PYTHONPATH": str(ROOT)}
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", "play", "doudizhu", "--web", "--no-browser", "--port", "0",
        "--seed", "3", "--lang", "en-US", "--no-timer", cwd=ROOT, env=env,
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE)
    try:
        line = (await asyncio.wait_for(proc.stdout.readline(), 60)).decode()
        found = URL.search(line)
        assert found, line
        async with aiohttp.ClientSession() as http:
            async with http.get(found[0]) as page:
                assert page.status == 200
            page = Client(await http.ws_connect(f"{found[1]}/ws"))
            await page.send(type="hello", token=found[3])
            frame = await page.frame()
            for _ in range(200):
                if frame["result"]:
                    break
                if frame["your_turn"]:  # play what the page's Hint says, at a person's pace
                    await asyncio.sleep(0.45)  # (the page may send 5 actions a second)
                    await page.send(type="hint")
                    hint = (await page.next("hint"))["text"].split(": ", 1)[1]
                    await page.send(type="act", action=hint)
                frame = await page.frame(timeout=20)
            assert any("settled" in line for line in frame["result"]), frame["result"]
            assert frame["can_start"]
            await page.send(type="start")
            token = await page.next("token")
            assert token["token"] != found[3]
            frame = await page.frame(lambda f: not f["result"])
            assert frame["hand_no"] and len(frame["hand"]) >= 17
        proc.stdin.write(b"quit\n")
        await proc.stdin.drain()
        assert await asyncio.wait_for(proc.wait(), 30) == 0
        assert b"Traceback" not in await proc.stderr.read()
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
