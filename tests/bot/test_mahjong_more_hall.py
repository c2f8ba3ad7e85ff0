"""陕西, 武汉, 永州 and 二人麻将 at a Discord table: people (four, or two for 二人) act through
SimCord as players would — /hint, /play, the buttons and the discard menus of their DMs — and
each hand is played to its settlement, with the beans checked through the server's wallet.

The deals are real (``Setup(seed=...)``); each seed was found offline by playing the engine with
the policy the players follow here (the hint, and the 炮子 stakes of ``STAKES``), looking for the
event each scenario needs.
"""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import discord
import pytest
from simgames import world  # type: ignore[import-not-found]
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    public_text,
    table_message,
)
from test_mahjong_hall import (  # type: ignore[import-not-found]
    action_ids,
    bot_with_seed,
    check_claim_window,
    dm,
    hint,
    open_and_start,
    selects,
    shown_hand,
)

from bot.client import GameHall
from bot.host.model import private_digest
from bot.i18n import render
from bot.settings import Settings
from engines import registry
from engines.base import Setup
from engines.mahjong.fan import MeldKind
from engines.mahjong.names import tile_text
from engines.mahjong.tiles import tile_name
from storage import history

SHAANXI_SEED = 3
"""陕西: the dealer (seat 3) is not the last to stake; two kongs are paid at once, then seat 2
wins on seat 4's discard, so every loser pays 胡 and 炮子 money."""
STAKES = (1, 2, 0, 3)
"""The 炮子 each seat stakes in the 陕西 hand."""
WUHAN_SEED = 4
"""武汉: a 吃 opens seat 2's hand, seats 4 and 3 put out 红中 as kongs, seat 2 wins by 自摸."""
YONGZHOU_SEED = 7
"""永州: seat 2 吃 (上) seat 1's discard — it is seat 1's 下家 — and later wins by 自摸."""
ERREN_SEED = 14
"""二人: seat 2 declares 报听, the hand plays itself for several of its draws, then it is asked
only to win, and wins by 自摸."""


@pytest.fixture
async def simcord_bot(settings: Settings, seed: int) -> AsyncIterator[GameHall]:
    """The hall's bot dealing every hand from ``seed`` (the test's parameter)."""
    bot = bot_with_seed(settings, seed)
    yield bot
    if getattr(bot, "db", None) is not None:
        await bot.db.close()


def game_of(bot: GameHall, channel: Any) -> Any:
    return bot.manager.tables[channel.id].game


def check_private(members: list[Any], game: Any) -> None:
    """No DM shows another seat's concealed tiles; the seat to act sees the tile it drew."""
    for seat, member in enumerate(members):
        text = dm(member).content
        own = shown_hand(text)
        if game.phase() == "discard" and seat == game.turn and game.drawn is not None:
            assert own == game.hand_text(seat), f"{member.name}'s DM shows its hand as it is"
        rest = text.replace(own, "")
        for other, name in enumerate(m.name for m in members):
            if other != seat and other not in game.winners():
                assert game.hand_text(other) not in rest, f"{member.name} reads {name}'s tiles"
                assert f"{name} shows" not in text


def is_discard(action: str) -> bool:
    return re.fullmatch(r"[1-9][mpsz]", action) is not None


async def discard(member: Any, channel: Any, action: str, by_menu: bool) -> None:
    """A discard: picked from the DM's menu of that suit, or typed with /play."""
    if by_menu:
        private = dm(member)
        for menu in selects(private):
            value = next((o.value for o in menu.options if o.value.endswith(f":{action}")), None)
            if value is not None:
                picked = await member.user.select(private, [value], custom_id=menu.custom_id)
                assert "❌" not in (picked.response.content or ""), picked.response.content
                return
        raise AssertionError(f"{action} is in no menu of {member.name}'s DM")
    played = await member.slash(channel, "play", action=action)
    assert played.ephemeral and "❌" not in played.response.content, played.response.content


