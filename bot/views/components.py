"""Persistent buttons and selects: their custom ids carry the table and the action, so they
keep working after a restart (discord.py DynamicItem)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import discord

from bot.host.model import PLAYING, Table
from bot.i18n import normalize, render, t
from bot.views.rematch import again_item, again_with_items
from engines.base import Game, Picker

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


class StartButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"gh:s:(?P<table>\d+):(?P<action>.+)"):
    """Start with a start choice (``Game.start_offers``: 明牌开始 ×5): the clicker deals the hand
    as Start does, having chosen blind, before any card exists."""

    def __init__(self, table: int, action: str, label: str = "", style: str = "success") -> None:
        super().__init__(discord.ui.Button(
            label=(label or action)[:80], style=STYLES.get(style, discord.ButtonStyle.success),
            custom_id=f"gh:s:{table}:{action}"[:100]))
        self.table, self.action = table, action

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> StartButton:
        return cls(int(match["table"]), match["action"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameHall = interaction.client  # type: ignore[assignment]
        hall = bot.hall
        hall._on_table_message(interaction, self.table)  # the redraw answers the click
        started = bot.manager.start(self.table, interaction.user.id, start=self.action)
        if await hall.guarded(interaction, started) and not interaction.response.is_done():
            await hall.reply(interaction, t("ok.start", normalize(interaction.locale)))


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


class PickSelect(discord.ui.DynamicItem[discord.ui.Select],
                 template=r"gh:p(?P<menu>\d*):(?P<table>\d+):(?P<tpl>.*)"):
    """Pick from your hand; submitting the selection takes the action (e.g. plays the cards).
    The menu number tells apart the menus of a picker whose every menu acts at once."""

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


class GatherSelect(discord.ui.DynamicItem[discord.ui.Select],
                   template=r"gh:g:(?P<table>\d+):(?P<menu>\d+)"):
    """One menu of a picker that has several (e.g. a hand larger than one menu): its picks are
    kept until the Play button takes them all together."""

    def __init__(self, table: int, menu: int, select: discord.ui.Select | None = None) -> None:
        super().__init__(select or discord.ui.Select(custom_id=f"gh:g:{table}:{menu}"))
        self.table, self.menu = table, menu

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match: re.Match[str]) -> GatherSelect:
        return cls(int(match["table"]), int(match["menu"]), select=item)

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameHall = interaction.client  # type: ignore[assignment]
        await bot.hall.gather(interaction, self.table, self.menu, list(self.item.values))


def table_view(table: Table, locale: str) -> discord.ui.View:
    """The buttons under the public table message: only the seats the game shows as acting
    (``public_to_act``) get public buttons; private claims are answered in private views."""
    view = discord.ui.View(timeout=None)
    if table.status != PLAYING or table.game is None:
        view.add_item(TableButton(table.id, "join", t("btn.join", locale), "success"))
        view.add_item(TableButton(table.id, "leave", t("btn.leave", locale), "secondary"))
        view.add_item(TableButton(table.id, "start", t("btn.start", locale), "primary"))
        for choice in table.start_offers[:2]:  # 明牌开始 ×5: Start, having chosen blind
            view.add_item(StartButton(table.id, choice.action, render(choice.label, locale),
                                      choice.style))
        view.add_item(TableButton(table.id, "bot", t("btn.bot", locale), "secondary"))
        again = again_item(table, locale)
        if again is not None:
            view.add_item(again)
            for item in again_with_items(table, locale)[:2]:
                view.add_item(item)
        return view
    view.add_item(TableButton(table.id, "hand", t("btn.hand", locale), "primary"))
    seen: set[str] = set()
    for seat in table.game.public_to_act():
        for choice in table.game.choices(seat)[:19]:
            if choice.action in seen or len(view.children) >= 20:
                continue
            seen.add(choice.action)
            view.add_item(ActionButton(table.id, choice.action, render(choice.label, locale),
                                       choice.style))
    return view


MAX_ROWS = 5
"""Discord's rows of components per message; each select menu takes a whole row."""


def hand_view(table: Table, game: Game, seat: int, locale: str, *, turn: bool | None = None
              ) -> discord.ui.View:
    """The private controls: the card picker (one select per menu; with several menus, picks
    are gathered and confirmed with Play; not in a waiting DM), the phase's buttons and Hint,
    or while the seat waits its open offers and Refresh. ``turn``: whether they are a turn's
    (``hand_text``; the DM's), by default (``/hand``) whether the game waits for the seat."""
    view = discord.ui.View(timeout=None)
    # a waiting DM (``turn`` False) offers no cards to pick: it is redrawn only when what it
    # shows changes (``private_digest``), which a picker made from the phase would not follow,
    # so it would tell whether a window it was not asked in opened; ``/hand``, drawn when
    # asked, shows the hand's picker whatever the turn
    if turn is not False:
        for item in picker_items(table.id, game.picker(seat), locale):
            view.add_item(item)
    # offers (明牌 …) are open whatever the turn: a click takes one, nobody waits for them
    offers = list(game.open_offers(seat))
    if not (seat in game.to_act() if turn is None else turn):
        for choice in offers[:4]:
            view.add_item(ActionButton(table.id, choice.action, render(choice.label, locale),
                                       choice.style))
        view.add_item(TableButton(table.id, "hand", t("btn.refresh", locale), "secondary"))
        return view
    selects = sum(isinstance(getattr(c, "item", c), discord.ui.Select) for c in view.children)
    room = (MAX_ROWS - selects) * 5 - (len(view.children) - selects) - 1  # one left for Hint
    for choice in [*game.choices(seat), *offers][:max(0, room)]:
        view.add_item(ActionButton(table.id, choice.action, render(choice.label, locale), choice.style))
    view.add_item(TableButton(table.id, "hint", t("btn.hint", locale), "secondary"))
    return view


