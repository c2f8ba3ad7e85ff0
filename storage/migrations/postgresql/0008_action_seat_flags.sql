-- 0008: an appended action carries the seats' flags after it (托管, misses in a row, acted,
-- covered: ``Table.seat_flags``) where the action changed them, so a timeout or a person's
-- first action of a hand is one small insert, not a snapshot of the whole table. NULL: the
-- flags did not change with this action. (SQLite: 0012.)
ALTER TABLE table_actions ADD COLUMN flags TEXT;
