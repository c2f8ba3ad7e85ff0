-- 0009: 比赛 (tournaments). An event, its entries with the entry fee held in escrow (players.held
-- counts it, like a table's 带入), and its state as the event runner saved it. Match chips live
-- in ``state``, never in a balance. An entry's fee is held while the entry is 'held'; it goes
-- back on withdrawal or cancellation ('withdrawn', 'refunded') or into the pool at the payout
-- ('paid'). The payout and the cancellation are each one transaction that ends the event.
CREATE TABLE tournaments (
    id          INTEGER PRIMARY KEY,
    economy     INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT NOT NULL,
    room        TEXT NOT NULL,
    format      TEXT NOT NULL,
    size        INTEGER NOT NULL CHECK (size >= 2),
    rounds      INTEGER NOT NULL CHECK (rounds >= 1),
    fee         INTEGER NOT NULL CHECK (fee >= 0),
    rake        INTEGER NOT NULL CHECK (rake >= 0 AND rake <= 100),   -- per cent of the pool
    prizes      TEXT NOT NULL,                                        -- JSON: per cent by place
    start_at    REAL,                                                 -- scheduled: the start
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    state       TEXT NOT NULL DEFAULT '{}',                            -- the runner's save
    result      TEXT,                                                  -- JSON: the payout
    created_by  INTEGER NOT NULL,
    created_at  REAL NOT NULL,
    ended_at    REAL
);

CREATE TABLE tournament_entries (
    event_id      INTEGER NOT NULL REFERENCES tournaments (id),
    uid           INTEGER NOT NULL,
    economy       INTEGER NOT NULL,
    fee           INTEGER NOT NULL CHECK (fee >= 0),
    status        TEXT NOT NULL CHECK (status IN ('held', 'withdrawn', 'refunded', 'paid')),
    registered_at REAL NOT NULL,
    PRIMARY KEY (event_id, uid)
) WITHOUT ROWID;

CREATE INDEX tournament_entries_held ON tournament_entries (economy, status);
