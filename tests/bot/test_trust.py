"""What a player, a moderator and a hostile user meet at the edges of the hall: channels the bot
cannot post in, table messages that vanish, very long input, private views that follow the
game, per-server economies and languages, and the texts around them."""

from __future__ import annotations

import re

import discord
import pytest
from simhelpers import (  # type: ignore[import-not-found]
    button_labels,
    hint_of,
    play_hand_with_hints,
    public_text,
    table_message,
    wallet_of,
)

from bot.client import GameHall


def world(env, n: int = 3):  # noqa: ANN001, ANN201
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")[:n]]
    return guild, channel, members


async def seat_three(channel, members, game: str = "doudizhu", room: str = "novice"):  # noqa: ANN001, ANN201
    await members[0].slash(channel, "table create", game=game, room=room)
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    return table_message(channel)


def fits(result) -> bool:  # noqa: ANN001
    """An answer was given, short and within Discord's limits."""
    return result.response is not None and 0 < len(result.response.content) <= 2000


# --- permissions ---------------------------------------------------------------------------
@pytest.mark.parametrize("denied, named", [
    ({"embed_links": False}, "Embed Links"),
    ({"attach_files": False}, "Attach Files"),
    ({"send_messages": False}, "Send Messages"),
])
async def test_create_refuses_a_channel_where_the_bot_cannot_keep_a_table(
    simcord_env, simcord_bot: GameHall, denied, named  # noqa: ANN001
) -> None:
    env = simcord_env
    guild = env.create_guild()
    me = guild.me
    assert me is not None
    channel = guild.create_text_channel(
        "muted", overwrites={me: discord.PermissionOverwrite(**denied)})
    ann = guild.add_member(env.create_user("ann"))
    result = await ann.slash(channel, "table create", game="doudizhu", room="novice")
    assert result.ephemeral and result.response.content.startswith("❌")
    assert named in result.response.content
    assert channel.id not in simcord_bot.manager.tables


