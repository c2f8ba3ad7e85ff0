-- 0010: 比赛 progress saved by what changed. A row per hand result (``tournament_hands``, in
-- the order the hands ended) and each entrant's match chips on the entry (``chips``), written in
-- one small transaction per hand; ``tournaments.state`` now keeps the round (seating, who is out,
-- pairings), written once per round. A restart rebuilds the event from the three.
-- ``owner``/``lease_until``: the one process that runs a running event (its runner's token) and
-- until when its lease holds; every write of the event's progress checks it (a fence), and a
-- process takes an event over only once the lease has lapsed.
ALTER TABLE tournament_entries ADD COLUMN chips INTEGER;
ALTER TABLE tournaments ADD COLUMN owner TEXT;
ALTER TABLE tournaments ADD COLUMN lease_until REAL;

CREATE TABLE tournament_hands (
    event_id  INTEGER NOT NULL REFERENCES tournaments (id),
    hand_id   INTEGER NOT NULL,
    seq       INTEGER NOT NULL,                -- 0, 1, 2 ...: the order the hands ended
    round     INTEGER NOT NULL,
    table_id  INTEGER NOT NULL,
    points    TEXT NOT NULL,                   -- JSON: [[uid or null, points], ...] by seat
    code      TEXT NOT NULL DEFAULT '',        -- the hand's replay code (/replay)
    PRIMARY KEY (event_id, hand_id)
) WITHOUT ROWID;
