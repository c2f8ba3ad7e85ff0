"""Fair play through Discord: the leaver record on /beans, /settings autopass, the moderator
views (/mod pairs, /mod player, /mod economy with its chart), /mod clearrecord, and a season
that ends audited with its leaderboard readable under /leaderboard season:."""

from __future__ import annotations

import io

import discord
from PIL import Image
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    hint_of,
    play_hand_with_hints,
    public_text,
    table_message,
)

from bot.client import GameHall
from storage import economy


def hall(env, with_mod: bool = True):
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in ("ann", "bob", "cat")]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(env.create_user("boss"), roles=[mods])
    return guild, channel, members, boss


async def seat_three(channel, members) -> discord.Message:
    await members[0].slash(channel, "table create", game="doudizhu", room="novice")
    for member in members[1:]:
        await member.click(table_message(channel), label="Join")
    return table_message(channel)


async def test_an_escape_shows_on_beans_and_a_moderator_clears_it(simcord_env,
                                                                   simcord_bot: GameHall) -> None:
    guild, channel, members, boss = hall(simcord_env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    left = await members[1].slash(channel, "table leave")
    assert left.ephemeral
    record = await members[1].slash(channel, "beans")
    assert "Leaver record: 1 (escapes 1" in record.response.content
    seen = await boss.slash(channel, "beans", member=members[1])
    assert "Leaver record: 1" in seen.response.content
    refused = await members[2].slash(channel, "mod clearrecord", member=members[1], reason="x")
    assert "Only moderators" in refused.response.content
    cleared = await boss.slash(channel, "mod clearrecord", member=members[1], reason="talked")
    assert "cleared (it had 1)" in cleared.response.content
    record = await members[1].slash(channel, "beans")
    assert "Leaver record: 0 (escapes 1" in record.response.content, "lifetime counts stay"
    audit = await simcord_bot.wallet_for(guild.id).audit(1)
    assert (audit[0].action, audit[0].uid, audit[0].reason) == ("clear_record", members[1].id,
                                                                "talked")


async def test_autopass_setting_answers_and_sticks(simcord_env, simcord_bot: GameHall
                                                   ) -> None:
    _, channel, members, _ = hall(simcord_env)
    off = await members[0].slash(channel, "settings autopass", state="off")
    assert off.ephemeral and "auto-pass is off" in off.response.content
    assert not simcord_bot.manager.referee.autopass_on(members[0].id)
    on = await members[0].slash(channel, "settings autopass", state="on")
    assert f"after {simcord_bot.settings.autopass_delay} s" in on.response.content
    assert simcord_bot.manager.referee.autopass_on(members[0].id)


async def test_moderators_see_pairs_partners_and_the_money_supply(simcord_env,
                                                                  simcord_bot: GameHall) -> None:
    guild, channel, members, boss = hall(simcord_env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    await play_hand_with_hints(simcord_env, channel, members)
    table = simcord_bot.manager.tables[channel.id]
    deltas = {s["uid"]: s["delta"] for s in table.last_result["seats"]}
    refused = await members[0].slash(channel, "mod pairs")
    assert "Only moderators" in refused.response.content
    pairs = await boss.slash(channel, "mod pairs")
    rows = pairs.response.content.splitlines()
    assert rows[0].startswith("Most one-way pairs") and len(rows) == 4
    assert all("1 hands together" in row for row in rows[1:])
    partners = await boss.slash(channel, "mod player", member=members[0])
    lines = partners.response.content.splitlines()
    assert len(lines) == 3 and all("1 hands" in line for line in lines[1:])
    shown = {int(line.split(">")[0][2:]): int(line.split("hands, ")[1].split(" beans")[0])
             for line in lines[1:]}
    partners = await simcord_bot.manager.referee.conduct.partners(
        members[0].id, economy=guild.id, guild_id=guild.id)
    assert shown == {p.uid: p.gained for p in partners}
    assert sum(shown.values()) * deltas[members[0].id] > 0, "her beans went to or came from them"
    report = await boss.slash(channel, "mod economy")
    text = report.response.content
    wallet = simcord_bot.wallet_for(guild.id)
    supply = (await wallet.totals()).players
    rake = await wallet.house_balance()
    assert f"Money supply: {supply} beans held by 3 players" in text
    assert f"rake {rake}" in text and "starting grants 30000" in text
    png = await report.response.attachments[0].read()
    assert Image.open(io.BytesIO(png)).size == (640, 280)


async def test_a_season_ends_audited_and_its_leaderboard_stays_readable(
    simcord_env, simcord_bot: GameHall
) -> None:
    guild, channel, members, boss = hall(simcord_env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    running = await boss.slash(channel, "mod season", levels="reset")
    assert "still running" in running.response.content
    await play_hand_with_hints(simcord_env, channel, members)
    before = await members[0].slash(channel, "leaderboard", game="doudizhu")
    ended = await boss.slash(channel, "mod season", levels="reset")
    assert "Season 1 ended" in ended.response.content
    grant = simcord_bot.settings.starting_grant
    wallet = simcord_bot.wallet_for(guild.id)
    assert [(await wallet.account(m.id)).balance for m in members] == [grant] * 3
    audit = (await wallet.audit(1))[0]
    assert (audit.action, audit.moderator_id, audit.amount) == ("season_end", boss.id, 1)
    now = await members[0].slash(channel, "leaderboard", game="doudizhu")
    assert "Nobody has played yet" in now.response.content, "levels were reset"
    past = await members[0].slash(channel, "leaderboard", game="doudizhu", season=1)
    assert past.response.content.splitlines()[1:] == before.response.content.splitlines()[1:]
    assert "season 1" in past.response.content
    missing = await members[0].slash(channel, "leaderboard", game="doudizhu", season=2)
    assert "no season 2" in missing.response.content
    assert [s.number for s in await economy.seasons(simcord_bot.db, economy=guild.id)] == [1]


async def test_daily_for_a_frozen_player_says_the_account_is_frozen(
    simcord_env, simcord_bot: GameHall
) -> None:
    """Bug: /daily answered a frozen player "only for players below the threshold"."""
    guild, channel, members, boss = hall(simcord_env)
    ann = members[0]
    wallet = simcord_bot.wallet_for(guild.id)
    await wallet.ensure_player(ann.id)
    await wallet.revoke(ann.id, (await wallet.account(ann.id)).free, "test", boss.id)
    await boss.slash(channel, "mod freeze", member=ann)
    refused = await ann.slash(channel, "daily")
    assert refused.ephemeral
    assert "frozen" in refused.response.content
    assert "threshold" not in refused.response.content
    assert (await wallet.account(ann.id)).balance == 0, "nothing was paid"


async def test_season_ledger_rows_carry_the_moderator(simcord_env, simcord_bot: GameHall
                                                      ) -> None:
    guild, channel, members, boss = hall(simcord_env)
    wallet = simcord_bot.wallet_for(guild.id)
    await wallet.ensure_player(members[0].id)
    await wallet.grant(members[0].id, 500, "prize", boss.id)
    ended = await boss.slash(channel, "mod season", levels="keep")
    assert "Season 1 ended" in ended.response.content
    row = (await wallet.ledger(members[0].id, 1))[0]
    assert (row.reason, row.moderator_id) == ("season", boss.id)


async def test_standing_up_after_a_settled_hand_is_no_strike(simcord_env, simcord_bot: GameHall
                                                             ) -> None:
    """Bug: after a 斗地主 hand played to settlement, /table leave said "leaver record: 1. This is
    a warning…" and /beans showed "full tables abandoned 1"."""
    _, channel, members, _ = hall(simcord_env)
    message = await seat_three(channel, members)
    await members[0].click(message, label="Start")
    await play_hand_with_hints(simcord_env, channel, members)
    left = await members[2].slash(channel, "table leave")
    assert left.ephemeral
    shown = public_text(table_message(channel))
    assert "cat stood up" in shown and "leaver record" not in shown
    beans = await members[2].slash(channel, "beans")
    assert "Leaver record" not in beans.response.content


async def test_a_hand_left_to_the_trustee_is_told_and_is_not_clean(simcord_env,
                                                                   simcord_bot: GameHall) -> None:
    """Bugs: a hand the trustee played for someone cost a strike the table was not told of,
    and a hand handed to the trustee after one action counted as clean (1/10 → 2/10)."""
    _, channel, members, _ = hall(simcord_env)
    bob = members[1]
    message = await seat_three(channel, members)
    await bob.slash(channel, "trustee on")
    await members[0].click(message, label="Start")
    await play_hand_with_hints(simcord_env, channel, [members[0], None, members[2]])
    shown = public_text(table_message(channel))
    assert "bob's leaver record: 1. This is a warning" in shown, shown
    beans = await bob.slash(channel, "beans")
    assert "hands left to the trustee 1" in beans.response.content
    assert "0/10 clean hands" in beans.response.content
    # back at the table, he plays one action himself and hands the rest to the trustee
    await bob.click(table_message(channel), label="Join")
    await bob.slash(channel, "trustee off")
    await members[0].click(table_message(channel), label="Start")
    seated = [members[0], members[2], bob]  # stood up after the last hand, he sat down last
    for _ in range(100):
        if acting_seats(table_message(channel)) == [2]:
            break
        await play_step(channel, seated)
    hint = await bob.slash(channel, "hint")
    played = await bob.slash(channel, "play", action=hint_of(hint))
    assert "❌" not in (played.response.content or "")
    await bob.slash(channel, "trustee on")
    await play_hand_with_hints(simcord_env, channel, [members[0], members[2], None])
    beans = await bob.slash(channel, "beans")
    assert "hands left to the trustee 1" in beans.response.content, "he acted: not absent"
    assert "0/10 clean hands" in beans.response.content, "nor played to the end by him"


async def play_step(channel, members) -> None:
    """The seat the table shows to act plays its hint."""
    player = members[acting_seats(table_message(channel))[0]]
    hint = await player.slash(channel, "hint")
    await player.slash(channel, "play", action=hint_of(hint))


async def test_mod_player_figures_add_up_to_the_ledger(simcord_env, simcord_bot: GameHall
                                                       ) -> None:
    """Bug: the ledger said a winner won 395 and /mod player showed 197 + 197: each loser's
    share was rounded down on its own. A winner's figures grow by the beans they won."""
    guild, channel, members, boss = hall(simcord_env)
    wallet = simcord_bot.wallet_for(guild.id)
    message = await seat_three(channel, members)

    async def figures(member) -> int:
        partners = await boss.slash(channel, "mod player", member=member)
        lines = partners.response.content.splitlines()[1:]
        return sum(int(line.split("hands, ")[1].split(" beans")[0]) for line in lines)

    before = {m.id: 0 for m in members}
    for _ in range(4):  # the fourth deal: one winner (595) paid by two losers
        await members[0].click(message, label="Start")
        await play_hand_with_hints(simcord_env, channel, members)
        hand_id = simcord_bot.manager.tables[channel.id].last_result["hand_id"]
        for m in members:
            won = sum(r.delta for r in await wallet.ledger(m.id, 5) if r.hand_id == hand_id)
            now = await figures(m)
            if won > 0:
                assert now - before[m.id] == won, (m.name, hand_id, won, now - before[m.id])
            before[m.id] = now
        message = table_message(channel)
