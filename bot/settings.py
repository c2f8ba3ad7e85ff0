"""设置: the hall's settings, loaded once into frozen values and passed down.

``config/default.toml`` holds every tunable (documented in place). A user file named by
``GAMEHALL_CONFIG`` (or the ``path`` argument) is merged over it table by table; secrets come
only from the environment: ``DISCORD_TOKEN`` (the bot token) and ``GAMEHALL_DB`` (overrides the
database path). Anything invalid raises :class:`SettingsError` naming the dotted key and the
problem, so start-up stops with one readable line::

    rooms.novice.coefficient: must be >= 0, got -1

Numbers are bounded where they enter: every bean amount is at most :data:`MAX_BEANS` (the bound
the wallet keeps on balances too), a room's coefficient at most :data:`MAX_COEFFICIENT`, and N
times the most points a game's hand can cost one seat at most ``MAX_BEANS``.

This module names no game: game keys are checked against ``known_games`` when the caller passes
them; when it passes the registry's specs (key → GameSpec), every enabled room's options are also
validated by each game it lists (``GameSpec.validate``, which asks the engine's
``check_options``), and each game's level table must exist.
"""

from __future__ import annotations

import os
import re
import tomllib
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from types import MappingProxyType
from typing import Any, TypedDict

from bot.i18n import pick_name
from engines.base import LEVELS, NORMAL, GameSpec
from engines.errors import OptionError

DEFAULT_CONFIG = Path(__file__).resolve().parents[1] / "config" / "default.toml"
LOCALES = ("zh-CN", "en-US", "zh-TW")
SYNCHRONOUS = ("normal", "full")
WALLET_SCOPES = ("server", "global")

MAX_BEANS = 10**15
"""The hall's largest bean amount (balances, grants, relief, rakes, entry limits, one hand's
cost). Far below SQLite's 2**63: a sum of thousands of the largest balances still fits."""
MAX_COEFFICIENT = 10**9
"""The largest room coefficient N (beans per point)."""
MAX_TIMER_SECONDS = 86_400
"""The longest turn timer: one day."""
MAX_TABLE_SCALE = 1000
"""The most a table may stretch its phases' times, in percent (ten times the configured time)."""
MAX_COOLDOWN_HOURS = 8_760
"""The longest relief cooldown: one year."""

_KEY = re.compile(r"^[a-z][a-z0-9_]*$")


class SettingsError(ValueError):
    """An invalid setting: ``key`` is the dotted key ("rooms.free.rake"), ``problem`` says
    what is wrong."""

    def __init__(self, key: str, problem: str) -> None:
        self.key = key
        self.problem = problem
        super().__init__(f"{key}: {problem}" if key else problem)


@dataclass(frozen=True)
class Relief:
    """低保: ``amount`` beans for a balance below ``threshold``, once per ``cooldown_hours``."""

    amount: int
    threshold: int
    cooldown_hours: float

    @property
    def cooldown_seconds(self) -> float:
        return self.cooldown_hours * 3600.0


@dataclass(frozen=True)
class Room:
    """场: a room's coefficient N, rake A, entry limits, games and per-game engine options."""

    key: str
    name_zh: str
    name_en: str
    coefficient: int
    rake: int
    min_beans: int
    max_beans: int
    games: tuple[str, ...]
    options: Mapping[str, Mapping[str, Any]]
    trustee_level: str = NORMAL
    """托管水平 for the people the trustee plays for here (``engines.base.LEVELS``)."""

    @property
    def score_only(self) -> bool:
        """积分场: N = 0, no beans move."""
        return self.coefficient == 0

    def name(self, locale: str) -> str:
        return pick_name(self.name_zh, self.name_en, locale)


@dataclass(frozen=True)
class WebSettings:
    """网页牌桌 (``[web]``): the seat, spectator, replay and leaderboard pages (bot/web).

    ``base_url``: where people reach the server, for the links the bot sends (a reverse
    proxy's address); "" means ``http://bind:port``. The signing secret is never here: it
    comes from ``GAMEHALL_WEB_SECRET``, or is generated into ``secret_file`` on first run."""

    enabled: bool = False
    bind: str = "127.0.0.1"
    port: int = 8750
    base_url: str = ""
    secret_file: str = "data/web-secret"
    link_hours: int = 12
    actions_per_second: int = 5

    @property
    def public_url(self) -> str:
        """The links' base, without a trailing slash."""
        return self.base_url or f"http://{self.bind}:{self.port}"


