"""运行指标: what an operator reads of a running hall — the Prometheus figures and the health line."""

from __future__ import annotations

import asyncio
import logging
import re
import socket
import urllib.request

import pytest

from bot.host.metrics import HostMetrics, percentile
from bot.host.model import PLAYING
from bot.host.tables import TableManager

CH, GUILD = 9300, 77


def figure(text: str, name: str) -> float:
    """The value of the series ``name`` (with its labels) in a Prometheus text exposition."""
    found = re.search(rf"^{re.escape(name)} (\S+)$", text, re.MULTILINE)
    assert found, f"{name} not in:\n{text}"
    return float(found[1])


async def take_turns(manager: TableManager, count: int) -> int:
    """People play ``count`` hints (fewer if the hand ends); returns how many they played."""
    played = 0
    for _ in range(count):
        table = manager.get(CH)
        if table.status != PLAYING or table.game is None:
            break
        uid = table.seats[table.game.to_act()[0]].uid
        assert uid is not None
        await manager.act(CH, uid, manager.hint(CH, uid))
        played += 1
    return played


async def test_actions_tables_and_settlements_show_in_the_metrics(manager: TableManager) -> None:
    text = manager.metrics.text()
    assert figure(text, "gamehall_tables_open") == 0
    assert figure(text, 'gamehall_actions_total{source="player"}') == 0
    await manager.create(GUILD, CH, "doudizhu", "free", 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")
    await manager.start(CH, 1)
    played = await take_turns(manager, 5)
    text = manager.metrics.text()
    assert figure(text, "gamehall_tables_open") == 1
    assert figure(text, 'gamehall_actions_total{source="player"}') == played == 5
    assert figure(text, "gamehall_settle_seconds_count") == 0
    assert manager.metrics.recent_actions() == 5
    played += await take_turns(manager, 500)
    assert manager.get(CH).status != PLAYING
    text = manager.metrics.text()
    assert figure(text, 'gamehall_actions_total{source="player"}') == played
    assert figure(text, "gamehall_settle_seconds_count") == 1
    assert figure(text, "gamehall_settle_seconds_sum") > 0
    assert figure(text, 'gamehall_settle_seconds_bucket{le="+Inf"}') == 1
    # the database's connection figures: SQLite's one connection has nothing queued when idle
    assert figure(text, "gamehall_db_pool_queued") == 0


async def test_trustee_and_timeout_actions_are_counted_apart(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu", "free", 1, "ann")
    await manager.add_bot(CH, 1)
    await manager.add_bot(CH, 1)
    await manager.start(CH, 1)
    table = manager.get(CH)
    trustee = figure(manager.metrics.text(), 'gamehall_actions_total{source="trustee"}')
    assert trustee == sum(1 for seat, _ in table.game.log if table.seats[seat].uid is None)
    game = table.game
    assert table.status == PLAYING and game is not None and table.window is not None
    assert list(game.to_act()) == [0], "the bots acted; ann's turn"
    steps = len(game.log)
    await manager._expire(CH, table.window)  # ann's time runs out
    text = manager.metrics.text()
    assert figure(text, 'gamehall_actions_total{source="timeout"}') == 1
    assert figure(text, 'gamehall_actions_total{source="player"}') == 0
    bots = sum(1 for seat, _ in game.log[steps + 1:] if table.seats[seat].uid is None)
    assert figure(text, 'gamehall_actions_total{source="trustee"}') == trustee + bots


async def test_the_health_line_appears_in_the_log(
    manager: TableManager, caplog: pytest.LogCaptureFixture,
) -> None:
    await manager.create(GUILD, CH, "doudizhu", "free", 1, "ann")
    await manager.join(CH, 2, "bob")
    await manager.join(CH, 3, "cat")
    await manager.start(CH, 1)
    await take_turns(manager, 3)
    caplog.set_level(logging.INFO, logger="bot.host.metrics")
    manager.metrics.start_health(0.02)
    for _ in range(100):
        if any(r.getMessage().startswith("health:") for r in caplog.records):
            break
        await asyncio.sleep(0.02)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("health:")]
    assert lines, "no health line was logged"
    assert "tables=1 " in lines[0] and "actions/min=3 " in lines[0]
    assert re.search(r"settle_p50=\d+\.\dms settle_p99=\d+\.\dms", lines[0])
    await manager.metrics.stop()
    count = len(lines)
    await asyncio.sleep(0.1)
    assert len([r for r in caplog.records if r.getMessage().startswith("health:")]) == count


def test_the_health_line_looks_back_one_minute() -> None:
    now = [1000.0]
    metrics = HostMetrics(lambda: 2, now=lambda: now[0])
    metrics.action("player", 3)
    metrics.settled(0.010)
    now[0] += 30
    metrics.action("trustee", 2)
    for ms in (1, 2, 3, 4, 50):
        metrics.settled(ms / 1000)
    assert metrics.recent_actions() == 5
    assert metrics.health() == (
        "health: tables=2 actions/min=5 settles/min=6 settle_p50=3.0ms settle_p99=50.0ms"
    )
    now[0] += 45  # the first second's figures are now older than a minute
    assert metrics.recent_actions() == 2
    assert metrics.health().startswith("health: tables=2 actions/min=2 settles/min=5 ")
    # the counters themselves never forget
    assert figure(metrics.text(), 'gamehall_actions_total{source="player"}') == 3
    assert figure(metrics.text(), "gamehall_settle_seconds_count") == 6


def test_percentiles_by_nearest_rank() -> None:
    assert percentile([], 0.5) == 0.0
    values = [float(v) for v in range(1, 101)]
    assert percentile(values, 0.5) == 50.0
    assert percentile(values, 0.99) == 99.0
    assert percentile([7.0], 0.99) == 7.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def test_the_endpoint_serves_the_figures_over_http(manager: TableManager) -> None:
    await manager.create(GUILD, CH, "doudizhu", "free", 1, "ann")
    port = manager.metrics.serve(free_port(), addr="127.0.0.1")
    try:
        body = await asyncio.to_thread(
            lambda: urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=5).read()
        )
    finally:
        await manager.metrics.stop()
    assert figure(body.decode(), "gamehall_tables_open") == 1
    assert 'gamehall_actions_total{source="player"} 0.0' in body.decode()


def test_metrics_of_two_managers_are_kept_apart() -> None:
    one, other = HostMetrics(lambda: 1), HostMetrics(lambda: 4)
    one.action("player")
    assert figure(other.text(), 'gamehall_actions_total{source="player"}') == 0
    assert figure(other.text(), "gamehall_tables_open") == 4
