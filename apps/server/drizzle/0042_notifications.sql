-- Notices to members by e-mail and SMS (issue 37, docs/notifications.md): the outbox (one row per
-- message, its delivery log), each client's notification choices, the club's templates and settings.
ALTER TABLE "clients" ADD COLUMN IF NOT EXISTS "email" text DEFAULT '' NOT NULL;
--> statement-breakpoint
CREATE TABLE "notification_outbox" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"client_id" integer,
	"channel" text NOT NULL,
	"to" text NOT NULL,
	"kind" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"urgent" boolean DEFAULT false NOT NULL,
	"document_id" integer,
	"status" text DEFAULT 'queued' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"deferred_reason" text,
	"last_error" text,
	"provider_id" text,
	"sent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_outbox_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
CREATE INDEX "notification_outbox_due" ON "notification_outbox" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "notification_outbox_club" ON "notification_outbox" USING btree ("club_id","id");--> statement-breakpoint
CREATE INDEX "notification_outbox_client" ON "notification_outbox" USING btree ("club_id","client_id","kind");
--> statement-breakpoint
CREATE TABLE "notification_choices" (
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"email" boolean DEFAULT true NOT NULL,
	"sms" boolean DEFAULT true NOT NULL,
	"off_kinds" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"lang" text DEFAULT 'he' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_choices_club_id_client_id_pk" PRIMARY KEY("club_id","client_id")
);
--> statement-breakpoint
ALTER TABLE "notification_choices" ADD CONSTRAINT "notification_choices_client_fk" FOREIGN KEY ("club_id","client_id") REFERENCES "public"."clients"("club_id","id") ON DELETE no action ON UPDATE no action;
--> statement-breakpoint
CREATE TABLE "notification_templates" (
	"club_id" integer NOT NULL,
	"kind" text NOT NULL,
	"lang" text NOT NULL,
	"channel" text NOT NULL,
	"subject" text DEFAULT '' NOT NULL,
	"body" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_templates_pk" PRIMARY KEY("club_id","kind","lang","channel")
);
--> statement-breakpoint
CREATE TABLE "notification_settings" (
	"club_id" integer PRIMARY KEY NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