@dataclass(frozen=True)
class Settings:
    """Everything tunable, validated. ``levels``: table name → ((min_score, title), ...).

    ``rooms`` holds the enabled rooms; ``disabled_rooms`` those the config lists with
    ``enabled = false`` (so a restored table can tell a disabled room from a removed one).
    The token never appears in the text form (``repr``/``str``), so logging settings is safe.
    """

    database: Path | str  # a SQLite file, or a postgresql:// URL (storage.db.database_target)
    starting_grant: int
    locale_default: str
    relief: Relief
    timers: Mapping[str, int]
    trustee_after_misses: int
    rooms: Mapping[str, Room]
    levels: Mapping[str, tuple[tuple[int, str], ...]]
    token: str | None = field(default=None, repr=False)
    synchronous: str = "normal"
    wallet_scope: str = "server"
    autopass_delay: int = 2
    """Seconds before 要不起 auto-pass passes for a seat that may only pass (``timers.autopass``)."""
    table_scale: tuple[int, int] = (50, 300)
    """The percent of every phase's time a table's creator may choose, lowest and highest
    (``timers.table_scale_min``/``table_scale_max``; /table settings)."""
    disabled_rooms: Mapping[str, Room] = field(default_factory=lambda: MappingProxyType({}))
    metrics_port: int = 0
    """The port of the Prometheus metrics endpoint (``metrics.port``); 0: no endpoint."""
    health_seconds: int = 60
    """Seconds between two health lines in the log (``metrics.health_seconds``); 0: none."""
    shard_count: int | None = None
    """分片: Discord shards of the whole bot (``gamehall run --shard-count``); None: no sharding,
    this one process serves every server."""
    shard_ids: tuple[int, ...] | None = None
    """The shards this process runs (``gamehall run --shards``); None: all of them."""
    web: WebSettings = field(default_factory=lambda: WebSettings())
    """The web table (``[web]``): off unless enabled."""

    def owns(self, guild_id: int) -> bool:
        """Whether this process serves server ``guild_id``: its shard (Discord's formula,
        :func:`shard_of`) is one of this process's shards."""
        if self.shard_count is None or self.shard_ids is None:
            return True
        return shard_of(guild_id, self.shard_count) in self.shard_ids

    def economy(self, guild_id: int | None) -> int:
        """The economy (wallet scope) a server's tables, wallets and levels belong to: the
        server's own id when ``wallet_scope`` is "server", else 0, the one global economy."""
        return guild_id or 0 if self.wallet_scope == "server" else 0

    def timer(self, phase: str) -> int:
        """Seconds allowed in ``phase``; phases not configured use ``timers.default``."""
        return self.timers.get(phase, self.timers["default"])


# --- loading --------------------------------------------------------------------------------


def load_settings(
    path: Path | None = None,
    *,
    environ: Mapping[str, str] = os.environ,
    known_games: Collection[str] | Mapping[str, GameSpec] | None = None,
    level_tables: Collection[str] | None = None,
) -> Settings:
    """Read the defaults, overlay ``path`` (else ``$GAMEHALL_CONFIG``), validate, add secrets.

    ``known_games``: when given, every game a room lists must be one of them. When it is a
    mapping key → GameSpec (``registry.specs()``), each enabled room's options for each game it
    lists go through ``GameSpec.validate``, N × the game's ``max_loss`` must stay within
    MAX_BEANS, and each game's ``level_table`` must exist.
    ``level_tables``: when given (the games' ``GameSpec.level_table``), each must exist.
    Raises SettingsError (a ValueError) naming the key and the problem.
    """
    data = _read_toml(DEFAULT_CONFIG, "")
    if path is not None:
        data = _merge(data, _read_toml(Path(path), ""))
    elif environ.get("GAMEHALL_CONFIG"):
        data = _merge(data, _read_toml(Path(environ["GAMEHALL_CONFIG"]), "GAMEHALL_CONFIG"))
    specs = known_games if isinstance(known_games, Mapping) else None
    settings = _build(data, known_games, specs)
    tables = set(level_tables or ()) | {spec.level_table for spec in (specs or {}).values()}
    for table in sorted(tables):
        if table not in settings.levels:
            raise SettingsError(f"levels.{table}", "missing (a game names it as its level table)")
    db = environ.get("GAMEHALL_DB")
    token = (environ.get("DISCORD_TOKEN") or "").strip()
    return replace(
        settings,
        database=_database_target(db, "GAMEHALL_DB") if db else settings.database,
        token=token or None,
    )


