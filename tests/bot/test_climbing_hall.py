"""新够级 with six people and 百变双扣 with four, in Discord through SimCord: a 革命, a 烧 claimed
in a private window, 36-card hands through the menus, a six-seat table message that stays
readable, a 双扣 hand with a star contribution itemized in its settlement, balances conserved.

The deals are fixed (``deals``): each seed was chosen offline by playing the engine from
``Setup(seed=...)`` with the trustee so that the hand holds the event the scenario checks."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from simgames import (  # type: ignore[import-not-found]
    HandWatch,
    dm_of,
    hints_until,
    menu_labels,
    open_table,
    play_by_menus,
    rake_and_changes,
    table_now,
)
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    day_long_settings,
    hint_of,
    public_text,
)

from bot.client import GameHall, create_bot
from bot.render.text import cards
from bot.settings import Settings
from engines.climbing.notation import format_cards

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    """The shipped configuration with every turn a day long (``day_long_settings``)."""
    return day_long_settings(tmp_path)


@pytest.fixture
def deals() -> list[int]:
    """The seeds of the next hands, in order (a test fills it before Start)."""
    return []


@pytest.fixture
async def simcord_bot(settings: Settings, deals: list[int]) -> AsyncIterator[GameHall]:
    bot = create_bot(settings, seed_source=lambda: deals.pop(0))
    yield bot
    db = getattr(bot, "db", None)
    if db is not None:
        await db.close()


def world(env: Any, people: int) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    return guild, channel, [guild.add_member(env.create_user(n)) for n in NAMES[:people]]


def card_labels(hand: str) -> list[str]:
    """A climbing hand or play ("334TTB") as the menus label its cards."""
    return [c for c in hand if not c.isspace()]


async def test_gouji_six_people_with_a_revolution_and_a_burn(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """Seed 224: ann (seat 1) holds no 2 and no joker and revolts; later, in the first 够级
    window where a seat may burn, that seat burns in secret while the 对头 answers at the
    table (which seats, the trustee's play up to there decides)."""
    env, bot = simcord_env, simcord_bot
    deals.append(224)
    guild, channel, members = world(env, 6)
    await open_table(channel, members, "gouji_new")
    watch = await HandWatch.start(bot, channel, members, members[0])
    game = bot.manager.tables[channel.id].game
    for seat, member in enumerate(members):
        # only a hand with no 2 and no joker is offered the revolution, and only privately
        assert ("Revolt" in button_labels(dm_of(member))) == (seat == 0)
    assert "Revolt" not in button_labels(await table_now(bot, channel)), "the table tells no one"

    # 宣点: ann revolts from her DM, the others answer in theirs
    for seat, member in enumerate(members):
        label = "Revolt" if seat == 0 else "Don't declare"
        done = await member.user.click(dm_of(member), label=label)
        assert "❌" not in (done.response.content or "")
    assert "Seat 1 revolted" in public_text(await table_now(bot, channel))
    # her 对头 (dan, seat 4) chooses 要头 / 无头 at the table
    assert acting_seats(await table_now(bot, channel)) == [3]
    await members[3].click(await table_now(bot, channel), label="Head (要头)")
    assert game.phase() == "play"
    for seat in range(1, 6):
        reply = await members[seat].slash(channel, "hand")
        hand = card_labels(game.view(seat).hand)
        assert len(hand) == 36 and sorted(menu_labels(reply.response.message)) == sorted(hand)

    # play on until the first 够级 window in which someone may burn
    def burnable() -> bool:
        return game.phase() == "burn" and any(
            a.startswith("burn ") for s in game.to_act() for a in game.legal_actions(s))

    await hints_until(channel, members, game, burnable)
    owner = game.top.owner
    # one seat answers the play at the table (the 对头), one other may burn it in secret
    (duitou,) = [s for s, kind in game.window_seats.items() if kind == "beat"]
    (burner,) = [s for s, kind in game.window_seats.items() if kind == "burn"]
    assert owner not in (duitou, burner)
    shown = await table_now(bot, channel)
    assert acting_seats(shown) == [duitou], "the table shows the 对头 only"
    assert f"seat {duitou + 1}, may answer" in public_text(shown)
    views = {s: await members[s].slash(channel, "hand") for s in range(6) if s != owner}
    for seat, reply in views.items():
        assert ("No burn" in button_labels(reply.response.message)) == (seat == burner)
        # the claim comes to the burner unasked: its DM is brought up to date
        assert ("No burn" in button_labels(dm_of(members[seat]))) == (seat == burner)
    burn = next(a for a in game.legal_actions(burner) if a.startswith("burn "))
    # the 对头 passes first; the claim is still secret
    await members[duitou].click(await table_now(bot, channel), label="Pass")
    assert game.phase() == "burn" and acting_seats(await table_now(bot, channel)) == []
    burning = views[burner].response.message
    assert sorted(menu_labels(burning)) == sorted(card_labels(game.view(burner).hand))
    done = await play_by_menus(members[burner], burning, card_labels(burn.removeprefix("burn ")))
    assert done.acknowledged and "❌" not in (done.response.content or "")
    text = public_text(await table_now(bot, channel))
    assert (f"Seat {burner + 1} burns seat {owner + 1}'s gouji play" in text
            and f"Seat {burner + 1} is burning seat {owner + 1}" in text)

    # to the end: the table shows, for six, whose turn, what lies on the table, counts of
    # 10 or fewer (报牌), who is out and in which place
    seen_out = False
    for _ in range(400):
        if game.is_over():
            break
        shown = await table_now(bot, channel)
        text, fields = public_text(shown), shown.embeds[0].fields
        assert acting_seats(shown) == list(game.public_to_act())
        if game.phase() == "play" and game.mode != "lead":
            # what lies on the table: the top play, last in the round line, by who played it
            top = game.top.owner
            now = next(line for line in text.splitlines() if line.startswith("This round: "))
            turns = now.removeprefix("This round: ").split(" → ")
            plays = [x for x in turns if not x.split(": ", 1)[1].startswith("pass")]
            assert plays[-1].startswith(
                f"{top + 1}. {members[top].name}: {cards(format_cards(game.top.cards))}"), now
            assert "On the table" not in text
        for s in range(6):
            count = sum(game.hands[s])
            if 0 < count <= 10 and game.active(s):
                assert f"{count} in hand" in fields[s].value, (s, fields[s].value)
        for place, s in enumerate(game.finished, start=1):
            seen_out = True
            assert f"out in place {place} " in fields[s].value, (s, fields[s].value)
        if game.finished:
            assert "Out in order: seats " + " ".join(str(s + 1) for s in game.finished) in text
        seat = game.to_act()[0]
        hint = await members[seat].slash(channel, "hint")
        await members[seat].slash(channel, "play", action=hint_of(hint))
    assert game.is_over() and seen_out
    final = await watch.check_settled()
    named = r"seat (\d) \(\w+\)"  # each seat with its name, as every settlement line names it
    places = re.search(rf"Places: 1st {named}, 2nd {named}, 3rd {named}, 4th {named}, "
                       rf"5th {named}, last {named}", final)
    assert places and sorted(places.groups()) == list("123456"), final
    assert places[1] == str(game.finished[0] + 1), "the first out is 头科"
    assert "Seat 1 (ann): " in final and "revolted" in final
    assert await rake_and_changes(bot, guild.id, watch) == (6 * 5, 0)


async def test_shuangkou_hand_with_a_star_contribution_itemized(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """Seed 23: the third seat plays a 6-star bomb; each other seat pays it the 2-point
    contribution (stars are for bombs as played), itemized beside the result's payments."""
    env, bot = simcord_env, simcord_bot
    deals.append(23)
    guild, channel, members = world(env, 4)
    await open_table(channel, members, "shuangkou")
    watch = await HandWatch.start(bot, channel, members, members[0])
    game = bot.manager.tables[channel.id].game
    assert game.stars[2] == 6
    for seat, member in enumerate(members):
        reply = await member.slash(channel, "hand")
        hand = card_labels(game.view(seat).hand)
        assert len(hand) == 27 and sorted(menu_labels(reply.response.message)) == sorted(hand)
    leader = acting_seats(await table_now(bot, channel))[0]
    reply = await members[leader].slash(channel, "hand")
    lead = card_labels(game.hint(leader))
    played = await play_by_menus(members[leader], reply.response.message, lead)
    assert played.acknowledged and "❌" not in (played.response.content or "")
    await hints_until(channel, members, game, lambda: False)
    assert game.is_over() and game.played_stars[2] == 6

    text = public_text(await table_now(bot, channel))
    assert f"Hand #{watch.hand_id} settled" in text
    assert f"Seat 3 ({members[2].name}) played 6 stars: each other seat pays " in text
    rate = bot.settings.rooms["novice"].coefficient
    outcome = game.outcome()
    wallet = bot.manager.wallet_for(guild.id)
    paid = {m.id: -5 for m in members}
    for transfer in outcome.transfers:
        payer, payee = members[transfer.payer], members[transfer.payee]
        beans = transfer.points * rate
        line = (f"Seat {transfer.payer + 1} ({payer.name}) → seat {transfer.payee + 1} "
                f"({payee.name}): {transfer.points} points, {beans} beans")
        if transfer.reason is not None and transfer.reason.key == "shuangkou.reason.stars":
            line += " · 6-star contribution"
        assert line in text, line
        paid[payer.id] -= beans
        paid[payee.id] += beans
    assert sum(1 for t in outcome.transfers if t.payee == 2 and t.points == 2) == 3
    for member in members:
        account = await wallet.account(member.id)
        assert account.balance - watch.balances[member.id] == paid[member.id]
        assert account.held == 0
    # the hands left at the end are shown beside the settlement
    final = game.view(None)
    for seat, member in enumerate(members):
        left = final.seats[seat].cards
        if left and seat not in game.finished:
            shown = rf"^Seat {seat + 1} \({member.name}\): .* — {re.escape(cards(left))}"
            assert re.search(shown, text, re.MULTILINE), left
    assert any(final.seats[s].cards and s not in game.finished for s in range(4))
    assert await rake_and_changes(bot, guild.id, watch) == (4 * 5, 0)


async def test_shuangkou_shows_the_partners_lead_and_the_pass_and_table_last(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """Bug (issue 26): by dan's turn bob's lead (his partner's) and cat's pass were gone; only
    the top play was shown. Seed 1: bob (seat 2) leads 3…A, cat passes; dan's table message
    and his /hand show both, in order; once the round is over, /table last shows it whole."""
    env, bot = simcord_env, simcord_bot
    deals.append(1)
    _guild, channel, members = world(env, 4)
    await open_table(channel, members, "shuangkou")
    await HandWatch.start(bot, channel, members, members[0])
    game = bot.manager.tables[channel.id].game
    ann, bob, cat, dan = members
    nothing = await dan.slash(channel, "table last")
    assert nothing.ephemeral and nothing.response.content == "No round has been finished yet."
    assert acting_seats(await table_now(bot, channel)) == [1]
    assert (await bob.slash(channel, "play", action="3456789TJQKA")).ephemeral
    assert "❌" not in (await cat.slash(channel, "play", action="pass")).response.content
    message = await table_now(bot, channel)
    assert acting_seats(message) == [3]
    round_so_far = "This round: 2. bob: 3 4 5 6 7 8 9 T J Q K A → 3. cat: pass"
    assert round_so_far in public_text(message)
    mine = await dan.slash(channel, "hand")
    assert round_so_far in mine.response.content, "the private view shows the round too"
    await dan.slash(channel, "play", action="pass")
    await ann.slash(channel, "play", action="pass")
    assert game.to_act() == (1,) and game.table is None  # bob leads the next round
    last = await cat.slash(channel, "table last")
    assert last.ephemeral
    assert last.response.content == (
        "Last round (taken by 2. bob): 2. bob: 3 4 5 6 7 8 9 T J Q K A → 3. cat: pass"
        " → 4. dan: pass → 1. ann: pass")
