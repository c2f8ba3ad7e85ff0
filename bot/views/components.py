"""Persistent buttons and selects: their custom ids carry the table and the action, so they
keep working after a restart (discord.py DynamicItem)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.host.model import PLAYING, Table
from bot.i18n import render, t
from engines.base import Game

if TYPE_CHECKING:
    from bot.client import GameHall

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class TableButton(discord.ui.DynamicItem[discord.ui.Button], template=r"gh:t:(?P<table>\d+):(?P<verb>[a-z]+)"):
    """Join / Leave / Start / Add bot / My hand / Hint."""

    def __init__(self, table: int, verb: str, label: str = "", style: str = "secondary") -> None:
        super().__init__(discord.ui.Button(
            label=label or verb, style=STYLES[style], custom_id=f"gh:t:{table}:{verb}"))
        self.table, self.verb = table, verb

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> TableButton:
        return cls(int(match["table"]), match["verb"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameHall = interaction.client  # type: ignore[assignment]
        await bot.hall.table_verb(interaction, self.table, self.verb)


class ActionButton(discord.ui.DynamicItem[discord.ui.Button], template=r"gh:a:(?P<table>\d+):(?P<action>.+)"):
    """A game action (bid, grab, double, pass ...) for whoever may take it now."""

    def __init__(self, table: int, action: str, label: str = "", style: str = "secondary") -> None:
        super().__init__(discord.ui.Button(
            label=(label or action)[:80], style=STYLES.get(style, discord.ButtonStyle.secondary),
            custom_id=f"gh:a:{table}:{action}"[:100]))
        self.table, self.action = table, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> ActionButton:
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameHall = interaction.client  # type: ignore[assignment]
        await bot.hall.act(interaction, self.table, self.action)


class PickSelect(discord.ui.DynamicItem[discord.ui.Select], template=r"gh:p:(?P<table>\d+):(?P<tpl>.*)"):
    """Pick cards from your hand; submitting the selection takes the action (e.g. plays them)."""

    def __init__(self, table: int, template: str, sep: str = "",
                 select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"gh:p:{table}:{template}|{sep}"))
        self.table = table
        # the custom id carries "<action template>|<separator>" (DynamicItem owns .template)
        self.action_template, _, self.joiner = template.partition("|")
        if sep:
            self.joiner = sep

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> PickSelect:
        return cls(int(match["table"]), match["tpl"], select=item)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameHall = interaction.client  # type: ignore[assignment]
        picked = [v.split(":", 1)[1] for v in self.item.values]
        await bot.hall.act(interaction, self.table,
                           self.action_template.format(self.joiner.join(picked)))


def table_view(table: Table, locale: str) -> discord.ui.View:
    """The buttons under the public table message."""
    view = discord.ui.View(timeout=None)
    if table.status != PLAYING or table.game is None:
        view.add_item(TableButton(table.id, "join", t("btn.join", locale), "success"))
        view.add_item(TableButton(table.id, "leave", t("btn.leave", locale), "secondary"))
        view.add_item(TableButton(table.id, "start", t("btn.start", locale), "primary"))
        view.add_item(TableButton(table.id, "bot", t("btn.bot", locale), "secondary"))
        return view
    view.add_item(TableButton(table.id, "hand", t("btn.hand", locale), "primary"))
    seen: set[str] = set()
    for seat in table.game.to_act():
        for choice in table.game.choices(seat)[:19]:
            if choice.action in seen or len(view.children) >= 20:
                continue
            seen.add(choice.action)
            view.add_item(ActionButton(table.id, choice.action, render(choice.label, locale),
                                       choice.style))
    return view


def hand_view(table: Table, game: Game, seat: int, locale: str) -> discord.ui.View:
    """The private controls: a card picker, the phase's buttons, and Hint."""
    view = discord.ui.View(timeout=None)
    picker = game.picker(seat)
    if picker is not None and picker.tokens:
        options = [
            discord.SelectOption(label=label[:100], value=f"{i}:{token}")
            for i, (token, label) in enumerate(zip(picker.tokens[:25], picker.labels[:25], strict=True))
        ]
        select = discord.ui.Select(
            custom_id=f"gh:p:{table.id}:{picker.template}|{picker.sep}"[:100],
            placeholder=t("hand.pick", locale),
            min_values=min(picker.min_values, len(options)),
            max_values=min(picker.max_values, len(options)),
            options=options,
        )
        view.add_item(PickSelect(table.id, picker.template, picker.sep, select=select))
    if seat not in game.to_act():
        view.add_item(TableButton(table.id, "hand", t("btn.refresh", locale), "secondary"))
        return view
    for choice in game.choices(seat)[:15]:
        view.add_item(ActionButton(table.id, choice.action, render(choice.label, locale), choice.style))
    view.add_item(TableButton(table.id, "hint", t("btn.hint", locale), "secondary"))
    return view


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    return (TableButton, ActionButton, PickSelect)
