-- 0007: one seat per person across the whole hall, kept in the database so that several bot
-- processes sharing it can never seat one person at two tables (the host's memory is per
-- process). A row exists while the person holds a seat at an open table.
CREATE TABLE seats (
    uid      INTEGER PRIMARY KEY,   -- the person (a Discord user id); one row = one seat
    table_id INTEGER NOT NULL,      -- the table (its channel id)
    guild_id INTEGER NOT NULL,      -- the table's server, to link "you are already at a table"
    since    REAL NOT NULL
);

CREATE INDEX seats_by_table ON seats (table_id);
