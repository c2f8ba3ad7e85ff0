"""牌面图 in Discord: the hand picture in the DM, the table picture on the table message, kept
when unchanged, and text only for those who ask (/settings images off)."""

from __future__ import annotations

import io
from typing import Any

import discord
from PIL import Image
from simhelpers import acting_seats, button_labels, table_message  # type: ignore[import-not-found]

from bot.client import GameHall
from bot.i18n import render as render_text
from bot.render.pictures import TABLE_W, hand_picture, render, table_picture
from bot.render.text import table_text


def world(env: Any) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    return guild, channel, [guild.add_member(env.create_user(n)) for n in ("ann", "bob", "cat")]


async def seated(channel: Any, members: list[Any]) -> None:
    await members[0].slash(channel, "table create", game="doudizhu", room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")


def pictures(message: discord.Message, kind: str) -> list[discord.Attachment]:
    return [a for a in message.attachments if a.filename.startswith(f"{kind}-")]


async def png_of(attachment: discord.Attachment) -> bytes:
    data = await attachment.read()
    assert Image.open(io.BytesIO(data)).format == "PNG"
    return data


def expected_hand(bot: GameHall, channel: Any, seat: int) -> bytes:
    table = bot.manager.tables[channel.id]
    described = hand_picture(bot.manager.spec(table).faces, table.game.view(seat), seat,
                             [s.name for s in table.seats], table.locale)
    assert described is not None
    return render(described).png


def expected_table(bot: GameHall, channel: Any) -> bytes:
    table = bot.manager.tables[channel.id]
    text = table_text(bot.manager, table, table.locale)
    described = table_picture(bot.manager.spec(table).faces, table.game.view(None), text.title,
                              [s.name for s in table.seats], table.game.public_to_act(),
                              table.locale)
    assert described is not None
    return render(described).png


def edits_of(env: Any, start: int, message_id: int) -> list[Any]:
    """The edits of a message since ``start``: by its id, or through the token of the click
    that last drew it (the table message's carry its embed; a DM's do not)."""
    return [r for r in env.http_requests[start:]
            if r.method == "PATCH" and (r.path.endswith(f"/messages/{message_id}") or (
                r.path.endswith("/messages/@original") and (r.json or {}).get("embeds")))]


def uploads(request: Any) -> list[str]:
    """File names a logged edit uploads or keeps (None: it leaves the attachments alone)."""
    body = request.json or {}
    return [a.get("filename", "") for a in body.get("attachments", [])] \
        if "attachments" in body else None


async def test_a_hand_shows_the_cards_in_the_dm_and_the_table_on_the_table_message(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    await seated(channel, members)
    await members[0].click(table_message(channel), label="Start")
    table = simcord_bot.manager.tables[channel.id]
    for seat, member in enumerate(members):
        dm = member.user.dm_channel.last_message
        files = pictures(dm, "hand")
        assert len(files) == 1, dm.attachments
        # the DM's picture is this seat's own hand drawn from its own view, nobody else's
        assert await png_of(files[0]) == expected_hand(simcord_bot, channel, seat)
        for other in range(3):
            if other != seat:
                assert await png_of(files[0]) != expected_hand(simcord_bot, channel, other)
    message = table_message(channel)
    [file] = pictures(message, "table")
    assert message.embeds[0].image.url == f"attachment://{file.filename}"
    assert await png_of(file) == expected_table(simcord_bot, channel)
    assert Image.open(io.BytesIO(await png_of(file))).width == TABLE_W  # sized to Discord
    # a bid on the table message redraws the table picture: the player now bidding is marked
    bidder = acting_seats(message)[0]
    label = next(render_text(c.label, table.locale) for c in table.game.choices(bidder)
                 if c.action != "pass")
    assert label in button_labels(message)
    await members[bidder].click(message, label=label)
    message = table_message(channel)
    [moved] = pictures(message, "table")
    assert moved.filename != file.filename
    assert await png_of(moved) == expected_table(simcord_bot, channel)


async def test_an_unchanged_picture_is_not_uploaded_again(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    env = simcord_env
    guild, channel, members = world(env)
    await seated(channel, members)
    await members[0].click(table_message(channel), label="Start")
    message = table_message(channel)
    [before] = pictures(message, "table")
    # a spectator arrives: the table message is edited (it names the watcher) but its
    # picture shows the same table, so the edit keeps the file instead of sending it again
    start = len(env.http_requests)
    dan = guild.add_member(env.create_user("dan"))
    watched = await dan.slash(channel, "table watch")
    edits = edits_of(env, start, message.id)
    assert edits and all(uploads(edit) is None for edit in edits)
    message = table_message(channel)
    assert "dan is watching" in message.embeds[0].footer.text + str(
        [f.value for f in message.embeds[0].fields])
    assert [a.filename for a in pictures(message, "table")] == [before.filename]
    assert message.embeds[0].image.url == f"attachment://{before.filename}"
    # the spectator's snapshot is the public picture: the same bytes as the table message's
    [snapshot] = pictures(watched.response.message, "table")
    assert await png_of(snapshot) == await png_of(before)


async def test_settings_images_off_gives_text_only_private_messages(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    env = simcord_env
    guild, channel, members = world(env)
    ann = members[0]
    answer = await ann.slash(channel, "settings images", state="off")
    assert answer.ephemeral and "text only" in answer.response.content
    await seated(channel, members)
    await ann.click(table_message(channel), label="Start")
    table = simcord_bot.manager.tables[channel.id]
    dm = ann.user.dm_channel.last_message
    assert dm.attachments == [] and "hand #" in dm.content.lower()
    assert " ".join(table.game.view(0).hand) in dm.content  # the cards, as text
    assert pictures(members[1].user.dm_channel.last_message, "hand")  # others keep theirs
    hand = await ann.slash(channel, "hand")
    assert hand.ephemeral and hand.response.message.attachments == []
    status = await ann.slash(channel, "table status")
    shown = status.response.message
    assert shown.attachments == [] and not shown.embeds[0].image.url
    eve = guild.add_member(env.create_user("eve"))  # a spectator with pictures off
    await eve.slash(channel, "settings images", state="off")
    watched = (await eve.slash(channel, "table watch")).response.message
    assert watched.attachments == [] and not watched.embeds[0].image.url
    # the choice is kept in the database: a new bot process still knows it
    assert ann.id in await simcord_bot.manager.referee.conduct.images_off()
    again = await ann.slash(channel, "settings images", state="on")
    assert "Pictures are on" in again.response.content
    hand = await ann.slash(channel, "hand")
    [file] = pictures(hand.response.message, "hand")
    assert await png_of(file) == expected_hand(simcord_bot, channel, 0)
