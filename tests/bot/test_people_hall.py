"""People and servers in Discord (issue 23): a member removed from a server, and moderators'
bean amounts outside the allowed range."""

from __future__ import annotations

import discord
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    hint_of,
    play_hand_with_hints,
    public_text,
    table_message,
    wallet_of,
)

from bot.client import GameHall
from bot.cogs.mod import MAX_MOD_AMOUNT
from storage.wallet import MAX_BALANCE


def two_servers(env):
    """Server A with ann, bob and cat at its hall channel; ann is also in server B."""
    home = env.create_guild(name="home")
    away = env.create_guild(name="away")
    channel = home.create_text_channel("hall")
    users = [env.create_user(name) for name in ("ann", "bob", "cat")]
    members = [home.add_member(user) for user in users]
    ann_away = away.add_member(users[0])
    return home, channel, members, away.create_text_channel("lobby"), ann_away


async def deal(channel, members) -> None:
    ann, bob, cat = members
    await ann.slash(channel, "table create", game="doudizhu", room="novice")
    await bob.click(table_message(channel), label="Join")
    await cat.click(table_message(channel), label="Join")
    await ann.click(table_message(channel), label="Start")


async def refused_from(member, channel) -> list[str]:
    """What /hand, /play and /hint answer ``member`` in ``channel``; each must be a refusal."""
    answers = []
    for command, options in (("hand", {}), ("play", {"action": "pass"}), ("hint", {})):
        result = await member.slash(channel, command, **options)
        assert result.ephemeral, command
        answers.append(result.response.content)
        assert answers[-1].startswith("❌"), (command, answers[-1])
    return answers


async def test_a_member_removed_from_the_server_cannot_play_its_table_from_another(
    simcord_env, simcord_bot: GameHall,
) -> None:
    # issue 23: after leaving server A, ann kept playing A's table from server B through the
    # "table where you sit" fallback of /hand, /play and /hint
    env = simcord_env
    home, channel, members, lobby, ann_away = two_servers(env)
    await deal(channel, members)
    table = simcord_bot.manager.tables[channel.id]
    hand_before = list(table.game.log)
    mine = await ann_away.slash(lobby, "hand")  # still a member: the fallback finds her seat
    assert " ".join(table.game.view(0).hand) in mine.response.content
    home.remove_member(members[0])  # Discord sends the member-remove event
    await env.settle()
    shown = public_text(table_message(channel))
    assert "ann is no longer a member of this server" in shown
    assert "1. ann (removed)" in shown, "the trustee plays her seat"
    for answer in await refused_from(ann_away, lobby):
        assert "There is no table" in answer or "not seated" in answer, answer
    assert table.game is None or table.game.log[:len(hand_before)] == hand_before
    # the others play the hand out; ann is stood up when it ends
    await play_hand_with_hints(env, channel, [None, members[1], members[2]])
    assert "settled" in public_text(table_message(channel))
    assert [s.uid for s in simcord_bot.manager.tables[channel.id].seats] == [
        members[1].id, members[2].id]


async def test_a_removal_the_hall_did_not_hear_of_is_found_when_they_play(
    simcord_env, simcord_bot: GameHall,
) -> None:
    """The member-remove event is lost when the hall is offline at the time: the fallback asks
    Discord whether the caller is still a member of the table's server."""
    env = simcord_env
    home, channel, members, lobby, ann_away = two_servers(env)
    await deal(channel, members)
    table = simcord_bot.manager.tables[channel.id]
    # ann acts once from server A while she is a member, so it is her turn no longer
    while 0 in acting_seats(table_message(channel)):
        hint = await members[0].slash(channel, "hint")
        await members[0].slash(channel, "play", action=hint_of(hint))
    # she leaves server A while the hall hears nothing (the simulator's member list only)
    del env.backend.get_guild(home.id).members[members[0].id]
    log = list(table.game.log) if table.game is not None else None
    answers = await refused_from(ann_away, lobby)
    assert "no longer a member of the server" in answers[0]
    assert table.game is None or table.game.log[:len(log)] == log, "nothing she typed was played"
    assert table.seat_of(members[0].id) is None, "her seat went to the trustee"
    assert "1. ann (removed)" in public_text(table_message(channel))


def registered_without_range(env, group: str, *commands: str) -> None:
    """Discord keeps the commands as the hall last registered them: here an older version's,
    whose ``amount`` had no range, so Discord lets any whole number through."""
    for scope in env.backend.commands.values():
        for (name, _type), command in scope.items():
            if name != group:
                continue
            for sub in command["options"]:
                if sub["name"] in commands:
                    for option in sub.get("options", []):
                        option.pop("min_value", None)
                        option.pop("max_value", None)


async def test_moderator_amounts_outside_the_range_are_refused_by_name(
    simcord_env, simcord_bot: GameHall,
) -> None:
    # issue 23: an amount past the option's range (a client that does not enforce it, or a
    # command registered before the range) reached the wallet: "Something went wrong"
    env = simcord_env
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    bob = guild.add_member(env.create_user("bob"))
    wallet = wallet_of(simcord_bot, channel)
    await wallet.ensure_player(bob.id)
    before = await wallet.account(bob.id)
    registered_without_range(env, "mod", "grant", "revoke")
    ledger = await wallet.ledger(bob.id, 50)
    for command in ("mod grant", "mod revoke"):
        for amount in (0, -5, MAX_MOD_AMOUNT + 1, 2**53 - 1, -(2**53 - 1)):
            result = await boss.slash(channel, command, member=bob, amount=amount, reason="x")
            content = result.response.content
            assert result.ephemeral and content.startswith("❌"), (command, amount, content)
            assert "went wrong" not in content
            assert f"from 1 to {MAX_MOD_AMOUNT}" in content, content
    assert await wallet.account(bob.id) == before
    assert await wallet.ledger(bob.id, 50) == ledger, "nothing was written"
    # an amount in range that would take the balance past the hall's limit: refused clearly
    await wallet.grant(bob.id, MAX_BALANCE - before.balance - 1, "to the brim", boss.id)
    full = await wallet.account(bob.id)
    past = await boss.slash(channel, "mod grant", member=bob, amount=2, reason="x")
    content = past.response.content
    assert content.startswith("❌") and "went wrong" not in content
    assert str(MAX_BALANCE) in content, content
    assert await wallet.account(bob.id) == full
