-- 0004: a running hand's actions are appended as they happen; the table row is a snapshot
-- written rarely (seating, a new hand, a settlement), so an action costs one small insert.

-- Actions played at a table since its last snapshot: ``seq`` is the action's index in the
-- hand's log; ``deadline`` and ``window`` are the table's turn deadline after the action.
CREATE TABLE table_actions (
    table_id INTEGER NOT NULL,
    seq      INTEGER NOT NULL,
    hand_id  INTEGER NOT NULL,
    seat     INTEGER NOT NULL,
    action   TEXT NOT NULL,
    deadline REAL,
    window   INTEGER,
    PRIMARY KEY (table_id, seq)
) WITHOUT ROWID;
