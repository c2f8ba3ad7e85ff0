"""From Start to the first card play in 欢乐斗地主, with three people who never click an optional
button (明牌 and its "keep closed"), before and after 明牌 became an offer.

The real bot plays in SimCord with the shipped configuration (timers included). Each person
answers every decision the rules require at once, with the table message's buttons (叫地主,
抢地主, 加倍 as the trustee would answer them), and the landlord leads its first play with
/play. Whenever the only seats the table waits on are being asked an optional question, the
people do nothing and simulated time runs on, a second at a time, until the table moves.
Measured per hand, from the Start click to the first card play: simulated seconds, the REST
calls the bot made, and how many seats the hall handed to the trustee meanwhile (two missed
windows make a seat 托管; the trustee then plays for it, the first play included).

"Before" is another checkout of the hall (a git ref, default ``BEFORE``: the hall as it was
just before 明牌 became an offer, with its three asking steps; exported with
``git archive`` into a temporary folder) measured in a subprocess with the same seeds, so the
same deals are played; "after" is this checkout. Where this checkout offers a start choice
(明牌开始 ×5, ``Game.start_offers``), it is measured once more with the starter dealing through
that button instead of Start: choosing ×5 before the deal must not make anyone wait either.

    python benchmarks/start_to_play.py [--hands N] [--before REF]
"""

from __future__ import annotations

import argparse
import asyncio
import io
import itertools
import json
import subprocess
import sys
import tarfile
import tempfile
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BEFORE = "eccc652"
"""The last commit where 欢乐斗地主 asked 明牌 ×5, ×4 and ×3 as steps before the calling."""
OPTIONAL = ("show", "noshow")
"""The optional answers of the old 明牌 steps (the hint there is always "noshow")."""


async def one_hand(env: Any, n: int, bot: Any, open_start: bool = False
                   ) -> tuple[float, int, int, int]:
    """A fresh table of three people: (simulated seconds, REST calls, windows waited out,
    people the trustee played for, having missed two windows). With ``open_start`` the
    starter deals with the table's first start choice (明牌开始 ×5) instead of Start."""
    from simhelpers import acting_seats, button_labels, table_message

    from bot.i18n import render

    guild = env.create_guild()
    channel = guild.create_text_channel(f"hall-{n}")
    members = [guild.add_member(env.create_user(f"{name}{n}")) for name in ("ann", "bob", "cat")]
    await members[0].slash(channel, "table create", game="doudizhu_happy", room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    table = bot.manager.tables[channel.id]
    start = "Start"
    if open_start:
        start = render(table.start_offers[0].label, table.locale)
    start_calls, start_time = len(env.http_requests), env.now()
    await members[0].click(table_message(channel), label=start)
    waited = trustee = 0
    for _ in range(10_000):
        game = table.game
        if game is None or game.phase() == "play" and table.seats[game.to_act()[0]].trustee:
            break  # the trustee made the first play (people who missed two windows)
        if game.phase() == "play":
            # the clock stops as the landlord leads: what follows its play (the others'
            # 要不起 auto-passes) is no longer the way to the first play
            seconds = (env.now() - start_time).total_seconds()
            calls = len(env.http_requests) - start_calls
            seat = game.to_act()[0]
            result = await members[seat].slash(channel, "play", action=game.hint(seat))
            assert "❌" not in (result.response.content or ""), result.response.content
            return seconds, calls + 1, waited, trustee  # + the answer to the play
        message = table_message(channel)
        acted = False
        for seat in acting_seats(message):
            hint = game.hint(seat)
            if hint in OPTIONAL:
                continue  # an optional question: these people never answer it
            label = next((render(c.label, table.locale) for c in game.choices(seat)
                          if c.action == hint), None)
            if label in button_labels(message):
                await members[seat].click(message, label=label)
            else:
                await members[seat].slash(channel, "play", action=hint)
            acted = True
            break
        if not acted:
            window = game.window()
            while table.game is game and game.window() == window:
                await env.advance_time(1)
            waited += 1
            # from the table's notes: a hand the trustee finished has stood its people up
            trustee = max(trustee, *(sum(1 for note in table.notes if note.get("k") == key)
                                     for key in ("note.auto_trustee", "note.stood_up")))
    seconds = (env.now() - start_time).total_seconds()
    return seconds, len(env.http_requests) - start_calls, waited, trustee


async def measure(hands: int, patient: bool, open_start: bool = False
                  ) -> list[tuple[float, int, int, int]]:
    """``hands`` hands, each at a new table, in this process's checkout of the bot; with
    ``patient``, missed windows never hand a seat to the trustee; with ``open_start``, the
    starter chooses 明牌开始 ×5 at Start."""
    import simcord

    from bot.client import create_bot
    from bot.settings import load_settings
    from engines import registry
    from engines.base import T

    with tempfile.TemporaryDirectory() as tmp:
        settings = replace(load_settings(environ={"GAMEHALL_DB": f"{tmp}/hall.db"},
                                         known_games=registry.specs().keys()),
                           locale_default="en-US")  # buttons are found by their English labels
        if patient:
            settings = replace(settings, trustee_after_misses=1_000_000)
        seeds = itertools.count(101)
        bot = create_bot(settings, seed_source=lambda: next(seeds))
        async with simcord.run(bot) as env:
            rows = []
            for n in range(hands):
                rows.append(await one_hand(env, n, bot, open_start))
                # closed, so that its timers do not count in the next table's figures
                for table_id in list(bot.manager.tables):
                    await bot.manager.close(table_id, T("note.closed_empty"))
            return rows


def run_in(checkout: Path, hands: int, patient: bool, open_start: bool = False
           ) -> list[tuple[float, int, int, int]]:
    """Measure in a subprocess that imports the bot from ``checkout``."""
    out = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--one", str(checkout),
         "--hands", str(hands), *(["--patient"] if patient else []),
         *(["--open-start"] if open_start else [])],
        check=True, capture_output=True, text=True, cwd=checkout,
    ).stdout
    return [tuple(row) for row in json.loads(out.strip().splitlines()[-1])]


