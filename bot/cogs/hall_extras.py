"""大厅附加: checking a hand's fair shuffle (/verify)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.app_commands import locale_str as _
from discord.ext import commands

from bot.cogs.wallet import chunks
from bot.hall import user_locale
from bot.host.fairness import Verification, read_commitment, verify
from bot.host.model import HostError
from bot.i18n import render, t
from bot.render.limits import clip
from bot.render.text import cards
from engines.base import GameSpec
from storage import history

if TYPE_CHECKING:
    from bot.client import GameHall
    from bot.settings import Settings


def seat_names(seats: tuple[int | None, ...]) -> list[str]:
    """Players as mentions, bots numbered in seat order as at the table."""
    bots = iter(range(1, len(seats) + 1))
    return [f"<@{uid}>" if uid else f"Bot {next(bots)}" for uid in seats]


def check_hand(specs: dict[str, GameSpec], hand: history.Hand, claimed: str | None
               ) -> Verification:
    """Re-deal a finished hand from its stored record. A running hand keeps its seed secret."""
    if hand.status != "settled" or not hand.record:
        raise HostError("err.hand_not_finished", hand=hand.code)
    digest = None
    if claimed is not None and claimed.strip():
        digest = read_commitment(claimed)
        if digest is None:
            raise HostError("err.bad_commitment", typed=clip(claimed.strip(), 80))
    return verify(specs[hand.game], hand.record, digest)


def verify_lines(specs: dict[str, GameSpec], hand: history.Hand, result: Verification,
                 locale: str, names: list[str] | None = None) -> list[str]:
    """What /verify and ``gamehall verify`` print: the seed, its digest against the claimed
    commitment, each seat's cards as re-dealt, and whether the recorded hand replays."""
    names = names or seat_names(hand.seats)
    spec = specs[hand.game]
    lines = [
        t("verify.head", locale, code=hand.code,
          game=spec.name_zh if locale == "zh-CN" else spec.name_en, seed=result.seed),
        t("verify.digest", locale, digest=result.commitment),
    ]
    if result.matches is None:
        lines.append(t("verify.no_claim", locale))
    elif result.matches:
        lines.append(t("verify.match", locale))
    else:
        lines.append(t("verify.mismatch", locale, claimed=result.claimed))
    for name, dealt in zip(names, result.dealt, strict=False):
        if dealt:
            lines.append(t("replay.dealt", locale, name=name, cards=cards(dealt)))
    if result.replayed:
        lines.append(t("verify.replayed", locale))
    else:
        lines.append(t("verify.broken", locale, problem=clip(result.problem or "", 300)))
    return lines


async def verify_offline(settings: Settings, code: str, claimed: str | None,
                         out: Callable[[str], None] = print) -> int:
    """``gamehall verify CODE``: check a hand in this hall's database; exit 0 when verified,
    1 when the record or the commitment does not match, 2 when there is no such hand."""
    from engines import registry
    from storage.db import Database

    locale = settings.locale_default
    db = await Database.open(settings.database, synchronous=settings.synchronous)
    try:
        hand = await history.hand_by_code(db, code) if 0 < len(code.strip()) <= 64 else None
        if hand is None:
            out(t("err.no_such_hand", locale))
            return 2
        try:
            result = check_hand(registry.specs(), hand, claimed)
        except HostError as exc:
            out(render(exc.text, locale))
            return 2
        names = [n.replace("<@", "uid ").rstrip(">") for n in seat_names(hand.seats)]
        for line in verify_lines(registry.specs(), hand, result, locale, names):
            out(line.replace("`", ""))
        return 0 if result.ok else 1
    finally:
        await db.close()


class HallExtrasCog(commands.Cog):
    """Commands around the tables: checking a shuffle."""

    def __init__(self, bot: GameHall) -> None:
        self.bot = bot

    @app_commands.command(name=_("verify"),
                          description=_("Check a finished hand's shuffle against its commitment"))
    @app_commands.describe(code=_("The hand's replay code, shown in its settlement"),
                           commitment=_("The commitment the table showed at the deal"))
    async def verify(self, interaction: discord.Interaction, code: str,
                     commitment: str | None = None) -> None:
        locale = user_locale(interaction)
        wallet_cog: Any = self.bot.get_cog("WalletCog")
        hand = await wallet_cog.visible_hand(interaction, code)  # same visibility as /replay
        result = check_hand(self.bot.manager.specs, hand, commitment)
        lines = verify_lines(self.bot.manager.specs, hand, result, locale)
        for part in chunks(lines):
            await self.bot.hall.reply(interaction, part)


async def setup(bot: GameHall) -> None:
    await bot.add_cog(HallExtrasCog(bot))
