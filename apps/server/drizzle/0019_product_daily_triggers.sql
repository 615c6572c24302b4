-- Keeps product_daily (the product reports' daily summary, schema.ts) equal to
-- an aggregate of the product lines (item type 10) of the purchases that were
-- not refunded (payment_status 3 = Refunded), in the same transaction as every
-- write: triggers on purchases and purchase_items; a change of a club's time
-- zone rebuilds that club's rows (the day is the local day in the club's zone,
-- financial_daily_day of migration 0011).

-- Adds a delta to one summary row (creates it when missing).
CREATE FUNCTION product_daily_add(p_club int, p_day date, p_kind smallint, p_item int, p_name text, p_terminal int, p_user int,
    p_purchases int, p_quantity bigint, p_abv bigint, p_total bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO product_daily AS f (club_id, day, kind, item_id, name, terminal_id, user_id, purchases, quantity, amount_before_vat, total)
  VALUES (p_club, p_day, p_kind, p_item, p_name, p_terminal, p_user, p_purchases, p_quantity, p_abv, p_total)
  ON CONFLICT (club_id, kind, day, item_id, name, terminal_id, user_id) DO UPDATE SET
    purchases = f.purchases + excluded.purchases,
    quantity = f.quantity + excluded.quantity,
    amount_before_vat = f.amount_before_vat + excluded.amount_before_vat,
    total = f.total + excluded.total
$$;
--> statement-breakpoint
-- Adds (sign 1) or removes (sign -1) a whole purchase with its current product lines.
CREATE FUNCTION product_daily_purchase(p purchases, sign int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date;
  t int := coalesce(p.terminal_id, 0);
  u int := coalesce(p.user_id, 0);
  r record;
BEGIN
  IF p.payment_status = 3 OR NOT EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = p.id AND i.item_type = 10) THEN
    RETURN;
  END IF;
  d := financial_daily_day(p.club_id, p.at);
  PERFORM product_daily_add(p.club_id, d, 0::smallint, 0, '', t, u, sign, 0, 0, 0);
  FOR r IN SELECT coalesce(item_id, 0) AS item, sum(quantity) AS q, sum(amount_before_vat) AS a, sum(price_with_vat) AS v
           FROM purchase_items WHERE purchase_id = p.id AND item_type = 10 GROUP BY 1 LOOP
    PERFORM product_daily_add(p.club_id, d, 1::smallint, r.item, '', t, u, sign, sign * r.q, sign * r.a, sign * r.v);
  END LOOP;
  FOR r IN SELECT coalesce(item_id, 0) AS item, name, count(*) AS n
           FROM purchase_items WHERE purchase_id = p.id AND item_type = 10 AND name <> '' GROUP BY 1, 2 LOOP
    PERFORM product_daily_add(p.club_id, d, 2::smallint, r.item, r.name, t, u, sign * r.n::int, 0, 0, 0);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE FUNCTION product_daily_on_purchase() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM product_daily_purchase(OLD, -1); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM product_daily_purchase(NEW, 1); END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_daily_purchase_insert AFTER INSERT ON purchases
  FOR EACH ROW EXECUTE FUNCTION product_daily_on_purchase();
--> statement-breakpoint
CREATE TRIGGER product_daily_purchase_update AFTER UPDATE ON purchases
  FOR EACH ROW WHEN ((OLD.club_id, OLD.at, OLD.payment_status, OLD.terminal_id, OLD.user_id)
    IS DISTINCT FROM (NEW.club_id, NEW.at, NEW.payment_status, NEW.terminal_id, NEW.user_id))
  EXECUTE FUNCTION product_daily_on_purchase();
--> statement-breakpoint
-- Before the delete, while the purchase's lines still exist.
CREATE TRIGGER product_daily_purchase_delete BEFORE DELETE ON purchases
  FOR EACH ROW EXECUTE FUNCTION product_daily_on_purchase();
--> statement-breakpoint
-- Adds (sign 1) or removes (sign -1) one product line `l`, given the other lines of its purchase as the
-- table holds them (every line but `l.id`): the purchase counts once per product and once over all.
CREATE FUNCTION product_daily_line(l purchase_items, sign int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  p purchases;
  d date;
  it int := coalesce(l.item_id, 0);
BEGIN
  IF l.item_type <> 10 THEN RETURN; END IF;
  SELECT * INTO p FROM purchases WHERE id = l.purchase_id;
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
-- A line: BEFORE the row changes, so that "the purchase's other lines" are the lines written earlier
-- (by this statement too) and never the row itself.
CREATE FUNCTION product_daily_on_item() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM product_daily_line(OLD, -1); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM product_daily_line(NEW, 1); END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_daily_item_insert BEFORE INSERT ON purchase_items
  FOR EACH ROW WHEN (NEW.item_type = 10) EXECUTE FUNCTION product_daily_on_item();
--> statement-breakpoint
CREATE TRIGGER product_daily_item_update BEFORE UPDATE ON purchase_items
  FOR EACH ROW WHEN (OLD.item_type = 10 OR NEW.item_type = 10) EXECUTE FUNCTION product_daily_on_item();
--> statement-breakpoint
CREATE TRIGGER product_daily_item_delete BEFORE DELETE ON purchase_items
  FOR EACH ROW WHEN (OLD.item_type = 10) EXECUTE FUNCTION product_daily_on_item();
--> statement-breakpoint
-- Recomputes the summary of one club (NULL: of every club) from the purchases.
CREATE FUNCTION product_daily_rebuild(p_club int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM product_daily WHERE p_club IS NULL OR club_id = p_club;
  INSERT INTO product_daily (club_id, day, kind, item_id, name, terminal_id, user_id, purchases, quantity, amount_before_vat, total)
  WITH l AS (
    SELECT p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date AS day,
           coalesce(p.terminal_id, 0) AS t, coalesce(p.user_id, 0) AS u, p.id AS pid, coalesce(i.item_id, 0) AS item,
           i.name, i.quantity, i.amount_before_vat, i.price_with_vat
    FROM purchases p JOIN clubs c ON c.id = p.club_id JOIN purchase_items i ON i.purchase_id = p.id AND i.item_type = 10
    WHERE p.payment_status <> 3 AND (p_club IS NULL OR p.club_id = p_club)
  )
  SELECT club_id, day, 0::smallint, 0, '', t, u, count(DISTINCT pid), 0, 0, 0 FROM l GROUP BY club_id, day, t, u
  UNION ALL
  SELECT club_id, day, 1::smallint, item, '', t, u, count(DISTINCT pid), sum(quantity), sum(amount_before_vat), sum(price_with_vat)
  FROM l GROUP BY club_id, day, t, u, item
  UNION ALL
  SELECT club_id, day, 2::smallint, item, name, t, u, count(*), 0, 0, 0 FROM l WHERE name <> ''
  GROUP BY club_id, day, t, u, item, name;
END $$;
--> statement-breakpoint
CREATE FUNCTION product_daily_on_club() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM product_daily_rebuild(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER product_daily_club_zone AFTER UPDATE OF location ON clubs
  FOR EACH ROW WHEN (coalesce(OLD.location->>'timeZone', 'Asia/Jerusalem') IS DISTINCT FROM coalesce(NEW.location->>'timeZone', 'Asia/Jerusalem'))
  EXECUTE FUNCTION product_daily_on_club();
--> statement-breakpoint
SELECT product_daily_rebuild(NULL);
