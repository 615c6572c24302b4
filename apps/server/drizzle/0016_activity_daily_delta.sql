-- The old partial index is named like the new table: dropped first.
DROP INDEX "activity_daily_delta";--> statement-breakpoint
CREATE TABLE "activity_daily_delta" (
	"club_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" smallint NOT NULL,
	"terminal_id" integer DEFAULT 0 NOT NULL,
	"group_id" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"payment_type" smallint DEFAULT 0 NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "activity_daily" DROP COLUMN "delta";