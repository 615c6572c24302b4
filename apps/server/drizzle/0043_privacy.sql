-- Privacy by design (issue 39, docs/privacy.md).
--
-- data_access_log: one row per read of one person's data (who, when, what, from where), written
-- by the access-log hook for every contract route that declares `personalData`.
CREATE TABLE "data_access_log" (
  "club_id" integer NOT NULL,
  "id" bigserial NOT NULL,
  "user_id" integer,
  "username" text DEFAULT '' NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  "kind" text NOT NULL,
  "client_id" integer,
  "subject" text DEFAULT '' NOT NULL,
  "route" text NOT NULL,
  "ip" text DEFAULT '' NOT NULL,
  CONSTRAINT "data_access_log_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
CREATE INDEX "data_access_log_club_at" ON "data_access_log" USING btree ("club_id","at");
--> statement-breakpoint
CREATE INDEX "data_access_log_club_client" ON "data_access_log" USING btree ("club_id","client_id","at");
--> statement-breakpoint
CREATE INDEX "data_access_log_club_user_at" ON "data_access_log" USING btree ("club_id","user_id","at");
--> statement-breakpoint
-- retention_runs: what each run of the retention job removed in a club, and the first local day
-- whose entrances it kept in detail (the club's horizon: earlier days are daily counts only).
CREATE TABLE "retention_runs" (
  "club_id" integer NOT NULL,
  "id" serial NOT NULL,
  "at" timestamp with time zone DEFAULT now() NOT NULL,
  "entrance_detail_from" date NOT NULL,
  "removed" jsonb DEFAULT '{}'::jsonb NOT NULL,
  CONSTRAINT "retention_runs_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
CREATE INDEX "retention_runs_club_at" ON "retention_runs" USING btree ("club_id","at");
--> statement-breakpoint
-- The first local day of a club whose entrances are kept in detail (NULL: all are).
CREATE FUNCTION entrance_detail_from(p_club int) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT max(entrance_detail_from) FROM retention_runs WHERE club_id = p_club
$$;
--> statement-breakpoint
-- The retention job deletes entrances past the club's period with `venue.retention` set to 'on' in
-- its transaction: the daily counts of activity_daily stay (the entrances report and the dashboard
-- read them), so a day past retention shows its counts, not zeros. Every other DELETE subtracts
-- as before (0017).
CREATE OR REPLACE FUNCTION activity_daily_on_entrances() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO activity_daily_delta (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
    SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1,
           coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, count(*), sum(e.amount)
    FROM new_rows e LEFT JOIN clubs c ON c.id = e.club_id
    GROUP BY 1, 2, 4, 5, 6, 7;
  ELSIF TG_OP = 'DELETE' THEN
    IF coalesce(current_setting('venue.retention', true), '') = 'on' THEN
      RETURN NULL;
    END IF;
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
-- The rebuild (a club's time zone changed) keeps the entrance counts of days past the club's
-- retention: their rows are gone, the counts are all that is left of them.
CREATE OR REPLACE FUNCTION activity_daily_rebuild(p_club int) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(1094992217);
  WITH gone AS (
    DELETE FROM activity_daily a WHERE (p_club IS NULL OR a.club_id = p_club)
      AND NOT (a.kind = 1 AND a.day < coalesce(entrance_detail_from(a.club_id), '-infinity'::date))
  ),
  gone_delta AS (
    DELETE FROM activity_daily_delta a WHERE (p_club IS NULL OR a.club_id = p_club)
      AND NOT (a.kind = 1 AND a.day < coalesce(entrance_detail_from(a.club_id), '-infinity'::date))
  )
  INSERT INTO activity_daily (club_id, day, kind, terminal_id, group_id, status, payment_type, n, amount)
  SELECT e.club_id, (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 1::smallint,
         coalesce(e.terminal_id, 0), coalesce(e.group_id, 0), e.status, e.payment_type, count(*), sum(e.amount)
  FROM entrance_logs e LEFT JOIN clubs c ON c.id = e.club_id
  WHERE (p_club IS NULL OR e.club_id = p_club)
    AND (e.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date
        >= coalesce(entrance_detail_from(e.club_id), '-infinity'::date)
  GROUP BY 1, 2, 4, 5, 6, 7
  UNION ALL
  SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date, 2::smallint,
         coalesce(p.terminal_id, 0), 0, p.payment_status, 0::smallint, count(*), sum(p.total)
  FROM purchases p LEFT JOIN clubs c ON c.id = p.club_id
  WHERE p_club IS NULL OR p.club_id = p_club
  GROUP BY 1, 2, 4, 6
$$;
