CREATE TABLE "script_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"version" text NOT NULL,
	"notes" text DEFAULT '' NOT NULL,
	"file_url" text NOT NULL,
	"published_at" timestamp with time zone DEFAULT now() NOT NULL,
	"created_by" integer,
	CONSTRAINT "script_versions_version_unique" UNIQUE("version")
);
--> statement-breakpoint
ALTER TABLE "clubs" ADD COLUMN "disabled_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "license_requests" ADD COLUMN "decided_by" integer;
--> statement-breakpoint
ALTER TABLE "license_requests" ADD COLUMN "decided_at" timestamp with time zone;
--> statement-breakpoint
ALTER TABLE "license_requests" ADD COLUMN "reason" text;
--> statement-breakpoint
CREATE TABLE "license_loads" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"quantity" integer NOT NULL,
	"reason" text NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "license_loads_club" ON "license_loads" USING btree ("club_id","created_at");
--> statement-breakpoint
CREATE INDEX "license_requests_status" ON "license_requests" USING btree ("status","created_at");
