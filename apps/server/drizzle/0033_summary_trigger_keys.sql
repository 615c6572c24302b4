-- The summary triggers of purchase lines and payments (0011 financial_daily, 0019 product_daily)
-- read their purchase by id alone; since 0032 (shard-ready keys) the purchases' primary key is
-- (club_id, id), so that lookup scanned every purchase of every club for each line written: a
-- multi-row insert of n lines cost O(n × purchases) (automatic renewal of 10 000 clients spent
-- over 100 s there, issue 18, bench/renewal.bench.mjs). The same functions, reading the purchase
-- by its key (club_id, id).
--
-- And an INSERT of many purchases, lines or payments updated the same financial_daily row once per
-- row (all of a day's renewals share one key): each update of a row already updated in the
-- transaction walks its chain of versions, O(n²) in the rows of a statement. Inserts now go through
-- statement-level AFTER triggers reading the statement's rows (transition tables, as 0014's
-- activity_daily): one upsert per key per statement, with the same sums the row triggers added (a
-- purchase counts once per item type and once over all on its first line). UPDATE and DELETE keep
-- their row triggers.
CREATE OR REPLACE FUNCTION financial_daily_on_item() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p purchases;
  d date;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT * INTO p FROM purchases WHERE club_id = OLD.club_id AND id = OLD.purchase_id;
    IF FOUND AND p.payment_status <> 3 THEN
      d := financial_daily_day(p.club_id, p.at);
      PERFORM financial_daily_add(p.club_id, d, coalesce(p.terminal_id, 0), coalesce(p.user_id, 0), 1::smallint, OLD.item_type,
        CASE WHEN EXISTS (SELECT 1 FROM purchase_items i
                          WHERE i.purchase_id = OLD.purchase_id AND i.item_type = OLD.item_type AND i.id <> OLD.id)
             THEN 0 ELSE -1 END,
        -OLD.quantity::bigint, -OLD.amount_before_vat::bigint, -OLD.price_with_vat::bigint);
      IF NOT EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = OLD.purchase_id AND i.id <> OLD.id) THEN
        PERFORM financial_daily_add(p.club_id, d, coalesce(p.terminal_id, 0), coalesce(p.user_id, 0), 0::smallint, 0::smallint,
          -1, 0, 0, 0);
      END IF;
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT * INTO p FROM purchases WHERE club_id = NEW.club_id AND id = NEW.purchase_id;
    IF FOUND AND p.payment_status <> 3 THEN
      d := financial_daily_day(p.club_id, p.at);
      PERFORM financial_daily_add(p.club_id, d, coalesce(p.terminal_id, 0), coalesce(p.user_id, 0), 1::smallint, NEW.item_type,
        CASE WHEN EXISTS (SELECT 1 FROM purchase_items i
                          WHERE i.purchase_id = NEW.purchase_id AND i.item_type = NEW.item_type AND i.id <> NEW.id)
             THEN 0 ELSE 1 END,
        NEW.quantity::bigint, NEW.amount_before_vat::bigint, NEW.price_with_vat::bigint);
      IF NOT EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = NEW.purchase_id AND i.id <> NEW.id) THEN
        PERFORM financial_daily_add(p.club_id, d, coalesce(p.terminal_id, 0), coalesce(p.user_id, 0), 0::smallint, 0::smallint,
          1, 0, 0, 0);
      END IF;
    END IF;
  END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION financial_daily_on_payment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p purchases;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT * INTO p FROM purchases WHERE club_id = OLD.club_id AND id = OLD.purchase_id;
    IF FOUND AND p.payment_status <> 3 THEN
      PERFORM financial_daily_add(p.club_id, financial_daily_day(p.club_id, p.at), coalesce(p.terminal_id, 0),
        coalesce(p.user_id, 0), 2::smallint, OLD.method, -1, 0, 0, -OLD.amount::bigint);
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT * INTO p FROM purchases WHERE club_id = NEW.club_id AND id = NEW.purchase_id;
    IF FOUND AND p.payment_status <> 3 THEN
      PERFORM financial_daily_add(p.club_id, financial_daily_day(p.club_id, p.at), coalesce(p.terminal_id, 0),
        coalesce(p.user_id, 0), 2::smallint, NEW.method, 1, 0, 0, NEW.amount::bigint);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION product_daily_line(l purchase_items, sign int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  p purchases;
  d date;
  it int := coalesce(l.item_id, 0);
BEGIN
  IF l.item_type <> 10 THEN RETURN; END IF;
  SELECT * INTO p FROM purchases WHERE club_id = l.club_id AND id = l.purchase_id;
  IF NOT FOUND OR p.payment_status = 3 THEN RETURN; END IF;
  d := financial_daily_day(p.club_id, p.at);
  PERFORM product_daily_add(p.club_id, d, 1::smallint, it, '', coalesce(p.terminal_id, 0), coalesce(p.user_id, 0),
    CASE WHEN EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = l.purchase_id AND i.item_type = 10
                        AND coalesce(i.item_id, 0) = it AND i.id <> l.id)
         THEN 0 ELSE sign END,
    sign * l.quantity::bigint, sign * l.amount_before_vat::bigint, sign * l.price_with_vat::bigint);
  IF l.name <> '' THEN
    PERFORM product_daily_add(p.club_id, d, 2::smallint, it, l.name, coalesce(p.terminal_id, 0), coalesce(p.user_id, 0),
      sign, 0, 0, 0);
  END IF;
  IF NOT EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = l.purchase_id AND i.item_type = 10 AND i.id <> l.id) THEN
    PERFORM product_daily_add(p.club_id, d, 0::smallint, 0, '', coalesce(p.terminal_id, 0), coalesce(p.user_id, 0),
      sign, 0, 0, 0);
  END IF;
