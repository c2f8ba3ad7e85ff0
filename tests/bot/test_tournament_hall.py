"""比赛 through Discord: a moderator opens a sit-and-go, people register and withdraw (the fee
held and released), the full field starts with each player's table and seat by DM, the
standings message is posted, and a moderator's cancel refunds everyone, audited."""

from __future__ import annotations

import discord

from bot.client import GameHall


def hall(env):
    guild = env.create_guild()
    channel = guild.create_text_channel("events")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat", "dan")]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    return guild, channel, members, boss


async def test_a_sit_and_go_registers_starts_and_is_cancelled_with_refunds(
        simcord_env, simcord_bot: GameHall) -> None:
    guild, channel, members, boss = hall(simcord_env)
    refused = await members[0].slash(channel, "tournament create", game="doudizhu",
                                     format="sitngo", size=3, rounds=2, fee=300)
    assert "Only moderators" in refused.response.content
    bad = await boss.slash(channel, "tournament create", game="doudizhu", format="sitngo",
                           size=4, rounds=2, fee=300)
    assert "does not split into tables of 3" in bad.response.content
    made = await boss.slash(channel, "tournament create", game="doudizhu", format="sitngo",
                            size=3, rounds=2, fee=300)
    assert "Event 1 created" in made.response.content
    wallet = simcord_bot.wallet_for(guild.id)
    joined = await members[0].slash(channel, "tournament join", event=1)
    assert "(1/3)" in joined.response.content and joined.ephemeral
    assert (await wallet.account(members[0].id)).held == 300
    again = await members[0].slash(channel, "tournament join", event=1)
    assert "already registered" in again.response.content
    left = await members[0].slash(channel, "tournament leave", event=1)
    assert "300 beans released" in left.response.content
    assert (await wallet.account(members[0].id)).held == 0
    listed = await members[3].slash(channel, "tournament list")
    assert "#1 doudizhu · sitngo · 0/3 · open" in listed.response.content
    for member in members[:3]:
        await member.slash(channel, "tournament join", event=1)
    # full: round 1 starts, each player is told their table and seat
    for member in members[:3]:
        dms = [m.content for m in member.user.dm_channel.history()]
        assert any("Event 1, round 1: you sit at" in (c or "") for c in dms), dms
    standings = await members[3].slash(channel, "tournament standings", event=1)
    assert "Event 1 standings (round 1)" in standings.response.content
    info = await members[3].slash(channel, "tournament info", event=1)
    assert "entry fee 300 beans" in info.response.content
    cancelled = await boss.slash(channel, "tournament cancel", event=1, reason="test")
    assert "900 beans refunded" in cancelled.response.content
    for member in members[:3]:
        account = await wallet.account(member.id)
        assert account.held == 0 and account.balance == simcord_bot.settings.starting_grant
    assert (await wallet.audit(1))[0].action == "tournament:cancel"
