"""升级 and 打滚子 tables in Discord, played through SimCord by four people: trump declared in a
private window during the deal, 扣底 and plays through the multi-menu card picker, a follow
error that explains itself, settlement, and the levels carried into the next hand.

The deals are fixed (``deals``): each seed was chosen offline by playing the engine from
``Setup(seed=...)`` so that the hand holds the event the scenario checks."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from simgames import (  # type: ignore[import-not-found]
    NAMES,
    HandWatch,
    dm_of,
    hints_until,
    menu_labels,
    open_table,
    play_by_menus,
    rake_and_changes,
    selects,
    table_now,
    world,
)
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    day_long_settings,
    hint_of,
    public_text,
)

from bot.client import GameHall, create_bot
from bot.settings import Settings
from engines.trick.cards import format_ids, parse_ids


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


async def test_shengji_hand_with_declaring_burying_and_levels_carried(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """Seed 57: seat 1 (ann) can declare the big-joker pair (无主) in the sixth window; her side
    takes the deal, keeps the defenders under 80 and goes up from 2 to 3."""
    env, bot = simcord_env, simcord_bot
    deals.extend([57, 1])
    guild, channel, members = world(env, 4)
    await open_table(channel, members, "shengji")
    watch = await HandWatch.start(bot, channel, members, members[0])
    table = bot.manager.tables[channel.id]
    game = table.game
    shown = public_text(await table_now(bot, channel))
    assert "Levels: seats 1 & 3 at 2; seats 2 & 4 at 2" in shown
    assert "no trump declared yet" in shown

    # the deal: each window is answered in the DMs; the table never shows who may declare
    declared = None
    while game.phase() == "declare":
        assert acting_seats(await table_now(bot, channel)) == [], "declaring is private"
        eligible = game.to_act()
        for seat, member in enumerate(members):
            offers = [x for x in button_labels(dm_of(member)) if x.startswith("Declare")]
            assert bool(offers) == (seat in eligible), (seat, offers, eligible)
        seat = eligible[0]
        labels = button_labels(dm_of(members[seat]))
        jokers = [x for x in labels if x in ("Declare B B", "Declare R R")]
        label = jokers[-1] if declared is None and jokers else "Pass"
        done = await members[seat].user.click(dm_of(members[seat]), label=label)
        assert "❌" not in (done.response.content or "")
        if label != "Pass":
            declared = (seat, label)
            assert "Seat 1 declared R R" in public_text(await table_now(bot, channel))
    assert declared == (0, "Declare R R")

    # 扣底: the 庄 took the kitty (33 cards) and buries 8 through the menus of her DM
    assert game.phase() == "bury" and acting_seats(await table_now(bot, channel)) == [0]
    assert "Level 2; no trump" in public_text(await table_now(bot, channel))
    dm = dm_of(members[0])
    hand = game.view(0).hand.split()
    assert len(hand) == 33 and sorted(menu_labels(dm)) == sorted(hand), "every card is offered"
    assert len(selects(dm)) <= 4 and "Play" in button_labels(dm)
    bury = game.hint(0).split()[1:]
    buried = await play_by_menus(members[0].user, dm, bury)
    assert buried.acknowledged and game.phase() == "play"
    assert sorted(game.buried) == sorted(parse_ids(" ".join(bury)))

    # the first lead, through /hand: all 25 cards in the menus (trumps and four suits)
    reply = await members[0].slash(channel, "hand")
    assert reply.ephemeral
    hand = game.view(0).hand.split()
    assert len(hand) == 25 and sorted(menu_labels(reply.response.message)) == sorted(hand)
    lead = game.hint(0).split()
    played = await play_by_menus(members[0], reply.response.message, lead)
    assert played.acknowledged and game.trick == [(0, parse_ids(" ".join(lead)))]

    # a follow that ignores the led suit is refused with the reason, and changes nothing
    refused = False
    # until a trick closes after the refusal (the first lead may be a throw: no refusal then)
    while game.phase() == "play" and not (refused and game.tricks and not game.trick):
        seat = game.turn
        if game.trick and game.lead.n == 1 and not refused:
            ids = parse_ids(game.view(seat).hand)
            led = [c for c in ids if game.ctx.eff[c] == game.lead.suit]
            off = [c for c in ids if game.ctx.eff[c] != game.lead.suit]
            if led and off:
                log = list(game.log)
                wrong = await members[seat].slash(channel, "play", action=format_ids([off[0]]))
                assert wrong.ephemeral and wrong.response.content.startswith("❌")
                assert "You still hold" in wrong.response.content
                assert "follow suit first" in wrong.response.content
                assert game.log == log
                refused = True
        hint = await members[seat].slash(channel, "hint")
        await members[seat].slash(channel, "play", action=hint_of(hint))
    assert refused

    # the table shows the points taken and the last trick once a trick is won
    text = public_text(await table_now(bot, channel))
    assert "Defenders' points: " in text and "Last round (taken by " in text
    last = game.view(None).last_round
    assert last is not None and f"taken by {last.winner + 1}. " in text
    assert " → ".join(f"{p.seat + 1}. {NAMES[p.seat]}: {p.cards}" for p in last.plays) in text
    await hints_until(channel, members, game, lambda: False)
    final = await watch.check_settled()
    assert "the declarers go up 1 level(s)" in final
    assert await rake_and_changes(bot, guild.id, watch) == (4 * 5, 0)

    # the next hand at the same table starts from the new levels, dealt by the partner
    await members[0].click(await table_now(bot, channel), label="Start")
    text = public_text(await table_now(bot, channel))
    assert "Levels: seats 1 & 3 at 3; seats 2 & 4 at 2" in text
    assert "Level 3; no trump declared yet" in text
    assert table.game.levels == [3, 2] and table.game.dealer == 2


async def test_dagunzi_hand_to_settlement_with_39_card_hands_in_the_menus(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """Seed 7: a first hand of 打滚子, played to its score. Seats 4, 2 and 3 are dealt a 大王
    (in that order): each is asked in its DM whether to show it (亮大王), the table names
    nobody, and of those who show the one dealt a 大王 first, seat 4, is the 庄."""
    env, bot = simcord_env, simcord_bot
    deals.append(7)
    guild, channel, members = world(env, 4)
    await open_table(channel, members, "dagunzi")
    watch = await HandWatch.start(bot, channel, members, members[0])
    game = bot.manager.tables[channel.id].game
    assert game.phase() == "show"
    while game.phase() == "show":
        shown = await table_now(bot, channel)
        assert acting_seats(shown) == [] and button_labels(shown) == ["My hand"]
        assert "a seat dealt a big joker may show it" in public_text(shown)
        offers = {seat: [x for x in button_labels(dm_of(member)) if x.startswith("Show the big")]
                  for seat, member in enumerate(members)}
        assert [s for s in range(4) if offers[s]] == list(game.to_act())
        seat = game.to_act()[0]
        assert "Don't show" in button_labels(dm_of(members[seat]))
        done = await members[seat].user.click(dm_of(members[seat]), label=offers[seat][0])
        assert "❌" not in (done.response.content or "")
    dealer = game.dealer
    assert dealer == 3
    assert "Seat 4 showed a big joker and deals" in public_text(await table_now(bot, channel))
    shown = public_text(await table_now(bot, channel))
    for seat in range(4):
        count = 45 if seat == dealer else 39
        assert len(game.view(seat).hand.split()) == count and f"{count} in hand" in shown

    # the 庄 took the kitty and buries 6 of its 45 cards through the menus of its DM
    assert game.phase() == "bury" and acting_seats(await table_now(bot, channel)) == [dealer]
    dm = dm_of(members[dealer])
    hand = game.view(dealer).hand.split()
    assert len(hand) == 45 and sorted(menu_labels(dm)) == sorted(hand), "every card is offered"
    buried = await play_by_menus(members[dealer].user, dm, game.hint(dealer).split()[1:])
    assert buried.acknowledged and len(game.view(dealer).hand.split()) == 39

    # the others may bury jokers: a private window, offered in the DMs of those who hold them
    assert game.phase() == "jokers"
    while game.phase() == "jokers":
        shown = await table_now(bot, channel)
        assert acting_seats(shown) == [] and button_labels(shown) == ["My hand"]
        for seat, member in enumerate(members):
            offers = [x for x in button_labels(dm_of(member)) if x.startswith("bury ")]
            assert bool(offers) == (seat in game.to_act()), (seat, offers)
        seat = game.to_act()[0]
        done = await members[seat].user.click(dm_of(members[seat]), label=game.hint(seat))
        assert "❌" not in (done.response.content or "")
    # then the 庄 leads from /hand
    leader = game.turn
    reply = await members[leader].slash(channel, "hand")
    hand = game.view(leader).hand.split()
    assert sorted(menu_labels(reply.response.message)) == sorted(hand) and len(hand) >= 36
    played = await play_by_menus(members[leader], reply.response.message,
                                 game.hint(leader).split())
    assert played.acknowledged and game.trick and game.trick[0][0] == leader

    # a follower's view holds its whole hand too
    follower = game.turn
    reply = await members[follower].slash(channel, "hand")
    assert sorted(menu_labels(reply.response.message)) == sorted(
        game.view(follower).hand.split())
    await hints_until(channel, members, game, lambda: False)
    await watch.check_settled()
    assert await rake_and_changes(bot, guild.id, watch) == (4 * 5, 0)


async def test_shengji_a_declaration_updates_the_other_dms_and_can_be_overridden(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """Seed 11: in the first window ann may declare 2♠ and bob 2♦ or a pair of 2♦. Once ann
    declares, bob's DM offers only what still beats her: the pair (反主)."""
    env, bot = simcord_env, simcord_bot
    deals.append(11)
    _guild, channel, members = world(env, 4)
    await open_table(channel, members, "shengji")
    await members[0].click(await table_now(bot, channel), label="Start")
    game = bot.manager.tables[channel.id].game
    ann, bob = members[0], members[1]
    assert {"Declare 2d", "Declare 2d 2d"} <= set(button_labels(dm_of(bob)))
    done = await ann.user.click(dm_of(ann), label="Declare 2s")
    assert "❌" not in (done.response.content or "")
    assert "Seat 1 declared 2s" in public_text(await table_now(bot, channel))
    offers = [x for x in button_labels(dm_of(bob)) if x.startswith("Declare")]
    assert offers == ["Declare 2d 2d"], "a single 2♦ no longer beats ann's 2♠"
    done = await bob.user.click(dm_of(bob), label="Declare 2d 2d")
    assert "❌" not in (done.response.content or "")
    assert "Seat 2 declared 2d 2d" in public_text(await table_now(bot, channel))
    assert game.decl.seat == 1 and game.fanzhu == 1


