"""Benchmark: what one settlement and one host action cost on PostgreSQL, counted.

One process, as ``benchmarks/scale.py`` measures with one process, but instead of only the
rate it counts, per settlement and per host action (``TableManager`` calls, 斗地主 with
escrow, persistence after every action and settlement, as ``benchmarks/host.py`` runs it):

- **round trips**: calls on the asyncpg connection that wait for the server (``execute``,
  ``executemany``, ``fetch``, ``fetchmany``…; BEGIN and COMMIT included), counted by a connection subclass
  the pool is opened with, and split by storage operation (the function ``Storage.run`` /
  ``read`` / ``run_autocommit`` was given);
- **statements**: as the client sends them (``executemany``: one per row), and as the server
  runs them (``pg_stat_statements``, nested statements of functions included);
- **rows locked**: rows that UPDATE, ``… DO UPDATE`` and ``SELECT … FOR [NO KEY] UPDATE``
  statements touched (``pg_stat_statements.rows``), i.e. rows another settlement would wait
  on; rows inserted, which nobody can wait on, are counted apart;
- **server CPU**: user + system time of the server's processes (``/proc``, via psutil) and the
  statements' execution time (``pg_stat_statements.total_exec_time``), and the client's CPU;
- **WAL**: records and bytes the statements wrote (``pg_stat_statements.wal_records`` /
  ``wal_bytes`` of the top-level statements, which include what their functions ran);
- **HOT updates**: per table, updates and how many of them were heap-only (HOT: no new index
  entry, ``pg_stat_user_tables.n_tup_hot_upd`` / ``n_tup_upd``) in the measured window.

``--statements`` also prints every statement the server ran per operation (calls, rows, WAL
records, µs executing), nested ones included.

The server is PostgreSQL from Debian's packages (``/usr/lib/postgresql/N``) started in a
temporary folder with ``shared_preload_libraries = pg_stat_statements`` and
``pg_stat_statements.track = all``, on a Unix socket only; without those packages, pgserver's
(then without the statement counts). The same workloads run on a SQLite file for the ratio.
Ends with ``pg_cost: N settlements/s on PostgreSQL (x.xx× SQLite)``.

    python benchmarks/pg_cost.py [--hands 600] [--tables 16] [--host-tables 30] [--seconds 3]
                                 [--statements]
"""

from __future__ import annotations

import argparse
import asyncio
import contextvars
import glob
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
import warnings
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import asyncpg
import psutil

STAKE = 20_000
_operation: contextvars.ContextVar[str] = contextvars.ContextVar("operation", default="")


# --- counting at the driver ---------------------------------------------------------------------


@dataclass
class Counts:
    """Round trips and client statements, in total and per storage operation."""

    round_trips: int = 0
    statements: int = 0
    by_operation: Counter[str] = field(default_factory=Counter)

    def reset(self) -> None:
        self.round_trips, self.statements = 0, 0
        self.by_operation.clear()


COUNTS = Counts()
_DRIVER_CALLS = ("execute", "executemany", "fetch", "fetchmany", "fetchrow", "fetchval", "prepare")


def _counting(name: str) -> Callable[..., Any]:
    method = getattr(asyncpg.Connection, name)

    async def counted(conn: Any, *args: Any, **kwargs: Any) -> Any:
        COUNTS.round_trips += 1
        COUNTS.by_operation[_operation.get() or "(pool)"] += 1
        rows = args[1] if name in ("executemany", "fetchmany") and len(args) > 1 else None
        COUNTS.statements += len(rows) if isinstance(rows, list) else 1
        return await method(conn, *args, **kwargs)

    return counted


CountedConnection = type(
    "CountedConnection", (asyncpg.Connection,), {n: _counting(n) for n in _DRIVER_CALLS}
)


def _label(fn: Any) -> str:
    module = getattr(fn, "__module__", "?").rsplit(".", 1)[-1]
    return f"{module}:{getattr(fn, '__qualname__', '?').split('.<locals>')[0]}"


