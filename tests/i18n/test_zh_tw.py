"""繁體中文: every catalogue has every key in zh-CN, en-US and zh-TW; zh-TW keeps zh-CN's
placeholders, is Traditional, follows Taiwan usage; the fill tool adds only what is missing."""

from __future__ import annotations

import importlib.util
import json
import shutil
from pathlib import Path

import discord
import pytest

from bot.i18n import LOCALES, catalogue, normalize, pick_name, render, tw
from bot.i18n.translator import command_texts
from bot.settings import load_settings
from engines import registry
from engines.base import BASE_TEXTS, T

ROOT = Path(__file__).resolve().parents[2]
I18N = ROOT / "bot" / "i18n"


def _hall(locale: str) -> dict[str, str]:
    return json.loads((I18N / f"{locale}.json").read_text(encoding="utf-8"))


def test_every_game_catalogue_has_every_key_in_every_language() -> None:
    assert LOCALES == ("zh-CN", "en-US", "zh-TW")
    for key, spec in registry.specs().items():
        texts = spec.texts
        assert set(texts) == set(LOCALES), key
        for locale in LOCALES[1:]:
            assert set(texts[locale]) == set(texts["zh-CN"]), (key, locale)


def test_the_halls_catalogues_have_every_key_in_every_language() -> None:
    hall = {locale: _hall(locale) for locale in LOCALES}
    assert len(hall["zh-TW"]) > 200
    for locale in LOCALES[1:]:
        assert set(hall[locale]) == set(hall["zh-CN"]), locale
    assert set(command_texts("zh-TW")) == set(command_texts("zh-CN"))
    names = json.loads((I18N / "names.zh-TW.json").read_text(encoding="utf-8"))
    rooms = load_settings().rooms.values()
    for zh in [s.name_zh for s in registry.specs().values()] + [r.name_zh for r in rooms]:
        assert zh in names, zh


def test_zh_tw_keeps_every_placeholder_of_zh_cn() -> None:
    checked = 0
    for cat in tw.json_catalogues() + tw.engine_catalogues():
        for key, text in cat.zh_tw.items():
            assert tw.placeholders(text) == tw.placeholders(cat.zh_cn[key]), (cat.label, key)
            checked += 1
    hall = {locale: _hall(locale) for locale in LOCALES}
    for key, text in hall["en-US"].items():
        assert tw.placeholders(text) == tw.placeholders(hall["zh-TW"][key]), key
    assert checked > 1200


def test_zh_tw_texts_are_traditional_and_converting_again_changes_nothing() -> None:
    for cat in tw.json_catalogues() + tw.engine_catalogues():
        for key, text in cat.zh_tw.items():
            assert tw.is_traditional(text), (cat.label, key, text)
            assert tw.convert(text) == text, (cat.label, key, text)
    assert not tw.is_traditional("轮到你出牌")


def test_taiwan_usage_in_the_halls_vocabulary() -> None:
    table = catalogue()["zh-TW"]
    assert table["err.frozen"] == "你的帳號已被管理員凍結，不能入座。"
    assert "伺服器" in table["list.none"] and "訊息" in table["perm.send_messages"]
    assert "權限" in table["err.missing_permission"] and "許可權" not in table[
        "err.missing_permission"]
    assert table["ok.trustee_on"].startswith("已託管") and "託管" in table["note.trustee_on"]
    assert "牌局代碼" in table["err.no_such_hand"]
    assert table["settings.autopass_on"].startswith("要不起自動過牌已開啟")
    assert "「加入」" in table["ok.create"], "Taiwan quotes with corner brackets"
    # card and tile names: the hall's suits, 萬 筒 條, mahjong's 么九 and 呼叫轉移
    assert "紅桃" in table["err.cards.needs_suit"] and "黑桃" in table["err.cards.needs_suit"]
    assert "（萬）" in table["err.mj.tile_char"] and "（筒）" in table["err.mj.tile_char"]
    assert "（條）" in table["err.mj.tile_char"]
    assert table["mj.fan.shisanyao"] == "十三么" and table["mj.fan.daiyaojiu"] == "帶么九"
    assert pick_name("王炸跑胡子", "", "zh-TW") == "王炸跑胡子"
    assert pick_name("高级场", "", "zh-TW") == "高級場"
    assert pick_name("斗地主", "Dou Dizhu", "zh-TW") == "鬥地主"


