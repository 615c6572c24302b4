-- Keeps financial_daily (the financial report's daily summary, schema.ts) equal
-- to an aggregate of the purchases that were not refunded (payment_status 3 =
-- Refunded), in the same transaction as every write: triggers on purchases,
-- purchase_items and purchase_payments; a change of a club's time zone
-- rebuilds that club's rows (the day is the local day in the club's zone).

-- Adds a delta to one summary row (creates it when missing).
CREATE FUNCTION financial_daily_add(p_club int, p_day date, p_terminal int, p_user int, p_kind smallint, p_key smallint,
    p_purchases int, p_quantity bigint, p_abv bigint, p_total bigint) RETURNS void LANGUAGE sql AS $$
  INSERT INTO financial_daily AS f (club_id, day, terminal_id, user_id, kind, key, purchases, quantity, amount_before_vat, total)
  VALUES (p_club, p_day, p_terminal, p_user, p_kind, p_key, p_purchases, p_quantity, p_abv, p_total)
  ON CONFLICT (club_id, day, kind, key, terminal_id, user_id) DO UPDATE SET
    purchases = f.purchases + excluded.purchases,
    quantity = f.quantity + excluded.quantity,
    amount_before_vat = f.amount_before_vat + excluded.amount_before_vat,
    total = f.total + excluded.total
$$;
--> statement-breakpoint
-- The local day of an instant in a club's time zone (Jerusalem when unset, as clubLocation()).
CREATE FUNCTION financial_daily_day(p_club int, p_at timestamptz) RETURNS date LANGUAGE sql STABLE AS $$
  SELECT (p_at AT TIME ZONE coalesce((SELECT location->>'timeZone' FROM clubs WHERE id = p_club), 'Asia/Jerusalem'))::date
$$;
--> statement-breakpoint
-- Adds (sign 1) or removes (sign -1) a whole purchase with its current lines and payments.
CREATE FUNCTION financial_daily_purchase(p purchases, sign int) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d date;
  t int := coalesce(p.terminal_id, 0);
  u int := coalesce(p.user_id, 0);
  r record;
BEGIN
  IF p.payment_status = 3 THEN RETURN; END IF;
  d := financial_daily_day(p.club_id, p.at);
  PERFORM financial_daily_add(p.club_id, d, t, u, 0::smallint, 0::smallint,
    sign * (CASE WHEN EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = p.id) THEN 1 ELSE 0 END),
    0, 0, sign * p.fee::bigint);
  FOR r IN SELECT item_type, sum(quantity) AS q, sum(amount_before_vat) AS a, sum(price_with_vat) AS v
           FROM purchase_items WHERE purchase_id = p.id GROUP BY item_type LOOP
    PERFORM financial_daily_add(p.club_id, d, t, u, 1::smallint, r.item_type, sign, sign * r.q, sign * r.a, sign * r.v);
  END LOOP;
  FOR r IN SELECT method, count(*) AS n, sum(amount) AS v FROM purchase_payments WHERE purchase_id = p.id GROUP BY method LOOP
    PERFORM financial_daily_add(p.club_id, d, t, u, 2::smallint, r.method, sign * r.n::int, 0, 0, sign * r.v);
  END LOOP;
END $$;
--> statement-breakpoint
CREATE FUNCTION financial_daily_on_purchase() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN PERFORM financial_daily_purchase(OLD, -1); END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN PERFORM financial_daily_purchase(NEW, 1); END IF;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER financial_daily_purchase_insert AFTER INSERT ON purchases
  FOR EACH ROW EXECUTE FUNCTION financial_daily_on_purchase();
--> statement-breakpoint
CREATE TRIGGER financial_daily_purchase_update AFTER UPDATE ON purchases
  FOR EACH ROW WHEN ((OLD.club_id, OLD.at, OLD.payment_status, OLD.fee, OLD.terminal_id, OLD.user_id)
    IS DISTINCT FROM (NEW.club_id, NEW.at, NEW.payment_status, NEW.fee, NEW.terminal_id, NEW.user_id))
  EXECUTE FUNCTION financial_daily_on_purchase();
--> statement-breakpoint
-- Before the delete, while the purchase's lines still exist.
CREATE TRIGGER financial_daily_purchase_delete BEFORE DELETE ON purchases
  FOR EACH ROW EXECUTE FUNCTION financial_daily_on_purchase();