def _read_toml(path: Path, source: str) -> dict[str, Any]:
    """The TOML table in ``path``; SettingsError (keyed by ``source``, the environment variable
    that named the file, if any) for a file that cannot be read, is not UTF-8 or not TOML."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        raise SettingsError(source, f"config file not found: {path}") from None
    except IsADirectoryError:
        raise SettingsError(source, f"{path} is a directory, not a config file") from None
    except OSError as e:
        raise SettingsError(source, f"cannot read config file {path}: {e.strerror or e}") from None
    try:
        text = raw.decode("utf-8-sig")  # a byte-order mark (Windows editors) is not an error
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise SettingsError(
            source,
            f"{path} is not UTF-8 text (byte 0x{raw[e.start]:02x} on line {line}); "
            "save it as UTF-8",
        ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SettingsError(source, f"{path} is not valid TOML: {e}") from None
    except ValueError:  # Python's int() refuses more than 4300 digits
        raise SettingsError(source, f"{path} holds an integer of more than 4300 digits") from None


def _merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """Deep merge: tables merge key by key; any other value (arrays too) replaces."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = value
    return merged


# --- validation -----------------------------------------------------------------------------

_TOP = {"hall", "relief", "timers", "rooms", "levels", "metrics", "web"}
_HALL = {"database", "synchronous", "starting_grant", "locale_default", "wallet_scope"}
_RELIEF = {"amount", "threshold", "cooldown_hours"}
_ROOM = {
    "name_zh",
    "name_en",
    "coefficient",
    "rake",
    "min_beans",
    "max_beans",
    "games",
    "options",
    "enabled",
    "trustee_level",
}
_SECRETS = {"token", "discord_token", "password", "secret"}


def _build(
    data: Mapping[str, Any],
    known_games: Collection[str] | None,
    specs: Mapping[str, GameSpec] | None,
) -> Settings:
    _only(data, _TOP, "")
    hall = _table(data, "hall")
    _only(hall, _HALL, "hall")
    relief = _table(data, "relief")
    _only(relief, _RELIEF, "relief")
    synchronous = _str(hall, "synchronous", "hall")
    if synchronous not in SYNCHRONOUS:
        raise SettingsError(
            "hall.synchronous", f"must be one of {SYNCHRONOUS}, got {synchronous!r}"
        )
    locale = _str(hall, "locale_default", "hall")
    if locale not in LOCALES:
        raise SettingsError("hall.locale_default", f"must be one of {LOCALES}, got {locale!r}")
    scope = hall.get("wallet_scope", "server")
    if scope not in WALLET_SCOPES:
        raise SettingsError("hall.wallet_scope", f"must be one of {WALLET_SCOPES}, got {scope!r}")
    database = _str(hall, "database", "hall")
    if not database:
        raise SettingsError("hall.database", "must not be empty")
    timers, misses, autopass, scale = _timers(_table(data, "timers"))
    rooms, disabled = _rooms(_table(data, "rooms"), known_games, specs)
    return Settings(
        database=_database_target(database, "hall.database"),
        starting_grant=_beans(hall, "starting_grant", "hall"),
        locale_default=locale,
        relief=Relief(
            amount=_beans(relief, "amount", "relief"),
            threshold=_beans(relief, "threshold", "relief"),
            cooldown_hours=_number(
                relief, "cooldown_hours", "relief", minimum=0, maximum=MAX_COOLDOWN_HOURS
            ),
        ),
        timers=timers,
        trustee_after_misses=misses,
        autopass_delay=autopass,
        table_scale=scale,
        rooms=rooms,
        levels=_levels(_table(data, "levels")),
        synchronous=synchronous,
        wallet_scope=scope,
        disabled_rooms=disabled,
        **_metrics(data.get("metrics", {})),
        web=_web(data.get("web", {})),
    )