END $$;
--> statement-breakpoint
-- Inserted purchases: as financial_daily_purchase(NEW, 1) for each, summed by key.
CREATE FUNCTION financial_daily_on_purchases_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO financial_daily AS f (club_id, day, terminal_id, user_id, kind, key, purchases, quantity, amount_before_vat, total)
  SELECT x.club_id, x.day, x.t, x.u, x.kind, x.key, sum(x.purchases), sum(x.quantity), sum(x.abv), sum(x.total)
  FROM (
    SELECT p.club_id, financial_daily_day(p.club_id, p.at) AS day, coalesce(p.terminal_id, 0) AS t,
           coalesce(p.user_id, 0) AS u, 0::smallint AS kind, 0::smallint AS key,
           CASE WHEN EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = p.id AND i.club_id = p.club_id)
                THEN 1 ELSE 0 END AS purchases, 0::bigint AS quantity, 0::bigint AS abv, p.fee::bigint AS total
    FROM new_rows p WHERE p.payment_status <> 3
    UNION ALL
    SELECT p.club_id, financial_daily_day(p.club_id, p.at), coalesce(p.terminal_id, 0), coalesce(p.user_id, 0),
           1::smallint, i.item_type, count(DISTINCT p.id)::int, sum(i.quantity), sum(i.amount_before_vat), sum(i.price_with_vat)
    FROM new_rows p JOIN purchase_items i ON i.purchase_id = p.id AND i.club_id = p.club_id
    WHERE p.payment_status <> 3
    GROUP BY p.id, p.club_id, p.at, p.terminal_id, p.user_id, i.item_type
    UNION ALL
    SELECT p.club_id, financial_daily_day(p.club_id, p.at), coalesce(p.terminal_id, 0), coalesce(p.user_id, 0),
           2::smallint, m.method, count(*)::int, 0, 0, sum(m.amount)
    FROM new_rows p JOIN purchase_payments m ON m.purchase_id = p.id AND m.club_id = p.club_id
    WHERE p.payment_status <> 3
    GROUP BY p.id, p.club_id, p.at, p.terminal_id, p.user_id, m.method
  ) x
  GROUP BY x.club_id, x.day, x.t, x.u, x.kind, x.key
  ON CONFLICT (club_id, day, kind, key, terminal_id, user_id) DO UPDATE SET
    purchases = f.purchases + excluded.purchases,
    quantity = f.quantity + excluded.quantity,
    amount_before_vat = f.amount_before_vat + excluded.amount_before_vat,
    total = f.total + excluded.total;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER financial_daily_purchase_insert ON purchases;