--> statement-breakpoint
-- A line: BEFORE the row changes, so that "the purchase's first line of this type"
-- sees the lines written earlier by the same statement (and not the later ones).
CREATE FUNCTION financial_daily_on_item() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p purchases;
  d date;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT * INTO p FROM purchases WHERE id = OLD.purchase_id;
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
    SELECT * INTO p FROM purchases WHERE id = NEW.purchase_id;
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
CREATE TRIGGER financial_daily_item BEFORE INSERT OR UPDATE OR DELETE ON purchase_items
  FOR EACH ROW EXECUTE FUNCTION financial_daily_on_item();
--> statement-breakpoint
CREATE FUNCTION financial_daily_on_payment() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  p purchases;
BEGIN
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    SELECT * INTO p FROM purchases WHERE id = OLD.purchase_id;
    IF FOUND AND p.payment_status <> 3 THEN
      PERFORM financial_daily_add(p.club_id, financial_daily_day(p.club_id, p.at), coalesce(p.terminal_id, 0),
        coalesce(p.user_id, 0), 2::smallint, OLD.method, -1, 0, 0, -OLD.amount::bigint);
    END IF;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    SELECT * INTO p FROM purchases WHERE id = NEW.purchase_id;
    IF FOUND AND p.payment_status <> 3 THEN
      PERFORM financial_daily_add(p.club_id, financial_daily_day(p.club_id, p.at), coalesce(p.terminal_id, 0),
        coalesce(p.user_id, 0), 2::smallint, NEW.method, 1, 0, 0, NEW.amount::bigint);
    END IF;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER financial_daily_payment AFTER INSERT OR UPDATE OR DELETE ON purchase_payments
  FOR EACH ROW EXECUTE FUNCTION financial_daily_on_payment();
--> statement-breakpoint
-- Recomputes the summary of one club (NULL: of every club) from the purchases.
CREATE FUNCTION financial_daily_rebuild(p_club int) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM financial_daily WHERE p_club IS NULL OR club_id = p_club;
  INSERT INTO financial_daily (club_id, day, terminal_id, user_id, kind, key, purchases, quantity, amount_before_vat, total)
  WITH p AS (
    SELECT p.id, p.club_id, (p.at AT TIME ZONE coalesce(c.location->>'timeZone', 'Asia/Jerusalem'))::date AS day,
           coalesce(p.terminal_id, 0) AS t, coalesce(p.user_id, 0) AS u, p.fee,
           EXISTS (SELECT 1 FROM purchase_items i WHERE i.purchase_id = p.id) AS has_items
    FROM purchases p JOIN clubs c ON c.id = p.club_id
    WHERE p.payment_status <> 3 AND (p_club IS NULL OR p.club_id = p_club)
  )
  SELECT club_id, day, t, u, 0::smallint, 0::smallint, count(*) FILTER (WHERE has_items), 0, 0, sum(fee) FROM p
  GROUP BY club_id, day, t, u
  UNION ALL
  SELECT p.club_id, p.day, p.t, p.u, 1::smallint, i.item_type, count(DISTINCT p.id), sum(i.quantity), sum(i.amount_before_vat),
         sum(i.price_with_vat)
  FROM p JOIN purchase_items i ON i.purchase_id = p.id
  GROUP BY p.club_id, p.day, p.t, p.u, i.item_type
  UNION ALL
  SELECT p.club_id, p.day, p.t, p.u, 2::smallint, pp.method, count(*), 0, 0, sum(pp.amount)
  FROM p JOIN purchase_payments pp ON pp.purchase_id = p.id
  GROUP BY p.club_id, p.day, p.t, p.u, pp.method;
END $$;
--> statement-breakpoint
CREATE FUNCTION financial_daily_on_club() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM financial_daily_rebuild(NEW.id);
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER financial_daily_club_zone AFTER UPDATE OF location ON clubs
  FOR EACH ROW WHEN (coalesce(OLD.location->>'timeZone', 'Asia/Jerusalem') IS DISTINCT FROM coalesce(NEW.location->>'timeZone', 'Asia/Jerusalem'))
  EXECUTE FUNCTION financial_daily_on_club();
--> statement-breakpoint
SELECT financial_daily_rebuild(NULL);