def instrument() -> None:
    """Open every pool with the counting connection; name each storage operation it serves."""
    from storage.postgres import PostgresDatabase

    create_pool = asyncpg.create_pool

    def counted_pool(*args: Any, **kwargs: Any) -> Any:
        kwargs["connection_class"] = CountedConnection
        return create_pool(*args, **kwargs)

    asyncpg.create_pool = counted_pool
    for name in ("run", "read", "run_autocommit"):
        method = getattr(PostgresDatabase, name, None)
        if method is None:
            continue

        def labelled(method: Any) -> Any:
            async def call(self: Any, fn: Any, *args: Any) -> Any:
                token = _operation.set(_operation.get() or _label(fn))
                try:
                    return await method(self, fn, *args)
                finally:
                    _operation.reset(token)

            return call

        setattr(PostgresDatabase, name, labelled(method))


# --- the server -------------------------------------------------------------------------------


@dataclass
class Server:
    admin: str  # URL of the "postgres" database
    pid: int  # the postmaster's
    statements: bool  # pg_stat_statements is loaded
    stop: Callable[[], None]

    def cpu(self) -> float:
        """User + system seconds of the server's processes alive now."""
        main = psutil.Process(self.pid)
        total = 0.0
        for proc in (main, *main.children(recursive=True)):
            try:
                times = proc.cpu_times()
            except psutil.NoSuchProcess:  # a backend that just ended
                continue
            total += times.user + times.system
        return total


def _debian_bin() -> Path | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/pg_ctl"))
    return Path(found[-1]).parent if found else None


