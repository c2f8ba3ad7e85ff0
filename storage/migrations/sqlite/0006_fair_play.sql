-- 0006: fair play — leaver records and their cool-down, per-pair statistics, the 要不起
-- auto-pass preference, seasons with a snapshot of each ended season's leaderboards.

-- 逃跑记录: one row per (economy, player). ``strikes`` is the live count the cool-down follows
-- (an escape, a hand spent wholly on trustee, a full table abandoned before the deal each add
-- one; clean hands take them off again); the other counts are lifetime totals.
CREATE TABLE conduct (
    economy      INTEGER NOT NULL,
    uid          INTEGER NOT NULL,
    escapes      INTEGER NOT NULL DEFAULT 0 CHECK (escapes >= 0),
    absences     INTEGER NOT NULL DEFAULT 0 CHECK (absences >= 0),
    abandons     INTEGER NOT NULL DEFAULT 0 CHECK (abandons >= 0),
    strikes      INTEGER NOT NULL DEFAULT 0 CHECK (strikes >= 0),
    clean        INTEGER NOT NULL DEFAULT 0 CHECK (clean >= 0),  -- clean hands toward a decay
    banned_until REAL NOT NULL DEFAULT 0,                        -- no bean room before this
    last_at      REAL,
    PRIMARY KEY (economy, uid)
) WITHOUT ROWID;

-- Every incident and every moderator clearing, never updated or deleted.
CREATE TABLE conduct_events (
    id           INTEGER PRIMARY KEY,
    economy      INTEGER NOT NULL,
    uid          INTEGER NOT NULL,
    kind         TEXT NOT NULL CHECK (kind IN ('escape', 'absent', 'abandon', 'clear')),
    hand_id      INTEGER,
    guild_id     INTEGER,
    moderator_id INTEGER,
    at           REAL NOT NULL
);

CREATE INDEX conduct_events_by_uid ON conduct_events (economy, uid, id);

CREATE TRIGGER conduct_events_no_update BEFORE UPDATE ON conduct_events
BEGIN
    SELECT RAISE(ABORT, 'conduct events are append-only');
END;

CREATE TRIGGER conduct_events_no_delete BEFORE DELETE ON conduct_events
BEGIN
    SELECT RAISE(ABORT, 'conduct events are append-only');
END;

-- 对子: two people (a < b) who sat at the same settled bean-room hand in one server.
-- ``net``: beans that went from b to a over their hands together (negative: from a to b).
CREATE TABLE pairs (
    economy  INTEGER NOT NULL,
    guild_id INTEGER NOT NULL,
    a        INTEGER NOT NULL,
    b        INTEGER NOT NULL,
    hands    INTEGER NOT NULL DEFAULT 0,
    net      INTEGER NOT NULL DEFAULT 0,
    a_into_b INTEGER NOT NULL DEFAULT 0,   -- hands a escaped while b won
    b_into_a INTEGER NOT NULL DEFAULT 0,
    last_at  REAL NOT NULL,
    PRIMARY KEY (economy, guild_id, a, b),
    CHECK (a < b)
) WITHOUT ROWID;

-- Hands already counted in the records and pairs (a settlement replayed after a restart is
-- not counted twice).
CREATE TABLE conduct_hands (
    hand_id INTEGER PRIMARY KEY
);

-- A person's own preferences, the same in every server (auto-pass is on unless turned off).
CREATE TABLE preferences (
    uid      INTEGER PRIMARY KEY,
    autopass INTEGER NOT NULL DEFAULT 1 CHECK (autopass IN (0, 1))
);

-- 赛季: an ended season of an economy (its number counts up from 1) and the leaderboards as
-- they stood when a moderator ended it.
CREATE TABLE seasons (
    id           INTEGER PRIMARY KEY,
    economy      INTEGER NOT NULL,
    number       INTEGER NOT NULL,
    moderator_id INTEGER NOT NULL,
    levels_reset INTEGER NOT NULL CHECK (levels_reset IN (0, 1)),
    supply       INTEGER NOT NULL,     -- the players' beans before the reset
    ended_at     REAL NOT NULL,
    UNIQUE (economy, number)
);

CREATE TABLE season_scores (
    season_id INTEGER NOT NULL REFERENCES seasons (id),
    game      TEXT NOT NULL,
    rank      INTEGER NOT NULL,
    uid       INTEGER NOT NULL,
    score     INTEGER NOT NULL,
    PRIMARY KEY (season_id, game, rank)
) WITHOUT ROWID;

-- /mod economy reads one economy's ledger by time.
CREATE INDEX ledger_by_time ON ledger (economy, at);
