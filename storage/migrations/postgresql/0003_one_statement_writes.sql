-- 0003 (PostgreSQL only): a settlement's writes, and a hold (带入), each as ONE statement.
--
-- The settlement: settling a hand costs two round trips (storage.settling reads the hand, its holds, the seated players' balances and
-- scores and the house's total in one SELECT, computes the bean movements in Python, then calls
-- this function), with no BEGIN or COMMIT on the wire: the call is its own transaction.
--
-- The Python side read without locks, so everything it computed from is checked again here,
-- under the locks the writes take (the hand's row first, then the players' rows, as every
-- other operation does): the hand still running, its holds as read, every seated player's
-- balance and level score as read. If anything moved in between, the function raises
-- serialization_failure; the statement leaves nothing behind and the adapter runs the whole
-- settlement again (storage.postgres, RETRIES), which then reads the new state — or finds the
-- hand settled by the other process and returns the stored result. So a settlement stays
-- atomic, idempotent on replay, and no bean is lost or created.
CREATE FUNCTION gamehall_settle(
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
    p_shard SMALLINT,
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
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    changed BIGINT;
    added BIGINT;
BEGIN
    UPDATE hands SET status = 'settled', seats = p_seats, coefficient = p_coefficient,
        rake = p_rake, record = p_record, outcome = p_outcome, result = p_result,
        transfers = p_transfers, ended_at = p_now
    WHERE id = p_hand AND status = 'running';
    IF NOT FOUND THEN
        RAISE EXCEPTION 'hand % is no longer running', p_hand
            USING ERRCODE = 'serialization_failure';
    END IF;
    IF (SELECT COALESCE(array_agg(uid ORDER BY uid), '{}') FROM holds WHERE hand_id = p_hand)
            IS DISTINCT FROM p_hold_uids
        OR (SELECT COALESCE(array_agg(amount ORDER BY uid), '{}') FROM holds
            WHERE hand_id = p_hand) IS DISTINCT FROM p_hold_amounts THEN
        RAISE EXCEPTION 'the holds of hand % changed', p_hand
            USING ERRCODE = 'serialization_failure';
    END IF;

    -- first contact: the starting grant, ledgered, exactly once (as storage.accounts._ensure)
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
        -- the house's row must exist for its ledger rows (inserting nothing takes no lock)
        INSERT INTO players (id, economy, balance, created_at) VALUES (0, p_economy, 0, p_now)
        ON CONFLICT (economy, id) DO NOTHING;
        INSERT INTO house_rake (economy, shard, beans) VALUES (p_economy, p_shard, p_house)
        ON CONFLICT (economy, shard) DO UPDATE SET beans = house_rake.beans + excluded.beans;
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

-- A hold (带入, storage.escrow.HandDesk.hold) in one statement: one round trip instead of
-- BEGIN, four statements per player and COMMIT. The same steps in the same order as the
-- statement-by-statement version SQLite runs; a refusal raises P0001 with the reason in HINT
-- and its figures in DETAIL, which the caller turns into the error SQLite's path raises
-- (nothing changed: the statement is rolled back whole).
CREATE FUNCTION gamehall_hold(
    p_hand BIGINT,
    p_economy BIGINT,
    p_grant BIGINT,
    p_now DOUBLE PRECISION,
    p_uids BIGINT[],
    p_amounts BIGINT[]
) RETURNS VOID LANGUAGE plpgsql AS $$
DECLARE
    h_status TEXT;
    h_economy BIGINT;
    v_uid BIGINT;
    v_amount BIGINT;
    v_balance BIGINT;
    v_held BIGINT;
    v_frozen SMALLINT;
BEGIN
    SELECT status, economy INTO h_status, h_economy FROM hands WHERE id = p_hand
        FOR NO KEY UPDATE;
    IF NOT FOUND THEN
        RAISE EXCEPTION 'gamehall_hold' USING HINT = 'no hand';
    ELSIF h_economy <> p_economy THEN
        RAISE EXCEPTION 'gamehall_hold' USING HINT = 'economy', DETAIL = h_economy::TEXT;
    ELSIF h_status <> 'running' THEN
        RAISE EXCEPTION 'gamehall_hold' USING HINT = 'status', DETAIL = h_status;
    END IF;
    FOR i IN 1 .. COALESCE(cardinality(p_uids), 0) LOOP
        v_uid := p_uids[i];
        v_amount := p_amounts[i];
        INSERT INTO players (id, economy, balance, created_at)
        VALUES (v_uid, p_economy, p_grant, p_now) ON CONFLICT (economy, id) DO NOTHING;
        IF FOUND AND p_grant <> 0 THEN
            INSERT INTO ledger (uid, delta, balance_after, reason, note, hand_id, moderator_id,
                                at, economy)
            VALUES (v_uid, p_grant, p_grant, 'grant:start', '', NULL, NULL, p_now, p_economy);
        END IF;
        IF EXISTS (SELECT 1 FROM holds WHERE hand_id = p_hand AND uid = v_uid) THEN
            RAISE EXCEPTION 'gamehall_hold' USING HINT = 'holds', DETAIL = v_uid::TEXT;
        END IF;
        UPDATE players SET held = held + v_amount
        WHERE economy = p_economy AND id = v_uid AND frozen = 0 AND balance - held >= v_amount;
        IF NOT FOUND THEN
            SELECT balance, held, frozen INTO v_balance, v_held, v_frozen FROM players
            WHERE economy = p_economy AND id = v_uid;
            IF v_frozen <> 0 THEN
                RAISE EXCEPTION 'gamehall_hold' USING HINT = 'frozen', DETAIL = v_uid::TEXT;
            END IF;
            RAISE EXCEPTION 'gamehall_hold' USING HINT = 'short',
                DETAIL = v_uid::TEXT || ' ' || (v_balance - v_held)::TEXT;
        END IF;
        INSERT INTO holds (hand_id, uid, amount, economy)
        VALUES (p_hand, v_uid, v_amount, p_economy);
    END LOOP;
END;
$$;
