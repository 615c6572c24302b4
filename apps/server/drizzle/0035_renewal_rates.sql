-- Automatic renewal recorded the price it charged as the client's monthly price
-- (purchase_items.details.monthlyPrice), and the next renewal read it back: after a
-- prorated period ("remainder of the month", seed 001 §4) a ₪180 client was charged the
-- ₪12 of two days for a whole month, and "remainder and next month" doubled (₪192, then
-- ₪384). The code now records the rate it prorated from (docs/money.md "Automatic
-- renewal": the monthly price rule). This repairs the renewals stored before: each takes
-- the monthly rate of the client's last sale that was not an automatic renewal (a month's
-- price, or the price of 3, 6 or 12 months divided by their months, rounded to the agora).
-- Kept as a function (p_club null = every club) so a restored old backup can be repaired
-- the same way: `select repair_renewal_rates(null)`.
CREATE OR REPLACE FUNCTION repair_renewal_rates(p_club integer) RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
  n integer;
BEGIN
  WITH fix AS (
    SELECT i.club_id, i.id, (
      SELECT CASE coalesce(bi.details->>'period', 'month')
               WHEN 'month' THEN coalesce((bi.details->>'monthlyPrice')::integer, bi.unit_price)
               WHEN 'threeMonths' THEN round(bi.unit_price / 3.0)::integer
               WHEN 'halfYear' THEN round(bi.unit_price / 6.0)::integer
               WHEN 'year' THEN round(bi.unit_price / 12.0)::integer
             END
        FROM purchase_items bi
        JOIN purchases bp ON bp.club_id = bi.club_id AND bp.id = bi.purchase_id
       WHERE bp.club_id = p.club_id AND bp.client_id = p.client_id AND bp.source <> 'autorenew'
         AND bi.item_type = 1 AND (bp.at, bp.id) < (p.at, p.id)
       ORDER BY bp.at DESC, bp.id DESC
       LIMIT 1) AS rate
      FROM purchase_items i
      JOIN purchases p ON p.club_id = i.club_id AND p.id = i.purchase_id
     WHERE p.source = 'autorenew' AND i.item_type = 1 AND (p_club IS NULL OR p.club_id = p_club)
  )
  UPDATE purchase_items t
     SET details = jsonb_set(coalesce(t.details, '{}'::jsonb), '{monthlyPrice}', to_jsonb(fix.rate))
    FROM fix
   WHERE t.club_id = fix.club_id AND t.id = fix.id AND fix.rate IS NOT NULL
     AND (t.details->>'monthlyPrice') IS DISTINCT FROM fix.rate::text;
  GET DIAGNOSTICS n = ROW_COUNT;
  RETURN n;
END $$;
--> statement-breakpoint
SELECT repair_renewal_rates(null);