def picker_items(table_id: int, picker: Picker | None, locale: str) -> list[discord.ui.Item[Any]]:
    """The selects of a picker, one per menu (``Picker.menus``). A pick acts at once when the
    picker fits one menu or takes a single item (a discard, from any menu); otherwise the picks
    of all menus are gathered and a Play button takes them together."""
    menus = shown_menus(picker) if picker is not None and picker.tokens else []
    if picker is None or not menus:
        return []
    if len(menus) == 1 or picker.max_values == 1:
        # one pick makes the action (a discard): every menu acts at once, no Play button
        items: list[discord.ui.Item[Any]] = []
        for menu, (start, stop) in enumerate(menus[:MAX_ROWS - 1]):
            tag = "" if len(menus) == 1 else str(menu)
            select = discord.ui.Select(
                custom_id=f"gh:p{tag}:{table_id}:{picker.template}|{picker.sep}"[:100],
                placeholder=(t("hand.pick", locale) if len(menus) == 1 else t(
                    "hand.pick_menu", locale, n=menu + 1, of=len(menus),
                    first=picker.labels[start], last=picker.labels[stop - 1])),
                min_values=min(picker.min_values, stop - start),
                max_values=min(picker.max_values, stop - start),
                options=_options(picker, start, stop),
            )
            items.append(PickSelect(table_id, picker.template, picker.sep, select=select))
        return items
    items = []
    # one row stays for the buttons (4 menus already hold 100 cards)
    for menu, (start, stop) in enumerate(menus[:MAX_ROWS - 1]):
        select = discord.ui.Select(
            custom_id=f"gh:g:{table_id}:{menu}",
            placeholder=t("hand.pick_menu", locale, n=menu + 1, of=len(menus),
                          first=picker.labels[start], last=picker.labels[stop - 1]),
            min_values=0, max_values=min(picker.max_values, stop - start),
            options=_options(picker, start, stop),
        )
        items.append(GatherSelect(table_id, menu, select=select))
    items.append(TableButton(table_id, "pick", t("btn.play", locale), "success"))
    return items


def shown_menus(picker: Picker) -> list[tuple[int, int]]:
    """``Picker.menus()`` as the message can hold them: with more menus than rows (trumps and
    four suits make five), the smallest neighbours are joined, up to ``MENU_SIZE`` each, so
    that every card stays pickable instead of the last menus being cut."""
    menus = picker.menus()
    while len(menus) > MAX_ROWS - 1:
        i = min(range(len(menus) - 1), key=lambda k: menus[k + 1][1] - menus[k][0])
        if menus[i + 1][1] - menus[i][0] > Picker.MENU_SIZE:
            break  # four full menus already hold 100 cards
        menus[i:i + 2] = [(menus[i][0], menus[i + 1][1])]
    return menus


def _options(picker: Picker, start: int, stop: int) -> list[discord.SelectOption]:
    """The options of one menu; values carry the token's index so equal cards stay distinct."""
    return [
        discord.SelectOption(label=picker.labels[i][:100], value=f"{i}:{picker.tokens[i]}"[:100])
        for i in range(start, stop)
    ]


class QuickButton(discord.ui.DynamicItem[discord.ui.Button],
                  template=r"gh:q:(?P<game>[a-z0-9_]+):(?P<room>[a-z0-9_]+)"):
    """快速加入 on /table list: sit at a waiting table of this game and room, or open one in
    the clicker's channel (as /quickplay)."""

    def __init__(self, game: str, room: str, label: str = "") -> None:
        super().__init__(discord.ui.Button(
            label=(label or f"{game} · {room}")[:80], style=discord.ButtonStyle.success,
            custom_id=f"gh:q:{game}:{room}"[:100]))
        self.game, self.room = game, room

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: re.Match[str]) -> QuickButton:
        return cls(match["game"], match["room"])

    async def callback(self, interaction: discord.Interaction) -> None:
        bot: GameHall = interaction.client  # type: ignore[assignment]
        extras: Any = bot.get_cog("HallExtrasCog")
        await bot.hall.guarded(interaction, extras.quick(interaction, self.game, self.room))


def dynamic_items() -> tuple[type[discord.ui.DynamicItem[Any]], ...]:
    return (TableButton, ActionButton, PickSelect, GatherSelect, QuickButton, StartButton)
