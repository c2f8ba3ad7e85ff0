"""Text rendering of settlements, seats and private pickers, and Discord's size limits."""

from __future__ import annotations

import re

import discord

from bot.host.model import PLAYING, Seat, Table
from bot.host.tables import TableManager
from bot.render.limits import clip, fit, fit_embed
from bot.render.text import (
    error_text,
    hand_text,
    last_round_text,
    result_lines,
    round_lines,
    seat_detail,
    table_text,
)
from bot.settings import load_settings
from bot.terminal import TerminalNotifier
from bot.views.components import GatherSelect, PickSelect, TableButton, picker_items
from engines import registry
from engines.base import Picker, Play, SeatView, Setup, T, View
from engines.errors import NotationError
from engines.shuangkou.game import ShuangkouGame
from storage.db import Database, open_database
from storage.wallet import Wallet

RANKS = "3456789TJQKA2"


def landlord_of_four_decks() -> Picker:
    """A 4-player 斗地主 landlord's 33 cards, as a picker of suit-tagged tokens."""
    tokens = tuple(f"{RANKS[i % 13]}{'shcd'[i // 13]}" for i in range(33))
    return Picker(tokens, tuple(tk[0] for tk in tokens), min_values=1, max_values=33)


def test_a_hand_larger_than_one_menu_is_fully_pickable() -> None:
    picker = landlord_of_four_decks()
    items = picker_items(5, picker, "en-US")
    selects = [item for item in items if isinstance(item, GatherSelect)]
    assert [len(s.item.options) for s in selects] == [25, 8]
    values = [option.value for s in selects for option in s.item.options]
    assert sorted(int(v.split(":")[0]) for v in values) == list(range(33))
    assert {v.split(":", 1)[1] for v in values} == set(picker.tokens)
    assert all(s.item.min_values == 0 for s in selects), "a menu may be left empty"
    play = [item for item in items if isinstance(item, TableButton)]
    assert len(play) == 1 and play[0].item.label == "Play"
    assert all(len(s.item.custom_id) <= 100 for s in selects)


def test_a_hand_within_one_menu_plays_at_once() -> None:
    picker = Picker(("3s", "3h", "4s"), ("3", "3", "4"), max_values=3)
    items = picker_items(5, picker, "en-US")
    assert len(items) == 1 and isinstance(items[0], PickSelect)
    assert items[0].item.max_values == 3


def test_groups_choose_the_menus() -> None:
    picker = Picker(("1m", "2m", "5p", "7z"), ("1m", "2m", "5p", "7z"), max_values=4,
                    groups=(2, 1, 1))
    items = picker_items(5, picker, "zh-CN")
    selects = [item for item in items if isinstance(item, GatherSelect)]
    assert [[o.label for o in s.item.options] for s in selects] == [["1m", "2m"], ["5p"], ["7z"]]
    assert "出牌" in [item.item.label for item in items if isinstance(item, TableButton)]


def test_a_single_pick_acts_from_any_menu() -> None:
    """A discard (one tile) from a hand shown one suit per menu needs no Play button."""
    picker = Picker(("1m", "2m", "5p", "7z"), ("1m", "2m", "5p", "7z"), groups=(2, 1, 1))
    items = picker_items(5, picker, "en-US")
    assert all(isinstance(item, PickSelect) for item in items) and len(items) == 3
    ids = [item.item.custom_id for item in items]
    assert len(set(ids)) == 3 and all(i.startswith("gh:p") for i in ids)
    assert [item.item.max_values for item in items] == [1, 1, 1]


def test_seats_show_melds_and_discards() -> None:
    seat = SeatView(count=10, melds="555p 7777s", discards="1m9p3z")
    detail = seat_detail(seat, "en-US")
    assert "melds 555p 7777s" in detail and "discards 1m9p3z" in detail
    assert "副露 555p 7777s" in seat_detail(seat, "zh-CN")


