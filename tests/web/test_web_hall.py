"""The web table beside Discord, through SimCord: the link in the DM and /hand, and a hand
played from the page that the Discord table message and DMs follow."""

from __future__ import annotations

import asyncio
import re

import aiohttp
import discord
from simhelpers import acting_seats, dm_cards, public_text, table_message
from webhelpers import Client

from bot.client import GameHall
from bot.render.text import cards


async def eventually(check, seconds: float = 5.0) -> None:
    """Wait until ``check()`` holds (Discord's edits follow a page action asynchronously)."""
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    assert check()


def pick_for(frame: dict, action: str) -> list[int]:
    """The hand's cells a player clicks to play ``action`` (斗地主's ranks: ``33``, ``BR``)."""
    picked: list[int] = []
    wanted = list(action.replace("10", "T"))
    for cell in frame["hand"]:
        text = {"10": "T", "小王": "B", "大王": "R"}.get(cell["t"], cell["t"])
        if cell["p"] is not None and text in wanted:
            wanted.remove(text)
            picked.append(cell["p"])
    assert not wanted, (action, frame["hand"])
    return picked

LINK = re.compile(r"\[Open in browser\]\((http://127\.0\.0\.1:\d+/seat/([\w.-]+))\)")


async def seated_with_bots(env, bot: GameHall):
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(channel, "table create", game="doudizhu", room="free")
    for _ in range(2):
        await ann.click(table_message(channel), label="Add bot")
    await ann.click(table_message(channel), label="Start")
    return channel, ann


async def test_the_dm_and_hand_carry_an_open_in_browser_link(simcord_env, simcord_bot) -> None:
    channel, ann = await seated_with_bots(simcord_env, simcord_bot)
    dm = ann.user.dm_channel.last_message
    found = LINK.search(dm.content)
    assert found, dm.content
    reply = await ann.slash(channel, "hand")
    assert reply.ephemeral and LINK.search(reply.response.content)
    async with aiohttp.ClientSession() as http, http.get(found[1]) as page:
        assert page.status == 200 and "table.js" in await page.text()


async def play_from_page(bot: GameHall, channel, ann, page: Client, frame: dict,
                         turns: int | None = None) -> tuple[dict, int]:
    """Play ``turns`` of the player's actions from the page (None: to the hand's end), each
    one what the hint says (a button, or its cards in the hand), checking after each that
    the table message marks the next seat to act. Returns the last frame and the actions."""
    table = bot.manager.tables[channel.id]
    actions = 0
    while table.game is not None and (turns is None or actions < turns):
        if not frame["your_turn"]:
            frame = await page.frame()
            continue
        hint = bot.manager.hint(channel.id, ann.id)
        if any(b["action"] == hint for b in frame["buttons"]):
            await page.send(type="act", action=hint)
        else:
            await page.send(type="pick", picked=pick_for(frame, hint))
        frame = await page.frame()
        assert not [m for m in page.messages if m["type"] == "error"], page.messages
        if table.game is not None and not table.game.is_over():
            game = table.game
            await eventually(lambda g=game: acting_seats(table_message(channel)) == list(
                g.public_to_act()))
        actions += 1
    return frame, actions


