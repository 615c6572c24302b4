-- Partial refunds (issue 18; docs/money.md "Refunds"): a purchase may be refunded in several parts,
-- each a purchase_refunds row with its credit document, so a purchase has many credit documents (the
-- unique index of a purchase's documents now covers its sale document only). purchases.refunded and
-- charges.refunded keep what was given back so far. Refunds made before (whole purchases) become
-- rows of their own, from their credit document, so reports and the accounting export read one kind.
CREATE TABLE "purchase_refunds" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"purchase_id" bigint NOT NULL,
	"idempotency_key" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"user_id" integer,
	"reason" text DEFAULT '' NOT NULL,
	"total" integer NOT NULL,
	"before_vat" integer NOT NULL,
	"vat" integer NOT NULL,
	"lines" jsonb NOT NULL,
	"payments" jsonb NOT NULL,
	"document_id" integer,
	CONSTRAINT "purchase_refunds_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
DROP INDEX "purchase_documents_purchase";--> statement-breakpoint
ALTER TABLE "charges" ADD COLUMN "refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchases" ADD COLUMN "refunded" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "purchase_refunds" ADD CONSTRAINT "purchase_refunds_purchase_fk" FOREIGN KEY ("club_id","purchase_id") REFERENCES "public"."purchases"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_refunds_idem" ON "purchase_refunds" USING btree ("club_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "purchase_refunds_purchase" ON "purchase_refunds" USING btree ("club_id","purchase_id");--> statement-breakpoint
CREATE INDEX "purchase_refunds_at" ON "purchase_refunds" USING btree ("club_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "purchase_documents_purchase" ON "purchase_documents" USING btree ("club_id","purchase_id","kind") WHERE "purchase_documents"."kind" in (320, 400);;--> statement-breakpoint
UPDATE "purchases" SET "refunded" = "total" WHERE "payment_status" = 3;--> statement-breakpoint
UPDATE "charges" SET "refunded" = "amount" WHERE "status" = 'refunded';--> statement-breakpoint
INSERT INTO "purchase_refunds" ("club_id", "purchase_id", "idempotency_key", "at", "user_id", "reason", "total", "before_vat", "vat", "lines", "payments", "document_id")
SELECT p.club_id, p.id, 'before-0034:' || p.id, coalesce(d.issued_at, p.at), d.user_id,
       coalesce(d.snapshot->>'reason', ''), p.total, p.amount_before_vat, p.vat,
       coalesce((SELECT jsonb_agg(jsonb_build_object('key', i.id, 'itemType', i.item_type, 'quantity', i.quantity,
                  'amount', i.price_with_vat, 'vat', i.price_with_vat - i.amount_before_vat) ORDER BY i.id)
                 FROM purchase_items i WHERE i.club_id = p.club_id AND i.purchase_id = p.id), '[]'::jsonb),
       coalesce((SELECT jsonb_agg(jsonb_build_object('id', m.id, 'method', m.method, 'amount', m.amount, 'lastFour', m.last_four) ORDER BY m.id)
                 FROM purchase_payments m WHERE m.club_id = p.club_id AND m.purchase_id = p.id AND m.method <> 6), '[]'::jsonb),
       d.id
FROM "purchases" p
LEFT JOIN LATERAL (SELECT * FROM purchase_documents x WHERE x.club_id = p.club_id AND x.purchase_id = p.id
                   AND x.kind IN (330, 410) ORDER BY x.id LIMIT 1) d ON true
WHERE p.payment_status = 3;