def test_the_settlement_itemizes_transfers_and_shows_remaining_cards_and_code() -> None:
    result = {
        "hand_id": 12, "code": "k3j9q2",
        "seats": [
            {"uid": 1, "name": "ann", "points": 4, "delta": 400, "balance": 10400, "title": None,
             "new_title": False},
            {"uid": 2, "name": "bob", "points": -2, "delta": -200, "balance": 9800, "title": None,
             "new_title": False},
            {"uid": None, "name": "Bot 1", "points": -2, "delta": 0, "balance": None,
             "title": None, "new_title": False},
        ],
        "lines": [],
        "view": {"phase": T("x").to_json(), "lines": [], "hand": None, "board": None,
                 "seats": [{"role": None, "count": 0, "cards": None, "status": None},
                           {"role": None, "count": 2, "cards": "KK", "status": None},
                           {"role": None, "count": 1, "cards": "R", "status": None}]},
        "transfers": [
            {"payer": 1, "payee": 0, "points": 2, "beans": 200, "reason": T("x.dianpao").to_json()},
            {"payer": 2, "payee": 0, "points": 2, "beans": 0, "reason": None},
        ],
    }
    lines = result_lines(result, "en-US")
    assert "Seat 2 (bob): -2 points, -200 beans, balance 9800 — K K" in lines
    assert any(line.startswith("Seat 3 (Bot 1): -2 points") and line.endswith("R") for line in lines)
    assert "Seat 2 (bob) → seat 1 (ann): 2 points, 200 beans · x.dianpao" in lines
    assert "Seat 3 (Bot 1) → seat 1 (ann): 2 points, 0 beans" in lines
    assert lines[-1] == "Replay this hand with /replay code:`k3j9q2`"


NAMES = ("ann", "bob", "Bot 1", "dan")


def played_shuangkou_result() -> dict:
    """A real 百变双扣 hand played out (seat 1 goes out on a 6-star bomb: 单扣 and the star
    contributions, itemized pair by pair), as the cashier hands it to the renderer."""
    game = ShuangkouGame.position(["444444 9", "3", "5 7", "6"], leader=0)
    game.apply(0, "444444")
    while not game.is_over():
        seat = game.to_act()[0]
        game.apply(seat, game.trustee(seat))
    outcome = game.outcome()
    return {
        "hand_id": 3, "code": "",
        "seats": [{"uid": None if name.startswith("Bot") else i + 1, "name": name,
                   "points": outcome.points[i], "delta": 10 * outcome.points[i],
                   "balance": 1000 + 10 * outcome.points[i], "title": None, "new_title": False}
                  for i, name in enumerate(NAMES)],
        "lines": [line.to_json() for line in outcome.lines],
        "view": game.view(None).to_json(),
        "transfers": [{"payer": t.payer, "payee": t.payee, "points": t.points,
                       "beans": 10 * t.points,
                       "reason": None if t.reason is None else t.reason.to_json()}
                      for t in outcome.transfers],
    }


def test_settlement_names_every_seat_one_way() -> None:
    # issue 26: "4 号位胡" beside "Bot 1 → Bot 3": the game's lines named seats by number, the
    # hall's lines by name. Every line now names a seat as its number with its name.
    result = played_shuangkou_result()
    zh = result_lines(result, "zh-CN")
    assert "1号位（ann）打出 6 星：其他三家各贡献 2 分" in zh
    assert "2号位（bob） → 1号位（ann）：8 分，80 欢乐豆 · 单扣" in zh
    assert any(line.startswith("3号位（Bot 1）：+6 分") for line in zh)
    assert any(line.startswith("1号位（ann）：+14 分，欢乐豆 +140") for line in zh)
    en = result_lines(result, "en-US")
    assert "Seat 1 (ann) played 6 stars: each other seat pays 2" in en
    assert "Seat 4 (dan) → seat 3 (Bot 1): 8 points, 80 beans · single win (单扣)" in en
    assert any(line.startswith("Seat 2 (bob): -10 points, -100 beans") for line in en)
    tw = result_lines(result, "zh-TW")
    assert "1號位（ann）打出 6 星：其他三家各貢獻 2 分" in tw
    for lines, seat in ((zh, r"(\d)号"), (en, r"[Ss]eat (\d)"), (tw, r"(\d)號")):
        for line in lines[1:]:
            for m in re.finditer(seat, line):  # a seat's number always comes with its name
                assert line[m.end():].startswith(
                    ("位（" if "eat" not in m.group(0) else " (") + NAMES[int(m.group(1)) - 1]
                ), line
            for name in NAMES:  # and a name with its number
                for m in re.finditer(re.escape(name), line):
                    assert re.search(r"(号位（|號位（|eat \d \()$", line[:m.start()]), line


