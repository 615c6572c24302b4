CREATE TABLE "financial_daily" (
	"club_id" integer NOT NULL,
	"day" date NOT NULL,
	"terminal_id" integer DEFAULT 0 NOT NULL,
	"user_id" integer DEFAULT 0 NOT NULL,
	"kind" smallint NOT NULL,
	"key" smallint NOT NULL,
	"purchases" integer DEFAULT 0 NOT NULL,
	"quantity" bigint DEFAULT 0 NOT NULL,
	"amount_before_vat" bigint DEFAULT 0 NOT NULL,
	"total" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "financial_daily_key" ON "financial_daily" USING btree ("club_id","day","kind","key","terminal_id","user_id");