"""Settings: config/default.toml as shipped, the overlay, secrets from the environment, and a
clear error naming the key for every kind of invalid setting."""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest

from bot.settings import (
    DEFAULT_CONFIG,
    MAX_BEANS,
    MAX_COEFFICIENT,
    Room,
    Settings,
    SettingsError,
    load_settings,
)
from engines import registry

GAMES = tuple(registry.specs())


def overlay(tmp_path: Path, text: str) -> Settings:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return load_settings(environ={"GAMEHALL_CONFIG": str(path)}, known_games=GAMES)


def error(tmp_path: Path, text: str) -> SettingsError:
    with pytest.raises(SettingsError) as err:
        overlay(tmp_path, text)
    return err.value


def test_defaults_load_and_validate_against_the_game_keys() -> None:
    settings = load_settings(environ={}, known_games=GAMES)
    assert DEFAULT_CONFIG.is_file()
    assert settings.database == Path("data/gamehall.db")
    assert settings.locale_default == "zh-CN" and settings.token is None
    assert settings.starting_grant > 0 and settings.synchronous == "normal"
    assert settings.relief.amount > 0 and settings.relief.cooldown_seconds == 24 * 3600
    assert settings.trustee_after_misses == 2
    assert settings.timer("bid") == settings.timers["bid"]
    assert settings.timer("no-such-phase") == settings.timers["default"]
    for phase in ("default", "bid", "grab", "show", "double", "play", "bet", "split", "move"):
        assert settings.timers[phase] > 0
    used = {game for room in settings.rooms.values() for game in room.games}
    assert used == set(GAMES)


def test_seeded_rooms() -> None:
    rooms = load_settings(environ={}).rooms
    # 二人麻将's tiers: beans per point, entry minimum and maximum
    tiers = {
        "novice": ("新手场", 50, 1_000, 60_000),
        "regular": ("普通场", 200, 5_000, 80_000),
        "junior": ("初级场", 500, 10_000, 100_000),
        "intermediate": ("中级场", 2_000, 50_000, 1_000_000),
        "senior": ("高级场", 6_000, 200_000, 2_000_000_000),
    }
    for key, (name, n, low, high) in tiers.items():
        room = rooms[key]
        assert (room.name_zh, room.coefficient, room.min_beans, room.max_beans) == (
            name,
            n,
            low,
            high,
        )
        assert 0 < room.rake < n  # a fee below one point's worth
    # 面对面 金币场: N and entry, no rake (F4)
    for key, n, entry in (
        ("coin_low", 2, 5_400),
        ("coin_mid", 10, 26_000),
        ("coin_high", 50, 130_000),
    ):
        assert (rooms[key].coefficient, rooms[key].min_beans, rooms[key].rake) == (n, entry, 0)
    free = rooms["free"]
    assert (free.coefficient, free.rake, free.min_beans) == (0, 0, 0) and free.score_only
    assert set(free.games) == set(GAMES)
    assert all(room.name_en for room in rooms.values())
    assert (
        rooms["novice"].name("en-US") == "Novice room" and rooms["novice"].name("zh-CN") == "新手场"
    )


def test_every_seed_level_table_is_data() -> None:
    levels = load_settings(environ={}).levels
    sizes = {
        "doudizhu": 23,
        "mianduimian": 22,
        "sichuan": 18,
        "shaanxi": 17,
        "wuhan": 15,
        "erren_mahjong": 16,
        "gomoku": 18,
        "gouji": 1,
    }
    assert {name: len(rows) for name, rows in levels.items()} == sizes
    assert levels["doudizhu"][0][1] == "包身工" and levels["doudizhu"][-1] == (70_000, "帝王")
    assert levels["mianduimian"][-1] == (100_000_000, "帝王")
    assert levels["sichuan"][0] == (100, "初品益都红")
    assert levels["shaanxi"][-1] == (2_000_000, "雀神")
    assert levels["wuhan"][-1] == (200_000_000, "超级九头鸟")
    assert levels["erren_mahjong"][-1] == (200_000, "自摸王")
    assert levels["gomoku"][0] == (-800, "9级") and levels["gomoku"][-1] == (900, "9段")
    assert levels["gouji"][0][1] == "列兵"
    for rows in levels.values():
        assert [m for m, _ in rows] == sorted({m for m, _ in rows})


