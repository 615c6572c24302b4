CREATE TABLE "cash_inserts" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	"cash_session_id" bigint NOT NULL,
	"event_id" text NOT NULL,
	"kind" text NOT NULL,
	"denomination" integer NOT NULL,
	"accepted" boolean NOT NULL,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cash_resets" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	"user_id" integer,
	"at" timestamp with time zone DEFAULT now() NOT NULL,
	"cash_box" jsonb NOT NULL,
	"cash_box_total" integer NOT NULL,
	"excess_amount" integer NOT NULL,
	"excess_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cash_sessions" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"terminal_id" integer NOT NULL,
	"session_id" text NOT NULL,
	"client_id" integer,
	"state" text NOT NULL,
	"amount_due" integer,
	"inserted" integer DEFAULT 0 NOT NULL,
	"pieces" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"credited" integer DEFAULT 0 NOT NULL,
	"change_due" integer DEFAULT 0 NOT NULL,
	"change_plan" jsonb,
	"unpaid" integer DEFAULT 0 NOT NULL,
	"excess" integer DEFAULT 0 NOT NULL,
	"error" text,
	"started_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "terminal_cash" (
	"terminal_id" integer PRIMARY KEY NOT NULL,
	"club_id" integer NOT NULL,
	"coins" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"bills" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"cash_box" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"excess_amount" integer DEFAULT 0 NOT NULL,
	"excess_count" integer DEFAULT 0 NOT NULL,
	"last_reset_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "entrance_logs" ADD COLUMN "offline" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "terminals" ADD COLUMN "devices" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "terminals" ADD COLUMN "devices_reported_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "terminals" ADD COLUMN "connected_instance" text;--> statement-breakpoint
ALTER TABLE "terminal_cash" ADD CONSTRAINT "terminal_cash_terminal_id_terminals_id_fk" FOREIGN KEY ("terminal_id") REFERENCES "public"."terminals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cash_inserts_event" ON "cash_inserts" USING btree ("terminal_id","event_id");--> statement-breakpoint
CREATE INDEX "cash_resets_club_at" ON "cash_resets" USING btree ("club_id","at");--> statement-breakpoint
CREATE UNIQUE INDEX "cash_sessions_terminal_session" ON "cash_sessions" USING btree ("terminal_id","session_id");--> statement-breakpoint
CREATE INDEX "cash_sessions_club_started" ON "cash_sessions" USING btree ("club_id","started_at");