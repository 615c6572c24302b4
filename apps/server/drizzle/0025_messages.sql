CREATE TABLE "feedback_categories" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"name" text NOT NULL,
	"type" text NOT NULL,
	"reporting_system_category_id" integer NOT NULL,
	"default_severity_id" integer NOT NULL,
	"reporting_system_location_id" integer,
	"deleted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "global_message_reads" (
	"message_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"read_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "global_message_reads_message_id_user_id_pk" PRIMARY KEY("message_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "global_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"kind" text DEFAULT 'Basic' NOT NULL,
	"audience" text DEFAULT 'all' NOT NULL,
	"external_club_ids" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"publish_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"created_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_deliveries" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"incident_id" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now(),
	"last_status_code" integer,
	"last_error" text,
	"delivered_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incident_webhooks" (
	"club_id" integer PRIMARY KEY NOT NULL,
	"url" text DEFAULT '' NOT NULL,
	"secret_enc" text,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "incidents" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"category_id" integer NOT NULL,
	"severity_id" integer NOT NULL,
	"source" text NOT NULL,
	"terminal_id" integer,
	"event_id" text,
	"reported_by" integer,
	"note" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"handled_by" integer,
	"handled_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "feedback_categories" ADD CONSTRAINT "feedback_categories_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_message_reads" ADD CONSTRAINT "global_message_reads_message_id_global_messages_id_fk" FOREIGN KEY ("message_id") REFERENCES "public"."global_messages"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "global_message_reads" ADD CONSTRAINT "global_message_reads_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_deliveries" ADD CONSTRAINT "incident_deliveries_incident_id_incidents_id_fk" FOREIGN KEY ("incident_id") REFERENCES "public"."incidents"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incident_webhooks" ADD CONSTRAINT "incident_webhooks_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "incidents" ADD CONSTRAINT "incidents_category_id_feedback_categories_id_fk" FOREIGN KEY ("category_id") REFERENCES "public"."feedback_categories"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "feedback_categories_club" ON "feedback_categories" USING btree ("club_id");--> statement-breakpoint
CREATE INDEX "global_message_reads_user" ON "global_message_reads" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "global_messages_publish" ON "global_messages" USING btree ("publish_at");--> statement-breakpoint
CREATE INDEX "incident_deliveries_due" ON "incident_deliveries" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "incident_deliveries_club" ON "incident_deliveries" USING btree ("club_id");--> statement-breakpoint
CREATE INDEX "incidents_club_status" ON "incidents" USING btree ("club_id","status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "incidents_terminal_event" ON "incidents" USING btree ("terminal_id","event_id");