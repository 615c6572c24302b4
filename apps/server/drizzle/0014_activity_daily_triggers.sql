-- Keeps activity_daily (schema.ts) equal, key by key, to the aggregate of
-- entrance_logs (kind 1) and purchases (kind 2) by club, local day and key,
-- in the same transaction as every write. Append-only: each INSERT, UPDATE or
-- DELETE statement adds one delta row per key its rows touch (statement-level
-- AFTER triggers reading the statement's transition tables, a plain INSERT with
-- no unique key), so concurrent writers (the gate's batches) never wait on
-- each other; activity_daily_compact() merges a day's rows into one per key.
-- A change of a club's time zone rebuilds that club's rows.

-- Entrance rows (kind 1): one delta row per key of a set of rows with a sign.
CREATE FUNCTION activity_daily_on_entrances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO activity_daily (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
    SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1,
           coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, count(*), sum(e.amount)
    FROM new_rows e LEFT JOIN clubs c ON c.id = e.club_id
    GROUP BY 1, 2, 4, 5, 6, 7;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO activity_daily (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
    SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1,
           coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, -count(*), -sum(e.amount)
    FROM old_rows e LEFT JOIN clubs c ON c.id = e.club_id
    GROUP BY 1, 2, 4, 5, 6, 7;
  ELSE
    -- UPDATE: the old rows out, the new rows in; keys that did not change cancel out.
    INSERT INTO activity_daily (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
    SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1,
           coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, sum(e.sign), sum(e.sign * e.amount)
    FROM (SELECT club_id, at, terminal_id, group_id, status, payment_type, amount, -1 AS sign FROM old_rows
          UNION ALL
          SELECT club_id, at, terminal_id, group_id, status, payment_type, amount, 1 FROM new_rows) e
    LEFT JOIN clubs c ON c.id = e.club_id
    GROUP BY 1, 2, 4, 5, 6, 7
    HAVING sum(e.sign) <> 0 OR sum(e.sign * e.amount) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_daily_entrance_insert AFTER INSERT ON entrance_logs
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_on_entrances();
--> statement-breakpoint
CREATE TRIGGER activity_daily_entrance_update AFTER UPDATE ON entrance_logs
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_on_entrances();
--> statement-breakpoint
CREATE TRIGGER activity_daily_entrance_delete AFTER DELETE ON entrance_logs
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_on_entrances();
--> statement-breakpoint
-- Purchase rows (kind 2): status = payment_status, amount = total.
CREATE FUNCTION activity_daily_on_purchases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO activity_daily (club_id, day, kind, terminal_id, status, n, amount)
    SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 2,
           coalesce(p.terminal_id, 0), p.payment_status, count(*), sum(p.total)
    FROM new_rows p LEFT JOIN clubs c ON c.id = p.club_id
    GROUP BY 1, 2, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO activity_daily (club_id, day, kind, terminal_id, status, n, amount)
    SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 2,
           coalesce(p.terminal_id, 0), p.payment_status, -count(*), -sum(p.total)
    FROM old_rows p LEFT JOIN clubs c ON c.id = p.club_id
    GROUP BY 1, 2, 4, 5;
  ELSE
    INSERT INTO activity_daily (club_id, day, kind, terminal_id, status, n, amount)
    SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 2,
           coalesce(p.terminal_id, 0), p.payment_status, sum(p.sign), sum(p.sign * p.total)
    FROM (SELECT club_id, at, terminal_id, payment_status, total, -1 AS sign FROM old_rows
          UNION ALL
          SELECT club_id, at, terminal_id, payment_status, total, 1 FROM new_rows) p
    LEFT JOIN clubs c ON c.id = p.club_id
    GROUP BY 1, 2, 4, 5
    HAVING sum(p.sign) <> 0 OR sum(p.sign * p.total) <> 0;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_daily_purchase_insert AFTER INSERT ON purchases
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_on_purchases();
--> statement-breakpoint
CREATE TRIGGER activity_daily_purchase_update AFTER UPDATE ON purchases
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_on_purchases();
--> statement-breakpoint
CREATE TRIGGER activity_daily_purchase_delete AFTER DELETE ON purchases
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_on_purchases();
--> statement-breakpoint
-- TRUNCATE of a source table empties its kind.
CREATE FUNCTION activity_daily_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM activity_daily WHERE kind = CASE TG_TABLE_NAME WHEN 'entrance_logs' THEN 1 ELSE 2 END;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_daily_entrance_truncate AFTER TRUNCATE ON entrance_logs
  FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_on_truncate();
--> statement-breakpoint
CREATE TRIGGER activity_daily_purchase_truncate AFTER TRUNCATE ON purchases
  FOR EACH STATEMENT EXECUTE FUNCTION activity_daily_on_truncate();
--> statement-breakpoint
-- Recomputes one club's rows (NULL: every club's) from entrance_logs and purchases,
-- one row per key (delta false). One statement, one snapshot: the rows it deletes
-- and the rows it reads are those of the same moment, so the delta rows of writes
-- that commit meanwhile stay and are counted once. Holds the summary's advisory
-- lock (as the compaction) until the transaction ends: a compaction that
-- committed after this snapshot would otherwise leave its merged rows beside
-- the rebuilt ones.
CREATE FUNCTION activity_daily_rebuild(p_club int) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(1094992217);
  WITH gone AS (DELETE FROM activity_daily WHERE p_club IS NULL OR club_id = p_club)
  INSERT INTO activity_daily (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount, delta)
  SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1::smallint,
         coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, count(*), sum(e.amount), false
  FROM entrance_logs e LEFT JOIN clubs c ON c.id = e.club_id
  WHERE p_club IS NULL OR e.club_id = p_club
  GROUP BY 1, 2, 4, 5, 6, 7
  UNION ALL
  SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 2::smallint,
         coalesce(p.terminal_id, 0), 0, p.payment_status, 0::smallint, count(*), sum(p.total), false
  FROM purchases p LEFT JOIN clubs c ON c.id = p.club_id
  WHERE p_club IS NULL OR p.club_id = p_club
  GROUP BY 1, 2, 4, 6
$$;
--> statement-breakpoint
-- Merges the rows of up to p_days (club, day) pairs that have delta rows into one
-- row per key (keys that sum to nothing go); returns how many pairs. One
-- statement: a reader sees the day before or after, never half. Rows inserted
-- meanwhile are not in its snapshot and stay as deltas for the next run; two
-- runs are serialized by the summary's advisory lock (held to the end of the
-- transaction; 1094992217 = 'ADAY').
CREATE FUNCTION activity_daily_compact(p_days int) RETURNS int LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(1094992217);
  WITH days AS (SELECT DISTINCT club_id, day FROM activity_daily WHERE delta LIMIT p_days),
  gone AS (
    DELETE FROM activity_daily a USING days d WHERE a.club_id = d.club_id AND a.day = d.day
    RETURNING a.club_id, a.day, a.kind, a.terminal_id, a.group_id, a.status, a.payment_type, a.n, a.amount
  ),
  merged AS (
    INSERT INTO activity_daily (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount, delta)
    SELECT club_id, day, kind, terminal_id, group_id, status, payment_type, sum(n), sum(amount), false
    FROM gone GROUP BY 1, 2, 3, 4, 5, 6, 7
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    RETURNING 1
  )
  SELECT count(*)::int FROM days
$$;
--> statement-breakpoint
CREATE FUNCTION activity_daily_on_club() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM activity_daily_rebuild(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER activity_daily_club_zone AFTER UPDATE OF location ON clubs
  FOR EACH ROW WHEN (coalesce(OLD.location->>'timeZone', 'Asia/Jerusalem') IS DISTINCT FROM coalesce(NEW.location->>'timeZone', 'Asia/Jerusalem'))
  EXECUTE FUNCTION activity_daily_on_club();
--> statement-breakpoint
SELECT activity_daily_rebuild(NULL);