def _timers(table: Mapping[str, Any]) -> tuple[Mapping[str, int], int, int, tuple[int, int]]:
    misses = _int(table, "trustee_after_misses", "timers", minimum=1)
    autopass = (
        _int(table, "autopass", "timers", minimum=1, maximum=MAX_TIMER_SECONDS)
        if "autopass" in table else 2
    )
    low = (_int(table, "table_scale_min", "timers", minimum=1, maximum=MAX_TABLE_SCALE)
           if "table_scale_min" in table else 50)
    high = (_int(table, "table_scale_max", "timers", minimum=1, maximum=MAX_TABLE_SCALE)
            if "table_scale_max" in table else 300)
    if low > 100 or high < 100:
        # a table that keeps the configured times (100 %) must always be possible
        raise SettingsError("timers.table_scale_min", f"must be ≤ 100 ≤ table_scale_max, "
                            f"got {low} and {high}")
    timers: dict[str, int] = {}
    for phase in table:
        if phase in ("trustee_after_misses", "autopass", "table_scale_min", "table_scale_max"):
            continue
        if not _KEY.match(phase):
            raise SettingsError(f"timers.{phase}", "a phase key is lowercase letters, digits, _")
        timers[phase] = _int(table, phase, "timers", minimum=1, maximum=MAX_TIMER_SECONDS)
    if "default" not in timers:
        raise SettingsError("timers.default", "missing (the time for phases not listed)")
    return MappingProxyType(timers), misses, autopass, (low, high)


def _room_beans(room: Mapping[str, Any], where: str) -> tuple[int, int, int, int]:
    """A room's (coefficient, rake, min_beans, max_beans), checked against each other."""
    coefficient = _int(
        room,
        "coefficient",
        where,
        minimum=0,
        maximum=MAX_COEFFICIENT,
        why="MAX_COEFFICIENT, beans per point",
    )
    rake = _beans(room, "rake", where)
    min_beans = _beans(room, "min_beans", where)
    max_beans = _beans(room, "max_beans", where)
    if min_beans > max_beans:
        raise SettingsError(
            f"{where}.min_beans", f"min_beans {min_beans} > max_beans {max_beans}"
        )
    if coefficient == 0 and rake:
        raise SettingsError(f"{where}.rake", "a score-only room (coefficient 0) takes no rake")
    if rake > max_beans:
        raise SettingsError(
            f"{where}.rake",
            f"rake {rake} > max_beans {max_beans} (more than a seat may carry to the table)",
        )
    return coefficient, rake, min_beans, max_beans


def _room_games(
    room: Mapping[str, Any], where: str, known_games: Collection[str] | None
) -> tuple[list[str], dict[str, Any]]:
    """A room's games (known, none twice) and its per-game option tables (of games it lists)."""
    games = room.get("games")
    if games is None:
        raise SettingsError(f"{where}.games", "missing")
    if not isinstance(games, list) or not all(isinstance(g, str) for g in games):
        raise SettingsError(f"{where}.games", f"must be a list of game keys, got {games!r}")
    if not games:
        raise SettingsError(f"{where}.games", "must list at least one game")
    if len(set(games)) != len(games):
        raise SettingsError(f"{where}.games", "lists a game twice")
    if known_games is not None:
        for game in games:
            if game not in known_games:
                known = ", ".join(sorted(known_games)) or "none"
                raise SettingsError(f"{where}.games", f"unknown game {game!r} (known: {known})")
    options = room.get("options", {})
    if not isinstance(options, dict):
        raise SettingsError(f"{where}.options", "must be a table of per-game tables")
    for game, opts in options.items():
        if game not in games:
            raise SettingsError(
                f"{where}.options.{game}", "options for a game this room does not list"
            )
        if not isinstance(opts, dict):
            raise SettingsError(f"{where}.options.{game}", "must be a table of options")
    return games, options