--> statement-breakpoint
CREATE TRIGGER financial_daily_purchase_insert AFTER INSERT ON purchases
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION financial_daily_on_purchases_insert();
--> statement-breakpoint
-- Inserted lines: per purchase and item type, the lines' sums, and the purchase counted once when
-- it had no line of that type before this statement (kind 1) and no line at all before it (kind 0).
CREATE FUNCTION financial_daily_on_items_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO financial_daily AS f (club_id, day, terminal_id, user_id, kind, key, purchases, quantity, amount_before_vat, total)
  WITH g AS (
    SELECT n.club_id, n.purchase_id, n.item_type, count(*) AS lines, sum(n.quantity) AS q,
           sum(n.amount_before_vat) AS a, sum(n.price_with_vat) AS v
    FROM new_rows n GROUP BY n.club_id, n.purchase_id, n.item_type
  ), l AS (
    SELECT p.club_id, financial_daily_day(p.club_id, p.at) AS day, coalesce(p.terminal_id, 0) AS t,
           coalesce(p.user_id, 0) AS u, g.purchase_id, g.item_type, g.lines, g.q, g.a, g.v,
           (SELECT count(*) FROM purchase_items i
             WHERE i.purchase_id = g.purchase_id AND i.item_type = g.item_type) - g.lines AS before_type
    FROM g JOIN purchases p ON p.club_id = g.club_id AND p.id = g.purchase_id
    WHERE p.payment_status <> 3
  ), k0 AS (
    SELECT l.club_id, l.day, l.t, l.u, l.purchase_id, sum(l.lines) AS lines,
           (SELECT count(*) FROM purchase_items i WHERE i.purchase_id = l.purchase_id) - sum(l.lines) AS before_all
    FROM l GROUP BY l.club_id, l.day, l.t, l.u, l.purchase_id
  )
  SELECT x.club_id, x.day, x.t, x.u, x.kind, x.key, sum(x.purchases), sum(x.quantity), sum(x.abv), sum(x.total)
  FROM (
    SELECT club_id, day, t, u, 1::smallint AS kind, item_type AS key,
           CASE WHEN before_type > 0 THEN 0 ELSE 1 END AS purchases, q AS quantity, a AS abv, v AS total
    FROM l
    UNION ALL
    SELECT club_id, day, t, u, 0::smallint, 0::smallint, CASE WHEN before_all > 0 THEN 0 ELSE 1 END, 0, 0, 0
    FROM k0
  ) x
  GROUP BY x.club_id, x.day, x.t, x.u, x.kind, x.key
  ON CONFLICT (club_id, day, kind, key, terminal_id, user_id) DO UPDATE SET
    purchases = f.purchases + excluded.purchases,
    quantity = f.quantity + excluded.quantity,
    amount_before_vat = f.amount_before_vat + excluded.amount_before_vat,
    total = f.total + excluded.total;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER financial_daily_item ON purchase_items;
--> statement-breakpoint
CREATE TRIGGER financial_daily_item BEFORE UPDATE OR DELETE ON purchase_items
  FOR EACH ROW EXECUTE FUNCTION financial_daily_on_item();
--> statement-breakpoint
CREATE TRIGGER financial_daily_item_insert AFTER INSERT ON purchase_items
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION financial_daily_on_items_insert();
--> statement-breakpoint
-- Inserted payments: per key, their number and sum.
CREATE FUNCTION financial_daily_on_payments_insert() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO financial_daily AS f (club_id, day, terminal_id, user_id, kind, key, purchases, quantity, amount_before_vat, total)
  SELECT p.club_id, financial_daily_day(p.club_id, p.at), coalesce(p.terminal_id, 0), coalesce(p.user_id, 0),
         2::smallint, m.method, count(*)::int, 0, 0, sum(m.amount)
  FROM new_rows m JOIN purchases p ON p.club_id = m.club_id AND p.id = m.purchase_id
  WHERE p.payment_status <> 3
  GROUP BY 1, 2, 3, 4, 6
  ON CONFLICT (club_id, day, kind, key, terminal_id, user_id) DO UPDATE SET
    purchases = f.purchases + excluded.purchases,
    total = f.total + excluded.total;
  RETURN NULL;
END $$;
--> statement-breakpoint
DROP TRIGGER financial_daily_payment ON purchase_payments;
--> statement-breakpoint
CREATE TRIGGER financial_daily_payment AFTER UPDATE OR DELETE ON purchase_payments
  FOR EACH ROW EXECUTE FUNCTION financial_daily_on_payment();
--> statement-breakpoint
CREATE TRIGGER financial_daily_payment_insert AFTER INSERT ON purchase_payments
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION financial_daily_on_payments_insert();
