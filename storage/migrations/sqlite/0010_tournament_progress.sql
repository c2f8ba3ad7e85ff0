-- 0010: 比赛 progress saved by what changed. A row per hand result (``tournament_hands``, in
-- the order the hands ended) and each entrant's match chips on the entry (``chips``), written in
-- one small transaction per hand; ``tournaments.state`` now keeps the round (seating, who is out,
-- pairings), written once per round. A restart rebuilds the event from the three.
ALTER TABLE tournament_entries ADD COLUMN chips INTEGER;

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
