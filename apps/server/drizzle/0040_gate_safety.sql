-- The gate in an emergency (issue 36, docs/gate-safety.md): the club's open-all and lockdown,
-- each null when off, else {since, reason, source, by}; and the clients whose cards pass a lockdown.
CREATE TABLE "club_safety" (
	"club_id" integer PRIMARY KEY NOT NULL,
	"open_all" jsonb,
	"lockdown" jsonb,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "lockdown_overrides" (
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"granted_by" integer,
	"granted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "lockdown_overrides_club_id_client_id_pk" PRIMARY KEY("club_id","client_id")
);
--> statement-breakpoint
ALTER TABLE "lockdown_overrides" ADD CONSTRAINT "lockdown_overrides_client_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
-- Live occupancy (docs/gate-safety.md "Occupancy"): areas of the club (terminals grouped: entrance
-- hall, pool, immersion rooms) with a capacity, a maximum stay and anti-passback; which terminal
-- leads into which area; and each stay in an area (open while left_at is null).
CREATE TABLE "gate_areas" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"name" text NOT NULL,
	"capacity" integer DEFAULT 0 NOT NULL,
	"max_stay_minutes" integer DEFAULT 0 NOT NULL,
	"anti_passback" smallint DEFAULT 0 NOT NULL,
	"anti_passback_reset_minutes" integer DEFAULT 0 NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	CONSTRAINT "gate_areas_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
CREATE TABLE "gate_area_terminals" (
	"club_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	"area_id" integer NOT NULL,
	CONSTRAINT "gate_area_terminals_club_id_terminal_id_pk" PRIMARY KEY("club_id","terminal_id")
);
--> statement-breakpoint
CREATE TABLE "area_presence" (
	"club_id" integer NOT NULL,
	"id" bigserial NOT NULL,
	"area_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"terminal_id" integer,
	"entered_at" timestamp with time zone NOT NULL,
	"left_at" timestamp with time zone,
	"left_how" text,
	"flagged" boolean DEFAULT false NOT NULL,
	"passback" boolean DEFAULT false NOT NULL,
	CONSTRAINT "area_presence_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
CREATE INDEX "area_presence_open" ON "area_presence" USING btree ("club_id","client_id") WHERE "left_at" is null;--> statement-breakpoint
CREATE INDEX "area_presence_entered" ON "area_presence" USING btree ("club_id","entered_at");
