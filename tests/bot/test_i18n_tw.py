"""繁體中文 through the real bot: a Taiwan client's replies, a zh-TW server's table message,
/mod language zh-TW, and the zh-TW command names Discord receives."""

from __future__ import annotations

from typing import Any

import discord
import pytest
import simcord.interactions
from simhelpers import button_labels, public_text, table_message  # type: ignore[import-not-found]

from bot.client import GameHall
from bot.i18n import tw
from bot.i18n.translator import HallTranslator


@pytest.fixture
def client_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Discord client languages by user id. SimCord sends every interaction as en-US; this
    sets the ``locale`` Discord would send for a user whose client is in another language."""
    locales: dict[int, str] = {}
    original = simcord.interactions.base_payload

    def base_payload(*args: Any, **kwargs: Any) -> Any:
        record, payload = original(*args, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], payload["locale"])
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return locales


async def test_a_taiwan_client_reads_zh_tw_replies_and_a_zh_tw_table(
    simcord_env, simcord_bot: GameHall, client_locales: dict[int, str]
) -> None:
    env = simcord_env
    guild = env.create_guild(preferred_locale="zh-TW")
    channel = guild.create_text_channel("hall")
    mei = guild.add_member(env.create_user("mei"))
    bob = guild.add_member(env.create_user("bob"))
    client_locales[mei.id] = "zh-TW"
    created = await mei.slash(channel, "table create", game="doudizhu", room="free")
    assert created.ephemeral
    assert created.response.content == "牌桌已開，其他人可以點「加入」。"
    text = public_text(table_message(channel))
    assert "加入、新增機器人，然後開始。" in text, text
    assert {"加入", "離開", "開始", "加機器人"} <= set(button_labels(table_message(channel)))
    refused = await bob.slash(channel, "table start")
    assert "not seated" in refused.response.content, "an en-US client keeps English"
    await mei.click(table_message(channel), label="加機器人")
    await mei.click(table_message(channel), label="加機器人")
    await mei.click(table_message(channel), label="開始")
    text = public_text(table_message(channel))
    assert "第 1 局" in text, text
    hand = await mei.slash(channel, "hand")
    assert "你的手牌" in hand.response.content and "你的手牌" != hand.response.content
    dm = mei.user.dm_channel.last_message
    assert dm is not None and "的手牌（第 1 局）" in dm.content, "the DM follows the table"


async def test_a_moderator_sets_zh_tw_for_the_servers_tables(
    simcord_env, simcord_bot: GameHall, client_locales: dict[int, str]
) -> None:
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    ann = guild.add_member(env.create_user("ann"))
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    client_locales[boss.id] = "zh-TW"
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    assert "Waiting for players" in public_text(table_message(channel))
    done = await boss.slash(channel, "mod language", language="zh-TW")
    assert done.response.content == "本伺服器的公開牌桌訊息現在使用繁體中文。"
    text = public_text(table_message(channel))
    assert "加入、新增機器人，然後開始。" in text, "the open table follows at once"
    other = guild.create_text_channel("two")
    await boss.slash(other, "table create", game="gomoku", room="free")
    assert "加機器人" in button_labels(table_message(other))


@pytest.mark.xfail(strict=True, reason="bot/render/text.py game_name/room_name choose the zh-CN "
                   "name only for locale == 'zh-CN'; they are to call bot.i18n.pick_name")
async def test_a_zh_tw_table_names_its_game_and_room_in_zh_tw(
    simcord_env, simcord_bot: GameHall
) -> None:
    guild = simcord_env.create_guild(preferred_locale="zh-TW")
    channel = guild.create_text_channel("hall")
    ann = guild.add_member(simcord_env.create_user("ann"))
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    assert "鬥地主 · 新手場" in public_text(table_message(channel))


async def test_discord_receives_zh_tw_names_and_descriptions_for_every_command(
    simcord_env, simcord_bot: GameHall
) -> None:
    tree = simcord_bot.tree
    checked = 0
    for command in tree.get_commands():
        payload = await command.get_translated_payload(tree, HallTranslator())
        todo = [payload]
        while todo:
            item = todo.pop()
            todo += item.get("options", [])
            if "description" not in item:  # a choice: free text, its value is what is sent
                continue
            assert set(item["name_localizations"]) == {"zh-CN", "zh-TW"}, item["name"]
            name = item["name_localizations"]["zh-TW"]
            # a parameter without a description ("…") has none in any language
            descriptions = item.get("description_localizations", {"zh-TW": "…"})
            assert set(descriptions) == {"zh-CN", "zh-TW"} or item["description"] == "…"
            # Discord's rule for names: 1-32 characters, lowercase, letters, digits, - or _
            assert 1 <= len(name) <= 32 and name == name.lower(), name
            assert all(ch.isalnum() or ch in "-_" for ch in name), name
            assert tw.is_traditional(name) and tw.is_traditional(descriptions["zh-TW"])
            checked += 1
    assert checked > 70
    names = {c.name: c for c in tree.get_commands()}
    table = await names["table"].get_translated_payload(tree, HallTranslator())
    assert table["name_localizations"] == {"zh-CN": "牌桌", "zh-TW": "牌桌"}
    create = next(o for o in table["options"] if o["name"] == "create")
    assert create["name_localizations"]["zh-TW"] == "開桌"
    assert create["description_localizations"]["zh-TW"] == "在本頻道開一張牌桌"
