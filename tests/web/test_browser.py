"""The web table in a real browser: Debian's Chromium driven by Playwright, against the real
bot in SimCord. A whole 斗地主 hand and a whole 升级 hand are played by clicking while the
Discord table message follows; a 麻将 碰 is claimed in the page; a refused link gets its plain
page; a spectator page shows no hidden card.

Needs /usr/bin/chromium (``apt-get install chromium``; .ci/run installs it) and the
``playwright`` package; never ``playwright install``. Set GAMEHALL_SCREENSHOTS=docs/img to
write the README's screenshots (desktop and phone widths) while the tests run.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from simhelpers import acting_seats, public_text, table_message

from bot.client import GameHall
from engines.base import Game

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
LINK = re.compile(r"\((http://127\.0\.0\.1:\d+/seat/[\w.-]+)\)")
SHOTS = os.environ.get("GAMEHALL_SCREENSHOTS")

playwright_api = pytest.importorskip("playwright.async_api")
if not CHROMIUM.exists():  # pragma: no cover - .ci/run installs it
    pytest.skip("Chromium is not installed (apt-get install chromium)", allow_module_level=True)


@pytest.fixture
async def browser() -> AsyncIterator[Any]:
    async with playwright_api.async_playwright() as driver:
        chromium = await driver.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        await chromium.close()


@pytest.fixture(autouse=True)
def english_seeds(simcord_bot: GameHall) -> None:
    """Each test's deals are the same every run (the bot's seeds count from 7)."""


async def seated(env: Any, game: str, room: str = "free") -> tuple[Any, Any]:
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    ann = guild.add_member(env.create_user("ann"))
    await ann.slash(channel, "table create", game=game, room=room)
    spec_seats = {"doudizhu": 3, "shengji": 4, "xuezhan": 4}[game]
    for _ in range(spec_seats - 1):
        await ann.click(table_message(channel), label="Add bot")
    await ann.click(table_message(channel), label="Start")
    return channel, ann


def link_of(member: Any) -> str:
    found = LINK.search(member.user.dm_channel.last_message.content)
    assert found, member.user.dm_channel.last_message.content
    return found[1]


def picks_for(game: Game, seat: int, action: str) -> list[int]:
    """The picker's cells that make ``action``: each piece of it (cut by the picker's
    separator, or one card each) matched to an unused token by its notation or its label."""
    picker = game.picker(seat)
    assert picker is not None
    head, _, tail = picker.template.partition("{}")
    body = action.removeprefix(head).removesuffix(tail)
    if body in picker.tokens:  # one token is the action (a discard)
        return [picker.tokens.index(body)]
    pieces = body.split(picker.sep) if picker.sep else list(body)
    used: list[int] = []
    for piece in pieces:
        for i, (token, label) in enumerate(zip(picker.tokens, picker.labels, strict=True)):
            names = {token.split("#")[0], label.split()[0], label.replace("10", "T")}
            if i not in used and piece in names:
                used.append(i)
                break
        else:
            raise AssertionError(f"no cell for {piece!r} of {action!r}: {picker.tokens}")
    return used


async def eventually(check: Any, seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.05)):
        if check():
            return
        await asyncio.sleep(0.05)
    assert check()


async def frames(page: Any) -> int:
    return int(await page.get_attribute("body", "data-frames") or 0)


async def click_turn(page: Any, bot: GameHall, channel: Any, uid: int,
                     claim: str | None = None) -> str:
    """Play the seat's turn in the page as the trustee would (or take ``claim``): a button,
    or its cards clicked in the hand and then Play. Returns the action."""
    table = bot.manager.tables[channel.id]
    game = table.game
    seat = table.seat_of(uid)
    action = claim or game.trustee(seat)
    before = await frames(page)
    button = page.locator(f'#actions button[data-action="{action}"]')
    if await button.count():
        await button.click()
    else:
        picker = game.picker(seat)
        for i in picks_for(game, seat, action):
            await page.click(f'[data-pick="{i}"]')
        if picker.max_values != 1:
            await page.click("#play")
    for _ in range(400):  # (the page's CSP forbids eval: no wait_for_function)
        if await frames(page) > before:
            return action
        await asyncio.sleep(0.025)
    raise AssertionError(f"no frame came after {action!r}")


async def play_by_clicking(page: Any, bot: GameHall, channel: Any, uid: int) -> int:
    """Click every turn of the seat until the hand is settled; after each click the Discord
    table message marks the seats the game says act next. Returns the clicks."""
    table = bot.manager.tables[channel.id]
    clicks = 0
    while table.game is not None:
        game = table.game
        seat = table.seat_of(uid)
        if seat not in game.to_act():
            await asyncio.sleep(0.02)
            continue
        await page.wait_for_selector("body[data-state=turn]")
        await click_turn(page, bot, channel, uid)
        assert "❌" not in await page.inner_text("#message")
        clicks += 1
        if table.game is game and not game.is_over():
            await eventually(lambda g=game: acting_seats(table_message(channel))
                             == list(g.public_to_act()))
    await page.wait_for_selector("#result p")
    await eventually(lambda: "settled" in public_text(table_message(channel)))
    return clicks


async def shoot(page: Any, name: str) -> None:
    """The README's screenshots, at a desktop and a phone width (only with
    GAMEHALL_SCREENSHOTS set)."""
    if not SHOTS:
        return
    for width, height, tag in ((1280, 860, "desktop"), (390, 844, "phone")):
        await page.set_viewport_size({"width": width, "height": height})
        await page.screenshot(path=str(Path(SHOTS) / f"web-{name}-{tag}.png"), full_page=True)
    await page.set_viewport_size({"width": 1280, "height": 860})


async def test_a_whole_doudizhu_hand_by_clicking(simcord_env, simcord_bot: GameHall,
                                                 browser: Any) -> None:
    channel, ann = await seated(simcord_env, "doudizhu")
    page = await browser.new_page()
    await page.goto(link_of(ann))
    await page.wait_for_selector("#hand .face")
    assert await page.locator("#hand .face").count() == 17
    await page.click("#hint")
    await page.wait_for_selector("#message.hint")
    assert "Hint:" in await page.inner_text("#message")
    await shoot(page, "doudizhu")
    clicks = await play_by_clicking(page, simcord_bot, channel, ann.id)
    assert clicks >= 3
    assert "settled" in await page.inner_text("#result")


async def test_a_whole_shengji_hand_by_clicking(simcord_env, simcord_bot: GameHall,
                                                browser: Any) -> None:
    channel, ann = await seated(simcord_env, "shengji")
    page = await browser.new_page()
    await page.goto(link_of(ann))
    await page.wait_for_selector("#hand .face")
    clicks = await play_by_clicking(page, simcord_bot, channel, ann.id)
    assert clicks >= 12  # 升级: at least a card a trick
    assert "settled" in await page.inner_text("#result")


async def test_a_mahjong_claim_in_the_page(simcord_env, simcord_bot: GameHall,
                                           browser: Any) -> None:
    """血战到底: the player discards by clicking a tile; when a bot's discard offers them 碰,
    the page shows the button and the click claims it: the meld is on the table."""
    channel, ann = await seated(simcord_env, "xuezhan")
    table = simcord_bot.manager.tables[channel.id]
    page = await browser.new_page()
    await page.goto(link_of(ann))
    await page.wait_for_selector("#hand .face")
    claimed = None
    for _ in range(200):
        game = table.game
        assert game is not None, "the hand ended with no claim offered"
        if 0 not in game.to_act():
            await asyncio.sleep(0.02)
            continue
        await page.wait_for_selector("body[data-state=turn]")
        offered = [c.action for c in game.choices(0) if c.action.startswith("peng")]
        if offered:
            await page.wait_for_selector(f'#actions button[data-action="{offered[0]}"]')
            await click_turn(page, simcord_bot, channel, ann.id, claim=offered[0])
            claimed = offered[0]
            break
        await click_turn(page, simcord_bot, channel, ann.id)
    assert claimed is not None
    assert (0, claimed) in table.game.log
    await page.wait_for_selector('.seat.you .melds .face')
    assert table.game.view(None).seats[0].melds
    await shoot(page, "mahjong")


async def test_a_refused_link_and_a_spectator_page(simcord_env, simcord_bot: GameHall,
                                                   browser: Any) -> None:
    channel, ann = await seated(simcord_env, "doudizhu")
    table = simcord_bot.manager.tables[channel.id]
    page = await browser.new_page()
    link = link_of(ann)
    response = await page.goto(link[:-4] + ("AAAA" if not link.endswith("AAAA") else "BBBB"))
    assert response.status == 403
    assert "not valid" in await page.inner_text("body")
    assert await page.locator("script").count() == 0
    watch = await browser.new_page()
    await watch.goto(simcord_bot.web.watch_url(table))
    await watch.wait_for_selector(".seat")
    hands = [table.game.view(s).hand for s in range(3)]
    text = await watch.inner_text("body")
    assert await watch.locator("#hand .face, #extra .face").count() == 0
    assert "Watching" in text
    for hand in hands:
        assert hand not in text
    await shoot(watch, "watch")
