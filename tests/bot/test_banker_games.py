"""斗牛 / 欢乐斗牛 / 牛牛 and 吃火锅 tables in Discord, driven through SimCord as players use them.

One full hand of each game with people on the Join button and bots on Add bot, acting through
/hint + /play, the table's buttons and the /hand card picker; beans checked against the
settlement rule; nobody reads another seat's cards before 开牌; the trustee (bots, timeouts)
only ever takes legal actions and a finished hand replays; bad input is refused and changes
nothing; and the terminal table plays each game.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from simgames import (  # type: ignore[import-not-found]
    HandWatch,
    assert_only_own_cards,
    card_tokens,
    cards_of,
    open_table,
    replay_legally,
    world,
)
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    hint_of,
    play_hand_with_hints,
    public_text,
    replay_code,
    table_message,
)

from bot.client import GameHall
from engines.cards import deck, format_cards
from engines.niuniu.hands import Kind, best_split

BULL_GAMES = ("douniu", "douniu_happy", "niuniu")


def undealt(game: Any, n: int) -> str:
    """``n`` cards that no seat holds, written as one run ("KsQd5h")."""
    dealt = {c for hand in game.cards for c in hand}
    return "".join(str(c) for c in deck() if c not in dealt)[: 2 * n]


def check_versus(game: Any, unit: Callable[[int], int]) -> None:
    """Banker against each player only: the winner's kind sets the multiplier on the unit."""
    outcome = game.outcome()
    results = game.versus()
    assert sorted(v.player for v in results) == game.players
    for v in results:
        assert v.amount == unit(v.player) * game.hand(v.winner).kind.multiplier
        sign = 1 if v.winner == v.player else -1
        assert outcome.points[v.player] == sign * v.amount
    assert outcome.points[game.banker] == -sum(outcome.points[p] for p in game.players)


async def pick_three(member: Any, channel: Any, game: Any, seat: int) -> None:
    """The member opens /hand and picks the three bull cards in the card picker (or clicks
    No bull in the same private message when the cards make none)."""
    hand = await member.slash(channel, "hand")
    assert hand.ephemeral
    assert f"Your hand: **{format_cards(game.cards[seat])}**" in hand.response.content
    split = best_split(game.cards[seat])
    if split is None:
        done = await member.click(hand.response.message, label="No bull")
    else:
        picker = game.picker(seat)
        assert picker is not None and (picker.min_values, picker.max_values) == (3, 3)
        three = {str(c) for c in split.three}
        values = [f"{i}:{token}" for i, token in enumerate(picker.tokens) if token in three]
        done = await member.select(hand.response.message, values)
    assert done.acknowledged
    assert seat in game.splits and game.splits[seat] == split


