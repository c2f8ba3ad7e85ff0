"""Shared SimCord helpers for the banker and pot games (斗牛 family, 吃火锅): seating, what a
member can read, card tokens in text, and the checks of a settled hand."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import discord
from simhelpers import (  # type: ignore[import-not-found]
    button_labels,
    hint_of,
    public_text,
    table_message,
)

from bot.client import GameHall
from engines.base import ESCAPE, Game
from engines.cards import format_cards
from storage import history
from storage.settlement import settle_amounts

NAMES = ("ann", "bob", "cat", "dan")

# A run of cards in the suited notation ("Ks", "KsQd5h"), not glued to other letters or digits:
# what a card looks like wherever the hall prints one (hands, splits, open cards, pickers).
_CARD_RUN = re.compile(r"(?<![0-9A-Za-z])((?:(?:10|[AKQJT2-9])[shcd])+)(?![0-9A-Za-z])")
_CARD = re.compile(r"(?:10|[AKQJT2-9])[shcd]")
_RESULT = re.compile(r"^Seat \d+ \((?P<name>.+?)\): (?P<points>[+-]?\d+) points, "
                     r"(?P<delta>[+-]?\d+) beans, "
                     r"balance (?P<balance>\d+)", re.MULTILINE)


def world(env: Any, people: int) -> tuple[Any, Any, list[Any]]:
    """A guild, its #hall channel and ``people`` members (ann, bob, cat, dan)."""
    guild = env.create_guild()
    channel = guild.create_text_channel("hall")
    members = [guild.add_member(env.create_user(name)) for name in NAMES[:people]]
    return guild, channel, members


async def open_table(channel: Any, members: list[Any], game: str, *, bots: int = 0,
                     room: str = "novice") -> discord.Message:
    """The first member opens the table, the others click Join, then Add bot ``bots`` times."""
    created = await members[0].slash(channel, "table create", game=game, room=room)
    assert created.ephemeral and "Table opened" in created.response.content
    for member in members[1:]:
        joined = await member.click(table_message(channel), label="Join")
        assert joined.acknowledged
        assert "❌" not in (joined.response.content or "")
    for _ in range(bots):
        added = await members[0].click(table_message(channel), label="Add bot")
        assert "❌" not in (added.response.content or "")
    message = table_message(channel)
    assert {"Join", "Leave", "Start", "Add bot"} <= set(button_labels(message))
    return message


def message_text(message: discord.Message) -> str:
    """Everything a message shows: content, embeds, and its buttons' and menus' labels."""
    parts = [public_text(message)] if message.embeds else [message.content or ""]
    for row in message.components:
        for child in getattr(row, "children", [row]):
            parts.append(getattr(child, "label", None) or "")
            parts.append(getattr(child, "placeholder", None) or "")
            for option in getattr(child, "options", []) or []:
                parts += [option.label, option.value, option.description or ""]
    return "\n".join(parts)


def seen_by(channel: Any, member: Any) -> str:
    """All a member can read about the table: the channel as they see it (their own
    ephemerals included, nobody else's) and their DMs."""
    texts = [message_text(m) for m in channel.history(viewer=member)]
    texts += [message_text(m) for m in member.user.dm_channel.history()]
    return "\n".join(texts)


def card_tokens(text: str) -> set[str]:
    """The suited cards written anywhere in ``text`` ("Ks", "Td" ...)."""
    return {card for run in _CARD_RUN.findall(text) for card in _CARD.findall(run)}


def cards_of(game: Any, seat: int) -> set[str]:
    """A bull-game seat's five cards as tokens."""
    return set(format_cards(game.cards[seat]).split())


def assert_only_own_cards(channel: Any, members: list[Any], game: Any) -> None:
    """Before 开牌: no member reads a card dealt to another seat (nor their own before the
    game shows it to them)."""
    dealt = set().union(*(cards_of(game, seat) for seat in range(game.seats)))
    for seat, member in enumerate(members):
        if member is None:
            continue
        seen = card_tokens(seen_by(channel, member))
        own = cards_of(game, seat) if game.cards_visible(seat) else set()
        leaked = seen & (dealt - own)
        assert not leaked, f"{member.name} can read cards of other seats: {sorted(leaked)}"


def settlement(text: str) -> dict[str, tuple[int, int, int]]:
    """The settlement lines of a table message: name → (points, beans delta, balance)."""
    return {m["name"].strip(): (int(m["points"]), int(m["delta"]), int(m["balance"]))
            for m in _RESULT.finditer(text)}