async def press(member: Any, channel: Any, action: str) -> None:
    """An action from its button in the DM."""
    private = dm(member)
    assert action in action_ids(private), (action, action_ids(private))
    clicked = await member.user.click(private, custom_id=f"gh:a:{channel.id}:{action}")
    assert clicked.acknowledged and "❌" not in (clicked.response.content or ""), (
        clicked.response.content)


async def play(bot: GameHall, channel: Any, members: list[Any], *, choose: Any = None,
               on_step: Any = None, limit: int = 400) -> dict[str, Any]:
    """Play the hand out: every seat does what /hint says (``choose(game, seat, hinted)`` may
    say otherwise), claims and kongs from the DM's buttons, discards alternately from the DM's
    menu and with /play. ``on_step(game)`` looks at each state. Returns what happened."""
    seen: dict[str, Any] = {"claims": 0, "actions": [], "game": None}
    discards = 0
    for _ in range(limit):
        game = game_of(bot, channel)
        if game is None:
            return seen
        seen["game"] = game
        check_private(members, game)
        if on_step is not None:
            await on_step(game)
        message = table_message(channel)
        if game.phase() == "claim":
            claimants = await check_claim_window(
                channel, members, game, ask=len(members) == 4 and seen["claims"] < 3)
            if len(members) != 4 and seen["claims"] < 3:
                for seat in set(range(len(members))) - set(claimants):
                    hand = await members[seat].slash(channel, "hand")
                    assert hand.ephemeral and not action_ids(hand.response.message), (
                        "a seat with nothing to claim is never asked")
                    assert "Waiting for others" in hand.response.content
            seen["claims"] += 1
            source = game.claim.source
            for seat in claimants:
                action = await hint(members[seat], channel)
                seen["actions"].append((seat, action, source))
                await press(members[seat], channel, action)
            continue
        seats = acting_seats(message)
        assert seats == sorted(game.to_act())
        for seat in seats:
            hinted = await hint(members[seat], channel)
            action = choose(game, seat, hinted) if choose is not None else hinted
            seen["actions"].append((seat, action, None))
            if is_discard(action):
                await discard(members[seat], channel, action, by_menu=discards % 2 == 0)
                discards += 1
            else:
                await press(members[seat], channel, action)
            if len(seats) > 1 and on_step is not None and game_of(bot, channel) is game:
                await on_step(game)
    raise AssertionError("the hand did not finish")


async def stored_game(bot: GameHall, channel: Any, key: str, seed: int, seats: int) -> Any:
    """The hand as the hall stored it, replayed on the engine from its seed and its log."""
    result = bot.manager.tables[channel.id].last_result
    assert result is not None
    hand = await history.get_hand(bot.db, result["hand_id"])
    assert hand is not None and hand.status == "settled"
    spec = registry.specs()[key]
    game = spec.new(Setup(seats=seats, seed=seed, options=spec.validate({})))
    for seat, action in json.loads(hand.record)["log"]:
        game.apply(seat, action)
    assert game.is_over()
    return game


async def balances(bot: GameHall, channel: Any, members: list[Any]) -> tuple[dict[int, int], int]:
    wallet = bot.wallet_for(channel.guild.id)
    for member in members:
        await wallet.ensure_player(member.id)
    return ({m.id: (await wallet.account(m.id)).balance for m in members},
            await wallet.house_balance())


