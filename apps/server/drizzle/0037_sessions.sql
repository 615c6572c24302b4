-- Sign-in sessions (docs/security.md "Sessions"): the token names its session (`sid`), so
-- sign-out, a password change, disabling the user or the club and idle time end it at once.
-- A reference table like users (docs/scaling.md): the operator's sessions have no club.
CREATE TABLE "sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL REFERENCES "users"("id"),
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"ip" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX "sessions_user" ON "sessions" USING btree ("user_id");