def _rooms(
    table: Mapping[str, Any],
    known_games: Collection[str] | None,
    specs: Mapping[str, GameSpec] | None,
) -> tuple[Mapping[str, Room], Mapping[str, Room]]:
    """(enabled rooms, disabled rooms) by key, every one fully checked; the engines check the
    options of enabled rooms only (a disabled room seats no new hand)."""
    rooms: dict[str, Room] = {}
    disabled: dict[str, Room] = {}
    for key in table:
        where = f"rooms.{key}"
        if not _KEY.match(key):
            raise SettingsError(where, "a room key is lowercase letters, digits and _")
        room = _table(table, key, "rooms")
        _only(room, _ROOM, where)
        enabled = room.get("enabled", True)
        if not isinstance(enabled, bool):
            raise SettingsError(f"{where}.enabled", f"must be true or false, got {enabled!r}")
        coefficient, rake, min_beans, max_beans = _room_beans(room, where)
        games, options = _room_games(room, where, known_games)
        level = room.get("trustee_level", NORMAL)
        if level not in LEVELS:
            raise SettingsError(
                f"{where}.trustee_level",
                f"must be one of {', '.join(LEVELS)}, got {_kind(level)} {level!r}",
            )
        if enabled and specs is not None:
            for game in games:
                _check_game(where, specs[game], options.get(game, {}), coefficient)
        (rooms if enabled else disabled)[key] = Room(
            key=key,
            name_zh=_str(room, "name_zh", where),
            name_en=_str(room, "name_en", where),
            coefficient=coefficient,
            rake=rake,
            min_beans=min_beans,
            max_beans=max_beans,
            games=tuple(games),
            options=MappingProxyType({g: MappingProxyType(dict(o)) for g, o in options.items()}),
            trustee_level=level,
        )
    if not rooms:
        raise SettingsError("rooms", "at least one room must be enabled")
    return MappingProxyType(rooms), MappingProxyType(disabled)


def _check_game(where: str, spec: GameSpec, options: Mapping[str, Any], coefficient: int) -> None:
    """The engine accepts this room's options for ``spec``'s game, and N × the most points a
    hand can cost one seat (``GameSpec.max_loss``, at any seat count) stays within MAX_BEANS."""
    try:
        merged = spec.validate(options)
    except OptionError as e:
        option = f".{e.key}" if e.key else ""
        raise SettingsError(f"{where}.options.{spec.key}{option}", e.reason) from None
    losses = (spec.max_loss(merged, n) for n in range(spec.min_seats, spec.max_seats + 1))
    worst = max((loss for loss in losses if loss is not None), default=0)
    if coefficient * worst > MAX_BEANS:
        raise SettingsError(
            f"{where}.coefficient",
            f"{coefficient} beans per point × {worst} points (the most a {spec.key} hand can "
            f"cost one seat with this room's options) exceeds {MAX_BEANS} beans (MAX_BEANS)",
        )


def _levels(table: Mapping[str, Any]) -> Mapping[str, tuple[tuple[int, str], ...]]:
    levels: dict[str, tuple[tuple[int, str], ...]] = {}
    for name, rows in table.items():
        where = f"levels.{name}"
        if not _KEY.match(name):
            raise SettingsError(where, "a table name is lowercase letters, digits and _")
        if not isinstance(rows, list) or not rows:
            raise SettingsError(where, 'must be a non-empty array of [min_score, "title"]')
        parsed: list[tuple[int, str]] = []
        for i, row in enumerate(rows):
            ok = (
                isinstance(row, list)
                and len(row) == 2
                and _is_int(row[0])
                and isinstance(row[1], str)
                and row[1].strip()
            )
            if not ok:
                raise SettingsError(f"{where}[{i}]", f'must be [min_score, "title"], got {row!r}')
            if parsed and row[0] <= parsed[-1][0]:
                raise SettingsError(
                    f"{where}[{i}]",
                    f"not ascending: {row[0]} after {parsed[-1][0]} (minimum scores must rise)",
                )
            parsed.append((row[0], row[1]))
        levels[name] = tuple(parsed)
    return MappingProxyType(levels)