async def check_books(bot: GameHall, channel: Any, members: list[Any], outcome: Any,
                      before: tuple[dict[int, int], int]) -> str:
    """Through the server's wallet: Σ changes + rake = 0 and nothing stays held; the table
    message itemizes every transfer in order (payer → payee, points, beans, reason), and each
    person's change is what those lines moved less the rake."""
    room = bot.settings.rooms["novice"]
    wallet = bot.wallet_for(channel.guild.id)
    after = await balances(bot, channel, members)
    rake = after[1] - before[1]
    changes = {m.id: after[0][m.id] - before[0][m.id] for m in members}
    assert sum(changes.values()) + rake == 0, "beans are neither created nor lost"
    assert rake == len(members) * room.rake
    text = public_text(table_message(channel))
    names = [m.name for m in members]
    moved = dict.fromkeys(range(len(members)), 0)
    at = 0
    assert outcome.transfers, "the hand moved points between seats"
    for transfer in outcome.transfers:
        line = re.compile(rf"Seat {transfer.payer + 1} \({names[transfer.payer]}\) → "
                          rf"seat {transfer.payee + 1} \({names[transfer.payee]}\): "
                          rf"{transfer.points} points, (\d+) beans · (.+)")
        found = line.search(text, at)
        assert found, (transfer, text)
        at = found.end()
        beans = int(found[1])
        assert beans == transfer.points * room.coefficient
        moved[transfer.payer] -= beans
        moved[transfer.payee] += beans
    for seat, member in enumerate(members):
        assert changes[member.id] == moved[seat] - room.rake, member.name
        points = outcome.points[seat]
        shown = re.escape(f"Seat {seat + 1} ({member.name}): {points:+d} points" if points
                          else f"Seat {seat + 1} ({member.name}): 0 points")
        assert re.search(rf"^{shown}, [+-]?\d+ beans, balance {after[0][member.id]}", text,
                         re.MULTILINE), text
        assert (await wallet.account(member.id)).held == 0, "nothing stays held"
    return text


def field_of(message: discord.Message, seat: int) -> str:
    """What the table shows about one seat (its field's name and value)."""
    field = message.embeds[0].fields[seat]
    return f"{field.name}\n{field.value}"


@pytest.mark.parametrize("seed", [SHAANXI_SEED])
async def test_shaanxi_paozi_staked_in_private_then_shown_hand_to_settlement(
    simcord_env: Any, simcord_bot: GameHall, seed: int
) -> None:
    bot = simcord_bot
    _guild, channel, members = world(simcord_env, 4)
    before = await balances(bot, channel, members)
    await open_and_start(channel, members, "shaanxi")
    game = game_of(bot, channel)
    assert game.phase() == "paozi" and game.dealer != 3
    staked: dict[int, str] = {}
    dealer_dm: list[str] = []

    async def on_step(state: Any) -> None:
        if state.phase() != "paozi":
            return
        text = public_text(table_message(channel))
        assert not re.search(r"炮子 \d", text), "炮子 are hidden until all four have staked"
        for seat, member in enumerate(members):
            for other in staked:
                if other != seat:
                    assert f"炮子 {STAKES[other]}" not in dm(member).content

    def choose(state: Any, seat: int, hinted: str) -> str:
        if state.phase() != "paozi":
            return hinted
        assert hinted == "pao 0", "a new game's default stake"
        staked[seat] = f"pao {STAKES[seat]}"
        return staked[seat]

    async def on_first_turn(state: Any) -> None:
        await on_step(state)
        if state.phase() == "discard" and not dealer_dm and not any(state.rivers):
            private = dm(members[state.dealer])
            dealer_dm.append(private.content)
            assert "Your turn" in private.content and selects(private), (
                "once all have staked the dealer's DM offers its discard")
            shown = table_message(channel)
            for s in range(4):
                role = "Dealer · 炮子" if s == state.dealer else "炮子"
                assert f"{role} {STAKES[s]}" in field_of(shown, s), "the stakes are shown"

    seen = await play(bot, channel, members, choose=choose, on_step=on_first_turn)
    assert dealer_dm and len(staked) == 4 and seen["claims"] > 0
    game = await stored_game(bot, channel, "shaanxi", seed, 4)
    assert [game.stake(s) for s in range(4)] == list(STAKES)
    assert game.ended == "win" and game.wins[0].source is not None
    outcome = game.outcome()
    winner = game.wins[0].seat
    text = await check_books(bot, channel, members, outcome, before)
    for s in range(4):
        if s != winner:
            n = STAKES[s] + STAKES[winner]
            assert (f"Seat {s + 1} ({members[s].name}) → seat {winner + 1} "
                    f"({members[winner].name}): {3 * n} points") in text
            assert f"· 炮子 ×{n}" in text
    assert "kong of the discarded South wind (放杠)" in text and "concealed kong 2s (暗杠)" in text, (
        "kong money is itemized")