def start_server() -> Server:
    """Debian's PostgreSQL with pg_stat_statements in a temporary folder, else pgserver's."""
    folder = Path(tempfile.mkdtemp(prefix="pg-cost-"))
    binaries = _debian_bin()
    if binaries is None:
        import pgserver

        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            handle = pgserver.get_server(folder, cleanup_mode="delete")
        return Server(handle.get_uri("postgres"), handle.get_pid(), False, handle.cleanup)
    as_user: list[str] = []
    if os.geteuid() == 0:  # the server refuses to run as root
        shutil.chown(folder, "postgres", "postgres")
        as_user = ["runuser", "-u", "postgres", "--"]
    data = folder / "data"
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.STDOUT}
    subprocess.run([*as_user, binaries / "initdb", "-D", data, "-U", "postgres",
                    "--auth=trust", "-E", "utf8"], check=True, **quiet)
    options = (f"-c listen_addresses='' -c unix_socket_directories='{folder}' "
               "-c shared_preload_libraries=pg_stat_statements "
               "-c pg_stat_statements.track=all -c max_connections=50")
    subprocess.run([*as_user, binaries / "pg_ctl", "-D", data, "-o", options, "-w",
                    "-l", folder / "log", "start"], check=True, **quiet)

    def stop() -> None:
        subprocess.run([*as_user, binaries / "pg_ctl", "-D", data, "-m", "immediate", "stop"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        shutil.rmtree(folder, ignore_errors=True)

    pid = int((data / "postmaster.pid").read_text().split()[0])
    return Server(f"postgresql://postgres@/postgres?host={folder}", pid, True, stop)


async def fresh_database(server: Server, name: str) -> str:
    conn = await asyncpg.connect(server.admin)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
        if server.statements:
            await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
    finally:
        await conn.close()
    return server.admin.replace("/postgres?", f"/{name}?", 1)


_LOCKING = re.compile(r"^\s*(UPDATE|DELETE)\b|\bFOR (NO KEY )?UPDATE\b|\bDO UPDATE\b", re.IGNORECASE)
_INSERT = re.compile(r"^\s*(WITH\b.*\bINSERT|INSERT)\b", re.IGNORECASE | re.DOTALL)


@dataclass
class ServerFigures:
    statements: int = 0  # run by the server, nested ones included
    locked: int = 0
    inserted: int = 0
    exec_ms: float = 0.0
    cpu_s: float = 0.0
    wal_records: int = 0  # of the top-level statements (their nested ones included)
    wal_bytes: int = 0
    by_statement: list[tuple[str, int, int, int, float]] = field(default_factory=list)
    """(query, calls, rows, WAL records, ms executing), nested statements included."""
    updates: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Per table: (updates, of which HOT) in the window."""


async def statement_figures(server: Server, database: str) -> ServerFigures:
    """What pg_stat_statements counted in ``database`` since its last reset."""
    figures = ServerFigures()
    if not server.statements:
        return figures
    conn = await asyncpg.connect(server.admin)
    try:
        rows = await conn.fetch(
            "SELECT s.query, s.calls, s.rows, s.total_exec_time, s.toplevel, s.wal_records, "
            "s.wal_bytes FROM pg_stat_statements s JOIN pg_database d ON d.oid = s.dbid "
            "WHERE d.datname = $1",
            database,
        )
    finally:
        await conn.close()
    for query, calls, rows_, exec_ms, toplevel, wal_records, wal_bytes in rows:
        if "pg_stat_statements" in query or "pg_stat_user_tables" in query:
            continue
        figures.statements += calls
        figures.by_statement.append((query, calls, rows_, wal_records, exec_ms))
        if toplevel:
            figures.exec_ms += exec_ms
            figures.wal_records += wal_records
            figures.wal_bytes += int(wal_bytes)
        if query.lstrip().upper().startswith("SELECT GAMEHALL_"):
            continue  # a function's own rows are counted by its statements
        if _LOCKING.search(query):
            figures.locked += rows_
        elif _INSERT.search(query):
            figures.inserted += rows_
    return figures


_TABLE_STATS = "SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"


async def table_updates(url: str) -> dict[str, tuple[int, int]]:
    """Per table of the database at ``url``: (updates, HOT updates) counted so far (what
    backends still open have not yet reported is missing: read once the pool is closed)."""
    conn = await asyncpg.connect(url)
    try:
        return {name: (int(n), int(hot)) for name, n, hot in await conn.fetch(_TABLE_STATS)}
    finally:
        await conn.close()


async def settled_stats(url: str) -> dict[str, tuple[int, int]]:
    """``table_updates`` once every open backend has reported its counts (they report after
    at most a second idle)."""
    await asyncio.sleep(1.5)
    return await table_updates(url)


def updates_between(
    before: dict[str, tuple[int, int]], after: dict[str, tuple[int, int]]
) -> dict[str, tuple[int, int]]:
    out = {}
    for name, (n, hot) in after.items():
        n0, hot0 = before.get(name, (0, 0))
        if n - n0:
            out[name] = (n - n0, hot - hot0)
    return out


async def reset_statements(server: Server) -> None:
    if server.statements:
        conn = await asyncpg.connect(server.admin)
        try:
            await conn.execute("SELECT pg_stat_statements_reset()")
        finally:
            await conn.close()


# --- workloads ----------------------------------------------------------------------------------


@dataclass
class Run:
    """One measured window: operations done, seconds, client CPU, and (PostgreSQL) counts."""

    done: int
    seconds: float
    client_cpu: float
    counts: Counts | None = None
    server: ServerFigures | None = None

    @property
    def rate(self) -> float:
        return self.done / self.seconds


class Window:
    """Measure from ``begin`` to ``end`` (PostgreSQL: counters reset and read)."""

    def __init__(self, server: Server | None, database: str, url: str = "") -> None:
        self.server, self.database, self.url = server, database, url
        self.tables: dict[str, tuple[int, int]] = {}

    async def begin(self) -> None:
        if self.server is not None:
            self.tables = await settled_stats(self.url)
            await reset_statements(self.server)
            self.cpu0 = self.server.cpu()
        COUNTS.reset()
        self.wall0, self.client0 = time.perf_counter(), time.process_time()

    async def end(self, done: int) -> Run:
        run = Run(done, time.perf_counter() - self.wall0, time.process_time() - self.client0)
        if self.server is not None:
            cpu = self.server.cpu() - self.cpu0  # before the pool closes: backends still alive
            run.counts = Counts(COUNTS.round_trips, COUNTS.statements,
                                Counter(COUNTS.by_operation))
            run.server = await statement_figures(self.server, self.database)
            run.server.cpu_s = cpu
        return run

    async def closed(self, run: Run) -> None:
        """Once the pool is closed (every backend has reported): the window's updates."""
        if run.server is not None:
            run.server.updates = updates_between(self.tables, await settled_stats(self.url))


async def settle_hands(wallet: Any, hands: list[tuple[int, list[int]]],
                       rng: random.Random) -> None:
    """Settle ``hands`` one after another, as one table does: a 斗地主 hand, the landlord (the
    first seat) winning or losing 2x against each farmer's x, x drawn from 1, 2, 4, 8."""
    from storage.wallet import SeatResult  # imported where used, as in settle_run

    for hand, seats in hands:
        x = rng.choice((1, 2, 4, 8))
        points = [2 * x, -x, -x] if rng.random() < 0.5 else [-2 * x, x, x]
        results = [SeatResult(u, p, 1 if p > 0 else -1) for u, p in zip(seats, points)]
        await wallet.settle(hand, "bench", results, 1000, 50, record='{"log":[]}')


async def settle_run(target: str, window: Window, args: argparse.Namespace) -> Run:
    """``--hands`` three-seat hands (opened and held untimed) settled from ``--tables``
    tables at once."""
    from storage.db import open_database
    from storage.wallet import Wallet

    pg = target.startswith("postgresql")
    db = await open_database(target, **({"max_size": args.pool, "min_size": 2} if pg else {}))
    wallet = Wallet(db, starting_grant=10**9, relief_amount=0, relief_threshold=0,
                    relief_cooldown_s=0)
    rng = random.Random(1)
    # one seat per person, as in the hall: each table its own three players, so settlements
    # running at once share no player (only the house's counters)
    groups = [[3 * t + 1, 3 * t + 2, 3 * t + 3] for t in range(args.tables)]
    for uid in (uid for group in groups for uid in group):
        await wallet.ensure_player(uid)
    hands: list[tuple[int, list[int]]] = []
    for n in range(args.hands):
        seats = groups[n % args.tables]
        hand = await wallet.new_hand("bench", "room", 1, 2, seats=seats)
        await wallet.hold(hand, [(uid, STAKE) for uid in seats])
        hands.append((hand, seats))

    await window.begin()
    await asyncio.gather(*(settle_hands(wallet, hands[i :: args.tables], rng)
                           for i in range(args.tables)))
    run = await window.end(len(hands))
    totals = await wallet.totals()
    assert totals.ledger == totals.players + totals.house, totals
    await db.close()
    await window.closed(run)
    return run


async def host_run(target: str, window: Window, args: argparse.Namespace) -> Run:
    """The real host over ``--host-tables`` 斗地主 tables, closed loop for ``--seconds``."""
    from host import Hall

    pg = target.startswith("postgresql")
    folder: Path | str = target if pg else Path(target).parent
    hall = await Hall.open(folder, 7, **({"max_size": args.pool, "min_size": 2} if pg else {}))
    await hall.seat(args.host_tables)
    tables = list(range(1, args.host_tables + 1))
    await hall.closed_loop(tables, seconds=1.0)  # warm up: hands under way everywhere
    await window.begin()
    calls, _, _ = await hall.closed_loop(tables, seconds=args.seconds)
    run = await window.end(calls)
    await hall.manager.shutdown()
    await hall.db.close()
    await window.closed(run)
    return run


# --- report -------------------------------------------------------------------------------------


def per_op(name: str, unit: str, run: Run, sqlite: Run, statements: bool = False) -> None:
    n = run.done
    print(f"{name}: {n} {unit}s in {run.seconds:.2f} s: {run.rate:,.0f}/s on PostgreSQL, "
          f"{sqlite.rate:,.0f}/s on SQLite (×{run.rate / sqlite.rate:.2f})")
    assert run.counts is not None and run.server is not None
    print(f"  per {unit}: {run.counts.round_trips / n:.2f} round trips, "
          f"{run.counts.statements / n:.2f} statements sent")
    s = run.server
    if s.statements:
        print(f"  per {unit} on the server: {s.statements / n:.2f} statements run (nested "
              f"included), {s.locked / n:.2f} rows locked, {s.inserted / n:.2f} rows inserted, "
              f"{1000 * s.exec_ms / n:.0f} µs executing, {s.wal_records / n:.2f} WAL records "
              f"({s.wal_bytes / n:,.0f} bytes)")
    print(f"  per {unit}: server CPU {1e6 * s.cpu_s / n:.0f} µs, client CPU "
          f"{1e6 * run.client_cpu / n:.0f} µs (SQLite: {1e6 * sqlite.client_cpu / n:.0f} µs "
          "in-process)")
    if s.updates:
        print(f"  updates in the window (HOT / all; after the pool closed): " + ", ".join(
            f"{table} {hot}/{total}" for table, (total, hot) in sorted(s.updates.items())))
    print(f"  round trips per {unit}, by storage operation:")
    for operation, trips in run.counts.by_operation.most_common():
        print(f"    {operation:<40} {trips / n:6.3f}")
    if statements and s.by_statement:
        print(f"  statements run by the server per {unit} (calls, rows, WAL records, µs):")
        for query, calls, rows, wal, ms in sorted(s.by_statement, key=lambda q: -q[4]):
            text = " ".join(query.split())
            print(f"    {calls / n:6.2f} {rows / n:6.2f} {wal / n:6.2f} {1000 * ms / n:7.1f}  "
                  f"{text[:110]}")


async def main_async(args: argparse.Namespace) -> None:
    instrument()
    server = start_server()
    try:
        print(f"machine: {os.cpu_count()} cores; PostgreSQL: "
              f"{'Debian, pg_stat_statements' if server.statements else 'pgserver'} "
              "(Unix socket); SQLite: WAL, normal; one process, one pool of "
              f"{args.pool} connections")
        results: dict[str, tuple[Run, Run]] = {}
        with tempfile.TemporaryDirectory() as tmp:
            for kind, workload in (("settle", settle_run), ("host", host_run)):
                sqlite_target = str(Path(tmp) / kind / "hall.db")
                Path(sqlite_target).parent.mkdir()
                sqlite = await workload(sqlite_target, Window(None, ""), args)
                name = f"pg_cost_{kind}"
                url = await fresh_database(server, name)
                pg = await workload(url, Window(server, name, url), args)
                results[kind] = (pg, sqlite)
        per_op("settle", "settlement", *results["settle"], args.statements)
        per_op("host", "host action", *results["host"], args.statements)
        pg, sqlite = results["settle"]
        host_pg, host_sqlite = results["host"]
        print(f"pg_cost: {host_pg.rate:.0f} host actions/s on PostgreSQL "
              f"({host_pg.rate / host_sqlite.rate:.2f}× SQLite)")
        print(f"pg_cost: {pg.rate:.0f} settlements/s on PostgreSQL "
              f"({pg.rate / sqlite.rate:.2f}× SQLite)")
    finally:
        server.stop()


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--hands", type=int, default=600, help="hands settled")
    parser.add_argument("--tables", type=int, default=16, help="tables settling at once")
    parser.add_argument("--host-tables", type=int, default=30, help="host tables")
    parser.add_argument("--seconds", type=float, default=3.0, help="host closed-loop window")
    parser.add_argument("--pool", type=int, default=10, help="connections in the pool")
    parser.add_argument("--statements", action="store_true",
                        help="print every statement the server ran per operation")
    asyncio.run(main_async(parser.parse_args()))


if __name__ == "__main__":
    main()