async def test_a_page_action_costs_only_the_table_edit(simcord_env, simcord_bot: GameHall
                                                      ) -> None:
    """Every action from the page goes through the host and the table message follows it;
    while the seat's page is open the page is its private surface, so its DM is not redrawn:
    a page action costs Discord the (coalesced) table edit and nothing else. When the page
    closes, the DM is redrawn once to the hand as it is then; played to the end from a new
    page, the hand settles in Discord, again with no DM call."""
    env = simcord_env
    channel, ann = await seated_with_bots(env, simcord_bot)
    table = simcord_bot.manager.tables[channel.id]
    dm = ann.user.dm_channel.last_message
    dealt = dm.content
    token = LINK.search(dealt)[2]

    def dm_calls(since: int) -> list:
        return [c for c in env.http_requests[since:] if str(dm.channel.id) in c.path]

    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(f"{simcord_bot.web.base}/ws")
        page = Client(ws)
        await page.send(type="hello", token=token)
        start = len(env.http_requests)
        frame, actions = await play_from_page(simcord_bot, channel, ann, page,
                                              await page.frame(), turns=2)
        await asyncio.sleep(0.2)
        assert actions == 2 and table.game is not None and not table.game.is_over()
        calls = env.http_requests[start:]
        assert not dm_calls(start), dm_calls(start)
        assert ann.user.dm_channel.last_message.content == dealt  # not redrawn meanwhile
        assert len(calls) <= actions, [(c.method, c.path) for c in calls]
        closed = len(env.http_requests)
        await ws.close()  # the page is gone: the DM shows the hand as it is now, once
        game = table.game
        await eventually(lambda: dm_cards(ann) == cards(game.view(0).hand))
        await asyncio.sleep(0.2)
        assert len(dm_calls(closed)) == 1, dm_calls(closed)

        ws = await http.ws_connect(f"{simcord_bot.web.base}/ws")
        page = Client(ws)
        await page.send(type="hello", token=token)
        start = len(env.http_requests)
        _frame, more = await play_from_page(simcord_bot, channel, ann, page,
                                            await page.frame())
        await eventually(lambda: "settled" in public_text(table_message(channel)))
        assert more >= 1 and not dm_calls(start), dm_calls(start)
        await ws.close()  # the hand is over: the DM held back meanwhile offers no turn
        dm = ann.user.dm_channel
        await eventually(lambda: not dm.last_message.components)
        assert "Your turn" not in dm.last_message.content


async def test_table_watch_links_the_spectator_page(simcord_env, simcord_bot: GameHall) -> None:
    """/table watch answers with a link to the table's public page, which opens."""
    channel, _ann = await seated_with_bots(simcord_env, simcord_bot)
    bob = channel.guild.add_member(simcord_env.create_user("bob"))
    reply = await bob.slash(channel, "table watch")
    found = re.search(r"(http://127\.0\.0\.1:\d+/watch/[\w.-]+)", reply.response.content)
    assert found, reply.response.content
    async with aiohttp.ClientSession() as http, http.get(found[1]) as page:
        assert page.status == 200


async def test_moderators_turn_the_leaderboard_page_on_in_settings(simcord_env,
                                                                   simcord_bot: GameHall) -> None:
    """/settings leaderboard: off by default; a moderator turns it on and gets its link; a
    player who is no moderator is refused and nothing changes."""
    import discord

    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    bob = guild.add_member(env.create_user("bob"))
    url = f"{simcord_bot.web.base}/board/{guild.id}"
    assert await status(url) == 404
    refused = await bob.slash(channel, "settings leaderboard", state="on")
    assert refused.ephemeral and refused.response.content.startswith("❌")
    assert await status(url) == 404
    done = await boss.slash(channel, "settings leaderboard", state="on")
    assert url in done.response.content
    assert await status(url) == 200
    await boss.slash(channel, "settings leaderboard", state="off")
    assert await status(url) == 404


async def status(url: str) -> int:
    """A page's HTTP status, its connection closed after (SimCord waits for open ones)."""
    connector = aiohttp.TCPConnector(force_close=True)
    async with aiohttp.ClientSession(connector=connector) as http, http.get(url) as page:
        return page.status


async def test_tournament_info_links_the_event_page(simcord_env, simcord_bot) -> None:
    guild = simcord_env.create_guild()
    channel = guild.create_text_channel("events")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(simcord_env.create_user("boss"), roles=[mods])
    ann = guild.add_member(simcord_env.create_user("ann"))
    await boss.slash(channel, "tournament create", game="doudizhu", format="sitngo", size=3,
                     rounds=1)
    await ann.slash(channel, "tournament join", event=1)
    info = await ann.slash(channel, "tournament info", event=1)
    found = re.search(r"(http://127\.0\.0\.1:\d+/event/\d+/1/[\w-]+)", info.response.content)
    assert found, info.response.content
    async with aiohttp.ClientSession() as http, http.get(found[1]) as page:
        text = await page.text()
        assert page.status == 200 and "Event 1" in text and "1/3" in text  # registered
