CREATE TABLE "activity_daily" (
	"club_id" integer NOT NULL,
	"day" date NOT NULL,
	"kind" smallint NOT NULL,
	"terminal_id" integer DEFAULT 0 NOT NULL,
	"group_id" integer DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"payment_type" smallint DEFAULT 0 NOT NULL,
	"n" integer DEFAULT 0 NOT NULL,
	"amount" bigint DEFAULT 0 NOT NULL,
	"delta" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE INDEX "activity_daily_club_day" ON "activity_daily" USING btree ("club_id","day");--> statement-breakpoint
CREATE INDEX "activity_daily_delta" ON "activity_daily" USING btree ("club_id","day") WHERE "activity_daily"."delta";--> statement-breakpoint
CREATE INDEX "purchases_refunded_at" ON "purchases" USING btree ("club_id","at") WHERE "purchases"."payment_status" = 3;