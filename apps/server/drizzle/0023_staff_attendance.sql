CREATE TABLE "attendance_logs" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"entry_at" timestamp with time zone,
	"entry_terminal_id" integer,
	"entry_source" text,
	"entry_event_id" text,
	"exit_at" timestamp with time zone,
	"exit_terminal_id" integer,
	"exit_source" text,
	"exit_event_id" text,
	"comment" text DEFAULT '' NOT NULL,
	"original" jsonb,
	"modifications" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"created_by_user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "employee_positions" (
	"id" serial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"hourly_rate" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "clients" ADD COLUMN "employee_position_id" integer;--> statement-breakpoint
ALTER TABLE "attendance_logs" ADD CONSTRAINT "attendance_logs_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_logs" ADD CONSTRAINT "attendance_logs_client_id_clients_id_fk" FOREIGN KEY ("client_id") REFERENCES "public"."clients"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_logs" ADD CONSTRAINT "attendance_logs_entry_terminal_id_terminals_id_fk" FOREIGN KEY ("entry_terminal_id") REFERENCES "public"."terminals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance_logs" ADD CONSTRAINT "attendance_logs_exit_terminal_id_terminals_id_fk" FOREIGN KEY ("exit_terminal_id") REFERENCES "public"."terminals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "employee_positions" ADD CONSTRAINT "employee_positions_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendance_logs_club_entry" ON "attendance_logs" USING btree ("club_id","entry_at");--> statement-breakpoint
CREATE INDEX "attendance_logs_club_client" ON "attendance_logs" USING btree ("club_id","client_id");--> statement-breakpoint
CREATE INDEX "attendance_logs_open" ON "attendance_logs" USING btree ("club_id") WHERE "attendance_logs"."exit_at" is null and "attendance_logs"."entry_at" is not null;--> statement-breakpoint
CREATE INDEX "employee_positions_club" ON "employee_positions" USING btree ("club_id");