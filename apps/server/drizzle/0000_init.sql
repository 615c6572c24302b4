CREATE TABLE "audit_log" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer,
	"user_id" integer,
	"action" text NOT NULL,
	"entity" text NOT NULL,
	"entity_id" text,
	"before" jsonb,
	"after" jsonb,
	"ip" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "balance_ledger" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"delta" integer NOT NULL,
	"source" text NOT NULL,
	"source_id" bigint,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"user_id" integer
);
--> statement-breakpoint
CREATE TABLE "clients" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"number" integer NOT NULL,
	"first_name" text NOT NULL,
	"last_name" text DEFAULT '' NOT NULL,
	"parent_id" integer,
	"personal_id" text DEFAULT '' NOT NULL,
	"phone" text DEFAULT '' NOT NULL,
	"city" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"group_id" integer,
	"client_type" smallint DEFAULT 1 NOT NULL,
	"card_serial" text DEFAULT '' NOT NULL,
	"subscription_start" date,
	"subscription_end" date,
	"license_expiry" date,
	"status" smallint DEFAULT 1 NOT NULL,
	"message_to_client" text DEFAULT '' NOT NULL,
	"balance" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "clubs" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_club_id" integer NOT NULL,
	"name" text NOT NULL,
	"licenses_amount" integer DEFAULT 0 NOT NULL,
	"currency" integer DEFAULT 376 NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"location" jsonb,
	"capacities" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "clubs_external_club_id_unique" UNIQUE("external_club_id")
);
--> statement-breakpoint
CREATE TABLE "entrance_logs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"terminal_id" integer,
	"client_id" integer,
	"group_id" integer,
	"at" timestamp with time zone NOT NULL,
	"status" smallint NOT NULL,
	"reason" smallint NOT NULL,
	"identification_kind" text NOT NULL,
	"amount" integer DEFAULT 0 NOT NULL,
	"payment_type" smallint DEFAULT 0 NOT NULL,
	"event_id" text
);
--> statement-breakpoint
CREATE TABLE "groups" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"name" text NOT NULL,
	"color" text DEFAULT '#1677ff' NOT NULL,
	"allow_entrance" boolean DEFAULT true NOT NULL,
	"allow_payment" boolean DEFAULT true NOT NULL,
	"allow_purchases" boolean DEFAULT true NOT NULL,
	"bonus" integer DEFAULT 0 NOT NULL,
	"min_charge_amount" integer DEFAULT 0 NOT NULL,
	"max_charge_amount" integer DEFAULT 0 NOT NULL,
	"entrance_state" smallint DEFAULT 1 NOT NULL,
	"subscription_end_type" smallint DEFAULT 4 NOT NULL,
	"days_to_extend" integer DEFAULT 0 NOT NULL,
	"delay_between_entries_minutes" integer DEFAULT 0 NOT NULL,
	"max_entries_per_day" integer DEFAULT 0 NOT NULL,
	"max_entries_per_day_per_subscriber" integer DEFAULT 0 NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"new_day_start_hour" smallint DEFAULT 0 NOT NULL,
	"use_halachic_times" boolean DEFAULT false NOT NULL,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedule_to_group" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"schedule_id" integer NOT NULL,
	"group_id" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "schedules" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"group_id" integer,
	"sort_order" integer DEFAULT 0 NOT NULL,
	"days" smallint[] NOT NULL,
	"from_time" smallint,
	"to_time" smallint,
	"from_halachic" smallint,
	"from_offset" smallint DEFAULT 0 NOT NULL,
	"to_halachic" smallint,
	"to_offset" smallint DEFAULT 0 NOT NULL,
	"from_date" date,
	"to_date" date,
	"price" integer DEFAULT 0 NOT NULL,
	"price_per_beat" integer DEFAULT 0 NOT NULL,
	"display_name" text DEFAULT '' NOT NULL,
	"max_purchase_qty" integer DEFAULT 0 NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"minutes" integer DEFAULT 0 NOT NULL,
	"priority" integer DEFAULT 0 NOT NULL,
	"entrance_state" smallint NOT NULL,
	"terminal_id" integer
);
--> statement-breakpoint
CREATE TABLE "server_state" (
	"key" text PRIMARY KEY NOT NULL,
	"value" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terminals" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"serial" text NOT NULL,
	"name" text NOT NULL,
	"secret_hash" text NOT NULL,
	"approved" boolean DEFAULT false NOT NULL,
	"is_main" boolean DEFAULT false NOT NULL,
	"gate_open_seconds" integer DEFAULT 5 NOT NULL,
	"door_state" smallint DEFAULT 2 NOT NULL,
	"settings" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_connection" timestamp with time zone,
	"deleted" boolean DEFAULT false NOT NULL
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer,
	"username" text NOT NULL,
	"password_hash" text NOT NULL,
	"name" text DEFAULT '' NOT NULL,
	"language" text DEFAULT 'he' NOT NULL,
	"role" smallint DEFAULT 1 NOT NULL,
	"level" smallint DEFAULT 0 NOT NULL,
	"is_admin" boolean DEFAULT false NOT NULL,
	"permissions" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"terms_version" integer DEFAULT 0 NOT NULL,
	"data_grid_states" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"disabled" boolean DEFAULT false NOT NULL,
	"token_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "balance_ledger" ADD CONSTRAINT "balance_ledger_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "clients" ADD CONSTRAINT "clients_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "groups" ADD CONSTRAINT "groups_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_to_group" ADD CONSTRAINT "schedule_to_group_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_to_group" ADD CONSTRAINT "schedule_to_group_schedule_id_schedules_id_fk" FOREIGN KEY ("schedule_id") REFERENCES "public"."schedules"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedule_to_group" ADD CONSTRAINT "schedule_to_group_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "schedules" ADD CONSTRAINT "schedules_group_id_groups_id_fk" FOREIGN KEY ("group_id") REFERENCES "public"."groups"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "terminals" ADD CONSTRAINT "terminals_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_log_club_at" ON "audit_log" USING btree ("club_id","at");--> statement-breakpoint
CREATE INDEX "balance_ledger_client" ON "balance_ledger" USING btree ("client_id");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_club_number" ON "clients" USING btree ("club_id","number");--> statement-breakpoint
CREATE UNIQUE INDEX "clients_club_card" ON "clients" USING btree ("club_id","card_serial") WHERE "clients"."card_serial" <> '' and "clients"."status" <> 3;--> statement-breakpoint
CREATE INDEX "clients_club_name" ON "clients" USING btree ("club_id","last_name","first_name");--> statement-breakpoint
CREATE INDEX "clients_club_personal_id" ON "clients" USING btree ("club_id","personal_id");--> statement-breakpoint
CREATE INDEX "clients_club_phone" ON "clients" USING btree ("club_id","phone");--> statement-breakpoint
CREATE INDEX "entrance_logs_club_at" ON "entrance_logs" USING btree ("club_id","at");--> statement-breakpoint
CREATE INDEX "entrance_logs_client_at" ON "entrance_logs" USING btree ("client_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "entrance_logs_event" ON "entrance_logs" USING btree ("terminal_id","event_id");--> statement-breakpoint
CREATE INDEX "groups_club" ON "groups" USING btree ("club_id");--> statement-breakpoint
CREATE INDEX "schedules_group" ON "schedules" USING btree ("club_id","group_id");--> statement-breakpoint
CREATE UNIQUE INDEX "terminals_serial" ON "terminals" USING btree ("serial");--> statement-breakpoint
CREATE UNIQUE INDEX "users_club_username" ON "users" USING btree (coalesce("club_id", 0),lower("username"));