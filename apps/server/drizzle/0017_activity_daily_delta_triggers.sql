-- activity_daily's writes go to activity_daily_delta (schema.ts, migration
-- 0016): each INSERT, UPDATE or DELETE statement on entrance_logs or purchases
-- appends one row per key its rows touch (statement-level AFTER triggers over
-- the statement's transition tables, as in 0014) to a table without an index
-- or a unique key, so concurrent writers (the gate's log batches) only append
-- heap rows and never wait on each other. activity_daily_compact() moves them
-- into activity_daily (one row per key and day); readers sum both tables.

CREATE OR REPLACE FUNCTION activity_daily_on_entrances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO activity_daily_delta (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
    SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1,
           coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, count(*), sum(e.amount)
    FROM new_rows e LEFT JOIN clubs c ON c.id = e.club_id
    GROUP BY 1, 2, 4, 5, 6, 7;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO activity_daily_delta (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
    SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1,
           coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, -count(*), -sum(e.amount)
    FROM old_rows e LEFT JOIN clubs c ON c.id = e.club_id
    GROUP BY 1, 2, 4, 5, 6, 7;
  ELSE
    -- UPDATE: the old rows out, the new rows in; keys that did not change cancel out.
    INSERT INTO activity_daily_delta (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
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
CREATE OR REPLACE FUNCTION activity_daily_on_purchases() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO activity_daily_delta (club_id, day, kind, terminal_id, status, n, amount)
    SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 2,
           coalesce(p.terminal_id, 0), p.payment_status, count(*), sum(p.total)
    FROM new_rows p LEFT JOIN clubs c ON c.id = p.club_id
    GROUP BY 1, 2, 4, 5;
  ELSIF TG_OP = 'DELETE' THEN
    INSERT INTO activity_daily_delta (club_id, day, kind, terminal_id, status, n, amount)
    SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 2,
           coalesce(p.terminal_id, 0), p.payment_status, -count(*), -sum(p.total)
    FROM old_rows p LEFT JOIN clubs c ON c.id = p.club_id
    GROUP BY 1, 2, 4, 5;
  ELSE
    INSERT INTO activity_daily_delta (club_id, day, kind, terminal_id, status, n, amount)
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
CREATE OR REPLACE FUNCTION activity_daily_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM activity_daily WHERE kind = CASE TG_TABLE_NAME WHEN 'entrance_logs' THEN 1 ELSE 2 END;
  DELETE FROM activity_daily_delta WHERE kind = CASE TG_TABLE_NAME WHEN 'entrance_logs' THEN 1 ELSE 2 END;
  RETURN NULL;
END $$;
--> statement-breakpoint
-- Recomputes one club's rows (NULL: every club's) from entrance_logs and purchases
-- into activity_daily, its delta rows dropped. One statement, one snapshot: the
-- rows it deletes and the rows it reads are those of the same moment, so the
-- delta rows of writes that commit meanwhile stay and are counted once. Holds
-- the summary's advisory lock (1094992217 = 'ADAY', as the compaction) to the
-- end of the transaction.
CREATE OR REPLACE FUNCTION activity_daily_rebuild(p_club int) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(1094992217);
  WITH gone AS (DELETE FROM activity_daily WHERE p_club IS NULL OR club_id = p_club),
  gone_delta AS (DELETE FROM activity_daily_delta WHERE p_club IS NULL OR club_id = p_club)
  INSERT INTO activity_daily (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
  SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1::smallint,
         coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, count(*), sum(e.amount)
  FROM entrance_logs e LEFT JOIN clubs c ON c.id = e.club_id
  WHERE p_club IS NULL OR e.club_id = p_club
  GROUP BY 1, 2, 4, 5, 6, 7
  UNION ALL
  SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 2::smallint,
         coalesce(p.terminal_id, 0), 0, p.payment_status, 0::smallint, count(*), sum(p.total)
  FROM purchases p LEFT JOIN clubs c ON c.id = p.club_id
  WHERE p_club IS NULL OR p.club_id = p_club
  GROUP BY 1, 2, 4, 6
$$;
--> statement-breakpoint
DROP FUNCTION activity_daily_compact(int);
--> statement-breakpoint
-- Moves every delta row it sees into activity_daily: the (club, day) pairs they
-- touch are merged with their activity_daily rows into one row per key (keys
-- that sum to nothing go); returns how many pairs. One statement: a reader sees
-- a day before or after, never half; rows appended meanwhile are not in its
-- snapshot and stay for the next run. Runs are serialized by the advisory lock.
CREATE FUNCTION activity_daily_compact() RETURNS int LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(1094992217);
  WITH moved AS (
    DELETE FROM activity_daily_delta
    RETURNING club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount
  ),
  days AS (SELECT DISTINCT club_id, day FROM moved),
  old AS (
    DELETE FROM activity_daily a USING days d WHERE a.club_id = d.club_id AND a.day = d.day
    RETURNING a.club_id, a.day, a.kind, a.terminal_id, a.group_id, a.status, a.payment_type, a.n, a.amount
  ),
  merged AS (
    INSERT INTO activity_daily (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
    SELECT club_id, day, kind, terminal_id, group_id, status, payment_type, sum(n), sum(amount)
    FROM (SELECT * FROM moved UNION ALL SELECT * FROM old) x
    GROUP BY 1, 2, 3, 4, 5, 6, 7
    HAVING sum(n) <> 0 OR sum(amount) <> 0
    RETURNING 1
  )
  SELECT count(*)::int FROM days
$$;
--> statement-breakpoint
SELECT activity_daily_rebuild(NULL);
