"""五子棋 in Discord, driven through SimCord as players would use it: a full game with hints,
the 禁手 referee, the 三手交换 and 五手两打 rooms, the turn timer, bad input, leaving, replays."""

from __future__ import annotations

import re
from typing import Any

import pytest
from simboard import (  # type: ignore[import-not-found]
    board_image,
    field_value,
    five_through,
    image_mismatches,
    red_pixels_near,
    seat_detail,
    text_board,
)
from simhelpers import (  # type: ignore[import-not-found]
    acting_seats,
    button_labels,
    hint_of,
    level_score,
    make_bot,
    public_text,
    replay_code,
    table_message,
    wallet_of,
)

from bot.client import GameHall
from engines.gomoku.scoring import win_change
from storage import levels

GAME = "gomoku"
RESULT = "Last hand"  # the embed field of the settlement (en-US)
SWAP, KEEP = "Swap (take Black)", "Keep colours"


def world(env: Any) -> tuple[Any, Any, list[Any]]:
    guild = env.create_guild()
    channel = guild.create_text_channel("gomoku")
    return guild, channel, [guild.add_member(env.create_user(name)) for name in ("ann", "bob")]


async def open_game(channel: Any, members: list[Any], room: str) -> Any:
    """ann opens the table, bob clicks Join, ann clicks Start: ann (seat 0) has black."""
    ann, bob = members
    created = await ann.slash(channel, "table create", game=GAME, room=room)
    assert created.ephemeral
    await bob.click(table_message(channel), label="Join")
    started = await ann.click(table_message(channel), label="Start")
    assert started.acknowledged
    return table_message(channel)


async def play(member: Any, channel: Any, action: str) -> str:
    """``/play action``; the private answer."""
    result = await member.slash(channel, "play", action=action)
    assert result.ephemeral, "answers to a player's action are private"
    return result.response.content


async def play_ok(member: Any, channel: Any, action: str) -> str:
    """``/play action`` that must be accepted; the canonical action taken."""
    content = await play(member, channel, action)
    found = re.fullmatch(r"Done: `(.+)`", content)
    assert found, content
    return found[1]


async def set_score(bot: GameHall, channel: Any, uid: int, score: int) -> None:
    """A level score from earlier games (the players' 积分 before this one), in the economy of
    the channel's server."""
    await wallet_of(bot, channel).ensure_player(uid)
    economy = bot.economy_kw(channel.guild.id)
    if economy:  # scores are kept per economy
        await bot.db.execute(
            "INSERT INTO scores (economy, uid, game, score) VALUES (?, ?, ?, ?) "
            "ON CONFLICT (economy, uid, game) DO UPDATE SET score = excluded.score",
            (economy["economy"], uid, GAME, score))
        return
    await bot.db.execute(
        "INSERT INTO scores (uid, game, score) VALUES (?, ?, ?) "
        "ON CONFLICT (uid, game) DO UPDATE SET score = excluded.score", (uid, GAME, score))


async def board_problems(message: Any) -> list[str]:
    """Why the table message does not show a proper board (empty list: PNG and text agree)."""
    board, image = text_board(message), await board_image(message)
    if board is None or image is None:
        return [(f"no board on the table message (text: {board is not None}, "
                 f"PNG: {image is not None})")]
    return image_mismatches(image, board)


def replay_text(result: Any) -> str:
    """A /replay answer, with any followup messages it was split into."""
    parts = [result.response.content] + [f.content for f in result.followups]
    assert all(len(part) <= 2000 for part in parts)
    return "\n".join(parts)


def seat_line(result: str, name: str) -> str:
    """The settlement line of the seat named ``name`` ("Seat 1 (ann): +1 points …"), from its
    points on."""
    return next(line.split(f"({name}): ", 1)[1] for line in result.splitlines()
                if re.match(rf"Seat \d+ \({re.escape(name)}\): ", line))


