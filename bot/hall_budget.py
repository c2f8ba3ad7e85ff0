"""How ``DiscordHall`` spends Discord's budget on edits (docs/discord-budget.md): a picture
that did not change is kept rather than uploaded again, and a message is edited through the
token of an interaction that drew it, which the global rate limit does not count.

A part of ``DiscordHall`` (bot/hall.py), which inherits it.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.render.pictures import content_named

log = logging.getLogger("bot.hall")  # the hall's log, as before the split

TOKEN_LIFE = 14 * 60
"""Seconds an interaction's token is used to edit its message: Discord keeps a token valid
for 15 minutes (docs/discord-budget.md); the last minute is left as a margin."""

TOKENS_KEPT = 4
"""Tokens kept per message, used in turn: each token's webhook is a rate-limit bucket of its
own, so a busy table message is not held back by one token's bucket."""


class MessageBudget:
    """预算: picture uploads kept, and edits through interaction tokens."""

    def attachments(self, file: discord.File | None, carried: str | None) -> dict[str, Any]:
        """The attachments argument of an edit: none (keep the message's file) when it already
        carries this picture, else the new file, or an empty list to drop an old one."""
        if file is not None and file.filename == carried and content_named(file.filename):
            return {}
        return {"attachments": [file] if file is not None else []}

    def _carried(self, message: discord.Message | None, message_id: int | None) -> str | None:
        """The picture file a message carries: from the message itself where we have it, else
        from what this process last uploaded to it."""
        if message is not None:
            return next((a.filename for a in message.attachments), None)
        return self.uploaded.get(message_id) if message_id is not None else None

    def _uploaded(self, message_id: int | None, file: discord.File | None) -> None:
        if message_id is None:
            return
        if len(self.uploaded) > 10_000:  # old hands' DMs: forgetting one costs one upload
            self.uploaded.clear()
        if file is not None:
            self.uploaded[message_id] = file.filename
        else:
            self.uploaded.pop(message_id, None)

    def _answered(self, interaction: discord.Interaction, message_id: int | None) -> None:
        """``interaction``'s answer drew message ``message_id`` (a component's message,
        updated or deferred): its token may edit that message for the next minutes."""
        if message_id is None:
            return
        now = self.manager.clock()
        if len(self.tokens) > 10_000:  # forget the messages whose tokens all expired
            self.tokens = {k: v for k, v in self.tokens.items()
                           if any(now - since < TOKEN_LIFE for _, since, _ in v)}
        kept = [t for t in self.tokens.get(message_id, ()) if t[0] is not interaction]
        self.tokens[message_id] = [*kept, [interaction, now, now]][-TOKENS_KEPT:]

    async def _edit_by_token(self, message_id: int, **fields: Any) -> bool:
        """Edit a message through the token of the latest interaction that drew it, if that
        token is still valid: True if done. An interaction endpoint, not bound to the global
        rate limit; a refused token is forgotten and the caller edits the message itself."""
        now = self.manager.clock()
        kept = [t for t in self.tokens.get(message_id, ()) if now - t[1] < TOKEN_LIFE]
        if not kept:
            self.tokens.pop(message_id, None)
            return False
        self.tokens[message_id] = kept
        held = min(kept, key=lambda t: t[2])  # the one rested longest
        held[2] = now
        try:
            await held[0].edit_original_response(**fields)
        except discord.HTTPException as exc:
            log.info("message %s: edit through the interaction failed (%s)", message_id, exc)
            if held in self.tokens.get(message_id, ()):
                self.tokens[message_id].remove(held)
            return False
        return True
