"""服务器设置: per-server (guild) settings kept in the database: the moderator role and the
language of public messages."""

from __future__ import annotations

from dataclasses import dataclass

from storage.db import Connection, Storage


@dataclass(frozen=True)
class GuildSettings:
    """``mod_role_id``: members with this role may moderate (besides Manage Server).
    ``language``: the locale of the server's public table messages, or None (not set)."""

    guild_id: int
    mod_role_id: int | None = None
    language: str | None = None


async def get_guild(db: Storage, guild_id: int) -> GuildSettings:
    """The server's settings (defaults when none were saved)."""

    async def read(conn: Connection) -> GuildSettings:
        row = (await conn.execute(
            "SELECT mod_role_id, language FROM guilds WHERE id = ?", (guild_id,)
        )).fetchone()
        return GuildSettings(guild_id, *row) if row else GuildSettings(guild_id)

    return await db.read(read)


async def set_mod_role(db: Storage, guild_id: int, role_id: int | None) -> None:
    """Set (or with None clear) the server's moderator role."""

    async def tx(conn: Connection) -> None:
        await conn.execute(
            "INSERT INTO guilds (id, mod_role_id) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET mod_role_id = excluded.mod_role_id",
            (guild_id, role_id),
        )

    await db.run(tx)


async def get_mod_role(db: Storage, guild_id: int) -> int | None:
    """Shorthand: the server's moderator role id, or None."""
    return (await get_guild(db, guild_id)).mod_role_id


async def set_language(db: Storage, guild_id: int, language: str | None) -> None:
    """Set (or with None clear) the language of the server's public messages."""

    async def tx(conn: Connection) -> None:
        await conn.execute(
            "INSERT INTO guilds (id, language) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET language = excluded.language",
            (guild_id, language),
        )

    await db.run(tx)


async def web_board(db: Storage, guild_id: int) -> bool:
    """Whether the server's leaderboard page is on (off unless its moderators turned it on)."""

    async def read(conn: Connection) -> bool:
        row = (await conn.execute("SELECT web_board FROM guilds WHERE id = ?",
                                  (guild_id,))).fetchone()
        return bool(row and row[0])

    return await db.read(read)


async def set_web_board(db: Storage, guild_id: int, on: bool) -> None:
    """Turn the server's leaderboard page on or off."""

    async def tx(conn: Connection) -> None:
        await conn.execute(
            "INSERT INTO guilds (id, web_board) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET web_board = excluded.web_board",
            (guild_id, int(on)),
        )

    await db.run(tx)