def test_settings_are_frozen() -> None:
    settings = load_settings(environ={})
    with pytest.raises(dataclasses.FrozenInstanceError):
        settings.starting_grant = 5  # type: ignore[misc]
    with pytest.raises(TypeError):
        settings.rooms["x"] = settings.rooms["free"]  # type: ignore[index]
    with pytest.raises(TypeError):
        settings.timers["bid"] = 1  # type: ignore[index]


def test_overlay_merges_table_by_table(tmp_path: Path) -> None:
    settings = overlay(
        tmp_path,
        """
        [relief]
        amount = 3000

        [timers]
        bid = 5

        [rooms.novice]
        rake = 0
        games = ["gomoku"]

        [rooms.novice.options.gomoku]
        mode = "renju"

        [rooms.senior]
        enabled = false

        [rooms.vip]
        name_zh = "贵宾场"
        name_en = "VIP room"
        coefficient = 100000
        rake = 1000
        min_beans = 1000000
        max_beans = 10000000
        games = ["doudizhu"]

        [levels]
        mine = [[0, "a"], [5, "b"]]
        """,
    )
    assert settings.relief.amount == 3000 and settings.relief.threshold == 1000  # kept
    assert settings.timers["bid"] == 5 and settings.timers["play"] == 30
    novice = settings.rooms["novice"]
    assert (novice.rake, novice.coefficient, novice.games) == (0, 50, ("gomoku",))
    assert dict(novice.options["gomoku"]) == {"mode": "renju"}
    assert "senior" not in settings.rooms
    assert settings.disabled_rooms["senior"].coefficient == 6000  # disabled, not removed
    assert "vip" not in settings.disabled_rooms
    assert settings.rooms["vip"] == Room(
        "vip", "贵宾场", "VIP room", 100000, 1000, 1000000, 10000000, ("doudizhu",), {}
    )
    assert settings.levels["mine"] == ((0, "a"), (5, "b")) and "doudizhu" in settings.levels


