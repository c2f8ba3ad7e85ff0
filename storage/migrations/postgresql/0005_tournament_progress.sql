-- 0004 (SQLite 0010): 比赛 progress saved by what changed; see the SQLite file.
ALTER TABLE tournament_entries ADD COLUMN chips BIGINT;
ALTER TABLE tournaments ADD COLUMN owner TEXT;
ALTER TABLE tournaments ADD COLUMN lease_until DOUBLE PRECISION;

CREATE TABLE tournament_hands (
    event_id  BIGINT NOT NULL REFERENCES tournaments (id),
    hand_id   BIGINT NOT NULL,
    seq       INTEGER NOT NULL,
    round     INTEGER NOT NULL,
    table_id  BIGINT NOT NULL,
    points    TEXT NOT NULL,
    code      TEXT NOT NULL DEFAULT '',
    PRIMARY KEY (event_id, hand_id)
);