# --- small typed getters --------------------------------------------------------------------


def _only(table: Mapping[str, Any], allowed: set[str], where: str) -> None:
    for key in table:
        dotted = f"{where}.{key}" if where else key
        if key.lower() in _SECRETS:
            raise SettingsError(
                dotted, "secrets are not read from files; set DISCORD_TOKEN in the environment"
            )
        if key not in allowed:
            raise SettingsError(
                dotted, f"unknown key (expected one of: {', '.join(sorted(allowed))})"
            )


def _table(parent: Mapping[str, Any], key: str, where: str = "") -> Mapping[str, Any]:
    dotted = f"{where}.{key}" if where else key
    if key not in parent:
        raise SettingsError(dotted, "missing table")
    value = parent[key]
    if not isinstance(value, dict):
        raise SettingsError(dotted, f"must be a table, got {_kind(value)}")
    return value


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)  # bool is not an int here


def _int(
    table: Mapping[str, Any],
    key: str,
    where: str,
    *,
    minimum: int | None = None,
    maximum: int | None = None,
    why: str = "",
) -> int:
    """The integer at ``key``, within ``minimum``..``maximum`` (``why`` names the bound)."""
    dotted = f"{where}.{key}"
    if key not in table:
        raise SettingsError(dotted, "missing")
    value = table[key]
    if not _is_int(value):
        raise SettingsError(dotted, f"must be an integer, got {_kind(value)} {_short(value)}")
    if minimum is not None and value < minimum:
        raise SettingsError(dotted, f"must be >= {minimum}, got {_short(value)}")
    if maximum is not None and value > maximum:
        bound = f" ({why})" if why else ""
        raise SettingsError(dotted, f"must be <= {maximum}{bound}, got {_short(value)}")
    return int(value)


def _beans(table: Mapping[str, Any], key: str, where: str) -> int:
    """A bean amount: 0..MAX_BEANS."""
    return _int(
        table, key, where, minimum=0, maximum=MAX_BEANS, why="MAX_BEANS, the hall's largest amount"
    )


def _number(
    table: Mapping[str, Any], key: str, where: str, *, minimum: float, maximum: float
) -> float:
    dotted = f"{where}.{key}"
    if key not in table:
        raise SettingsError(dotted, "missing")
    value = table[key]
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise SettingsError(dotted, f"must be a number, got {_kind(value)} {_short(value)}")
    if value < minimum:
        raise SettingsError(dotted, f"must be >= {minimum}, got {_short(value)}")
    if not value <= maximum:  # also refuses nan
        raise SettingsError(dotted, f"must be <= {maximum}, got {_short(value)}")
    return float(value)


def _short(value: object) -> str:
    """``repr(value)``, cut so that a huge number or string keeps the message to one line."""
    text = repr(value)
    if _is_int(value) and len(text) > 30:
        return f"a {len(text.lstrip('-'))}-digit number"
    return text if len(text) <= 60 else text[:57] + "..."


def _str(table: Mapping[str, Any], key: str, where: str) -> str:
    dotted = f"{where}.{key}"
    if key not in table:
        raise SettingsError(dotted, "missing")
    value = table[key]
    if not isinstance(value, str):
        raise SettingsError(dotted, f"must be a string, got {_kind(value)} {value!r}")
    return value


def _kind(value: object) -> str:
    return {
        bool: "boolean",
        int: "integer",
        float: "float",
        str: "string",
        list: "array",
        dict: "table",
    }.get(type(value), type(value).__name__)


# --- metrics and shards -------------------------------------------------------------------------

_METRICS = {"port", "health_seconds"}
MAX_SHARDS = 65_536
"""The most shards a bot may be split into (far beyond Discord's largest bots)."""


class _Metrics(TypedDict):
    metrics_port: int
    health_seconds: int


def _metrics(table: object) -> _Metrics:
    """The ``[metrics]`` table: the endpoint's port (0 = off) and the health line's period."""
    if not isinstance(table, dict):
        raise SettingsError("metrics", f"must be a table, got {_kind(table)}")
    _only(table, _METRICS, "metrics")
    return {
        "metrics_port": _int(table, "port", "metrics", minimum=0, maximum=65_535)
        if "port" in table else 0,
        "health_seconds": _int(table, "health_seconds", "metrics", minimum=0,
                               maximum=MAX_TIMER_SECONDS)
        if "health_seconds" in table else 60,
    }


