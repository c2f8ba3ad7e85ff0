"""REST calls per game action for full three-player 斗地主 hands, played in SimCord.

Three people play each hand the way the README describes: bids and passes with the buttons on
the table message, plays with the card picker of their private view — the hand's DM once it
shows a picker (it is edited when the hand changes, e.g. the landlord's kitty), else /hand
(opened once per hand) — which each play keeps up to date. Every REST call the bot makes is counted from
SimCord's request log, from the Start click to the settlement, and divided by the number of
actions in the hand's log (people's and the trustee's).

A card play from the private view costs the interaction's answer plus an edit of the table
message. Table edits are coalesced per channel (bot/hall.py): changes that arrive while an edit
is in flight, or held back by Discord's per-channel rate limit, are drawn by one later edit.
SimCord answers at once and has no rate limit, so that saving does not show here; the figures
count what a table at human pace costs.

Pictures (the table's and each hand's) ride in the same requests as the text; the count of
pictures uploaded shows that an unchanged picture is kept on its message, not sent again.

    python benchmarks/discord_calls.py [--hands N]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path

import simcord

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "bot")]  # this checkout's bot, not an installed one

from simhelpers import acting_seats, button_labels, table_message  # noqa: E402

from bot.client import create_bot  # noqa: E402
from bot.settings import load_settings  # noqa: E402
from engines import registry  # noqa: E402


async def play_one(env, channel, members, bot) -> tuple[int, int, Counter[str]]:  # noqa: ANN001
    start = len(env.http_requests)
    started = await members[0].click(table_message(channel), label="Start")
    assert started.response is None or "❌" not in (started.response.content or ""), started.response.content
    table = bot.manager.tables[channel.id]
    hand_id = table.hand_id
    views = {}
    while table.game is not None:
        seat = acting_seats(table_message(channel))[0]
        game = table.game
        hint = game.hint(seat)
        picker = game.picker(seat)
        choice = next((c for c in game.choices(seat) if c.action == hint), None)
        if picker is None or choice is not None:
            label = _label_for(table_message(channel), bot, table, seat, hint)
            if label is not None:
                await members[seat].click(table_message(channel), label=label)
                continue
        if seat not in views:
            # the DM with the hand carries the same controls once it shows a picker (it is
            # edited when the hand changes, e.g. the landlord's kitty); else open /hand
            dm = members[seat].user.dm_channel.last_message
            if dm is not None and _has_select(dm):
                views[seat] = (members[seat].user, dm)  # in DMs one acts as the user
            else:
                views[seat] = (members[seat],
                               (await members[seat].slash(channel, "hand")).response.message)
        pool = list(enumerate(picker.tokens))
        values = []
        for card in hint:
            index = next(i for i, token in pool if token[0] == card)
            pool = [(i, token) for i, token in pool if i != index]
            values.append(f"{index}:{picker.tokens[index]}")
        actor, view = views[seat]
        await actor.select(view, values)
    calls = env.http_requests[start:]
    record = await _actions(bot, hand_id)
    kinds = Counter(f"{c.method} {_route(c.path)}" for c in calls)
    for call in calls:
        kinds[_target(call, channel.id)] += 1
        kinds["pictures uploaded"] += sum(
            1 for a in ((call.json or {}).get("attachments") or [])
            if isinstance(a.get("id"), int) and a["id"] < 10)  # new files: ids 0, 1 …
    return len(calls), record, kinds


def _target(call, table_channel: int) -> str:  # noqa: ANN001
    """Which message a call writes: the table message, a DM, or an interaction's answer."""
    if call.path.startswith("/interactions/"):
        return "  to: interaction answers (a click, a pick, a command)"
    if call.path.startswith(f"/channels/{table_channel}/"):
        return "  to: the table message"
    if call.path.startswith("/users/"):
        return "  to: opening DM channels"
    return "  to: DMs (the hand)"


def _has_select(message) -> bool:  # noqa: ANN001
    return any(child.type.name == "select" for row in message.components
               for child in getattr(row, "children", []))


def _label_for(message, bot, table, seat, action):  # noqa: ANN001, ANN202
    from bot.i18n import render

    for choice in table.game.choices(seat):
        if choice.action == action:
            label = render(choice.label, table.locale)
            return label if label in button_labels(message) else None
    return None


async def _actions(bot, hand_id: int) -> int:  # noqa: ANN001
    import json

    from storage import history

    hand = await history.get_hand(bot.db, hand_id)
    return len(json.loads(hand.record)["log"])


def _route(path: str) -> str:
    parts = path.split("/")
    if parts[1:2] == ["interactions"]:
        return "/interactions/{id}/{token}/callback"
    return "/".join("{id}" if part.isdigit() else part for part in parts)


async def scenario(people: int, hands: int) -> tuple[int, int]:
    """``people`` persons (the other seats bots) play ``hands`` hands; (calls, actions)."""
    with tempfile.TemporaryDirectory() as tmp:
        settings = replace(load_settings(environ={"GAMEHALL_DB": f"{tmp}/hall.db"},
                                         known_games=registry.specs().keys()),
                           locale_default="en-US")  # the buttons are found by their English labels
        seeds = itertools.count(11)
        bot = create_bot(settings, seed_source=lambda: next(seeds))
        async with simcord.run(bot) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("hall")
            members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]
            await members[0].slash(channel, "table create", game="doudizhu", room="novice")
            for member in members[1:people]:
                await member.click(table_message(channel), label="Join")
            for _ in range(3 - people):
                await members[0].click(table_message(channel), label="Add bot")
            total_calls = total_actions = 0
            routes: Counter[str] = Counter()
            for n in range(hands):
                calls, actions, by_route = await play_one(env, channel, members, bot)
                total_calls += calls
                total_actions += actions
                routes += by_route
                print(f"  hand {n + 1}: {calls} REST calls for {actions} actions "
                      f"({calls / actions:.2f} per action)")
            print("  calls by route:")
            for route, count in routes.most_common():
                if not route.startswith(("  to:", "pictures")):
                    print(f"    {count:5}  {route}")
            print("  calls by message:")
            for route, count in routes.most_common():
                if route.startswith("  to:"):
                    print(f"    {count:5}  {route[6:]}")
            print(f"  pictures uploaded: {routes['pictures uploaded']} "
                  f"({routes['pictures uploaded'] / max(1, total_actions):.2f} per action; "
                  "an unchanged picture is kept, not uploaded again)")
            return total_calls, total_actions


async def main(hands: int) -> None:
    print("1 person + 2 bots (the person plays; bots act through the trustee):")
    calls, actions = await scenario(1, hands)
    print(f"  {calls / actions:.2f} calls/action")
    print("3 people, no bots (every action is a person's click or pick):")
    calls, actions = await scenario(3, hands)
    print(f"discord_calls: {calls / actions:.2f} calls/action (three people)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=5)
    asyncio.run(main(parser.parse_args().hands))