@pytest.mark.parametrize("seed", [WUHAN_SEED])
async def test_wuhan_laizi_shown_to_all_red_dragon_kong_hand_to_settlement(
    simcord_env: Any, simcord_bot: GameHall, seed: int
) -> None:
    bot = simcord_bot
    _guild, channel, members = world(simcord_env, 4)
    before = await balances(bot, channel, members)
    await open_and_start(channel, members, "wuhan")
    game = game_of(bot, channel)
    # the tiles by name (issue 26): "Turned up Red dragon: the wild (癞子) is Green dragon"
    flip, wild = (render(tile_text(t), "en-US") for t in (game.flipped, game.laizi))
    laizi = f"Turned up {flip}: the wild (癞子) is {wild}"
    assert laizi in public_text(table_message(channel)), "the 癞子 is shown on the table"
    for seat, member in enumerate(members):
        # the DM names it on the seat's turn (a waiting DM leaves the table's lines to the
        # table message, README "How private hands refresh"); /hand names it always
        if seat in game.to_act():
            assert laizi in dm(member).content, f"{member.name}'s DM names the 癞子"
        else:
            assert laizi not in dm(member).content
            hand = await member.slash(channel, "hand")
            assert laizi in hand.response.content, f"{member.name}'s /hand names the 癞子"
    kongs: list[tuple[int, str]] = []
    rivers = [0] * 4

    async def on_step(state: Any) -> None:
        for s in range(4):
            if state.special[s] > rivers[s]:
                rivers[s] = state.special[s]
                kongs.append((s, public_text(table_message(channel))))

    seen = await play(bot, channel, members, on_step=on_step)
    game = await stored_game(bot, channel, "wuhan", seed, 4)
    specials = ("gang 5z", f"gang {tile_name(game.laizi)}")
    red = [(s, a) for s, a, _ in seen["actions"] if a in specials]
    assert red, "a 红中 / 癞子 kong was made from a DM button"
    assert [s for s, _ in kongs] == [s for s, _ in red]
    for seat, shown in kongs:
        assert re.search(rf"{members[seat].name}\n.*(red dragon kong|wild kong)", shown), shown
    chis = [(s, src) for s, a, src in seen["actions"] if a.startswith("chi")]
    assert chis and all(s == (src + 1) % 4 for s, src in chis), "吃 only from the seat before"
    assert game.ended == "win" and seen["claims"] > 0
    outcome = game.outcome()
    text = await check_books(bot, channel, members, outcome, before)
    assert text.count("· loss ") == 3, "each of the three losers' loss is itemized"


@pytest.mark.parametrize("seed", [YONGZHOU_SEED])
async def test_yongzhou_chi_from_the_next_seat_hand_to_settlement(
    simcord_env: Any, simcord_bot: GameHall, seed: int
) -> None:
    bot = simcord_bot
    _guild, channel, members = world(simcord_env, 4)
    before = await balances(bot, channel, members)
    await open_and_start(channel, members, "yongzhou")
    chi_seen: list[tuple[int, int | None, str, str]] = []
    counts = [0] * 4

    async def on_step(state: Any) -> None:
        if state.phase() == "claim":
            for s in state.to_act():
                if any(a.startswith("chi") for a in action_ids(dm(members[s]))):
                    assert s == (state.claim.source + 1) % 4, "吃 is the 下家's claim alone"
        for s in range(4):
            if len(state.melds[s]) > counts[s]:
                counts[s] = len(state.melds[s])
                meld = state.melds[s][-1]
                if meld.kind is MeldKind.CHI:
                    chi_seen.append((s, meld.source, state.melds_text(s).split()[-1],
                                     field_of(table_message(channel), s)))

    seen = await play(bot, channel, members, on_step=on_step)
    chis = [(s, src) for s, a, src in seen["actions"] if a.startswith("chi")]
    assert chis, "a 吃 was claimed from a DM button"
    seat, source, meld, field = chi_seen[0]
    assert (seat, source) == chis[0] and seat == (source + 1) % 4
    shown = re.search(rf"chi {meld} · melds [^·]*{meld}", field)
    assert shown, ("the run is shown on the table", field)
    game = await stored_game(bot, channel, "yongzhou", seed, 4)
    assert game.ended == "win" and game.wins[0].source is None and game.wins[0].seat == seat
    outcome = game.outcome()
    assert {(tr.payer, tr.payee) for tr in outcome.transfers} == {
        (s, seat) for s in range(4) if s != seat}, "a 自摸 is paid by the other three"
    await check_books(bot, channel, members, outcome, before)


