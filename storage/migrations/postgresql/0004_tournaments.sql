-- 0003 (SQLite 0009): 比赛 (tournaments); see the SQLite file for the rules.
CREATE TABLE tournaments (
    id          BIGSERIAL PRIMARY KEY,
    economy     BIGINT NOT NULL,
    guild_id    BIGINT NOT NULL,
    channel_id  BIGINT NOT NULL,
    game        TEXT NOT NULL,
    room        TEXT NOT NULL,
    format      TEXT NOT NULL,
    size        INTEGER NOT NULL CHECK (size >= 2),
    rounds      INTEGER NOT NULL CHECK (rounds >= 1),
    fee         BIGINT NOT NULL CHECK (fee >= 0),
    rake        INTEGER NOT NULL CHECK (rake >= 0 AND rake <= 100),
    prizes      TEXT NOT NULL,
    start_at    DOUBLE PRECISION,
    status      TEXT NOT NULL DEFAULT 'open'
                CHECK (status IN ('open', 'running', 'finished', 'cancelled')),
    state       TEXT NOT NULL DEFAULT '{}',
    result      TEXT,
    created_by  BIGINT NOT NULL,
    created_at  DOUBLE PRECISION NOT NULL,
    ended_at    DOUBLE PRECISION
);

CREATE TABLE tournament_entries (
    event_id      BIGINT NOT NULL REFERENCES tournaments (id),
    uid           BIGINT NOT NULL,
    economy       BIGINT NOT NULL,
    fee           BIGINT NOT NULL CHECK (fee >= 0),
    status        TEXT NOT NULL CHECK (status IN ('held', 'withdrawn', 'refunded', 'paid')),
    registered_at DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (event_id, uid)
);

CREATE INDEX tournament_entries_held ON tournament_entries (economy, status);
