-- 0003: economies (wallet scope), unguessable hand codes, pairwise transfers.
--
-- Every wallet row now belongs to an economy: a server's (guild's) id, or 0 = the one global
-- economy. Balances, the ledger, the audit log, escrow, relief cooldowns, frozen flags, level
-- scores and the house are per economy; a player id is unique only within its economy.
-- A hall that ran before this migration had one economy: every existing row moves to economy 0
-- (the global one). A hall that then runs with wallet_scope = "server" starts each server's
-- economy fresh (docs/storage.md, "Economies").
--
-- SQLite cannot change a primary key in place: the wallet tables are renamed, rebuilt with the
-- economy in their keys, copied and dropped (DROP TABLE fires no trigger, so the append-only
-- ledger and audit rows are copied unchanged, ids included).

ALTER TABLE players RENAME TO players_0002;
ALTER TABLE ledger RENAME TO ledger_0002;
ALTER TABLE audit RENAME TO audit_0002;
ALTER TABLE holds RENAME TO holds_0002;
ALTER TABLE scores RENAME TO scores_0002;
ALTER TABLE guild_players RENAME TO guild_players_0002;

-- One wallet per (economy, player). Id 0 is the economy's house (it receives the rake); it is
-- created when the economy first needs it. The hall's maximum balance is enforced by the code
-- (storage.wallet.MAX_BALANCE) on every statement that raises a balance.
CREATE TABLE players (
    id             INTEGER NOT NULL,                     -- Discord user id; 0 = the house
    economy        INTEGER NOT NULL,                     -- guild id, or 0 = global
    balance        INTEGER NOT NULL DEFAULT 0 CHECK (balance >= 0),
    held           INTEGER NOT NULL DEFAULT 0 CHECK (held >= 0 AND held <= balance),
    frozen         INTEGER NOT NULL DEFAULT 0 CHECK (frozen IN (0, 1)),
    last_relief_at REAL,                                 -- unix time of the last 低保 claim
    created_at     REAL NOT NULL,
    PRIMARY KEY (economy, id)
) WITHOUT ROWID;

INSERT INTO players (id, economy, balance, held, frozen, last_relief_at, created_at)
SELECT id, 0, balance, held, frozen, last_relief_at, created_at FROM players_0002;

INSERT INTO players (id, economy, balance, created_at) VALUES (0, 0, 0, 0)
ON CONFLICT (economy, id) DO NOTHING;

-- Every balance change, one row each, never updated or deleted.
CREATE TABLE ledger (
    id            INTEGER PRIMARY KEY,     -- rows are never deleted, so ids only grow
    uid           INTEGER NOT NULL,
    delta         INTEGER NOT NULL,
    balance_after INTEGER NOT NULL CHECK (balance_after >= 0),
    reason        TEXT NOT NULL,        -- grant:start, grant:mod, revoke:mod, relief, hand, rake,
                                        -- hand:rake, hand:pay, hand:receive
    note          TEXT NOT NULL DEFAULT '',  -- a moderator's reason; a transfer's counterpart
    hand_id       INTEGER REFERENCES hands (id),
    moderator_id  INTEGER,
    at            REAL NOT NULL,
    economy       INTEGER NOT NULL,
    FOREIGN KEY (economy, uid) REFERENCES players (economy, id)
);

INSERT INTO ledger (id, uid, delta, balance_after, reason, note, hand_id, moderator_id, at, economy)
SELECT id, uid, delta, balance_after, reason, note, hand_id, moderator_id, at, 0 FROM ledger_0002;

-- Moderator actions (grant, revoke, freeze, unfreeze, ...), never updated or deleted.
CREATE TABLE audit (
    id           INTEGER PRIMARY KEY,
    moderator_id INTEGER NOT NULL,
    action       TEXT NOT NULL,
    uid          INTEGER NOT NULL,
    amount       INTEGER,
    reason       TEXT NOT NULL DEFAULT '',
    at           REAL NOT NULL,
    economy      INTEGER NOT NULL,
    FOREIGN KEY (economy, uid) REFERENCES players (economy, id)
);

INSERT INTO audit (id, moderator_id, action, uid, amount, reason, at, economy)
SELECT id, moderator_id, action, uid, amount, reason, at, 0 FROM audit_0002;

-- Escrow (带入), in the economy of its hand.
CREATE TABLE holds (
    hand_id INTEGER NOT NULL REFERENCES hands (id),
    uid     INTEGER NOT NULL,
    amount  INTEGER NOT NULL CHECK (amount >= 0),
    economy INTEGER NOT NULL,
    PRIMARY KEY (hand_id, uid),
    FOREIGN KEY (economy, uid) REFERENCES players (economy, id)
) WITHOUT ROWID;

INSERT INTO holds (hand_id, uid, amount, economy) SELECT hand_id, uid, amount, 0 FROM holds_0002;

-- Level scores (积分), per economy, player and game, separate from beans.
CREATE TABLE scores (
    uid     INTEGER NOT NULL,
    game    TEXT NOT NULL,
    score   INTEGER NOT NULL DEFAULT 0,
    economy INTEGER NOT NULL,
    PRIMARY KEY (economy, uid, game),
    FOREIGN KEY (economy, uid) REFERENCES players (economy, id)
) WITHOUT ROWID;

INSERT INTO scores (uid, game, score, economy) SELECT uid, game, score, 0 FROM scores_0002;

-- Who has played a settled hand in each server (people, whatever the economy).
CREATE TABLE guild_players (
    guild_id INTEGER NOT NULL,
    uid      INTEGER NOT NULL,
    PRIMARY KEY (guild_id, uid)
) WITHOUT ROWID;

INSERT INTO guild_players (guild_id, uid) SELECT guild_id, uid FROM guild_players_0002;

DROP TABLE guild_players_0002;
DROP TABLE scores_0002;
DROP TABLE holds_0002;
DROP TABLE audit_0002;
DROP TABLE ledger_0002;
DROP TABLE players_0002;

CREATE INDEX ledger_by_uid ON ledger (economy, uid, id);

CREATE TRIGGER ledger_no_update BEFORE UPDATE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER ledger_no_delete BEFORE DELETE ON ledger
BEGIN
    SELECT RAISE(ABORT, 'the ledger is append-only');
END;

CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit
BEGIN
    SELECT RAISE(ABORT, 'the audit log is append-only');
END;

-- Hands: the economy they are settled in, an unguessable public code (what /replay takes; ids
-- count up and can be enumerated), and the pairwise transfers as settled (JSON, or NULL when the
-- hand settled by the pot rule).
ALTER TABLE hands ADD COLUMN economy INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hands ADD COLUMN code TEXT;
ALTER TABLE hands ADD COLUMN transfers TEXT;

-- Codes for the hands played so far: 10 symbols of Crockford's base32 (50 bits) from SQLite's
-- random(), which is seeded from the operating system's randomness. New hands get theirs from
-- Python's secrets module (storage.history.new_code), in the same alphabet.
UPDATE hands SET code =
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1);

-- A collision among 2^50 codes is unlikely but possible: draw those again (a duplicate left
-- after this fails the unique index below, which rolls the migration back; the next start
-- draws anew).
UPDATE hands SET code =
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1) ||
    substr('0123456789abcdefghjkmnpqrstvwxyz', (random() & 31) + 1, 1)
WHERE code IN (SELECT code FROM hands GROUP BY code HAVING COUNT(*) > 1);

CREATE UNIQUE INDEX hands_by_code ON hands (code);
