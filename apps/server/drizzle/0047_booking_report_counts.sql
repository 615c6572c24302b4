-- Booking reports (issue 38, docs/appointments.md "Reports"): what the retention keeps of bookings
-- grows by the figures the reports read — attendances and booked service minutes per date, room kind
-- and local hour — and the waitlist's counts per date and room kind, so a period past retention shows
-- counts, not zeros.
ALTER TABLE "booking_counts" ADD COLUMN "attended" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
ALTER TABLE "booking_counts" ADD COLUMN "minutes" integer DEFAULT 0 NOT NULL;
--> statement-breakpoint
CREATE TABLE "booking_waitlist_counts" (
	"club_id" integer NOT NULL,
	"date" date NOT NULL,
	"kind" text NOT NULL,
	"joined" integer DEFAULT 0 NOT NULL,
	"offered" integer DEFAULT 0 NOT NULL,
	"accepted" integer DEFAULT 0 NOT NULL,
	"expired" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "booking_waitlist_counts_pk" PRIMARY KEY("club_id","date","kind")
);