@dataclass
class HandWatch:
    """What a test notes when a hand starts, to check its settlement afterwards."""

    bot: GameHall
    channel: Any
    seats: list[Any]  # members by seat, None for bots
    game: Game
    hand_id: int
    holds: dict[int, int]
    balances: dict[int, int]
    house: int
    grant_total: int
    room: str

    @classmethod
    async def start(cls, bot: GameHall, channel: Any, members: list[Any], starter: Any
                    ) -> HandWatch:
        """Click Start (as ``starter``) and note the table: seats, holds, balances, house."""
        wallet = bot.wallet_for(channel.guild.id)
        before = {m.id: (await wallet.account(m.id)).balance for m in members}
        house = await wallet.house_balance()
        started = await starter.click(table_message(channel), label="Start")
        assert started.acknowledged
        table = bot.manager.tables[channel.id]
        assert table.game is not None and table.hand_id is not None
        by_uid = {m.id: m for m in members}
        seats = [by_uid.get(s.uid) if s.uid is not None else None for s in table.seats]
        holds = {int(uid): amount for uid, amount in table.holds.items()}
        for member in members:
            account = await wallet.account(member.id)
            assert account.held == holds[member.id], "what a person brings is held"
        return cls(bot, channel, seats, table.game, table.hand_id, holds, before, house,
                   sum(before.values()) + house, table.room)

    def member_seats(self) -> list[int]:
        return [i for i, m in enumerate(self.seats) if m is not None]

    def dm(self, member: Any) -> str:
        message = member.user.dm_channel.last_message
        assert message is not None, f"{member.name} got no DM"
        assert f"hand #{self.hand_id}" in message.content, message.content
        return message.content

    async def check_settled(self) -> str:
        """The hand is over and settled as the rules say; returns the table message text.

        Points are the engine's outcome; each person's beans move by the settlement formula on
        what they carried (storage.settlement), the table message shows points, beans, balance
        and the hand id, nothing stays held, and Σ balances + house is unchanged.
        """
        assert self.game.is_over(), "the hand did not finish"
        text = public_text(table_message(self.channel))
        assert f"Hand #{self.hand_id} settled" in text, text
        outcome = self.game.outcome()
        room = self.bot.settings.rooms[self.room]
        amounts = settle_amounts(
            [(self.holds[m.id] if m is not None else None, outcome.points[i])
             for i, m in enumerate(self.seats)], room.coefficient, room.rake)
        shown = settlement(text)
        wallet = self.bot.wallet_for(self.channel.guild.id)
        total = await wallet.house_balance()
        for seat, member in enumerate(self.seats):
            if member is None:
                continue
            account = await wallet.account(member.id)
            total += account.balance
            points, delta, balance = shown[member.name]
            assert points == outcome.points[seat]
            assert delta == amounts[seat].delta, (member.name, delta, amounts[seat])
            assert balance == account.balance == self.balances[member.id] + delta
            assert account.held == 0, "nothing stays held after the settlement"
        assert await wallet.house_balance() - self.house == sum(a.rake for a in amounts)
        assert total == self.grant_total, "beans are neither created nor lost"
        return text

    async def stored_record(self) -> dict[str, Any]:
        hand = await history.get_hand(self.bot.db, self.hand_id)
        assert hand is not None and hand.status == "settled"
        return json.loads(hand.record)


def replay_legally(spec: Any, record: dict[str, Any]) -> Game:
    """Rebuild a hand from its stored record, checking that every logged action (people's,
    bots', the trustee's) was among the legal actions when it was taken."""
    game = spec.game.from_record({"setup": record["setup"], "log": []})
    for seat, action in record["log"]:
        if action == ESCAPE:
            game.escape(seat)
            continue
        assert action in game.legal_actions(seat), (seat, action, game.legal_actions(seat))
        game.apply(seat, action)
    assert game.is_over()
    return game


# --- private views with several menus, and bean checks, for the team card games ----------
def selects(message: Any) -> list[Any]:
    return [child for row in message.components for child in getattr(row, "children", [])
            if child.type.name == "select"]


def menu_labels(message: Any) -> list[str]:
    """Every card the private view's menus offer, over all menus."""
    return [option.label for menu in selects(message) for option in menu.options]


async def play_by_menus(member: Any, message: Any, cards: list[str]) -> Any:
    """Pick ``cards`` in the menus they sit in (one select per menu) and confirm with Play
    (a single menu acts at once)."""
    picked: dict[str, list[str]] = {}
    pool = [(menu.custom_id, option) for menu in selects(message) for option in menu.options]
    for card in cards:
        index = next(i for i, (_, option) in enumerate(pool) if option.label == card)
        custom_id, option = pool.pop(index)
        picked.setdefault(custom_id, []).append(option.value)
    if len(selects(message)) == 1:  # one menu: the pick acts at once
        return await member.select(message, picked[selects(message)[0].custom_id])
    for custom_id, values in picked.items():
        chosen = await member.select(message, values, custom_id=custom_id)
        assert chosen.acknowledged
    return await member.click(message, label="Play")


async def rake_and_changes(bot: GameHall, guild_id: int, watch: HandWatch) -> tuple[int, int]:
    """The rake the house took in the hand, and Σ balance changes + rake (0 when conserved),
    read through the host's one door to the wallet."""
    wallet = bot.manager.wallet_for(guild_id)
    changes = [(await wallet.account(uid)).balance - before
               for uid, before in watch.balances.items()]
    rake = await wallet.house_balance() - watch.house
    return rake, sum(changes) + rake


async def table_now(bot: GameHall, channel: Any) -> Any:
    """The table message once every change so far is drawn (edits are coalesced and may wait
    on Discord's rate limit)."""
    await bot.hall.flush(channel.id)
    return table_message(channel)


async def hints_until(channel: Any, members: list[Any], game: Any,
                      stop: Callable[[], bool], limit: int = 400) -> None:
    """Whoever the game waits for (at the table or in a private window) asks /hint and
    /plays it, until ``stop()`` or the end of the hand."""
    for _ in range(limit):
        if game.is_over() or stop():
            return
        seat = game.to_act()[0]
        hint = await members[seat].slash(channel, "hint")
        done = await members[seat].slash(channel, "play", action=hint_of(hint))
        assert "❌" not in done.response.content, done.response.content
    raise AssertionError("the hand did not get there")


def dm_of(member: Any) -> Any:
    message = member.user.dm_channel.last_message
    assert message is not None, f"{member.name} got no DM"
    return message
