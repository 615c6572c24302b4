CREATE TABLE "club_cards" (
	"club_id" integer PRIMARY KEY NOT NULL,
	"token" text NOT NULL,
	"last_four" text NOT NULL,
	"brand" text NOT NULL,
	"expiry" text NOT NULL,
	"saved_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "club_charges" (
	"club_id" integer NOT NULL,
	"id" serial NOT NULL,
	"year" integer NOT NULL,
	"attempt" integer NOT NULL,
	"quantity" integer NOT NULL,
	"price" integer NOT NULL,
	"amount" integer NOT NULL,
	"status" text NOT NULL,
	"error" text,
	"charge_id" bigint,
	"last_four" text DEFAULT '' NOT NULL,
	"user_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "club_charges_club_id_id_pk" PRIMARY KEY("club_id","id")
);
--> statement-breakpoint
ALTER TABLE "terminals" ADD COLUMN "software_version" text;--> statement-breakpoint
ALTER TABLE "club_cards" ADD CONSTRAINT "club_cards_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "club_charges" ADD CONSTRAINT "club_charges_club_id_clubs_id_fk" FOREIGN KEY ("club_id") REFERENCES "public"."clubs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "club_charges_attempt" ON "club_charges" USING btree ("club_id","year","attempt");--> statement-breakpoint
CREATE INDEX "club_charges_at" ON "club_charges" USING btree ("created_at");