"""gamehall: run the Discord bot, play offline in the terminal, or look at a wallet.

    gamehall run                      start the Discord bot (needs DISCORD_TOKEN)
    gamehall run --shards 0-3 --shard-count 8   one process of a sharded hall (shards 0 to 3)
    gamehall play doudizhu [--room free] [--lang en-US]   a table in this terminal against bots
    gamehall play doudizhu --level hard   the same against the hard trustee (easy, normal, hard)
    gamehall play doudizhu --web      the same table in the local browser
    gamehall wallet USER_ID [--server ID]   what /beans shows there, last ledger lines
    gamehall games                    the games and rooms this hall offers
    gamehall verify CODE [--commitment HEX]   re-deal a finished hand, check its shuffle
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import socket
import sqlite3
import sys
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from bot.settings import Settings, SettingsError, load_settings, parse_shards
from engines import registry

if TYPE_CHECKING:
    from bot.client import GameHall


def _settings() -> Settings:
    """The settings, checked against the registered games; exit 2 naming a bad key."""
    try:
        return load_settings(known_games=registry.specs())
    except SettingsError as exc:
        print(f"gamehall: invalid settings: {exc}", file=sys.stderr)
        raise SystemExit(2) from exc


def _database(settings: Settings) -> None:
    """Exit 2 with one line unless the database can be used: a SQLite file created, opened and
    written, or a PostgreSQL server reached (with asyncpg installed).

    Checked before any command opens it, so a bad path or URL is reported before the bot
    connects to Discord, and without a traceback from the database's worker thread.
    """
    target = settings.database
    problem = _database_problem(target) if isinstance(target, Path) else _server_problem(target)
    if problem:
        source = "GAMEHALL_DB" if os.environ.get("GAMEHALL_DB") else "hall.database"
        shown = target if isinstance(target, Path) else _redacted(target)
        print(f"gamehall: cannot use the database {shown} ({source}): {problem}",
              file=sys.stderr)
        raise SystemExit(2)


def _metrics_port(settings: Settings) -> None:
    """Exit 2 with one line unless the metrics port (``[metrics] port``; 0 = none) can be bound,
    so a port in use is reported before the bot connects to Discord, not as a traceback."""
    port = settings.metrics_port
    if not port:
        return
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(("0.0.0.0", port))
        except OSError as exc:
            print(f"gamehall: cannot serve metrics on port {port} ([metrics] port): "
                  f"{exc.strerror or exc}", file=sys.stderr)
            raise SystemExit(2) from None


def _web(settings: Settings) -> None:
    """Exit 2 with one line unless the web table (``[web]``, when enabled) can start: its
    secret read or made, its port free, so neither is found as a traceback after connecting."""
    web = settings.web
    if not web.enabled:
        return
    from bot.web.tokens import SecretError, load_secret

    try:
        load_secret(Path(web.secret_file))
    except SecretError as exc:
        print(f"gamehall: invalid settings: {exc}", file=sys.stderr)
        raise SystemExit(2) from None
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((web.bind, web.port))
        except OSError as exc:
            print(f"gamehall: cannot serve the web table on {web.bind}:{web.port} ([web] bind, "
                  f"port): {exc.strerror or exc}", file=sys.stderr)
            raise SystemExit(2) from None


def _redacted(url: str) -> str:
    from storage.postgres import _redacted as redacted

    return redacted(url)


def _server_problem(url: str) -> str | None:
    """What keeps the PostgreSQL server at ``url`` from being used, or None (one connection,
    opened and closed; the schema is migrated when the hall opens it)."""
    try:
        import asyncpg
    except ImportError:
        return "a postgresql:// database needs asyncpg (pip install 'gamehall[postgresql]')"

    async def probe() -> None:
        conn = await asyncpg.connect(url, timeout=10)
        await conn.close()

    try:
        asyncio.run(probe())
    except (TimeoutError, OSError, asyncpg.PostgresError) as exc:
        return str(exc) or type(exc).__name__
    return None


def _database_problem(path: Path) -> str | None:
    """What makes ``path`` unusable as the hall's database, or None if it is fine."""
    if path.is_dir():
        return "it is a directory"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        return f"cannot create its folder {path.parent}: {exc.strerror or exc}"
    try:
        conn = sqlite3.connect(path, timeout=5, isolation_level=None)
        try:
            # reading the header proves the file is SQLite (a new or empty file is fine: it is
            # created on first start); rewriting it, rolled back, proves it can be written
            conn.execute("BEGIN IMMEDIATE")
            (version,) = conn.execute("PRAGMA user_version").fetchone()
            conn.execute(f"PRAGMA user_version = {int(version)}")
            conn.execute("ROLLBACK")
        finally:
            conn.close()
    except sqlite3.Error as exc:
        return str(exc)
    return None


def cmd_run(args: argparse.Namespace) -> int:
    try:
        shard_count, shard_ids = parse_shards(args.shards, args.shard_count)
    except ValueError as exc:
        print(f"gamehall: {exc}", file=sys.stderr)
        return 2
    settings = replace(_settings(), shard_count=shard_count, shard_ids=shard_ids)
    if not settings.token:
        print(
            "gamehall: DISCORD_TOKEN is not set — export your bot token to run the Discord bot, "
            "or try the hall offline with: gamehall play doudizhu",
            file=sys.stderr,
        )
        return 2
    _database(settings)
    _metrics_port(settings)
    _web(settings)
    from discord import PrivilegedIntentsRequired

    from bot.client import create_bot

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    bot = create_bot(settings)
    if shard_ids is not None:
        logging.getLogger("gamehall").info("shards %s of %s", ",".join(map(str, shard_ids)),
                                           shard_count)
    try:
        try:
            asyncio.run(_serve(bot, settings.token))
        except PrivilegedIntentsRequired:
            # the bot's page has the Server Members Intent off: run without member events (a
            # removal is then found when the person next acts from another server)
            logging.getLogger("gamehall").warning(
                "the Server Members Intent is off on the bot's page: running without it, so a "
                "member removed from a server keeps their seat until they next act elsewhere")
            asyncio.run(_serve(create_bot(settings, member_events=False), settings.token))
    except KeyboardInterrupt:  # a second Ctrl-C while closing
        return 130
    return 0


