-- Immersion appointments (issue 38, docs/appointments.md): bookable rooms, the club's booking rules,
-- bookings (no double booking: one live booking per room and start, and an overlap check under a
-- per-room transaction lock), the waitlist, and the counts kept after retention removes bookings.
CREATE TABLE "booking_resources" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"service_minutes" integer NOT NULL,
	"buffer_minutes" integer DEFAULT 0 NOT NULL,
	"group_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_resources_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
CREATE TABLE "booking_settings" (
	"club_id" integer PRIMARY KEY NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "bookings" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"resource_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone NOT NULL,
	"blocked_until" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'booked' NOT NULL,
	"source" text DEFAULT 'staff' NOT NULL,
	"fee" integer DEFAULT 0 NOT NULL,
	"purchase_id" integer,
	"idempotency_key" text,
	"offer_expires_at" timestamp with time zone,
	"waitlist_id" integer,
	"remind_day_at" timestamp with time zone,
	"remind_hour_at" timestamp with time zone,
	"checked_in_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "bookings_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_resource_fk" FOREIGN KEY ("club_id","resource_id") REFERENCES "public"."booking_resources"("club_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
ALTER TABLE "bookings" ADD CONSTRAINT "bookings_client_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_live_slot" ON "bookings" USING btree ("club_id","resource_id","starts_at") WHERE "status" <> 'cancelled';
--> statement-breakpoint
CREATE UNIQUE INDEX "bookings_idem" ON "bookings" USING btree ("club_id","idempotency_key") WHERE "idempotency_key" IS NOT NULL;
--> statement-breakpoint
CREATE INDEX "bookings_club_time" ON "bookings" USING btree ("club_id","starts_at");
--> statement-breakpoint
CREATE INDEX "bookings_client" ON "bookings" USING btree ("club_id","client_id","starts_at");
--> statement-breakpoint
CREATE INDEX "bookings_reminders" ON "bookings" USING btree ("remind_day_at","remind_hour_at") WHERE "status" = 'booked';
--> statement-breakpoint
CREATE TABLE "booking_waitlist" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"client_id" integer NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'waiting' NOT NULL,
	"booking_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_waitlist_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
ALTER TABLE "booking_waitlist" ADD CONSTRAINT "booking_waitlist_client_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE INDEX "booking_waitlist_date" ON "booking_waitlist" USING btree ("club_id","date","kind","status","id");
--> statement-breakpoint
CREATE TABLE "booking_counts" (
	"club_id" integer NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"hour" integer NOT NULL,
	"bookings" integer DEFAULT 0 NOT NULL,
	"no_shows" integer DEFAULT 0 NOT NULL,
	"cancelled" integer DEFAULT 0 NOT NULL,
	"from_waitlist" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "booking_counts_pk" PRIMARY KEY("club_id","date","kind","hour")
);
