"""The seat page and its WebSocket, as a browser meets them: links, refusals, frames, actions."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import replace

import aiohttp
import pytest
from webhelpers import SECRET, TABLE, connect, deal

from bot.host.tables import TableManager
from bot.web.server import WebServer
from bot.web.tokens import WATCH, SeatToken, sign


async def until_play(manager: TableManager, seat: int = 0) -> None:
    """Bid as the trustee would for player 1 until the cards are played and it is their turn
    or someone else's."""
    table = manager.get(TABLE)
    for _ in range(50):
        if table.game.phase() == "play":
            return
        if seat in table.game.to_act():
            await manager.act(TABLE, 1, table.game.trustee(seat))
        else:
            await asyncio.sleep(0.01)
    raise AssertionError("no play phase")


def grant_of(server: WebServer, seat: int = 0, **changes: int) -> str:
    table = server.manager.get(TABLE)
    return sign(SECRET, replace(server.hub.grant(table, seat), **changes))


async def test_a_seat_link_opens_the_page_and_the_socket_shows_the_hand(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    """The link from the DM opens a page with a strict CSP and no cookie; over the socket the
    player sees their own 17 cards as faces and the bids as buttons."""
    await deal(manager)
    table = manager.get(TABLE)
    url = server.seat_url(table, 0)
    async with http.get(url) as response:
        assert response.status == 200
        page = await response.text()
        policy = response.headers["Content-Security-Policy"]
        assert "Set-Cookie" not in response.headers
    assert "script-src 'self'" in policy and "unsafe-inline" not in policy
    assert "<script>" not in page and 'src="/static/table.js"' in page
    assert "http" not in page.replace(url, "")  # nothing from another origin
    client = await connect(http, server, url.rsplit("/", 1)[1])
    frame = await client.frame()
    assert frame["kind"] == "seat" and frame["seats"][0]["you"]
    assert len(frame["hand"]) == 17
    faces = {(f["t"], f["u"]) for f in frame["hand"]}
    assert all(u in "♠♥♣♦" for _, u in faces if u)
    if 0 in table.game.to_act():
        labels = {b["action"] for b in frame["buttons"]}
        assert labels == {c.action for c in table.game.choices(0)}


@pytest.mark.parametrize("why", ["signature", "expired", "hand", "seat", "table", "watch"])
async def test_a_refused_link_gets_a_plain_page_and_no_socket(
        why: str, server: WebServer, manager: TableManager,
        http: aiohttp.ClientSession) -> None:
    """A changed signature, an expired link, a link for another hand, seat or table, and a
    spectator link used as a seat link: a plain 403 page saying why, and the socket refuses."""
    await manager.create(1, TABLE + 1, "doudizhu", "free", 2, "Bob", "en-US")
    await deal(manager)
    token = {
        "signature": grant_of(server)[:-2] + ("AA" if not grant_of(server).endswith("AA")
                                             else "BB"),
        "expired": grant_of(server, expires=int(time.time()) - 1),
        "hand": grant_of(server, hand=manager.get(TABLE).hand_id + 7),
        "seat": grant_of(server, seat=1),
        "table": grant_of(server, table=TABLE + 99),
        "watch": sign(SECRET, SeatToken(TABLE, 0, WATCH, 0, int(time.time()) + 60)),
    }[why]
    words = {"signature": "not valid", "expired": "expired", "hand": "another hand",
             "seat": "another seat", "table": "closed", "watch": "not valid"}[why]
    async with http.get(f"{server.base}/seat/{token}",
                        headers={"Accept-Language": "en-US"}) as response:
        assert response.status == 403
        text = await response.text()
    assert words in text and "<script" not in text
    if why != "watch":  # a spectator link is good on the socket: for the public view
        client = await connect(http, server, token)
        refused = await client.next("refused")
        assert words in refused["text"]


async def test_tokens_never_reach_the_access_log(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession,
        caplog: pytest.LogCaptureFixture) -> None:
    await deal(manager)
    url = server.seat_url(manager.get(TABLE), 0)
    token = url.rsplit("/", 1)[1]
    with caplog.at_level(logging.DEBUG):
        async with http.get(url) as response:
            assert response.status == 200
        async with http.get(url[:-3] + "xyz") as response:
            assert response.status == 403
    lines = [r.getMessage() for r in caplog.records]
    assert any("/seat/" in line for line in lines)
    assert not any(token in line or token[:40] in line for line in lines)


async def test_a_page_click_is_the_same_action_as_a_discord_click(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    """Bad input gets the engine's own message and changes nothing; a good click is taken by
    TableManager.act, once, even when Discord sends the same click at the same moment."""
    await deal(manager)
    table = manager.get(TABLE)
    while 0 not in table.game.to_act():  # the bots bid first
        await asyncio.sleep(0.01)
    client = await connect(http, server, server.hub.token(table, 0))
    await client.frame()
    before = list(table.game.log)
    await client.send(type="act", action="bid 9")
    error = await client.next("error")
    assert "❌" in error["text"] and table.game.log == before
    bid = table.game.choices(0)[-1].action
    discord_click = asyncio.ensure_future(manager.act(TABLE, 1, bid))
    await client.send(type="act", action=bid)
    results = await asyncio.gather(discord_click, return_exceptions=True)
    await asyncio.sleep(0.2)
    mine = [a for s, a in table.game.log[len(before):] if s == 0]
    assert mine == [bid]  # taken once: the other click was refused (not your turn)
    assert results[0] == bid or isinstance(results[0], Exception)


async def test_actions_are_rate_limited_per_connection(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    await deal(manager)
    client = await connect(http, server, server.hub.token(manager.get(TABLE), 0))
    await client.frame()
    for _ in range(12):
        await client.send(type="hint")
    error = await client.next("error")
    assert "Too fast" in error["text"]
    await asyncio.sleep(0.2)
    while not client.ws.closed and len(client.messages) < 13:
        try:
            await client.next("none", timeout=0.3)
        except TimeoutError:
            break
    hints = sum(1 for m in client.messages if m["type"] == "hint")
    refused = sum(1 for m in client.messages if m["type"] == "error")
    assert 1 <= hints <= 6 and hints + refused == 12  # a burst of 5, then about 5 a second


async def test_a_pick_is_read_by_index_and_checked(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    """The page sends the picker's indices; one out of range, repeated or not a number is
    refused with a message and changes nothing."""
    await deal(manager)
    table = manager.get(TABLE)
    await until_play(manager)
    client = await connect(http, server, server.hub.token(table, 0))
    for bad in ([99], [0, 0], ["0"], []):
        await client.send(type="pick", picked=bad)
    errors = [await client.next("error") for _ in range(4)]
    assert all(e["text"].startswith("❌") for e in errors)




async def test_a_replay_page_opens_only_after_the_settlement(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    """/replay/<code>: refused while the hand runs (its cards are still secret), then every
    seat's dealt cards and each action in order; an unknown code is no such hand."""
    from storage import history

    await deal(manager)
    table = manager.get(TABLE)
    hand_id = table.hand_id
    code = await history.hand_code(manager.db, hand_id)
    async with http.get(f"{server.base}/replay/{code}") as response:
        assert response.status == 403
        assert "♠" not in await response.text()
    game = table.game
    while not game.is_over():
        seat = game.to_act()[0]
        await manager.act(TABLE, 1, game.trustee(seat)) if seat == 0 else await asyncio.sleep(0)
    async with http.get(f"{server.base}/replay/{code}") as response:
        assert response.status == 200
        page = await response.text()
        assert "unsafe-inline" not in response.headers["Content-Security-Policy"]
    assert page.count('class="dealt"') == 3
    assert page.count("<li>") == len(game.log)
    assert 'src="/static/replay.js"' in page and "<script>" not in page
    async with http.get(f"{server.base}/replay/zzzzzzzzzz") as response:
        assert response.status == 404


def test_web_settings_name_the_bad_key(tmp_path) -> None:
    """[web] is checked like the rest of the config: the message names the key."""
    from bot.settings import SettingsError, load_settings

    for text, key in (('[web]\nport = 0\n', "web.port"), ('[web]\nenabled = "yes"\n', "web.enabled"),
                      ('[web]\nbase_url = "ftp://x"\n', "web.base_url"),
                      ('[web]\nsecret = "abc"\n', "web.secret"), ('[web]\nlinks = 1\n', "web.links")):
        path = tmp_path / "mine.toml"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(SettingsError) as caught:
            load_settings(path, environ={})
        assert caught.value.key == key, (text, caught.value)
    path.write_text('[web]\nenabled = true\nbase_url = "https://hall.example.org/"\n',
                    encoding="utf-8")
    web = load_settings(path, environ={}).web
    assert web.enabled and web.public_url == "https://hall.example.org" and web.bind == "127.0.0.1"


def test_the_secret_comes_from_the_environment_or_is_made_once(tmp_path) -> None:
    import os

    from bot.web.tokens import SecretError, load_secret

    path = tmp_path / "data" / "web-secret"
    assert load_secret(path, {"GAMEHALL_WEB_SECRET": "s" * 20}) == b"s" * 20
    assert not path.exists()
    with pytest.raises(SecretError, match="GAMEHALL_WEB_SECRET"):
        load_secret(path, {"GAMEHALL_WEB_SECRET": "short"})
    made = load_secret(path, {})
    assert len(made) == 64 and oct(os.stat(path).st_mode & 0o777) == "0o600"
    assert load_secret(path, {}) == made  # read back on the next start, not made anew


async def test_the_leaderboard_page_is_off_until_moderators_turn_it_on(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession) -> None:
    from storage import guilds

    await deal(manager)  # server 1's table: a hand to its settlement gives level scores
    await manager.set_trustee(TABLE, 1, True)  # the trustee plays the hand out at once
    server.names = lambda uid: {1: "Ann"}.get(uid)
    async with http.get(f"{server.base}/board/1") as response:
        assert response.status == 404 and "/settings leaderboard" in await response.text()
    await guilds.set_web_board(manager.db, 1, True)
    async with http.get(f"{server.base}/board/1") as response:
        assert response.status == 200
        page = await response.text()
    assert "Dou Dizhu" in page and "Ann —" in page
    async with http.get(f"{server.base}/board/2") as response:
        assert response.status == 404  # another server's page stays off


def test_run_stops_with_one_line_when_the_web_table_cannot_start(
        tmp_path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`gamehall run` with [web] enabled: a taken port or a too-short GAMEHALL_WEB_SECRET stops
    it before it connects to Discord, naming the key."""
    import socket

    from bot.__main__ import main

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        config = tmp_path / "hall.toml"
        config.write_text(f"[web]\nenabled = true\nport = {port}\nsecret_file = "
                          f'"{tmp_path / "secret"}"\n', encoding="utf-8")
        monkeypatch.setenv("GAMEHALL_DB", str(tmp_path / "hall.db"))
        monkeypatch.setenv("GAMEHALL_CONFIG", str(config))
        monkeypatch.setenv("DISCORD_TOKEN", "not-a-real-token")
        monkeypatch.delenv("GAMEHALL_WEB_SECRET", raising=False)
        with pytest.raises(SystemExit):
            main(["run"])
        assert f"cannot serve the web table on 127.0.0.1:{port} ([web] bind, port)" in (
            capsys.readouterr().err)
        monkeypatch.setenv("GAMEHALL_WEB_SECRET", "short")
        with pytest.raises(SystemExit):
            main(["run"])
        assert "GAMEHALL_WEB_SECRET: must be at least 16 characters" in capsys.readouterr().err


async def test_each_process_serves_only_the_tables_it_hosts(
        server: WebServer, manager: TableManager, http: aiohttp.ClientSession,
        settings, tmp_path) -> None:  # noqa: ANN001
    """Two bot processes of a sharded hall (each its own tables, its own port, the hall's one
    secret): a seat link is served by the process hosting the table; the other one, which
    has no such table, answers with the plain refusal and its socket refuses too."""
    import itertools

    from bot.terminal import TerminalNotifier
    from storage.db import open_database
    from storage.wallet import Wallet

    other_settings = replace(settings, database=str(tmp_path / "other.db"))
    other_db = await open_database(other_settings.database)
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda line: None)
    seeds = itertools.count(5000)
    other = TableManager(other_settings, other_db, Wallet.from_settings(other_db, other_settings),
                         notifier, clock=time.time, seed_source=lambda: next(seeds))
    notifier.manager = other
    other_server = WebServer(other_settings.web, other, SECRET)
    await other_server.start()
    try:
        assert other_server.base != server.base, "each process listens on its own port"
        await deal(manager)
        token = grant_of(server)
        async with http.get(f"{server.base}/seat/{token}") as response:
            assert response.status == 200
        async with http.get(f"{other_server.base}/seat/{token}",
                            headers={"Accept-Language": "en-US"}) as response:
            assert response.status == 403
            assert "closed" in await response.text()
        client = await connect(http, other_server, token)
        assert "closed" in (await client.next("refused"))["text"]
    finally:
        await other_server.stop()
        await other.shutdown()
        await other_db.close()
