-- Front-desk overrides (docs/front-desk.md "The override rule"): an entrance admitted although the
-- gate refused it, who admitted it, the refusal and the reason given.
CREATE TABLE "entrance_overrides" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"entrance_log_id" bigint NOT NULL,
	"user_id" integer,
	"at" timestamp with time zone NOT NULL,
	"refused_status" smallint NOT NULL,
	"refused_reason" smallint NOT NULL,
	"reason" text NOT NULL,
	CONSTRAINT "entrance_overrides_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
ALTER TABLE "entrance_overrides" ADD CONSTRAINT "entrance_overrides_log_fk" FOREIGN KEY ("club_id","entrance_log_id") REFERENCES "public"."entrance_logs"("club_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "entrance_overrides_log" ON "entrance_overrides" USING btree ("club_id","entrance_log_id");--> statement-breakpoint
CREATE INDEX "entrance_overrides_at" ON "entrance_overrides" USING btree ("club_id","at");