async def test_douniu_hand_with_the_card_picker_hint_and_a_bad_split(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    env = simcord_env
    _guild, channel, (ann, bob) = world(env, 2)
    await open_table(channel, [ann, bob], "douniu", bots=1)
    watch = await HandWatch.start(simcord_bot, channel, [ann, bob], bob)
    game = watch.game
    assert watch.seats == [ann, bob, None]
    for seat, member in enumerate((ann, bob)):
        assert f"Your hand: **{format_cards(game.cards[seat])}**" in watch.dm(member)
    message = table_message(channel)
    assert f"Banker: seat {game.banker + 1}" in public_text(message)
    assert acting_seats(message) == [0, 1], "both people arrange their split at once"
    assert {"Best split", "No bull"} <= set(button_labels(message))
    assert_only_own_cards(channel, [ann, bob], game)

    # a split with cards bob does not hold: refused privately, nothing changes
    log, splits, shown = list(game.log), dict(game.splits), public_text(table_message(channel))
    bad = await bob.slash(channel, "play", action=f"split {undealt(game, 3)}")
    assert bad.ephemeral and bad.response.content.startswith("❌")
    assert "not in your hand" in bad.response.content
    assert (game.log, game.splits) == (log, splits)
    assert public_text(table_message(channel)) == shown

    # ann picks her three bull cards in the /hand picker; the table only says she is ready
    await pick_three(ann, channel, game, 0)
    text = public_text(table_message(channel))
    assert "1. ann\nPlayer · ready" in text or "1. ann\nBanker · ready" in text
    assert acting_seats(table_message(channel)) == [1]
    assert_only_own_cards(channel, [ann, bob], game)

    # bob asks for a hint and plays it: the last split opens the cards and settles the hand
    hint = await bob.slash(channel, "hint")
    assert hint.ephemeral and hint_of(hint).startswith(("split", "nobull"))
    played = await bob.slash(channel, "play", action=hint_of(hint))
    assert played.ephemeral and "❌" not in played.response.content
    text = await watch.check_settled()
    check_versus(game, lambda seat: 1)
    for v in game.versus():
        assert f"Seat {v.player + 1} " in text


async def test_douniu_happy_hand_with_the_table_buttons_and_typed_splits(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    env = simcord_env
    _guild, channel, people = world(env, 3)
    ann, bob, cat = people
    await open_table(channel, people, "douniu_happy")
    watch = await HandWatch.start(simcord_bot, channel, people, ann)
    game = watch.game
    for seat, member in enumerate(people):
        assert format_cards(game.cards[seat]) in watch.dm(member)
    assert acting_seats(table_message(channel)) == [0, 1, 2]
    assert_only_own_cards(channel, people, game)
    # ann: the Best split button on the table message (it tells nothing about anyone's cards)
    await ann.click(table_message(channel), label="Best split")
    assert game.splits[0] == best_split(game.cards[0])
    # bob types his three bull cards, spaced and in lower case, or 没牛
    split = best_split(game.cards[1])
    typed = "没牛" if split is None else "split " + " ".join(str(c).lower() for c in split.three)
    played = await bob.slash(channel, "play", action=typed)
    assert played.ephemeral and "❌" not in played.response.content
    assert game.splits[1] == split
    assert_only_own_cards(channel, people, game)
    # cat declares no bull with the button, whatever her cards: her hand counts as 没牛
    await cat.click(table_message(channel), label="No bull")
    assert game.splits[2] is None and game.hand(2).kind == Kind.NO_BULL
    await watch.check_settled()
    check_versus(game, lambda seat: 5)
    assert all(v.amount in (5, 10, 15, 20, 25) for v in game.versus())


async def test_niuniu_hand_grab_stakes_and_split(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    env = simcord_env
    _guild, channel, people = world(env, 3)
    await open_table(channel, people, "niuniu")
    watch = await HandWatch.start(simcord_bot, channel, people, people[2])
    game = watch.game
    for member in people:  # 牛牛 shows nobody their cards before the stakes: nothing to DM yet
        assert member.user.dm_channel.last_message is None
    # 抢庄: the first seat offered declines, the next takes the bank (buttons on the table)
    assert_only_own_cards(channel, people, game)
    first = acting_seats(table_message(channel))
    assert len(first) == 1 and {"Take the bank", "Decline"} <= set(
        button_labels(table_message(channel)))
    await people[first[0]].click(table_message(channel), label="Decline")
    second = acting_seats(table_message(channel))
    assert len(second) == 1 and second != first
    await people[second[0]].click(table_message(channel), label="Take the bank")
    banker = second[0]
    assert game.banker == banker
    assert f"Banker: seat {banker + 1}" in public_text(table_message(channel))
    p1, p2 = game.players
    assert acting_seats(table_message(channel)) == [p1, p2]
    assert {"Stake 1", "Stake 2", "Stake 5", "Stake 10"} <= set(
        button_labels(table_message(channel)))
    assert_only_own_cards(channel, people, game)  # no cards yet, not even one's own

    # 下注: a stake off the presets is refused; the banker has no stake to pick
    log, shown = list(game.log), public_text(table_message(channel))
    bad = await people[p1].slash(channel, "play", action="bet 3")
    assert bad.ephemeral and bad.response.content.startswith("❌")
    assert "1, 2, 5, 10" in bad.response.content
    banker_bet = await people[banker].click(table_message(channel), label="Stake 2")
    assert banker_bet.response.content.startswith("❌")
    assert game.log == log and game.units == {} and public_text(table_message(channel)) == shown
    await people[p1].click(table_message(channel), label="Stake 2")
    played = await people[p2].slash(channel, "play", action="下注 5")
    assert "❌" not in played.response.content
    assert game.units == {p1: 2, p2: 5}
    assert acting_seats(table_message(channel)) == [0, 1, 2]
    assert_only_own_cards(channel, people, game)
    for seat, member in enumerate(people):  # the cards are dealt to sight now: each gets a DM
        assert format_cards(game.cards[seat]) in watch.dm(member)

    # 拼牛: p1 in the card picker, the banker with Best split, p2 with /hint + /play
    await pick_three(people[p1], channel, game, p1)
    await people[banker].click(table_message(channel), label="Best split")
    assert_only_own_cards(channel, people, game)
    hint = await people[p2].slash(channel, "hint")
    await people[p2].slash(channel, "play", action=hint_of(hint))
    await watch.check_settled()
    check_versus(game, lambda seat: game.units[seat])


async def test_hotpot_game_with_buttons_hints_and_bad_bets(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    env = simcord_env
    _guild, channel, (ann, bob) = world(env, 2)
    await open_table(channel, [ann, bob], "hotpot", bots=2)
    watch = await HandWatch.start(simcord_bot, channel, [ann, bob], ann)
    game = watch.game
    # 吃火锅's cards are dealt face up, two a turn: the table message is what players read
    refused = False
    for _ in range(40):
        message = table_message(channel)
        seats = acting_seats(message)
        if not seats:
            break
        seat = seats[0]
        member = watch.seats[seat]
        assert member is not None and game.open is not None
        text = public_text(message)
        # the pot and the two open cards are on the table for everyone
        assert f"Pot: {game.pot}" in text
        assert f"Seat {seat + 1} shows {format_cards(game.open)}" in text
        low, high = game.bet_range(seat)
        assert f"You may bet {low} to {high}" in text
        if not refused:  # bets out of range: refused privately, nothing changes
            state = (list(game.log), game.pot, list(game.net), text)
            for bad in (f"bet {high + 1}", "bet 0"):
                result = await member.slash(channel, "play", action=bad)
                assert result.ephemeral and result.response.content.startswith("❌"), bad
                assert f"{low} to {high}" in result.response.content or (
                    low == high and "may only bet the minimum" in result.response.content)
            assert (game.log, game.pot, game.net, public_text(table_message(channel))) == state
            refused = True
        hint = await member.slash(channel, "hint")
        action = hint_of(hint)
        if member is ann:  # ann plays with the buttons
            label = "Pass" if action == "pass" else f"Bet {action.split()[1]}"
            assert label in button_labels(message)
            result = await ann.click(message, label=label)
        else:
            result = await bob.slash(channel, "play", action=action)
        assert "❌" not in (result.response.content if result.response else "")
    else:
        raise AssertionError("the game did not finish")
    assert refused
    text = await watch.check_settled()
    assert "20 turns played" in text or "took the whole pot" in text, text
    assert sum(game.outcome().points) == 0


@pytest.mark.parametrize("game_key", BULL_GAMES)
async def test_the_reveal_shows_every_hand_on_the_table(
    simcord_env: Any, simcord_bot: GameHall, game_key: str
) -> None:
    """开牌: once the last split is in, the table shows every seat's cards (GAMES.md §3:
    cards are revealed together)."""
    env = simcord_env
    _guild, channel, (ann,) = world(env, 1)
    await open_table(channel, [ann], game_key, bots=1)
    watch = await HandWatch.start(simcord_bot, channel, [ann], ann)
    await play_hand_with_hints(env, channel, watch.seats)
    await watch.check_settled()
    shown = card_tokens(public_text(table_message(channel)))
    for seat in range(2):
        missing = cards_of(watch.game, seat) - shown
        assert not missing, f"after 开牌 the table does not show seat {seat + 1}'s {missing}"


@pytest.mark.parametrize(("game_key", "bots"), [
    ("douniu", 2), ("douniu_happy", 2), ("niuniu", 2), ("hotpot", 3),
])
async def test_bots_and_the_timer_trustee_play_legally_and_the_hand_replays(
    simcord_env: Any, simcord_bot: GameHall, game_key: str, bots: int
) -> None:
    env = simcord_env
    _guild, channel, (ann,) = world(env, 1)
    await open_table(channel, [ann], game_key, bots=bots)
    watch = await HandWatch.start(simcord_bot, channel, [ann], ann)
    game = watch.game
    table = simcord_bot.manager.tables[channel.id]
    # the bots have acted; now it is ann's turn, and she lets the time run out
    assert acting_seats(table_message(channel)) == [0]
    expected, steps = game.trustee(0), len(game.log)
    await env.advance_time(simcord_bot.settings.timer(game.phase()) + 1)
    assert game.log[steps] == (0, expected), "the trustee acted for ann when her time ran out"
    if not game.is_over():
        assert table.seats[0].misses == 1 and not table.seats[0].trustee
        await play_hand_with_hints(env, channel, watch.seats)
    await watch.check_settled()
    # every action of the hand, bots' and trustee's included, was legal when taken
    spec = simcord_bot.manager.specs[game_key]
    record = await watch.stored_record()
    assert record["log"] == [list(step) for step in game.log]
    assert replay_legally(spec, record).outcome().points == game.outcome().points
    # /replay shows the finished hand step by step, with the hands as dealt
    code = replay_code(table)
    if code is None:
        return
    replay = await ann.slash(channel, "replay", code=code)
    assert replay.ephemeral
    content = replay.response.content
    assert f"Replay of hand `{code}`" in content
    for n, (_seat, action) in enumerate(game.log, 1):
        assert f"{n}. " in content and f"`{action}`" in content
    if game_key in BULL_GAMES:
        dealt = [line for line in content.splitlines() if " was dealt: " in line]
        assert len(dealt) == len(watch.seats)
        for seat, line in enumerate(dealt):
            missing = cards_of(game, seat) - card_tokens(line)
            assert not missing, f"/replay does not show seat {seat + 1}'s dealt cards: {line!r}"


async def test_the_dm_with_the_cards_agrees_with_the_table_when_it_is_sent(
    simcord_env: Any, simcord_bot: GameHall
) -> None:
    """牛牛 with a bot: the bot's opening moves happen at once, and each person's hand is
    DMed when their cards first become visible; the DM must tell the same turn as the table."""
    env = simcord_env
    _guild, channel, people = world(env, 2)
    await open_table(channel, people, "niuniu", bots=1)
    watch = await HandWatch.start(simcord_bot, channel, people, people[0])
    for _ in range(12):  # 抢庄 and 下注 by hints until the cards are dealt to sight
        if all(m is None or m.user.dm_channel.last_message for m in watch.seats):
            break
        seat = acting_seats(table_message(channel))[0]
        member = watch.seats[seat]
        assert member is not None
        await member.slash(channel, "play", action=hint_of(await member.slash(channel, "hint")))
    acting = acting_seats(table_message(channel))
    for seat, member in enumerate(watch.seats):
        if member is None:
            continue
        dm = watch.dm(member)
        assert format_cards(watch.game.cards[seat]) in dm
        if seat in acting:
            assert "Your turn" in dm and "Waiting for others" not in dm, (member.name, dm)
        else:
            assert "Your turn" not in dm, (member.name, dm)


def test_terminal_table_plays_each_game(tmp_path: Path) -> None:
    """`gamehall play GAME --room free --no-timer`: hand the seat to the trustee, decline
    another hand; the hand settles and the program exits 0."""
    env = {k: v for k, v in os.environ.items() if k not in ("GAMEHALL_CONFIG", "DISCORD_TOKEN")}
    runs = {}
    for game_key in (*BULL_GAMES, "hotpot"):
        runs[game_key] = subprocess.Popen(
            [sys.executable, "-m", "bot", "play", game_key, "--room", "free", "--no-timer",
             "--seed", "5"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            cwd=tmp_path, env={**env, "GAMEHALL_DB": str(tmp_path / f"{game_key}.db")},
        )
    for game_key, run in runs.items():
        out, err = run.communicate("trustee\nn\n", timeout=60)
        assert run.returncode == 0, (game_key, err)
        assert "第 1 局结算" in out, (game_key, out)  # the settlement, in the hall's locale
        assert "号位（你）：" in out and "余额 10000" in out, (game_key, out)  # score-only: no beans
        assert (tmp_path / f"{game_key}.db").exists()