@pytest.mark.parametrize("seed", [ERREN_SEED])
async def test_erren_baoting_then_the_hand_plays_itself_until_a_win_asks(
    simcord_env: Any, simcord_bot: GameHall, seed: int
) -> None:
    bot = simcord_bot
    _guild, channel, members = world(simcord_env, 2)
    before = await balances(bot, channel, members)
    await open_and_start(channel, members, "erren")
    game = game_of(bot, channel)
    assert game.phase() == "swap" and acting_seats(table_message(channel)) == [0, 1]
    ting: dict[str, Any] = {}
    asked: list[tuple[list[str], str]] = []

    async def on_step(state: Any) -> None:
        if not any(state.riichi):
            return
        seat = state.riichi.index(True)
        if "seat" not in ting:
            ting.update(seat=seat, river=len(state.rivers[seat]))
            assert "eady (报听)" in field_of(table_message(channel), seat), "报听 is public"
        if seat not in state.to_act():
            assert not action_ids(dm(members[seat])), "nothing to answer while it plays itself"
        else:
            private = dm(members[seat])
            asked.append((action_ids(private), private.content))
            assert not selects(private), "after 报听 there is nothing to discard by hand"
            ting["auto"] = len(state.rivers[seat]) - ting["river"]

    seen = await play(bot, channel, members, on_step=on_step)
    declared = [(s, a) for s, a, _ in seen["actions"] if a.startswith("ting")]
    assert declared and declared[0][0] == ting["seat"], "报听 from its DM button"
    later = [a for s, a, _ in seen["actions"] if s == ting["seat"]]
    later = later[later.index(declared[0][1]) + 1:]
    assert later == ["hu"], "after 报听 only the win asks"
    assert asked and all(ids == ["hu", "pass"] for ids, _ in asked)
    assert ting["auto"] >= 2, "the engine drew and threw for the seat in between"
    assert seen["claims"] > 0 and seen["actions"][:2] == [(0, "swap -", None), (1, "swap -", None)]
    game = await stored_game(bot, channel, "erren", seed, 2)
    assert game.ended == "win" and game.wins[0].seat == ting["seat"]
    outcome = game.outcome()
    text = await check_books(bot, channel, members, outcome, before)
    assert f"won, {outcome.transfers[0].points} fan" in text
    assert button_labels(table_message(channel))[:1] == ["Join"]


def test_shaanxi_engine_refreshes_every_private_picture_when_the_paozi_are_all_staked() -> None:
    # A bug found in play: the dealer's DM kept "waiting for 炮子" with no discard menu after
    # the last stake, since the end of the 炮子 phase changed no seat's private epoch (the DM
    # now follows what it shows: ``private_digest``).
    spec = registry.specs()["shaanxi"]
    game = spec.new(Setup(seats=4, seed=SHAANXI_SEED, options=spec.validate({})))
    for seat in range(4):
        before = [private_digest(game, s) for s in range(4)]
        game.apply(seat, f"pao {STAKES[seat]}")
    assert game.phase() == "discard" and game.to_act() == (game.dealer,)
    assert private_digest(game, game.dealer) != before[game.dealer], "its DM offers the discard"
