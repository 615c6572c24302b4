-- The sandbox card provider's own books (docs/money.md "The sandbox provider"): what it charged
-- and gave back by idempotency key, kept apart from the product's charges as a real provider keeps
-- its own, so that orphaned charges after a crash can still be found and refunded (issue 33).
-- Used on PostgreSQL, where the instances share it; the server on PGlite keeps a journal file.
CREATE TABLE "sandbox_clearing_books" (
	"idempotency_key" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"status" text NOT NULL,
	"amount" integer NOT NULL,
	"provider_ref" text DEFAULT '' NOT NULL,
	"reason" text,
	"refunded" integer DEFAULT 0 NOT NULL,
	"charge_ref" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sandbox_clearing_books_ref" ON "sandbox_clearing_books" USING btree ("provider_ref");
