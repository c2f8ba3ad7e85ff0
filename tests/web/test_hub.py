"""How pages are told of a change: as soon as the table changed, not after its save; one
public frame for the spectators; a frame only when what the page shows changed."""

from __future__ import annotations

import asyncio
import sqlite3

import aiohttp
from webhelpers import TABLE, connect, deal

from bot.host.tables import TableManager
from bot.settings import Settings
from bot.web.server import WebServer


async def test_pages_see_an_action_before_the_database_has_saved_it(
        server: WebServer, manager: TableManager, settings: Settings,
        http: aiohttp.ClientSession) -> None:
    """The host saves every action before it returns (TableManager.act awaits the save), but
    the pages need not wait for the disk: with another process holding the database's write
    lock, the seat page and a spectator page still see the stone at once, and the action is
    saved once the lock is free. (五子棋 has no private hand, so no DM redraw comes first.)"""
    await deal(manager, "gomoku")
    table = manager.get(TABLE)
    while 0 not in table.game.to_act():
        await asyncio.sleep(0.01)
    seat = await connect(http, server, server.hub.token(table, 0))
    watch = await connect(http, server, server.hub.watch_token(table))
    first = await seat.frame()
    await watch.frame()
    point = first["board"]["legal"][0]
    blocker = sqlite3.connect(str(settings.database), isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another writer holds the file
    try:
        await seat.send(type="act", action=point)
        shows = await watch.frame(until=lambda f: point in f["board"]["stones"], timeout=2.0)
        mine = await seat.frame(until=lambda f: point in f["board"]["stones"], timeout=2.0)
        assert shows["board"]["stones"] == mine["board"]["stones"]
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    for _ in range(200):  # the save goes through once the lock is free
        saved = sqlite3.connect(str(settings.database))
        logged = saved.execute("SELECT count(*) FROM table_actions WHERE action = ?",
                               (point,)).fetchone()[0] or saved.execute(
            "SELECT count(*) FROM tables WHERE instr(state, ?)", (point,)).fetchone()[0]
        saved.close()
        if logged:
            break
        await asyncio.sleep(0.02)
    assert logged


async def test_a_refused_action_sends_no_new_frame(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    """Bad input changes nothing, so the page gets the message and no frame: the next frame it
    gets is the next change's."""
    await deal(manager)
    table = manager.get(TABLE)
    while 0 not in table.game.to_act():
        await asyncio.sleep(0.01)
    client = await connect(http, server, server.hub.token(table, 0))
    first = await client.frame()
    await client.send(type="act", action="bid 9")
    await client.next("error")
    await asyncio.sleep(0.3)
    await client.send(type="act", action=table.game.choices(0)[-1].action)
    await client.frame(until=lambda f: f["phase"] != first["phase"])
    after = client.messages[[m["type"] for m in client.messages].index("error") + 1:]
    same = [m for m in after if m["type"] == "frame" and {**m["frame"], "now": 0} == {
        **first, "now": 0}]
    assert not same, "a frame showing nothing new was sent"


async def test_spectators_get_the_same_frame(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    """Every spectator of a table is sent the same text for a change (built once)."""
    await deal(manager)
    table = manager.get(TABLE)
    while 0 not in table.game.to_act():
        await asyncio.sleep(0.01)
    seat = await connect(http, server, server.hub.token(table, 0))
    watchers = [await connect(http, server, server.hub.watch_token(table)) for _ in range(3)]
    await seat.frame()
    for w in watchers:
        await w.frame()
    await seat.send(type="act", action=table.game.choices(0)[-1].action)
    for w in watchers:
        await w.frame()
    assert len({w.raw[-1] for w in watchers}) == 1
