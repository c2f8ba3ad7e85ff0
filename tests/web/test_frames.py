"""What the pages are sent: a spectator never sees a hidden card, in any game; a seat sees
its own hand as faces it can click; every family draws with no code of its own."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import aiohttp
import pytest
from webhelpers import TABLE, connect, deal

from bot.host.tables import TableManager
from bot.render.web import frame
from bot.web.server import WebServer
from engines import registry

RANK = {"10": "T", "小王": "B", "大王": "R"}


def faces_in(data: dict) -> list[dict]:
    """Every face a frame carries, wherever it is."""
    found = list(data["hand"]) + list(data["extra"])
    for seat in data["seats"]:
        for key in ("cards", "melds", "discards"):
            found += seat[key] or []
    for play in data["round"]:
        found += play["faces"] or []
    return found


async def test_every_spectator_frame_of_a_hand_shows_only_played_cards(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    """斗地主 played action by action while a spectator page reads every frame: no frame
    holds a hand, a pick or a counter, and every card face in it has been played (ranks
    counted against the plays so far; the hands are dealt hidden) until the settlement
    shows every hand to everyone."""
    await deal(manager)
    table = manager.get(TABLE)
    watch = await connect(http, server, server.hub.watch_token(table))
    await watch.frame()
    steps = 0
    while table.game is not None and not table.game.is_over():
        game = table.game
        if 0 in game.to_act():
            await manager.act(TABLE, 1, game.trustee(0))
            steps += 1
        try:
            await watch.frame(timeout=0.5)
        except TimeoutError:
            pass
        played = Counter(ch for seat, action in game.log for ch in action
                         if not action.startswith(("bid", "pass", "no")) and ch in
                         "3456789TJQKA2BR")
        for raw in watch.raw:
            data = json.loads(raw)
            if data["type"] != "frame":
                continue
            data = data["frame"]
            assert data["kind"] == "watch"
            assert data["hand"] == [] and data["extra"] == [] and data["counter"] is None
            assert data["buttons"] == [] and not data["your_turn"]
            if data["result"]:  # settled: every hand is shown to all (亮牌), as in Discord
                continue
            shown = Counter(RANK.get(f["t"], f["t"]) for f in faces_in(data))
            assert not shown - played, (shown - played, game.log)
        watch.raw.clear()
    assert steps >= 3


@pytest.mark.parametrize("game", sorted(registry.specs()))
async def test_every_game_draws_for_seats_and_spectators(game: str,
                                                         manager: TableManager) -> None:
    """Each registered game, played by the trustee for a while: the spectator's frame holds
    nothing private (a seat's shown cards only where the public view shows them), and each
    seat's frame holds its own hand, and clickable cells only on its turn."""
    await deal(manager, game)
    table = manager.get(TABLE)
    await manager.set_trustee(TABLE, 1, False)
    for _ in range(60):
        g = table.game
        if g is None or g.is_over():
            break
        public = g.view(None)
        data = frame(manager, table, None, "en-US", 0.0)
        assert data["hand"] == [] and data["extra"] == [] and data["counter"] is None
        for i, seat in enumerate(data["seats"]):
            assert (seat["cards"] is None) or public.seats[i].cards
        json.dumps(data)
        for seat in range(len(table.seats)):
            mine = frame(manager, table, seat, "en-US", 0.0)
            assert bool(mine["hand"]) == bool(g.view(seat).hand)
            clickable = [c for c in mine["hand"] + mine["extra"] if c["p"] is not None]
            if seat not in g.to_act():
                assert not clickable and not mine["your_turn"]
        seat = g.to_act()[0] if g.to_act() else None
        if seat is None:
            break
        if table.seats[seat].uid == 1:
            await manager.act(TABLE, 1, g.trustee(seat))
        else:
            await asyncio.sleep(0)
            if table.game is g and g.to_act() and g.to_act()[0] == seat:
                await manager.set_trustee(TABLE, 1, True)
                break
