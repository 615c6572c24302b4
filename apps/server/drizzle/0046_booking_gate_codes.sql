-- One-time gate codes of bookings (issue 38, docs/appointments.md "The one-time code"): the member
-- app shows a code once; only its keyed HMAC is stored; valid in the booking's gate window, spent by
-- the admission it gives.
CREATE TABLE "booking_gate_codes" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"booking_id" integer NOT NULL,
	"client_id" integer NOT NULL,
	"code_hash" text NOT NULL,
	"valid_from" timestamp with time zone NOT NULL,
	"valid_until" timestamp with time zone NOT NULL,
	"spent_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "booking_gate_codes_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
CREATE UNIQUE INDEX "booking_gate_codes_hash" ON "booking_gate_codes" USING btree ("club_id","code_hash");
--> statement-breakpoint
CREATE UNIQUE INDEX "booking_gate_codes_booking" ON "booking_gate_codes" USING btree ("club_id","booking_id");
