-- The member app (docs/members.md). A client's e-mail on file (the one-time code goes to it or to the
-- phone); IF NOT EXISTS because the notifications migration may add the same column.
ALTER TABLE "clients" ADD COLUMN IF NOT EXISTS "email" text DEFAULT '' NOT NULL;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "clients_email_lower" ON "clients" USING btree (lower("email")) WHERE "email" <> '';
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "clients_phone_any_club" ON "clients" USING btree ("phone") WHERE "phone" <> '';
--> statement-breakpoint
-- One-time sign-in codes: only a hash of the code (HMAC-SHA-256 under the server's key), 10 minutes, 5 tries.
-- A reference table like sessions: a code is of a contact (phone or e-mail), which may be on file in several clubs.
CREATE TABLE "member_codes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"contact" text NOT NULL,
	"channel" text NOT NULL,
	"code_hash" text NOT NULL,
	"ip" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "member_codes_contact" ON "member_codes" USING btree ("contact","created_at");
--> statement-breakpoint
-- Member sessions (a kind apart from staff sessions): the token names its row; the club and the member
-- are chosen after the code (a contact on file in several clubs picks one).
CREATE TABLE "member_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"contact" text NOT NULL,
	"club_id" integer,
	"client_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_seen_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text,
	"ip" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE INDEX "member_sessions_contact" ON "member_sessions" USING btree ("contact");
--> statement-breakpoint
-- A payment started in the member app on the clearing provider's hosted page: what it buys, for whom,
-- the amount shown there, and how it ended (the purchase it made, or why not).
CREATE TABLE "member_checkouts" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"code" text NOT NULL,
	"client_id" integer NOT NULL,
	"payer_client_id" integer NOT NULL,
	"kind" text NOT NULL,
	"items" jsonb NOT NULL,
	"amount" integer NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"reason" text,
	"purchase_id" bigint,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"settled_at" timestamp with time zone,
	CONSTRAINT "member_checkouts_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "member_checkouts_code" ON "member_checkouts" USING btree ("code");
--> statement-breakpoint
CREATE INDEX "member_checkouts_client" ON "member_checkouts" USING btree ("club_id","payer_client_id","created_at");
