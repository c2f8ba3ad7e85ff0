"""比赛 in the web table: an event's page shows its standings and links each ended hand to
its replay page, reloads when a hand ends, and shows nothing a seat hides."""

from __future__ import annotations

import asyncio
import re

import aiohttp

from bot.host.tables import TableManager
from bot.tournament.runner import TournamentRunner
from bot.web.server import WebServer
from storage import history
from storage.tournaments import EventSpec, Format, Status

GUILD, CHANNEL, MOD = 5, 50, 99


async def event_of_three(manager: TableManager, server: WebServer, auto) -> tuple[
        TournamentRunner, int]:
    """A sit-and-go of three 斗地主 players, two rounds, its runner serving the event pages."""
    runner = TournamentRunner(manager, auto=auto)
    server.events = runner
    spec = EventSpec("doudizhu", "free", Format.SIT_AND_GO, 3, 2)
    eid = await runner.create(GUILD, CHANNEL, spec, MOD)
    for uid in (1, 2, 3):
        await runner.join(GUILD, eid, uid, f"Player{uid}")
    return runner, eid


async def test_the_event_page_shows_standings_and_links_every_hand_to_its_replay(
        manager: TableManager, server: WebServer, http: aiohttp.ClientSession) -> None:
    runner, eid = await event_of_three(manager, server, auto=lambda uid: True)
    await runner.idle()
    event = await runner.store(GUILD).get(eid)
    assert event.status is Status.FINISHED
    url = server.event_url(GUILD, eid)
    async with http.get(url) as response:
        assert response.status == 200
        assert "script-src 'self'" in response.headers["Content-Security-Policy"]
        page = await response.text()
    chips = event.state["chips"]
    rows = re.findall(r'<tr><td>(\d+)</td><td class="who">(\w+)</td>'
                      r'<td class="chips">(-?\d+)</td></tr>', page)
    assert sorted(name for _, name, _ in rows) == ["Player1", "Player2", "Player3"]
    assert {name: int(c) for _, name, c in rows} == {
        f"Player{u}": c for u, c in ((int(k), v) for k, v in chips.items())}
    assert [int(c) for _, _, c in rows] == sorted((int(c) for _, _, c in rows), reverse=True)
    codes = [h["code"] for h in event.state["hands"]]
    assert len(codes) == 2 and all(codes)
    assert re.findall(r'href="/replay/([^"]+)"', page) == codes
    for code in codes:  # each link opens the hand's replay page
        async with http.get(f"{server.base}/replay/{code}") as replay:
            assert replay.status == 200
            assert code in await replay.text()
    assert 'class="face' not in page  # no card on the event page itself
    assert "event.js" not in page  # a finished event's page no longer waits for hands
    wrong = url[:-3] + ("AAA" if not url.endswith("AAA") else "BBB")
    async with http.get(wrong) as refused:
        assert refused.status == 404
    async with http.get(f"{server.base}/event/{GUILD + 1}/{eid}/{url.rsplit('/', 1)[1]}"
                        ) as elsewhere:
        assert elsewhere.status == 404


async def test_a_live_event_page_hides_the_running_hand_and_hears_when_it_ends(
        manager: TableManager, server: WebServer, http: aiohttp.ClientSession) -> None:
    # Player1 is not on the trustee: the first hand waits for them
    runner, eid = await event_of_three(manager, server, auto=lambda uid: uid != 1)
    table = manager.table_of(1)
    assert table is not None and table.game is not None
    url = server.event_url(GUILD, eid)
    async with http.get(url) as response:
        page = await response.text()
    assert "Player1" in page and "event.js" in page
    assert "/replay/" not in page  # no hand has ended
    running = await history.hand_code(manager.db, table.hand_id)
    assert running not in page  # the running hand's code is not given out
    for seat in range(3):  # no seat's hidden hand
        hand = table.game.view(seat).hand
        assert hand and hand not in page
    assert 'class="face' not in page
    stamp = re.search(r'data-stamp="([^"]+)"', page)[1]
    async with http.get(f"{url}/wait", params={"stamp": "other"}) as at_once:
        assert (await at_once.json())["stamp"] == stamp  # a stale page is told at once
    waiting = asyncio.ensure_future(http.get(f"{url}/wait", params={"stamp": stamp}))
    await asyncio.sleep(0.3)
    assert not waiting.done()  # held open while nothing has ended
    await manager.set_trustee(table.id, 1, True)  # the hand plays out
    async with await asyncio.wait_for(waiting, 20) as changed:
        assert (await changed.json())["stamp"] != stamp
    async with http.get(url) as response:
        page = await response.text()
    assert f'href="/replay/{running}"' in page  # the ended hand, linked
