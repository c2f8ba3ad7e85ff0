"""A private window in Discord leaves no trace of who could answer it (issue 24).

For every private window kind the engines have (``TWINS`` in tests/engines/test_windows.py:
mahjong's and 跑胡子's claims, 够级's 烧 and 宣点, 升级's 亮主 and 反底, 打滚子's 亮主, joker
window and 亮王), two tables in two servers, with people of the same names, play the same
public point of a hand, where one table has a seat more that may answer (or one offered more).
The window's opening move is made with ``/play``, every seat it asks privately declines with
``/play`` and a seat the table names passes, as ``close`` in the engines' test does (windows
closed by their clock are compared there, on the engines' views), and then the table message (its text, buttons and
picture), a spectator's ``/table watch`` and the DMs of the seats that were never asked must be
the same at both tables: nothing a person can read tells the tables apart.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import pytest
from simgames import message_text, open_table  # type: ignore[import-not-found]
from simhelpers import table_message  # type: ignore[import-not-found]

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from bot.client import GameHall  # noqa: E402
from engines import registry  # noqa: E402
from engines.base import Game  # noqa: E402
from tests.engines.test_windows import TWINS, is_open, private_seats  # noqa: E402

NAMES = ("ann", "bob", "cat", "dan", "eve", "fay")


def key_of(game: Game) -> str:
    return next(k for k, spec in registry.specs().items() if type(game) is spec.game)


def readable(message: Any) -> tuple[str, list[str]]:
    """What anyone reads of a message: its text and buttons, and its pictures (named by their
    content, so the same name is the same picture)."""
    return message_text(message), sorted(a.filename for a in message.attachments)


def embedded(embed: Any) -> str:
    return "\n".join([embed.title or "", embed.description or "", embed.footer.text or "",
                      *(f"{f.name}\n{f.value}" for f in embed.fields)])


def without_table_numbers(text: str) -> str:
    """The two tables' own numbers (the channel, the hand's number and replay code) blanked."""
    return re.sub(r"\d{6,}|#[0-9A-Za-z-]{6,}|(?<=[Hh]and #)\d+", "…", text)


async def twin(env: Any, bot: GameHall, game: Game, opening: tuple[tuple[int, str], ...]
               ) -> dict[str, Any]:
    """One of the twins: a server whose table plays ``game`` from its point, the window opened
    and closed through Discord; what its people and a spectator then read."""
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    seats = game.setup.seats
    members = [guild.add_member(env.create_user(name)) for name in NAMES[:seats]]
    await open_table(channel, members, key_of(game))
    started = await members[0].click(table_message(channel), label="Start")
    assert "❌" not in (started.response.content or "")
    table = bot.manager.tables[channel.id]
    table.game = game  # the twin's point of the hand, dealt as the family's tests deal it
    await bot.hall.table_changed(table)
    await bot.hall.flush(table.id)
    for seat, action in opening:
        played = await members[seat].slash(channel, "play", action=action)
        assert "❌" not in (played.response.content or ""), played.response.content
    asked = private_seats(game)
    window = game.decision()
    key = window.key if window is not None else None
    for _ in range(20):  # answered as tests/engines/test_windows.py ``close`` does, in Discord
        if not is_open(game, key):
            break
        named = [s for s in game.to_act() if s in game.public_to_act()]
        seat = (named or private_seats(game))[0]  # a seat the table names (够级's 对头) passes
        declined = await members[seat].slash(channel, "play", action="pass")
        assert "❌" not in (declined.response.content or ""), declined.response.content
    assert not is_open(game, key), "the window closed"
    await bot.hall.flush(table.id)
    watcher = guild.add_member(env.create_user("gus"))
    watch = await watcher.slash(channel, "table watch")
    await bot.hall.flush(table.id)
    never_asked = [s for s in range(seats) if s not in asked]
    return {
        "asked": set(asked),
        "table": readable(table_message(channel)),
        "watch": (watch.response.content or "", [embedded(e) for e in watch.response.embeds],
                  sorted(a.filename for a in watch.response.attachments)),
        "dms": {s: readable(members[s].user.dm_channel.history()[-1]) for s in never_asked},
        "game": game,
    }


@pytest.mark.parametrize("kind", list(TWINS), ids="/".join)
async def test_who_could_answer_a_window_never_shows_in_discord(
        simcord_env: Any, simcord_bot: GameHall, kind: tuple[str, str]) -> None:
    build, opening, _watcher = TWINS[kind]
    more = await twin(simcord_env, simcord_bot, build(True), opening)
    fewer = await twin(simcord_env, simcord_bot, build(False), opening)
    assert fewer["asked"] < more["asked"] or kind == ("gouji", "declare"), \
        "the twins differ in who may answer"
    assert without_table_numbers(more["table"][0]) == without_table_numbers(fewer["table"][0])
    assert more["table"][1] == fewer["table"][1], "the same table picture"
    assert without_table_numbers(str(more["watch"])) == without_table_numbers(str(fewer["watch"]))
    compared = 0
    for seat in more["dms"].keys() & fewer["dms"].keys():
        if more["game"].view(seat).hand == fewer["game"].view(seat).hand:
            compared += 1  # a seat never asked, holding the same cards at both tables
            assert without_table_numbers(str(more["dms"][seat])) \
                == without_table_numbers(str(fewer["dms"][seat])), f"seat {seat + 1}'s DM"
    assert compared or more["asked"] == set(range(more["game"].setup.seats))