async def test_happy_shengji_counter_window_is_offered_in_the_claimants_dm(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """Seed 34 (欢乐升级): cat declares and buries; only dan may 反底, with a pair of 2♠. The
    window is private: the table shows no one, and dan's DM offers the counter unasked."""
    env, bot = simcord_env, simcord_bot
    deals.append(34)
    _guild, channel, members = world(env, 4)
    await open_table(channel, members, "shengji_happy")
    await members[0].click(await table_now(bot, channel), label="Start")
    game = bot.manager.tables[channel.id].game
    while game.phase() in ("declare", "bury"):
        seat = game.to_act()[0]
        hint = await members[seat].slash(channel, "hint")
        await members[seat].slash(channel, "play", action=hint_of(hint))
    assert game.phase() == "counter" and game.kitty_owner == 2 and game.to_act() == (3,)
    shown = await table_now(bot, channel)
    assert acting_seats(shown) == [] and button_labels(shown) == ["My hand"]
    for seat, member in enumerate(members):
        offers = [x for x in button_labels(dm_of(member)) if x.startswith("Counter")]
        assert offers == (["Counter 2s 2s"] if seat == 3 else []), (seat, offers)
    done = await members[3].user.click(dm_of(members[3]), label="Counter 2s 2s")
    assert "❌" not in (done.response.content or "")
    assert game.phase() == "bury" and game.kitty_owner == 3 and game.fandi == 1
    shown = await table_now(bot, channel)
    assert "Counters: 0 trump, 1 kitty" in public_text(shown) and acting_seats(shown) == [3]
    assert len(menu_labels(dm_of(members[3]))) == 33, "dan's DM now holds the kitty to bury"


async def test_shengji_declare_and_bury_refusals_point_to_the_notation_help(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """Issue 26: a declaration or a burial written the wrong way ends with the `/help game:`
    pointer, as in every other family, and the bury prompt names the `bury` verb. Seed 11: ann
    may declare 2♠ in the first window."""
    env, bot = simcord_env, simcord_bot
    deals.append(11)
    _guild, channel, members = world(env, 4)
    await open_table(channel, members, "shengji")
    await members[0].click(await table_now(bot, channel), label="Start")
    game = bot.manager.tables[channel.id].game
    ann = members[0]
    log = list(game.log)
    wrong = await ann.slash(channel, "play", action="2s")  # the verb is missing
    assert wrong.ephemeral and wrong.response.content.startswith("❌")
    assert "declare trump (`declare` and the cards) or pass" in wrong.response.content
    assert wrong.response.content.endswith("How to write it: `/help game:shengji`.")
    assert game.log == log
    await ann.user.click(dm_of(ann), label="Declare 2s")
    while game.phase() == "declare":
        seat = game.to_act()[0]
        await members[seat].user.click(dm_of(members[seat]), label="Pass")
    assert game.phase() == "bury"
    burier = members[game.to_act()[0]]
    assert "`bury`" in dm_of(burier).content, "the bury prompt names the verb"
    hand = game.view(game.to_act()[0]).hand.split()
    for action, reason in [(" ".join(hand[:8]), "Bury the kitty first"),
                           ("bury " + hand[0], "Bury exactly 8 cards, not 1")]:
        wrong = await burier.slash(channel, "play", action=action)
        assert wrong.ephemeral and reason in wrong.response.content, wrong.response.content
        assert wrong.response.content.endswith("`/help game:shengji`."), action
    assert game.phase() == "bury"


async def test_dagunzi_show_and_bury_refusals_point_to_the_notation_help(
    simcord_env: Any, simcord_bot: GameHall, deals: list[int]
) -> None:
    """打滚子 the same (seed 7: seats 4, 2 and 3 may show a 大王; seat 4 deals and buries 6)."""
    env, bot = simcord_env, simcord_bot
    deals.append(7)
    _guild, channel, members = world(env, 4)
    await open_table(channel, members, "dagunzi")
    await members[0].click(await table_now(bot, channel), label="Start")
    game = bot.manager.tables[channel.id].game
    seat = game.to_act()[0]
    wrong = await members[seat].slash(channel, "play", action="3h")
    assert wrong.response.content.startswith("❌"), wrong.response.content
    assert wrong.response.content.endswith("`/help game:dagunzi`.")
    while game.phase() == "show":
        seat = game.to_act()[0]
        label = next(x for x in button_labels(dm_of(members[seat]))
                     if x.startswith("Show the big"))
        await members[seat].user.click(dm_of(members[seat]), label=label)
    assert game.phase() == "bury"
    burier = members[game.dealer]
    assert "`bury`" in dm_of(burier).content
    hand = game.view(game.dealer).hand.split()
    wrong = await burier.slash(channel, "play", action=" ".join(hand[:6]))
    assert "Bury the kitty first" in wrong.response.content
    assert wrong.response.content.endswith("`/help game:dagunzi`.")