async def test_a_deleted_table_message_is_posted_again(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    janitors = guild.create_role("Janitors",
                                 permissions=discord.Permissions(manage_messages=True))
    janitor = guild.add_member(env.create_user("janitor"), roles=[janitors])
    first = table.message_id
    await janitor.delete(table_message(channel))
    actor = acting_seats_from_game(table)
    hint = await members[actor].slash(channel, "hint")
    await members[actor].slash(channel, "play", action=hint_of(hint))
    assert table.message_id not in (None, first)
    assert table_message(channel).id == table.message_id
    assert "Hand #" in public_text(table_message(channel))


def acting_seats_from_game(table) -> int:  # noqa: ANN001
    """The seat whose turn it is (the table message was deleted, so ask the host)."""
    return table.game.public_to_act()[0]


async def test_a_table_that_can_no_longer_be_shown_is_closed_with_escrow_released(
    simcord_env, simcord_bot  # noqa: ANN001
) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    assert (await wallet_of(simcord_bot, channel).account(members[0].id)).held > 0
    # the bot lost its permissions in the channel: the edit and a new post both fail
    env.inject_error("PATCH", f"/channels/{channel.id}/messages/*", status=403, code=50013,
                     message="Missing Permissions", times=None)
    env.inject_error("POST", f"/channels/{channel.id}/messages", status=403, code=50013,
                     message="Missing Permissions", times=None)
    # and the Start click's token, which edits the table message, is refused too
    env.inject_error("PATCH", "/webhooks/*/messages/@original", status=401, code=50027,
                     message="Invalid Webhook Token", times=None)
    actor = table.game.public_to_act()[0]
    hint = await members[actor].slash(channel, "hint")
    await members[actor].slash(channel, "play", action=hint_of(hint))
    assert channel.id not in simcord_bot.manager.tables, "no hand runs where nobody sees it"
    for member in members:
        account = await wallet_of(simcord_bot, channel).account(member.id)
        assert account.held == 0
        assert account.balance == simcord_bot.settings.starting_grant


# --- long input --------------------------------------------------------------------------------
async def test_very_long_input_gets_a_short_clear_answer(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    log = list(table.game.log)
    actor = table.game.public_to_act()[0]
    played = await members[actor].slash(channel, "play", action="3" * 5000)
    assert played.ephemeral and fits(played) and played.response.content.startswith("❌")
    assert "went wrong" not in played.response.content
    assert table.game.log == log
    elsewhere = _guild.create_text_channel("other")
    created = await members[0].slash(elsewhere, "table create", game="x" * 3000, room="novice")
    assert fits(created) and "Unknown game" in created.response.content
    created = await members[0].slash(elsewhere, "table create", game="doudizhu", room="r" * 3000)
    assert fits(created) and "Unknown room" in created.response.content
    board = await members[0].slash(channel, "leaderboard", game="g" * 3000)
    assert fits(board) and "Unknown game" in board.response.content
    assert elsewhere.id not in simcord_bot.manager.tables


async def test_the_error_handler_survives_a_refused_answer(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    _guild, channel, members = world(env)
    env.inject_error("POST", "/interactions/*/callback", status=500, times=1)
    await members[0].slash(channel, "table join")  # no table: the refusal itself fails
    assert not [e for e in env.errors if not isinstance(e, discord.HTTPException)]
    again = await members[0].slash(channel, "table join")
    assert "no table" in again.response.content


# --- texts --------------------------------------------------------------------------------
async def test_daily_is_suggested_only_to_players_who_can_claim_it(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    guild, channel, members = world(env)
    ann, bob, _cat = members
    await bob.slash(channel, "table create", game="doudizhu", room="novice")
    rich = await ann.slash(guild.create_text_channel("high"), "table create", game="doudizhu",
                           room="intermediate")
    assert "50000" in rich.response.content and "/daily" not in rich.response.content
    wallet = wallet_of(simcord_bot, channel)
    await wallet.ensure_player(ann.id)
    await wallet.revoke(ann.id, 9500, "test", 1)  # 500 left: below the entry and the threshold
    poor = await ann.click(table_message(channel), label="Join")
    assert "/daily" in poor.response.content
    claimed = await ann.slash(channel, "daily")
    assert "+2000" in claimed.response.content
    await wallet.revoke(ann.id, 2000, "test", 1)
    waiting = await ann.click(table_message(channel), label="Join")
    assert "1000" in waiting.response.content and "/daily" not in waiting.response.content


async def test_taking_your_seat_back_from_the_trustee_is_a_success(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    actor = table.game.public_to_act()[0]
    waiting = next(i for i in range(3) if i != actor)
    await members[waiting].slash(channel, "trustee on")
    assert table.game is not None and table.seats[waiting].trustee
    seat = next(i for i in range(3) if table.game is not None and i not in table.game.to_act()
                and table.seats[i].trustee)
    back = await members[seat].slash(channel, "play", action="pass")
    assert back.ephemeral and "❌" not in back.response.content
    assert "✅" in back.response.content and not table.seats[seat].trustee


async def test_the_private_view_says_how_to_play_cards(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    game = table.game
    while game.picker(game.to_act()[0]) is None:  # bid until someone leads
        seat = game.to_act()[0]
        await members[seat].slash(channel, "play", action=game.trustee(seat))
    hand = await members[game.to_act()[0]].slash(channel, "hand")
    assert "/play" in hand.response.content and "menu" in hand.response.content


async def test_settlement_shows_remaining_cards_and_the_replay_code(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    await play_hand_with_hints(env, channel, members)
    final = public_text(table_message(channel))
    final_view = table.final_view()
    assert final_view is not None
    held = [s.cards for s in final_view.seats if s.cards]
    for cards in held:
        assert " ".join(cards) in final, "亮牌: every seat's remaining cards are shown"
    code = table.last_result["code"]
    assert held, "亮牌: the losers' cards are in the final view"
    assert f"`{code}`" in final


# --- the private hand follows the game ----------------------------------------------------------
async def test_the_dm_is_edited_when_the_private_hand_changes(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    _guild, channel, members = world(env)
    message = await seat_three(channel, members, game="doudizhu_happy", room="novice")
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    game = table.game
    firsts: dict[int, int] = {}

    def check_dms() -> None:
        for member in members:
            dm = member.user.dm_channel.last_message
            if dm is None:
                continue
            first = firsts.setdefault(member.id, dm.id)
            assert dm.id == first, "the DM is edited, not sent again"

    check_dms()
    for _ in range(20):  # through the 明牌 step and the auction to the play
        if game.phase() == "play":
            break
        seat = game.to_act()[0]
        await members[seat].slash(channel, "play", action=game.trustee(seat))
        check_dms()
    assert game.phase() == "play" and len(firsts) == 3
    for seat, member in enumerate(members):
        dm = member.user.dm_channel.last_message
        shown = re.search(r"\*\*(.+?)\*\*", dm.content)[1]
        assert shown == " ".join(game.view(seat).hand), "the DM shows the hand as it is now"


# --- economies --------------------------------------------------------------------------------
async def test_in_the_global_economy_only_the_bots_owners_change_balances(
    simcord_env, simcord_bot, settings  # noqa: ANN001
) -> None:
    from dataclasses import replace

    simcord_bot.settings = replace(settings, wallet_scope="global")
    env = simcord_env
    guild, channel, members = world(env, 2)
    ann, bob = members
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    wallet = simcord_bot.wallet_for(guild.id)
    await wallet.ensure_player(bob.id)
    before = (await wallet.account(bob.id)).balance
    for command, extra in [("mod grant", {"amount": 500, "reason": "gift"}),
                           ("mod revoke", {"amount": 5, "reason": "x"}),
                           ("mod freeze", {}), ("mod unfreeze", {})]:
        refused = await boss.slash(channel, command, member=bob, **extra)
        assert refused.ephemeral and "owners" in refused.response.content, command
    assert (await wallet.account(bob.id)).balance == before
    assert not (await wallet.account(bob.id)).frozen
    simcord_bot.owner_id = ann.id  # the application's owner
    granted = await ann.slash(channel, "mod grant", member=bob, amount=500, reason="prize")
    assert "500" in granted.response.content
    assert (await wallet.account(bob.id)).balance == before + 500


async def test_a_servers_moderator_moves_only_that_servers_beans(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    home = env.create_guild(name="home")
    away = env.create_guild(name="away")
    mods = home.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    minter = env.create_user("minter")
    boss = home.add_member(minter, roles=[mods])
    away.add_member(minter)
    player = env.create_user("player")
    at_home = home.add_member(player)
    away_member = away.add_member(player)
    channel = home.create_text_channel("hall")
    granted = await boss.slash(channel, "mod grant", member=at_home, amount=10**6, reason="mint")
    assert "1000000" in granted.response.content
    grant = simcord_bot.settings.starting_grant
    home_wallet = simcord_bot.wallet_for(home.id)
    away_wallet = simcord_bot.wallet_for(away.id)
    assert (await home_wallet.account(player.id)).balance == grant + 10**6
    await away_wallet.ensure_player(player.id)
    assert (await away_wallet.account(player.id)).balance == grant, "server B is untouched"
    beans_away = await away_member.slash(away.create_text_channel("hall"), "beans")
    assert f"{grant} beans" in beans_away.response.content
    # the minter is no moderator in the other server
    refused = await away.add_member(env.create_user("stranger")).slash(
        away.create_text_channel("x"), "mod grant", member=away_member, amount=5, reason="x")
    assert "Only moderators" in refused.response.content


# --- replays --------------------------------------------------------------------------------
async def test_replays_by_code_only_where_the_hand_was_played(simcord_env, simcord_bot) -> None:  # noqa: ANN001
    env = simcord_env
    guild, channel, members = world(env)
    message = await seat_three(channel, members, room="free")
    await members[0].click(message, label="Start")
    table = simcord_bot.manager.tables[channel.id]
    hand_id = table.hand_id
    await play_hand_with_hints(env, channel, members)
    code = table.last_result["code"]
    assert str(hand_id) != code
    shown = await members[1].slash(channel, "replay", code=code)
    assert shown.ephemeral and "was dealt" in shown.response.content
    other = env.create_guild(name="other")
    spy = other.add_member(env.create_user("spy"))
    spy_channel = other.create_text_channel("x")
    for probe in (code, str(hand_id), "nope", "z" * 3000):
        refused = await spy.slash(spy_channel, "replay", code=probe)
        assert fits(refused) and "no such hand" in refused.response.content
    assert button_labels(table_message(channel))


# --- language -----------------------------------------------------------------------------------
async def test_a_servers_language_is_set_by_its_moderators(simcord_env, simcord_bot, settings) -> None:  # noqa: ANN001
    env = simcord_env
    guild, channel, members = world(env, 2)
    ann, bob = members
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    assert "Waiting for players" in public_text(table_message(channel))
    refused = await bob.slash(channel, "mod language", language="zh-CN")
    assert "Only moderators" in refused.response.content
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    done = await boss.slash(channel, "mod language", language="zh-CN")
    assert done.ephemeral and "简体中文" in done.response.content
    assert "等待玩家" in public_text(table_message(channel)), "the open table follows at once"
    other = guild.create_text_channel("two")
    await boss.slash(other, "table create", game="doudizhu", room="novice")
    assert "加入" in button_labels(table_message(other))
    hint = await ann.slash(channel, "table start")
    assert "needs 3 players" in hint.response.content, "private replies keep the user's language"
    # cleared: back to the server's locale, else the hall's default (English in these tests)
    cleared = await boss.slash(channel, "mod language")
    assert "English" in cleared.response.content
    assert "Waiting for players" in public_text(table_message(other))
    third = guild.create_text_channel("three")
    await bob.slash(third, "table create", game="gomoku", room="free")
    assert settings.locale_default == "en-US"
    assert "Join" in button_labels(table_message(third))