def export(ref: str, into: Path) -> Path:
    """The hall as of git ``ref``, written into ``into`` (no worktree is created)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", ref], check=True,
                             capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def report(name: str, rows: list[tuple[float, int, int, int]]) -> float:
    for n, (seconds, calls, waited, trustee) in enumerate(rows, 1):
        print(f"  {name} hand {n}: {seconds:5.0f} s, {calls:3} REST calls, "
              f"{waited} optional windows waited out, the trustee played for {trustee}")
    mean = sum(r[0] for r in rows) / len(rows)
    calls = sum(r[1] for r in rows) / len(rows)
    print(f"  {name}: {mean:.1f} s and {calls:.1f} REST calls from Start to the first play")
    return mean


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    parser.add_argument("--before", default=BEFORE, help="git ref of the code to compare with")
    parser.add_argument("--one", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--patient", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--open-start", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one is not None:  # the subprocess: this checkout's bot and test helpers only
        sys.path[:0] = [str(args.one), str(args.one / "tests" / "bot")]
        print(json.dumps(asyncio.run(measure(args.hands, args.patient, args.open_start))))
        return
    figures = {}
    with tempfile.TemporaryDirectory() as tmp:
        checkouts = {"before": export(args.before, Path(tmp)), "after": ROOT}
        for patient, config in ((False, "the shipped configuration"),
                                (True, "seats never handed to the trustee for missed windows")):
            print(f"{config}:")
            for name, checkout in checkouts.items():
                label = f"{name} ({args.before})" if name == "before" else f"{name} (this checkout)"
                figures[name, patient] = report(label, run_in(checkout, args.hands, patient))
    print("the starter deals with 明牌开始 ×5 (the shipped configuration):")
    rows = run_in(ROOT, args.hands, False, open_start=True)
    report("after, 明牌开始 ×5", rows)
    if any(waited for _, _, waited, _ in rows):
        raise SystemExit("a hand dealt with 明牌开始 ×5 waited out an optional window")
    # the patient figures: with the shipped two-miss rule the trustee, not a person, makes the
    # first play before, so only these compare the way to a person's first play
    print(f"start_to_play: {figures['after', True]:.1f} s "
          f"(before {figures['before', True]:.1f} s)")


if __name__ == "__main__":
    main()