def test_errors_echo_input_shortly() -> None:
    long = "3" * 5000
    text = error_text(NotationError(long, f"{long!r} is not a card",
                                    text=T("err.ddz.not_card", token=long)), "en-US")
    assert len(text) < 300 and text.startswith("❌")


def test_everything_sent_is_cut_to_discords_limits() -> None:
    embed = discord.Embed(title="t" * 300, description="d" * 5000)
    for i in range(30):
        embed.add_field(name="n" * 300, value="v" * 2000)
    embed = fit_embed(embed)
    assert len(embed) <= 6000 and len(embed.fields) <= 25
    assert all(len(f.value) <= 1024 and len(f.name) <= 256 for f in embed.fields)
    view = discord.ui.View()
    view.add_item(discord.ui.Button(label="b" * 200))
    select = discord.ui.Select(options=[discord.SelectOption(label="o" * 300, value=str(i))
                                        for i in range(25)], max_values=25)
    view.add_item(select)
    sent = fit({"content": "c" * 5000, "view": view})
    assert len(sent["content"]) == 2000 and sent["content"].endswith("…")
    assert len(view.children[0].label) == 80
    assert all(len(o.label) == 100 for o in select.options)
    assert clip("abc", 3) == "abc" and clip("abcd", 3) == "ab…"


async def _manager(tmp_path) -> tuple[TableManager, Database]:
    settings = load_settings(environ={"GAMEHALL_DB": str(tmp_path / "hall.db")},
                             known_games=registry.specs().keys())
    db = await open_database(settings.database)
    notifier = TerminalNotifier(uid=1, locale="en-US", out=lambda line: None)
    return TableManager(settings, db, Wallet.from_settings(db, settings), notifier,
                        clock=lambda: 0.0), db


async def test_the_table_lists_each_seats_play_and_pass_in_order(tmp_path) -> None:
    """Bug (issue 26): in 双扣 the partner's lead and who passed were gone by your turn; only
    the top play was shown. The table text (message, DM, /table status, terminal) now lists the
    round so far, seat by seat, and then the round just finished with who took it."""
    manager, db = await _manager(tmp_path)
    try:
        game = registry.get("shuangkou").new(Setup(seats=4, seed=1))
        names = ["Ann", "Bea", "Cat", "Dan"]
        table = Table(id=5, guild_id=1, game_key="shuangkou", room="novice", owner=1,
                      seats=[Seat(i + 1, n) for i, n in enumerate(names)], status=PLAYING)
        table.game = game
        # seed 1: seat 2 leads a 12-card straight and the three others pass (typed, so the
        # round does not depend on what the trustee would choose)
        for action in ("3456789TJQKA", "pass", "pass", "pass"):
            game.apply(game.to_act()[0], action)
        assert game.table is None, "the round is over"
        text = "\n".join(table_text(manager, table, "en-US").lines)
        assert ("Last round (taken by 2. Bea): 2. Bea: 3 4 5 6 7 8 9 T J Q K A → 3. Cat: pass"
                " → 4. Dan: pass → 1. Ann: pass") in text
        seat = game.to_act()[0]
        lead = game.apply(seat, game.trustee(seat))
        nxt = game.to_act()[0]
        game.apply(nxt, "pass")
        lines = table_text(manager, table, "zh-CN").lines
        now = f"本轮：{seat + 1}. {names[seat]}：{' '.join(lead)} → {nxt + 1}. {names[nxt]}：不出"
        assert now in lines
        assert now in hand_text(manager, table, game.to_act()[0], "zh-CN"), "the private view too"
        assert last_round_text(table, "zh-CN").startswith("上一轮（2. Bea 最大）：2. Bea：3 4 5")
    finally:
        await manager.shutdown()
        await db.close()


def test_a_failed_throw_is_shown_with_what_it_was_forced_to() -> None:
    view = View(phase=T("x"), seats=(), round=(
        Play(0, "4s 4s", T("shengji.note.failed", tried="9s 8s 8s 4s 4s", played="4s 4s")),
        Play(1, "Js 6c")))
    names = ["1. Ann", "2. Bea"]
    assert round_lines(view, names, "zh-CN") == (
        "本轮：1. Ann：4s 4s（甩牌失败：9s 8s 8s 4s 4s → 4s 4s） → 2. Bea：Js 6c",)