_WEB = {"enabled", "bind", "port", "base_url", "secret_file", "link_hours",
        "actions_per_second"}


def _web(table: object) -> WebSettings:
    """The ``[web]`` table: every key optional (WebSettings' defaults), each checked."""
    if not isinstance(table, dict):
        raise SettingsError("web", f"must be a table, got {_kind(table)}")
    _only(table, _WEB, "web")
    default = WebSettings()
    enabled = table.get("enabled", default.enabled)
    if not isinstance(enabled, bool):
        raise SettingsError("web.enabled", f"must be true or false, got {_short(enabled)}")
    bind = _str(table, "bind", "web") if "bind" in table else default.bind
    if not bind.strip():
        raise SettingsError("web.bind", "must be an address, e.g. 127.0.0.1")
    base = (_str(table, "base_url", "web") if "base_url" in table else "").strip().rstrip("/")
    if base and not re.fullmatch(r"https?://[^\s/?#]+(/[^\s?#]*)?", base):
        raise SettingsError("web.base_url", f"must be an http:// or https:// URL, got {base!r}")
    secret_file = (_str(table, "secret_file", "web") if "secret_file" in table
                   else default.secret_file)
    if not secret_file.strip():
        raise SettingsError("web.secret_file", "must be a file path")

    def number(key: str, low: int, high: int) -> int:
        return _int(table, key, "web", minimum=low, maximum=high) if key in table else int(
            getattr(default, key))

    return WebSettings(
        enabled=enabled, bind=bind.strip(), port=number("port", 1, 65_535), base_url=base,
        secret_file=secret_file, link_hours=number("link_hours", 1, 24 * 30),
        actions_per_second=number("actions_per_second", 1, 100),
    )


def shard_of(guild_id: int, shard_count: int) -> int:
    """分片: the shard that receives server ``guild_id``'s events, Discord's formula
    ``(guild_id >> 22) % shard_count``.

    >>> shard_of(41771983423143937, 8)
    6
    """
    return (guild_id >> 22) % shard_count


def parse_shards(text: str | None, count: int | None) -> tuple[int | None, tuple[int, ...] | None]:
    """``gamehall run --shards A-B --shard-count N`` → (shard_count, shard_ids).

    Neither: (None, None), one process and no sharding. A count alone runs all its shards in
    this process; a range needs the count. ``A-B`` is inclusive; a single ``A`` is one shard.
    Raises ValueError with a one-line message for anything else.

    >>> parse_shards("0-3", 8)
    (8, (0, 1, 2, 3))
    >>> parse_shards(None, 2)
    (2, (0, 1))
    """
    if count is None:
        if text is not None:
            raise ValueError("--shards needs --shard-count (the bot's total number of shards)")
        return None, None
    if not 1 <= count <= MAX_SHARDS:
        raise ValueError(f"--shard-count must be 1 to {MAX_SHARDS}, got {count}")
    if text is None:
        return count, tuple(range(count))
    found = re.fullmatch(r"\s*(\d{1,6})\s*(?:-\s*(\d{1,6})\s*)?", text)
    if found is None:
        raise ValueError(f"--shards must be a range like 0-3 or one shard like 5, got {text!r}")
    first = int(found[1])
    last = int(found[2]) if found[2] is not None else first
    if first > last:
        raise ValueError(f"--shards {text}: the range is backwards ({first} > {last})")
    if last >= count:
        raise ValueError(
            f"--shards {text}: shards are numbered 0 to {count - 1} with --shard-count {count}"
        )
    return count, tuple(range(first, last + 1))


def _database_target(value: str, key: str) -> Path | str:
    """A SQLite path (a path or ``sqlite:///path``) or a ``postgresql://`` URL; SettingsError
    naming ``key`` for another URL scheme."""
    from storage.db import database_target

    try:
        return database_target(value)
    except ValueError as exc:
        raise SettingsError(key, str(exc)) from exc
