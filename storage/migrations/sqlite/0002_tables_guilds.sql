-- 0002: open tables survive a restart; per-server settings and players.

-- The host's saved state of each open table (opaque text, written after every action).
CREATE TABLE tables (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    channel_id INTEGER NOT NULL,
    state      TEXT NOT NULL,
    updated_at REAL NOT NULL
);

CREATE TABLE guilds (
    id          INTEGER PRIMARY KEY,                     -- Discord guild (server) id
    mod_role_id INTEGER                                  -- role allowed to moderate, or NULL
);

-- Who has played a settled hand in each server (for server leaderboards).
CREATE TABLE guild_players (
    guild_id INTEGER NOT NULL,
    uid      INTEGER NOT NULL REFERENCES players (id),
    PRIMARY KEY (guild_id, uid)
) WITHOUT ROWID;
