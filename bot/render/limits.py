"""Discord's size limits, applied in one place: every reply, embed and component goes through here.

Discord refuses a whole message when one part is too long (content over 2,000 characters, an
embed field over 1,024, a select option label over 100 ...), so a long player input echoed in an
error would lose the answer entirely. Text is cut with an ellipsis instead.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import discord

CONTENT = 2000
EMBED_TITLE = 256
EMBED_DESCRIPTION = 4096
EMBED_FIELDS = 25
FIELD_NAME = 256
FIELD_VALUE = 1024
FOOTER = 2048
EMBED_TOTAL = 6000
OPTION_LABEL = 100
OPTION_VALUE = 100
OPTIONS = 25
PLACEHOLDER = 150
BUTTON_LABEL = 80
CUSTOM_ID = 100
ECHO = 60
"""The most characters of a player's own input repeated back in a message."""


def clip(text: str | None, limit: int) -> str:
    """``text`` cut to ``limit`` characters, ending with "…" when it was cut.

    >>> clip("abcdef", 4)
    'abc…'
    >>> clip("abc", 4)
    'abc'
    """
    text = text or ""
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


def echo(value: Any) -> Any:
    """A player's input as it may be repeated in a message: strings over ``ECHO`` are cut."""
    return clip(value, ECHO) if isinstance(value, str) else value


def field_values(lines: Sequence[str], limit: int = FIELD_VALUE) -> list[str]:
    """``lines`` joined into as few embed field values as fit ``limit`` each, never splitting
    a line (a line longer than ``limit`` is clipped): a long settlement goes on in a second
    field instead of being cut.

    >>> [len(value) for value in field_values(["a" * 600, "b" * 600, "c"])]
    [600, 602]
    """
    values: list[str] = []
    for line in lines:
        line = clip(line, limit)
        if values and len(values[-1]) + 1 + len(line) <= limit:
            values[-1] += "\n" + line
        else:
            values.append(line)
    return values


def fit_embed(embed: discord.Embed) -> discord.Embed:
    """Cut an embed's parts to Discord's limits (per part, then the 6,000 total)."""
    if embed.title:
        embed.title = clip(embed.title, EMBED_TITLE)
    if embed.description:
        embed.description = clip(embed.description, EMBED_DESCRIPTION)
    fields = embed.fields[:EMBED_FIELDS]
    embed.clear_fields()
    for field in fields:
        embed.add_field(name=clip(field.name, FIELD_NAME) or "—",
                        value=clip(field.value, FIELD_VALUE) or "—", inline=field.inline)
    if embed.footer.text:
        embed.set_footer(text=clip(embed.footer.text, FOOTER))
    while len(embed) > EMBED_TOTAL and embed.fields:
        embed.remove_field(len(embed.fields) - 1)
    if len(embed) > EMBED_TOTAL and embed.description:
        embed.description = clip(embed.description, max(1, len(embed.description)
                                                         - (len(embed) - EMBED_TOTAL)))
    return embed


def fit_view(view: discord.ui.View | None) -> discord.ui.View | None:
    """Cut every button label, select placeholder and option to Discord's limits."""
    if view is None:
        return None
    for child in view.children:
        item = getattr(child, "item", child)  # a DynamicItem wraps its button or select
        if isinstance(item, discord.ui.Button) and item.label:
            item.label = clip(item.label, BUTTON_LABEL)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder:
                item.placeholder = clip(item.placeholder, PLACEHOLDER)
            options = item.options[:OPTIONS]
            for option in options:
                option.label = clip(option.label, OPTION_LABEL)
                option.value = clip(option.value, OPTION_VALUE)
            item.options = options
            item.max_values = min(item.max_values, len(options))
            item.min_values = min(item.min_values, item.max_values)
    return view


def fit(kwargs: dict[str, Any]) -> dict[str, Any]:
    """The keyword arguments of a send or edit with content, embeds and view cut to size."""
    if kwargs.get("content") is not None:
        kwargs["content"] = clip(kwargs["content"], CONTENT)
    if kwargs.get("embed") is not None:
        kwargs["embed"] = fit_embed(kwargs["embed"])
    if kwargs.get("view") is not None:
        kwargs["view"] = fit_view(kwargs["view"])
    return kwargs