async def _serve(bot: GameHall, token: str) -> None:
    """Run the bot until it closes; SIGTERM and SIGINT close it gracefully (every table saved,
    every timer stopped: ``GameHall.close``)."""
    loop = asyncio.get_running_loop()
    closing: list[asyncio.Task[None]] = []
    for signum in (signal.SIGTERM, signal.SIGINT):
        try:
            loop.add_signal_handler(signum, lambda: closing.append(loop.create_task(bot.close())))
        except (NotImplementedError, RuntimeError):  # no signal handlers on this platform
            pass
    bot.tunes_collector = True  # this process is the hall's: its collector is tuned for it
    async with bot:
        await bot.start(token)
    await asyncio.gather(*closing, return_exceptions=True)


def _server_id(text: str) -> int:
    """A Discord server id (or 0, the global economy) for ``--server``."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value < 2**63:
        raise argparse.ArgumentTypeError(f"a server id is a whole number from 0, not {text!r:.40}")
    return value


def cmd_wallet(args: argparse.Namespace) -> int:
    from bot.terminal import show_wallet

    settings = _settings()
    _database(settings)
    return asyncio.run(show_wallet(settings, args.user_id, args.lines, args.server))


def cmd_play(args: argparse.Namespace) -> int:
    from bot.terminal import play

    settings = _settings()
    _database(settings)
    if args.web and args.level != "normal":
        print("gamehall: --level is for the terminal table; the web table's bots play normal",
              file=sys.stderr)
        return 2
    if args.web:  # the terminal table's twin in the local browser (bot/web/local.py)
        from bot.web.local import play_web

        try:
            return asyncio.run(play_web(
                settings, args.game, args.room, args.user_id, args.seed,
                timers=not args.no_timer, locale=args.lang, port=args.port,
                browser=not args.no_browser))
        except KeyboardInterrupt:
            return 0
    return asyncio.run(play(settings, args.game, args.room, args.user_id, args.seed,
                            timers=not args.no_timer, locale=args.lang, level=args.level))


def cmd_verify(args: argparse.Namespace) -> int:
    from bot.cogs.hall_extras import verify_offline

    settings = _settings()
    _database(settings)
    return asyncio.run(verify_offline(settings, args.code, args.commitment))


def cmd_games(args: argparse.Namespace) -> int:
    settings = _settings()
    for key, spec in registry.specs().items():
        print(f"{key:16} {spec.name_zh} / {spec.name_en}  ({spec.min_seats}-{spec.max_seats} seats)")
    print()
    for key, room in settings.rooms.items():
        print(f"{key:12} {room.name_zh} / {room.name_en}  N={room.coefficient} A={room.rake} "
              f"beans {room.min_beans}-{room.max_beans}  games: {', '.join(room.games)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="gamehall", description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="start the Discord bot (needs DISCORD_TOKEN)")
    run.add_argument("--shard-count", type=int, default=None, metavar="N",
                     help="the bot's total number of Discord shards (several processes: the same N)")
    run.add_argument("--shards", default=None, metavar="A-B",
                     help="the shards this process runs, e.g. 0-3 (default: all N)")
    run.set_defaults(func=cmd_run)
    wallet = sub.add_parser("wallet", help="show a player's wallet")
    wallet.add_argument("user_id", type=int)
    wallet.add_argument("--server", type=_server_id, default=None, metavar="ID",
                        help="the server whose economy to show (default: the player's only "
                             "one, or a list of them); 0 is the global economy")
    wallet.add_argument("--lines", type=int, default=10, help="ledger lines to show")
    wallet.set_defaults(func=cmd_wallet)
    play = sub.add_parser("play", help="play at a table in this terminal")
    play.add_argument("game", help="game key, e.g. doudizhu")
    play.add_argument("--room", default="free", help="room key (default: the score-only room)")
    play.add_argument("--user-id", type=int, default=1, help="your wallet id (default 1)")
    play.add_argument("--seed", type=int, default=None, help="shuffle seed, for a repeatable deal")
    play.add_argument("--no-timer", action="store_true",
                      help="no turn timer: the trustee never moves for you, no countdown")
    play.add_argument("--lang", default="zh-CN", choices=("zh-CN", "zh-TW", "en-US"),
                      help="the language of the table (default zh-CN)")
    play.add_argument("--level", default="normal", choices=("easy", "normal", "hard"),
                      help="the bots' trustee level (default normal)")
    play.add_argument("--web", action="store_true",
                      help="play in the local browser instead of this terminal")
    play.add_argument("--port", type=int, default=None, metavar="N",
                      help="with --web: the local port (default [web] port; 0: any free one)")
    play.add_argument("--no-browser", action="store_true",
                      help="with --web: print the page's link, open no browser")
    play.set_defaults(func=cmd_play)
    sub.add_parser("games", help="list games and rooms").set_defaults(func=cmd_games)
    verify = sub.add_parser("verify", help="re-deal a finished hand and check its shuffle")
    verify.add_argument("code", help="the hand's replay code")
    verify.add_argument("--commitment", default=None, help="the digest shown at the deal")
    verify.set_defaults(func=cmd_verify)
    args = parser.parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    raise SystemExit(main())
