-- 0001: players, the append-only ledger, moderator audit, hands with escrow, level scores.
-- Amounts are integer beans. Discord ids are the keys; id 0 is the house (it receives the rake).

CREATE TABLE players (
    id             INTEGER PRIMARY KEY,                  -- Discord user id; 0 = the house
    balance        INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    held           INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0 AND held <= balance),
    frozen         INTEGER NOT NULL DEFAULT 0 CHECK (frozen IN (0, 1)),
    last_relief_at REAL,                                 -- unix time of the last 低保 claim
    created_at     REAL NOT NULL
);

INSERT INTO players (id, balance, created_at) VALUES (0, 0, 0);

-- Every balance change, one row each, never updated or deleted.
CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,     -- rows are never deleted, so ids only grow
    uid           INTEGER NOT NULL REFERENCES players (id),
    delta         INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    reason        TEXT NOT NULL,        -- grant:start, grant:mod, revoke:mod, relief, hand, rake
    note          TEXT NOT NULL DEFAULT '',              -- a moderator's reason
    hand_id       INTEGER REFERENCES hands (id),
    moderator_id  INTEGER,
    at            REAL NOT NULL
);

CREATE INDEX ledger_by_uid ON ledger (uid, id);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

-- Moderator actions (grant, revoke, freeze, unfreeze), never updated or deleted.
CREATE TABLE audit (
    id           INTEGER PRIMARY KEY,
    moderator_id INTEGER NOT NULL,
    action       TEXT NOT NULL,
    uid          INTEGER NOT NULL REFERENCES players (id),
    amount       INTEGER,
    reason       TEXT NOT NULL DEFAULT '',
    at           REAL NOT NULL
);

CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- One row per hand: running → settled | aborted. Seats is a JSON array, seat → uid or null (bot);
-- result (once settled) a JSON array with one object per seat: what it carried, its points, the
-- rake, its bean delta, its balance after, its level score before and after.
CREATE TABLE hands (
    id          INTEGER PRIMARY KEY,                     -- hands are never deleted
    game        TEXT NOT NULL,
    room        TEXT NOT NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    status      TEXT NOT NULL DEFAULT 'running'
                CHECK (status IN ('running', 'settled', 'aborted')),
    seats       TEXT NOT NULL DEFAULT '[]',
    coefficient INTEGER,
    rake        INTEGER,
    record      TEXT NOT NULL DEFAULT '',                -- the engine's record: seed + action log
    outcome     TEXT NOT NULL DEFAULT '',                -- the result as the host summarised it
    result      TEXT,
    started_at  REAL NOT NULL,
    ended_at    REAL
);

-- Escrow (带入): what each player carried into a hand. A hold is open while its hand is
-- running; players.held is the sum of a player's open holds.
CREATE TABLE holds (
    hand_id INTEGER NOT NULL REFERENCES hands (id),
    uid     INTEGER NOT NULL REFERENCES players (id),
    amount  INTEGER NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (hand_id, uid)
) WITHOUT ROWID;

-- Level scores (积分), per player and game, separate from beans.
CREATE TABLE scores (
    uid   INTEGER NOT NULL REFERENCES players (id),
    game  TEXT NOT NULL,
    score INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (uid, game)
) WITHOUT ROWID;

-- No index on (game, score): a leaderboard scans one game's rows, while every settlement would
-- have to update such an index (pages written per commit are the settlement's main cost).
