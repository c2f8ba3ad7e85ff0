-- 0009 (PostgreSQL only): a settlement does less work on the server, the same changes.
--
-- Measured with benchmarks/pg_cost.py (docs/storage.md, "PostgreSQL: what a settlement costs
-- the server"). Two things change:
--
-- 1. The hands table keeps room on each page for its rows' settled versions (fillfactor 10).
--    A running hand's row is ~130 bytes; settled, with its record, result and seats, it is
--    4-10 times that. On a full page the settlement's UPDATE cannot be heap-only (HOT): the
--    new version goes to another page and gets new entries in both of the table's indexes
--    (its id and its code), and the old page keeps a dead row for VACUUM. A page that takes
--    new hands only while 90 % of it is free keeps each of its hands' settled versions on
--    the same page, as a HOT update, and the table ends about as large: settled rows fill
--    its pages either way. (Only pages written from now on: existing pages are not rewritten.)
--
-- 2. gamehall_settle (0003, 0007) stops doing work twice or for nothing; what it writes and
--    checks is unchanged:
--    - the hand's holds are read once (one scan for their players and amounts, not two);
--    - the statement creating first-contact players runs only when there are any;
--    - the house's rake counter is added to by a plain UPDATE (one row version written), not
--      INSERT ... ON CONFLICT DO UPDATE (which locks the row, then updates it: two WAL
--      records), and the house's players row is ensured only when the counter row is new:
--      every statement that creates a counter row (here and storage.accounts._credit_house)
--      creates the house's row with it, and players are never deleted, so a counter row
--      existing means the house's row exists (tests/storage/test_settlement_cost.py).
ALTER TABLE hands SET (fillfactor = 10);

CREATE OR REPLACE FUNCTION gamehall_settle(
    p_hand BIGINT,
    p_economy BIGINT,
    p_guild BIGINT,
    p_game TEXT,
    p_grant BIGINT,
    p_now DOUBLE PRECISION,
    p_hold_uids BIGINT[],       -- the holds as read, by uid
    p_hold_amounts BIGINT[],
    p_new BIGINT[],             -- seated players who carried nothing: created with the grant
    p_uids BIGINT[],            -- seated players, in seat order, and for each:
    p_before BIGINT[],          --   the balance read
    p_delta BIGINT[],           --   beans won or lost (rake and fees included)
    p_release BIGINT[],         --   beans held for the hand (released)
    p_score_before BIGINT[],    --   the level score read (0 when it had none)
    p_score_after BIGINT[],     --   the level score after
    p_house BIGINT,             -- beans the house receives (rake and fees)
    p_shard SMALLINT,           -- unused since 0007 (the shard is the session's)
    l_uid BIGINT[],             -- the hand's ledger rows, in order
    l_delta BIGINT[],
    l_after BIGINT[],
    l_reason TEXT[],
    l_note TEXT[],
    p_seats TEXT,
    p_coefficient BIGINT,
    p_rake BIGINT,
    p_record TEXT,
    p_outcome TEXT,
    p_result TEXT,
    p_transfers TEXT,
    p_max_balance BIGINT
) RETURNS VOID LANGUAGE plpgsql
-- its statements take arrays whose length the planner sees in a custom plan, so it would plan
-- each of them again on every call; one generic plan per session serves every settlement
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    changed BIGINT;
    added BIGINT;
    held_uids BIGINT[];
    held_amounts BIGINT[];
    counter SMALLINT;
BEGIN
    UPDATE hands SET status = 'settled', seats = p_seats, coefficient = p_coefficient,
        rake = p_rake, record = p_record, outcome = p_outcome, result = p_result,
        transfers = p_transfers, ended_at = p_now
    WHERE id = p_hand AND status = 'running';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'hand % is no longer running', p_hand
            USING ERRCODE = 'serialization_failure';
    END IF;
    SELECT COALESCE(array_agg(uid ORDER BY uid), '{}'),
        COALESCE(array_agg(amount ORDER BY uid), '{}')
    INTO held_uids, held_amounts FROM holds WHERE hand_id = p_hand;
    IF held_uids IS DISTINCT FROM p_hold_uids
        OR held_amounts IS DISTINCT FROM p_hold_amounts THEN
        RAISE EXCEPTION 'the holds of hand % changed', p_hand
            USING ERRCODE = 'serialization_failure';
    END IF;

    IF cardinality(p_new) > 0 THEN
        -- first contact: the starting grant, ledgered, exactly once (as accounts._ensure)
        WITH made AS (
            INSERT INTO players (id, economy, balance, created_at)
            SELECT uid, p_economy, p_grant, p_now FROM unnest(p_new) AS uid
            ON CONFLICT (economy, id) DO NOTHING
            RETURNING id
        )
        INSERT INTO ledger (uid, delta, balance_after, reason, note, hand_id, moderator_id, at,
                            economy)
        SELECT v.uid, p_grant, p_grant, 'grant:start', '', NULL, NULL, p_now, p_economy
        FROM unnest(p_new) WITH ORDINALITY AS v(uid, n)
        WHERE p_grant <> 0 AND v.uid IN (SELECT id FROM made)
        ORDER BY v.n;
    END IF;

    INSERT INTO guild_players (guild_id, uid) SELECT p_guild, unnest(p_uids)
    ON CONFLICT DO NOTHING;

    UPDATE players AS p SET balance = p.balance + v.delta, held = p.held - v.held
    FROM unnest(p_uids, p_delta, p_release, p_before) AS v(uid, delta, held, before)
    WHERE p.economy = p_economy AND p.id = v.uid AND p.balance = v.before
        AND p.held >= v.held AND p.balance + v.delta >= 0
        AND p.balance + v.delta <= p_max_balance;
    GET DIAGNOSTICS changed = ROW_COUNT;
    IF changed <> cardinality(p_uids) THEN
        RAISE EXCEPTION 'a balance of hand % changed since it was read', p_hand
            USING ERRCODE = 'serialization_failure';
    END IF;

    IF p_house > 0 THEN
        counter := (pg_backend_pid() % 16)::SMALLINT;
        UPDATE house_rake SET beans = beans + p_house
        WHERE economy = p_economy AND shard = counter;
        IF NOT FOUND THEN
            -- a new counter: the house's row must exist for its ledger rows (inserting
            -- nothing takes no lock)
            INSERT INTO players (id, economy, balance, created_at)
            VALUES (0, p_economy, 0, p_now) ON CONFLICT (economy, id) DO NOTHING;
            INSERT INTO house_rake (economy, shard, beans) VALUES (p_economy, counter, p_house)
            ON CONFLICT (economy, shard) DO UPDATE SET beans = house_rake.beans + excluded.beans;
        END IF;
    END IF;

    UPDATE scores AS s SET score = v.after
    FROM unnest(p_uids, p_score_before, p_score_after) AS v(uid, before, after)
    WHERE s.economy = p_economy AND s.uid = v.uid AND s.game = p_game AND s.score = v.before;
    GET DIAGNOSTICS changed = ROW_COUNT;
    INSERT INTO scores (uid, game, score, economy)
    SELECT v.uid, p_game, v.after, p_economy
    FROM unnest(p_uids, p_score_before, p_score_after) AS v(uid, before, after)
    WHERE v.before = 0 AND NOT EXISTS (
        SELECT 1 FROM scores s WHERE s.economy = p_economy AND s.uid = v.uid AND s.game = p_game
    )
    ON CONFLICT DO NOTHING;
    GET DIAGNOSTICS added = ROW_COUNT;
    IF changed + added <> cardinality(p_uids) THEN
        RAISE EXCEPTION 'a level score of hand % changed since it was read', p_hand
            USING ERRCODE = 'serialization_failure';
    END IF;

    INSERT INTO ledger (uid, delta, balance_after, reason, note, hand_id, at, economy)
    SELECT v.uid, v.delta, v.after, v.reason, v.note, p_hand, p_now, p_economy
    FROM unnest(l_uid, l_delta, l_after, l_reason, l_note) WITH ORDINALITY
        AS v(uid, delta, after, reason, note, n)
    ORDER BY v.n;
END;
$$;