def test_path_argument_and_secrets_from_the_environment(tmp_path: Path) -> None:
    mine = tmp_path / "a.toml"
    mine.write_text("[hall]\nstarting_grant = 7\n", encoding="utf-8")
    other = tmp_path / "b.toml"
    other.write_text("[hall]\nstarting_grant = 9\n", encoding="utf-8")
    settings = load_settings(
        mine,
        environ={
            "GAMEHALL_CONFIG": str(other),
            "DISCORD_TOKEN": " abc.def ",
            "GAMEHALL_DB": "/var/lib/hall.db",
        },
    )
    assert settings.starting_grant == 7  # the argument wins over GAMEHALL_CONFIG
    assert settings.token == "abc.def"
    assert settings.database == Path("/var/lib/hall.db")
    assert load_settings(environ={"DISCORD_TOKEN": "  "}).token is None


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        # unknown keys
        ("colour = 1", "colour", "unknown key"),
        ("[hall]\ndatabse = 'x.db'", "hall.databse", "unknown key"),
        ("[rooms.free]\nrakee = 1", "rooms.free.rakee", "unknown key"),
        ("[relief]\nhours = 3", "relief.hours", "unknown key"),
        # wrong types: bool is not an int, nor a float or a string
        ("[hall]\nstarting_grant = true", "hall.starting_grant", "must be an integer"),
        ("[hall]\nstarting_grant = '100'", "hall.starting_grant", "must be an integer"),
        ("[hall]\nstarting_grant = 1.5", "hall.starting_grant", "must be an integer"),
        ("[rooms.free]\ncoefficient = false", "rooms.free.coefficient", "must be an integer"),
        ("[relief]\ncooldown_hours = true", "relief.cooldown_hours", "must be a number"),
        ("[hall]\ndatabase = 5", "hall.database", "must be a string"),
        ("hall = 5", "hall", "must be a table"),
        ("[rooms.free]\nenabled = 'no'", "rooms.free.enabled", "true or false"),
        ("[rooms.free]\noptions = 3", "rooms.free.options", "per-game tables"),
        ("[rooms.free.options]\ngomoku = 3", "rooms.free.options.gomoku", "table of options"),
        # negative or impossible values
        ("[rooms.novice]\ncoefficient = -1", "rooms.novice.coefficient", "must be >= 0, got -1"),
        ("[rooms.novice]\nrake = -5", "rooms.novice.rake", "must be >= 0"),
        ("[rooms.novice]\nmin_beans = -5", "rooms.novice.min_beans", "must be >= 0"),
        ("[hall]\nstarting_grant = -1", "hall.starting_grant", "must be >= 0"),
        ("[relief]\namount = -1", "relief.amount", "must be >= 0"),
        ("[relief]\ncooldown_hours = -0.5", "relief.cooldown_hours", "must be >= 0"),
        ("[timers]\nplay = 0", "timers.play", "must be >= 1"),
        ("[timers]\ntrustee_after_misses = 0", "timers.trustee_after_misses", "must be >= 1"),
        ("[timers]\nPlay = 5", "timers.Play", "phase key"),
        ("[rooms.novice]\nmin_beans = 70000", "rooms.novice.min_beans", "min_beans 70000 > max"),
        ("[rooms.free]\nrake = 5", "rooms.free.rake", "score-only room"),
        ("[hall]\nlocale_default = 'fr-FR'", "hall.locale_default", "must be one of"),
        ("[hall]\nsynchronous = 'off'", "hall.synchronous", "must be one of"),
        ("[hall]\ndatabase = ''", "hall.database", "must not be empty"),
        # more than settlement can hold: one hall maximum for beans, MAX_BEANS = 10**15
        (
            "[hall]\nstarting_grant = 1000000000000001",
            "hall.starting_grant",
            "must be <= 1000000000000000 (MAX_BEANS",
        ),
        ("[relief]\namount = 1000000000000001", "relief.amount", "MAX_BEANS"),
        ("[relief]\nthreshold = 9223372036854775807", "relief.threshold", "MAX_BEANS"),
        ("[rooms.senior]\nmax_beans = 1000000000000001", "rooms.senior.max_beans", "MAX_BEANS"),
        ("[rooms.senior]\nmin_beans = 1000000000000001", "rooms.senior.min_beans", "MAX_BEANS"),
        ("[rooms.senior]\nrake = 1000000000000001", "rooms.senior.rake", "MAX_BEANS"),
        ("[rooms.novice]\nrake = 60001", "rooms.novice.rake", "rake 60001 > max_beans 60000"),
        (
            "[rooms.senior]\ncoefficient = 1000000001",
            "rooms.senior.coefficient",
            "must be <= 1000000000",
        ),
        pytest.param(
            "[hall]\nstarting_grant = " + "9" * 400,
            "hall.starting_grant",
            "got a 400-digit number",
            id="starting_grant-400-digits",
        ),
        ("[timers]\nplay = 86401", "timers.play", "must be <= 86400"),
        pytest.param(
            "[timers]\ndefault = 1" + "0" * 400,
            "timers.default",
            "must be <= 86400",
            id="timer-401-digits",
        ),
        ("[relief]\ncooldown_hours = inf", "relief.cooldown_hours", "must be <= 8760"),
        ("[relief]\ncooldown_hours = nan", "relief.cooldown_hours", "must be <= 8760"),
        # games
        ("[rooms.free]\ngames = []", "rooms.free.games", "at least one game"),
        ("[rooms.free]\ngames = 'gomoku'", "rooms.free.games", "list of game keys"),
        ("[rooms.free]\ngames = ['gomoku', 'gomoku']", "rooms.free.games", "twice"),
        ("[rooms.free]\ngames = ['chess']", "rooms.free.games", "unknown game 'chess'"),
        (
            "[rooms.coin_low.options.gomoku]\nx = 1",
            "rooms.coin_low.options.gomoku",
            "does not list",
        ),
        ("[rooms.New]\nname_zh = 'x'", "rooms.New", "room key"),
        ("[rooms.x]\nname_zh = 'x'", "rooms.x.coefficient", "missing"),
        # levels
        ("[levels]\ndoudizhu = [[10, 'a'], [5, 'b']]", "levels.doudizhu[1]", "not ascending"),
        ("[levels]\ndoudizhu = [[10, 'a'], [10, 'b']]", "levels.doudizhu[1]", "not ascending"),
        ("[levels]\ndoudizhu = []", "levels.doudizhu", "non-empty array"),
        ("[levels]\ndoudizhu = [[10]]", "levels.doudizhu[0]", "[min_score"),
        ("[levels]\ndoudizhu = [[true, 'a']]", "levels.doudizhu[0]", "[min_score"),
        ("[levels]\ndoudizhu = [[1, '']]", "levels.doudizhu[0]", "[min_score"),
        # secrets never come from files
        ("[hall]\ntoken = 'abc'", "hall.token", "DISCORD_TOKEN"),
        ("token = 'abc'", "token", "DISCORD_TOKEN"),
    ],
)
def test_invalid_settings_name_the_key_and_the_problem(
    tmp_path: Path, text: str, key: str, problem: str
) -> None:
    err = error(tmp_path, text)
    assert err.key == key
    assert problem in err.problem
    assert str(err).startswith(f"{key}: ")


