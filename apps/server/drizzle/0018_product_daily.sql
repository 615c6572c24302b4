CREATE TABLE "product_daily" (
	"club_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" smallint NOT NULL,
	"item_id" integer DEFAULT 0 NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"terminal_id" integer DEFAULT 0 NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"purchases" integer DEFAULT 0 NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"amount_before_vat" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "product_daily_key" ON "product_daily" USING btree ("club_id","kind","day","item_id","name","terminal_id","user_id");