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