def test_amounts_up_to_the_hall_maximum_are_accepted(tmp_path: Path) -> None:
    settings = overlay(
        tmp_path,
        f"""
        [hall]
        starting_grant = {MAX_BEANS}
        [relief]
        amount = {MAX_BEANS}
        threshold = {MAX_BEANS}
        [rooms.senior]
        coefficient = {MAX_COEFFICIENT}
        rake = {MAX_BEANS}
        min_beans = {MAX_BEANS}
        max_beans = {MAX_BEANS}
        """,
    )
    assert settings.starting_grant == settings.relief.amount == MAX_BEANS == 10**15
    senior = settings.rooms["senior"]
    assert (senior.coefficient, senior.rake, senior.max_beans) == (10**9, 10**15, 10**15)


def test_huge_numbers_give_one_short_line(tmp_path: Path) -> None:
    err = error(tmp_path, "[hall]\nstarting_grant = " + "7" * 4000)
    assert len(str(err)) < 200 and "\n" not in str(err)
    mine = tmp_path / "long.toml"
    mine.write_text("[hall]\nstarting_grant = " + "7" * 4400 + "\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="more than 4300 digits") as raised:
        load_settings(mine, environ={})
    assert len(str(raised.value)) < 200 + len(str(mine))


def specs_overlay(tmp_path: Path, text: str) -> Settings:
    path = tmp_path / "mine.toml"
    path.write_text(text, encoding="utf-8")
    return load_settings(path, environ={}, known_games=registry.specs())


def test_the_registry_specs_validate_every_enabled_room(tmp_path: Path) -> None:
    settings = load_settings(environ={}, known_games=registry.specs())
    assert settings.rooms["renju_swap"].options["gomoku"]["opening"] == "swap3"
    # a key the engine does not know, or a value of the wrong type, names the option
    with pytest.raises(SettingsError) as err:
        specs_overlay(tmp_path, "[rooms.novice.options.doudizhu]\nwild = true\n")
    assert err.value.key == "rooms.novice.options.doudizhu.wild"
    with pytest.raises(SettingsError) as err:
        specs_overlay(tmp_path, "[rooms.regular.options.douniu]\nbase = 'ten'\n")
    assert err.value.key == "rooms.regular.options.douniu.base"
    # the keys alone (as before) check the game names but not the options
    path = tmp_path / "mine.toml"
    path.write_text("[rooms.regular.options.douniu]\nbase = 'ten'\n", encoding="utf-8")
    assert load_settings(path, environ={}, known_games=registry.specs().keys()).rooms["regular"]
    # a disabled room seats no new hand: its options are not put to the engines
    disabled = specs_overlay(
        tmp_path, "[rooms.regular]\nenabled = false\n[rooms.regular.options.douniu]\nbase = 'x'\n"
    )
    assert "regular" in disabled.disabled_rooms and "regular" not in disabled.rooms


def test_coefficient_times_the_largest_loss_of_a_hand_stays_within_max_beans(
    tmp_path: Path,
) -> None:
    # 斗牛 with 底分 50000 can cost one seat 25 × 50000 points in a six-seat hand; at N = 10**9
    # that is 1.25 × 10**15 beans, more than settlement can hold
    text = "[rooms.novice]\ncoefficient = 1000000000\n[rooms.novice.options.douniu]\nbase = 50000\n"
    with pytest.raises(SettingsError) as err:
        specs_overlay(tmp_path, text)
    assert err.value.key == "rooms.novice.coefficient"
    assert "douniu" in err.value.problem and "1250000" in err.value.problem
    # the same options at N = 10**6 stay within it
    fine = specs_overlay(tmp_path, text.replace("1000000000", "1000000"))
    assert fine.rooms["novice"].options["douniu"]["base"] == 50000


def test_the_token_never_appears_in_the_text_form() -> None:
    token = "MTIzNDU2Nzg5.Gh7x_secret_part"
    settings = load_settings(environ={"DISCORD_TOKEN": token})
    assert settings.token == token
    for text in (repr(settings), str(settings), f"{settings}", f"{settings!r}"):
        assert token not in text and "secret_part" not in text
        assert "starting_grant=10000" in text  # the rest is still there to log


def test_config_files_that_cannot_be_read(tmp_path: Path) -> None:
    gbk = tmp_path / "gbk.toml"  # saved by an editor in the Chinese Windows code page
    gbk.write_bytes('[rooms.novice]\nname_zh = "新手场"\n'.encode("gbk"))
    with pytest.raises(SettingsError) as err:
        load_settings(environ={"GAMEHALL_CONFIG": str(gbk)})
    assert err.value.key == "GAMEHALL_CONFIG"
    assert "not UTF-8" in err.value.problem and "line 2" in err.value.problem
    with pytest.raises(SettingsError, match="is a directory"):
        load_settings(environ={"GAMEHALL_CONFIG": str(tmp_path)})
    with pytest.raises(SettingsError, match="cannot read config file"):
        load_settings(environ={"GAMEHALL_CONFIG": str(gbk / "mine.toml")})
    # a byte-order mark, as Windows editors write, is still UTF-8
    bom = tmp_path / "bom.toml"
    bom.write_bytes(b"\xef\xbb\xbf[hall]\nstarting_grant = 5\n")
    assert load_settings(bom, environ={}).starting_grant == 5


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads any file")
def test_a_config_file_without_read_permission(tmp_path: Path) -> None:
    secret = tmp_path / "secret.toml"
    secret.write_text("[hall]\nstarting_grant = 5\n", encoding="utf-8")
    secret.chmod(0)
    with pytest.raises(SettingsError, match="cannot read config file"):
        load_settings(environ={"GAMEHALL_CONFIG": str(secret)})


def test_missing_tables_and_keys(tmp_path: Path) -> None:
    # an overlay cannot delete keys, so check the builder on a bare file via the timers table
    err = error(tmp_path, "[timers]\ndefault = 'x'")
    assert err.key == "timers.default"
    disabled = "\n".join(f"[rooms.{k}]\nenabled = false" for k in load_settings(environ={}).rooms)
    err = error(tmp_path, disabled)
    assert err.key == "rooms" and "at least one room" in err.problem


def test_unknown_game_only_checked_when_known_games_given(tmp_path: Path) -> None:
    path = tmp_path / "g.toml"
    path.write_text("[rooms.free]\ngames = ['chess']\n", encoding="utf-8")
    assert load_settings(path, environ={}).rooms["free"].games == ("chess",)
    with pytest.raises(SettingsError, match="known: .*doudizhu"):
        load_settings(path, environ={}, known_games=GAMES)


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(SettingsError, match="config file not found"):
        load_settings(environ={"GAMEHALL_CONFIG": str(tmp_path / "nope.toml")})
    bad = tmp_path / "bad.toml"
    bad.write_text("[hall\n", encoding="utf-8")
    with pytest.raises(SettingsError, match="not valid TOML"):
        load_settings(bad, environ={})


def test_level_tables_named_by_games_must_exist() -> None:
    tables = ("doudizhu", "mianduimian", "gomoku")
    assert load_settings(environ={}, level_tables=tables).levels.keys() >= set(tables)
    with pytest.raises(SettingsError) as err:
        load_settings(environ={}, level_tables=("doudizhu", "chess"))
    assert err.value.key == "levels.chess" and "missing" in err.value.problem


def test_wallet_scope_is_per_server_by_default_and_can_be_global(tmp_path) -> None:
    from bot.settings import SettingsError, load_settings

    settings = load_settings(environ={})
    assert settings.wallet_scope == "server"
    assert settings.economy(123) == 123
    mine = tmp_path / "mine.toml"
    mine.write_text('[hall]\nwallet_scope = "global"\n', encoding="utf-8")
    assert load_settings(mine, environ={}).economy(123) == 0
    mine.write_text('[hall]\nwallet_scope = "planet"\n', encoding="utf-8")
    import pytest

    with pytest.raises(SettingsError, match="hall.wallet_scope"):
        load_settings(mine, environ={})


def test_the_auto_pass_delay_is_a_timer_setting(tmp_path: Path) -> None:
    assert load_settings(environ={}).autopass_delay == 2
    assert overlay(tmp_path, "[timers]\nautopass = 5\n").autopass_delay == 5
    assert "autopass" not in overlay(tmp_path, "[timers]\nautopass = 5\n").timers
    with pytest.raises(SettingsError, match="timers.autopass"):
        overlay(tmp_path, "[timers]\nautopass = 0\n")


def test_a_tables_timer_scale_has_configured_bounds(tmp_path: Path) -> None:
    assert load_settings(environ={}).table_scale == (50, 300)
    mine = overlay(tmp_path, "[timers]\ntable_scale_min = 25\ntable_scale_max = 400\n")
    assert mine.table_scale == (25, 400)
    assert "table_scale_min" not in mine.timers and "table_scale_max" not in mine.timers
    with pytest.raises(SettingsError, match="timers.table_scale_min"):
        overlay(tmp_path, "[timers]\ntable_scale_min = 150\n")  # 100 % must stay possible
    with pytest.raises(SettingsError, match="timers.table_scale_max"):
        overlay(tmp_path, "[timers]\ntable_scale_max = 5000\n")


def test_a_room_sets_the_trustee_level_for_the_people_it_covers(tmp_path: Path) -> None:
    """trustee_level: normal unless the room says otherwise; a bad value names the key, the
    levels and what was given."""
    defaults = load_settings(environ={}, known_games=GAMES)
    assert all(room.trustee_level == "normal" for room in defaults.rooms.values())
    settings = overlay(tmp_path, "[rooms.free]\ntrustee_level = 'hard'")
    assert settings.rooms["free"].trustee_level == "hard"
    assert settings.rooms["novice"].trustee_level == "normal"
    for bad in ("'expert'", "3", "'HARD'"):
        exc = error(tmp_path, f"[rooms.free]\ntrustee_level = {bad}")
        assert exc.key == "rooms.free.trustee_level"
        assert "easy, normal, hard" in exc.problem and bad.strip("'") in exc.problem
