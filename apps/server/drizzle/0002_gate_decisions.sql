CREATE TABLE "biometric_templates" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"template_enc" text NOT NULL,
	"template_mac" text NOT NULL,
	"image_enc" text,
	"terminal_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "quick_exits" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"entrance_id" bigint NOT NULL,
	"terminal_id" integer NOT NULL,
	"type" smallint NOT NULL,
	"entrance_at" timestamp with time zone NOT NULL,
	"exit_at" timestamp with time zone NOT NULL,
	"duration_minutes" integer NOT NULL,
	"reward_amount" integer DEFAULT 0 NOT NULL,
	"transaction_id" bigint,
	"event_id" text
);
--> statement-breakpoint
CREATE TABLE "terminal_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"name" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"type" text DEFAULT 'Basic' NOT NULL,
	"content" text DEFAULT '' NOT NULL,
	"start_date" date,
	"end_date" date,
	"display_seconds" integer DEFAULT 30 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "bonus_entries" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "allow_enroll_fingerprint" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "allow_enroll_card" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "allow_enroll_face" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "enroll_password" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "entrance_logs" ADD COLUMN "payer_client_id" integer;--> statement-breakpoint
ALTER TABLE "biometric_templates" ADD CONSTRAINT "biometric_templates_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "biometric_templates" ADD CONSTRAINT "biometric_templates_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminal_messages" ADD CONSTRAINT "terminal_messages_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "biometric_templates_mac" ON "biometric_templates" USING btree ("club_id","kind","template_mac");--> statement-breakpoint
CREATE INDEX "biometric_templates_client" ON "biometric_templates" USING btree ("club_id","client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quick_exits_entrance" ON "quick_exits" USING btree ("entrance_id");--> statement-breakpoint
CREATE UNIQUE INDEX "quick_exits_event" ON "quick_exits" USING btree ("terminal_id","event_id");--> statement-breakpoint
CREATE INDEX "quick_exits_club_exit" ON "quick_exits" USING btree ("club_id","exit_at");--> statement-breakpoint
CREATE INDEX "terminal_messages_club" ON "terminal_messages" USING btree ("club_id");