def test_a_taiwan_client_reads_zh_tw_and_a_missing_text_falls_back_to_zh_cn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert normalize(discord.Locale.taiwan_chinese) == "zh-TW"
    assert normalize(discord.Locale.chinese) == "zh-CN"
    assert normalize("zh-HK") == "zh-TW" and normalize("en-GB") == "en-US"
    assert render(T("err.not_your_turn"), "zh-TW") == "還沒輪到你。"
    assert render(T("note.joined", name="ann"), "zh-TW") == "ann 入座。"
    assert render(T("err.base.no_seat", seat=5), "zh-TW") == BASE_TEXTS["zh-TW"][
        "err.base.no_seat"].format(seat=5)
    thin = {"zh-CN": {"a": "简体 {x}"}, "en-US": {"a": "English {x}", "b": "only English"},
            "zh-TW": {}}
    monkeypatch.setattr("bot.i18n.catalogue", lambda: thin)
    assert render(T("a", x=1), "zh-TW") == "简体 1"
    assert render(T("b"), "zh-TW") == "only English"
    assert render(T("c"), "zh-TW") == "c"


def _load(path: Path, name: str) -> object:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_fill_adds_a_new_key_to_an_engine_dict_and_changes_no_other_line(tmp_path: Path) -> None:
    original = ROOT / "engines" / "hotpot" / "texts.py"
    copy = tmp_path / "texts.py"
    shutil.copy(original, copy)
    before = copy.read_text(encoding="utf-8").splitlines(keepends=True)
    module = _load(copy, "hotpot_texts_copy")
    texts = module.TEXTS  # type: ignore[attr-defined]
    zh_cn = {**texts["zh-CN"], "hotpot.line.new": "{seat}号玩家的锅里没有菜了，请设置默认底注。"}
    cat = tw.Catalogue("copy", copy, zh_cn, dict(texts["zh-TW"]), "TEXTS", "hotpot_copy")
    assert tw.fill_engine(cat, skip=set()) == ["hotpot.line.new"]
    after = copy.read_text(encoding="utf-8").splitlines(keepends=True)
    assert len(after) == len(before) + 1
    added = [line for line in after if line not in before]
    assert added == ['    "hotpot.line.new": "{seat}號玩家的鍋裡沒有菜了，請設定預設底注。",\n']
    assert [line for line in after if line != added[0]] == before
    filled = _load(copy, "hotpot_texts_filled").TEXTS  # type: ignore[attr-defined]
    assert filled["zh-TW"]["hotpot.line.new"].format(seat=2).startswith("2號玩家")
    assert filled["zh-TW"]["hotpot.line.pot"] == texts["zh-TW"]["hotpot.line.pot"]
    assert tw.fill_engine(cat, skip={"hotpot.line.new"}) == []


def test_fill_wraps_a_long_text_without_cutting_a_placeholder() -> None:
    text = "牌" * 60 + "{seat_number}" + "号" * 60
    lines = tw.literal_lines("k", text)
    assert len(lines) > 1 and all(len(line) <= 101 for line in lines)
    assert "{seat_number}" in "".join(lines)
    value = eval("(" + "".join(lines).split(":", 1)[1].rstrip().rstrip(",") + ")")
    assert value == tw.convert(text)


def test_fill_adds_missing_json_entries_and_keeps_existing_zh_tw(tmp_path: Path) -> None:
    target = tmp_path / "zh-TW.json"
    target.write_text(json.dumps({"a": "已改過的譯文"}, ensure_ascii=False, indent=2) + "\n",
                      encoding="utf-8")
    cat = tw.Catalogue("bot/i18n/zh-TW.json", target, {"a": "原文", "b": "服务器设置"},
                       {"a": "已改過的譯文"})
    assert tw.fill_json(cat) == ["b"]
    assert json.loads(target.read_text(encoding="utf-8")) == {"a": "已改過的譯文",
                                                               "b": "伺服器設定"}


def test_the_check_passes_on_the_committed_catalogues(capsys: pytest.CaptureFixture[str]) -> None:
    assert tw.main(["--check"]) == 0
    assert "zh-TW: 0 problems" in capsys.readouterr().out


def test_the_examples_in_the_docstrings() -> None:
    import doctest

    import bot.i18n

    for module in (tw, bot.i18n):
        failed, tried = doctest.testmod(module)
        assert tried > 0 and failed == 0, module.__name__