async def test_a_full_game_with_hints_shows_the_board_and_rates_both(simcord_env,
                                                                      simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    ann, bob = members
    before = {ann.id: 105, bob.id: 140}  # gap 35: a gain of 10 ∓ 3 depending on who wins
    for member in members:
        await set_score(simcord_bot, channel, member.id, before[member.id])
    message = await open_game(channel, members, "free")
    hand_id = simcord_bot.manager.tables[channel.id].hand_id
    assert hand_id is not None

    # the empty board, as a real PNG and as text; black (ann) to move, no buttons to press
    image = await board_image(message)
    assert image is not None and image.size[0] == image.size[1] >= 15 * 30
    assert text_board(message) is not None and text_board(message).stones == {}
    assert await board_problems(message) == []
    assert acting_seats(message) == [0]
    assert seat_detail(message, 0).startswith("Black")
    assert seat_detail(message, 1).startswith("White")
    assert "Rules: forbidden moves for Black · standard opening" in public_text(message)
    assert button_labels(message) == ["My hand"]

    stones: dict[str, str] = {}
    moves: list[tuple[int, str]] = []
    for _ in range(225):
        seats = acting_seats(table_message(channel))
        if not seats:
            break
        seat = seats[0]
        assert seat == len(moves) % 2, "black and white alternate"
        hint = await members[seat].slash(channel, "hint")
        assert hint.ephemeral
        point = hint_of(hint)
        assert re.fullmatch(r"[A-O](1[0-5]|[1-9])", point) and point not in stones, point
        assert await play_ok(members[seat], channel, point) == point
        stones[point] = "X" if seat == 0 else "O"
        moves.append((seat, point))
        shown = table_message(channel)
        if acting_seats(shown):  # still running: the board shows every stone, the last marked
            board = text_board(shown)
            assert board is not None and board.stones == stones and board.last == point
            assert await board_problems(shown) == [], point
            assert f"Last move: {point}" in public_text(shown)
            assert f"{len(moves)} moves played" in public_text(shown)
    else:
        raise AssertionError("the game did not end")
    assert len(moves) >= 9
    final = table_message(channel)
    last_seat, last_point = moves[-1]
    assert five_through(stones, last_point), "the game ended on a five"
    winner, loser = members[last_seat], members[1 - last_seat]

    # the result on the table message
    result = field_value(final, RESULT)
    assert result is not None
    colour = "Black" if last_seat == 0 else "White"
    assert f"Hand #{hand_id} settled:" in result
    assert f"{colour} wins with five in a row" in result
    assert seat_line(result, winner.name).startswith("+1 points, 0 beans")
    assert seat_line(result, loser.name).startswith("-1 points, 0 beans")
    assert {"Join", "Start"} <= set(button_labels(final))

    # the seed's rating: the winner gains, the loser loses the same, by the score gap
    gain, loss = win_change(before[winner.id], before[loser.id])
    assert gain > 0 > loss and gain == -loss
    after = {winner.id: before[winner.id] + gain, loser.id: before[loser.id] + loss}
    ladder = simcord_bot.settings.levels["gomoku"]
    for member in members:
        assert await level_score(simcord_bot, channel.guild.id, member.id, GAME) == after[member.id]
        title = levels.title(ladder, after[member.id])
        assert re.fullmatch(r"[1-9](级|段)", title)
        beans = await member.slash(channel, "beans")
        assert beans.ephemeral
        assert f"Gomoku: score {after[member.id]}, {title}" in beans.response.content
        promoted = title != levels.title(ladder, before[member.id])
        assert (f"new title: {title}" in seat_line(result, member.name)) == promoted
    board = await ann.slash(channel, "leaderboard", game=GAME)
    assert f"1. <@{winner.id}> — {after[winner.id]}" in board.response.content

    # the replay lists every move, in order, by whom
    code = replay_code(simcord_bot.manager.tables[channel.id])
    text = ""
    if code is not None:
        replay = await bob.slash(channel, "replay", code=code)
        assert replay.ephemeral
        text = replay_text(replay)
        steps = re.findall(r"^(\d+)\. <@(\d+)>: `([^`]+)`$", text, re.MULTILINE)
        assert [(int(n), int(uid), point) for n, uid, point in steps] == [
            (i, members[seat].id, point) for i, (seat, point) in enumerate(moves, 1)]

    # what is still missing on the settled table (collected, so that each shows at once)
    problems = []
    if code is not None and not re.search(r"^Points: <@\d+> [+-]1, <@\d+> [+-]1$", text, re.MULTILINE):
        problems.append(f"/replay of a {len(moves)}-move game lost its points line: "
                        f"...{text[-60:]!r} ({len(text)} chars)")
    board_now = text_board(final)
    shown = await board_problems(final)
    if shown:
        problems.append("the settled table message no longer shows the final board: "
                        + "; ".join(shown[:3]))
    elif board_now is not None and (board_now.stones != stones or board_now.last != last_point):
        problems.append("the settled table message shows another board than the final one")
    assert not problems, "\n".join(problems)


BLACK_WHITE = {
    # (black's stones in order, white's stones in order); white plays far away in the corners
    "double three": ("H8 I8 J9 J10 J8", "A1 O1 A15 O15"),
    "double four": ("H8 I8 J8 K9 K10 K11 K8", "A1 O1 A15 O15 A3 O3"),
    "overline": ("F8 G8 H8 J8 K8 I8", "A1 O1 A15 O15 A3"),
}


@pytest.mark.parametrize(("room", "shape", "expected"), [
    ("free", "double three", "Black's J8 is a forbidden move (double three): Black loses"),
    ("free", "double four", "Black's K8 is a forbidden move (double four): Black loses"),
    ("free", "overline", "Black's I8 is a forbidden move (overline): Black loses"),
    ("renju_free", "overline", "Black wins with five in a row"),
])
async def test_the_referee_names_a_forbidden_move_and_black_loses(
        simcord_env, simcord_bot, room: str, shape: str, expected: str) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    ann, bob = members
    await open_game(channel, members, room)
    hand_id = simcord_bot.manager.tables[channel.id].hand_id
    black, white = (s.split() for s in BLACK_WHITE[shape])
    sequence = [p for pair in zip(black, white + [""], strict=True) for p in pair if p]
    for i, point in enumerate(sequence[:-1]):
        assert await play_ok(members[i % 2], channel, point) == point
        assert acting_seats(table_message(channel)) == [(i + 1) % 2]
    last = sequence[-1]
    before_last = table_message(channel)
    assert await board_problems(before_last) == []
    assert await play_ok(ann, channel, last) == last
    final = table_message(channel)
    result = field_value(final, RESULT)
    assert result is not None and f"Hand #{hand_id} settled:" in result
    assert expected in result
    black_won = "loses" not in expected
    assert seat_line(result, "ann").startswith("+1 points" if black_won else "-1 points")
    assert seat_line(result, "bob").startswith("-1 points" if black_won else "+1 points")
    assert acting_seats(final) == []
    # both started at 0: ±10 (win_change(0, 0)); 1级 is 0, 2级 is −100 … −1
    change = win_change(0, 0)[0]
    for member, sign in ((ann, 1 if black_won else -1), (bob, -1 if black_won else 1)):
        assert await level_score(simcord_bot, channel.guild.id, member.id, GAME) == sign * change
        beans = await member.slash(channel, "beans")
        title = "1级" if sign > 0 else "2级"
        assert f"Gomoku: score {sign * change}, {title}" in beans.response.content
    final_problems = await board_problems(final)
    final_board = text_board(final)

    # the next game at the table: the seats take turns to start with black (轮流执黑)
    await bob.click(table_message(channel), label="Start")
    again = table_message(channel)
    assert acting_seats(again) == [1]
    assert seat_detail(again, 1).startswith("Black") and seat_detail(again, 0).startswith("White")
    assert text_board(again) is not None and text_board(again).stones == {}

    # the final position, with the forbidden stone marked × (docs/games/gomoku.md)
    assert not final_problems, ("the settled table message does not show the final position: "
                                + "; ".join(final_problems[:3]))
    assert final_board is not None and final_board.last == last
    if not black_won:
        assert final_board.marks == {last: "×"}
        image = await board_image(final)
        assert image is not None and red_pixels_near(image, final_board, last) > 40


async def test_swap_after_three_gives_white_the_buttons(simcord_env, simcord_bot,
                                                        settings) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    ann, bob = members
    message = await open_game(channel, members, "renju_swap")
    assert "forbidden moves for Black · swap after 3" in public_text(message)
    assert SWAP not in button_labels(message)
    for i, point in enumerate(["H8", "I9", "J10"]):
        await play_ok(members[i % 2], channel, point)
    message = table_message(channel)
    assert acting_seats(message) == [1], "white (bob) decides"
    assert {SWAP, KEEP} <= set(button_labels(message))
    assert "Swap after 3: White decides whether to swap colours" in public_text(message)
    assert await board_problems(message) == []
    table = simcord_bot.manager.tables[channel.id]
    log = list(table.game.log)
    # black may not decide, and white must decide before the 4th stone
    wrong = await ann.click(message, label=SWAP)
    assert wrong.ephemeral and "It is not your turn" in wrong.response.content
    early = await play(bob, channel, "K11")
    assert early == "❌ After the third stone, White must first choose: swap or keep."
    assert table.game.log == log
    hint = await bob.slash(channel, "hint")
    assert hint_of(hint) in ("swap", "keep")

    clicked = await bob.click(table_message(channel), label=SWAP)
    assert clicked.acknowledged
    message = table_message(channel)
    assert seat_detail(message, 0).startswith("White")
    assert seat_detail(message, 1).startswith("Black")
    assert "Colours were swapped after move 3" in public_text(message)
    assert acting_seats(message) == [0], "move 4 is white's: ann holds white now"
    assert SWAP not in button_labels(message) and KEEP not in button_labels(message)
    board = text_board(message)
    assert board is not None and board.stones == {"H8": "X", "I9": "O", "J10": "X"}
    assert await board_problems(message) == []
    # a restart keeps the swapped colours and the board
    shown = public_text(message)
    new_bot = make_bot(settings)
    await env.restart_bot(new_bot)
    resumed = new_bot.manager.tables[channel.id]
    assert resumed.game is not None and resumed.game.log == table.game.log
    assert public_text(table_message(channel)) == shown
    assert await play_ok(ann, channel, "K11") == "K11"
    message = table_message(channel)
    assert text_board(message).stones["K11"] == "O"
    assert acting_seats(message) == [1], "bob plays black from now on"
    assert await play_ok(bob, channel, "G7") == "G7"
    assert text_board(table_message(channel)).stones["G7"] == "X"


async def test_two_fifth_moves_white_picks_one_with_a_button(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    ann, bob = members
    message = await open_game(channel, members, "renju_five")
    assert "forbidden moves for Black · two 5th moves" in public_text(message)
    for i, point in enumerate(["H8", "I9", "J8", "G7"]):
        await play_ok(members[i % 2], channel, point)
    message = table_message(channel)
    assert acting_seats(message) == [0], "black offers"
    assert "Black offers two points for move 5" in public_text(message)
    assert not any(label.startswith("Pick") for label in button_labels(message))
    hint = hint_of(await ann.slash(channel, "hint"))
    assert re.fullmatch(r"offer [A-O]\d+ [A-O]\d+", hint), hint
    refused = await play(ann, channel, "K8")
    assert refused == "❌ For move 5, Black offers two points, e.g. offer H8 J9."
    refused = await play(ann, channel, "offer K8 H8")
    assert refused == "❌ H8 is already taken."
    assert await play_ok(ann, channel, "offer K8 G8") == "offer G8 K8"

    message = table_message(channel)
    assert acting_seats(message) == [1], "white picks"
    assert {"Pick G8", "Pick K8"} <= set(button_labels(message))
    assert "Offered 5th moves: G8, K8" in public_text(message)
    board = text_board(message)
    assert board is not None and board.marks == {"G8": "5", "K8": "5"}
    assert set(board.stones) == {"H8", "I9", "J8", "G7"}
    image = await board_image(message)
    assert image is not None and await board_problems(message) == []
    assert red_pixels_near(image, board, "G8") > 10 and red_pixels_near(image, board, "K8") > 10
    assert red_pixels_near(image, board, "L12") == 0
    wrong = await ann.click(message, label="Pick G8")
    assert wrong.ephemeral and "It is not your turn" in wrong.response.content
    refused = await play(bob, channel, "choose L12")
    assert refused == "❌ Pick G8 or K8."

    picked = await bob.click(table_message(channel), label="Pick K8")
    assert picked.acknowledged
    message = table_message(channel)
    board = text_board(message)
    assert board is not None and board.stones["K8"] == "X" and "G8" not in board.stones
    assert board.last == "K8" and board.marks == {}
    assert await board_problems(message) == []
    assert not any(label.startswith("Pick") for label in button_labels(message))
    assert acting_seats(message) == [1], "white plays move 6"
    assert await play_ok(bob, channel, "L8") == "L8"
    assert acting_seats(table_message(channel)) == [0]


async def test_the_trustee_offers_and_picks_when_time_runs_out(simcord_env,
                                                                simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    await open_game(channel, members, "renju_five")
    for i, point in enumerate(["H8", "I9", "J8", "G7"]):
        await play_ok(members[i % 2], channel, point)
    table = simcord_bot.manager.tables[channel.id]
    await env.advance_time(simcord_bot.settings.timer("offer") + 1)
    message = table_message(channel)
    assert acting_seats(message) == [1] and table.game.phase() == "choose"
    offered = [label.removeprefix("Pick ") for label in button_labels(message)
               if label.startswith("Pick ")]
    assert len(offered) == 2 and text_board(message).marks == dict.fromkeys(offered, "5")
    await env.advance_time(simcord_bot.settings.timer("choose") + 1)
    message = table_message(channel)
    board = text_board(message)
    assert board is not None and len(board.stones) == 5 and board.last in offered
    assert board.stones[board.last] == "X" and board.marks == {}
    assert acting_seats(message) == [1], "white plays move 6"
    assert table.seats[0].misses == 1 and table.seats[1].misses == 1


async def test_timeout_bad_input_and_leaving_mid_game(simcord_env, simcord_bot) -> None:
    env = simcord_env
    _guild, channel, members = world(env)
    ann, bob = members
    await open_game(channel, members, "free")
    table = simcord_bot.manager.tables[channel.id]
    hand_id = table.hand_id
    await play_ok(ann, channel, "H8")
    suggestion = hint_of(await bob.slash(channel, "hint"))

    # bob lets his time run out: the trustee plays the move /hint suggested
    await env.advance_time(simcord_bot.settings.timer("move") + 1)
    message = table_message(channel)
    board = text_board(message)
    assert board is not None and board.stones == {"H8": "X", suggestion: "O"}
    assert board.last == suggestion
    assert await board_problems(message) == []
    assert table.seats[1].misses == 1 and not table.seats[1].trustee
    assert acting_seats(message) == [0]

    # bad input: a private ❌, nothing changes
    log = list(table.game.log)
    shown = public_text(message)
    png = await message.attachments[0].read()
    for member, action, error in [
        (ann, "Z99", "❌ Cannot read 'Z99'"),
        (ann, "H16", "❌ Cannot read 'H16'"),
        (ann, "H8", "❌ H8 is already taken."),
        (ann, suggestion, f"❌ {suggestion} is already taken."),
        (ann, "swap", "❌ Place a stone by naming its point, e.g. H8."),
        (bob, "A1", "❌ It is not your turn."),
    ]:
        answer = await play(member, channel, action)
        assert answer.startswith(error), answer
    assert table.game.log == log
    assert public_text(table_message(channel)) == shown
    assert await table_message(channel).attachments[0].read() == png

    # leaving mid-game resigns: white (bob) loses at once, and the game is settled
    await play_ok(ann, channel, "I9")
    left = await bob.slash(channel, "table leave")
    assert left.ephemeral
    message = table_message(channel)
    result = field_value(message, RESULT)
    assert result is not None and f"Hand #{hand_id} settled:" in result
    assert "White left the game and loses" in result
    assert seat_line(result, "ann").startswith("+1 points")
    assert seat_line(result, "bob").startswith("-1 points")
    assert "bob left mid-hand" in public_text(message)
    assert table.seat_of(bob.id) is None and len(table.seats) == 1 and table.game is None
    gain, loss = win_change(0, 0)
    assert await level_score(simcord_bot, channel.guild.id, ann.id, GAME) == gain
    assert await level_score(simcord_bot, channel.guild.id, bob.id, GAME) == loss
    # no timer is left running for the finished game
    await env.advance_time(simcord_bot.settings.timer("move") + 1)
    assert table_message(channel).id == message.id and public_text(table_message(channel)) == (
        public_text(message))
    code = replay_code(table)
    if code is None:
        return
    replay = replay_text(await ann.slash(channel, "replay", code=code))
    assert re.search(rf"^1\. <@{ann.id}>: `H8`$", replay, re.MULTILINE)
    assert re.search(rf"^2\. <@{bob.id}>: `{suggestion}`$", replay, re.MULTILINE)
    assert re.search(rf"^3\. <@{ann.id}>: `I9`$", replay, re.MULTILINE)
    assert re.search(rf"^4\. <@{bob.id}>: escaped$", replay, re.MULTILINE)
    assert "White left the game and loses" in replay
